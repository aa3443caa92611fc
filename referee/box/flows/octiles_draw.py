"""What the Octiles screens draw: a tile as strokes for ``Screen.picture``,
and the keypad map of the board's spaces as lines of text.

A tile is an octagon with north up and flat north, east, south and west
sides, as the tiles lie on the board.  Each of its four paths runs between
the midpoints of two sides as a cubic Bézier curve whose control points sit
on the line to the centre, so a path to the opposite side is straight and a
path to a neighbouring side hugs the corner between them.
"""
from __future__ import annotations

import functools
import math

from games import octiles as oc

CENTRE = (104, 31)   # right of 13 text columns, between the title and the key bar
APOTHEM = 19         # centre to a side's midpoint: 39 px across
# How far from the centre a path's control points lie, as a part of the
# apothem, by how many sides apart its ends are: the nearer the ends, the
# closer the curve stays to the rim.
BEND = {1: 0.7, 2: 0.45, 3: 0.3, 4: 0.0}
SEGMENTS = 12        # straight pieces per curve: smooth at this size


# Each page drawn again draws its tile again, at every key and tick: the
# strokes are worked out once per tile, turn and size (a few hundred at most).
@functools.lru_cache(maxsize=1024)
def tile_picture(tile: str, rotation: int, centre: tuple[int, int] = CENTRE,
                 apothem: int = APOTHEM) -> tuple:
    """``tile`` turned ``rotation`` steps clockwise, for ``Screen.picture``.
    Its name for the text mirror gives the smallest rotation that looks the
    same, so equal pictures read the same."""
    cx, cy = centre

    def at(angle: float, radius: float) -> tuple[float, float]:
        # angles clockwise from north, in steps of 45 degrees; y grows down
        return cx + radius * math.sin(angle * math.pi / 4), cy - radius * math.cos(angle * math.pi / 4)

    corner = apothem / math.cos(math.pi / 8)
    rim = [at(k + 0.5, corner) for k in range(9)]
    strokes = [_flat(rim)]
    for a, b in oc.tile_paths(tile, rotation):
        bend = BEND[min(b - a, 8 - (b - a))]
        p0, p1, p2, p3 = at(a, apothem), at(a, bend * apothem), at(b, bend * apothem), at(b, apothem)
        strokes.append(_flat(_bezier(p0, p1, p2, p3, t / SEGMENTS) for t in range(SEGMENTS + 1)))
    return (f"tile {tile} r{oc.canonical(tile, rotation)}", *strokes)


def _bezier(p0, p1, p2, p3, t: float) -> tuple[float, float]:
    u = 1 - t
    return tuple(u ** 3 * a + 3 * u * u * t * b + 3 * u * t * t * c + t ** 3 * d
                 for a, b, c, d in zip(p0, p1, p2, p3))


def _flat(points) -> tuple[int, ...]:
    return tuple(round(v) for point in points for v in point)


def space_map(label) -> tuple[str, ...]:
    """The board's spaces where they lie, north up, one line per row of the
    board and four columns per space: ``label(space)`` in each."""
    rows = sorted({int(space[1]) for space in oc.BOARD.spaces}, reverse=True)
    lines = []
    for row in rows:
        cells = ["   "] * 5
        for space in oc.BOARD.spaces:
            if int(space[1]) == row:
                cells[ord(space[0]) - ord("a")] = str(label(space)).rjust(3)
        lines.append(" ".join(cells).rstrip())
    return tuple(lines)
