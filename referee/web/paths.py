"""The patterns of the web's addresses, in one place: every feature's
routes are written with these, so that an address's shape (a game's
number, an evening's day, a page's key) is the same on every page."""
from __future__ import annotations

DAY = r"{day:[0-9]{4}-[0-9]{2}-[0-9]{2}}"
GAME = r"{id:[0-9]{1,9}}"
STEP = r"{step:[0-9]{1,6}}"
# A capability page's key: 26 letters of base32, as the box's QR codes write them.
TOKEN = r"{token:[A-Za-z2-7]{26}}"
WHO = r"{who:[^/]{1,201}}"     # a key may hold dots ("J.R."): the files' suffix is matched last
# A game's ladder, all-time and a season's, on the box's web and the league's alike.
LADDERS = ("/p/ladder/{game}", "/p/ladder/{game}/{season}")
LADDER_FILES = ("/api/p/ladder/{game}.json", "/api/p/ladder/{game}/{season}.json")


def both_cases(letter: str) -> tuple[str, str]:
    """A capability page's prefix as typed and as a compact QR code writes
    it, in capitals: ("/T/", "/t/")."""
    return f"/{letter.upper()}/", f"/{letter.lower()}/"
# How to play: a game's short name as the catalogue writes it ("osmisifry"),
# or in any case as the box's Help QR code writes it with its phase.
KIND = r"{game:[a-z]{1,20}}"
KIND_ANY_CASE = r"{game:[A-Za-z]{1,20}}"
PHASE = r"{phase:[A-Za-z]{1,20}}"
LANG = r"{lang:[a-z]{2}}"
PICTURE = r"{shot:[a-z0-9-]{1,40}}"
