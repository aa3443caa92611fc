"""What a box is made of, for the exports, the pictures and the checks.

A box is its printed parts and the bought parts inside, all placed where
they sit when it is closed; each printed part knows how it lies on the
printer's bed, and each cut-out knows the part it is for and the clearance
it leaves.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from build123d import Location, Part, Pos, Vector

# Every gap a bought part gets in its cut-out, beside the part (per side).
CLEARANCE = 0.3
# The thinnest wall that prints solid with a 0.4 mm nozzle: four lines.
MIN_WALL = 1.6
# The steepest overhang printed without supports, from the vertical.
MAX_OVERHANG = 45.0
# A printer bed of 220 x 220 mm (Ender 3, Prusa MK3S's 250 x 210 is larger).
BED = (220.0, 220.0, 250.0)
# Engraved lettering is surface detail, not wall: its thinnest ridge need only
# be one line of a 0.4 mm nozzle.
MIN_DETAIL = 0.4
# A hole this small, or smaller, bridges over itself in any orientation.
SMALL_HOLE = 3.4
# A flat roof no wider than this, held by walls that stand under every one of
# its edges, is printed as a bridge: the slicer lays its first layer in
# straight strands from wall to wall, without support.  PLA bridges several
# times as far; the feet's recesses need 10.6.
MAX_BRIDGE = 12.0


@dataclass
class Printed:
    name: str
    solid: Part                  # placed as in the closed box
    on_bed: Location             # moves it from the box onto the bed
    colour: tuple[int, int, int]
    explode: Vector = field(default_factory=lambda: Vector(0, 0, 0))
    orientation: str = ""        # how it lies, in words, for BUILD.md
    plain: Part | None = None    # the part without its engraved lettering, if it has any

    def bed_solid(self) -> Part:
        moved = self.on_bed * self.solid
        box = moved.bounding_box()
        return Pos(-box.center().X, -box.center().Y, -box.min.Z) * moved


@dataclass
class Bought:
    name: str
    solid: Part
    colour: tuple[int, int, int]
    explode: Vector = field(default_factory=lambda: Vector(0, 0, 0))


@dataclass
class Fit:
    """A bought part's feature in a printed part's cut-out.

    ``make(extra)`` draws the feature grown by ``extra`` on every side, placed
    in the box: grown by a little less than the clearance it must stay clear
    of the printed part, grown by a little more it must touch it."""
    name: str
    printed: str
    clearance: float
    make: Callable[[float], Part]


@dataclass
class Sightline:
    """A panel that one side of the table must read and the other must not:
    the corners of its pixels and the outward normal of its face."""
    name: str
    corners: list[Vector]
    normal: Vector
    readers: int     # -1: the players on the -Y side, +1: on the +Y side, 0: everyone


@dataclass
class Box:
    name: str
    printed: list[Printed]
    bought: list[Bought]
    fits: list[Fit]
    sightlines: list[Sightline] = field(default_factory=list)
    # ways a hand or tool takes with the box closed (the microSD card's way
    # out): nothing but the part itself may stand in them
    paths: dict[str, Part] = field(default_factory=dict)

    def part(self, name: str) -> Printed:
        return next(p for p in self.printed if p.name == name)
