"""How much of each screen each seat sees: ``python -m hardware.enclosure.seats``.

For the referee box as ``parts.py`` and the options draw it, and for every
panel's active-area offset at both ends of its range and in the middle: the
share of a grid of points over the pixels that each seat's eyes see past the
printed parts (``checks.seen``).  The public screen is for every seat, each
team's screen for its own side."""
from __future__ import annotations

import argparse

from . import checks, parts, referee_box


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(prog="python -m hardware.enclosure.seats", description=__doc__)
    parser.add_argument("--pi", choices=sorted(parts.PIS), default="4")
    parser.add_argument("--public", choices=sorted(parts.OLEDS), default="1.3")
    parser.add_argument("--team", choices=sorted(parts.OLEDS), default="0.96")
    args = parser.parse_args(argv)
    box = referee_box.build(referee_box.Params(pi=args.pi, public=args.public, team=args.team))
    tri = checks.printed_triangles(box)
    for sight in box.sightlines:
        oled = parts.OLEDS[args.public if sight.name == "public screen" else args.team]
        low, high = oled.offset_range
        sides = (-1, 1) if sight.readers == 0 else (sight.readers,)
        for side in sides:
            print(f"{sight.name}, seen from the {'-Y' if side < 0 else '+Y'} side "
                  f"(along, across, eyes up; mm): at offsets {low:+.1f}, "
                  f"{(low + high) / 2:+.1f}, {high:+.1f} mm")
            shares = [checks.seen(box, sight, checks.seats(side), offset, tri)
                      for offset in (low, (low + high) / 2, high)]
            for i, (x, y, z) in enumerate(checks.seats(side)):
                row = "  ".join(f"{100 * s[i]:5.1f} %" for s in shares)
                print(f"  {x:+5.0f} {abs(y):4.0f} {z:4.0f}   {row}")


if __name__ == "__main__":
    main()
