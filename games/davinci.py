"""Da Vinci Code: expose every opponent's hidden row before yours falls.

The number tiles stay on the table, face down in the pool and standing in the
players' rows.  The box keeps what players lose track of: whose turn it is,
how many tiles are left in the pool, how many tiles each row hides and shows,
the turn timer, and the tournament points.

Setup options
-------------
``players``     2 to 4: a count, or the names in seat order (clockwise).
``rules``       ``"basic"`` (default): the 24 number tiles.  ``"extended"``:
                the two jokers join the pool, 26 tiles [DV-10].
``turn_timer``  seconds per turn, 10 to 600; ``0`` (default) is no timer.
                Running out of time counts as a miss [DV-9].
``tournament``  ``False`` (default): one game.  ``True``: three games with
                points [DV-11].
``starts``      the seat that starts the first game, default 0.  The rules
                let the youngest start; the box asks [DV-3], and asks again
                at every game of a tournament (``Dealt(starts)``).

The deal
--------
Every player takes ``deal_size(players)`` tiles (4, or 3 when four play)
[DV-1] and sorts them (``ORDER_RULE`` [DV-2]; with jokers also
``JOKER_RULE``).  ``Dealt(starts=None)`` says everyone is ready; the first
turn starts, taken by ``starts`` if the table chose another starter.

A turn
------
The player on turn draws a tile and keeps it aside; the box counts it out of
the pool (with an empty pool nothing is drawn [DV-7]).  The turn timer, if
any, starts now and runs for the whole turn.  Then:

``Attack(target, hit, by=None)``
    The player named a tile in seat ``target``'s row.  ``hit=True`` [DV-5]:
    that tile is turned face up and the attacker may attack again or stop.
    ``hit=False`` [DV-6]: the attacker turns the drawn tile face up (with an
    empty pool, one of their own hidden tiles) and the turn passes.  ``by``,
    when given, is the seat of the attacker: a press meant for a turn that
    has already ended is refused instead of being credited to the next
    player.  ``check_attack(state, target, by)`` asks the same as soon as
    the target is named, before anyone knows whether the guess hit.
``Stop()``
    After at least one hit: the drawn tile joins the attacker's row hidden,
    and the turn passes.
``TimerExpired("turn")``
    The time is up: exactly like a miss [DV-9].  ``State.last`` says so.

A player with no hidden tiles is out and is skipped; the last player with
hidden tiles wins [DV-8].  A miss with an empty pool can put the attacker
themselves out.

Tournament
----------
Per game: 1 point per hit, 3 per opponent finished off (the hit that turned
their last hidden tile), 5 for winning [DV-11].  ``NextGame(starts=None)``
deals the next game; it is started by the seat left of the last game's
starter (the next clockwise) unless ``starts`` names another.  After three
games the most points win; equal totals share the win.

A single game is logged as one round worth 1 point to its winner, so that the
score log names the game's winner and nobody else.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

import msgspec

from games import base
from games.base import N_, Countdown, Illegal, TimerExpired, bump, is_whole, next_seat, player_names, winners

NAME = "davinci"
TILES = 24   # 0-11 in black and in white
JOKERS = 2   # [DV-10]
GAMES = 3    # [DV-11]
# The totals a player may reach, which the league adds up across tables, so
# bound exactly: in each of a tournament's games at most a point per tile,
# 3 for each of the 3 others finished off and 5 for the win [DV-11].
TOTALS = (0, GAMES * (TILES + JOKERS + 3 * 3 + 5))
OPTIONS = frozenset({"players", "rules", "turn_timer", "tournament", "starts"})

# [DV-2]
ORDER_RULE = N_("Sort your row from low to high, left to right; on equal numbers black stands left of white.")
JOKER_RULE = N_("A joker may stand anywhere in your row, and never moves once placed.")  # [DV-10]


def deal_size(players: int) -> int:
    """Tiles each player takes at the deal [DV-1]."""
    return 3 if players == 4 else 4


# --- events -------------------------------------------------------------------

@dataclass(frozen=True)
class Dealt:
    """Everyone has taken their tiles: the first turn starts.  ``starts``
    names the seat that starts when the table chose another than the one
    offered [DV-3]."""
    starts: int | None = None


@dataclass(frozen=True)
class Attack:
    target: int
    hit: bool
    by: int | None = None


@dataclass(frozen=True)
class Stop:
    """After a hit, the attacker stops: a drawn tile joins their row hidden."""


@dataclass(frozen=True)
class NextGame:
    starts: int | None = None


EVENTS: tuple[type, ...] = (Dealt, Attack, Stop, NextGame)


# --- state --------------------------------------------------------------------

@dataclass(frozen=True)
class TurnEnd:
    """How a turn ended: ``how`` is "stop", "miss" or "time".  ``drew``
    tells which tile a miss turned up: the drawn one, or (empty pool) one of
    the player's own."""
    seat: int
    hits: int
    how: str
    drew: bool


@dataclass(frozen=True)
class Elimination:
    """``seat`` lost its last hidden tile to ``by`` (None: to its own miss)."""
    seat: int
    by: int | None


@dataclass(frozen=True)
class GameResult:
    number: int
    starter: int
    turns: int
    hits: tuple[int, ...]
    out: tuple[Elimination, ...]
    winner: int
    points: tuple[int, ...]


@dataclass(frozen=True)
class State:
    """``phase`` is "deal", "turn" or "done" (the game, not necessarily the
    tournament).  Counts are per seat.  ``drawn``: the player on turn holds a
    drawn tile aside.  ``hits``: hits so far in this turn.  ``tally``: hits
    per player in this game.  ``last``: how the previous turn ended."""
    players: tuple[str, ...]
    jokers: bool = False
    turn_timer: int = 0
    tournament: bool = False
    game: int = 1
    starter: int = 0
    phase: str = "deal"
    pool: int = 0
    hidden: tuple[int, ...] = ()
    revealed: tuple[int, ...] = ()
    turn: int = 0
    turns: int = 0
    drawn: bool = False
    hits: int = 0
    countdown: Countdown | None = None
    last: TurnEnd | None = None
    tally: tuple[int, ...] = ()
    out: tuple[Elimination, ...] = ()
    winner: int | None = None
    games: tuple[GameResult, ...] = ()

    @property
    def tiles_each(self) -> int:
        return deal_size(len(self.players))


# What the box waits for next (``Step.kind``).
Stage = StrEnum("Stage", [("DEAL", "deal"), ("ATTACK", "attack"), ("AGAIN", "again"), ("NEXT_GAME", "next_game"),
                          ("OVER", "over")])


@dataclass(frozen=True)
class Step:
    """What the box waits for next.

    ``kind``:
      "deal"       everyone takes and sorts their tiles; ``seat`` will start.
                   Answer: ``Dealt()``.
      "attack"     ``seat`` attacks one of ``targets``: ``Attack``.
      "again"      ``seat`` has hit: ``Attack`` again or ``Stop()``.
      "next_game"  a tournament game is over: ``NextGame()``.
      "over"       the game (or the tournament) is over.
    """
    kind: Stage
    seat: int | None = None
    targets: tuple[int, ...] = ()


# --- the rules ----------------------------------------------------------------

def setup(options: dict[str, Any]) -> State:
    unknown = sorted(set(options) - OPTIONS)
    if unknown:
        raise Illegal("There is no option {option!r}.", option=unknown[0])
    names = player_names(options, 2, 4)
    rules = options.get("rules", "basic")
    if rules not in ("basic", "extended"):
        raise Illegal("The rules are basic or extended.")
    seconds = options.get("turn_timer", 0)
    if not is_whole(seconds) or not (seconds == 0 or 10 <= seconds <= 600):
        raise Illegal("The turn timer is off or 10 to 600 seconds.")
    tournament = options.get("tournament", False)
    if not isinstance(tournament, bool):
        raise Illegal("A tournament is either on or off.")
    state = State(players=names, jokers=rules == "extended", turn_timer=seconds, tournament=tournament)
    return _deal(state, _seat(options.get("starts", 0), len(names)))  # [DV-3] the box asks who starts


def apply(state: State, event: object, at: float) -> State:
    match event:
        case Dealt(starts):
            if state.phase != "deal":
                raise Illegal("The tiles are already dealt.")
            # [DV-3] the table says who starts, at every game of a tournament
            starter = state.starter if starts is None else _seat(starts, len(state.players))
            return _begin_turn(replace(state, phase="turn", starter=starter), starter, at)
        case Attack():
            return _attack(state, event, at)
        case Stop():
            _on_turn(state)
            if not state.hits:
                raise Illegal("Stop needs a hit.")
            return _end_turn(state, "stop", at)
        case TimerExpired("turn"):
            if state.phase != "turn" or state.countdown is None:
                raise Illegal("No turn timer is running.")
            return _end_turn(state, "time", at)  # [DV-9] like a miss
        case NextGame(starts):
            if state.phase != "done" or is_over(state):
                raise Illegal("There is no next game.")
            n = len(state.players)
            starter = next_seat(state.starter, n) if starts is None else _seat(starts, n)
            return _deal(replace(state, game=state.game + 1), starter)
    raise Illegal("That does not fit now.")


def _deal(state: State, starter: int) -> State:
    n = len(state.players)
    size = deal_size(n)  # [DV-1]
    return replace(
        state, starter=starter, phase="deal", turn=starter, turns=0,
        pool=TILES + (JOKERS if state.jokers else 0) - n * size,  # [DV-10]
        hidden=(size,) * n, revealed=(0,) * n, drawn=False, hits=0, countdown=None,
        last=None, tally=(0,) * n, out=(), winner=None)


def _begin_turn(state: State, seat: int, at: float) -> State:
    # [DV-4] a turn starts with a draw; [DV-7] an empty pool gives nothing to draw
    drawn = state.pool > 0
    countdown = Countdown.start("turn", state.turn_timer, at) if state.turn_timer else None
    return replace(state, turn=seat, turns=state.turns + 1, pool=max(state.pool - 1, 0),
                   drawn=drawn, hits=0, countdown=countdown)


def check_attack(state: State, target: int, by: int | None = None) -> None:
    """Raises ``Illegal`` unless ``target`` may be attacked now (by seat
    ``by``, when given).  The box asks as soon as the target is named, before
    the players say whether the guess hit."""
    _on_turn(state)
    seat = state.turn
    if by is not None and by != seat:
        raise Illegal("{player}'s turn now.", player=state.players[seat])
    if not is_whole(target) or not 0 <= target < len(state.players):
        raise Illegal("No such player.")
    if target == seat:
        raise Illegal("Not your own row.")
    if not state.hidden[target]:
        raise Illegal("{player} is out.", player=state.players[target])


def _attack(state: State, attack: Attack, at: float) -> State:
    check_attack(state, attack.target, attack.by)
    seat, target = state.turn, attack.target
    if not attack.hit:
        return _end_turn(state, "miss", at)  # [DV-6]
    # [DV-5] the tile is turned face up where it stands
    state = replace(state, hidden=bump(state.hidden, target, -1), revealed=bump(state.revealed, target, 1),
                    hits=state.hits + 1, tally=bump(state.tally, seat, 1))
    if not state.hidden[target]:
        state = replace(state, out=(*state.out, Elimination(target, seat)))  # [DV-8]
    return _settle(state, at, turn_over=False)


def _end_turn(state: State, how: str, at: float) -> State:
    seat, hidden, revealed = state.turn, state.hidden, state.revealed
    if how == "stop":
        if state.drawn:
            hidden = bump(hidden, seat, 1)  # [DV-5] the row grows by one hidden tile
    elif state.drawn:
        revealed = bump(revealed, seat, 1)  # [DV-6] the drawn tile joins the row face up
    else:
        # [DV-7] nothing was drawn: one of the player's own tiles is turned up
        hidden, revealed = bump(hidden, seat, -1), bump(revealed, seat, 1)
    state = replace(state, hidden=hidden, revealed=revealed, drawn=False,
                    last=TurnEnd(seat, state.hits, how, state.drawn))
    if not hidden[seat]:
        state = replace(state, out=(*state.out, Elimination(seat, None)))  # [DV-8] out by their own miss
    return _settle(state, at, turn_over=True)


def _settle(state: State, at: float, turn_over: bool) -> State:
    alive = [seat for seat, count in enumerate(state.hidden) if count]
    if len(alive) == 1:
        return _finish(state, alive[0])  # [DV-8]
    if not turn_over:
        return state
    out = {seat for seat, count in enumerate(state.hidden) if not count}
    return _begin_turn(state, next_seat(state.turn, len(state.players), skip=out), at)


def _finish(state: State, winner: int) -> State:
    seats = range(len(state.players))
    finished = [sum(e.by == seat for e in state.out) for seat in seats]
    # [DV-11] 1 per hit, 3 per opponent finished off, 5 for the win
    points = tuple(state.tally[s] + 3 * finished[s] + 5 * (s == winner) for s in seats)
    result = GameResult(state.game, state.starter, state.turns, state.tally, state.out, winner, points)
    return replace(state, phase="done", winner=winner, drawn=False, countdown=None,
                   games=(*state.games, result))


def _on_turn(state: State) -> None:
    if state.phase == "deal":
        raise Illegal("Deal the tiles first.")
    if state.phase == "done":
        raise Illegal("The game is over.")


def _seat(seat: object, count: int) -> int:
    if not is_whole(seat) or not 0 <= seat < count:
        raise Illegal("The starting player must be one of the players.")
    return seat




# --- what the box shows -------------------------------------------------------

def step(state: State) -> Step:
    if state.phase == "deal":
        return Step(Stage.DEAL, state.starter)
    if state.phase == "done":
        return Step(Stage.OVER) if is_over(state) else Step(Stage.NEXT_GAME)
    targets = tuple(s for s, count in enumerate(state.hidden) if count and s != state.turn)
    return Step(Stage.AGAIN if state.hits else Stage.ATTACK, state.turn, targets)


def requests(state: State) -> tuple[Any, ...]:
    return ()  # the tiles are shuffled by hand


def timer(state: State) -> Countdown | None:
    return state.countdown if state.phase == "turn" else None


def standings(state: State) -> dict[str, int]:
    """Points per player over the finished games: tournament points, or in a
    single game 1 for the winner."""
    totals = dict.fromkeys(state.players, 0)
    for game in state.games:
        for name, points in _scores(state, game).items():
            totals[name] += points
    return totals


class Row(msgspec.Struct, frozen=True):
    """A player's row as the table sees it: tiles hidden and face up."""
    name: str
    hidden: int
    revealed: int
    out: bool                  # no hidden tile left
    hits: int                  # hits in this game


class Timer(msgspec.Struct, frozen=True):
    seconds: float
    left: float
    deadline: float | None


class Ended(msgspec.Struct, frozen=True):
    """How the previous turn ended (``TurnEnd``), by the player's name."""
    player: str
    hits: int
    how: str
    drew: bool


class Public(base.View, frozen=True, kw_only=True):
    """Everything on the table: the tiles are counted, never named."""
    game: int
    games: int                 # 1, or a tournament's games [DV-11]
    rules: str                 # "basic" or "extended"
    tiles_each: int
    order_rule: str
    joker_rule: str | None
    step: Step
    pool: int
    players: list[Row]
    turn: str
    turns: int
    drawn: bool
    hits: int
    timer: Timer | None
    last: Ended | None
    eliminated: list[Out]
    winner: str | None
    standings: dict[str, int]


class Private(Public, frozen=True, kw_only=True):
    """A player's view: the public one (the rows themselves stay on the
    table: the box holds no secrets)."""
    seat: int


def public(state: State) -> Public:
    names = state.players
    countdown = timer(state)
    return Public(
        game=state.game,
        games=GAMES if state.tournament else 1,
        rules="extended" if state.jokers else "basic",
        tiles_each=state.tiles_each,
        order_rule=ORDER_RULE,
        joker_rule=JOKER_RULE if state.jokers else None,
        step=step(state),
        pool=state.pool,
        players=[Row(name, state.hidden[seat], state.revealed[seat], not state.hidden[seat], state.tally[seat])
                 for seat, name in enumerate(names)],
        turn=names[state.turn],
        turns=state.turns,
        drawn=state.drawn,
        hits=state.hits,
        timer=None if countdown is None else Timer(countdown.seconds, countdown.left, countdown.deadline()),
        last=None if state.last is None else Ended(names[state.last.seat], state.last.hits, state.last.how,
                                                   state.last.drew),
        eliminated=[_out(state, e) for e in state.out],
        winner=None if state.winner is None else names[state.winner],
        standings=standings(state),
    )


def private(state: State, seat: int) -> Private:
    return base.widened(public(state), Private, seat=seat)


class Out(msgspec.Struct):
    """A player out of a game, and who caught their last tile (None: their own miss)."""
    player: str
    by: str | None


class GameLog(base.Round, kw_only=True):
    """A game of the score log, the tournament's round."""
    game: int
    starter: str
    turns: int
    hits: dict[str, int]
    eliminated: list[Out]
    winner: str


class Summary(base.Summary, kw_only=True):
    """Da Vinci Code's score log: a round per game played."""
    rounds: list[GameLog]
    # [DV-8] a single game is won, not scored: its 1 and 0 are no points
    # to add up or average beside a tournament's.  Always written, either way.
    scored: bool


def summary(state: State) -> Summary:
    totals = standings(state)
    return Summary(
        status="finished" if is_over(state) else "playing",
        players=list(state.players),
        starter=state.players[state.games[0].starter if state.games else state.starter],  # [DV-3] of game 1
        rounds=[_game_log(state, game) for game in state.games],
        totals=totals,
        winners=winners(totals) if is_over(state) else [],  # [DV-11] equal totals share the win
        scored=state.tournament,
    )


def is_over(state: State) -> bool:
    return state.phase == "done" and (not state.tournament or len(state.games) == GAMES)


def _scores(state: State, game: GameResult) -> dict[str, int]:
    if state.tournament:
        return dict(zip(state.players, game.points))
    # [DV-8] [ruling] a single game scores 1 for its winner and 0 for the rest
    return {name: int(seat == game.winner) for seat, name in enumerate(state.players)}


def _game_log(state: State, game: GameResult) -> GameLog:
    names = state.players
    return GameLog(game=game.number, starter=names[game.starter], turns=game.turns, hits=dict(zip(names, game.hits)),
                   eliminated=[_out(state, e) for e in game.out], winner=names[game.winner],
                   scores=_scores(state, game))


def _out(state: State, e: Elimination) -> Out:
    return Out(state.players[e.seat], None if e.by is None else state.players[e.by])
