"""Octiles: the one name of every place on the board.

The board file names its spaces and circles by two grids ("c3", "C3"); a
table sees neither on the real board.  What the table can find is the 17
spaces, numbered 1-17 as the keypad keys them, and the circles around them.
So every place has one name, the same on the box, the phones, the table
view, the score log's files and the printed overlay, and in every language:

- a space: its number, ``"9"``;
- a circle (a stop inside the board, or a home on its edge): the number of
  the lowest-numbered space it touches and an arrow from that space's centre
  towards it, ``"8↘"`` (the circle at space 8's south-east corner) or
  ``"12↓"`` (the home below space 12).  North is up, the North seat's edge,
  as on the box's tile pictures and the overlay.

A side of a space leads to at most one circle, so no two circles share a
name; and at most three characters fit the panel's narrow columns.  A
move is written ``move_name(start, end)``: ``"12↓⇒8↘"``, the double arrow
set apart from the arrows inside the names.

``place`` also takes a name already given, so that it reads the score log
of a game kept before the names changed ("c3", "A1") and after alike.
"""
from __future__ import annotations

from games.octiles_board import BOARD

# An arrow for each side of a space, in the board's order N, NE ... NW.
ARROWS = ("↑", "↗", "→", "↘", "↓", "↙", "←", "↖")
MOVE = "⇒"


def _names() -> dict[str, str]:
    names = {space: str(number) for number, space in enumerate(BOARD.spaces, 1)}
    # The link table runs space by space in keypad order and side by side
    # clockwise from north: the first side that meets a circle is the lowest
    # space's, so each circle is named once.
    for slot, link in enumerate(BOARD.links):
        if link < 0:
            names.setdefault(BOARD.circles[~link], f"{slot // 8 + 1}{ARROWS[slot % 8]}")
    return names


NAMES = _names()
GIVEN = frozenset(NAMES.values())
GRID = {name: grid for grid, name in NAMES.items()}


def place(name: str | int) -> str:
    """The one name of a space or circle, given by the board file's grid
    name ("c3", "C3"), by its number (9), or by its name already."""
    text = str(name)
    if text in NAMES:
        return NAMES[text]
    if text in GIVEN:
        return text
    raise ValueError(f"{name!r} is no place of the Octiles board")


def grid(name: str | int) -> str:
    """The board file's name of the place ``place`` names ``name``."""
    return GRID[place(name)]


def move_name(start: str, end: str) -> str:
    """A runner's move from circle ``start`` to ``end``: "12↓⇒8↘"."""
    return f"{place(start)}{MOVE}{place(end)}"


def corner(circle: str) -> tuple[int, int]:
    """The space (1-17) a circle is named by and the side (0 = N,
    clockwise) it lies off."""
    name = place(circle)
    return int(name[:-1]), ARROWS.index(name[-1])
