"""What a printed part costs in filament and time, from its solid: a
slicer's figures within about a fifth, enough to plan a print and to buy
filament.

A slicer lays ``PERIMETERS`` lines round every wall and ``TOP_BOTTOM`` solid
layers under and over every surface, and fills the rest at ``INFILL``; so the
material is about the part's skin (its surface area times the skin's
thickness, no more than the whole part) plus the infill's share of what is
left.  Time is that material at the printer's average flow."""
from __future__ import annotations

from dataclasses import dataclass

# The settings BUILD.md gives: 0.4 mm nozzle, 0.2 mm layers, 3 perimeters of
# 0.45 mm lines, 4 top and bottom layers, 20 % infill.
NOZZLE = 0.4
LAYER = 0.2
PERIMETERS = 3
LINE = 0.45
TOP_BOTTOM = 4
INFILL = 0.20
# PLA, 1.24 g/cm^3 (PETG 1.27: 2 % more).
DENSITY = 1.24
# Average flow of a common bed-slinger (Ender 3, Prusa MK3S) with these
# settings, travel and the slower outer walls included: mm^3 per second.
FLOW = 5.0
# The skin is walls (perimeters) on the sides and solid layers on top and
# bottom; a surface area gets about the mean of the two.
SKIN = (PERIMETERS * LINE + TOP_BOTTOM * LAYER) / 2


@dataclass(frozen=True)
class Estimate:
    volume: float      # cm^3 of the solid part
    material: float    # cm^3 of filament laid
    grams: float
    minutes: float

    def __str__(self) -> str:
        hours, minutes = divmod(round(self.minutes), 60)
        return (f"{self.volume:.0f} cm3 solid, {self.grams:.0f} g of PLA, "
                f"about {hours} h {minutes:02d} min")


def estimate(solid) -> Estimate:
    volume = solid.volume                       # mm^3
    skin = min(volume, solid.area * SKIN)
    material = skin + INFILL * (volume - skin)
    return Estimate(volume / 1000, material / 1000, material / 1000 * DENSITY,
                    material / FLOW / 60)


SETTINGS = (f"{NOZZLE} mm nozzle, {LAYER} mm layers, {PERIMETERS} perimeters, "
            f"{TOP_BOTTOM} top and bottom layers, {INFILL:.0%} infill, PLA at "
            f"{DENSITY} g/cm3, {FLOW:.0f} mm3/s on average")
