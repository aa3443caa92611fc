"""The addresses of the teams' own pages, as a team's screen shows them.

The box makes the address (it owns the store and puts the QR code on the
team's screen); the web serves the page behind it (``referee.web.team_pages``).
It lives here, outside ``referee.web``, so that a key flow never imports
the web: the web imports the flows, never the other way.

The address is a capability, ``/T/<token>``: 128 random bits from
``secrets``, written in base32 (capitals and digits, so that the QR code on
the team's screen can use the compact alphanumeric mode).  Every team of
every game gets a new one, kept in the store so that it survives a power
cut.
"""
from __future__ import annotations

import base64
import secrets

from referee import catalogue
from referee.store.events import TeamPage


def new_token() -> str:
    return base64.b32encode(secrets.token_bytes(16)).decode().rstrip("=")


def team_url(box, team: int) -> str:
    """The address of ``team``'s page for the game on the box, for the QR
    code on that team's screen.  Made on first use; a new game, a new one."""
    session = box.session
    teams = catalogue.get(session.name).teams if session is not None else 0
    if not teams:
        raise ValueError("only a team game has team pages")
    if team not in range(teams):
        raise ValueError(f"no team {team!r} in {session.name}")
    page = box.store.team_page(session.id, team)
    if page is None:
        page = TeamPage(new_token(), session.id, team, secrets.token_urlsafe(16))
        box.store.add_team_page(page)
    return box.public_url() + "T/" + page.token
