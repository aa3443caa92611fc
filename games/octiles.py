"""Octiles, the basic game "Move Over" (Dale Walton), for 2 to 4 players.

Each player brings their runners from the start homes on their edge of the
board to the goal homes on the opposite edge.  On a turn a player takes a
tile, lays it on an empty space or in exchange for a tile already on the
board, and moves one runner along a path that uses the new tile.  The box
deals the tiles, keeps the turns, passes and finishing order, and in referee
mode follows the board and checks every move.  The tiles, the board and the
movement rules [OC-5]-[OC-7] are in ``games.octiles_board`` (re-exported here).

Setup options
-------------
``players``  int 2-4, or a list of 2-4 names; default 2.  The seats, clockwise:
             2 players sit West and East, 3 West, North and East, 4 all round.
             Given a count, the players are named after their seats.
``runners``  int 3-5, runners per player; default 5 [ruling: in every player
             count].
``homes``    referee mode: the start homes each player put their runners on,
             a list per seat in seat order, each ``runners`` circle names of
             that seat's start homes [OC-1]: the rules let players place
             them as they like.  Default: the first start homes of each seat
             in the order of its seat line (see ``octiles_board.position``).
``starts``   int, the seat index (0 = West) of who starts; default 0
             [ruling: the box asks who starts].
``mode``     ``"referee"`` (default): the box keeps the board and runners and
             checks each move.  ``"dealer"``: the box deals the tiles and
             keeps turns and passes; the players say where each tile went and
             who has finished.

Events
------
``Shuffled("deck", order)``  the service's answer to the ``Shuffle("deck",
             TILE_IDS)`` requested at setup [OC-1]; ``order[0]`` is the top.
``Play(space, rotation, from_circle, to_circle)``  referee mode: the player to
             move lays the tile in hand on ``space`` turned ``rotation`` steps
             and moves the runner from ``from_circle`` to ``to_circle``; it must
             be one of ``legal_moves(state.board, state.hand)``.
``Played(space)``  dealer mode: the tile in hand went on ``space`` (the box
             keeps which tile lies where, so it knows what an exchange took off).
``Pass()``   the player to move passes [OC-8]; their tile stays on top of
             the deck for the next player.  Once everyone has passed in a row,
             a player who can move may not pass (checked in referee mode).
             [ruling] When then a whole round more has passed (nobody could
             move with the tile), the tile goes to the bottom of the deck and
             the next player draws a new one; the pass's ``Turn`` says
             ``set_aside``.  Only on a full board with an empty deck is there
             no other tile: then the game is "stuck".
``Finished(seat)``  dealer mode: that player has all runners home [OC-9].
``Stop()``   the table stops: after a winner, those still playing on keep the
             places they have; before one, the game ends without a winner.

For the screens
---------------
``step(state)``           what the box asks for next (see ``Step``).
``legal_moves(state.board, state.hand)``
                          the moves a ``Play`` may make, each
                          ``Move(space, rotation, from_circle, to_circle)``.
``moves_at(state, space, rotation)``
                          the legal moves of the tile in hand laid on
                          ``space`` turned ``rotation``; ``no_move(...)``
                          with the same arguments says why there are none.
``exchange(state, space)``
                          the tile that laying on ``space`` takes off the
                          board, and where it goes.
``tile_paths(tile, rotation)``
                          the tile's four paths as pairs of sides (0 = N,
                          clockwise), to draw between side midpoints.
``space_number(name)``, ``space_name(number)``
                          the rules name spaces by the board file's grid
                          ("c3") and number them 1-17 for the keypad, row
                          by row from the north-west; circles are "A1"-"F6".
``place(name)``, ``move_name(start, end)``
                          the one name of a place that people read
                          (``games.octiles_places``): a space's number, a
                          circle as a space and an arrow ("8↘"); the views
                          below (``public``, ``private``, ``summary``) give
                          places by it, the events by the grid.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

import msgspec

from games import base
from games.base import Illegal, Shuffle, Shuffled, next_seat, player_names
from games.octiles_board import (BOARD, SEATS, SEATS_IN_PLAY, SIDES, TILES, Board, Move,
                                 Position, canonical, legal_moves, load_board, path_ends, play,
                                 position, rotations, tile_paths)
from games.octiles_places import corner, move_name, place

__all__ = [
    "NAME", "EVENTS", "TILE_IDS", "Play", "Played", "Pass", "Finished", "Stop", "State", "Turn",
    "Step", "Exchange", "NoMove", "setup", "apply", "requests", "timer", "public", "private",
    "summary", "is_over", "step", "exchange", "moves_at", "no_move", "space_name", "space_number",
    "place", "move_name", "corner",
    # from games.octiles_board
    "BOARD", "SEATS", "SIDES", "TILES", "Board", "Move", "Position", "canonical", "legal_moves",
    "load_board", "path_ends", "play", "position", "rotations", "tile_paths",
]

NAME = "octiles"
TILE_IDS = tuple(TILES)
MODES = ("referee", "dealer")


@dataclass(frozen=True)
class Play:
    space: str
    rotation: int
    from_circle: str
    to_circle: str


@dataclass(frozen=True)
class Played:
    space: str


@dataclass(frozen=True)
class Pass:
    """The player to move passes [OC-8]."""


@dataclass(frozen=True)
class Finished:
    seat: int


@dataclass(frozen=True)
class Stop:
    """The table stops the game."""


EVENTS: tuple[type, ...] = (Play, Played, Pass, Finished, Stop)


@dataclass(frozen=True)
class Turn:
    """One turn as the table saw it.  ``action`` is "placed", "exchanged" or
    "passed"; ``removed`` is the tile an exchange took off; ``move`` is the
    runner's (from, to) in referee mode; ``home`` counts runners that reached
    a goal home on this turn (in dealer mode: all of them, on the turn that
    finished the player, once declared)."""
    number: int
    round: int
    seat: int
    tile: str
    action: str
    space: str | None = None
    rotation: int | None = None
    removed: str | None = None
    move: tuple[str, str] | None = None
    home: int = 0
    finished: bool = False
    set_aside: bool = False


@dataclass(frozen=True)
class State:
    """``board`` holds the tiles by space and, in referee mode, the runners;
    in dealer mode rotations are None and no runners are known.  ``hand`` is
    the tile of the player to move, taken from the deck or, on a full board,
    handed over by the last exchange (``hand_from`` "deck" or "board").
    ``passes`` counts passes in a row since a tile was last played."""
    mode: str
    names: tuple[str, ...]
    starts: int
    board: Position
    deck: tuple[str, ...] | None = None
    hand: str | None = None
    hand_from: str = "deck"
    turn: int = 0
    round: int = 1
    passes: int = 0
    finishers: tuple[int, ...] = ()
    stopped: bool = False
    turns: tuple[Turn, ...] = ()

    @property
    def seats(self) -> tuple[str, ...]:
        return self.board.seats

    @property
    def active(self) -> tuple[int, ...]:
        """Seats still playing, in seat order."""
        return tuple(s for s in range(len(self.names)) if s not in self.finishers)


# What the box asks for next (``Step.kind``).
Stage = StrEnum("Stage", [("SHUFFLE", "shuffle"), ("PLAY", "play"), ("NO_MOVE", "no_move"), ("STUCK", "stuck"),
                          ("OVER", "over")])


@dataclass(frozen=True)
class Step:
    """What the box asks for next.

    ``kind``:
      "shuffle"  the deck is not shuffled yet (the service answers the request);
      "play"     ``seat`` plays ``tile``: ``Play`` (referee) or ``Played``
                 (dealer), or ``Pass``;
      "no_move"  referee mode: ``seat`` has no legal move with ``tile`` and
                 can only ``Pass``;
      "stuck"    referee mode: nobody could move with this tile for a whole
                 round after everyone passed, and there is no other tile to
                 draw (a full board, an empty deck); ``Pass`` goes on,
                 ``Stop`` ends;
      "over"     the game is over.
    ``must_move``: everyone passed, so ``seat`` must move if they can [OC-8].
    ``moves``: referee mode, how many legal moves ``tile`` offers.
    """
    kind: Stage
    seat: int | None = None
    tile: str | None = None
    tile_from: str | None = None
    must_move: bool = False
    moves: int | None = None


@dataclass(frozen=True)
class Exchange:
    """The tile an exchange takes off the board and where it goes: "deck"
    (the bottom of the deck) or "next" (the next player's tile)."""
    tile: str
    to: str


@dataclass(frozen=True)
class NoMove:
    """Why a placement moves nobody: the runner on ``from_circle`` would end
    on ``to_circle`` (None: its path runs into an empty space), which
    ``reason`` forbids.  Without ``from_circle``, none of the mover's
    runners stands at an end of the tile's paths."""
    reason: str
    from_circle: str | None = None
    to_circle: str | None = None


def space_name(number: int) -> str:
    """The space keyed as ``number`` 1-17."""
    return BOARD.space(number)


def space_number(space: str) -> int:
    """The keypad number 1-17 of ``space``."""
    return BOARD.number(space)


# --- setup ------------------------------------------------------------------------

def setup(options: dict[str, Any] | None = None) -> State:
    options = dict(options or {})
    for key in options:
        if key not in ("players", "runners", "starts", "mode", "homes"):
            raise Illegal("Octiles has no option {option!r}.", option=key)
    names = player_names(options, 2, 4)
    seats = SEATS_IN_PLAY[len(names)]
    if isinstance(options.get("players", 2), int):
        names = tuple(seat.title() for seat in seats)
    runners = options.get("runners", 5)
    if type(runners) is not int or not 3 <= runners <= 5:
        raise Illegal("Each player plays 3 to 5 runners.")
    starts = options.get("starts", 0)
    if type(starts) is not int or not 0 <= starts < len(names):
        raise Illegal("The starting player must be one of the players.")
    mode = options.get("mode", "referee")
    if mode not in MODES:
        raise Illegal("Octiles is played in referee or dealer mode.")
    if mode == "referee":
        # [OC-1] runners on their start homes, wherever each player put them
        board = position(len(names), runners, runners=_homes(options.get("homes"), seats, runners),
                         to_move=seats[starts])
    else:
        if options.get("homes") is not None:
            raise Illegal("In dealer mode the box does not follow the runners.")
        board = Position(seats, runners, (None,) * len(BOARD.spaces), (None,) * len(BOARD.circles),
                         seats[starts])
    return State(mode, names, starts, board, turn=starts)


def _homes(homes: object, seats: tuple[str, ...], runners: int) -> dict[str, str] | None:
    """The runners' circles by seat from the ``homes`` option (None: the
    first start homes)."""
    if homes is None:
        return None
    if not isinstance(homes, (list, tuple)) or len(homes) != len(seats):
        raise Illegal("Give the start homes of every player.")
    placed: dict[str, str] = {}
    for seat, circles in zip(seats, homes):
        if (not isinstance(circles, (list, tuple)) or len(set(circles)) != runners
                or len(circles) != runners or not set(circles) <= set(BOARD.start_homes(seat))):
            raise Illegal("Each player puts every runner on a start home of their own.")
        placed.update((circle, seat) for circle in circles)
    return placed


# --- events -----------------------------------------------------------------------

def apply(state: State, event: object, at: float) -> State:
    if is_over(state):
        raise Illegal("The game is over.")
    if state.deck is None:
        match event:
            case Shuffled("deck", order):
                if len(order) != len(TILE_IDS) or set(order) != set(TILE_IDS):
                    raise Illegal("The deck is the 18 tiles.")
                # [OC-1] all 18 tiles, shuffled face down; the first player draws
                return dataclasses.replace(state, deck=tuple(order[1:]), hand=order[0])
        raise Illegal("The tiles are not shuffled yet.")

    match event:
        case Play(space, rotation, start, end):
            if state.mode != "referee":
                raise Illegal("In dealer mode, say only which space the tile went on.")
            return _play(state, space, rotation, start, end)
        case Played(space):
            if state.mode != "dealer":
                raise Illegal("The box follows the board: give the whole move.")
            if space not in BOARD.space_index:
                raise Illegal("There is no such space.")
            tiles = list(state.board.tiles)
            tiles[BOARD.space_index[space]] = (_hand(state), None)
            return _tile_played(state, dataclasses.replace(state.board, tiles=tuple(tiles)), space)
        case Pass():
            return _pass(state)
        case Finished(seat):
            return _declare(state, seat)
        case Stop():   # [OC-8] [ruling] the table may end a game nobody can move in
            return dataclasses.replace(state, stopped=True)
    raise Illegal("That does not fit now.")


def _play(state: State, space: str, rotation: object, start: str, end: str) -> State:
    tile, board = _hand(state), state.board
    if type(rotation) is not int or not 0 <= rotation < 8:
        raise Illegal("A tile turns 0 to 7 steps.")
    move = Move(space, canonical(tile, rotation), start, end)
    if move not in legal_moves(board, tile):
        raise _why_not(state, move)
    after = play(board, tile, move)
    me = board.to_move
    return _tile_played(state, after, space, rotation=move.rotation, move=(start, end),
                        home=int(end in BOARD.goal_homes(me)),
                        # [OC-9] all runners in the goal homes
                        finished=after.home(me) == board.runners_per_player)


def _why_not(state: State, move: Move) -> Illegal:
    """The refusal of a move that ``legal_moves`` does not offer.  Made here
    with each sentence, so that the catalogues find them as messages."""
    board, me = state.board, state.board.to_move
    if move.space not in BOARD.space_index:
        return Illegal("There is no such space.")
    if move.from_circle not in BOARD.circle_index or move.to_circle not in BOARD.circle_index:
        return Illegal("There is no such circle.")
    if board.runner_on(move.from_circle) != me:
        return Illegal("You have no runner on that circle.")
    if move.from_circle in BOARD.goal_homes(me):
        return Illegal("A runner that reached its goal home stays there.")
    if move.to_circle in BOARD.start_homes(me):
        return Illegal("A runner may never go back to its start homes.")
    if not BOARD.is_stop(move.to_circle) and move.to_circle not in BOARD.goal_homes(me):
        return Illegal("That home is closed to you.")
    if move.to_circle != move.from_circle and board.runner_on(move.to_circle) is not None:
        return Illegal("Another runner stands on that circle.")
    starts = BOARD.start_homes(me)
    if move.from_circle not in starts and any(m.from_circle in starts for m in legal_moves(board, state.hand)):
        return Illegal("All your start homes are taken: a runner must leave one.")
    return Illegal("That path does not lead there over the new tile.")


def _tile_played(state: State, board: Position, space: str, **details: Any) -> State:
    """The tile in hand lies on ``space`` in ``board``: settle the tile it
    replaced, record the turn (with ``details`` of the move, in referee mode)
    and hand on to the next player."""
    removed = state.board.tile_on(space)
    deck = _deck(state)
    if removed is None:
        hand_over = None
    elif board.is_full():
        hand_over = removed[0]  # [OC-3] on a full board the next player plays the removed tile
    else:
        deck = deck + (removed[0],)  # [OC-2] the removed tile goes to the bottom of the deck
        hand_over = None
    turn = Turn(len(state.turns) + 1, state.round, state.turn, _hand(state),
                "exchanged" if removed else "placed", space,
                removed=removed[0] if removed else None, **details)
    finishers = state.finishers + ((state.turn,) if turn.finished else ())
    state = dataclasses.replace(state, board=board, deck=deck, passes=0, finishers=finishers,
                                turns=state.turns + (turn,))
    if hand_over:
        state = dataclasses.replace(state, hand=hand_over, hand_from="board")
    else:
        state = dataclasses.replace(state, hand=deck[0], deck=deck[1:], hand_from="deck")
    return _next_player(state)


def _pass(state: State) -> State:
    # [OC-8] once everyone has passed in a row, the first who can move must
    if _must_move(state) and state.mode == "referee" and legal_moves(state.board, state.hand):
        raise Illegal("Everyone has passed, and you can move: you must.")
    hand = _hand(state)
    turn = Turn(len(state.turns) + 1, state.round, state.turn, hand, "passed")
    # [OC-8] the tile stays on top of the deck: the next player plays it
    state = dataclasses.replace(state, passes=state.passes + 1, turns=state.turns + (turn,))
    if state.passes >= 2 * len(state.active) and state.deck:
        # [OC-8] [ruling] Everyone passed, then nobody could move with the
        # tile for a whole round: it never will on this board.  It goes to
        # the bottom of the deck and the next player draws.
        turn = dataclasses.replace(turn, set_aside=True)
        state = dataclasses.replace(state, deck=state.deck[1:] + (hand,), hand=state.deck[0],
                                    hand_from="deck", passes=0, turns=state.turns[:-1] + (turn,))
    return _next_player(state)


def _hand(state: State) -> str:
    """The tile in hand: there is one from the shuffle on [OC-1], and every
    move comes after it."""
    assert state.hand is not None, "no tile is in hand before the shuffle"
    return state.hand


def _deck(state: State) -> tuple[str, ...]:
    """The deck, shuffled before any move [OC-1]."""
    assert state.deck is not None, "no deck before the shuffle"
    return state.deck


def _declare(state: State, seat: object) -> State:
    if state.mode != "dealer":
        raise Illegal("The box sees for itself who has finished.")
    if type(seat) is not int or not 0 <= seat < len(state.names):
        raise Illegal("There is no such player.")
    if seat in state.finishers:
        raise Illegal("That player has already finished.")
    played = [i for i, t in enumerate(state.turns) if t.seat == seat and t.action != "passed"]
    if not played:
        raise Illegal("Nobody finishes without playing a tile.")
    # Runners move only on their own player's turns, so the last tile that
    # player played is the one that brought the last runner home [OC-9].
    turns = list(state.turns)
    turns[played[-1]] = dataclasses.replace(turns[played[-1]], home=state.board.runners_per_player,
                                            finished=True)
    state = dataclasses.replace(state, turns=tuple(turns), finishers=state.finishers + (seat,))
    if seat == state.turn and not is_over(state):
        return _next_player(state)
    return state


def _next_player(state: State) -> State:
    if is_over(state):
        return state
    count = len(state.names)
    seat = next_seat(state.turn, count, skip=state.finishers)
    # A round is once round the table from the player who started.
    if (seat - state.starts) % count <= (state.turn - state.starts) % count:
        state = dataclasses.replace(state, round=state.round + 1)
    return dataclasses.replace(state, turn=seat,
                               board=dataclasses.replace(state.board, to_move=state.seats[seat]))


def _must_move(state: State) -> bool:
    return state.passes >= len(state.active)


# --- what the box shows and asks ----------------------------------------------------

def requests(state: State) -> tuple[Shuffle, ...]:
    if state.deck is None and not is_over(state):
        return (Shuffle("deck", TILE_IDS),)
    return ()


def timer(state: State) -> None:
    return None


def is_over(state: State) -> bool:
    return state.stopped or len(state.active) <= 1


def step(state: State) -> Step:
    if is_over(state):
        return Step(Stage.OVER)
    if state.deck is None:
        return Step(Stage.SHUFFLE)
    kind, moves = Stage.PLAY, None
    if state.mode == "referee":
        moves = len(legal_moves(state.board, state.hand))
        if not moves:
            # Everyone passed, then everyone passed again unable to move: the
            # same tile on the same board will never move anyone.
            kind = Stage.STUCK if state.passes >= 2 * len(state.active) else Stage.NO_MOVE
    return Step(kind, state.turn, state.hand, state.hand_from,
                must_move=_must_move(state) and kind == Stage.PLAY, moves=moves)


def moves_at(state: State, space: str, rotation: int) -> tuple[Move, ...]:
    """The legal moves of the tile in hand laid on ``space`` turned
    ``rotation`` steps."""
    hand = _hand(state)
    turned = canonical(hand, rotation)
    return tuple(m for m in legal_moves(state.board, hand) if m.space == space and m.rotation == turned)


def no_move(state: State, space: str, rotation: int) -> NoMove | None:
    """Why laying the tile in hand on ``space`` turned ``rotation`` lets no
    runner move (referee mode); None when it does."""
    if moves_at(state, space, rotation):
        return None
    board, me, hand = state.board, state.board.to_move, _hand(state)
    tries = [(start, end) for ends in path_ends(board, hand, space, rotation)
             for start, end in (ends, ends[::-1]) if start and board.runner_on(start) == me]
    if not tries:
        return NoMove("None of your runners is on its paths.")
    # Say it of the runner the player most likely meant: one not yet home,
    # on a path that does reach a circle.
    start, end = min(tries, key=lambda t: (t[0] in BOARD.goal_homes(me), t[1] is None))
    if end is None:
        return NoMove("That path runs into an empty space.", start)  # [OC-5]
    return NoMove(str(_why_not(state, Move(space, canonical(hand, rotation), start, end))), start, end)


def exchange(state: State, space: str) -> Exchange | None:
    """What leaves the board if the tile in hand goes on ``space``: None on an
    empty space; otherwise the tile lying there, going to the bottom of the
    deck [OC-2] or, on a full board, to the next player [OC-3]."""
    lying = state.board.tile_on(space)
    if lying is None:
        return None
    return Exchange(lying[0], "next" if state.board.is_full() else "deck")


class Laid(msgspec.Struct, frozen=True):
    """A tile on the board: its space's number, the tile and its turn (None
    in dealer mode, where the box does not follow the runners)."""
    number: int
    tile: str
    rotation: int | None


class Public(base.View, frozen=True, kw_only=True):
    """Everything on the table; only the order of the deck stays hidden.
    Places are named as the table reads them (``place``)."""
    mode: str                          # "referee" or "dealer"
    players: list[str]
    seats: list[str]
    runners: int                       # each player's
    turn: int | None                   # the seat to play; None once over
    player: str | None
    number: int                        # the turn's, from 1
    round: int
    tile: str | None                   # in the hand of the player to play
    paths: list[list[int]]             # the hand's paths, unturned
    tile_from: str                     # "deck" or "board"
    deck: int | None                   # tiles left in it (None: the table deals)
    tiles: dict[str, Laid]             # by place
    passes: int
    all_passed: bool                   # [OC-8] who can move must
    finished: list[str]                # in the order they came home
    winner: str | None
    over: bool
    last: TurnLog | None
    pieces: dict[str, str] | None = None   # referee mode: each runner's circle, by its seat
    home: dict[str, int] | None = None     # referee mode: each player's runners home


class Private(Public, frozen=True, kw_only=True):
    """Octiles has no secrets at the table: the public view, plus the
    seat's homes and, on its turn in referee mode, its legal moves (a
    space's number, the turn, from and to)."""
    seat: int
    name: str
    start_homes: list[str]
    goal_homes: list[str]
    moves: list[tuple[int, int, str, str]] | None = None


def public(state: State) -> Public:
    over = is_over(state)
    board = state.board
    referee = state.mode == "referee"
    return Public(
        mode=state.mode,
        players=list(state.names),
        seats=list(state.seats),
        runners=board.runners_per_player,
        turn=None if over else state.turn,
        player=None if over else state.names[state.turn],
        number=len(state.turns) + 1,
        round=state.round,
        tile=state.hand,
        paths=[list(p) for p in tile_paths(state.hand)] if state.hand else [],
        tile_from=state.hand_from,
        deck=None if state.deck is None else len(state.deck),
        tiles={place(space): Laid(space_number(space), tile, rotation)
               for space, (tile, rotation) in board.placed().items()},
        passes=state.passes,
        all_passed=not over and _must_move(state),
        finished=[state.names[s] for s in state.finishers],
        winner=state.names[state.finishers[0]] if state.finishers else None,
        over=over,
        last=_turn_view(state, state.turns[-1]) if state.turns else None,
        pieces={place(circle): seat for circle, seat in board.pieces().items()} if referee else None,
        home={name: board.home(seat) for name, seat in zip(state.names, state.seats)} if referee else None,
    )


def private(state: State, seat: int) -> Private:
    me, hand = state.seats[seat], state.hand
    moving = state.mode == "referee" and hand is not None and seat == state.turn and not is_over(state)
    return base.widened(public(state), Private, seat=seat, name=state.names[seat],
                        start_homes=list(map(place, BOARD.start_homes(me))),
                        goal_homes=list(map(place, BOARD.goal_homes(me))),
                        moves=[(space_number(m.space), m.rotation, place(m.from_circle), place(m.to_circle))
                               for m in legal_moves(state.board, hand)] if moving and hand else None)


class TurnLog(base.Round, kw_only=True):
    """A turn of the score log: what the player did, scoring the runners it
    brought home; ``from``, ``to`` and ``rotation`` are there in referee mode,
    where the box moved a runner."""
    turn: int
    round: int
    player: str
    action: str
    tile: str
    space: int | str | None       # its number; a game kept before the names changed: the grid's ("c3")
    removed: str | None
    finished: bool
    set_aside: bool
    rotation: int | None = None
    start: str | None = msgspec.field(default=None, name="from")
    to: str | None = None


class Summary(base.Summary, kw_only=True):
    """Octiles' score log: a round per turn, and what the turns did."""
    rounds: list[TurnLog]
    mode: str
    turns: int
    tiles_placed: int
    exchanges: int
    passes: int
    finishing_order: list[str]   # always written, empty until one finishes
    stopped: bool                # the table ended it from the game menu before its end


def summary(state: State) -> Summary:
    """The score log: one round entry per turn, scoring the runners that came
    home on it; totals are runners home (in dealer mode the box only learns
    them when a player finishes); the winner is the first to finish."""
    turns = [_turn_view(state, t) for t in state.turns]
    if state.mode == "referee":
        totals = {name: state.board.home(seat) for name, seat in zip(state.names, state.seats)}
    else:
        totals = {name: 0 for name in state.names}
        for t in state.turns:
            totals[state.names[t.seat]] += t.home
    return Summary(
        status="finished" if is_over(state) else "playing",
        players=list(state.names),
        starter=state.names[state.starts],
        rounds=turns,
        totals=totals,
        winners=[state.names[state.finishers[0]]] if state.finishers else [],
        mode=state.mode,
        turns=len(state.turns),
        tiles_placed=sum(t.action == "placed" for t in state.turns),
        exchanges=sum(t.action == "exchanged" for t in state.turns),
        passes=sum(t.action == "passed" for t in state.turns),
        finishing_order=[state.names[s] for s in state.finishers],
        stopped=state.stopped,
    )


def _turn_view(state: State, t: Turn) -> TurnLog:
    name = state.names[t.seat]
    # Places by the names the table reads (``place``): a space's number,
    # a circle's arrow name.  The score log of a game kept before gave the
    # grid's ("c3", "A1"); ``referee.web.octiles`` reads both.
    start, to = (place(t.move[0]), place(t.move[1])) if t.move else (None, None)
    return TurnLog(turn=t.number, round=t.round, player=name, action=t.action, tile=t.tile,
                   space=space_number(t.space) if t.space else None, removed=t.removed, finished=t.finished,
                   set_aside=t.set_aside, scores={n: (t.home if n == name else 0) for n in state.names},
                   rotation=t.rotation if t.move else None, start=start, to=to)
