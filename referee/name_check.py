"""Players' names as the box takes them: clean, short, unique, drawable,
of one script.

The rules clean a name (``games.base.clean_name``); only the box knows its
panels, so the box refuses a name its text font has no glyph for, before a
game starts with a name that would show as boxes on every screen.  The
font's coverage is data (``referee.panel_font``), so that the web, which
answers a phone typing names, checks them without the font and PIL.  A
name whose letters are of two scripts ("Аnia", a Cyrillic А before Latin
letters) looks like another name and is none: it is refused, the two
letters named (``referee.look_alike``).
"""
from __future__ import annotations

from games.base import Illegal, clean_name
from referee.look_alike import scripts
from referee.panel_font import drawable


def undrawable(name: str) -> str | None:
    """The first character of ``name`` the panels cannot draw, if any."""
    return next((c for c in name if not drawable(c)), None)


def check(name) -> str:
    """``name`` cleaned, or ``Illegal`` saying what the table should change."""
    name = clean_name(name)
    char = undrawable(name)
    if char is not None:
        raise Illegal("The screens cannot show {char} in {name}.", char=char, name=name)
    mixed = list(scripts(name).values())
    if len(mixed) > 1:
        raise Illegal("{name} mixes two alphabets ({one} and {other}): type it in one.",
                      name=name, one=mixed[0], other=mixed[1])
    return name


def check_players(options: dict) -> dict:
    """Setup options with their names checked: a list of ``players``, or
    Decrypto's ``members`` team by team.  A count, or no names, passes as it
    is (the rules name those seats)."""
    options = dict(options)
    if isinstance(options.get("players"), (list, tuple)):
        options["players"] = [check(name) for name in options["players"]]
    members = options.get("members")
    if isinstance(members, (list, tuple)) and all(isinstance(team, (list, tuple)) for team in members):
        options["members"] = [[check(name) for name in team] for team in members]
    return options
