"""Osmišifry: spies fill word-search grids from a shared letter offer, draw a
picture for every word, and a neighbour has five minutes to find them.

The grids, the pictures and the secret word stay on paper [OS-2].  The box
rolls the letter offers, keeps the picking order, rolls the direction, runs
the decoding time and adds up the score.

Options
-------
``players``   2–6: a count (names "Player 1"…) or a list of names, in seat
              order *clockwise*.  Default 2.
``starts``    the seat that picks first in round 1 [OS-6]: the rulebook lets
              the one who looks most like an agent start, so the table
              chooses.  Default 0.
``table``     the letter table: ``"cs"`` (default), ``"en"``, ``"pl"``, or a
              table the owners loaded, given as its TOML text or as the dict
              that text parses to (see ``load_table``).

Seats and sides
---------------
Seats are numbered 0, 1, … clockwise, seen from above.  A player facing the
centre of the table has the next seat clockwise on their *left* and the one
before it on their right.

Creation [OS-3]–[OS-8]
----------------------
Every offer row has players + 1 letters, each one rolled with two d8 and
looked up in the table: first die = row, second die = column [OS-1].  The
box asks ``Roll("letter", 2, 8)``, one letter at a time, and takes the
answer ``Rolled("letter", (row_die, column_die))``.  Row 1 is rolled at
setup; at the start of every round *k* the row for round *k* + 1 is rolled
before anyone picks.  Round 31 is the last, so no row 32 is rolled.

``PickLetter(player, index)``
    ``player`` (seat) takes the letter at ``index`` (0-based position in the
    row of this round).  Players pick in turn, one letter each; the taken
    letter is struck out and one letter is always left over.
``Drawing(player)``
    ``player`` formed a word in the last round and is drawing it: they pick
    last in this round.  Only before their pick, never in round 1.
``EndCreation()``
    The table agrees that creation is over before round 31 is done.

Decoding [OS-9], [OS-10]
------------------------
The box asks ``Roll("direction", 1, 8)``: 1–4 every booklet goes to the
left, 5–8 to the right; the receiver is that agent's officer.

``StartDecoding()``
    Booklets are handed over: the officers' five minutes start
    (``Countdown("decoding", 300)``, ended by ``TimerExpired("decoding")``).
``EndDecoding()``
    Every officer is done early (or the table kept its own time).

Scoring [OS-11]–[OS-13]
-----------------------
``Score(agent, drawn, found, unused, destroyed)``
    For the booklet of ``agent`` (seat): pictures ``drawn``, words the officer
    ``found`` and named, ``unused`` cells left uncrossed outside the secret
    word, and whether the secret word was ``destroyed``.  Once per agent.

The agent scores 2 per found word, −1 per unused cell and −5 for a destroyed
secret word; the officer 1 per found word.  Highest total wins; equal totals
share the win.

What to ask next is ``step(state)``: a ``Step`` whose ``kind`` is one of
``"roll_letter"``, ``"pick"``, ``"roll_direction"``, ``"start_decoding"``,
``"decoding"``, ``"score"`` or ``"over"``.
"""
from __future__ import annotations

import dataclasses
import functools
import importlib.resources
import string
import tomllib
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

import msgspec

from games import base
from games.base import (Countdown, Illegal, Roll, Rolled, TimerExpired, is_whole, next_seat,
                        player_names, winners)

NAME = "osmisifry"
ROUNDS = 31                  # 36 cells − 5 secret letters [OS-8]
DECODING_SECONDS = 300       # [OS-10]
SIDES = 8                    # a d8: so the table has 8 rows of 8
TABLES = ("cs", "en", "pl")
LETTERS = frozenset(string.ascii_uppercase)


# --- the letter table [OS-1] ----------------------------------------------------

@dataclass(frozen=True)
class Table:
    """An 8×8 letter table: ``rows[r - 1][c - 1]`` is the letter for the
    roll (r, c)."""
    rows: tuple[str, ...]
    name: str = ""

    def letter(self, row_die: int, column_die: int) -> str:
        return self.rows[row_die - 1][column_die - 1]


def load_table(text: str) -> Table:
    """A table from TOML text: ``rows`` holds 8 rows of 8 single letters A–Z,
    ``name`` (optional) names it; other keys are ignored.  Anything else
    raises ``ValueError`` naming the row, column and value at fault."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"The letter table is not valid TOML: {exc}") from None
    return _read_table(data)


def _read_table(data: dict[str, Any]) -> Table:
    rows = data.get("rows")
    if not isinstance(rows, list):
        raise ValueError("The letter table needs 'rows': a list of 8 rows.")
    if len(rows) != SIDES:
        raise ValueError(f"The letter table has {len(rows)} rows, not {SIDES}.")
    for r, row in enumerate(rows, 1):
        if not isinstance(row, list):
            raise ValueError(f"Row {r} of the letter table is not a list of letters.")
        if len(row) != SIDES:
            raise ValueError(f"Row {r} of the letter table has {len(row)} letters, not {SIDES}.")
        for c, cell in enumerate(row, 1):
            if not (isinstance(cell, str) and cell in LETTERS):
                raise ValueError(f"Row {r}, column {c} of the letter table: {cell!r} is not one letter A-Z.")
    name = data.get("name", "")
    if not isinstance(name, str):
        raise ValueError("The letter table's 'name' must be text.")
    return Table(tuple("".join(row) for row in rows), name)


@functools.cache
def builtin_table(code: str) -> Table:
    """One of the tables shipped in ``games/data`` ("cs", "en", "pl")."""
    path = importlib.resources.files("games") / "data" / f"letters-{code}.toml"
    return load_table(path.read_text(encoding="utf-8"))


def _table_option(given: object) -> Table:
    try:
        if isinstance(given, dict):
            return _read_table(given)
        if isinstance(given, str) and given in TABLES:
            return builtin_table(given)
        if isinstance(given, str) and "=" in given:   # TOML text, not a code
            return load_table(given)
    except ValueError as exc:
        raise Illegal(str(exc)) from None
    raise Illegal("The letter table is cs, en, pl or a loaded table.")


# --- events -----------------------------------------------------------------------

@dataclass(frozen=True)
class PickLetter:
    player: int
    index: int


@dataclass(frozen=True)
class Drawing:
    player: int


@dataclass(frozen=True)
class EndCreation:
    """The table ends creation early [OS-8]."""


@dataclass(frozen=True)
class StartDecoding:
    """The booklets are handed over: the officers' five minutes start [OS-10]."""


@dataclass(frozen=True)
class EndDecoding:
    """Every officer is done before the five minutes are up."""


@dataclass(frozen=True)
class Score:
    agent: int
    drawn: int
    found: int
    unused: int
    destroyed: bool

    @property
    def agent_points(self) -> int:
        # [OS-11] 2 per word found and named, −1 per unused cell, −5 if the
        # secret word can no longer be read.
        return 2 * self.found - self.unused - (5 if self.destroyed else 0)

    @property
    def officer_points(self) -> int:
        return self.found  # [OS-12]


EVENTS: tuple[type, ...] = (PickLetter, Drawing, EndCreation, StartDecoding, EndDecoding, Score)


# --- state ------------------------------------------------------------------------

@dataclass(frozen=True)
class Offer:
    """One row of the letter supply sheet."""
    rolls: tuple[tuple[int, int], ...] = ()
    letters: tuple[str, ...] = ()
    picks: tuple[tuple[int, int], ...] = ()   # (player, index), in pick order

    def taken_by(self, index: int) -> int | None:
        return next((p for p, i in self.picks if i == index), None)


@dataclass(frozen=True)
class State:
    players: tuple[str, ...]
    table: Table
    phase: str = "creation"        # creation, direction, decoding, scoring, over
    round: int = 1
    offers: tuple[Offer, ...] = (Offer(), Offer())   # offers[k - 1] is row k
    drawing: tuple[int, ...] = ()  # seats drawing this round, so picking last
    direction: int | None = None   # the d8 of [OS-9]
    countdown: Countdown | None = None
    scores: tuple[Score | None, ...] = ()
    first: int = 0                 # the seat that starts round 1 [OS-6]

    @property
    def offer_size(self) -> int:
        return len(self.players) + 1   # [OS-3]

    @property
    def offer(self) -> Offer:
        """The row picked from in this round."""
        return self.offers[self.round - 1]


# What the box asks for next (``Step.kind``).
Stage = StrEnum("Stage", [("ROLL_LETTER", "roll_letter"), ("PICK", "pick"), ("ROLL_DIRECTION", "roll_direction"),
                          ("START_DECODING", "start_decoding"), ("DECODING", "decoding"), ("SCORE", "score"),
                          ("OVER", "over")])


@dataclass(frozen=True)
class Step:
    """What the box asks for next.

    ``roll_letter``     roll two d8 for letter ``index`` (0-based) of ``row``
    ``pick``            ``player`` picks from ``row`` (``PickLetter``)
    ``roll_direction``  roll one d8 for the direction
    ``start_decoding``  hand the booklets over, then ``StartDecoding``
    ``decoding``        the officers' time runs (``EndDecoding`` ends it early)
    ``score``           the result of ``player``'s booklet, decoded by
                        ``officer`` (``Score``)
    ``over``            nothing: the game is over

    During creation ``Drawing`` and ``EndCreation`` are always open too.
    """
    kind: Stage
    player: int | None = None
    row: int | None = None
    index: int | None = None
    officer: int | None = None


def setup(options: dict[str, Any]) -> State:
    options = dict(options or {})
    players = player_names(options, 2, 6)
    table = _table_option(options.get("table", "cs"))
    unknown = set(options) - {"players", "table", "starts"}
    if unknown:
        raise Illegal("Osmišifry has no option {option!r}.", option=sorted(unknown)[0])
    first = options.get("starts", 0)
    if not is_whole(first) or not 0 <= first < len(players):
        raise Illegal("The starting player must be one of the players.")
    return State(players, table, scores=(None,) * len(players), first=first)


# --- who picks, who rolls, who decodes ------------------------------------------------

def starter(state: State) -> int:
    """The seat that starts this round: the table's choice in round 1, then
    one seat further clockwise every round [OS-6]."""
    return next_seat(state.first, len(state.players), step=state.round - 1)


def pick_order(state: State) -> tuple[int, ...]:
    """This round's picking order: clockwise from the starter [OS-5], with
    the drawing players after everyone else [OS-7].  Several drawing players
    pick in clockwise order from the round's starter [OS-7] [ruling]."""
    n = len(state.players)
    clockwise = [next_seat(starter(state), n, step=i) for i in range(n)]
    return (tuple(p for p in clockwise if p not in state.drawing)
            + tuple(p for p in clockwise if p in state.drawing))


def to_pick(state: State) -> int | None:
    """Whose pick it is, or None while letters are still to be rolled."""
    if state.phase != "creation" or _pending_roll(state):
        return None
    picked = {p for p, _ in state.offer.picks}
    return next(p for p in pick_order(state) if p not in picked)


def _pending_roll(state: State) -> tuple[int, int] | None:
    """(row, index) of the letter to roll now.  The row of this round comes
    first (it is rolled at setup), then the row of the next round, which
    is rolled before anyone picks [OS-4]."""
    if state.phase != "creation":
        return None
    for row in range(state.round, len(state.offers) + 1):
        rolled = len(state.offers[row - 1].letters)
        if rolled < state.offer_size:
            return row, rolled
    return None


def passes_left(state: State) -> bool | None:
    """True if booklets go to the left, False for the right, None before the
    roll [OS-9]."""
    return None if state.direction is None else state.direction <= 4


def officers(state: State) -> tuple[int, ...] | None:
    """``officers(state)[agent]`` is the seat that decodes ``agent``'s
    booklet: the left neighbour (next seat clockwise) or the right one."""
    left = passes_left(state)
    if left is None:
        return None
    n = len(state.players)
    return tuple(next_seat(agent, n, step=1 if left else -1) for agent in range(n))


def _paired(state: State) -> tuple[int, ...]:
    """``officers`` where the direction is known, as it always is once a
    booklet is scored: scoring comes only after the roll [OS-9]."""
    paired = officers(state)
    assert paired is not None, "scores come only after the direction roll"
    return paired


def step(state: State) -> Step:
    match state.phase:
        case "creation":
            pending = _pending_roll(state)
            if pending:
                return Step(Stage.ROLL_LETTER, row=pending[0], index=pending[1])
            return Step(Stage.PICK, player=to_pick(state), row=state.round)
        case "direction":
            return Step(Stage.ROLL_DIRECTION)
        case "decoding":
            return Step(Stage.DECODING if state.countdown else Stage.START_DECODING)
        case "scoring":
            agent = state.scores.index(None)
            return Step(Stage.SCORE, player=agent, officer=_paired(state)[agent])
    return Step(Stage.OVER)


# --- the rules ------------------------------------------------------------------------

def apply(state: State, event: object, at: float) -> State:
    match event:
        case Rolled("letter", values) if state.phase == "creation":
            return _roll_letter(state, values)
        case PickLetter(player, index) if state.phase == "creation":
            return _pick(state, player, index)
        case Drawing(player) if state.phase == "creation":
            return _drawing(state, player)
        case EndCreation() if state.phase == "creation":
            return dataclasses.replace(state, phase="direction", drawing=())   # [OS-8] [ruling]
        case Rolled("direction", values) if state.phase == "direction":
            if len(values) != 1 or not _d8(values[0]):
                raise Illegal("The direction is one d8.")
            return dataclasses.replace(state, phase="decoding", direction=values[0])
        case StartDecoding() if state.phase == "decoding":
            if state.countdown:
                raise Illegal("The decoding time is already running.")
            return dataclasses.replace(state, countdown=Countdown.start("decoding", DECODING_SECONDS, at))
        case TimerExpired("decoding") if state.phase == "decoding" and state.countdown:
            # [OS-10] pens down: the booklets go back for scoring.
            done = dataclasses.replace(state.countdown, left=0, started_at=None)
            return dataclasses.replace(state, phase="scoring", countdown=done)
        case EndDecoding() if state.phase == "decoding":
            paused = state.countdown.pause(at) if state.countdown else None
            return dataclasses.replace(state, phase="scoring", countdown=paused)
        case Score() if state.phase == "scoring":
            return _score(state, event)
    raise Illegal("That does not fit now.")


def _roll_letter(state: State, values: tuple[int, ...]) -> State:
    pending = _pending_roll(state)
    if pending is None:
        raise Illegal("No letter is to be rolled now.")
    if len(values) != 2 or not all(map(_d8, values)):
        raise Illegal("A letter is rolled with two d8.")
    row = pending[0]
    offer = state.offers[row - 1]
    offer = dataclasses.replace(offer, rolls=(*offer.rolls, (values[0], values[1])),
                                letters=(*offer.letters, state.table.letter(*values)))   # [OS-1]
    return _with_offer(state, row, offer)


def _pick(state: State, player: int, index: int) -> State:
    _seat(state, player)
    if _pending_roll(state):
        raise Illegal("Roll the rest of the letters first.")   # [OS-4]
    turn = to_pick(state)
    assert turn is not None  # creation, and no letter left to roll
    if player != turn:
        raise Illegal("It is {player}'s turn to pick.", player=state.players[turn])   # [OS-5]
    if index not in range(state.offer_size):
        raise Illegal("There is no such letter in the row.")
    if state.offer.taken_by(index) is not None:
        raise Illegal("That letter is already taken.")
    offer = dataclasses.replace(state.offer, picks=(*state.offer.picks, (player, index)))
    state = _with_offer(state, state.round, offer)
    if len(offer.picks) < len(state.players):
        return state
    # Everyone has picked; the one letter left over stays struck out of play.
    if state.round == ROUNDS:
        return dataclasses.replace(state, phase="direction", drawing=())   # [OS-8]
    nxt = state.round + 1
    ahead = (Offer(),) if nxt < ROUNDS else ()   # [OS-8] [ruling] no round follows the last: no row 32
    return dataclasses.replace(state, round=nxt, drawing=(), offers=state.offers + ahead)


def _drawing(state: State, player: int) -> State:
    _seat(state, player)
    name = state.players[player]
    if state.round == 1:   # [OS-7] [ruling] no word can be formed before the first pick
        raise Illegal("Nobody can be drawing in round 1.")
    if player in state.drawing:
        raise Illegal("{player} is already drawing.", player=name)
    if any(p == player for p, _ in state.offer.picks):
        raise Illegal("{player} has already picked this round.", player=name)
    # [OS-7] a drawing player picks last in the round after forming the word.
    return dataclasses.replace(state, drawing=tuple(sorted((*state.drawing, player))))


def _score(state: State, score: Score) -> State:
    _seat(state, score.agent)
    name = state.players[score.agent]
    if state.scores[score.agent] is not None:
        raise Illegal("{player}'s booklet is already scored.", player=name)
    counts = (score.drawn, score.found, score.unused)
    if not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in counts):
        raise Illegal("Counts are whole numbers, 0 or more.")
    if not isinstance(score.destroyed, bool):
        raise Illegal("The secret word is destroyed or not: yes or no.")
    if score.found > score.drawn:
        raise Illegal("An officer cannot find more words than were drawn.")
    written = sum(p == score.agent for offer in state.offers for p, _ in offer.picks)
    if score.unused > written:
        # The count after a colon: no noun to agree with it in any language.
        raise Illegal("Letters written in {player}'s grid: only {n}.", n=written, player=name)
    scores = list(state.scores)
    scores[score.agent] = score
    done = all(s is not None for s in scores)
    return dataclasses.replace(state, scores=tuple(scores), phase="over" if done else "scoring")


def _d8(value: object) -> bool:
    return isinstance(value, int) and 1 <= value <= SIDES


def _seat(state: State, player: object) -> None:
    if not (isinstance(player, int) and 0 <= player < len(state.players)):
        raise Illegal("There is no such player.")


def _with_offer(state: State, row: int, offer: Offer) -> State:
    offers = list(state.offers)
    offers[row - 1] = offer
    return dataclasses.replace(state, offers=tuple(offers))


# --- the service's side ------------------------------------------------------------

def requests(state: State) -> tuple[Roll, ...]:
    pending = _pending_roll(state)
    if pending:
        row, index = pending
        return (Roll("letter", 2, SIDES, f"Row {row}: letter {index + 1} of {state.offer_size}"),)
    if state.phase == "direction":
        return (Roll("direction", 1, SIDES, "Direction: 1-4 left, 5-8 right"),)
    return ()


def timer(state: State) -> Countdown | None:
    cd = state.countdown
    return cd if cd is not None and cd.running else None


def points(state: State) -> dict[str, dict[str, int]]:
    """Each player's agent and officer points so far, and their total [OS-13]."""
    earned = {name: {"agent": 0, "officer": 0} for name in state.players}
    for score in filter(None, state.scores):
        paired = _paired(state)
        earned[state.players[score.agent]]["agent"] += score.agent_points
        earned[state.players[paired[score.agent]]]["officer"] += score.officer_points
    return {name: {**p, "total": p["agent"] + p["officer"]} for name, p in earned.items()}


def totals(state: State) -> dict[str, int]:
    return {name: p["total"] for name, p in points(state).items()}


def best_agents(state: State) -> list[str]:
    """The highest total wins; equal totals share the win [OS-13] [ruling]."""
    return winners(totals(state)) if is_over(state) else []


def is_over(state: State) -> bool:
    return state.phase == "over"


class Row(msgspec.Struct, frozen=True):
    """A row of the letter supply sheet: its rolls, their letters and who
    took each (a seat; None: still free)."""
    row: int
    rolls: list[list[int]]
    letters: list[str]
    taken: list[int | None]


class Rolling(msgspec.Struct, frozen=True):
    """The letter whose roll the table waits for: its row and place."""
    row: int
    index: int


class LetterTable(msgspec.Struct, frozen=True):
    name: str
    rows: list[str]


class Direction(msgspec.Struct, frozen=True):
    """Where the secrets pass [OS-9]: the d8 and its side."""
    roll: int | None
    to: str = msgspec.field(name="pass")   # "left" or "right"


class Timer(msgspec.Struct, frozen=True):
    seconds: float
    left: float
    started_at: float | None
    running: bool


class Scored(msgspec.Struct, frozen=True):
    """A booklet scored, by seat: its agent's and its officer's."""
    agent: int
    officer: int
    drawn: int
    found: int
    unused: int
    destroyed: bool
    agent_points: int
    officer_points: int


class Public(base.View, frozen=True, kw_only=True):
    """Everything at the table; the box knows no secret word."""
    game: str
    phase: str                         # creation, direction, decoding, scoring, over
    players: list[str]
    round: int
    rounds: int
    offer_size: int
    starter: int
    order: list[int]                   # this round's pick order, by seat
    turn: int | None                   # the seat to pick
    drawing: list[int]
    roll: Rolling | None
    rows: list[Row]                    # the rows rolled so far
    table: LetterTable
    direction: Direction | None
    officers: list[int] | None         # each agent's officer, by seat, once the direction is known
    timer: Timer | None
    scores: list[Scored | None]        # by agent's seat
    totals: dict[str, int]
    winners: list[str]


class Private(Public, frozen=True, kw_only=True):
    """A player's view: the public one plus their own seat's pairing
    (Osmišifry has no secret the box knows)."""
    seat: int
    name: str
    my_turn: bool
    my_officer: int | None
    decodes: int | None                # whose booklet the seat decodes


def _row_view(number: int, offer: Offer) -> Row:
    return Row(number, [list(r) for r in offer.rolls], list(offer.letters),
               [offer.taken_by(i) for i in range(len(offer.letters))])


def _score_view(state: State, score: Score) -> Scored:
    officer = _paired(state)[score.agent]
    return Scored(score.agent, officer, score.drawn, score.found, score.unused, score.destroyed,
                  score.agent_points, score.officer_points)


def public(state: State) -> Public:
    cd = state.countdown
    pending = _pending_roll(state)
    left = passes_left(state)
    return Public(
        game=NAME,
        phase=state.phase,
        players=list(state.players),
        round=state.round,
        rounds=ROUNDS,
        offer_size=state.offer_size,
        starter=starter(state),
        order=list(pick_order(state)),
        turn=to_pick(state),
        drawing=list(state.drawing),
        roll=None if pending is None else Rolling(*pending),
        rows=[_row_view(k, o) for k, o in enumerate(state.offers, 1) if o.rolls],
        table=LetterTable(state.table.name, list(state.table.rows)),
        direction=None if left is None else Direction(state.direction, "left" if left else "right"),
        officers=None if left is None else list(_paired(state)),
        timer=None if cd is None else Timer(cd.seconds, cd.left, cd.started_at, cd.running),
        scores=[None if s is None else _score_view(state, s) for s in state.scores],
        totals=totals(state),
        winners=best_agents(state),
    )


def private(state: State, seat: int) -> Private:
    _seat(state, seat)
    paired = officers(state)
    return base.widened(public(state), Private, seat=seat, name=state.players[seat],
                        my_turn=to_pick(state) == seat,
                        my_officer=None if paired is None else paired[seat],
                        decodes=None if paired is None else paired.index(seat))


class Booklet(base.Round, kw_only=True):
    """An agent's booklet as it was scored, with the officer who decoded it."""
    agent: str
    officer: str
    drawn: int
    found: int
    unused: int
    destroyed: bool


class Summary(base.Summary, kw_only=True):
    """Osmišifry's score log: a round per agent scored, and the rows of
    letters the table picked from."""
    rounds: list[Booklet]
    table: str                                # the letter table's name
    rows: list[dict[str, Any]]
    direction: dict[str, Any] | None          # where the secrets pass, once the dice said
    points: dict[str, dict[str, int]]         # each player's points, item by item


def summary(state: State) -> Summary:
    names = state.players
    rounds = []
    for score in filter(None, state.scores):
        paired = _paired(state)
        agent, officer = names[score.agent], names[paired[score.agent]]
        rounds.append(Booklet(agent=agent, officer=officer, drawn=score.drawn, found=score.found, unused=score.unused,
                              destroyed=score.destroyed,
                              scores={agent: score.agent_points, officer: score.officer_points}))
    left = passes_left(state)
    direction = None if left is None else {
        "roll": state.direction, "pass": "left" if left else "right",
        "officers": {names[agent]: names[officer] for agent, officer in enumerate(_paired(state))}}
    return Summary(
        status="finished" if is_over(state) else "playing",
        players=list(names),
        starter=names[state.first],  # [OS-6] who picked first
        table=state.table.name,
        rows=[{"row": k, "rolls": [list(r) for r in o.rolls], "letters": list(o.letters),
               "picks": [{"player": names[p], "letter": o.letters[i]} for p, i in o.picks]}
              for k, o in enumerate(state.offers, 1) if o.rolls],
        direction=direction,
        rounds=rounds,
        points=points(state),
        totals=totals(state),
        winners=best_agents(state),
    )
