"""Draw docs/octiles-spaces.svg: the Octiles board with its spaces numbered
as the keypad keys them (1-17) and every circle named as the box names it.

The picture is drawn from the packaged board data (``games.octiles.BOARD``),
so it always shows the board the box plays on.  Run it from the repository
root after changing the board file:

    .venv/bin/python scripts/octiles_spaces.py
"""
from __future__ import annotations

import math
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from games.octiles import BOARD, SEATS  # noqa: E402  (the path above first)

OUT = pathlib.Path(__file__).resolve().parent.parent / "docs" / "octiles-spaces.svg"
UNIT = 80                 # one space of the 5x5 grid
MARGIN = 80               # room for the edge circles and the seat names
APOTHEM = UNIT / 2        # neighbouring spaces touch side to side
CIRCLE = 10               # radius of a circle
SIZE = 2 * MARGIN + 5 * UNIT
SEAT_COLOURS = {"west": "#c0392b", "north": "#2471a3", "east": "#1e8449", "south": "#b7950b"}


def centre(space: str) -> tuple[float, float]:
    column, row = ord(space[0]) - ord("a"), int(space[1])
    return MARGIN + (column + 0.5) * UNIT, MARGIN + (5 - row + 0.5) * UNIT


def toward(point, side: float, distance: float) -> tuple[float, float]:
    """``distance`` from ``point`` in the direction of ``side`` (0 = north,
    clockwise, halves allowed)."""
    angle = side * math.pi / 4
    return point[0] + distance * math.sin(angle), point[1] - distance * math.cos(angle)


def side_point(slot: int) -> tuple[float, float]:
    return toward(centre(BOARD.spaces[slot // 8]), slot % 8, APOTHEM)


def corner_point(circle: str) -> tuple[float, float]:
    """A circle's place on the board: the south-west corner of the space
    with its name."""
    column, row = ord(circle[0]) - ord("A"), int(circle[1])
    return MARGIN + column * UNIT, MARGIN + (6 - row) * UNIT


def octagon(space: str) -> str:
    rim = APOTHEM / math.cos(math.pi / 8)
    points = " ".join(f"{x:.1f},{y:.1f}" for x, y in (toward(centre(space), k + 0.5, rim) for k in range(8)))
    return f'<polygon points="{points}" class="space"/>'


def edge_seat() -> dict[str, str]:
    return {circle: seat for seat in SEATS for circle in BOARD.start_homes(seat)}


def drawing() -> str:
    seat_of = edge_seat()
    parts = []
    # the printed paths: links between two sides that do not touch
    for slot, link in enumerate(BOARD.links):
        if 0 <= link and slot < link and math.dist(side_point(slot), side_point(link)) > 1:
            (x0, y0), (x1, y1) = side_point(slot), side_point(link)
            parts.append(f'<line x1="{x0:.1f}" y1="{y0:.1f}" x2="{x1:.1f}" y2="{y1:.1f}" class="printed"/>')
    for number, space in enumerate(BOARD.spaces, 1):
        x, y = centre(space)
        parts.append(octagon(space))
        parts.append(f'<text x="{x:.1f}" y="{y + 4:.1f}" class="number">{number}</text>')
    for slot, link in enumerate(BOARD.links):
        if link >= 0:
            continue
        circle = BOARD.circles[~link]
        if BOARD.is_stop(circle):
            if slot != min(s for s, other in enumerate(BOARD.links) if other == link):
                continue  # a stop touches several sides: draw it once
            x, y = corner_point(circle)
            style, label = "stop", "circle"
        else:
            # an edge circle sits off the one side it touches
            x, y = toward(side_point(slot), slot % 8, CIRCLE + 6)
            style, label = f'edge" fill="{SEAT_COLOURS[seat_of[circle]]}', "circle home"
        parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{CIRCLE}" class="{style}"/>')
        parts.append(f'<text x="{x:.1f}" y="{y + 3:.1f}" class="{label}">{circle}</text>')
    labels = {"west": (MARGIN / 3, SIZE / 2, -90), "north": (SIZE / 2, MARGIN / 3, 0),
              "east": (SIZE - MARGIN / 3, SIZE / 2, 90), "south": (SIZE / 2, SIZE - MARGIN / 3 + 8, 0)}
    for seat, (x, y, turn) in labels.items():
        homes = BOARD.start_homes(seat)
        text = f"{seat.title()}: start {homes[0]}–{homes[-1]}"
        parts.append(f'<text x="{x:.1f}" y="{y:.1f}" transform="rotate({turn} {x:.1f} {y:.1f})" '
                     f'class="seat" fill="{SEAT_COLOURS[seat]}">{text}</text>')
    style = """
  .space { fill: #fdfaf3; stroke: #333; stroke-width: 1.5 }
  .printed { stroke: #999; stroke-width: 3; stroke-dasharray: 4 3 }
  .stop { fill: #fff; stroke: #333 }
  .edge { stroke: #333 }
  text { font-family: DejaVu Sans, Verdana, sans-serif; text-anchor: middle }
  .number { font-size: 24px; font-weight: bold }
  .circle { font-size: 8px }
  .home { fill: #fff; font-weight: bold }
  .seat { font-size: 14px; font-weight: bold }
"""
    body = "\n  ".join(parts)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{SIZE}" height="{SIZE}" '
            f'viewBox="0 0 {SIZE} {SIZE}">\n'
            f'<title>Octiles: the spaces as the keypad numbers them, and the circles</title>\n'
            f'<style>{style}</style>\n'
            f'<rect width="{SIZE}" height="{SIZE}" fill="#fff"/>\n  {body}\n</svg>\n')


def main() -> None:
    OUT.parent.mkdir(exist_ok=True)
    OUT.write_text(drawing(), encoding="utf-8")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
