"""Printed plates that hold an OLED module from behind its board.

A team screen hangs on the inside of a leaning wall, 35 mm down in the box.
A boss there would grow from a face that overhangs 70 degrees, and would
stand where the glass is: the 0.96" module's holes are 2.3 mm from its glass.
So the nuts go into a flat plate behind the board instead, in hex pockets
printed open upward: the builder presses four nuts in, holds the one plate
behind the board and turns the screws from outside.

The 0.96" public screen cannot take self-tapping screws beside its glass (the
lid would be 1.2 mm thick between hole and pocket); a plate under its board
presses it against the lid, screwed into two bosses beyond the board's sides.

Both plates are drawn in the module's frame (``referee_box.oled_module``):
the board's front at z = 0, its back at ``-board_thickness``, the pins along
+Y; the plate lies under the back, away from the parts and the pins there.
"""
from __future__ import annotations

import math

from build123d import Polygon, Pos, extrude

from . import parts
from .model import CLEARANCE, MIN_WALL
from .shapes import block, post

# The plate under the nuts: more than a wall (1.6), so that a nut pulled
# tight bears on the whole plate and not on a skin.
FLOOR = 1.8
# Round a nut in its pocket, per side: a snug press by hand.
NUT_GAP = 0.15
# The M2 screws' clearance hole through a plate.
SCREW_HOLE = 2.4
# The clamp plate's ears reach this far beyond the board to their bosses.
EAR = 4.2
BOSS = 6.4
CLAMP = 2.0       # the clamp plate's thickness


def hexagon(across_flats: float, z0: float, z1: float):
    """A hex prism from z0 to z1 round the z axis, two flats parallel to x."""
    r = across_flats / math.sqrt(3)
    points = [(r * math.cos(math.radians(a)), r * math.sin(math.radians(a)))
              for a in range(0, 360, 60)]
    return Pos(0, 0, min(z0, z1)) * extrude(Polygon(*points, align=None), amount=abs(z1 - z0))


def thickness() -> float:
    _, height = parts.M2_NUT
    return FLOOR + height + NUT_GAP


def _frame(o: parts.Oled, reach: float, depth: float):
    """The plate's outline ``reach`` round the holes, ``depth`` thick under
    the board, less a window for the parts behind the board and a notch for
    its pins (as ``oled_module`` draws them, with the clearance)."""
    bw, bh = o.board
    hx, hy = o.holes
    z1 = -o.board_thickness
    z0 = z1 - depth
    plate = block(-hx / 2 - reach, -hy / 2 - reach, z0, hx / 2 + reach, hy / 2 + reach, z1)
    c = CLEARANCE
    plate -= block(-bw / 2 + 5.5 - c, -bh / 2 + 5.5 - c, z0 - 1, bw / 2 - 5.5 + c, bh / 2 - 6 + c, z1 + 1)
    plate -= block(-5.1 - c, bh / 2 - 6, z0 - 1, 5.1 + c, hy / 2 + reach + 1, z1 + 1)
    return plate


def nut_plate(o: parts.Oled):
    """A team screen's plate: a pocket for an M2 nut behind each of the
    module's holes, open away from the board, and the screw's hole through
    the floor under it."""
    flats, height = parts.M2_NUT
    corner = (flats + 2 * NUT_GAP) / math.sqrt(3)
    plate = _frame(o, corner + MIN_WALL + 0.2, thickness())
    hx, hy = o.holes
    back = -o.board_thickness - thickness()
    for sx in (-1, 1):
        for sy in (-1, 1):
            at = Pos(sx * hx / 2, sy * hy / 2, 0)
            plate -= at * hexagon(flats + 2 * NUT_GAP, back - 1, back + height + NUT_GAP)
            plate -= at * post(0, 0, back - 1, 1, SCREW_HOLE)
    return plate


def nut(o: parts.Oled, grow: float = 0.0):
    """The four nuts in their pockets, flush with the plate's back and the
    pocket's gap short of its floor (a tightened screw pulls them onto it),
    grown by ``grow`` on every side but the open one."""
    flats, height = parts.M2_NUT
    hx, hy = o.holes
    floor = -o.board_thickness - FLOOR
    nuts = None
    for sx in (-1, 1):
        for sy in (-1, 1):
            one = Pos(sx * hx / 2, sy * hy / 2, 0) * hexagon(flats + 2 * grow, floor - NUT_GAP + grow,
                                                             floor - NUT_GAP - height)
            nuts = one if nuts is None else nuts + one
    return nuts


def ears(o: parts.Oled) -> list[tuple[float, float]]:
    """Where the clamp plate's screws go into the lid's bosses (x, y in the
    module's frame): beyond the board's sides, on the holes' centre line."""
    bw, _ = o.board
    return [(sx * (bw / 2 + EAR), 0.0) for sx in (-1, 1)]


def clamp_plate(o: parts.Oled):
    """The public screen's plate: the board's edges pressed up against the lid,
    its ears on the two bosses, a self-tapping screw through each."""
    plate = _frame(o, 1.0, CLAMP)
    z1 = -o.board_thickness
    hx, _ = o.holes
    for x, y in ears(o):
        plate += block(math.copysign(hx / 2, x), y - BOSS / 2, z1 - CLAMP, x, y + BOSS / 2, z1)
        plate += post(x, y, z1 - CLAMP, z1, BOSS)
        plate -= post(x, y, z1 - CLAMP - 1, z1 + 1, SCREW_HOLE)
    return plate
