"""Octiles: what a player did, in the words of the box's ``»`` line and
undo question, which the replay on the phones repeats (``referee.said``)."""
from __future__ import annotations

from games import octiles as oc
from referee import catalogue
from referee.account import Facts, Side, name_of
from referee.glossary import Ruling, Term
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
        case oc.Play(space) | oc.Played(space):
            return _("{name}: tile on {n}").format(name=name(before.turn), n=oc.space_number(space))
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


# A first game taught (``referee.box.flows.teacher``): the page before each phase
# the first time it comes up, keyed by ``oc.step(state).kind``.
TEACH = {
    "play": N_("Lay the tile shown on a space so a runner of yours moves on. Type the space 1-17 "
               "and #; turn the picture with A and B to match, then #."),
    "no_move": N_("This tile gives you no move the rules allow. # passes: the tile stays on top "
                  "for the next player."),
    "stuck": N_("Nobody could move with this tile for a whole round: # puts it under the deck "
                "and the next player draws."),
}

# Why the referee decided, after each decision ``decisions`` names.
WHY = {
    "pass": Ruling("OC-8", N_("{player} passes. If everyone passes in one round, the first who can move "
                              "must move.")),
    "finished": Ruling("OC-9", N_("Every runner of {player} is in a goal home: {player} has finished.")),
}


def decisions(event, before: oc.State, after: oc.State) -> list[tuple[str, dict[str, str]]]:
    """The referee's decisions ``event`` made, as ``WHY`` keys and their fields."""
    made: list[tuple[str, dict[str, str]]] = []
    if isinstance(event, oc.Pass):
        made.append(("pass", {"player": name_of(oc.NAME, before.names[before.turn])}))
    for seat in after.finishers[len(before.finishers):]:
        made.append(("finished", {"player": name_of(oc.NAME, after.names[seat])}))
    return made
