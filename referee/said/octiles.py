"""Octiles: what a player did, in the words of the box's ``»`` line and
undo question, which the replay on the phones repeats (``referee.said``)."""
from __future__ import annotations

from games import octiles as oc
from referee import catalogue
from referee.account import Facts, Side, name_of
from referee.glossary import Term
from referee.i18n import N_, _


# Given a count, the rules name the players after their seats.
# The seats' names the rules give, in English; the screens translate them.
SEAT_NAMES = {name: name for name in catalogue.get("octiles").rule_names}


def describe(event, before) -> str:
    """The action in a few words, read in the state before it."""
    def name(seat: int) -> str:
        given = before.names[seat]
        return _(SEAT_NAMES[given]) if given in SEAT_NAMES else given
    match event:
        case oc.Play(space, _rotation, start, end):
            # The runner's move too, by the names the overlay prints: the
            # table checks it against the board.
            return _("{name}: tile on {n}, {move}").format(name=name(before.turn), n=oc.place(space),
                                                          move=oc.move_name(start, end))
        case oc.Played(space):
            return _("{name}: tile on {n}").format(name=name(before.turn), n=oc.place(space))
        case oc.Pass():
            return _("{name} passes").format(name=name(before.turn))
        case oc.Finished(seat):
            return _("{name} finished").format(name=name(seat))
        case oc.Stop():
            return _("stopping the game")
    return ""


def account(v: dict, summary: dict) -> Facts:
    """The round, who plays, and in referee mode each player's runners home."""
    home = v.get("home", {})
    sides = [Side(name_of(oc.NAME, name),
                  _("runners home: {n}").format(n=home[name]) if name in home else "") for name in v["players"]]
    turn = "" if v["over"] else _("{name} to play").format(name=name_of(oc.NAME, v["player"]))
    return Facts(_("Round {n}").format(n=v["round"]), turn, sides)


# The words of Octiles' screens, defined (``referee.glossary``).
GLOSSARY = (
    Term(N_("space|space|spaces"), N_("An octagon of the board, numbered 1-17.")),
    Term(N_("tile|tile|tiles"), N_("An octagon with 4 paths; 18 in the deck.")),
    Term(N_("deck|deck"), N_("The tiles face down; a tile taken off goes under.")),
    Term(N_("path|path|paths"), N_("A line a runner follows to a circle.")),
    Term(N_("circle|circle|circles"), N_("Where paths meet; a runner stops there.")),
    Term(N_("runner|runner|runners"), N_("One of yours; bring them to the far edge.")),
    Term(N_("home|home|homes"), N_("Edge circles: start on yours, end opposite.")),
    Term(N_("referee mode|referee"), N_("The box checks each move.")),
    Term(N_("dealer mode|dealer"), N_("The box only deals the tiles.")),
)
