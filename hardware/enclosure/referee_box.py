"""The referee box: a tub whose two long walls lean back, one team's screen
and button on each, under a flat lid with the keypad and the public screen.

Team 1 sits on the -Y side of the table, team 2 on the +Y side.  Each team
wall leans back by ``slope`` degrees, so its screen faces up into that team's
faces and away from the other team, who see only the back of the wall.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from build123d import (Box, Circle, Cylinder, Location, Plane, Polygon, Pos, Rot,
                       Vector, extrude)

from . import feet, parts, plates
from .model import CLEARANCE, MIN_WALL, Bought, Box as Enclosure, Fit, Printed, Sightline
from .shapes import CENTRE_XY, block, pointed_slot, post, teardrop

# The team window's top face and sides open outward this steeply (degrees
# from the horizontal, and from the wall's normal in plan): steeper than the
# lines from the pixels to the highest and the farthest-aside eyes of the
# team, and the top face's 28 degrees of overhang print without support.
WINDOW_TOP = 62.0
WINDOW_SIDES = 62.0
# The cables' notches: which end wall (-X, +X), and where along it.
CABLES = (("power cable", -1, 34.0), ("dice module's cable", 1, 25.0))
# The light pipes' holes: 3.1 mm for 2.85 mm filament.
PIPE_GAP = 0.125
# The public screen's M2 self-tapping screws go into holes this wide.
PUBLIC_PILOT = 1.6

COLOURS = {"base": (70, 110, 160), "lid": (110, 150, 200), "pi": (40, 140, 60),
           "oled": (30, 30, 40), "keypad": (200, 200, 190),
           "button1": (210, 50, 40), "button2": (240, 190, 40), "metal": (170, 170, 170),
           "board": (40, 120, 70), "plug": (60, 60, 60), "spacer": (230, 230, 220),
           "air": (200, 230, 255), "plate": (230, 120, 50)}


@dataclass(frozen=True)
class Params:
    pi: str = "4"            # "4", "5" or "zero2w"
    public: str = "1.3"      # the public screen: "1.3" or "0.96"
    team: str = "0.96"       # the team screens: "0.96" or "1.3"
    button: str = "screw"    # the team buttons: "screw" (28 mm hole) or "snap" (OBSF-30)
    length: float = 170.0
    top_width: float = 100.0
    height: float = 64.0     # the tub, from the table to its top edge
    slope: float = 20.0      # the team walls lean back this far from the vertical
    wall: float = 2.4
    floor: float = 2.4
    lid: float = 3.0
    standoff: float = 6.0    # the Pi's board above the floor
    team_screen_x: float = -10.0
    team_button_x: float = 53.0
    team_screen_v: float = 38.0   # up the wall's outer face, from the table
    team_button_v: float = 32.0
    keypad_x: float = -38.0
    public_x: float = 42.0


def build(p: Params = Params()) -> Enclosure:
    return _Builder(p).box()


class _Builder:
    def __init__(self, p: Params):
        self.p = p
        self.t = math.tan(math.radians(p.slope))
        self.c = math.cos(math.radians(p.slope))
        self.s = math.sin(math.radians(p.slope))
        self.half_top = p.top_width / 2
        self.half_bottom = self.half_top + p.height * self.t
        self.inner_x = p.length / 2 - p.wall
        self.pi = parts.PIS[p.pi]
        self.team_oled = parts.OLEDS[p.team]
        self.public_oled = parts.OLEDS[p.public]
        self.button = parts.BUTTONS[p.button]
        self.bought: list[Bought] = []
        self.fits: list[Fit] = []
        self.plates: list[Printed] = []

    # --- the tub ----------------------------------------------------------------------
    def outer_half(self, z):
        return self.half_bottom - z * self.t

    def inner_half(self, z):
        return self.outer_half(z) - self.p.wall / self.c

    def trapezoid(self, half, z0, z1, x0, x1):
        """A prism along X whose cross-section follows the leaning walls."""
        outline = Polygon((-half(z0), z0), (half(z0), z0), (half(z1), z1), (-half(z1), z1),
                          align=None)
        return Pos((x0 + x1) / 2, 0, 0) * extrude(Plane.YZ * outline, amount=(x1 - x0) / 2, both=True)

    def posts(self):
        x = self.inner_x - 4.0
        y = self.inner_half(self.p.height) - 4.0
        return [(sx * x, sy * y) for sx in (-1, 1) for sy in (-1, 1)]

    def base(self):
        p = self.p
        L = p.length
        shell = self.trapezoid(self.outer_half, 0, p.height, -L / 2, L / 2)
        shell -= self.trapezoid(self.inner_half, p.floor, p.height + 1, -self.inner_x, self.inner_x)
        # corner posts for the lid's screws, M3 heat-set inserts (4.0 hole, 6 deep)
        for x, y in self.posts():
            shell += post(x, y, p.floor - 0.1, p.height, 9.0)
            shell -= post(x, y, p.height - 7.0, p.height + 1, 4.0)
        shell += self.pi_standoffs()
        shell -= self.vents()
        shell -= feet.recesses(self.feet())
        shell += self.buzzer_guides()
        shell, cable_posts = self.cable_exits(shell)
        shell += cable_posts
        for side in (-1, 1):
            adds, cuts = self.team_wall(side)
            shell = shell - cuts + adds
        return shell

    def feet(self):
        return feet.corners(self.p.length / 2, self.half_bottom)

    # --- the Raspberry Pi ------------------------------------------------------------
    def pi_origin(self):
        """The board's bottom-left corner: far enough from the end wall for the
        power cable's tie post, near enough to leave the team buttons room for
        the dice module's plug."""
        return Vector(-self.inner_x + 11.6,
                      -self.pi.width / 2, self.p.floor + self.p.standoff)

    def pi_standoffs(self):
        o = self.pi_origin()
        solid = None
        for hx, hy in self.pi.holes:
            boss = post(o.X + hx, o.Y + hy, self.p.floor - 0.1, o.Z, 7.0)
            boss -= post(o.X + hx, o.Y + hy, o.Z - 5.0, o.Z + 1, 3.6)  # M2.5 insert
            solid = boss if solid is None else solid + boss
        return solid

    def pi_parts(self):
        b, o = self.pi, self.pi_origin()
        top = o.Z + b.thickness
        board = block(o.X, o.Y, o.Z, o.X + b.length, o.Y + b.width, top)
        for hx, hy in b.holes:
            board -= post(o.X + hx, o.Y + hy, o.Z - 1, top + 1, b.hole_diameter)
        if b.cooler:   # the ports at the right end stand tall, the rest is low under the cooler
            cx, cy = parts.COOLER_AT
            cl, cw, ch = parts.COOLER
            parts_above = (block(o.X + cx + cl + 0.5, o.Y + 6.5, top, o.X + b.length, o.Y + b.width - 7.0,
                                 top + b.height_above)
                           + block(o.X + 6.5, o.Y + 6.5, top, o.X + cx + cl + 0.5, o.Y + b.width - 7.0,
                                   top + 2.0))
            cooler = block(o.X + cx, o.Y + cy, top + 2.0, o.X + cx + cl, o.Y + cy + cw, top + ch)
            self.bought.append(Bought("heatsink or active cooler", cooler, COLOURS["metal"]))
            self.bought.append(Bought("air over the cooler's fan", block(
                o.X + cx, o.Y + cy, top + ch, o.X + cx + cl, o.Y + cy + cw, top + ch + parts.COOLER_AIR),
                COLOURS["air"]))
        else:
            parts_above = block(o.X + 6.5, o.Y + 6.5, top, o.X + b.length, o.Y + b.width - 7.0,
                                top + b.height_above)
        sd_end = parts.MICROSD[1] - parts.MICROSD_OUT + 0.5   # the card's socket, then the rest
        parts_below = block(o.X + sd_end, o.Y + 7.0, o.Z - b.height_below, o.X + b.length - 7.0,
                            o.Y + b.width - 7.0, o.Z)
        hx, hy = b.header
        wires = block(o.X + hx - parts.HEADER_LENGTH / 2, o.Y + hy - parts.HEADER_WIDTH / 2, top,
                      o.X + hx + parts.HEADER_LENGTH / 2, o.Y + hy + parts.HEADER_WIDTH / 2,
                      top + parts.HEADER_PINS + parts.JUMPER_HOUSING + parts.WIRE_BEND)
        self.bought.append(Bought(b.name, board + parts_above + parts_below, COLOURS["pi"]))
        self.bought.append(Bought("microSD card", self.sd_card(), COLOURS["plug"]))
        for i, pipe in enumerate(self.light_pipes(beyond=-0.5)):
            self.bought.append(Bought(f"light pipe {i + 1}", pipe, COLOURS["spacer"]))

            def in_hole(extra, i=i):
                return self.light_pipes(extra)[i]
            self.fits.append(Fit(f"light pipe {i + 1} in its hole", "base", PIPE_GAP, in_hole))
        self.bought.append(Bought("jumper wires on the header", wires, COLOURS["plug"]))
        # the supply's plug and the dice module's plug, with their grips
        for what, (x, y, edge) in (("power plug", b.power), ("dice module's USB plug", b.usb)):
            micro = self.p.pi == "zero2w"
            if what == "power plug" and not micro:
                grip = parts.USB_C_GRIP
            else:
                grip = parts.MICRO_B_GRIP if micro else parts.USB_A_GRIP
            gw, gh, gl = grip
            zc = top + (1.6 if micro or what == "power plug" else 4.5)
            if edge == "bottom":
                solid = block(o.X + x - gw / 2, o.Y - gl, zc - gh / 2, o.X + x + gw / 2, o.Y, zc + gh / 2)
            else:
                solid = block(o.X + x + 3.0, o.Y + y - gw / 2, zc - gh / 2, o.X + x + 3.0 + gl,
                              o.Y + y + gw / 2, zc + gh / 2)
            self.bought.append(Bought(what, solid, COLOURS["plug"]))

    def sd_card(self, grow=0.0, reach=0.0):
        """The card in its socket under the board's left edge; with ``reach``,
        the path it is pulled out along, that far beyond the card."""
        b, o = self.pi, self.pi_origin()
        cw, cl, ct = parts.MICROSD
        y = o.Y + b.sd
        x1 = o.X - parts.MICROSD_OUT
        z1 = o.Z - 0.3
        return block(x1 - reach - grow, y - cw / 2 - grow, z1 - ct - grow,
                     x1 + cl + grow, y + cw / 2 + grow, z1 + grow)

    def light_pipes(self, extra=0.0, beyond=0.0):
        """A rod of clear filament from outside the end wall to beside each of
        the Pi's LEDs: the LEDs seen with the box shut.  The LEDs are closer
        together than two holes may be, so the second pipe runs 3.5 mm higher."""
        b, o, p = self.pi, self.pi_origin(), self.p
        x0 = -p.length / 2 - beyond
        pipes = []
        for i, (lx, ly) in enumerate(b.leds):
            x1 = o.X + lx - 1.0
            z = o.Z + b.thickness + 1.5 + 3.5 * i
            pipes.append(Pos((x0 + x1) / 2, o.Y + ly, z) * Rot(0, 90, 0) * Cylinder(
                parts.LIGHT_PIPE / 2 + extra, x1 - x0))
        return pipes

    def sd_slot(self):
        """A slot in the end wall in front of the card, the card's width and
        1.5 mm round it, with a roof at 45 degrees (no bridge): tweezers or a
        fingernail pull the card without opening the box."""
        p = self.p
        cw, _, ct = parts.MICROSD
        y = self.pi_origin().Y + self.pi.sd
        z = self.pi_origin().Z - 0.3 - ct / 2
        half = cw / 2 + 1.5
        outline = Polygon((-half, -2.5), (half, -2.5), (half, 1.5), (0, 1.5 + half), (-half, 1.5),
                          align=None)
        plane = Plane(origin=(-p.length / 2 + p.wall / 2, y, z), x_dir=(0, 1, 0), z_dir=(1, 0, 0))
        return extrude(plane * outline, amount=p.wall, both=True)

    # --- openings in the tub ------------------------------------------------------------
    def vents(self):
        p, o = self.p, self.pi_origin()
        cuts = []
        for y in (-12, -6, 0, 6, 12):  # under the Pi: cool air in (the box stands on feet)
            cuts.append(block(o.X + 20, y - 1.5, -1, o.X + 55, y + 1.5, p.floor + 1))
        for y in (-21, -14, -7, 0, 7, 14, 21):  # high in the Pi's end wall: warm air out
            plane = Plane(origin=(-p.length / 2 + p.wall / 2, y, p.height - 22), x_dir=(0, 0, 1),
                          z_dir=(1, 0, 0))
            cuts.append(pointed_slot(plane, 3.0, 24.0, p.wall))
        for y in (-14, -7, 0, 7):  # and the far end wall, above the buzzer
            plane = Plane(origin=(p.length / 2 - p.wall / 2, y, p.height - 22), x_dir=(0, 0, 1),
                          z_dir=(1, 0, 0))
            cuts.append(pointed_slot(plane, 3.0, 24.0, p.wall))
        # the buzzer's sound opening: a grid of small holes in front of it
        bz = self.buzzer_centre()
        for dy in (-4.5, 0, 4.5):
            for dz in (-4.5, 0, 4.5):
                cuts.append(Pos(p.length / 2 - p.wall / 2, bz.Y + dy, bz.Z + dz)
                            * Rot(0, 90, 0) * Cylinder(1.25, p.wall + 2))
        cuts.append(self.sd_slot())
        for pipe in self.light_pipes(PIPE_GAP):
            cuts.append(pipe)
        for y in (-22, -17, -12):  # low in the Pi's end wall: air in that a tablecloth leaves open
            plane = Plane(origin=(-p.length / 2 + p.wall / 2, y, p.floor + 9), x_dir=(0, 0, 1),
                          z_dir=(1, 0, 0))
            cuts.append(pointed_slot(plane, 3.0, 12.0, p.wall))
        solid = cuts[0]
        for c in cuts[1:]:
            solid += c
        return solid

    def cable_exits(self, shell):
        """A notch from the top edge for each cable (laid in, plug and all, before
        the lid closes) and a post inside to tie it to."""
        p = self.p
        posts = None
        for name, sx, y in CABLES:
            width = parts.USB_CABLE + 2 * 0.5
            depth = 10.0
            x_wall = sx * (p.length / 2 - p.wall / 2)
            shell -= block(x_wall - p.wall, y - width / 2, p.height - depth, x_wall + p.wall,
                           y + width / 2, p.height + 1)
            tie = post(sx * (self.inner_x - 7.0), y - 6.5 * math.copysign(1, y), p.floor - 0.1,
                       p.height - 16.0, 6.0)
            posts = tie if posts is None else posts + tie
            zc = p.height - depth + parts.USB_CABLE / 2 + 0.5

            def cable(extra, x_wall=x_wall, y=y, zc=zc):
                return (Pos(x_wall, y, zc) * Rot(0, 90, 0)
                        * Cylinder(parts.USB_CABLE / 2 + extra, p.wall + 0.2))
            self.fits.append(Fit(f"{name} in its notch", "base", 0.5, cable))
            self.bought.append(Bought(name, cable(0), COLOURS["plug"]))
        return shell, posts

    # --- the buzzer on its board, standing in two card guides -------------------------
    def buzzer_board_x(self):
        return self.inner_x - 0.5 - parts.BUZZER[1] - parts.PERFBOARD_THICKNESS / 2

    def buzzer_centre(self):
        return Vector(self.inner_x, 0.0, self.p.floor + 3.0 + 10.0)

    def buzzer_guides(self):
        p, x = self.p, self.buzzer_board_x()
        t = parts.PERFBOARD_THICKNESS
        solid = None
        for sy in (-1, 1):
            guide = block(x - 3, sy * 13.0, p.floor - 0.1, x + 3, sy * 19.0, p.floor + 18)
            slot = block(x - t / 2 - 0.2, sy * 12.0, p.floor + 3.0, x + t / 2 + 0.2,
                         sy * (15.0 + 0.3), p.floor + 30)
            guide -= slot
            solid = guide if solid is None else solid + guide
        return solid

    def buzzer_parts(self):
        p, x = self.p, self.buzzer_board_x()
        t = parts.PERFBOARD_THICKNESS
        board = block(x - t / 2, -15, p.floor + 3.0, x + t / 2, 15, p.floor + 23.0)
        c = self.buzzer_centre()
        buzzer = Pos(x + t / 2, c.Y, c.Z) * Rot(0, 90, 0) * Cylinder(
            parts.BUZZER[0] / 2, parts.BUZZER[1], align=CENTRE_XY)
        driver = block(x - t / 2 - 8.0, -10, p.floor + 5.0, x - t / 2, 10, p.floor + 21.0)
        self.bought.append(Bought("buzzer and its driver on perfboard", board + buzzer + driver,
                                  COLOURS["board"]))

        def in_guide(extra):
            return block(x - t / 2 - extra, -15 - extra, p.floor + 6, x + t / 2 + extra, 15 + extra,
                         p.floor + 17)
        self.fits.append(Fit("buzzer board in its card guides", "base", 0.2, in_guide))

    # --- a team wall: the screen behind its window, under a hood, and the button ------
    def wall_point(self, side, x, v, depth=0.0):
        """A point ``v`` up the outer face of team ``side``'s wall from the table,
        ``depth`` into the wall."""
        y = side * (self.half_bottom - v * self.s - depth * self.c)
        return Vector(x, y, v * self.c - depth * self.s)

    def wall_normal(self, side):
        return Vector(0, side * self.c, self.s)

    def wall_plane(self, side, x, v, depth=0.0):
        """Local x along the wall, y up its slope, z out of it."""
        origin = self.wall_point(side, x, v, depth)
        plane = Plane(origin=origin, x_dir=(1, 0, 0), z_dir=self.wall_normal(side))
        if plane.y_dir.Z < 0:
            plane = Plane(origin=origin, x_dir=(-1, 0, 0), z_dir=self.wall_normal(side))
        return plane

    def team_wall(self, side):
        p, o = self.p, self.team_oled
        team = 1 if side < 0 else 2
        cuts = self.team_window(side)
        # a hood over it, above the screw heads: its underside rises outward at 30
        # degrees from the wall's normal, 50 from the horizontal (40 of overhang)
        gamma = math.radians(30)
        hood_depth = 7.0
        ax, _ = o.active
        top = p.team_screen_v + o.holes[1] / 2 + 2.6
        pts = [(top, 0.0), (top + hood_depth * math.sin(gamma), hood_depth * math.cos(gamma)),
               (top + hood_depth * math.sin(gamma) + 2.0, hood_depth * math.cos(gamma)),
               (top + hood_depth * math.sin(gamma) + 2.0 + hood_depth, -0.5), (top, -0.5)]
        world = [self.wall_point(side, 0, v, -n) for v, n in pts]
        hood_outline = Polygon(*[(w.Y, w.Z) for w in world], align=None)
        adds = Pos(p.team_screen_x, 0, 0) * extrude(Plane.YZ * hood_outline, amount=ax / 2 + 6,
                                                    both=True)
        # the panel, its glass 0.4 mm behind the wall, on M2 nylon spacers
        self.team_screen(side, team)
        hx, hy = o.holes
        for sx in (-1, 1):
            for sy in (-1, 1):
                hole = self.wall_plane(side, p.team_screen_x + sx * hx / 2,
                                       p.team_screen_v + sy * hy / 2, p.wall / 2)
                cuts += extrude(hole * Circle(1.2), amount=p.wall / 2 + 0.5, both=True)
        # the button through a teardrop hole
        plane = self.wall_plane(side, p.team_button_x, p.team_button_v, p.wall / 2)
        b = self.button
        cuts += teardrop(plane, b.hole / 2, p.wall / 2 + 0.5)
        if b.panel:   # a snap-in button: the wall thinned to its panel round the hole
            pocket = (b.panel + p.wall + 0.5) / 2
            cuts += teardrop(self.wall_plane(side, p.team_button_x, p.team_button_v, pocket),
                             parts.SNAP_RING / 2, pocket - b.panel)
        self.team_button(side, team)
        return adds, cuts

    def team_window(self, side):
        """The window in front of a team's pixels, 1 mm clear of them on the
        wall's inside wherever the module's offset puts them, and opening
        outward so that the team's eyes see every pixel: its top face rises outward at 62 degrees from the horizontal
        (28 degrees of overhang), its sides splay at 62 degrees in plan, its
        bottom is level."""
        p, o = self.p, self.team_oled
        ax, av = o.active
        margin = 1.0
        rise = math.radians(WINDOW_TOP)
        splay = math.tan(math.radians(WINDOW_SIDES))
        low, high = o.offset_range

        def inner(v):   # (u, z): u measured inward from the outer bottom edge
            w = self.wall_point(side, 0, v, p.wall)
            return self.half_bottom - side * w.Y, w.Z

        ub, zb = inner(p.team_screen_v + low - av / 2 - margin)
        ut, zt = inner(p.team_screen_v + high + av / 2 + margin)
        reach = p.wall / math.cos(rise - math.radians(p.slope)) + 0.8
        section = [(ub + 6, zb), (ub - 12, zb),
                   (ut - reach * math.cos(rise), zt + reach * math.sin(rise)), (ut, zt), (ut + 6, zt)]
        section = Polygon(*[(side * (self.half_bottom - u), z) for u, z in section], align=None)
        hw = ax / 2 + margin
        out = 15.0
        us = ut + 0.5   # the splay starts at the glass, behind the window's highest inner edge
        plan = [(-hw, us + 8), (hw, us + 8), (hw, us), (hw + out * splay, us - out),
                (-hw - out * splay, us - out), (-hw, us)]
        plan = Polygon(*[(p.team_screen_x + x, side * (self.half_bottom - u)) for x, u in plan],
                       align=None)
        across = extrude(Plane.YZ * section, amount=self.p.length / 2, both=True)
        upward = extrude(plan, amount=self.p.height, both=True)
        return across & upward

    def team_screen(self, side, team):
        p, o = self.p, self.team_oled
        loc = Location(self.wall_plane(side, p.team_screen_x, p.team_screen_v,
                                       p.wall + o.standoff + 0.4))
        corners = self.screen_on_spacers(loc, o, f"team {team} screen", "base")
        self.plates[-1].explode = Vector(0, -side * 25, 30)   # into the box, out of the screen's way
        self.sightlines.append(Sightline(f"team {team} screen", corners, self.wall_normal(side),
                                         -1 if side < 0 else 1))

    def screen_on_spacers(self, loc, o, name, printed):
        """An OLED module whose board front is at ``loc``, facing its z: the
        glass 0.4 mm behind the panel, an M2 nylon spacer at each hole, M2 x 12
        screws from outside into nuts held in a printed plate behind the board
        (``plates.nut_plate``).  Returns the corners of the pixels."""
        p = self.p
        spacer = o.standoff + 0.4
        module, glass_corners = oled_module(o)
        self.bought.append(Bought(f"{name} ({o.name})", loc * module, COLOURS["oled"]))
        hx, hy = o.holes
        screws = None
        plate = p.lid if printed == "lid" else p.wall
        for sx in (-1, 1):
            for sy in (-1, 1):
                local = Vector(sx * hx / 2, sy * hy / 2, 0)
                sp = loc * Pos(local) * (Cylinder(2.0, spacer, align=CENTRE_XY)
                                         - Cylinder(1.1, spacer, align=CENTRE_XY))
                head_at = spacer + plate
                screw = loc * Pos(local) * (
                    Pos(0, 0, head_at - parts.TEAM_SCREW) * Cylinder(0.95, parts.TEAM_SCREW, align=CENTRE_XY)
                    + Pos(0, 0, head_at) * Cylinder(1.9, 1.3, align=CENTRE_XY))
                self.bought.append(Bought(f"{name} spacer", sp, COLOURS["spacer"]))
                screws = screw if screws is None else screws + screw

                def hole(extra, loc=loc, local=local):
                    return loc * Pos(local) * Pos(0, 0, spacer) * Cylinder(
                        1.0 + extra, plate, align=CENTRE_XY)
                self.fits.append(Fit(f"{name}'s M2 screw in its hole", printed, 0.2, hole))
        self.bought.append(Bought(f"{name} screws and nuts", screws + loc * plates.nut(o), COLOURS["metal"]))
        self.plates.append(Printed(f"{name} plate", loc * plates.nut_plate(o), self.plate_on_bed(loc),
                                   COLOURS["plate"], orientation="flat, the nuts' pockets up"))
        self.fits.append(Fit(f"{name}'s M2 nuts in their plate", f"{name} plate", plates.NUT_GAP,
                             lambda extra, loc=loc: loc * plates.nut(o, extra)))
        return [(loc * Location(c)).position for c in glass_corners]

    @staticmethod
    def plate_on_bed(loc):
        """A plate drawn under a module's board at ``loc`` lies on the bed on
        the face it turns to the board."""
        return Location((0, 0, 0), (180, 0, 0)) * loc.inverse()

    def team_button(self, side, team):
        p, b = self.p, self.button
        plane = self.wall_plane(side, p.team_button_x, p.team_button_v)
        loc = Location(plane)
        plate = b.panel or p.wall
        button = (Cylinder(b.bezel / 2, 3.0, align=CENTRE_XY)
                  + Cylinder(12.0, b.bezel_height, align=CENTRE_XY)
                  + Pos(0, 0, -plate - 0.01) * Cylinder(b.thread / 2, plate + 0.01, align=CENTRE_XY)
                  + Pos(0, 0, -b.depth + 7) * Cylinder(b.body / 2, b.depth - 7 - plate - b.nut_height,
                                                       align=CENTRE_XY)
                  + Pos(0, 0, -b.depth) * Box(12, 20, 7, align=CENTRE_XY))
        if b.nut:
            button += Pos(0, 0, -plate - b.nut_height) * (
                Cylinder(b.nut / 2, b.nut_height, align=CENTRE_XY)
                + Pos(0, 0, -0.01) * Cylinder(b.thread / 2, 0.02, align=CENTRE_XY))
        self.bought.append(Bought(f"team {team} button", loc * button,
                                  COLOURS["button1" if team == 1 else "button2"]))

        def thread(extra, loc=loc):
            return loc * Pos(0, 0, -plate) * Cylinder(b.thread / 2 + extra, plate, align=CENTRE_XY)
        self.fits.append(Fit(f"team {team} button in its hole", "base", (b.hole - b.thread) / 2, thread))

    # --- the lid -----------------------------------------------------------------------
    def lid(self):
        p = self.p
        H = p.height
        lid = block(-p.length / 2, -self.half_top, H, p.length / 2, self.half_top, H + p.lid)
        for x, y in self.posts():
            lid -= post(x, y, H - 1, H + p.lid + 1, 3.4)
        lid += self.lip()
        self.fits.append(Fit("lid's lip in the base's opening", "base", CLEARANCE,
                             lambda extra: self.lip(extra - CLEARANCE)))
        lid = self.public_screen(lid)
        lid = self.keypad(lid)
        return lid

    def lip(self, extra=-CLEARANCE):
        """A lip under the lid, inside the walls and ``extra`` beyond their inside
        faces at the top (where the leaning walls come closest): it locates the
        lid."""
        H = self.p.height
        ox, oy = self.inner_x + extra, self.inner_half(H) + extra
        lip = block(-ox, -oy, H - 4.0, ox, oy, H + 0.01) - block(-ox + 1.8 + extra + CLEARANCE,
                                                                  -oy + 1.8 + extra + CLEARANCE, H - 5,
                                                                  ox - 1.8 - extra - CLEARANCE,
                                                                  oy - 1.8 - extra - CLEARANCE, H + 1)
        for x, y in self.posts():   # the lip stops short of the corner posts
            sx, sy = math.copysign(1, x), math.copysign(1, y)
            lip -= block(x - sx * (4.5 + 1.0), y - sy * (4.5 + 1.0), H - 5, x + sx * 20, y + sy * 20,
                         H + 1)
        for _, sx, y in CABLES:   # room for the cables at their notches
            lip -= block(sx * ox - 4, y - 6, H - 5, sx * ox + 4, y + 6, H + 1)
        return lip

    def public_screen(self, lid):
        """The public screen's glass in a pocket through the lid, its face
        0.4 mm under the lid's top, so that nothing stands higher than that
        within 2.4 mm of any pixel and every seat round the table sees them
        all.  The board's front lies against the lid's underside, held by
        four M2 self-tapping screws from below in 1.6 mm holes: no screw
        heads by the glass, and the pocket's walls stay 1.6 mm thick.  Where
        a module's holes are too near its glass for that (the 0.96"), a
        printed plate under the board presses it up, screwed into two bosses
        beyond the board's sides (``plates.clamp_plate``)."""
        p, o = self.p, self.public_oled
        H = p.height
        gx, gy, _ = o.glass
        lid -= block(p.public_x - gx / 2 - CLEARANCE, -gy / 2 - CLEARANCE, H - 1,
                     p.public_x + gx / 2 + CLEARANCE, gy / 2 + CLEARANCE, H + p.lid + 1)
        # the module's frame: glass up, its pins toward +Y
        loc = Location((p.public_x, 0, H))
        module, corners = oled_module(o)
        self.bought.append(Bought(f"public screen ({o.name})", loc * module, COLOURS["oled"]))
        hx, hy = o.holes
        if public_holes_fit(o):
            pilots = [(sx * hx / 2, sy * hy / 2) for sx in (-1, 1) for sy in (-1, 1)]
            under = o.board_thickness      # the screw's head under the board
        else:
            pilots = plates.ears(o)
            under = plates.CLAMP + o.board_thickness   # under the plate's ears
            for x, y in pilots:
                lid += post(p.public_x + x, y, H - o.board_thickness, H + 0.01, plates.BOSS)
            self.plates.append(Printed("public screen plate", loc * plates.clamp_plate(o),
                                       self.plate_on_bed(loc), COLOURS["plate"],
                                       explode=Vector(0, 0, 20), orientation="flat, its board face down"))
        screws = None
        for x, y in pilots:
            lid -= post(p.public_x + x, y, H - 1 - under, H + p.lid + 1, PUBLIC_PILOT)
            at = Pos(p.public_x + x, y, H)
            screw = at * (Pos(0, 0, -under - 1.3) * Cylinder(1.9, 1.3, align=CENTRE_XY)
                          + Pos(0, 0, -under) * Cylinder(PUBLIC_PILOT / 2 - 0.02, under + p.lid - 0.4,
                                                         align=CENTRE_XY))
            screws = screw if screws is None else screws + screw
        self.bought.append(Bought("public screen screws", screws, COLOURS["metal"]))

        def glass(extra):
            return block(p.public_x - gx / 2 - extra, -gy / 2 - extra, H + 0.2,
                         p.public_x + gx / 2 + extra, gy / 2 + extra, H + o.standoff)
        self.fits.append(Fit("public screen's glass in its pocket", "lid", CLEARANCE, glass))
        corners = [(loc * Location(c)).position for c in corners]
        self.sightlines.append(Sightline("public screen", corners, Vector(0, 0, 1), 0))
        return lid

    def keypad(self, lid):
        p = self.p
        H = p.height + p.lid
        kx, ky, kt = parts.KEYPAD
        pad = block(p.keypad_x - kx / 2, -ky / 2, H, p.keypad_x + kx / 2, ky / 2, H + kt)
        self.bought.append(Bought("keypad", pad, COLOURS["keypad"]))
        # the ribbon's 8-pin connector (20.3 x 2.5) goes down through a slot under the pad
        cw, cd = 20.3, 2.5
        sy = -ky / 2 + 6.0
        lid -= block(p.keypad_x - cw / 2 - CLEARANCE, sy - cd / 2 - CLEARANCE, H - p.lid - 1,
                     p.keypad_x + cw / 2 + CLEARANCE, sy + cd / 2 + CLEARANCE, H + 1)

        def connector(extra):
            return block(p.keypad_x - cw / 2 - extra, sy - cd / 2 - extra, H - p.lid,
                         p.keypad_x + cw / 2 + extra, sy + cd / 2 + extra, H)
        self.fits.append(Fit("keypad's connector through the lid's slot", "lid", CLEARANCE, connector))
        return lid

    # --- together -----------------------------------------------------------------------
    def box(self) -> Enclosure:
        self.sightlines = []
        base = self.base()
        lid = self.lid()
        self.pi_parts()
        self.buzzer_parts()
        feet.add(self.feet(), "base", self.bought, self.fits, COLOURS["plug"], Vector(0, 0, -25))
        up = Vector(0, 0, 1)
        printed = [
            Printed("base", base, Location(), COLOURS["base"], orientation="standing on its floor"),
            Printed("lid", lid, Location((0, 0, 0), (180, 0, 0)), COLOURS["lid"], explode=up * 70,
                    orientation="upside down, its top on the bed"),
        ] + self.plates
        for b in self.bought:
            if b.name in ("keypad",):
                b.explode = up * 95
            elif b.name.startswith("public screen"):
                b.explode = up * 35
            elif b.name.startswith("team"):
                team = 1 if "team 1" in b.name else 2
                b.explode = Vector(0, (-1 if team == 1 else 1) * 45, 10)
            elif b.name in ("power cable", "dice module's cable"):
                b.explode = Vector(-40 if b.name == "power cable" else 40, 0, 0)
        paths = {"microSD card": self.sd_card(grow=0.3, reach=self.pi_origin().X + self.p.length / 2)}
        return Enclosure("referee box", printed, self.bought, self.fits, self.sightlines, paths)


def public_holes_fit(o: parts.Oled) -> bool:
    """Whether the lid keeps a wall round a self-tapping screw's pilot hole in
    each of the module's holes, between it and the glass's pocket."""
    hx, hy = o.holes
    gx, gy, _ = o.glass
    dx = max(0.0, hx / 2 - gx / 2 - CLEARANCE)
    dy = max(0.0, hy / 2 - gy / 2 - CLEARANCE)
    return math.hypot(dx, dy) - PUBLIC_PILOT / 2 >= MIN_WALL


def oled_module(o: parts.Oled):
    """An OLED module in its own frame: the board's front at z = 0, its centre at
    the origin, the pins along its +Y edge, the glass facing +Z.  Returns the
    solid and the corners of the pixels (on the glass's front)."""
    bw, bh = o.board
    board = block(-bw / 2, -bh / 2, -o.board_thickness, bw / 2, bh / 2, 0)
    hx, hy = o.holes
    for sx in (-1, 1):
        for sy in (-1, 1):
            board -= post(sx * hx / 2, sy * hy / 2, -5, 5, o.hole_diameter)
    gx, gy, gt = o.glass
    glass = block(-gx / 2, -gy / 2, 0, gx / 2, gy / 2, o.standoff)
    back = block(-bw / 2 + 5.5, -bh / 2 + 5.5, -o.board_thickness - 2.5, bw / 2 - 5.5, bh / 2 - 6,
                 -o.board_thickness)
    pins = block(-5.1, bh / 2 - 3.9, -o.board_thickness - parts.HEADER_PINS - parts.JUMPER_HOUSING,
                 5.1, bh / 2 - 1.1, -o.board_thickness)
    ax, ay = o.active
    corners = [Vector(sx * ax / 2, o.active_offset + sy * ay / 2, o.standoff)
               for sx in (-1, 1) for sy in (-1, 1)]
    return board + glass + back + pins, corners
