"""Decipher: what a player did, in the words of the box's ``»`` line and
undo question, which the replay on the phones repeats (``referee.said``)."""
from __future__ import annotations

from games import decipher as game
from referee.i18n import _


def describe(event, before) -> str:
    """The action in a few words, read in the state before it."""
    maker = before.players[before.maker]
    match event:
        case game.Pieces():
            # [DC-3] The undo question is on main: the count stays the maker's.
            return _("the piece count")
        case game.BonusMode():
            return _("bonus mode")
        case game.No():
            return _("{name}'s NO").format(name=maker)
        case game.Yes():
            return _("{name}'s YES").format(name=maker)
        case game.PieceRequested():
            return _("{name} asks a piece").format(name=before.players[before.seeker])
        case game.Guess(seeker, right):
            text = _("{name} guessed right") if right else _("{name} guessed wrong")
            return text.format(name=before.players[seeker])
        case game.GiveUp():
            return _("nobody guesses")
        case game.NextRound():
            return _("next round")
    return ""
