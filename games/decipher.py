"""Decipher (Słowotwórcy): read a secret word as its letters are pieced together.

Each round one player is the word maker and the others are seekers.  The word,
the letter pieces and the tokens stay on the table; the box keeps the turn,
counts the tokens, knows when bonus mode starts if the maker lets it, and
scores the rounds.

Setup options
-------------
``players``      2 to 4: a count, or the names in seat order (clockwise).
``length``       letters in every secret word of the game, 3 to 6; default 5
                 [DC-1].
``first_maker``  the seat that makes the first word, default 0.

The round plan [DC-2]: every player makes one word (with two players, two
each); the next maker is the player to the left of the last, which the box
takes to be the next seat clockwise.  The first seeker is the player left of
the maker, then clockwise [DC-4].  Every seeker starts each round with 3 guess
tokens; 3 bonus tokens lie on the board.

Events
------
``Pieces(count)``
    The maker, on their own screen, enters how many letter pieces are in the
    secret chamber.  A secret: only ``private(state, maker)`` shows it.  With
    it the box counts pieces out and starts bonus mode itself [DC-6].  Until
    the first piece is placed it is the whole chamber, ``length`` to 48.
    After that, until bonus mode, the maker may still correct it: ``count``
    is then the pieces not yet placed (the piece in the seeker's hand
    included, as ``private`` shows them), 3 or more; 3 starts bonus mode.
``BonusMode()``
    Without a piece count, the maker announces bonus mode: exactly 3 pieces
    are left in the chamber [DC-6].  Announced between turns, before the next
    piece is tried.
``No()``
    The maker refuses the piece where the seeker put it: one NO token, and the
    same seeker tries again [DC-5].
``Yes()``
    The piece fits.  The next seeker's turn starts, or bonus mode [DC-6].
``PieceRequested()``
    In bonus mode the seeker on turn asks for a piece and hands a bonus token
    to the maker [DC-7]; then ``No()``/``Yes()`` as usual.
``Guess(seeker, right)``
    At any moment a seeker spends a guess token on a guess [DC-8].  Right:
    the round ends.  A third wrong guess puts the seeker out for the round;
    if it was their turn, the next seeker takes over.
``GiveUp()``
    Nobody wants to guess any more: the round ends unsolved [DC-9].
``NextRound()``
    After the round table: the next maker's round.

A round also ends by itself when the seekers have spent all their guess
tokens [DC-9].  After the last round the game is over [DC-11].
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

import msgspec

from games import base
from games.base import N_, Countdown, Illegal, bump, is_whole, next_seat, player_names, winners

NAME = "decipher"
TOKENS = 3    # guess tokens per seeker and round [DC-10]
BONUS = 3     # bonus tokens on the board, one per last piece [DC-7]
PIECES = 48   # letter pieces in the box
# What each token on a player's pile is worth at round end [DC-10], in the
# order of the score sheet.
POINTS = {"no": 1, "bonus": 2, "guess": 1, "solution": 5}
OPTIONS = frozenset({"players", "length", "first_maker"})


# --- events -------------------------------------------------------------------

@dataclass(frozen=True)
class Pieces:
    count: int


@dataclass(frozen=True)
class BonusMode:
    """The maker announces bonus mode: 3 pieces are left [DC-6]."""


@dataclass(frozen=True)
class No:
    """The piece does not fit there: one NO token [DC-5]."""


@dataclass(frozen=True)
class Yes:
    """The piece fits [DC-6]."""


@dataclass(frozen=True)
class PieceRequested:
    """In bonus mode the seeker asks for a piece [DC-7]."""


@dataclass(frozen=True)
class Guess:
    seeker: int
    right: bool


@dataclass(frozen=True)
class GiveUp:
    """Nobody wants to guess any more [DC-9]."""


@dataclass(frozen=True)
class NextRound:
    """The next maker's round."""


EVENTS: tuple[type, ...] = (Pieces, BonusMode, No, Yes, PieceRequested, Guess, GiveUp, NextRound)


# --- state --------------------------------------------------------------------

@dataclass(frozen=True)
class Score:
    """One player's tokens at the end of a round [DC-10].  A seeker holds
    ``guess`` tokens of their own and, if they solved it, the ``solution``
    token and the ``bonus`` tokens left on the board.  The maker holds the
    ``no`` tokens, the ``bonus`` and ``guess`` tokens handed over, and the
    ``solution`` token if nobody solved it."""
    no: int = 0
    bonus: int = 0
    guess: int = 0
    solution: int = 0

    @property
    def points(self) -> int:
        return sum(value * getattr(self, item) for item, value in POINTS.items())


@dataclass(frozen=True)
class RoundResult:
    """``ended`` is "solved", "tokens" (all guess tokens spent) or "given_up"."""
    number: int
    maker: int
    no_tokens: int
    bonus_taken: int
    guesses: tuple[int, ...]
    solver: int | None
    ended: str
    scores: tuple[Score, ...]


@dataclass(frozen=True)
class State:
    """``phase`` is "play", "scored" (the round table, before ``NextRound``)
    or "over".  ``seeker`` is whose turn it is.  ``pieces`` is the secret
    count still in the chamber (None: not entered).  ``holding``: the seeker
    on turn has a piece to place (in bonus mode only once asked for).
    ``refused``: this turn's piece has had a NO.  ``guesses`` counts each
    seat's guesses this round; ``rounds`` holds the finished rounds."""
    players: tuple[str, ...]
    length: int = 5
    round: int = 1
    phase: str = "play"
    maker: int = 0
    seeker: int = 1
    pieces: int | None = None
    placed: int = 0
    bonus: bool = False
    bonus_left: int = BONUS
    holding: bool = True
    refused: bool = False
    no_tokens: int = 0
    guesses: tuple[int, ...] = ()
    rounds: tuple[RoundResult, ...] = ()

    @property
    def total_rounds(self) -> int:
        n = len(self.players)
        return 2 * n if n == 2 else n  # [DC-2]

    def held(self, seat: int) -> int:
        """Guess tokens a seeker still holds this round."""
        return 0 if seat == self.maker else TOKENS - self.guesses[seat]


# What the box waits for next (``Step.kind``).
Stage = StrEnum("Stage", [("PLACE", "place"), ("REQUEST", "request"), ("GUESS", "guess"), ("SCORED", "scored"),
                          ("OVER", "over")])


@dataclass(frozen=True)
class Step:
    """What the box waits for next.

    ``kind``:
      "place"    ``seeker`` has a piece: the maker answers ``No()``/``Yes()``.
      "request"  bonus mode: ``seeker`` may ask for a piece,
                 ``PieceRequested()``.
      "guess"    no piece is left to hand out: only guesses remain.
      "scored"   the round table is shown: ``NextRound()``.
      "over"     the game is over.
    While a round is played, any of ``guessers`` may ``Guess`` and the
    players may ``GiveUp()``.  ``pieces``: the maker may still enter the
    piece count for the whole chamber (no piece placed yet); ``correct``: a
    piece is placed and the maker may still correct the count of the pieces
    left [DC-3].  ``bonus_call``: the maker may announce ``BonusMode()``.
    """
    kind: Stage
    maker: int | None = None
    seeker: int | None = None
    guessers: tuple[int, ...] = ()
    pieces: bool = False
    correct: bool = False
    bonus_call: bool = False


# --- the rules ----------------------------------------------------------------

def setup(options: dict[str, Any]) -> State:
    unknown = sorted(set(options) - OPTIONS)
    if unknown:
        raise Illegal("There is no option {option!r}.", option=unknown[0])
    names = player_names(options, 2, 4)
    length = options.get("length", 5)
    if not is_whole(length) or not 3 <= length <= 6:
        raise Illegal("Words are 3 to 6 letters long.")  # [DC-1]
    first = options.get("first_maker", 0)
    if not is_whole(first) or not 0 <= first < len(names):
        raise Illegal("The first word maker must be one of the players.")
    return _start_round(State(players=names, length=length), 1, first)


def piece_range(state: State) -> tuple[int, int]:
    """The counts ``Pieces`` takes now, least and most [DC-3]: the whole
    chamber, a piece a letter at least, before the first YES; after it
    ([ruling] a slip on the keys is corrected even then) the pieces still
    to be placed, at least the three of bonus mode."""
    if state.placed:
        return BONUS, PIECES - state.placed
    return state.length, PIECES


def apply(state: State, event: object, at: float) -> State:
    match event:
        case Pieces(count):
            _playing(state)
            if state.bonus:
                raise Illegal("Bonus mode has already started.")
            least, most = piece_range(state)
            if not (is_whole(count) and least <= count <= most):
                if state.placed:
                    raise Illegal("Pieces left to place: {least} to {most}.", least=least, most=most)
                raise Illegal("Word length {length}: pieces from {length} to {pieces}.",
                              length=state.length, pieces=PIECES)
            return _bonus_at_three(replace(state, pieces=count))  # [DC-3] the maker's secret
        case BonusMode():
            _playing(state)
            if state.pieces is not None:
                raise Illegal("The box knows the pieces and announces bonus mode itself.")
            if state.bonus:
                raise Illegal("Bonus mode has already started.")
            if state.refused:
                raise Illegal("Bonus mode starts between turns, before the next piece is tried.")
            return _start_bonus(state)
        case No():
            _placing(state)
            # [DC-5] same seeker again; [ruling] the count goes past the 20 tokens in the box
            return replace(state, no_tokens=state.no_tokens + 1, refused=True)
        case Yes():
            _placing(state)
            # A bonus piece was counted out of the chamber when it was asked for.
            pieces = state.pieces if state.pieces is None or state.bonus else state.pieces - 1
            state = replace(state, placed=state.placed + 1, pieces=pieces)
            state = replace(state, seeker=_next_seeker(state), holding=not state.bonus, refused=False)
            return _bonus_at_three(state)  # [DC-6]
        case PieceRequested():
            _playing(state)
            if not state.bonus:
                raise Illegal("Pieces are asked for only in bonus mode.")
            if state.holding:
                raise Illegal("Place the piece in hand first.")
            if not state.bonus_left:
                raise Illegal("No bonus tokens are left: the chamber is empty.")
            # [DC-7] the piece costs the seeker a bonus token, handed to the maker
            pieces = None if state.pieces is None else state.pieces - 1
            return replace(state, bonus_left=state.bonus_left - 1, holding=True, pieces=pieces)
        case Guess(seeker, right):
            return _guess(state, seeker, right)
        case GiveUp():
            _playing(state)
            return _end_round(state, "given_up", None)  # [DC-9]
        case NextRound():
            if state.phase != "scored":
                raise Illegal(N_("The round is not over yet.") if state.phase == "play" else N_("The game is over."))
            return _start_round(state, state.round + 1, next_seat(state.maker, len(state.players)))  # [DC-2]
    raise Illegal("That does not fit now.")


def _start_round(state: State, number: int, maker: int) -> State:
    n = len(state.players)
    return replace(
        state, round=number, phase="play", maker=maker,
        seeker=next_seat(maker, n),  # [DC-4] the first seeker sits left of the maker
        pieces=None, placed=0, bonus=False, bonus_left=BONUS, holding=True, refused=False,
        no_tokens=0, guesses=(0,) * n)


def _bonus_at_three(state: State) -> State:
    if state.pieces == BONUS and not state.bonus:
        return _start_bonus(state)  # [DC-6] exactly 3 pieces left
    return state


def _start_bonus(state: State) -> State:
    return replace(state, bonus=True, holding=False)


def _guess(state: State, seeker: int, right: bool) -> State:
    _playing(state)
    if not is_whole(seeker) or not 0 <= seeker < len(state.players):
        raise Illegal("There is no such player.")
    if seeker == state.maker:
        raise Illegal("The word maker does not guess.")
    if not state.held(seeker):
        raise Illegal("{player} has no guess tokens left.", player=state.players[seeker])
    # [DC-8] every guess, right or wrong, hands one token to the maker
    state = replace(state, guesses=bump(state.guesses, seeker, 1))
    if right:
        return _end_round(state, "solved", seeker)
    if not any(state.held(s) for s in range(len(state.players))):
        return _end_round(state, "tokens", None)  # [DC-9]
    if not state.held(seeker) and seeker == state.seeker:
        # [DC-8] out after the third wrong guess: the next seeker takes over the turn
        return replace(state, seeker=_next_seeker(state))
    return state


def _end_round(state: State, ended: str, solver: int | None) -> State:
    # [DC-10] the round table
    def score(seat: int) -> Score:
        if seat == state.maker:
            return Score(no=state.no_tokens, bonus=BONUS - state.bonus_left,
                         guess=sum(state.guesses), solution=int(solver is None))
        if seat == solver:
            return Score(bonus=state.bonus_left, guess=state.held(seat), solution=1)
        return Score(guess=state.held(seat))

    seats = range(len(state.players))
    result = RoundResult(state.round, state.maker, state.no_tokens, BONUS - state.bonus_left,
                         state.guesses, solver, ended, tuple(score(s) for s in seats))
    last = state.round == state.total_rounds
    return replace(state, phase="over" if last else "scored", rounds=(*state.rounds, result))  # [DC-11]


def _next_seeker(state: State) -> int:
    # The maker and the seekers who are out for the round are passed over [DC-8].
    idle = {s for s in range(len(state.players)) if not state.held(s)}
    return next_seat(state.seeker, len(state.players), skip=idle)


def _playing(state: State) -> None:
    if state.phase != "play":
        raise Illegal("The round is over.")


def _placing(state: State) -> None:
    _playing(state)
    if not state.holding:
        if state.bonus and state.bonus_left:
            raise Illegal("In bonus mode the seeker asks for a piece first.")
        raise Illegal("No pieces are left to place.")




# --- what the box shows -------------------------------------------------------

def step(state: State) -> Step:
    if state.phase != "play":
        return Step(Stage(state.phase), state.maker)
    if state.holding:
        kind = Stage.PLACE
    elif state.bonus_left:
        kind = Stage.REQUEST
    else:
        kind = Stage.GUESS
    guessers = tuple(s for s in range(len(state.players)) if state.held(s))
    return Step(kind, state.maker, state.seeker, guessers,
                pieces=not state.bonus and not state.placed,
                correct=not state.bonus and bool(state.placed),
                bonus_call=state.pieces is None and not state.bonus and not state.refused)


def requests(state: State) -> tuple[Any, ...]:
    return ()


def timer(state: State) -> Countdown | None:
    return None


def standings(state: State) -> dict[str, int]:
    totals = dict.fromkeys(state.players, 0)
    for result in state.rounds:
        for name, score in zip(state.players, result.scores):
            totals[name] += score.points
    return totals


class Player(msgspec.Struct, frozen=True):
    """A player as the table sees them this round."""
    name: str
    maker: bool
    guess_tokens: int          # held (the maker holds none)
    guesses: int               # made this round
    out: bool                  # a seeker with no guess token left


class Public(base.View, frozen=True, kw_only=True):
    """Everything that lies open on the table; the piece count never
    appears [DC-3]."""
    round: int
    rounds: int
    length: int
    maker: str
    seeker: str | None         # whose turn, while a round is played
    step: Step
    bonus_mode: bool
    bonus_tokens: int
    no_tokens: int
    placed: int
    received: int              # guess tokens the maker received
    players: list[Player]
    table: RoundTable | None   # the last round's, as its end showed it
    totals: dict[str, int]


class Private(Public, frozen=True, kw_only=True):
    """A player's view: the public one, and for the maker while a round is
    played the pieces left in the secret chamber, once entered."""
    seat: int
    pieces: int | None = None


def public(state: State) -> Public:
    names = state.players
    return Public(
        round=state.round,
        rounds=state.total_rounds,
        length=state.length,
        maker=names[state.maker],
        seeker=names[state.seeker] if state.phase == "play" else None,
        step=step(state),
        bonus_mode=state.bonus,
        bonus_tokens=state.bonus_left,
        no_tokens=state.no_tokens,
        placed=state.placed,
        received=sum(state.guesses),
        players=[Player(name, seat == state.maker, state.held(seat), state.guesses[seat],
                        seat != state.maker and not state.held(seat))
                 for seat, name in enumerate(names)],
        table=_table(state, state.rounds[-1]) if state.rounds else None,
        totals=standings(state),
    )


def private(state: State, seat: int) -> Private:
    secret = seat == state.maker and state.phase == "play"
    return base.widened(public(state), Private, seat=seat, pieces=state.pieces if secret else None)


class Items(msgspec.Struct):
    """One player's tokens at a round's end, as ``Score`` counts them [DC-10]."""
    no: int
    bonus: int
    guess: int
    solution: int


class RoundTable(base.Round, kw_only=True):
    """A round of the score log: the round table the box showed at its end."""
    round: int
    maker: str
    no_tokens: int
    bonus_taken: int
    guesses: dict[str, int]     # the seekers' guesses
    solver: str | None
    ended: str                  # "solved", "tokens" or "given_up", as ``RoundResult``
    items: dict[str, Items]


class Summary(base.Summary, kw_only=True):
    """Decipher's score log: a round table per round played."""
    rounds: list[RoundTable]


def summary(state: State) -> Summary:
    totals = standings(state)
    over = is_over(state)
    return Summary(
        status="finished" if over else "playing",
        players=list(state.players),
        starter=state.players[state.rounds[0].maker if state.rounds else state.maker],  # [DC-2] the first maker
        rounds=[_table(state, result) for result in state.rounds],
        totals=totals,
        winners=winners(totals) if over else [],  # [DC-11] a tie shares the win
    )


def is_over(state: State) -> bool:
    return state.phase == "over"


def _table(state: State, result: RoundResult) -> RoundTable:
    """One round as the score sheet has it, item by item."""
    names = state.players
    return RoundTable(
        round=result.number, maker=names[result.maker], no_tokens=result.no_tokens, bonus_taken=result.bonus_taken,
        guesses={names[s]: n for s, n in enumerate(result.guesses) if s != result.maker},
        solver=None if result.solver is None else names[result.solver], ended=result.ended,
        items={name: Items(sc.no, sc.bonus, sc.guess, sc.solution) for name, sc in zip(names, result.scores)},
        scores={name: sc.points for name, sc in zip(names, result.scores)})
