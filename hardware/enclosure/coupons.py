"""Test-fit coupons: a few grams each, printed before the boxes, that try the
bought parts against the cut-outs the boxes will have.

Each OLED module's coupon is a piece of team wall lying flat: the module's
four screw holes at the spacing ``parts.py`` gives, and the window the team
walls have, with a scale beside it that reads where the module's pixels
really are (BUILD.md, step 3).  The button coupons are the hole each kind of
30 mm button needs, at its real panel thickness."""
from __future__ import annotations

from build123d import Location

from . import parts
from .model import Box as Enclosure, Printed
from .shapes import block, post

WALL = 2.4          # as the referee box's walls
BORDER = 6.0        # plate round the module's board
MARGIN = 1.0        # the window round the pixels, as the team windows
TICK = (0.4, 2.0, 0.6)   # a scale mark's width, length and depth
COLOUR = (200, 120, 60)


def oled(o: parts.Oled) -> Printed:
    """The plate lies as printed: the module's side on the bed, the face with
    the scale up (the module is screwed on under it, and the face is read from
    above as a player would).  y is the module's height, towards its pins."""
    bw, bh = o.board
    plate = block(-bw / 2 - BORDER, -bh / 2 - BORDER, 0, bw / 2 + BORDER, bh / 2 + BORDER, WALL)
    hx, hy = o.holes
    for sx in (-1, 1):
        for sy in (-1, 1):
            plate -= post(sx * hx / 2, sy * hy / 2, -1, WALL + 1, 2.4)   # M2 clearance
    ax, ay = o.active
    low, high = o.offset_range
    top, bottom = high + ay / 2 + MARGIN, low - ay / 2 - MARGIN
    plate -= block(-ax / 2 - MARGIN, bottom, -1, ax / 2 + MARGIN, top, WALL + 1)
    plain = plate
    # the scale: a mark every millimetre of offset for the pixels' top edge on
    # the left of the window, every millimetre plus a half on the right; the
    # long mark is the offset the boxes are drawn for
    w, length, depth = TICK
    x = ax / 2 + MARGIN
    steps = round((high - low) * 2)
    for k in range(steps + 1):
        offset = low + k * 0.5
        y = offset + ay / 2
        side = -1 if k % 2 == 0 else 1
        long = abs(offset - o.active_offset) < 1e-6
        plate -= block(side * (x + 0.8), y - w / 2, WALL - depth,
                       side * (x + 0.8 + length * (2 if long else 1)), y + w / 2, WALL + 1)
    return Printed(f"coupon {o.name.split()[0].strip(chr(34))}", plate, Location(), COLOUR,
                   orientation="flat, the scale up", plain=plain)


def button(b: parts.ArcadeButton, key: str) -> Printed:
    """A square of wall with the button's hole, its face on the bed; a
    snap-in button's ring is thinned to its panel from the top, as from inside
    the box."""
    half = b.hole / 2 + 8.0
    plate = block(-half, -half, 0, half, half, WALL)
    plate -= post(0, 0, -1, WALL + 1, b.hole)
    if b.panel:
        plate -= post(0, 0, b.panel, WALL + 1, parts.SNAP_RING)
    return Printed(f"coupon {key} button", plate, Location(), COLOUR,
                   orientation="flat, the face on the bed")


def build() -> Enclosure:
    printed = [oled(o) for o in parts.OLEDS.values()]
    printed += [button(b, key) for key, b in parts.BUTTONS.items()]
    return Enclosure("test-fit coupons", printed, [], [])
