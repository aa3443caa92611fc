#!/usr/bin/env python3
"""Draws the box's wiring from referee/pinmap.toml, so the pictures cannot drift
from the pins the software uses.

    python scripts/wiring_svg.py           write hardware/wiring.svg and the
                                           pin table in hardware/BUILD.md
    python scripts/wiring_svg.py --check   exit 1 if either is out of date

The diagram is the 40-pin header with a labelled wire on every pin in use;
the table lists the same wires part by part, in the order they are built.
"""
from __future__ import annotations

import argparse
import pathlib
import sys
import tomllib
from html import escape

ROOT = pathlib.Path(__file__).resolve().parent.parent
PINMAP = ROOT / "referee" / "pinmap.toml"
SVG = ROOT / "hardware" / "wiring.svg"
BUILD = ROOT / "hardware" / "BUILD.md"
TABLE_START = "<!-- pin table: written by scripts/wiring_svg.py from referee/pinmap.toml -->"
TABLE_END = "<!-- end of pin table -->"

# The 40-pin header of every Pi since the B+: physical pin -> what is on it
# (a BCM GPIO number, or a supply).
HEADER = (
    "3V3", "5V", 2, "5V", 3, "GND", 4, 14, "GND", 15,
    17, 18, 27, "GND", 22, 23, "3V3", 24, 10, "GND",
    9, 25, 11, 8, "GND", 7, 0, 1, 5, "GND",
    6, 12, 13, "GND", 19, 16, 26, 20, "GND", 21,
)
PIN_OF = {gpio: i + 1 for i, gpio in enumerate(HEADER) if isinstance(gpio, int)}

# What the unused pins are kept for (see referee/pinmap.toml).
KEPT = {0: "HAT ID EEPROM", 1: "HAT ID EEPROM", 14: "UART TX", 15: "UART RX",
        7: "SPI0 CE1", 8: "SPI0 CE0", 9: "SPI0 MISO", 10: "SPI0 MOSI", 11: "SPI0 SCLK"}

PART = {"main": "public screen", "team1": "team 1 screen", "team2": "team 2 screen"}
COLOUR = {"3V3": "#d9480f", "5V": "#a61e4d", "GND": "#212529", "bus1": "#1971c2", "bus3": "#0c8599",
          "rows": "#e67700", "cols": "#7048e8", "buttons": "#2b8a3e", "buzzer": "#862e9c"}


def load(path: pathlib.Path = PINMAP) -> dict:
    with open(path, "rb") as f:
        return tomllib.load(f)


def wires(pinmap: dict) -> list[tuple[int, str, str, str]]:
    """(header pin, part, wire, colour key) for every wire of the box, part
    by part."""
    out = []
    power = pinmap["power"]
    by_bus: dict[int, list[str]] = {}
    for name, panel in pinmap["displays"].items():
        by_bus.setdefault(panel["bus"], []).append(name)
    for bus, names in by_bus.items():
        lines = pinmap["i2c"][str(bus)]
        for name in names:
            address = pinmap["displays"][name]["address"]
            kind = "i2c-gpio" if lines.get("overlay") else "I2C"
            part = f"{PART[name]} ({kind} bus {bus}, {address:#04X})".replace("0X", "0x")
            out += [(power[name]["vcc"], part, "VCC", "3V3"), (power[name]["gnd"], part, "GND", "GND"),
                    (PIN_OF[lines["sda"]], part, "SDA", f"bus{bus}"), (PIN_OF[lines["scl"]], part, "SCL", f"bus{bus}")]
    for i, gpio in enumerate(pinmap["keypad"]["rows"]):
        out.append((PIN_OF[gpio], "keypad", f"pin {i + 1} (row R{i + 1})", "rows"))
    for i, gpio in enumerate(pinmap["keypad"]["cols"]):
        out.append((PIN_OF[gpio], "keypad", f"pin {i + 5} (column C{i + 1})", "cols"))
    for team in ("team1", "team2"):
        part = f"{team[:4]} {team[4]} button"
        out += [(PIN_OF[pinmap["buttons"][team]], part, "NO lug", "buttons"),
                (power["buttons"]["gnd"], part, "COM lug", "GND")]
    part = "buzzer driver"
    out += [(PIN_OF[pinmap["buzzer"]["pin"]], part, "1 kΩ to the transistor's base", "buzzer"),
            (power["buzzer"]["vcc"], part, "buzzer +", "5V"), (power["buzzer"]["gnd"], part, "emitter", "GND")]
    return out


def _name(pin: int) -> str:
    what = HEADER[pin - 1]
    return f"GPIO {what}" if isinstance(what, int) else what


def pin_table(pinmap: dict) -> str:
    """The wires as a Markdown table, part by part."""
    rows = ["| Part | Wire | Pi | Header pin |", "|---|---|---|---|"]
    last = None
    for pin, part, wire, _ in wires(pinmap):
        rows.append(f"| {part if part != last else ''} | {wire} | {_name(pin)} | {pin} |")
        last = part
    return "\n".join(rows)


def svg(pinmap: dict) -> str:
    """The header, a wire on each pin in use, what it goes to."""
    on_pin: dict[int, list[tuple[str, str, str]]] = {}
    for pin, part, wire, colour in wires(pinmap):
        on_pin.setdefault(pin, []).append((part, wire, colour))
    spi = pinmap["spi"]
    kept = KEPT | {spi["dc"]: "SPI panels: DC", spi["reset"]: "SPI panels: RES"}
    top, pitch, width = 96, 26, 1100
    height = top + 20 * pitch + 170
    mid = width // 2
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Verdana, sans-serif" font-size="12">',
           f'<rect width="{width}" height="{height}" fill="#ffffff"/>',
           '<text x="20" y="32" font-size="20" font-weight="bold">Tabletop Referee: wiring</text>',
           '<text x="20" y="54" fill="#495057">The Pi\'s 40-pin header seen from above, pin 1 at the top left. '
           'GPIO numbers are BCM numbers.</text>',
           '<text x="20" y="72" fill="#495057">Drawn by scripts/wiring_svg.py from referee/pinmap.toml: '
           'change the pins there, not here.</text>',
           f'<rect x="{mid - 34}" y="{top - 16}" width="68" height="{20 * pitch + 6}" rx="6" fill="#343a40"/>']
    for pin in range(1, 41):
        left = pin % 2 == 1
        y = top + (pin - 1) // 2 * pitch
        x = mid - 14 if left else mid + 14
        used = on_pin.get(pin, [])
        fill = COLOUR[used[0][2]] if used else "#adb5bd"
        out.append(f'<circle cx="{x}" cy="{y}" r="9" fill="{fill}" stroke="#f8f9fa" stroke-width="1.5"/>')
        out.append(f'<text x="{x}" y="{y + 4}" text-anchor="middle" font-size="9" fill="#ffffff">{pin}</text>')
        side = -1 if left else 1
        name_x = mid + side * 44
        anchor = "end" if left else "start"
        out.append(f'<text x="{name_x}" y="{y + 4}" text-anchor="{anchor}" font-weight="bold">{_name(pin)}</text>')
        if used:
            start, end = mid + side * 112, mid + side * 170
            out.append(f'<line x1="{start}" y1="{y}" x2="{end}" y2="{y}" stroke="{fill}" stroke-width="4" '
                       f'stroke-linecap="round"/>')
            label = "; ".join(f"{part}: {wire}" for part, wire in _merged(used))
            out.append(f'<text x="{end + side * 8}" y="{y + 4}" text-anchor="{anchor}" '
                       f'fill="{fill}">{escape(label)}</text>')
        else:
            what = HEADER[pin - 1]
            note = kept.get(what, "free") if isinstance(what, int) else "spare"
            out.append(f'<text x="{mid + side * 112}" y="{y + 4}" text-anchor="{anchor}" fill="#868e96">{note}</text>')
    y = top + 20 * pitch + 16
    moved = [f"{PART[name].capitalize()}: its address jumper moved to {panel['address']:#04X}.".replace("0X", "0x")
             for name, panel in pinmap["displays"].items() if panel["address"] != 0x3C]
    notes = (
        " ".join(["Panels on one bus hang on the same four wires.", *moved]),
        "Keypad: its ribbon's 8 pins in order, 1-4 the rows, 5-8 the columns. Arcade buttons: the COM and NO lugs.",
        "Buzzer driver: GPIO 18 through 1 kΩ to an NPN transistor's base (S8050, 2N2222 or BC337); the buzzer",
        "from 5V to the collector, a 1N4148 across it (stripe to 5V); the emitter to GND.",
        "Dice module: the Pico on a USB data cable to any USB port of the Pi; no header pins.",
    )
    for i, line in enumerate(notes):
        out.append(f'<text x="20" y="{y + 22 * i + 12}" fill="#212529">{escape(line)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _merged(used):
    # Two panels on one pin read as one label: "VCC of the public screen and
    # the team 1 screen", not the same wire named twice.
    merged: dict[str, list[str]] = {}
    for part, wire, _ in used:
        merged.setdefault(wire, []).append(part.split(" (")[0])
    return [(" and ".join(parts), wire) for wire, parts in merged.items()]


def build_md(text: str, table: str) -> str:
    """``text`` with its pin table replaced by ``table``."""
    head, start, rest = text.partition(TABLE_START)
    _, end, tail = rest.partition(TABLE_END)
    if not (start and end):
        raise SystemExit(f"{BUILD}: the markers around the pin table are missing")
    return f"{head}{TABLE_START}\n{table}\n{TABLE_END}{tail}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Draw hardware/wiring.svg and the pin table in hardware/BUILD.md.")
    parser.add_argument("--check", action="store_true", help="only say whether they are up to date")
    args = parser.parse_args(argv)
    pinmap = load()
    wanted = {SVG: svg(pinmap), BUILD: build_md(BUILD.read_text(encoding="utf-8"), pin_table(pinmap))}
    stale = [path for path, text in wanted.items() if not path.exists() or path.read_text(encoding="utf-8") != text]
    if args.check:
        for path in stale:
            print(f"{path.relative_to(ROOT)} is out of date: run python scripts/wiring_svg.py", file=sys.stderr)
        return 1 if stale else 0
    for path in stale:
        path.write_text(wanted[path], encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
