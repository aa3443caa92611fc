"""Writes the printed parts (STL, STEP and 3MF, each lying as it prints on
the bed), says what each costs in filament and time, and draws the pictures
of both boxes."""
from __future__ import annotations

import argparse
import locale
import shutil
from pathlib import Path

from build123d import Mesher, Pos, export_step, export_stl

from . import coupons, dice_box, parts, referee_box, render
from .estimate import SETTINGS, estimate


def file_name(prefix: str, part) -> str:
    return f"{prefix}-{part.name.replace('dice ', '').replace('coupon ', '').replace(' ', '-')}"


def write_3mf(solid, name: str, path: Path) -> None:
    """A 3MF file of ``solid``.  lib3mf, under build123d's Mesher, sets the
    process's locale to "C" and leaves it so: every text file opened after
    it would then be read as ASCII.  The locale is put back."""
    kept = locale.setlocale(locale.LC_ALL)
    try:
        mesher = Mesher()
        mesher.add_shape(solid, linear_deflection=0.02, angular_deflection=0.2, part_number=name)
        mesher.write(str(path))
    finally:
        locale.setlocale(locale.LC_ALL, kept)


def export(box, prefix: str, out: Path) -> list[str]:
    """An STL, a STEP and a 3MF file of each printed part, lying as it prints
    in the middle of the bed (a slicer opens the 3MF ready to slice), and a
    line on each: its size, how it lies, its filament and time."""
    said = []
    for part in box.printed:
        name = file_name(prefix, part)
        solid = part.bed_solid()
        export_stl(solid, str(out / f"{name}.stl"), tolerance=0.02)
        export_step(solid, str(out / f"{name}.step"))
        write_3mf(solid, name, out / f"{name}.3mf")
        size = solid.bounding_box().size
        said.append(f"{name}: {size.X:.1f} x {size.Y:.1f} x {size.Z:.1f} mm, {part.orientation}; "
                    f"{estimate(solid)}")
    return said


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="python -m hardware.enclosure", description=__doc__)
    parser.add_argument("--out", type=Path, default=Path("build/enclosure"),
                        help="where the STL, STEP and PNG files go (default: %(default)s)")
    parser.add_argument("--pi", choices=sorted(parts.PIS), default="4", help="the Raspberry Pi model")
    parser.add_argument("--public", choices=sorted(parts.OLEDS), default="1.3",
                        help="the public screen's size in inches")
    parser.add_argument("--team", choices=sorted(parts.OLEDS), default="0.96",
                        help="the team screens' size in inches")
    parser.add_argument("--button", choices=sorted(parts.BUTTONS), default="screw",
                        help="the 30 mm buttons: screw (28 mm hole) or snap (Sanwa OBSF-30, "
                             "30 mm hole in 1.6 mm)")
    parser.add_argument("--pictures", type=Path,
                        help="also copy the pictures here (hardware/pictures for BUILD.md)")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    referee = referee_box.build(referee_box.Params(pi=args.pi, public=args.public, team=args.team,
                                                   button=args.button))
    dice = dice_box.build(dice_box.Params(button=args.button))
    print(f"at {SETTINGS}:")
    for prefix, box in (("referee", referee), ("dice", dice), ("test-fit", coupons.build())):
        for line in export(box, prefix, args.out):
            print(line)
    pictures = []

    def picture(name, box, azimuth, elevation, exploded=False):
        shapes = [((Pos(p.explode) * p.solid) if exploded else p.solid, p.colour)
                  for p in box.printed + box.bought if not p.name.startswith("air ")]
        for p in box.printed:   # engraved lettering, shown rubbed with light paint
            if p.plain is not None:
                paint = p.plain - p.solid
                shapes.append(((Pos(p.explode) * paint) if exploded else paint, (235, 235, 225)))
        path = args.out / f"{name}.png"
        render.render(shapes, path, azimuth=azimuth, elevation=elevation)
        pictures.append(path)

    picture("referee-exploded", referee, -35, 35, exploded=True)
    picture("referee-team1-side", referee, 0, 25)     # from -Y, where team 1 sits
    picture("referee-team2-side", referee, 180, 25)   # from +Y, where team 2 sits
    picture("dice-exploded", dice, -35, 35, exploded=True)
    picture("dice-front", dice, -12, 14)
    if args.pictures:
        args.pictures.mkdir(parents=True, exist_ok=True)
        for path in pictures:
            shutil.copy(path, args.pictures / path.name)
    print(f"written to {args.out}")


if __name__ == "__main__":
    main()
