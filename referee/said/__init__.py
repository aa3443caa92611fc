"""What a player did, in a few words: "Ania takes I", "Black: 1-2-3 right".

The box says it on its ``»`` line and in the undo question
(``referee.box.flows.actions``), and the replay on the phones
(``referee.web.replay``) says the same words for every step, so both
processes read them here.  Each game's words are ``describe(event,
before)`` in the module its catalogue entry names as ``said``
(``referee.said.<game>`` for the built-in ones; the state *before* the
action holds the names and the letter table), with an optional
``describe_roll`` for what its rolls mean; the game's key flows take them
from there.
"""
from __future__ import annotations

from games import base
from referee import catalogue
from referee.i18n import _


def describe(name: str, event, before) -> str:
    """``event`` of game ``name`` in a few words, "" where the game has
    none for it."""
    if isinstance(event, base.Rolled):
        rolled = catalogue.hook(name, "said", "describe_roll")
        if rolled is not None:
            return rolled(event, before)
        return _("roll {dice}").format(dice="+".join(map(str, event.values)))
    said = catalogue.hook(name, "said", "describe")
    return said(event, before) if said is not None else ""
