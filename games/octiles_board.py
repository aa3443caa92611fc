"""Octiles tiles and board: what a move along the paths may do.

The game itself (deck, turns, passes, the win) is in ``games.octiles``; this
module is the geometry under it, and the movement rules [OC-5]-[OC-7].

Sides.  The eight sides of an octagon are numbered clockwise from north:
0=N 1=NE 2=E 3=SE 4=S 5=SW 6=W 7=NW.  A tile is four paths, each joining two
sides.  Turning a tile by ``r`` steps turns it r*45 degrees clockwise, so a
path between sides a and b runs between a+r and b+r (mod 8) afterwards.
Tiles are turned, never flipped.

Tiles.  ``TILES`` gives the 18 tiles T01-T18 as their pairs of sides in
rotation 0.  ``rotations(tile)`` are the rotations that give distinct
orientations, each the smallest r for its orientation; ``tile_paths(tile, r)``
is what the screen draws: the four paths as side pairs after turning.

Board.  ``load_board(text)`` reads a board file (the packaged one is
``games/data/octiles-board.txt``; its header explains the format) and checks
it: every link two-way, no side leading nowhere, 17 spaces, 16 stops, 20
edge circles in four seats of five, and the same wiring after a quarter turn.
``BOARD`` is the packaged board.  Spaces are numbered 1-17 for the keypad row
by row from the north-west, west to east within a row::

            1 b5   2 c5
            3 b4   4 c4   5 d4   6 e4
     7 a3   8 b3   9 c3  10 d3  11 e3
    12 a2  13 b2  14 c2  15 d2
                  16 c1  17 d1

Seats.  "west", "north", "east", "south", clockwise.  Two players sit West and
East, three West, North and East.  A seat's five edge circles are its start
homes and the goal homes of the seat opposite; the edge circles of a seat
nobody plays are off-limits to everyone.

Positions.  ``position(...)`` builds a position from plain data;
``legal_moves(position, tile)`` lists every move the player to move may make
with ``tile``, each as ``Move(space, rotation, from_circle, to_circle)``;
``play(position, tile, move)`` is the position after it;
``path_ends(position, tile, space, rotation)`` is where each path of a tile
laid there leads, for saying why a placement moves nobody.
"""
from __future__ import annotations

import dataclasses
import functools
import re
from dataclasses import dataclass
from importlib import resources
from typing import Any, NamedTuple, Sequence

SIDES = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
SEATS = ("west", "north", "east", "south")
SEATS_IN_PLAY = {2: ("west", "east"), 3: ("west", "north", "east"), 4: SEATS}
OPPOSITE = {"west": "east", "east": "west", "north": "south", "south": "north"}

TILES: dict[str, tuple[tuple[int, int], ...]] = {
    "T01": ((0, 4), (1, 5), (2, 6), (3, 7)),
    "T02": ((0, 5), (1, 4), (2, 6), (3, 7)),
    "T03": ((0, 5), (1, 4), (2, 7), (3, 6)),
    "T04": ((0, 4), (1, 7), (2, 5), (3, 6)),
    "T05": ((0, 4), (1, 7), (2, 6), (3, 5)),
    "T06": ((0, 2), (1, 6), (3, 5), (4, 7)),
    "T07": ((0, 3), (1, 4), (2, 5), (6, 7)),
    "T08": ((0, 4), (1, 5), (2, 3), (6, 7)),
    "T09": ((0, 4), (1, 3), (2, 5), (6, 7)),
    "T10": ((0, 4), (1, 3), (2, 7), (5, 6)),
    "T11": ((0, 2), (1, 7), (3, 5), (4, 6)),
    "T12": ((0, 5), (1, 3), (2, 4), (6, 7)),
    "T13": ((0, 2), (1, 4), (3, 5), (6, 7)),
    "T14": ((0, 5), (1, 4), (2, 3), (6, 7)),
    "T15": ((0, 7), (1, 3), (2, 6), (4, 5)),
    "T16": ((0, 3), (1, 2), (4, 5), (6, 7)),
    "T17": ((0, 2), (1, 3), (4, 5), (6, 7)),
    "T18": ((0, 1), (2, 3), (4, 5), (6, 7)),
}


# --- tiles ------------------------------------------------------------------------

def exits(pairs: Sequence[tuple[int, int]], rotation: int) -> tuple[int, ...]:
    """For each side 0-7, the side its path leaves by once the tile given as
    ``pairs`` is turned ``rotation`` steps clockwise."""
    out = [0] * 8
    for a, b in pairs:
        out[(a + rotation) % 8] = (b + rotation) % 8
        out[(b + rotation) % 8] = (a + rotation) % 8
    return tuple(out)


# Every orientation of every tile, computed once: the move search looks them
# up thousands of times per call.
_EXITS = {tile: tuple(exits(pairs, r) for r in range(8)) for tile, pairs in TILES.items()}
_ROTATIONS = {
    tile: tuple(r for r in range(8) if turned[r] not in turned[:r])
    for tile, turned in _EXITS.items()
}


def rotations(tile: str) -> tuple[int, ...]:
    """The rotations giving ``tile``'s distinct orientations, smallest first."""
    return _ROTATIONS[_tile(tile)]


def canonical(tile: str, rotation: int) -> int:
    """The smallest rotation that turns ``tile`` the same way as ``rotation``."""
    turned = _EXITS[_tile(tile)]
    return turned.index(turned[rotation % 8])


def tile_paths(tile: str, rotation: int = 0) -> tuple[tuple[int, int], ...]:
    """The four paths of ``tile`` turned ``rotation`` steps, as (side, side)
    pairs with the smaller side first, sorted: what the screen draws."""
    out = _EXITS[_tile(tile)][rotation % 8]
    return tuple((a, b) for a, b in enumerate(out) if a < b)


def _tile(tile: str) -> str:
    if tile not in TILES:
        raise ValueError(f"{tile!r} is not one of the tiles T01-T18")
    return tile


# --- the board --------------------------------------------------------------------

_SPACE = re.compile(r"[a-e][1-5]")
_CIRCLE = re.compile(r"[A-F][1-6]")
_GRID = 5  # spaces per row and column; circles take one more


@dataclass(frozen=True, eq=False)
class Board:
    """A loaded board.  Spaces are kept in keypad order, circles as the stops
    followed by the edge circles seat by seat; the link table is indexed by
    ``slot = 8 * space + side`` and holds the slot a side joins, or ``~c`` for
    circle ``c``."""
    spaces: tuple[str, ...]
    circles: tuple[str, ...]
    stops: int
    homes: dict[str, tuple[int, ...]]
    links: tuple[int, ...]

    @functools.cached_property
    def space_index(self) -> dict[str, int]:
        return {name: i for i, name in enumerate(self.spaces)}

    @functools.cached_property
    def circle_index(self) -> dict[str, int]:
        return {name: i for i, name in enumerate(self.circles)}

    def number(self, space: str) -> int:
        """The keypad number 1-17 of ``space``."""
        return self.space_index[space] + 1

    def space(self, number: int) -> str:
        """The space keyed as ``number`` (1-17)."""
        if not 1 <= number <= len(self.spaces):
            raise ValueError(f"spaces are numbered 1 to {len(self.spaces)}")
        return self.spaces[number - 1]

    def start_homes(self, seat: str) -> tuple[str, ...]:
        return tuple(self.circles[c] for c in self.homes[seat])

    def goal_homes(self, seat: str) -> tuple[str, ...]:
        return self.start_homes(OPPOSITE[seat])

    def is_stop(self, circle: str) -> bool:
        return self.circle_index[circle] < self.stops


def load_board(text: str) -> Board:
    """Read and check a board file; a board that is not sound raises
    ``ValueError`` naming the space and side at fault."""
    seats: dict[str, tuple[str, ...]] = {}
    sides: dict[str, tuple[str, ...]] = {}
    for number, line in enumerate(text.splitlines(), 1):
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        if words[0] == "seat":
            if len(words) != 7 or words[1] not in SEATS or not all(map(_CIRCLE.fullmatch, words[2:])):
                raise ValueError(f"line {number}: a seat line is 'seat NAME' and five circles")
            seats[words[1]] = tuple(words[2:])
        elif _SPACE.fullmatch(words[0]):
            if len(words) != 9:
                raise ValueError(f"line {number}: space {words[0]} needs 8 sides, not {len(words) - 1}")
            if words[0] in sides:
                raise ValueError(f"line {number}: space {words[0]} is given twice")
            sides[words[0]] = tuple(words[1:])
        else:
            raise ValueError(f"line {number}: {words[0]!r} is neither a seat nor a space")

    if len(sides) != 17:
        raise ValueError(f"the board has {len(sides)} spaces, not 17")
    if set(seats) != set(SEATS):
        raise ValueError("the board needs seat lines for west, north, east and south")
    edge = [c for seat in SEATS for c in seats[seat]]
    if len(set(edge)) != 20:
        raise ValueError("the four seats need 20 different edge circles")

    touches: dict[str, list[str]] = {}
    for x, row in sides.items():
        for k, to in enumerate(row):
            here = f"{x}.{SIDES[k]}"
            if _CIRCLE.fullmatch(to):
                touches.setdefault(to, []).append(here)
                continue
            y, _, t = to.partition(".")
            if to == "-":
                raise ValueError(f"dead end: {here} leads nowhere")
            if t not in SIDES or not _SPACE.fullmatch(y):
                raise ValueError(f"{here} leads to {to!r}, which is neither a circle nor a side")
            if y not in sides:
                raise ValueError(f"dead end: {here} leads to {y}, which is not a space of the board")
            back = sides[y][SIDES.index(t)]
            if back != here:
                raise ValueError(f"one-way link: {here} leads to {to}, but {to} leads to {back}")

    for c in edge:
        if len(touches.get(c, ())) != 1:
            raise ValueError(f"edge circle {c} must touch exactly one side, not {touches.get(c, [])}")
    stops = sorted((c for c in touches if c not in edge), key=_north_west_first)
    for c in stops:
        if len(touches[c]) < 2:
            raise ValueError(f"dead end: stop {c} touches only {touches[c][0]}")
    if len(stops) != 16:
        raise ValueError(f"the board has {len(stops)} stops, not 16")
    _check_quarter_turn(sides, seats)

    spaces = tuple(sorted(sides, key=_north_west_first))
    circles = (*stops, *edge)
    at = {name: i for i, name in enumerate(spaces)}
    ci = {name: i for i, name in enumerate(circles)}
    links = tuple(
        ~ci[to] if to in ci else 8 * at[to[:2]] + SIDES.index(to[3:])
        for x in spaces for to in sides[x]
    )
    homes = {seat: tuple(ci[c] for c in seats[seat]) for seat in SEATS}
    return Board(spaces, circles, len(stops), homes, links)


def _north_west_first(name: str) -> tuple[int, str]:
    return (-int(name[1]), name[0])


def _turned(name: str) -> str:
    """``name`` (a space, a circle or a side) after a quarter turn clockwise:
    the west edge goes north."""
    x, y = ord(name[0].lower()) - ord("a"), int(name[1]) - 1
    if name[0].isupper():
        return f"{chr(ord('A') + y)}{_GRID + 1 - x}"
    turned = f"{chr(ord('a') + y)}{_GRID - x}"
    if "." in name:
        turned += "." + SIDES[(SIDES.index(name[3:]) + 2) % 8]
    return turned


def _check_quarter_turn(sides: dict[str, Any], seats: dict[str, Any]) -> None:
    for x, row in sides.items():
        for k, to in enumerate(row):
            here, there = f"{x}.{SIDES[k]}", _turned(f"{x}.{SIDES[k]}")
            if there[:2] not in sides or sides[there[:2]][SIDES.index(there[3:])] != _turned(to):
                raise ValueError(f"not the same after a quarter turn: {here} leads to {to}, "
                                 f"so {there} should lead to {_turned(to)}")
    for seat, after in zip(SEATS, SEATS[1:] + SEATS[:1]):
        if tuple(map(_turned, seats[seat])) != seats[after]:
            raise ValueError(f"not the same after a quarter turn: the {seat} circles "
                             f"should turn into the {after} circles")


BOARD = load_board(resources.files("games").joinpath("data/octiles-board.txt").read_text(encoding="utf-8"))


# --- positions --------------------------------------------------------------------

# A tile lying on the board: its name and rotation (None: not known, in dealer mode).
Lying = tuple[str, int | None]


@dataclass(frozen=True)
class Position:
    """Tiles and runners on the board.  ``tiles`` is indexed like
    ``BOARD.spaces`` (keypad order), each None or ``(tile, rotation)``, the
    rotation None where the box was told only the space (dealer mode);
    ``runners`` is indexed like ``BOARD.circles``, each None or a seat name."""
    seats: tuple[str, ...]
    runners_per_player: int
    tiles: tuple[Lying | None, ...]
    runners: tuple[str | None, ...]
    to_move: str

    def tile_on(self, space: str) -> Lying | None:
        return self.tiles[BOARD.space_index[space]]

    def runner_on(self, circle: str) -> str | None:
        return self.runners[BOARD.circle_index[circle]]

    def placed(self) -> dict[str, Lying]:
        """The tiles on the board by space name."""
        return {BOARD.spaces[i]: t for i, t in enumerate(self.tiles) if t is not None}

    def pieces(self) -> dict[str, str]:
        """The runners on the board: circle name -> seat."""
        return {BOARD.circles[i]: s for i, s in enumerate(self.runners) if s is not None}

    def home(self, seat: str) -> int:
        """How many of ``seat``'s runners stand in its goal homes."""
        return sum(self.runners[c] == seat for c in BOARD.homes[OPPOSITE[seat]])

    def is_full(self) -> bool:
        return None not in self.tiles


def _lying_exits(pos: Position) -> list[tuple[int, ...] | None]:
    """The exits of each tile lying on the board, by space.  Paths are
    followed only in referee mode, where every tile lying has its rotation."""
    on: list[tuple[int, ...] | None] = []
    for cell in pos.tiles:
        if cell is None:
            on.append(None)
            continue
        tile, rotation = cell
        if rotation is None:
            raise ValueError(f"{tile} lies without its rotation: no path can be followed over it")
        on.append(_EXITS[tile][rotation])
    return on


def position(players: int = 2, runners_per_player: int = 5, tiles: dict[str, tuple[str, int]] | None = None,
             runners: dict[str, str] | None = None, to_move: str | None = None) -> Position:
    """A position from plain data: ``tiles`` maps space names to ``(tile,
    rotation)``, ``runners`` maps circle names to seats.  Without ``runners``
    every seat in play has its runners on its first start homes in the order
    of its seat line (clockwise along its edge: all five with 5 runners, e.g.
    A1-A3 for West with 3).  ``to_move`` defaults to the first seat, West."""
    if players not in SEATS_IN_PLAY:
        raise ValueError("Octiles is for 2 to 4 players")
    if not 1 <= runners_per_player <= 5:
        raise ValueError("each player has 1 to 5 runners")
    seats = SEATS_IN_PLAY[players]
    board_tiles: list[tuple[str, int] | None] = [None] * len(BOARD.spaces)
    for space, (tile, rotation) in (tiles or {}).items():
        if space not in BOARD.space_index:
            raise ValueError(f"{space!r} is not a space of the board")
        if any(t and t[0] == tile for t in board_tiles):
            raise ValueError(f"{tile} is on the board twice")
        board_tiles[BOARD.space_index[space]] = (tile, canonical(tile, rotation))
    if runners is None:
        # [OC-1] [ruling] nobody said where: fewer than five runners take their seat's first start homes
        runners = {c: seat for seat in seats for c in BOARD.start_homes(seat)[:runners_per_player]}
    on: list[str | None] = [None] * len(BOARD.circles)
    for circle, seat in runners.items():
        if circle not in BOARD.circle_index:
            raise ValueError(f"{circle!r} is not a circle of the board")
        if seat not in seats:
            raise ValueError(f"nobody plays {seat!r} with {players} players")
        on[BOARD.circle_index[circle]] = seat
    for seat in seats:
        if on.count(seat) > runners_per_player:
            raise ValueError(f"{seat} has more than {runners_per_player} runners")
    to_move = to_move or seats[0]
    if to_move not in seats:
        raise ValueError(f"nobody plays {to_move!r} with {players} players")
    return Position(seats, runners_per_player, tuple(board_tiles), tuple(on), to_move)


# --- moves ------------------------------------------------------------------------

class Move(NamedTuple):
    """Put the tile on ``space`` turned ``rotation`` steps (the smallest r for
    that orientation), replacing any tile there, and move the runner on
    ``from_circle`` to ``to_circle`` (the same circle for a loop)."""
    space: str
    rotation: int
    from_circle: str
    to_circle: str


_EMPTY = -1  # a path that runs into an empty space, or round in a closed loop
_BACK = 64   # codes >= _BACK: the path comes back into the new tile's space at side code - _BACK


@functools.lru_cache(maxsize=64)
def legal_moves(pos: Position, tile: str) -> tuple[Move, ...]:
    """Every distinct move the player to move may make with ``tile``, in
    keypad order of spaces, then rotation, then circles.

    The tile goes on any space, empty or not (a placed tile is exchanged
    [OC-2]).  A runner then follows its path from its circle; the move is
    legal when the path reaches a circle before any empty space, crosses the
    new tile, and ends on an empty stop, on an empty goal home of the mover,
    or back where it began (a loop, from a stop)."""
    if any(t and t[0] == tile for t in pos.tiles):
        raise ValueError(f"{tile} is already on the board")
    links, stops = BOARD.links, BOARD.stops
    me, runners = pos.to_move, pos.runners
    goal = frozenset(BOARD.homes[OPPOSITE[me]])
    on = _lying_exits(pos)
    turned = _EXITS[_tile(tile)]

    found = set()
    for s in range(len(on)):
        out = [_leave(links, on, s, 8 * s + a) for a in range(8)]
        if not any(0 <= c < _BACK and runners[c] == me and c not in goal for c in out):
            continue  # every path over s ends where none of the mover's runners can start
        for r in _ROTATIONS[tile]:
            ex = turned[r]
            for a in range(8):
                b = ex[a]
                if a > b:
                    continue
                one, other = _end(out, ex, a), _end(out, ex, b)
                if one < 0 or other < 0:
                    continue  # [OC-5] the path runs into an empty space: no move
                # [OC-4] only paths through the new tile are tried, so every
                # move uses it and nothing moves over an unchanged board.
                for x, y in ((one, other), (other, one)):
                    # [OC-6] only the mover's runners move, and one in its goal stays there.
                    if runners[x] != me or x in goal:
                        continue
                    if x == y:
                        ok = x < stops  # [OC-5] a loop back to the stop it left
                    else:
                        # [OC-5] one runner per circle; [OC-6] never an own start
                        # home, an opponent's goal or an unused seat's circle:
                        # of the edge circles only the mover's goal homes are open.
                        ok = runners[y] is None and (y < stops or y in goal)
                    if ok:
                        found.add((s, r, x, y))

    # [OC-7] with every start home taken, a runner must leave one, if any can.
    starts = BOARD.homes[me]
    if all(runners[c] is not None for c in starts):
        leaving = {m for m in found if m[2] in starts}
        found = leaving or found
    names, circles = BOARD.spaces, BOARD.circles
    return tuple(Move(names[s], r, circles[x], circles[y]) for s, r, x, y in sorted(found))


def _leave(links: tuple[int, ...], on: Sequence[tuple[int, ...] | None], s: int, slot: int) -> int:
    """Where a path leaving space ``s`` by ``slot`` gets to, treating ``s``
    itself as unknown: a circle, ``_EMPTY``, or ``_BACK + side`` of ``s``."""
    while True:
        nxt = links[slot]
        if nxt < 0:
            return ~nxt
        space = nxt >> 3
        if space == s:
            return _BACK + (nxt & 7)
        ex = on[space]
        if ex is None:
            return _EMPTY
        slot = (nxt & ~7) | ex[nxt & 7]


def _end(out: list[int], ex: tuple[int, ...], a: int) -> int:
    """The circle a path reaches leaving the new tile (exits ``ex``) by side
    ``a``, or ``_EMPTY``.  Coming back into the tile at the other end of the
    path it started on closes a loop without a circle: no move."""
    partner = ex[a]
    got = out[a]
    while got >= _BACK:
        side = got - _BACK
        if side == partner:
            return _EMPTY
        got = out[ex[side]]
    return got


def path_ends(pos: Position, tile: str, space: str, rotation: int) -> tuple[tuple[str | None, str | None], ...]:
    """Where the paths of ``tile`` laid on ``space`` turned ``rotation`` lead:
    for each path of ``tile_paths(tile, rotation)``, the circles at its two
    ends (leaving the tile by the smaller side first), None where it runs
    into an empty space.  A tile lying on ``space`` counts as taken off."""
    s = BOARD.space_index[space]
    on = _lying_exits(pos)
    out = [_leave(BOARD.links, on, s, 8 * s + a) for a in range(8)]
    ex = _EXITS[_tile(tile)][rotation % 8]

    def circle(code: int) -> str | None:
        return None if code == _EMPTY else BOARD.circles[code]

    return tuple((circle(_end(out, ex, a)), circle(_end(out, ex, b))) for a, b in tile_paths(tile, rotation))


def play(pos: Position, tile: str, move: Move) -> Position:
    """The position after ``move`` with ``tile`` (not checked: see
    ``legal_moves``)."""
    space, rotation, start, end = move
    tiles = list(pos.tiles)
    tiles[BOARD.space_index[space]] = (tile, canonical(tile, rotation))
    runners = list(pos.runners)
    runners[BOARD.circle_index[start]] = None
    runners[BOARD.circle_index[end]] = pos.to_move
    return dataclasses.replace(pos, tiles=tuple(tiles), runners=tuple(runners))
