"""The teams' own pages: what a team's private screen may show, on the
players' phones, behind an address only that team is given.

The address is a capability, ``/T/<token>``, made by the box
(``referee.team_links``, outside the web so that the key flows need not
import it).  It opens the team's page only while its game is the one on the
box; before and after, it is a plain 404 like an address that never existed.

The page shows the game's ``private(state, team)``, which leaves out what
a team's screen shows one player alone (Decrypto's code, for the encryptor).  A game adds its part of the page as the
template ``team-<game>.html`` and, for forms, ``team_form(state, team,
form)`` in its web module (``referee.catalogue``): it gets the game's state,
the team and the form (a dict of short strings) and returns the event to
play; ``games.base.Illegal`` refuses, with a sentence shown on the page.
Forms are guarded against requests from other sites three ways: a per-page
secret in a hidden field, the Origin and Sec-Fetch-Site headers, and a
SameSite=Strict cookie holding the same secret.
"""
from __future__ import annotations

import hmac

from games.base import View
from referee import account, catalogue
from referee.store.events import TeamPage
from referee.store.replay import Replay

MAX_FIELDS = 20
MAX_FIELD = 200       # characters in one form field
COOKIE = "csrf"

def open_page(reader, token: str) -> tuple[TeamPage, Replay] | None:
    """The page and the game behind ``token``, if its game is on the box."""
    page = reader.store.team_page_by_token(token.upper())
    session = reader.session
    if page is None or session is None or session.id != page.game or not catalogue.get(session.name).teams:
        return None
    return page, session


def view(session: Replay, team: int) -> View:
    """What the team's page shows: all of the game's private view for the
    team, which holds only what the whole team may see."""
    return session.rules.private(session.state, team)


def sides(session: Replay) -> list[str]:
    """The teams' names as the pages show them, in seat order."""
    return [account.name_of(session.name, name) for name in session.rules.summary(session.state).players]


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


def forged(request, csrf: str, fields: dict[str, str]) -> bool:
    """Whether a form post did not come from the page whose secret is ``csrf``."""
    if not (_same(fields.get(COOKIE, ""), csrf) and _same(request.cookies.get(COOKIE, ""), csrf)):
        return True
    if request.headers.get("Sec-Fetch-Site", "same-origin") not in ("same-origin", "none"):
        return True
    # Under "Referrer-Policy: no-referrer" browsers send "Origin: null" with
    # a form; the SameSite cookie above vouches for those.
    own = f"{request.scheme}://{request.host}"
    origin = request.headers.get("Origin", "null")
    referer = request.headers.get("Referer", own + "/")
    return origin not in ("null", own) or not referer.startswith(own + "/")
