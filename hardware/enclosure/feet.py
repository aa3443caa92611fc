"""Stick-on rubber feet in shallow round recesses under a box's floor.

The recess keeps a foot from being peeled off when the box is pushed across
the table.  A floor printed on the bed can only roof it with a bridge, so it
is shallow and narrow: three layers deep (1.8 mm of a 2.4 mm floor stay over
it), the slicer bridging the first over its 10.6 mm (``model.MAX_BRIDGE``).
"""
from __future__ import annotations

from . import parts
from .model import CLEARANCE, Bought, Fit
from .shapes import post

RECESS = 0.6
INSET = 10.0      # the feet's centres from the floor's edges


def corners(half_x: float, half_y: float) -> list[tuple[float, float]]:
    """Where the feet go under a floor reaching ``half_x`` and ``half_y`` from
    the middle."""
    return [(sx * (half_x - INSET), sy * (half_y - INSET)) for sx in (-1, 1) for sy in (-1, 1)]


def recesses(points):
    """What to cut from the floor (its underside at z = 0)."""
    d, _ = parts.RUBBER_FOOT
    solid = None
    for x, y in points:
        cut = post(x, y, -1, RECESS, d + 2 * CLEARANCE)
        solid = cut if solid is None else solid + cut
    return solid


def add(points, printed: str, bought: list[Bought], fits: list[Fit], colour, explode) -> None:
    """The feet in their recesses, each stuck to its roof, with the fit of its
    sides in the recess."""
    d, h = parts.RUBBER_FOOT
    for i, (x, y) in enumerate(points):
        bought.append(Bought(f"rubber foot {i + 1}", post(x, y, RECESS - h, RECESS, d), colour, explode))

        def sides(extra, x=x, y=y):   # its top is stuck to the roof: only its sides keep clear
            return post(x, y, RECESS - h, RECESS - 0.01, d + 2 * extra)
        fits.append(Fit(f"rubber foot {i + 1} in its recess", printed, CLEARANCE, sides))
