"""The teams' own pages: what a team's private screen may show, on the
players' phones, behind an address only that team is given.

The address is a capability, ``/T/<token>``: 128 random bits from
``secrets``, written in base32 (capitals and digits, so that the QR code on
the team's screen can use the compact alphanumeric mode).  Every team of
every game gets a new one, kept in the store so that it survives a power
cut.  It opens the team's page only while its game is the one on the box;
before and after, it is a plain 404 like an address that never existed.

The page shows the game's ``private(state, team)`` less what the team's
screen shows only on demand.  A game adds its part of the page as the
template ``team-<game>.html`` and, for forms, a handler registered with
``action``.  Forms are guarded against requests from other sites three
ways: a per-page secret in a hidden field, the Origin and Sec-Fetch-Site
headers, and a SameSite=Strict cookie holding the same secret.
"""
from __future__ import annotations

import base64
import hmac
import secrets
from typing import Callable

from referee.session import Session
from referee.store import TeamPage

TEAM_GAMES = {"decrypto": 2}   # games played in teams: how many teams
# [DE-3] The code is for the encryptor alone, on the team's screen only
# while the team button is held; a page open on phones never shows it.
WITHHELD = {"decrypto": frozenset({"code"})}
MAX_FIELDS = 20
MAX_FIELD = 200       # characters in one form field
COOKIE = "csrf"

# game name -> handler(state, team, form) -> event; see ``action``
ACTIONS: dict[str, Callable] = {}


def action(game: str):
    """Register what a POST to a team page of ``game`` does: the handler
    gets the game's state, the team and the form (a dict of short strings)
    and returns the event to play; ``games.base.Illegal`` refuses, with a
    sentence shown on the page."""
    def register(handler):
        ACTIONS[game] = handler
        return handler
    return register


def new_token() -> str:
    return base64.b32encode(secrets.token_bytes(16)).decode().rstrip("=")


def team_url(box, team: int) -> str:
    """The address of ``team``'s page for the game on the box, for the QR
    code on that team's screen.  Made on first use; a new game, a new one."""
    session = box.session
    if session is None or session.name not in TEAM_GAMES:
        raise ValueError("only a team game has team pages")
    if team not in range(TEAM_GAMES[session.name]):
        raise ValueError(f"no team {team!r} in {session.name}")
    page = box.store.team_page(session.id, team)
    if page is None:
        page = TeamPage(new_token(), session.id, team, secrets.token_urlsafe(16))
        box.store.add_team_page(page)
    return box.public_url() + "T/" + page.token


def open_page(box, token: str) -> tuple[TeamPage, Session] | None:
    """The page and the game behind ``token``, if its game is on the box."""
    page = box.store.team_page_by_token(token.upper())
    session = box.session
    if page is None or session is None or session.id != page.game or session.name not in TEAM_GAMES:
        return None
    return page, session


def view(session: Session, team: int) -> dict:
    shown = session.rules.private(session.state, team)
    hidden = WITHHELD.get(session.name, frozenset())
    return {key: value for key, value in shown.items() if key not in hidden}


def form_fields(form) -> dict[str, str] | None:
    """The form as short strings, or None if it is not one a page sends."""
    if len(form) > MAX_FIELDS:
        return None
    fields = {}
    for key, value in form.items():
        if not isinstance(value, str) or len(value) > MAX_FIELD or len(key) > MAX_FIELD:
            return None
        fields[key] = value
    return fields


def _same(given: str, secret: str) -> bool:
    return hmac.compare_digest(given.encode(), secret.encode())


def forged(request, page: TeamPage, fields: dict[str, str]) -> bool:
    """Whether a form post did not come from the team's page itself."""
    if not (_same(fields.get(COOKIE, ""), page.csrf) and _same(request.cookies.get(COOKIE, ""), page.csrf)):
        return True
    if request.headers.get("Sec-Fetch-Site", "same-origin") not in ("same-origin", "none"):
        return True
    # Under "Referrer-Policy: no-referrer" browsers send "Origin: null" with
    # a form; the SameSite cookie above vouches for those.
    own = f"{request.scheme}://{request.host}"
    origin = request.headers.get("Origin", "null")
    referer = request.headers.get("Referer", own + "/")
    return origin not in ("null", own) or not referer.startswith(own + "/")
