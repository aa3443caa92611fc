"""The dice module's box: a tub with the read-out behind a bezel in its front
wall, the ROLL button in the lid, and the Pico and the level shifter on a
perfboard on the floor.

The front faces -Y, towards the players; the cable leaves by the -X end.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from build123d import Cylinder, Location, Plane, Pos, Text, Vector, extrude

from . import feet, parts
from .model import CLEARANCE, Bought, Box as Enclosure, Fit, Printed
from .shapes import block, post

COLOURS = {"base": (60, 130, 90), "lid": (90, 170, 120), "bezel": (40, 40, 40),
           "digits": (200, 30, 30), "board": (40, 120, 70), "pico": (30, 110, 50),
           "button": (220, 40, 40), "plug": (60, 60, 60), "piezo": (200, 170, 60)}
FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")   # Debian's fonts-dejavu-core
LABELS = ("die 1", "die 2", "die 3", "die 4")
LABEL_SIZE = 5.0
LABEL_DEPTH = 0.6


@dataclass(frozen=True)
class Params:
    length: float = 130.0
    width: float = 80.0
    height: float = 45.0
    wall: float = 2.4
    front: float = 7.2       # thick enough for the bezel's groove and 1.9 mm either side
    floor: float = 2.4
    lid: float = 3.0
    bezel: float = 3.0
    button_x: float = 40.0
    button_y: float = 10.0
    button: str = "screw"    # the ROLL button: "screw" (28 mm hole) or "snap" (OBSF-30)


def build(p: Params = Params()) -> Enclosure:
    return _Builder(p).box()


class _Builder:
    def __init__(self, p: Params):
        self.p = p
        self.bought: list[Bought] = []
        self.fits: list[Fit] = []
        self.ix = p.length / 2 - p.wall          # inner faces
        self.iy_back = p.width / 2 - p.wall
        self.iy_front = -p.width / 2 + p.front
        self.groove_y = -p.width / 2 + p.front / 2
        dw, dh, dd = parts.MAX7219_DISPLAY
        self.notch = (dw + 6.0, 26.0)             # half-width of the read-out's notch, its depth
        self.readout_z = p.height - 13.0

    def posts(self):
        x = self.ix - 4.0
        return [(sx * x, y) for sx in (-1, 1) for y in (self.iy_front + 4.0, self.iy_back - 4.0)]

    # --- the tub -------------------------------------------------------------------------
    def base(self):
        p = self.p
        H = p.height
        tub = block(-p.length / 2, -p.width / 2, 0, p.length / 2, p.width / 2, H)
        tub -= block(-self.ix, self.iy_front, p.floor, self.ix, self.iy_back, H + 1)
        for x, y in self.posts():
            tub += post(x, y, p.floor - 0.1, H, 9.0)
            tub -= post(x, y, H - 7.0, H + 1, 4.0)         # M3 heat-set insert
        # the read-out's notch, and the grooves either side that the bezel slides down
        half, depth = self.notch
        tub -= block(-half, -p.width / 2 - 1, H - depth, half, self.iy_front + 1, H + 1)
        g = p.bezel / 2 + 0.2
        tub -= block(-half - 4.0, self.groove_y - g, H - depth - 1.0, half + 4.0, self.groove_y + g,
                     H + 1)
        tub += self.readout_guides()
        tub += self.board_standoffs()
        tub -= feet.recesses(feet.corners(p.length / 2, p.width / 2))
        # the piezo lies on the floor over a grid of small holes (the box stands on feet)
        px, py = self.piezo_at()
        for dx in (-6, -2, 2, 6):
            for dy in (-6, -2, 2, 6):
                tub -= post(px + dx, py + dy, -1, p.floor + 1, 2.0)
        # the cable's notch in the -X end, and a post to tie the cable to
        y = self.pico_usb()[1]
        width = parts.USB_CABLE + 1.0
        tub -= block(-p.length / 2 - 1, y - width / 2, H - 10, -self.ix + 1, y + width / 2, H + 1)
        tub += post(-self.ix + 7.0, y - 6.5, p.floor - 0.1, H - 16, 6.0)
        zc = H - 10 + parts.USB_CABLE / 2 + 0.5

        def cable(extra):
            return Pos(-p.length / 2 + p.wall / 2, y, zc) * Cylinder(
                parts.USB_CABLE / 2 + extra, p.wall + 0.2, rotation=(0, 90, 0))
        self.fits.append(Fit("USB cable in its notch", "dice base", 0.5, cable))
        self.bought.append(Bought("USB cable", cable(0), COLOURS["plug"], Vector(-40, 0, 0)))
        return tub

    # --- the read-out --------------------------------------------------------------------
    def readout_y(self):
        """The display's front, its board's front and back."""
        front = self.groove_y + self.p.bezel / 2
        board = front + parts.MAX7219_DISPLAY[2]
        return front, board, board + parts.MAX7219_BOARD[2]

    def readout_guides(self):
        """Two posts with slots that the module's board ends drop into; the board
        rests on the slots' bottoms, its digits behind the bezel's window."""
        p = self.p
        bw, bh, bt = parts.MAX7219_BOARD
        _, y0, y1 = self.readout_y()
        bottom = self.readout_z - bh / 2
        solid = None
        for sx in (-1, 1):
            guide = block(sx * (bw / 2 - 1.5), y0 - 2.5, p.floor - 0.1, sx * (bw / 2 + 3.0), y1 + 2.5,
                          bottom + bh - 2)
            guide -= block(sx * (bw / 2 - 2.0), y0 - 0.2, bottom, sx * (bw / 2 + 0.3), y1 + 0.2,
                           p.height)
            solid = guide if solid is None else solid + guide
        return solid

    def readout_parts(self):
        bw, bh, bt = parts.MAX7219_BOARD
        dw, dh, dd = parts.MAX7219_DISPLAY
        front, y0, y1 = self.readout_y()
        z = self.readout_z
        board = block(-bw / 2, y0, z - bh / 2, bw / 2, y1, z + bh / 2)
        displays = (block(-dw, front, z - dh / 2, 0, y0, z + dh / 2)
                    + block(0, front, z - dh / 2, dw, y0, z + dh / 2))
        behind = block(-bw / 2 + 12, y1, z - bh / 2 + 2, bw / 2 - 4, y1 + parts.MAX7219_BEHIND,
                       z + bh / 2 - 2)
        pins = block(-bw / 2 + 2.5, y1, z - 6.4, -bw / 2 + 5.0, y1 + parts.HEADER_PINS
                     + parts.JUMPER_HOUSING, z + 6.4)
        self.bought.append(Bought("MAX7219 8-digit read-out", board + behind + pins, COLOURS["board"],
                                  Vector(0, 25, 30)))
        self.bought.append(Bought("its two 4-digit displays", displays, COLOURS["digits"],
                                  Vector(0, 25, 30)))

        def in_guides(extra):
            return block(-bw / 2 - extra, y0 - extra, z - bh / 2 + 1, bw / 2 + extra, y1 + extra,
                         z + bh / 2 - 3)
        self.fits.append(Fit("read-out's board in its guides", "dice base", 0.2, in_guides))

    def bezel(self):
        p = self.p
        half, depth = self.notch
        H = p.height
        g0, g1 = self.groove_y - p.bezel / 2, self.groove_y + p.bezel / 2
        plate = block(-half - 3.8, g0, H - depth - 0.8, half + 3.8, g1, H)
        dw, dh, _ = parts.MAX7219_DISPLAY
        digit_w, digit_h = parts.MAX7219_DIGIT
        z = self.readout_z
        plate -= block(-dw + 1.0, g0 - 1, z - digit_h / 2 - 1.5, dw - 1.0, g1 + 1, z + digit_h / 2 + 1.5)
        # the four fields' names, engraved 0.6 mm into the face above each pair of digits
        engraving = None
        label_z = z + digit_h / 2 + 1.5 + (H - (z + digit_h / 2 + 1.5)) / 2
        for i, label in enumerate(LABELS):
            x = -dw + dw / 4 + i * dw / 2
            text = Text(label, LABEL_SIZE, font_path=str(FONT))
            face = Plane(origin=(x, g0, label_z), x_dir=(1, 0, 0), z_dir=(0, -1, 0)) * text
            cut = extrude(face, amount=LABEL_DEPTH, both=True)
            engraving = cut if engraving is None else engraving + cut
        self.plain_bezel = plate
        plate = plate - engraving

        def in_grooves(extra):
            return block(-half - 3.8 - extra, g0 - extra, H - depth - 0.8 - extra, half + 3.8 + extra,
                         g1 + extra, H - 3)
        self.fits.append(Fit("bezel in the front wall's grooves", "dice base", 0.2, in_grooves))
        return plate

    # --- the electronics on the floor -----------------------------------------------------
    PERFBOARD = (-50.0, -2.0, 20.0, 34.0)     # x0, y0, x1, y1
    PERF_HOLES = 3.0                           # from the corners, for M2.5 screws

    def board_z(self):
        return self.p.floor + 5.0

    def board_standoffs(self):
        x0, y0, x1, y1 = self.PERFBOARD
        h = self.PERF_HOLES
        solid = None
        for x in (x0 + h, x1 - h):
            for y in (y0 + h, y1 - h):
                boss = post(x, y, self.p.floor - 0.1, self.board_z(), 6.0)
                boss -= post(x, y, self.board_z() - 4.5, self.board_z() + 1, 2.2)  # M2.5 self-tapping
                solid = boss if solid is None else solid + boss
        return solid

    def pico_usb(self):
        return (-31.0, 22.5)

    def board_parts(self):
        x0, y0, x1, y1 = self.PERFBOARD
        z = self.board_z()
        t = parts.PERFBOARD_THICKNESS
        board = block(x0, y0, z, x1, y1, z + t)
        for x in (x0 + self.PERF_HOLES, x1 - self.PERF_HOLES):
            for y in (y0 + self.PERF_HOLES, y1 - self.PERF_HOLES):
                board -= post(x, y, z - 1, z + t + 1, 2.7)
        chip_l, chip_w, chip_h = parts.AHCT125
        chip = block(-20.0, 0.5, z + t, -20.0 + chip_l, 0.5 + chip_w, z + t + chip_h)
        self.bought.append(Bought("perfboard with the 74AHCT125", board + chip, COLOURS["board"],
                                  Vector(0, 0, 20)))
        # the Pico on female headers, its USB socket at the -X end
        px, py = self.pico_usb()
        pl, pw, pt = parts.PICO
        pz = z + t + parts.HEADER_PINS
        pico = (block(px, py - pw / 2, z + t, px + pl, py + pw / 2, pz)   # the headers, as a block
                + block(px, py - pw / 2, pz, px + pl, py + pw / 2, pz + pt)
                + block(px + 1.5, py - 4, pz + pt, px + 8, py + 4, pz + pt + parts.PICO_HEIGHT))
        self.bought.append(Bought("Raspberry Pi Pico", pico, COLOURS["pico"], Vector(0, 0, 35)))
        gw, gh, gl = parts.MICRO_B_GRIP
        zc = pz + pt + 1.5
        grip = block(px - gl, py - gw / 2, zc - gh / 2, px, py + gw / 2, zc + gh / 2)
        self.bought.append(Bought("USB plug", grip, COLOURS["plug"], Vector(-25, 0, 35)))

    def piezo_at(self):
        return (10.0, -17.0)

    def piezo(self):
        x, y = self.piezo_at()
        d, t = parts.PIEZO
        disc = post(x, y, self.p.floor, self.p.floor + t, d)
        self.bought.append(Bought("piezo disc", disc, COLOURS["piezo"], Vector(0, 0, 15)))

    # --- the lid and the button ---------------------------------------------------------
    def lid(self):
        p = self.p
        H = p.height
        lid = block(-p.length / 2, -p.width / 2, H, p.length / 2, p.width / 2, H + p.lid)
        for x, y in self.posts():
            lid -= post(x, y, H - 1, H + p.lid + 1, 3.4)
        lid += self.lip()
        self.fits.append(Fit("lid's lip in the base's opening", "dice base", CLEARANCE,
                             lambda extra: self.lip(extra - CLEARANCE)))
        # the ROLL button: a ring under the lid stiffens it where it is slapped
        b = parts.BUTTONS[p.button]
        bx, by = p.button_x, p.button_y
        lid += post(bx, by, H - 3.0, H + 0.01, max(b.nut, parts.SNAP_RING) + 6)
        lid -= post(bx, by, H - 4, H + p.lid + 1, b.hole)
        panel = b.panel or 3.0 + p.lid
        if b.panel:   # a snap-in button: the lid thinned to its panel round the hole
            lid -= post(bx, by, H - 4, H + p.lid - b.panel, parts.SNAP_RING)
        self.roll_button(b, H + p.lid, panel)

        def thread(extra):
            return post(bx, by, H + p.lid - panel, H + p.lid, b.thread + 2 * extra)
        self.fits.append(Fit("ROLL button in its hole", "dice lid", (b.hole - b.thread) / 2, thread))
        return lid

    def lip(self, extra=-CLEARANCE):
        """A lip under the lid, ``extra`` beyond the walls' inside faces, that
        locates the lid; it stops short of the posts, the bezel and the cable."""
        p = self.p
        H = p.height
        ox, oyb, oyf = self.ix + extra, self.iy_back + extra, self.iy_front - extra
        inset = 1.8 + extra + CLEARANCE
        lip = block(-ox, oyf, H - 4, ox, oyb, H + 0.01) - block(-ox + inset, oyf + inset, H - 5,
                                                                 ox - inset, oyb - inset, H + 1)
        for x, y in self.posts():
            sx, sy = math.copysign(1, x), math.copysign(1, y)
            lip -= block(x - sx * 5.5, y - sy * 5.5, H - 5, x + sx * 20, y + sy * 20, H + 1)
        half, _ = self.notch
        lip -= block(-half - 6, -p.width / 2, H - 5, half + 6, self.iy_front + 3, H + 1)
        y = self.pico_usb()[1]
        lip -= block(-p.length / 2, y - 6, H - 5, -self.ix + 4, y + 6, H + 1)
        return lip

    def roll_button(self, b, top, panel):
        bx, by = self.p.button_x, self.p.button_y
        below = top - panel
        button = (post(bx, by, top, top + 3.0, b.bezel) + post(bx, by, top, top + b.bezel_height, 24.0)
                  + post(bx, by, below - 0.01, top, b.thread)
                  + post(bx, by, top - b.depth + 7, below - b.nut_height, b.body)
                  + block(bx - 6, by - 10, top - b.depth, bx + 6, by + 10, top - b.depth + 7))
        if b.nut:
            button += post(bx, by, below - b.nut_height, below, b.nut)
        self.bought.append(Bought("ROLL button", button, COLOURS["button"], Vector(0, 0, 110)))

    def box(self) -> Enclosure:
        base = self.base()
        bezel = self.bezel()
        lid = self.lid()
        self.readout_parts()
        self.board_parts()
        self.piezo()
        feet.add(feet.corners(self.p.length / 2, self.p.width / 2), "dice base", self.bought, self.fits,
                 COLOURS["plug"], Vector(0, 0, -25))
        printed = [
            Printed("dice base", base, Location(), COLOURS["base"], orientation="standing on its floor"),
            Printed("dice lid", lid, Location((0, 0, 0), (180, 0, 0)), COLOURS["lid"],
                    Vector(0, 0, 70), orientation="upside down, its top on the bed"),
            Printed("bezel", bezel, Location((0, 0, 0), (-90, 0, 0)), COLOURS["bezel"],
                    Vector(0, -40, 0), orientation="lying on its back, the labels up",
                    plain=self.plain_bezel),
        ]
        return Enclosure("dice module", printed, self.bought, self.fits)
