"""Octiles: what a player did, in the words of the box's ``»`` line and
undo question, which the replay on the phones repeats (``referee.said``)."""
from __future__ import annotations

from games import octiles as oc
from games.base import Summary
from referee import catalogue
from referee.account import Facts, Side, name_of
from referee.glossary import Ruling, Term
from referee.guide import SETUP, Guide, Phase, Shot
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


def account(v: oc.Public, summary: Summary) -> Facts:
    """The round, who plays, and in referee mode each player's runners home."""
    home = v.home or {}
    sides = [Side(name_of(oc.NAME, name),
                  _("runners home: {n}").format(n=home[name]) if name in home else "") for name in v.players]
    turn = "" if v.over or v.player is None else _("{name} to play").format(name=name_of(oc.NAME, v.player))
    return Facts(_("Round {n}").format(n=v.round), turn, sides)


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
    "play": N_("Lay the tile so a runner of yours moves: space 1-17, #. A or B turns it; #."),
    "no_move": N_("No move the rules allow with this tile: # passes; it stays on top for the next."),
    "stuck": N_("Nobody could move with this tile for a round: # puts it under the deck."),
}

# Why the referee decided, after each decision ``decisions`` names.
WHY = {
    "pass": Ruling("OC-8", N_("{player} passes. If all pass in one round, "
                              "the first who can move must move.")),
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
# How to play, for the phones' /how/octiles page (``referee.guide``).
GUIDE = Guide(
    goal=N_("Bring all your runners from your start homes to the homes on the far edge. The first with every "
            "runner home wins."),
    table=(N_("The board: its 17 spaces, where the tiles are laid."),
           N_("Each player's runners, on the start homes they choose.")),
    box=(N_("Shuffles and deals the tiles: its picture shows the tile to play."),
         N_("Checks each move, keeps the turns and the passes."),
         N_("Knows where every runner stands, and who is home.")),
    phases=(
        Phase(SETUP, N_("Setup"),
              N_("Choose the players, the runners (3 to 5) and whether the box checks moves or only deals."),
              (N_("1-3: change an option"), N_("D: more options"), N_("#: start"), N_("C: help")),
              (Shot("setup", N_("The setup page.")),)),
        Phase("turn", N_("A turn"),
              N_("Lay the tile on an empty space, or swap it for a tile there; then move one runner along a path "
                 "over it to the first circle."),
              (N_("1-17, then #: the space"), N_("A, B: turn the tile"), N_("#: lay it and move"),
               N_("A digit: which move, when there are more"), N_("D: pass, the map of the spaces")),
              (Shot("tile", N_("West's turn: the tile to play.")),
               Shot("space", N_("Space 12 keyed in.")),
               Shot("turn", N_("The tile on space 12, turned with A and B.")),
               Shot("move", N_("The moves the tile allows.")),
               Shot("next", N_("East's turn, with the next tile.")))),
    ),
    scoring=(N_("No points: the first with every runner home wins; the box keeps the order of the others."),
             N_("A runner stops at the first circle it reaches, never goes back into its own start homes nor "
                "into another's goal homes."),
             N_("After your turn one of your start homes must be empty.")),
    example=(N_("West lays the first tile on space 12; its path takes a runner one circle on, and East plays "
                "next."),),
)

# The How to play page's anchor (``GUIDE``'s phases) for each phase of the rules (``oc.step``).
HOW_AT = {"shuffle": "turn", "play": "turn", "no_move": "turn", "stuck": "turn", "over": "turn"}
