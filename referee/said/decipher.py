"""Decipher: what a player did, in the words of the box's ``»`` line and
undo question, which the replay on the phones repeats (``referee.said``)."""
from __future__ import annotations

from games import decipher as game
from referee.account import Facts, Side, name_of
from referee.glossary import Ruling, Term
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


def account(v: dict, summary: dict) -> Facts:
    """The round, whose turn it is to seek, and each player's points."""
    kind = v["step"]["kind"]
    if kind == "guess":
        turn = _("All pieces are out.")
    elif v["seeker"] is not None:
        turn = _("Turn: {name}").format(name=name_of(game.NAME, v["seeker"]))
    else:
        turn = ""
    sides = [Side(name_of(game.NAME, p["name"]), "" if p["maker"] else f"{_('Guess tokens')} {p['guess_tokens']}",
                  v["totals"][p["name"]]) for p in v["players"]]
    return Facts(_("Round {round}/{rounds}").format(round=v["round"], rounds=v["rounds"]), turn, sides)


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
    "place": N_("The maker hides a word. Each seeker in turn lays a piece on a field and asks: "
                "does it fit? Maker: A yes, B no."),
    "request": N_("Bonus mode: the last pieces leave the chamber only when the seeker on turn asks. "
                  "#: the seeker asks for one and takes a bonus token."),
    "guess": N_("No piece is left: only guesses remain. A seeker's digit: their guess, then A right "
                "or B wrong."),
    "scored": N_("The round is scored. C and D turn the pages; # starts the next round with the next "
                 "maker."),
}

# Why the referee decided, after each decision ``decisions`` names.
WHY = {
    "no": Ruling("DC-5", N_("No: a NO token covers that symbol there, 1 point for {maker}. "
                            "{seeker} tries the piece again elsewhere.")),
    "yes": Ruling("DC-6", N_("Yes: the piece stays. {seeker} gets the next piece.")),
    "bonus": Ruling("DC-6", N_("The piece stays, and 3 are left in the chamber: bonus mode starts.")),
    "wrong": Ruling("DC-8", N_("A wrong guess costs {seeker} a guess token; play goes on.")),
    "out": Ruling("DC-8", N_("{seeker} has failed 3 times and is out for this round.")),
    "right": Ruling("DC-8", N_("{seeker} guessed the word: the round ends.")),
    "scored": Ruling("DC-10", N_("Seekers: 1 per guess token kept; the solver 5 and 2 per bonus token left. "
                                 "Maker: 1 per NO, 2 per bonus, 1 per guess token received.")),
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
