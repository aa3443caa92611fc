"""The printable Octiles overlay on the web: ``/how/octiles/board.svg`` and
``.pdf``, ``?paper=a4`` (the default) or ``letter`` (``referee.octiles_overlay``);
``routes`` is Octiles' web hook (``referee.web.octiles``).

The box's QR code spells the address in capitals (a QR code holds them in
its compact mode), so the same files answer at ``/HOW/OCTILES/BOARD.PDF``.
Each file is drawn once per paper and language and kept: the board does not
change while the web runs.  The PDF takes seconds the first time (fpdf2 and
DejaVu Sans loaded, the glyphs subset), so it is drawn in a thread, never
on the loop that answers every phone.
"""
from __future__ import annotations

import asyncio
import functools

from aiohttp import web

from referee import i18n
from referee.octiles_overlay import Paper, PdfMissing, pdf, svg
from referee.web.bodies import Body, send

PATH = "/how/octiles/board"
KINDS = ("svg", "pdf")


def address(kind: str, paper: Paper = Paper.A4) -> str:
    """Where the web serves the overlay, for a link."""
    return f"{PATH}.{kind}" + ("" if paper == Paper.A4 else f"?paper={paper}")


@functools.lru_cache(maxsize=16)
def _drawn(kind: str, paper: Paper, lang: str) -> Body | bytes:
    # lang is part of the key: the words are drawn in the box's language.
    return Body.of(svg(paper), "svg") if kind == "svg" else pdf(paper)


def routes(app: web.Application) -> None:
    async def board(request: web.Request) -> web.StreamResponse:
        kind = request.match_info["kind"].lower()
        try:
            paper = Paper(request.query.get("paper", Paper.A4).lower())
        except ValueError:
            raise web.HTTPNotFound(reason="paper is a4 or letter") from None
        try:
            drawn = await asyncio.to_thread(_drawn, kind, paper, i18n.lang)
        except PdfMissing as missing:
            raise web.HTTPServiceUnavailable(reason=str(missing)) from None
        name = f'inline; filename="octiles-board-{paper}.{kind}"'
        if isinstance(drawn, Body):
            return send(request, drawn, {"Content-Disposition": name})
        return web.Response(body=drawn, content_type="application/pdf", headers={"Content-Disposition": name})

    for path in (PATH, PATH.upper()):
        app.router.add_get(path + ".{kind:svg|pdf|SVG|PDF}", board)
