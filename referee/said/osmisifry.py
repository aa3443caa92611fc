"""Osmišifry: what a player did, in the words of the box's ``»`` line and
undo question, which the replay on the phones repeats (``referee.said``)."""
from __future__ import annotations

from games import osmisifry as osm
from games.base import Summary
from referee.account import Facts, Side, name_of
from referee.glossary import Ruling, Term
from referee.guide import SETUP, Guide, Phase, Shot
from referee.i18n import N_, _


def describe(event, before) -> str:
    """The action in a few words, read in the state before it."""
    match event:
        case osm.PickLetter(player, index):
            letter = before.offer.letters[index] if index < len(before.offer.letters) else "?"
            return _("{name} takes {letter}").format(name=before.players[player], letter=letter)
        case osm.Drawing(player):
            return _("{name} drawing").format(name=before.players[player])
        case osm.EndCreation():
            return _("end of creation")
        case osm.StartDecoding():
            return _("start of decoding")
        case osm.EndDecoding():
            return _("officers done")
        case osm.Score(agent):
            return _("score of {name}").format(name=before.players[agent])
    return ""


def describe_roll(event, before) -> str:
    """A roll in a few words: the letter or the side it gave."""
    dice = "+".join(map(str, event.values))
    if event.purpose == "letter":
        return _("roll {dice} → {letter}").format(dice=dice, letter=before.table.letter(*event.values))
    if event.purpose == "direction":
        side = _("left") if event.values[0] <= 4 else _("right")   # [OS-9]
        return _("roll {dice} → {side}").format(dice=dice, side=side)
    return _("roll {dice}").format(dice=dice)


# What an Osmišifry game is doing after its creation rounds, as the box's pages are titled.
PHASES = {"direction": N_("Pass the booklets"), "decoding": N_("Decoding"), "scoring": N_("Scoring")}


def stage(v: osm.Public) -> str:
    phase = v.phase
    if phase == "creation":
        return _("Creation, round {n} of {last}").format(n=v.round, last=v.rounds)
    return _(PHASES[phase]) if phase in PHASES else ""


def account(v: osm.Public, summary: Summary) -> Facts:
    """The round or phase, whose pick it is, and the points once booklets are scored."""
    names = v.players
    turn = _("It is {player}'s turn to pick.").format(player=name_of(osm.NAME, names[v.turn])) \
        if v.phase == "creation" and v.turn is not None else ""
    scored = any(s is not None for s in v.scores)
    sides = [Side(name_of(osm.NAME, name), points=v.totals[name] if scored else None) for name in names]
    return Facts(stage(v), turn, sides)


# The words of Osmišifry's screens, defined (``referee.glossary``).
GLOSSARY = (
    Term(N_("agent|agent|agents"), N_("You, with a grid of words to be found.")),
    Term(N_("grid|grid|grids"), N_("Your 6x6 letters; words run 8 ways.")),
    Term(N_("row|row|rows"), N_("A round's letters, one more than players.")),
    Term(N_("creation|creation"), N_("The rounds of picking letters.")),
    Term(N_("pictures drawn|pictures|drawing|draws"), N_("One per word; who draws picks last.")),
    Term(N_("booklet|booklet|booklets"), N_("Your grid and pictures, passed on.")),
    Term(N_("direction|direction"), N_("One d8: 1-4 pass left, 5-8 right.")),
    Term(N_("officer|officer|officers"), N_("Gets your booklet, seeks your words.")),
    Term(N_("decoding|decoding"), N_("The officers' 5 minutes.")),
    Term(N_("found and named|found|named"), N_("+2 to the agent, +1 to the officer.")),
    Term(N_("unused letters|unused"), N_("Left uncrossed, not secret: -1 each.")),
    Term(N_("secret word|destroyed"), N_("5 letters to keep readable, or -5.")),
)


# A first game taught (``referee.box.flows.teacher``): the page before each phase
# the first time it comes up, keyed by ``osm.step(state).kind``.
TEACH = {
    "roll_letter": N_("The box rolls two d8 per letter of a row: one letter more than players. # or ROLL."),
    "pick": N_("In turn, each agent takes a letter of the row for the grid: its digit."),
    "roll_direction": N_("Creation is over. A d8 sends the booklets: 1-4 left, 5-8 right. #: roll."),
    "start_decoding": N_("Pass your booklet on as shown: who gets it is its officer. # starts five minutes."),
    "decoding": N_("Officers: find and name the words of the pictures in the grid. All done early: ##."),
    "score": N_("Each booklet: type the officer's counts, each then #. Secret word destroyed? A/B."),
}

# Why the referee decided, after each decision ``decisions`` names.
WHY = {
    "direction": Ruling("OS-9", N_("d8: {roll}. 1-4 pass left, 5-8 right; who gets a booklet is its officer.")),
    "agent": Ruling("OS-11", N_("{agent}: 2 per word found and named, -1 per "
                                "unused letter, -5 if destroyed: {points}.")),
    "officer": Ruling("OS-12", N_("{officer}, officer: 1 per word found and named: {points}.")),
    "result": Ruling("OS-13", N_("Agent and officer points add up; the best agent has the most: {names}.")),
}


def decisions(event, before: osm.State, after: osm.State) -> list[tuple[str, dict[str, str]]]:
    """The referee's decisions ``event`` made, as ``WHY`` keys and their fields."""
    made: list[tuple[str, dict[str, str]]] = []
    if before.direction is None and after.direction is not None:
        made.append(("direction", {"roll": str(after.direction)}))
    if isinstance(event, osm.Score):
        points = osm.points(after)
        agent = after.players[event.agent]
        officer = after.players[(osm.officers(after) or ())[event.agent]]
        made.append(("agent", {"agent": agent, "points": str(points[agent]["agent"])}))
        made.append(("officer", {"officer": officer, "points": str(event.found)}))
        if osm.step(after).kind == "over":
            made.append(("result", {"names": ", ".join(osm.best_agents(after))}))
    return made
# How to play, for the phones' /how/osmisifry page (``referee.guide``).
GUIDE = Guide(
    goal=N_("Fill your grid with letters, hide words in it and draw a picture for each word: your officer has "
            "five minutes to find them."),
    table=(N_("Each agent's booklet: the grid and the pictures."),
           N_("The secret word, agreed before play and written into every grid."),
           N_("Pens, and two d8 if the box has no dice module.")),
    box=(N_("Rolls each row of letters, one more than players, a row ahead."),
         N_("Says whose pick it is; a player who is drawing picks last."),
         N_("Rolls the direction, runs the five minutes and adds up the scores.")),
    phases=(
        Phase(SETUP, N_("Setup"), N_("Choose the players, the letter table and who starts."),
              (N_("1-3: change an option"), N_("A: tonight's players; B: names typed on a phone"), N_("#: start"),
               N_("C: help")),
              (Shot("setup", N_("The setup page.")),)),
        Phase("creation", N_("Creation"),
              N_("Each round the box rolls the next row; then each player picks a letter of this round's row and "
                 "writes it into the grid."),
              (N_("#: roll (or ROLL on the dice module)"), N_("A digit: the letter picked"),
               N_("B: a player is drawing and picks last"), N_("D: end creation early")),
              (Shot("roll", N_("Round 1: the box asks for a roll of 2d8.")),
               Shot("pick", N_("Row 1 is T E N: Player 1 picks; row 2 is rolled already.")),
               Shot("end", N_("D: the table ends creation early.")))),
        Phase("direction", N_("Pass the booklets"),
              N_("One d8: on 1-4 every booklet goes to the left, on 5-8 to the right. Whoever gets one is that "
                 "agent's officer."),
              (N_("#: roll the d8"), N_("#: booklets handed over; the five minutes start")),
              (Shot("direction", N_("The box asks for the direction.")),
               Shot("officers", N_("A 3: to the left. Each booklet and its officer.")))),
        Phase("decoding", N_("Decoding"), N_("The officers have five minutes to find and name the words."),
              (N_("#: all officers are done early"),),
              (Shot("decoding", N_("The five minutes, on every screen.")),)),
        Phase("scoring", N_("Scoring"), N_("For each booklet, key in what its officer found."),
              (N_("Digits, then #: pictures drawn, found and named, unused letters"),
               N_("A: the secret word is destroyed; B: it is readable"), N_("*: back a question")),
              (Shot("scoring", N_("The worked example keyed in: 11 pictures, 9 found, 5 unused letters.")),
               Shot("result", N_("The scores: agent + officer = total.")))),
    ),
    scoring=(N_("Agent: +2 for each word found and named, -1 for each unused letter, -5 if the secret word is "
                "destroyed."),
             N_("Officer: +1 for each word found and named."),
             N_("Total: agent + officer. The highest total is the best agent.")),
    example=(N_("The officer found and named 9 of 11 words; 5 letters stayed unused; the secret word was destroyed."),
             N_("Officer: 9 points."),
             N_("Agent: 18 - 5 - 5 = 8 points.")),
)

# The How to play page's anchor (``GUIDE``'s phases) for each phase of the rules (``osm.step``).
HOW_AT = {"roll_letter": "creation", "pick": "creation", "roll_direction": "direction",
          "start_decoding": "direction", "decoding": "decoding", "score": "scoring", "over": "scoring"}
