"""Da Vinci Code: what a player did, in the words of the box's ``»`` line and
undo question, which the replay on the phones repeats (``referee.said``)."""
from __future__ import annotations

from games import base
from games import davinci as dv
from games.base import Summary
from referee import setup_names
from referee.account import Facts, Side, name_of
from referee.glossary import Ruling, Term
from referee.guide import SETUP, Guide, Phase, Shot
from referee.i18n import N_, _


def seat_label(seat: int, players: tuple[str, ...] = ()) -> str:
    """A seat as the screens name it: the name the table gave it, or P1…P4
    where it kept its default (``referee.setup_names.is_default``)."""
    name = players[seat] if seat < len(players) else ""
    return name if name and not setup_names.is_default(name) else _("P{n}").format(n=seat + 1)


def describe(event, before) -> str:
    """The action in a few words, read in the state before it."""
    match event:
        case dv.Dealt(starts=starter):
            # Who starts, not "the deal": what the # on the deal page chose.
            seat = before.starter if starter is None else starter
            return _("{p} starts the deal").format(p=seat_label(seat, before.players))
        case dv.Attack(target, hit, by):
            who = seat_label(before.turn if by is None else by, before.players)
            text = _("{p} hits {t}") if hit else _("{p} misses {t}")
            return text.format(p=who, t=seat_label(target, before.players))
        case dv.Stop():
            return _("{p} stops").format(p=seat_label(before.turn, before.players))
        case dv.NextGame():
            return _("next game")
    return ""


def account(v: dv.Public, summary: Summary) -> Facts:
    """The game of a tournament, whose turn it is, each player's tiles
    hidden and face up, and the tournament's points."""
    games = v.games
    stage = _("Game {n} of {last}").format(n=v.game, last=games) if games > 1 else ""
    turn = "" if v.step.kind in ("over", "next_game") else _("{player} to play").format(player=name_of(dv.NAME, v.turn))
    sides = [Side(name_of(dv.NAME, p.name), _("hidden {h}, up {r}").format(h=p.hidden, r=p.revealed),
                  points=v.standings[p.name] if games > 1 else None) for p in v.players]
    return Facts(stage, turn, sides)


# The words of Da Vinci Code's screens, defined (``referee.glossary``).
GLOSSARY = (
    Term(N_("tiles|tile|tiles"), N_("Numbers 0-11, in black and in white.")),
    Term(N_("row|row"), N_("Your tiles, low to high; black left of white.")),
    Term(N_("black, white|black|white"), N_("Equal numbers: black stands left.")),
    Term(N_("hidden|hidden"), N_("Face down; the last with one wins.")),
    Term(N_("pool|pool"), N_("The face-down tiles; take one a turn.")),
    Term(N_("attack|attack|attacks"), N_("Point at a tile, say its colour and number.")),
    Term(N_("hit|hit|hits"), N_("Right: it is shown; go on, or stop.")),
    Term(N_("miss|miss|missed|misses"), N_("Wrong: your new tile goes in face up.")),
    Term(N_("joker|joker|jokers"), N_("A dash tile, anywhere in a row, never moves.")),
)


# A first game taught (``referee.box.flows.teacher``): the page before each phase
# the first time it comes up, keyed by ``dv.step(state).kind``.
TEACH = {
    "deal": N_("Draw tiles hidden and sort them: low left, black first on a tie. Digit: who starts; #."),
    "attack": N_("Draw a tile, hidden. Name another's hidden tile: their digit, then A hit or B miss."),
    "again": N_("A hit! Attack again: A, a digit. Or #: the drawn tile joins your row hidden."),
    "next_game": N_("This game of the tournament is over. # deals the next one."),
}

# Why the referee decided, after each decision ``decisions`` names.
WHY = {
    "hit": Ruling("DV-5", N_("A hit: {target} turns that tile face up. {attacker} may attack again or stop.")),
    "miss": Ruling("DV-6", N_("A miss: {attacker} lays the drawn tile face up in the row. The turn ends.")),
    "late": Ruling("DV-9", N_("Time is up: a late turn counts as a miss.")),
    "stop": Ruling("DV-5", N_("{attacker} stops: the drawn tile goes into the row, in order, hidden.")),
    "out": Ruling("DV-8", N_("Every tile of {target} is face up: {target} is out.")),
    "won": Ruling("DV-8", N_("{winner} is the last with hidden tiles: {winner} wins.")),
}


def decisions(event, before: dv.State, after: dv.State) -> list[tuple[str, dict[str, str]]]:
    """The referee's decisions ``event`` made, as ``WHY`` keys and their fields."""
    made: list[tuple[str, dict[str, str]]] = []
    attacker = before.players[before.turn]
    match event:
        case dv.Attack(target, hit):
            names = {"attacker": attacker, "target": before.players[target]}
            made.append(("hit" if hit else "miss", names))
        case dv.Stop():
            made.append(("stop", {"attacker": attacker}))
        case base.TimerExpired():
            made.append(("late", {}))
    for gone in after.out[len(before.out):]:
        made.append(("out", {"target": after.players[gone.seat]}))
    if before.winner is None and after.winner is not None:
        made.append(("won", {"winner": after.players[after.winner]}))
    return made
# How to play, for the phones' /how/davinci page (``referee.guide``).
GUIDE = Guide(
    goal=N_("Guess the others' hidden tiles before they guess yours: the last with a hidden tile wins."),
    table=(N_("The tiles, 0-11 in black and in white, and the jokers if you play with them."),
           N_("Each player's row, standing so that only its owner sees it.")),
    box=(N_("Says whose turn it is and counts each row's hidden tiles and those shown."),
         N_("Runs the turn's time if you chose a timer."),
         N_("Keeps a tournament's points, game after game.")),
    phases=(
        Phase(SETUP, N_("Setup"), N_("Choose the players, the rules (jokers or not), a timer and a tournament."),
              (N_("1-3: change an option"), N_("D: more options"), N_("#: start"), N_("C: help")),
              (Shot("setup", N_("The setup page.")),)),
        Phase("deal", N_("The deal"), N_("Each takes 4 tiles (3 when four play) and sorts them low to high."),
              (N_("A digit: who starts"), N_("#: the one shown starts")),
              (Shot("deal", N_("Take the tiles; who starts?")),)),
        Phase("turn", N_("A turn"),
              N_("Draw a tile and keep it hidden; point at another's tile and say its colour and number. Tell the "
                 "box whom you attacked and whether you hit."),
              (N_("A digit: the player attacked"), N_("A: hit; B: miss"), N_("A: attack again; #: stop")),
              (Shot("draw", N_("P1 draws, then attacks.")),
               Shot("attack", N_("P1 attacks P2: hit or miss?")),
               Shot("hit", N_("A hit: attack again, or stop.")),
               Shot("miss", N_("P2 missed P3: P3's turn.")),
               Shot("rows", N_("The team screens show every row."), "team1"))),
    ),
    scoring=(N_("A hit: the tile is turned up; attack again, or stop and put the drawn tile in your row hidden."),
             N_("A miss: the drawn tile goes in your row face up."),
             N_("A tournament, each game: 1 for each tile guessed, 3 for each code finished, 5 for the win.")),
    example=(N_("In a game of a tournament Ann guesses 4 tiles, finishes one player's code and wins:"),
             N_("4 + 3 + 5 = 12 points.")),
)

# The How to play page's anchor (``GUIDE``'s phases) for each phase of the rules (``dv.step``).
HOW_AT = {"deal": "deal", "attack": "turn", "again": "turn", "next_game": "deal", "over": "turn"}
