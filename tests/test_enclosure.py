"""Issue 29: the two enclosures, built from their code and measured.

Each box is built fresh in the test process (nothing is cached on disk), then:
every part fits its cut-out with the clearance the model states, no two parts
of the closed box share any volume, every printed part prints (walls, overhangs,
the bed), and each team's screen is readable from its own side of the table
and not from the other.  Issue 36: the public screen is seen whole from every
seat, the windows take every active-area offset the modules have, the
documents name only parts the model takes, the microSD card comes out and
the cooler has its room, the coupons try the modules' holes, the files
lie on the bed as they print, the team screens' nuts sit in printed plates,
the feet in recesses whose roofs are bridges, and every other set of
options makes a box that passes the same checks.
"""
from __future__ import annotations

import importlib
import itertools
import locale
import re
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hardware.enclosure import parts  # noqa: E402


class Later:
    """A module imported at the first use of one of its names.  Every worker
    collects this file, and the CAD kernel takes three seconds of CPU to
    load: only the worker that runs these tests should pay them."""

    def __init__(self, name: str) -> None:
        self._module = name

    def __getattr__(self, name: str):
        if name.startswith("_"):   # collection asks every global for such names
            raise AttributeError(name)
        return getattr(importlib.import_module(self._module), name)


cad = Later("build123d")
checks, coupons, dice_box, mesh, model, referee_box, render, main = (
    Later(f"hardware.enclosure.{name}")
    for name in ("checks", "coupons", "dice_box", "mesh", "model", "referee_box", "render", "__main__"))


# The boxes take seconds to build: one worker builds them once for every
# test here (make test distributes by --dist loadgroup).
pytestmark = pytest.mark.xdist_group("enclosure")


@pytest.fixture(scope="module")
def referee():
    return referee_box.build()


@pytest.fixture(scope="module")
def dice():
    return dice_box.build()


@pytest.fixture(scope="module", params=["referee", "dice"])
def box(request, referee, dice):
    return referee if request.param == "referee" else dice


# --- the model builds, with every option ----------------------------------------------

def test_the_boxes_build_with_their_printed_and_bought_parts(referee, dice):
    assert [p.name for p in referee.printed] == ["base", "lid", "team 1 screen plate",
                                                 "team 2 screen plate"]
    assert [p.name for p in dice.printed] == ["dice base", "dice lid", "bezel"]
    for box in (referee, dice):
        for part in box.printed:
            assert part.solid.is_valid and part.solid.volume > (1000 if "plate" not in part.name else 500)
        for part in box.bought:
            assert part.solid.volume > 0, part.name
    bought = " ".join(b.name for b in referee.bought)
    for needed in ("Raspberry Pi 4", "public screen", "team 1 screen", "team 2 screen", "keypad",
                   "team 1 button", "team 2 button", "buzzer", "power cable", "dice module's cable"):
        assert needed in bought
    bought = " ".join(b.name for b in dice.bought)
    for needed in ("Pico", "MAX7219", "ROLL button", "piezo", "74AHCT125", "USB cable"):
        assert needed in bought


def every_option():
    """Every box the options make (``python -m hardware.enclosure --pi --public
    --team --button``).  make test builds one besides the defaults, which the
    module's fixture builds: with them it takes every value of every option
    but the Pi 5 (whose printed parts are the Pi 4's; only its ports are
    elsewhere): the smaller board, the panels the other way round and
    snap-in buttons.  make soak builds them all, the defaults again among
    them (read here, the defaults would load the CAD kernel at collection)."""
    quick = {("zero2w", "0.96", "1.3", "snap")}
    for values in itertools.product(sorted(parts.PIS), sorted(parts.OLEDS), sorted(parts.OLEDS),
                                    sorted(parts.BUTTONS)):
        yield pytest.param(*values, id="-".join(values),
                           marks=() if values in quick else pytest.mark.slow_case)


@pytest.mark.parametrize("pi, public, team, button", list(every_option()))
def test_every_pi_and_panel_option_builds_fits_and_prints(pi, public, team, button):
    """The defaults are a Pi 4 (a Pi 5 has its footprint and holes), a 1.3"
    public screen, 0.96" team screens and screw-in buttons; every other box
    fits, prints and shows its screens as the default one does."""
    box = referee_box.build(referee_box.Params(pi=pi, public=public, team=team, button=button))
    assert any(b.name.startswith("Raspberry Pi") and ("Zero" in b.name) == (pi == "zero2w")
               for b in box.bought)
    for part in box.printed:
        thinnest, where = mesh.thinnest_wall(part.solid)   # a snap-in button's ring is 1.6 to within 1e-3
        assert thinnest >= model.MIN_WALL - 1e-3, f"{part.name}: {thinnest:.2f} mm at {where}"
        solid = part.bed_solid()
        assert checks.overhangs(solid) == [], part.name
        assert checks.fits_bed(solid)[0], part.name
    assert checks.collisions(box) == []
    for fit in box.fits:
        loose, snug = checks.fit(box, fit)
        assert loose < 1e-3 and snug > 1e-3, fit.name
    triangles = checks.printed_triangles(box)
    for s in box.sightlines:
        for offset in offsets(box, s.name):
            for side in ((-1, 1) if s.readers == 0 else (s.readers,)):
                share = checks.seen(box, s, checks.seats(side), offset, triangles)
                assert share.min() == 1.0, (s.name, offset, side)


def test_a_snap_in_button_sits_in_a_30_mm_hole_in_a_wall_thinned_to_its_panel():
    """Sanwa OBSF-30: its clips grip a 1.6 mm panel; the dice lid's ring and a
    team wall are thinned to that round a 30 mm hole."""
    b = parts.BUTTONS["snap"]
    assert (b.hole, b.panel) == (30.0, 1.6)
    box = dice_box.build(dice_box.Params(button="snap"))
    assert checks.collisions(box) == []
    fit = next(f for f in box.fits if f.name == "ROLL button in its hole")
    loose, snug = checks.fit(box, fit)
    assert loose < 1e-3 and snug > 1e-3
    lid = box.part("dice lid").solid
    x, y = dice_box.Params().button_x, dice_box.Params().button_y
    top = dice_box.Params().height + dice_box.Params().lid
    probe = cad.Pos(x + b.hole / 2 + 2.0, y, top - 3.0) * cad.Box(1, 1, 6)   # just outside the hole
    assert (lid & probe).volume == pytest.approx(b.panel, abs=0.01)   # 1 x 1 x 1.6 of lid
    assert mesh.thinnest_wall(lid)[0] >= model.MIN_WALL - 1e-3


# --- fits and collisions ---------------------------------------------------------------

def test_every_part_fits_its_cut_out_with_the_stated_clearance(box):
    assert box.fits
    for fit in box.fits:
        assert 0.1 <= fit.clearance <= 0.5, fit.name
        loose, snug = checks.fit(box, fit)
        assert loose < 1e-3, f"{fit.name}: touches with less than {fit.clearance} mm"
        assert snug > 1e-3, f"{fit.name}: looser than {fit.clearance} mm"


def test_no_two_parts_of_the_closed_box_collide(box):
    assert checks.collisions(box) == []


def test_the_collision_check_sees_a_part_put_where_another_is(referee):
    pi = next(b for b in referee.bought if b.name.startswith("Raspberry Pi"))
    moved = model.Box("moved", referee.printed, referee.bought + [
        model.Bought("a second Pi, 5 mm higher", cad.Pos(0, 0, 5) * pi.solid, (0, 0, 0))], [])
    assert any("a second Pi" in a + b for a, b, _ in checks.collisions(moved))


# --- printable --------------------------------------------------------------------------

def test_walls_are_at_least_1_6_mm_and_lettering_one_nozzle_line(box):
    for part in box.printed:
        thinnest, where = mesh.thinnest_wall(part.plain or part.solid)
        assert thinnest >= model.MIN_WALL, f"{part.name}: {thinnest:.2f} mm at {where}"
        if part.plain is not None:
            detail, where = mesh.thinnest_wall(part.solid)
            assert detail >= model.MIN_DETAIL, f"{part.name}'s lettering: {detail:.2f} mm at {where}"


def test_the_wall_check_measures_a_thin_plate():
    plate = cad.Box(30, 30, 1.2)
    assert mesh.thinnest_wall(plate)[0] == pytest.approx(1.2, abs=0.01)


def test_no_overhang_beyond_45_degrees_as_each_part_lies_on_the_bed(box):
    for part in box.printed:
        assert checks.overhangs(part.bed_solid()) == [], part.name


def test_the_overhang_check_sees_a_shelf_in_the_air():
    shelf = cad.Box(20, 20, 2) + cad.Pos(15, 0, 10) * cad.Box(20, 20, 2)
    shelf += cad.Pos(0, 0, 5) * cad.Box(4, 4, 10)
    flat = cad.Pos(0, 0, 1) * shelf
    assert checks.overhangs(flat)


def test_every_printed_part_fits_a_220_mm_bed(box):
    for part in box.printed:
        fits, size = checks.fits_bed(part.bed_solid())
        assert fits, f"{part.name}: {size}"
        assert part.orientation


# --- the team screens: each team reads its own ------------------------------------------

@pytest.fixture(scope="module")
def triangles(referee):
    return checks.printed_triangles(referee)


@pytest.fixture(scope="module")
def sight(referee, triangles):
    return {(s.name, side): checks.sightlines(referee, s, side, triangles)
            for s in team_screens(referee) for side in (-1, 1)}


def team_screens(box):
    return [s for s in box.sightlines if s.readers]


def public_screen(box):
    return next(s for s in box.sightlines if s.name == "public screen")


def test_each_team_sees_every_pixel_of_its_own_screen(referee, sight):
    assert len(team_screens(referee)) == 2
    for s in team_screens(referee):
        angles, blocked = sight[(s.name, s.readers)]
        assert angles.max() < checks.COMFORTABLE, s.name
        assert not blocked.any(), f"{s.name}: the box hides some pixels from its own team"


def test_no_player_of_the_other_team_can_read_a_teams_screen(referee, sight):
    for s in team_screens(referee):
        angles, blocked = sight[(s.name, -s.readers)]
        # every line of sight from the far side meets the glass from behind its
        # own plane: beyond the panel's 80-degree cone, with the box in between
        assert angles.min() > 90.0 > checks.READABLE, s.name
        assert blocked.mean() > 0.9, s.name


def test_the_viewing_check_would_catch_a_screen_tilted_too_far_back(referee):
    s = team_screens(referee)[0]
    tilt = np.radians(60.0)   # the face turned up 60 degrees instead of the wall's 20
    normal = type(s.normal)(0, s.readers * np.cos(tilt), np.sin(tilt))
    tilted = model.Sightline(s.name, s.corners, normal, s.readers)
    assert checks.view_angles(tilted, -s.readers).min() < checks.READABLE


# --- issue 36: the team screens' nuts in printed plates ---------------------------------

def test_each_team_screens_four_m2_nuts_sit_in_a_plate_behind_its_board(referee):
    """ISO 4032 M2 nuts, 4.0 mm across the flats and 1.6 mm high, each in a
    hex pocket 0.15 mm larger a side; the M2 x 12 screws from outside run
    through the whole nut and out of the plate's back."""
    assert parts.M2_NUT == (4.0, 1.6)
    for team in (1, 2):
        fit = next(f for f in referee.fits if f.name == f"team {team} screen's M2 nuts in their plate")
        loose, snug = checks.fit(referee, fit)
        assert loose < 1e-3 and snug > 1e-3
        assert fit.clearance == pytest.approx(0.15)
        plate = referee.part(f"team {team} screen plate")
        nuts = fit.make(0.0)
        assert len(nuts.solids()) == 4 and nuts.volume == pytest.approx(
            4 * 1.6 * 4.0 ** 2 * np.sqrt(3) / 2, rel=1e-6)
        # along the wall's inward normal, the screws' tips lie beyond the plate's back
        s = next(s for s in referee.sightlines if s.name == f"team {team} screen")
        inward = -np.array([s.normal.X, s.normal.Y, s.normal.Z])

        def deepest(solid, inward=inward):
            return max(np.dot([v.X, v.Y, v.Z], inward) for v in solid.vertices())
        screws = next(b for b in referee.bought if b.name == f"team {team} screen screws and nuts")
        assert deepest(screws.solid) - deepest(plate.solid) >= 1.5
        assert deepest(nuts) == pytest.approx(deepest(plate.solid), abs=1e-6)   # flush with its back


def test_the_nut_check_sees_a_pocket_cut_for_a_smaller_nut(monkeypatch):
    from hardware.enclosure import plates
    o = parts.OLEDS["0.96"]
    monkeypatch.setattr(parts, "M2_NUT", (3.8, 1.6))
    small = plates.nut_plate(o)
    monkeypatch.undo()
    box = model.Box("small", [model.Printed("plate", small, model.Location(), (0, 0, 0))], [], [])
    fit = model.Fit("nuts", "plate", plates.NUT_GAP, lambda extra: plates.nut(o, extra))
    assert checks.fit(box, fit)[0] > 1e-3


def test_a_screen_plate_lies_on_its_board_face_and_would_need_support_the_other_way_up(referee):
    for part in referee.printed:
        if "plate" in part.name:
            bed = part.bed_solid()
            assert checks.overhangs(bed) == []
            over = model.Location((0, 0, 0), (180, 0, 0)) * part.on_bed
            flipped = model.Printed(part.name, part.solid, over, part.colour)
            assert checks.overhangs(flipped.bed_solid()), part.name


# --- issue 36: service and heat ---------------------------------------------------------

def test_the_microsd_card_comes_out_through_the_end_wall_with_the_box_closed(referee):
    card = next(b for b in referee.bought if b.name == "microSD card")
    path = referee.paths["microSD card"]
    assert path.bounding_box().min.X < referee.part("base").solid.bounding_box().min.X
    assert (path & card.solid).volume == pytest.approx(card.solid.volume, rel=1e-6)
    assert checks.in_the_way(referee, "microSD card") == []


def test_the_sd_check_sees_a_wall_without_its_slot(referee):
    base = referee.part("base")
    card = next(b for b in referee.bought if b.name == "microSD card").solid.bounding_box()
    plug = cad.Pos(base.solid.bounding_box().min.X + 1.2, card.center().Y, card.center().Z) * cad.Box(2.4, 20, 8)
    closed = model.Box("closed", [model.Printed("base", base.solid + plug, base.on_bed, base.colour)],
                       referee.bought, [], paths=referee.paths)
    assert checks.in_the_way(closed, "microSD card") == ["base"]


def test_light_pipes_reach_from_outside_the_end_wall_to_beside_each_led(referee):
    pi = next(b for b in referee.bought if b.name.startswith("Raspberry Pi"))
    leds = parts.PIS["4"].leds
    pipes = [b.solid.bounding_box() for b in referee.bought if b.name.startswith("light pipe")]
    assert len(pipes) == len(leds) == 2
    outside = referee.part("base").solid.bounding_box().min.X
    board = pi.solid.bounding_box()
    for pipe, (x, _) in zip(pipes, leds):
        assert pipe.min.X <= outside + 0.5                     # a fingertip's flush end outside
        assert pipe.max.X == pytest.approx(board.min.X + x - 1.0)   # 1 mm short of the LED


def test_the_cooler_and_the_air_over_its_fan_have_room_in_the_closed_box(referee):
    """A Pi 4's heatsink or a Pi 5's Active Cooler, 14 mm over the board, and
    6 mm of air over its fan, clear of every part (the collision check covers
    them like every other part; here: they are there, and one that reaches
    the lid is seen)."""
    names = [b.name for b in referee.bought]
    assert "heatsink or active cooler" in names and "air over the cooler's fan" in names
    cooler = next(b for b in referee.bought if b.name == "heatsink or active cooler")
    board = next(b for b in referee.bought if b.name.startswith("Raspberry Pi")).solid.bounding_box()
    air = next(b for b in referee.bought if b.name == "air over the cooler's fan").solid.bounding_box()
    assert cooler.solid.bounding_box().max.Z - (board.min.Z + 1.4) >= parts.COOLER[2] - 1e-6
    assert air.max.Z - air.min.Z >= parts.COOLER_AIR - 1e-6
    others = [p for p in referee.printed]
    taller = model.Box("taller", others, [model.Bought("cooler 45 mm higher", cad.Pos(0, 0, 45) * cooler.solid,
                                                       (0, 0, 0))], [])
    assert checks.collisions(taller)


def test_each_box_stands_on_four_rubber_feet_in_recesses_the_slicer_bridges(box):
    """10 x 3 mm stick-on feet, 0.6 mm deep in recesses under the floor's
    corners, 0.3 mm round each (the fits test checks that); the floor stands
    2.4 mm over the table; the recesses' roofs are the base's only bridges."""
    assert parts.RUBBER_FOOT == (10.0, 3.0)
    base = box.printed[0]
    assert base.name.endswith("base")
    feet = [b.solid.bounding_box() for b in box.bought if b.name.startswith("rubber foot")]
    assert len(feet) == 4
    floor = base.solid.bounding_box()
    for foot in feet:
        assert foot.size.X == pytest.approx(10.0) and foot.size.Z == pytest.approx(3.0)
        assert floor.min.Z - foot.min.Z == pytest.approx(2.4)
        # under a corner of the floor: within 15 mm of its edges both ways
        assert floor.max.X - abs(foot.center().X) < 15 and floor.max.Y - abs(foot.center().Y) < 15
    assert sorted(checks.bridges(base.bed_solid())) == [(10.6, 0.6)] * 4
    assert all(span <= model.MAX_BRIDGE for span, _ in checks.bridges(base.bed_solid()))
    for part in box.printed[1:]:
        assert checks.bridges(part.bed_solid()) == [], part.name


def test_the_overhang_check_takes_a_feet_recess_as_a_bridge_but_no_wider_roof_or_a_shelf():
    plate = cad.Pos(0, 0, 1.5) * cad.Box(40, 40, 3)
    recess = plate - cad.Cylinder(5.3, 1.2)                  # 10.6 across, 0.6 deep
    assert checks.overhangs(recess) == [] and checks.bridges(recess) == [(10.6, 0.6)]
    wide = plate - cad.Cylinder(10.0, 1.2)                   # 20 across
    assert checks.overhangs(wide) and checks.bridges(wide) == []
    # a small shelf on a post: its rim goes up from the underside, no wall to bridge from
    shelf = cad.Pos(0, 0, 1) * (cad.Box(20, 20, 2) + cad.Pos(12, 0, 10) * cad.Box(8, 8, 2) + cad.Pos(0, 0, 5) * cad.Box(4, 4, 10))
    assert checks.overhangs(shelf) and checks.bridges(shelf) == []


# --- issue 36: every seat sees the public screen whole, at every module offset ----------

def offsets(box, name):
    """The active-area offsets the panel's modules have: both ends of the
    range and the middle."""
    screen = next(b for b in box.bought if b.name.startswith(name + " ("))
    oled = next(o for o in parts.OLEDS.values() if o.name in screen.name)
    low, high = oled.offset_range
    return (low, (low + high) / 2, high)


def test_every_seat_sees_every_pixel_of_the_public_screen(referee, triangles):
    s = public_screen(referee)
    for offset in offsets(referee, "public screen"):
        for side in (-1, 1):
            share = checks.seen(referee, s, checks.seats(side), offset, triangles)
            worst = int(np.argmin(share))
            assert share.min() == 1.0, (
                f"offset {offset}: the seat at {checks.seats(side)[worst]} sees "
                f"{share[worst]:.0%} of the public screen")


def test_each_team_sees_all_of_its_screen_whatever_the_modules_offset(referee, triangles):
    for s in team_screens(referee):
        name = s.name
        for offset in offsets(referee, name):
            share = checks.seen(referee, s, checks.seats(s.readers), offset, triangles)
            assert share.min() == 1.0, f"{name}, offset {offset}: {share.min():.0%}"


def test_the_seat_check_sees_a_narrow_window_over_the_public_screen(referee, triangles):
    """A 3 mm frame on the lid round the pixels and 0.5 mm, as the first lid's
    window was at the glass: the far seats lose rows."""
    s = public_screen(referee)
    corners = np.array([(c.X, c.Y, c.Z) for c in s.corners])
    lo, hi = corners.min(axis=0) - 0.5, corners.max(axis=0) + 0.5
    middle = cad.Pos((lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2, hi[2] + 1.5)
    w, h = hi[0] - lo[0], hi[1] - lo[1]
    frame = middle * cad.Box(w + 20, h + 20, 3) - middle * cad.Box(w, h, 4)
    framed = model.Box("framed", [model.Printed("frame", frame, model.Location(), (0, 0, 0))], [], [])
    assert checks.seen(framed, s, checks.seats(-1), 0.0).min() < 0.8


def test_the_offset_check_sees_a_module_beyond_the_range_the_windows_take(referee, triangles):
    s = team_screens(referee)[0]
    high = offsets(referee, s.name)[-1]
    assert checks.seen(referee, s, checks.seats(s.readers), high + 2.0, triangles).min() < 1.0


# --- issue 36: the test-fit coupons -------------------------------------------------------

def holes_at(plate, o: parts.Oled, diameter: float = 2.4) -> bool:
    """Whether the plate has a hole of ``diameter`` at each of the module's
    holes: nothing inside it, and the plate all round it."""
    hx, hy = o.holes
    for sx in (-1, 1):
        for sy in (-1, 1):
            inside = cad.Pos(sx * hx / 2, sy * hy / 2, 0) * cad.Cylinder(diameter / 2 - 0.02, 20)
            ring = cad.Pos(sx * hx / 2, sy * hy / 2, 0) * (cad.Cylinder(diameter / 2 + 0.1, 20)
                                                     - cad.Cylinder(diameter / 2, 20))
            if (plate & inside).volume > 1e-3:
                return False
            if (plate & ring).volume < 0.99 * ring.volume * coupons.WALL / 20:
                return False
    return True


def test_each_modules_coupon_has_its_holes_and_shows_its_pixels_at_every_offset():
    box = coupons.build()
    for o in parts.OLEDS.values():
        coupon = next(p for p in box.printed if p.name == f"coupon {o.name.split()[0].strip(chr(34))}")
        assert holes_at(coupon.solid, o)
        ax, ay = o.active
        for offset in np.linspace(*o.offset_range, 5):
            pixels = cad.Pos(0, offset, 0) * cad.Box(ax, ay, 20)
            assert (coupon.solid & pixels).volume < 1e-3, (o.name, offset)


def test_the_coupon_check_sees_holes_23_3_mm_apart_where_the_module_has_23_5():
    import dataclasses
    old = dataclasses.replace(parts.OLED_096, holes=(23.3, 23.8))
    assert not holes_at(coupons.oled(old).solid, parts.OLED_096)


def test_the_coupons_are_a_few_grams_and_print_flat_without_supports():
    from hardware.enclosure.estimate import estimate
    box = coupons.build()
    assert len(box.printed) == len(parts.OLEDS) + len(parts.BUTTONS)
    for part in box.printed:
        solid = part.bed_solid()
        assert estimate(solid).grams < 10, part.name
        assert checks.overhangs(solid) == [], part.name
        assert checks.fits_bed(solid)[0]
        assert mesh.thinnest_wall(part.plain or part.solid)[0] >= model.MIN_WALL - 1e-3, part.name
        assert mesh.thinnest_wall(part.solid)[0] >= model.MIN_DETAIL, part.name
    snap = box.part("coupon snap button").solid
    b = parts.BUTTONS["snap"]
    probe = cad.Pos(b.hole / 2 + 2.0, 0, 0) * cad.Box(1, 1, 10)
    assert (snap & probe).volume == pytest.approx(b.panel, abs=0.01)


# --- the files -------------------------------------------------------------------------

def test_each_printed_part_is_written_as_stl_and_step_lying_as_it_prints(dice, tmp_path):
    said = main.export(dice, "dice", tmp_path)
    assert len(said) == len(dice.printed)
    for part in dice.printed:
        name = main.file_name("dice", part)
        stl = (tmp_path / f"{name}.stl").read_bytes()
        triangles = int.from_bytes(stl[80:84], "little")
        assert triangles > 100 and len(stl) == 84 + 50 * triangles
        step = (tmp_path / f"{name}.step").read_text(encoding="utf-8", errors="replace")
        assert "MANIFOLD_SOLID_BREP" in step
        assert part.bed_solid().bounding_box().min.Z == pytest.approx(0, abs=1e-6)
        flat, height = bed_face(tmp_path / f"{name}.3mf")
        assert height == pytest.approx(part.bed_solid().bounding_box().size.Z, abs=0.05)
    # the lid lies on its top, which the ROLL button's hole and nothing else breaks
    top = (dice_box.Params().length * dice_box.Params().width
           - np.pi * (parts.BUTTONS["screw"].hole / 2) ** 2)
    assert bed_face(tmp_path / "dice-lid.3mf")[0] == pytest.approx(top, rel=0.02)
    for line, _ in zip(said, dice.printed):
        assert re.search(r"\d+ cm3 solid, \d+ g of PLA, about \d+ h \d\d min$", line), line


def bed_face(path):
    """The area of a 3MF mesh's triangles lying on the bed, and its height."""
    import xml.etree.ElementTree as ET
    import zipfile
    root = ET.fromstring(zipfile.ZipFile(path).read("3D/3dmodel.model"))
    ns = {"m": "http://schemas.microsoft.com/3dmanufacturing/core/2015/02"}
    v = np.array([[float(e.get(k)) for k in "xyz"] for e in root.iterfind(".//m:vertex", ns)])
    t = np.array([[int(e.get(k)) for k in ("v1", "v2", "v3")]
                  for e in root.iterfind(".//m:triangle", ns)])
    tri = v[t]
    low = v[:, 2].min()
    on_bed = np.all(np.abs(tri[:, :, 2] - low) < 1e-3, axis=1)
    area = 0.5 * np.linalg.norm(np.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0]), axis=1)
    return area[on_bed].sum(), v[:, 2].max() - low


def test_the_filament_estimate_is_the_skin_and_a_fifth_of_the_inside():
    from hardware.enclosure.estimate import SKIN, estimate
    cube = estimate(cad.Box(40, 40, 40))
    skin = 6 * 40 * 40 * SKIN
    assert cube.volume == pytest.approx(64.0)
    assert cube.material * 1000 == pytest.approx(skin + 0.2 * (64000 - skin))
    plate = estimate(cad.Box(40, 40, 1.2))        # all skin: printed solid
    assert plate.material == pytest.approx(plate.volume)
    assert plate.grams == pytest.approx(40 * 40 * 1.2 / 1000 * 1.24)


def test_a_picture_shows_the_part_lit_on_white(tmp_path):
    from PIL import Image
    render.render([(cad.Box(40, 20, 10), (200, 40, 40))], tmp_path / "box.png", size=(160, 120))
    image = Image.open(tmp_path / "box.png").convert("RGB")
    assert image.size == (160, 120)
    assert image.getpixel((2, 2)) == (255, 255, 255)
    middle = image.getpixel((80, 60))
    assert middle[0] > middle[1] and middle != (255, 255, 255)


# --- the guide ------------------------------------------------------------------------

def test_build_md_shows_the_pictures_and_lists_every_printed_part(referee, dice):
    build = (ROOT / "hardware" / "BUILD.md").read_text(encoding="utf-8")
    pictures = re.findall(r"\]\((pictures/[^)]+\.png)\)", build)
    for name in ("referee-exploded", "referee-team1-side", "referee-team2-side", "dice-exploded"):
        assert f"pictures/{name}.png" in pictures
    for picture in pictures:
        assert (ROOT / "hardware" / picture).is_file(), picture
    for prefix, box in (("referee", referee), ("dice", dice)):
        for part in box.printed:
            assert f"`{main.file_name(prefix, part)}.stl`" in build
    steps = re.findall(r"^## (\d+)\. (.+)$", build, flags=re.M)
    assert [int(n) for n, _ in steps] == list(range(1, len(steps) + 1))
    last = build[build.index(f"## {steps[-1][0]}. "):]
    assert "sudo referee doctor" in last and "checks, all well" in last


DOCUMENTS = ("BOM.md", "BUILD.md", "dice-module.md")


def unsupported(text: str) -> list[str]:
    """What a document names that the model cannot take: a button size, a
    button's hole or maker's model, a read-out's digit size, a panel size."""
    found = []
    sizes = {n for b in parts.BUTTONS.values() for n in re.findall(r"\d+", b.name)}
    for size in re.findall(r"(\d+)(?: or \d+)? mm (?:arcade |push |screw-in |snap-in )*buttons?", text):
        if size not in sizes:
            found.append(f"{size} mm button")
    for size in re.findall(r"30 or (\d+) mm", text):
        found.append(f"{size} mm button")
    for hole in re.findall(r"\b(\d\d) mm hole", text):
        if float(hole) not in {b.hole for b in parts.BUTTONS.values()}:
            found.append(f"{hole} mm hole")
    for name in re.findall(r"Sanwa ([A-Z]+-\d+)", text):
        if not any(name in b.name for b in parts.BUTTONS.values()):
            found.append(f"Sanwa {name}")
    for size in re.findall(r'(\d\.\d+)" digits', text):
        if float(size) != parts.MAX7219_DIGITS:
            found.append(f'{size}" digits')
    for size in re.findall(r'(\d\.\d+)" (?:OLED|SSD1306|SH1106)', text):
        if size not in parts.OLEDS:
            found.append(f'{size}" OLED')
    return found


def test_the_documents_name_only_parts_and_sizes_the_model_takes():
    for name in DOCUMENTS:
        text = (ROOT / "hardware" / name).read_text(encoding="utf-8")
        assert unsupported(text) == [], name


def test_the_document_check_sees_the_parts_the_first_documents_named():
    old = ('| 2 | arcade push button, 30 or 60 mm |\n'
           '| 1 | MAX7219 module, 0.36" or 0.56" digits |\n'
           '| 1 | e.g. Sanwa OBSL-30 |\n| 1 | 2.42" OLED |\n a 24 mm hole\n')
    assert sorted(unsupported(old)) == sorted(["60 mm button", '0.56" digits', "24 mm hole",
                                               "Sanwa OBSL-30", '2.42" OLED'])


def test_the_cad_tools_stay_off_the_pi():
    import tomllib
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert not any(req.startswith("build123d") for req in project["dependencies"])
    assert any(req.startswith("build123d") for req in project["optional-dependencies"]["cad"])
    assert "cad" not in (ROOT / "systemd" / "install.sh").read_text(encoding="utf-8")


def test_writing_a_3mf_leaves_the_process_reading_text_as_before(tmp_path):
    """lib3mf sets the process's locale to C; left so, every text file read
    after it (the catalogues, the sources) was read as ASCII."""
    before = locale.setlocale(locale.LC_ALL)
    main.write_3mf(cad.Box(10, 10, 10), "cube", tmp_path / "cube.3mf")
    assert locale.setlocale(locale.LC_ALL) == before
    assert (tmp_path / "cube.3mf").read_bytes()[:2] == b"PK"      # a 3MF is a zip
