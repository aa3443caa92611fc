"""The printable Octiles overlay: every space and circle with the box's
name for it, on A4 and Letter, as SVG and PDF, at the board's size.

The rulebook states no size for the board: the overlay takes a space to be
32 mm across its flats (``referee.octiles_overlay.SPACE_MM``), so the
centres of two neighbouring spaces lie 32 mm apart on paper.  Both files are
read back as a printer would: the SVG's millimetres, the PDF's page box and
the points of its drawing."""
from __future__ import annotations

import math
import re
import xml.etree.ElementTree as ET
import zlib

import aiohttp
import pytest

from games import octiles as oc
from referee.octiles_overlay import SCALE_BAR_MM, SPACE_MM, Paper, pdf, svg
from referee.testing import Table

SVG_NS = {"svg": "http://www.w3.org/2000/svg"}
PAGES_MM = {Paper.A4: (210.0, 297.0), Paper.LETTER: (215.9, 279.4)}
PT = 72 / 25.4          # PDF points per millimetre
NAMES = {oc.place(x) for x in (*oc.BOARD.spaces, *oc.BOARD.circles)}


def centre(points) -> tuple[float, float]:
    return sum(x for x, _y in points) / len(points), sum(y for _x, y in points) / len(points)


def svg_places(drawn: str) -> tuple[ET.Element, dict[str, tuple[float, float]]]:
    root = ET.fromstring(drawn)
    at = {}
    for polygon in root.iterfind("svg:polygon", SVG_NS):
        points = [tuple(map(float, p.split(","))) for p in polygon.get("points").split()]
        at[polygon.get("data-place")] = centre(points)
    for circle in root.iterfind("svg:circle", SVG_NS):
        at[circle.get("data-place")] = (float(circle.get("cx")), float(circle.get("cy")))
    return root, at


@pytest.mark.parametrize("paper", list(Paper))
def test_the_svg_overlay_is_the_paper_and_the_board_at_their_real_size(paper):
    root, at = svg_places(svg(paper))
    width, height = PAGES_MM[paper]
    assert (root.get("width"), root.get("height")) == (f"{width:g}mm", f"{height:g}mm")
    assert root.get("viewBox") == f"0 0 {width:g} {height:g}"      # one unit, one millimetre
    assert set(at) == NAMES and len(at) == 17 + 36
    # neighbouring spaces, side by side and one above the other
    assert math.dist(at["1"], at["2"]) == pytest.approx(SPACE_MM, abs=0.01)
    assert math.dist(at["1"], at["3"]) == pytest.approx(SPACE_MM, abs=0.01)
    # a stop lies at the corner between its spaces: 8↘ among 8, 9, 13 and 14
    assert all(math.dist(at["8↘"], at[n]) == pytest.approx(SPACE_MM / math.sqrt(2), abs=0.01)
               for n in ("8", "9", "13", "14"))
    bar = root.find("svg:line[@data-role='scale']", SVG_NS)
    assert float(bar.get("x2")) - float(bar.get("x1")) == pytest.approx(SCALE_BAR_MM)
    # every place is labelled with its name, and all of it lies on the paper
    labels = {t.text for t in root.iterfind("svg:text", SVG_NS)}
    assert NAMES <= labels
    assert all(5 <= x <= width - 5 and 5 <= y <= height - 5 for x, y in at.values())


# The tokens of a content stream: strings, hex strings, names, arrays'
# brackets, numbers, operators.
TOKEN = re.compile(rb"\((?:\\.|[^\\)])*\)|<[0-9A-Fa-f\s]*>|/[^\s/\[\]()<>]+|[\[\]]|[-+]?[\d.]+|[A-Za-z'\"*]+", re.S)


def pdf_paths(document: bytes) -> tuple[list[float], list[list[tuple[float, float]]]]:
    """The page's box and every path the page draws, as the points its
    operators move and draw to (in PDF points, y up)."""
    box = [float(v) for v in re.search(rb"/MediaBox\s*\[([^\]]*)\]", document).group(1).split()]
    paths: list[list[tuple[float, float]]] = []
    for stream in re.findall(rb"stream\r?\n(.*?)\r?\nendstream", document, re.S):
        try:
            ops = zlib.decompress(stream)
        except zlib.error:
            continue
        if b" Tf" not in ops and b" m" not in ops:
            continue   # a font's own data
        numbers: list[float] = []
        for token in TOKEN.findall(ops):
            if re.fullmatch(rb"[-+]?[\d.]+", token):
                numbers.append(float(token))
                continue
            if token == b"m":
                paths.append([tuple(numbers[-2:])])
            elif token in (b"l", b"c"):
                paths[-1].append(tuple(numbers[-2:]))   # a curve's end point
            numbers = []
    return box, paths


@pytest.mark.parametrize("paper", list(Paper))
def test_the_pdf_overlay_is_the_paper_and_the_board_at_their_real_size(paper):
    document = pdf(paper)
    assert document.startswith(b"%PDF-")
    box, paths = pdf_paths(document)
    width, height = PAGES_MM[paper]
    assert box[2] / PT == pytest.approx(width, abs=0.01) and box[3] / PT == pytest.approx(height, abs=0.01)
    octagons = [centre(p) for p in paths if len(p) == 8]
    rings = [centre(p) for p in paths if len(p) == 5]       # a circle: four Bézier quarters from its start
    assert len(octagons) == 17 and len(rings) == 36
    nearest = min(math.dist(a, b) for a in octagons for b in octagons if a != b)
    assert nearest / PT == pytest.approx(SPACE_MM, abs=0.01)
    # the same drawing as the SVG: each space where the SVG has it (y turned up)
    _root, at = svg_places(svg(paper))
    spaces = sorted((x / PT, height - y / PT) for x, y in octagons)
    expected = sorted(at[oc.place(s)] for s in oc.BOARD.spaces)
    assert [v for p in spaces for v in p] == pytest.approx([v for p in expected for v in p], abs=0.01)
    bar = [p for p in paths if len(p) == 2 and p[0][1] == p[1][1]
           and abs(p[1][0] - p[0][0]) / PT == pytest.approx(SCALE_BAR_MM, abs=0.01)]
    assert len(bar) == 1


def test_the_web_serves_the_overlay_and_the_box_points_its_qr_code_at_it():
    with Table(seed=7, lang="pl") as t:
        t.start("octiles", players=2)
        t.type("D1DD")                       # More, the map, its last page
        address = re.search(r"QR (\S+)", t.screen()).group(1)
        path = address.removeprefix(t.box.public_url())
        web = t.web_url()

        async def fetch(where: str) -> tuple[int, str, bytes]:
            async with aiohttp.ClientSession() as session:
                async with session.get(web + where.lstrip("/")) as r:
                    return r.status, r.content_type, await r.read()

        def get(where: str) -> tuple[int, str, bytes]:
            return t.loop.run_until_complete(fetch(where))

        status, kind, body = get(path)
        assert (path, status, kind) == ("HOW/OCTILES/BOARD.PDF", 200, "application/pdf")
        box, paths = pdf_paths(body)
        assert (box[2] / PT, box[3] / PT) == pytest.approx(PAGES_MM[Paper.A4], abs=0.01)
        assert len([p for p in paths if len(p) == 8]) == 17
        status, kind, body = get("/how/octiles/board.svg?paper=letter")
        assert (status, kind) == (200, "image/svg+xml") and 'width="215.9mm"' in body.decode()
        assert "Zachód: domki startowe 12↓…7↖" in body.decode()    # the words in the box's language
        assert get("/how/octiles/board.pdf?paper=b5")[0] == 404


def test_the_octiles_sheet_and_how_to_play_link_the_overlay():
    with Table(seed=7, lang="en") as t:
        t.start("octiles", players=2)
        pages = [t.get(f"/g/{t.log()[-1]['id']}")[2], t.get("/how/octiles")[2]]
        others = t.get("/how/decrypto")[2]
    for page in pages:
        links = re.findall(r'href="(/how/octiles/board\.[^"]+)"', page)
        assert links == ["/how/octiles/board.pdf", "/how/octiles/board.pdf?paper=letter", "/how/octiles/board.svg"]
    assert "/how/octiles/board" not in others
