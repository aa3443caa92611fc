"""Write referee/panel_font.py: the characters the panels' text font draws,
as ranges of code points, so that a process with no panels (the web) can
refuse a name the screens could not show without loading the font and PIL.

A character is drawn when its glyph differs from the one the font gives a
code point it has no glyph for.  Run it from the repository root after the
text font changes (tests/test_names.py fails until it is run):

    .venv/bin/python scripts/panel_font.py
"""
from __future__ import annotations

import gzip
import hashlib
import pathlib
import sys

from PIL import __version__ as PIL_VERSION
from PIL import features

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

from referee.box.screen import FONTS, font, font_file  # noqa: E402  (the path above first)

OUT = pathlib.Path(__file__).resolve().parent.parent / "referee" / "panel_font.py"
# A code point no font has: what the font draws for a missing glyph.
MISSING = "\U0010fffd"
SURROGATES = range(0xD800, 0xE000)   # no character of their own; FreeType refuses them


def drawn_by() -> str:
    """What decides which characters are drawn: the font's own bytes and
    the Pillow, FreeType and raqm that lay them out.  The same inputs draw
    the same characters, so a table made from them needs no new scan."""
    path = font_file("text")
    with (gzip.open(path) if path.endswith(".gz") else open(path, "rb")) as f:
        digest = hashlib.sha256(f.read()).hexdigest()[:16]
    return (f"{FONTS['text'][0]} sha256:{digest}, Pillow {PIL_VERSION}, "
            f"FreeType {features.version('freetype2')}, raqm {features.version('raqm')}")


def drawn(char: str) -> bytes:
    mask = font("text").getmask(char, mode="1")
    return bytes(mask.size) + bytes(mask)


def ranges() -> list[tuple[int, int]]:
    """Every code point the text font draws, as (first, last) ranges."""
    missing = drawn(MISSING)
    found: list[list[int]] = []
    for code in range(0x21, 0x110000):
        if code in SURROGATES:
            continue
        try:
            if drawn(chr(code)) == missing:
                continue
        except RuntimeError:   # a separator the layout engine will not lay out alone
            continue
        if found and found[-1][1] == code - 1:
            found[-1][1] = code
        else:
            found.append([code, code])
    return [(first, last) for first, last in found]


def module(found: list[tuple[int, int]], by: str) -> str:
    name, _size, package = FONTS["text"]
    rows = []
    for i in range(0, len(found), 6):
        rows.append("    " + " ".join(f"(0x{a:04X}, 0x{b:04X})," for a, b in found[i:i + 6]))
    return f'''"""The characters the panels' text font ({name}, Debian's {package}) draws,
as data: names are checked against it in processes that never draw (the
web) as in the box.  Written by scripts/panel_font.py from the font itself;
tests/test_names.py checks that it still matches.
"""
from __future__ import annotations

from bisect import bisect_right

# The font and the layout the table was made with (scripts/panel_font.py).
DRAWN_BY = "{by}"

# (first, last) code points, in order; the space is drawn as blank.
RANGES = (
{chr(10).join(rows)}
)
_FIRSTS = tuple(first for first, _last in RANGES)


def drawable(char: str) -> bool:
    """Whether the panels draw ``char`` (one character)."""
    code = ord(char)
    i = bisect_right(_FIRSTS, code) - 1
    return char == " " or (i >= 0 and code <= RANGES[i][1])
'''


if __name__ == "__main__":
    OUT.write_text(module(ranges(), drawn_by()), encoding="utf-8")
    print(f"wrote {OUT}")
