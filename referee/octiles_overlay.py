"""The printable Octiles overlay: every space and circle of the board with
the one name the box gives it (``games.octiles_places``), at the board's
size, to lay beside or on the board.  SVG and PDF, A4 and Letter.

One drawing (``drawing``: shapes in millimetres on the page) is written
out twice: ``svg`` as text, ``pdf`` through fpdf2 (the ``print`` extra), so
the two show the same places at the same size.

Scale.  The rulebook states no size for the board.  We take a space (a
tile) to be ``SPACE_MM`` = 32 mm across its flats: neighbouring spaces
touch flat to flat, so their centres lie 32 mm apart and the 5 x 5 grid is
160 mm square, which with the edge homes fits either paper inside the
margin printers keep.  A board of another size changes that one number;
the page's 100 mm bar says whether it was printed at 100 %.
"""
from __future__ import annotations

import functools
import math
import os
from dataclasses import dataclass
from enum import StrEnum
from html import escape

from games.octiles import BOARD, SEATS, place
from games.octiles_places import corner
from referee.i18n import _

SPACE_MM = 32.0              # across a space's flats: the assumed board's grid (see above)
APOTHEM = SPACE_MM / 2       # neighbouring spaces touch side to side
CIRCLE_MM = 4.6              # radius of a circle: room for a name of three characters
SCALE_BAR_MM = 100.0         # the bar that checks the print's scale
GRID = 5                     # spaces per row and column


class Paper(StrEnum):
    A4 = "a4"
    LETTER = "letter"


SIZES = {Paper.A4: (210.0, 297.0), Paper.LETTER: (215.9, 279.4)}
SEAT_COLOURS = {"west": "#c0392b", "north": "#2471a3", "east": "#1e8449", "south": "#9a7d0a"}


@dataclass(frozen=True)
class Polygon:
    points: tuple[tuple[float, float], ...]
    fill: str
    place: str = ""          # the place it is, for a reader of the SVG


@dataclass(frozen=True)
class Circle:
    centre: tuple[float, float]
    r: float
    fill: str
    place: str = ""


@dataclass(frozen=True)
class Line:
    start: tuple[float, float]
    end: tuple[float, float]
    width: float
    dashed: bool = False
    role: str = ""           # "scale": the 100 mm bar


@dataclass(frozen=True)
class Text:
    x: float                 # the middle of the text's baseline
    y: float
    size: float              # the height of a capital letter's em, in mm
    text: str
    colour: str = "#000"
    bold: bool = False
    turn: float = 0          # degrees clockwise about (x, y)


Shape = Polygon | Circle | Line | Text


@dataclass(frozen=True)
class Drawing:
    width: float
    height: float
    shapes: tuple[Shape, ...]


def _toward(point: tuple[float, float], side: float, distance: float) -> tuple[float, float]:
    """``distance`` from ``point`` towards ``side`` (0 = north, clockwise,
    halves allowed); y grows down the page."""
    angle = side * math.pi / 4
    return point[0] + distance * math.sin(angle), point[1] - distance * math.cos(angle)


def drawing(paper: Paper) -> Drawing:
    """The overlay on ``paper``, its words in the box's language."""
    width, height = SIZES[paper]
    left = (width - GRID * SPACE_MM) / 2
    top = (height - GRID * SPACE_MM) / 2 + 6   # below the title's lines

    def centre(space: str) -> tuple[float, float]:
        column, row = ord(space[0]) - ord("a"), int(space[1])
        return left + (column + 0.5) * SPACE_MM, top + (GRID - row + 0.5) * SPACE_MM

    def side_point(slot: int) -> tuple[float, float]:
        return _toward(centre(BOARD.spaces[slot // 8]), slot % 8, APOTHEM)

    shapes: list[Shape] = []
    # The board's printed paths: links between two sides that do not touch.
    for slot, link in enumerate(BOARD.links):
        if 0 <= link and slot < link and math.dist(side_point(slot), side_point(link)) > 0.5:
            shapes.append(Line(side_point(slot), side_point(link), 1.2, dashed=True))
    rim = APOTHEM / math.cos(math.pi / 8)
    for space in BOARD.spaces:
        middle = centre(space)
        name = place(space)
        shapes.append(Polygon(tuple(_toward(middle, k + 0.5, rim) for k in range(8)), "#fdfaf3", name))
        shapes.append(Text(middle[0], middle[1] + 3.5, 10, name, bold=True))
    seat_of = {circle: seat for seat in SEATS for circle in BOARD.start_homes(seat)}
    for circle in BOARD.circles:
        number, side = corner(circle)
        point = side_point(8 * (number - 1) + side)
        if BOARD.is_stop(circle):
            # a stop sits at the corner between the spaces around it
            x, y = _toward(point, side, _corner_gap())
            fill, ink = "#ffffff", "#000"
        else:
            # an edge home sits off the one side it touches
            x, y = _toward(point, side, CIRCLE_MM + 1.0)
            fill, ink = SEAT_COLOURS[seat_of[circle]], "#fff"
        name = place(circle)
        shapes.append(Circle((x, y), CIRCLE_MM, fill, name))
        shapes.append(Text(x, y + 1.1, 3.2, name, ink, bold=True))
    shapes += _seats(width, height, left, top)
    shapes += _words(width, height)
    return Drawing(width, height, tuple(shapes))


def _corner_gap() -> float:
    """From a diagonal side's midpoint to the grid's corner beyond it, where
    a stop sits: the corner lies sqrt(2)/2 of a space from the centre."""
    return SPACE_MM * math.sqrt(2) / 2 - APOTHEM


def _seats(width: float, height: float, left: float, top: float) -> list[Shape]:
    """Each seat's name along its edge, in its homes' colour, with its start
    homes first to last, clockwise."""
    board = GRID * SPACE_MM
    out = 13.0   # beyond the edge homes
    at = {"west": (left - out, top + board / 2, -90), "north": (width / 2, top - out + 2.5, 0),
          "east": (left + board + out, top + board / 2, 90), "south": (width / 2, top + board + out, 0)}
    shapes: list[Shape] = []
    for seat in SEATS:
        x, y, turn = at[seat]
        homes = BOARD.start_homes(seat)
        text = _("{seat}: start homes {first}…{last}").format(seat=_(seat.title()), first=place(homes[0]),
                                                            last=place(homes[-1]))
        shapes.append(Text(x, y, 4.2, text, SEAT_COLOURS[seat], bold=True, turn=turn))
    return shapes


def _words(width: float, height: float) -> list[Shape]:
    """The title, how the names read, and the bar that checks the scale."""
    example = place("C3")
    how = _("{circle} is the circle {arrow} of space {n}. North is up.").format(
        circle=example, arrow=example[-1], n=example[:-1])
    bottom = height - 20
    x0, x1 = (width - SCALE_BAR_MM) / 2, (width + SCALE_BAR_MM) / 2
    return [Text(width / 2, 16, 6, _("Octiles: the box's names"), bold=True),
            Text(width / 2, 23, 3.6, _("Spaces: their numbers, as keyed. Circles: a space and an arrow:")),
            Text(width / 2, 28, 3.6, how),
            Line((x0, bottom), (x1, bottom), 0.8, role="scale"),
            Line((x0, bottom - 2), (x0, bottom + 2), 0.5), Line((x1, bottom - 2), (x1, bottom + 2), 0.5),
            Text(width / 2, bottom + 7, 3.4, _("This bar is 10 cm when printed at 100 % (no fit to page)."))]


# --- SVG ---------------------------------------------------------------------------

def svg(paper: Paper) -> str:
    """The overlay as an SVG document, sized in millimetres."""
    d = drawing(paper)
    parts = []
    for shape in d.shapes:
        match shape:
            case Polygon(points, fill, name):
                drawn = " ".join(f"{x:.2f},{y:.2f}" for x, y in points)
                parts.append(f'<polygon points="{drawn}" fill="{fill}" stroke="#333" stroke-width="0.5" '
                             f'data-place="{escape(name)}"/>')
            case Circle((x, y), r, fill, name):
                parts.append(f'<circle cx="{x:.2f}" cy="{y:.2f}" r="{r:.2f}" fill="{fill}" stroke="#333" '
                             f'stroke-width="0.35" data-place="{escape(name)}"/>')
            case Line((x0, y0), (x1, y1), width, dashed, role):
                dash = ' stroke-dasharray="1.6 1.2" stroke="#999"' if dashed else ' stroke="#000"'
                tag = f' data-role="{role}"' if role else ""
                parts.append(f'<line x1="{x0:.2f}" y1="{y0:.2f}" x2="{x1:.2f}" y2="{y1:.2f}" '
                             f'stroke-width="{width}"{dash}{tag}/>')
            case Text(x, y, size, text, colour, bold, turn):
                weight = ' font-weight="bold"' if bold else ""
                rotate = f' transform="rotate({turn:g} {x:.2f} {y:.2f})"' if turn else ""
                parts.append(f'<text x="{x:.2f}" y="{y:.2f}" font-size="{size}" fill="{colour}"{weight}{rotate}>'
                             f'{escape(text)}</text>')
    body = "\n  ".join(parts)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{d.width:g}mm" height="{d.height:g}mm" '
            f'viewBox="0 0 {d.width:g} {d.height:g}" font-family="DejaVu Sans, Verdana, sans-serif" '
            f'text-anchor="middle">\n'
            f'<title>{escape(_("Octiles: the box names for the board"))}</title>\n'
            f'<rect width="{d.width:g}" height="{d.height:g}" fill="#fff"/>\n  {body}\n</svg>\n')


# --- PDF ---------------------------------------------------------------------------

# DejaVu Sans draws the arrows and every letter of the four languages.
FONT_DIRS = ("/usr/share/fonts/truetype/dejavu", "/usr/local/share/fonts", os.path.expanduser("~/.local/share/fonts"))
FONT_FILES = {"": "DejaVuSans.ttf", "B": "DejaVuSans-Bold.ttf"}


class PdfMissing(RuntimeError):
    """What the PDF needs and is not installed: fpdf2, or DejaVu Sans."""


@functools.cache
def _font(style: str) -> str:
    for folder in FONT_DIRS:
        path = os.path.join(folder, FONT_FILES[style])
        if os.path.exists(path):
            return path
    raise PdfMissing(f"font {FONT_FILES[style]} not found: install the Debian package fonts-dejavu-core")


def _rgb(colour: str) -> tuple[int, int, int]:
    colour = colour.lstrip("#")
    if len(colour) == 3:
        colour = "".join(c * 2 for c in colour)
    r, g, b = (int(colour[i:i + 2], 16) for i in (0, 2, 4))
    return r, g, b


PT_PER_MM = 72 / 25.4


def pdf(paper: Paper) -> bytes:
    """The overlay as a one-page PDF of ``paper``'s size, drawn in vectors."""
    try:
        from fpdf import FPDF
    except ImportError as missing:   # a box installed from the lock has it
        raise PdfMissing("the PDF needs fpdf2, one of the box's packages: run the installer again") from missing
    d = drawing(paper)
    doc = FPDF(unit="mm", format=(d.width, d.height))
    doc.set_auto_page_break(False)
    doc.set_margin(0)
    doc.set_creator("Tabletop Referee")
    doc.set_title(_("Octiles: the box names for the board"))
    for style in FONT_FILES:
        doc.add_font("DejaVu", style, _font(style))
    doc.add_page()
    for shape in d.shapes:
        match shape:
            case Polygon(points, fill, _name):
                doc.set_fill_color(*_rgb(fill))
                doc.set_draw_color(51, 51, 51)
                doc.set_line_width(0.5)
                doc.polygon(points, style="DF")
            case Circle((x, y), r, fill, _name):
                doc.set_fill_color(*_rgb(fill))
                doc.set_draw_color(51, 51, 51)
                doc.set_line_width(0.35)
                doc.circle(x, y, r, style="DF")   # fpdf2 2.8: the centre and the radius
            case Line((x0, y0), (x1, y1), width, dashed, _role):
                doc.set_draw_color(*_rgb("#999" if dashed else "#000"))
                doc.set_line_width(width)
                doc.set_dash_pattern(1.6, 1.2) if dashed else doc.set_dash_pattern()
                doc.line(x0, y0, x1, y1)
                doc.set_dash_pattern()
            case Text(x, y, size, text, colour, bold, turn):
                doc.set_font("DejaVu", "B" if bold else "", size * PT_PER_MM)
                doc.set_text_color(*_rgb(colour))
                with doc.rotation(-turn, x, y):
                    doc.text(x - doc.get_string_width(text) / 2, y, text)
    return bytes(doc.output())


def main(argv: list[str] | None = None) -> None:
    """Write the overlay to a file, for a table without the web at hand."""
    import argparse
    import sys

    from referee import i18n

    parser = argparse.ArgumentParser(prog="python -m referee.octiles_overlay",
                                     description="Write the printable Octiles overlay: every space and circle "
                                                 "with the box's names, at the board's size.")
    parser.add_argument("out", help="the file to write: .svg or .pdf")
    parser.add_argument("--paper", choices=[p.value for p in Paper], default=Paper.A4.value)
    parser.add_argument("--lang", choices=("en", "cs", "pl", "ru"), default="en", help="the words' language")
    args = parser.parse_args(argv)
    i18n.use(args.lang)
    paper = Paper(args.paper)
    if args.out.lower().endswith(".svg"):
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(svg(paper))
    elif args.out.lower().endswith(".pdf"):
        try:
            drawn = pdf(paper)
        except PdfMissing as missing:
            sys.exit(str(missing))
        with open(args.out, "wb") as f:
            f.write(drawn)
    else:
        parser.error("the file's name ends in .svg or .pdf")


if __name__ == "__main__":
    main()
