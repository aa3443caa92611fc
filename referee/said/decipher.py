"""Decipher: what a player did, in the words of the box's ``»`` line and
undo question, which the replay on the phones repeats (``referee.said``)."""
from __future__ import annotations

from games import decipher as game
from games.base import Summary
from referee.account import Facts, Side, name_of
from referee.glossary import Ruling, Term
from referee.guide import SETUP, Guide, Phase, Shot
from referee.i18n import N_, _


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


def account(v: game.Public, summary: Summary) -> Facts:
    """The round, whose turn it is to seek, and each player's points."""
    kind = v.step.kind
    if kind == "guess":
        turn = _("All pieces are out.")
    elif v.seeker is not None:
        turn = _("Turn: {name}").format(name=name_of(game.NAME, v.seeker))
    else:
        turn = ""
    sides = [Side(name_of(game.NAME, p.name), "" if p.maker else f"{_('Guess tokens')} {p.guess_tokens}",
                  points=v.totals[p.name]) for p in v.players]
    return Facts(_("Round {round}/{rounds}").format(round=v.round, rounds=v.rounds), turn, sides)


# The words of Decipher's screens, defined (``referee.glossary``).
GLOSSARY = (
    Term(N_("maker|maker|makers"), N_("Builds the secret word and answers.")),
    Term(N_("seeker|seeker|seekers"), N_("Places pieces and guesses the word.")),
    Term(N_("piece|piece|pieces"), N_("A part of a letter, handed to a seeker.")),
    Term(N_("field|field|fields"), N_("A letter's place on the board.")),
    Term(N_("chamber|chamber"), N_("Where the maker hides the word's pieces.")),
    Term(N_("guess tokens|token|tokens"), N_("3 a seeker a round; a guess costs one.")),
    Term(N_("NO tokens|"), N_("A piece refused on a field: 1 to the maker.")),
    Term(N_("bonus mode|bonus"), N_("Last 3 pieces: each gives the maker 2.")),
    Term(N_("solution token|solution"), N_("5 to who guesses; else to the maker.")),
)


# A first game taught (``referee.box.flows.teacher``): the page before each phase
# the first time it comes up, keyed by ``game.step(state).kind``.
TEACH = {
    "place": N_("The maker hides a word. Seekers in turn lay a piece: fits? Maker: A yes, B no."),
    "request": N_("Bonus mode: a seeker asks for each last piece: # gives it and a bonus token."),
    "guess": N_("No piece left: only guesses. A seeker's digit and guess, then A right or B wrong."),
    "scored": N_("The round is scored: C and D turn pages; # starts the next one, the next maker."),
}

# Why the referee decided, after each decision ``decisions`` names.
WHY = {
    "no": Ruling("DC-5", N_("No: a NO token covers that symbol there, "
                            "1 point for {maker}. {seeker} tries again.")),
    "yes": Ruling("DC-6", N_("Yes: the piece stays. {seeker} gets the next piece.")),
    "bonus": Ruling("DC-6", N_("The piece stays, and 3 are left in the chamber: bonus mode starts.")),
    "wrong": Ruling("DC-8", N_("A wrong guess costs {seeker} a guess token; play goes on.")),
    "out": Ruling("DC-8", N_("{seeker} has failed 3 times and is out for this round.")),
    "right": Ruling("DC-8", N_("{seeker} guessed the word: the round ends.")),
    # Who holds which token (the maker's NOs, bonuses taken and guesses spent; the
    # solver's solution and bonuses left) the round table's pages show, next.
    "scored": Ruling("DC-10", N_("Points per token held: NO 1, bonus 2, guess 1, solution 5. Next: who has "
                                 "which.")),
}


def decisions(event, before: game.State, after: game.State) -> list[tuple[str, dict[str, str]]]:
    """The referee's decisions ``event`` made, as ``WHY`` keys and their fields."""
    made: list[tuple[str, dict[str, str]]] = []
    maker = before.players[before.maker]
    match event:
        case game.No():
            made.append(("no", {"maker": maker, "seeker": before.players[before.seeker]}))
        case game.Yes() if after.bonus and not before.bonus:
            made.append(("bonus", {}))
        case game.Yes() if after.phase == "play":
            made.append(("yes", {"seeker": after.players[after.seeker]}))
        case game.Guess(seeker, right):
            name = before.players[seeker]
            made.append(("right" if right else "out" if after.guesses[seeker] >= game.TOKENS else "wrong",
                         {"seeker": name}))
    if before.phase == "play" and after.phase != "play":
        made.append(("scored", {}))
    return made
# How to play, for the phones' /how/decipher page (``referee.guide``).
GUIDE = Guide(
    goal=N_("Each round one player, the maker, hides a word; the seekers build it piece by piece and guess it."),
    table=(N_("The letter pieces, the board, the NO and bonus tokens, and 3 guess tokens for each seeker."),
           N_("The maker's word, its pieces in the secret chamber.")),
    box=(N_("Says who is maker and whose turn it is, round by round."),
         N_("Counts the tokens and the pieces left, and starts bonus mode."),
         N_("Scores every round and the game.")),
    phases=(
        Phase(SETUP, N_("Setup"), N_("Choose the players, the word's letters and the first maker."),
              (N_("1-3: change an option"), N_("A: tonight's players; B: names typed on a phone"), N_("#: start"),
               N_("C: help")),
              (Shot("setup", N_("The setup page.")),)),
        Phase("pieces", N_("Pieces"),
              N_("The maker hands the seeker a piece; the seeker puts it on a field: does it fit here?"),
              (N_("Digits, then #: the pieces in the chamber, on screen 1"), N_("A: YES, it fits"),
               N_("B: NO, a NO token on the field"), N_("#: in bonus mode, a piece asked for")),
              (Shot("count", N_("Screen 1, the maker's: how many pieces are in the chamber?"), "team1"),
               Shot("turn", N_("Ania's turn: YES or NO for her piece.")),
               Shot("bonus", N_("3 pieces left: bonus mode.")))),
        Phase("guess", N_("Guessing"), N_("Any seeker may guess at any moment; each guess costs a guess token."),
              (N_("A seeker's digit: that seeker guesses"), N_("A: right; B: wrong")),
              (Shot("guess", N_("Ania guesses: right or wrong?")),)),
        Phase("round", N_("Round scores"), N_("The box scores the round; C and D page through it."),
              (N_("C, D: the pages"), N_("#: the next round")),
              (Shot("round", N_("Ania solved it: the round's points.")),
               Shot("maker", N_("Mirek's tokens, the maker's.")),
               Shot("seeker", N_("Ania's tokens, the solver's.")))),
    ),
    scoring=(N_("Seeker: 1 for each guess token still held; the solver also 5 for the solution token and 2 for "
                "each bonus token left on the board."),
             N_("Maker: 1 for each NO token, 2 for each bonus token taken, 1 for each guess token received, and 5 if "
                "nobody guessed the word.")),
    example=(N_("Mirek is maker with PANDA; Ania and Marek seek."),
             N_("3 NO tokens; one bonus token taken; Marek guesses wrong once, Ania wrong once, then right."),
             N_("Ania 5 + 2×2 + 1 = 10; Marek 2; Mirek 3 + 2 + 3 = 8.")),
)

# The How to play page's anchor (``GUIDE``'s phases) for each phase of the rules (``game.step``).
HOW_AT = {"place": "pieces", "request": "pieces", "guess": "guess", "scored": "round", "over": "round"}
