"""Small solids the two boxes share."""
from __future__ import annotations

import math

from build123d import Align, Box, Circle, Cylinder, Plane, Polygon, Pos, extrude

MIN = (Align.MIN, Align.MIN, Align.MIN)
CENTRE_XY = (Align.CENTER, Align.CENTER, Align.MIN)


def block(x0, y0, z0, x1, y1, z1):
    """An axis-aligned box between two opposite corners, in any order."""
    x0, x1 = sorted((x0, x1))
    y0, y1 = sorted((y0, y1))
    z0, z1 = sorted((z0, z1))
    return Pos(x0, y0, z0) * Box(x1 - x0, y1 - y0, z1 - z0, align=MIN)


def post(x, y, z0, z1, diameter):
    return Pos(x, y, z0) * Cylinder(diameter / 2, z1 - z0, align=CENTRE_XY)


def pointed_slot(plane: Plane, width: float, length: float, depth: float):
    """A slot through a wall whose ends come to a 90-degree point, so that it
    prints upright with no roof to bridge: ``plane``'s x is along the slot,
    its normal through the wall."""
    half = width / 2
    straight = length / 2 - half
    outline = Polygon((-straight - half, 0), (-straight, -half), (straight, -half),
                      (straight + half, 0), (straight, half), (-straight, half), align=None)
    return extrude(plane * outline, amount=depth, both=True)


def teardrop(plane: Plane, radius: float, depth: float):
    """A round hole through a wall, with a roof of two faces tangent at 45
    degrees in the wall's plane, so the top of the hole never overhangs more
    than that; ``plane``'s y points up the wall, its normal through it."""
    tangent = radius * math.sqrt(0.5)
    roof = Polygon((-tangent, tangent), (0, radius * math.sqrt(2)), (tangent, tangent),
                   (tangent, 0), (-tangent, 0), align=None)
    return (extrude(plane * roof, amount=depth, both=True)
            + extrude(plane * Circle(radius), amount=depth, both=True))
