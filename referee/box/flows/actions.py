"""The last action, in a few words: what holding ``*`` offers to take back.

``describe(session)`` names the last player action of a game ("roll 4+3 →
T", "Ania's NO") so that the undo question says what it undoes.  Each game's
key flows (``referee.catalogue``) have a ``describe(event, before)`` reading
the state *before* that action, where the names and the letter table are,
and may have a ``describe_roll`` for what its rolls mean.
"""
from __future__ import annotations

from games import base
from referee import catalogue
from referee.i18n import _


def describe(session) -> str:
    """The last player action in a few words, or "" if there is none."""
    found = session.last_action()
    if found is None:
        return ""
    event, before = found
    if isinstance(event, base.Rolled):
        rolled = catalogue.hook(session.name, "flows", "describe_roll")
        if rolled is not None:
            return rolled(event, before)
        return _("roll {dice}").format(dice="+".join(map(str, event.values)))
    said = catalogue.hook(session.name, "flows", "describe")
    return said(event, before) if said is not None else ""
