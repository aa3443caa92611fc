"""How to play, on every phone: ``/how/`` lists the games, ``/how/<game>``
teaches one (``referee.guide``'s ``GUIDE`` of the game, in the box's
language), with the box's own screens as pictures.

The pictures are drawn by ``referee.tools.how`` (``make how``) from
scripted games on the virtual table and kept in ``referee/web/how``, one
folder a game and language; they are served as they are, kept a day.
``/HOW/<GAME>/<PHASE>`` (the address in the box's Help QR code, upper case
for the QR code's compact mode) sends the phone to the phase on the page.
The page needs no script: it is all HTML.
"""
from __future__ import annotations

import functools
import hashlib
from importlib import resources

from aiohttp import web

from referee import catalogue, glossary, guide, i18n
from referee.i18n import _
from referee.web import paths
from referee.web.bodies import Body, send

DAY = 24 * 3600


@functools.cache
def picture(game: str, lang: str, shot: str) -> bytes | None:
    """A kept picture's PNG bytes, or None where there is none."""
    item = resources.files("referee.web") / "how" / game / lang / f"{shot}.png"
    return item.read_bytes() if item.is_file() else None


def address(game: str, lang: str, shot: str) -> str:
    """A picture's address, which changes with its content (``make how``
    drawing it again), as the static files' do: phones keep it a day."""
    body = picture(game, lang, shot) or b""
    return f"/how/{game}/{lang}/{shot}.png?v={hashlib.blake2b(body, digest_size=6).hexdigest()}"


def games() -> list[tuple[str, str]]:
    """(game, its name in the box's language) of every game the pages teach."""
    return [(game, catalogue.title(game)) for game in guide.games()]


def add_routes(app: web.Application, site) -> None:
    async def index(request: web.Request) -> web.Response:
        def make() -> Body:
            return site.html("how-index.html", title=_("How to play"), live=False, games=games())
        return send(request, site.cached(request, make))

    async def page(request: web.Request) -> web.Response:
        game = request.match_info["game"]
        told = guide.of(game)
        if told is None:
            raise web.HTTPNotFound()

        def make() -> Body:
            return site.html("how.html", title=_("How to play {game}").format(game=catalogue.title(game)),
                             live=False, game=game, guide=told, words=glossary.defined(game),
                             picture=lambda shot: address(game, i18n.lang, shot))
        return send(request, site.cached(request, make))

    async def phase(request: web.Request) -> web.Response:
        game, phase = request.match_info["game"].lower(), request.match_info.get("phase", "").lower()
        told = guide.of(game)
        if told is None or phase and phase not in [p.id for p in told.phases]:
            raise web.HTTPNotFound()
        raise web.HTTPFound(f"/how/{game}#{phase}" if phase else f"/how/{game}")

    async def image(request: web.Request) -> web.Response:
        game, lang, shot = (request.match_info[k] for k in ("game", "lang", "shot"))
        body = picture(game, lang, shot) if game in guide.games() and lang in i18n.LANGS else None
        if body is None:
            raise web.HTTPNotFound()
        return web.Response(body=body, content_type="image/png", headers={"Cache-Control": f"max-age={DAY}"})

    get = app.router.add_get
    get("/how/", index)
    get(f"/how/{paths.KIND}", page)
    get(f"/how/{paths.KIND}/{paths.LANG}/{paths.PICTURE}.png", image)
    get(f"/HOW/{paths.KIND_ANY_CASE}", phase)
    for prefix in paths.both_cases("how"):
        get(f"{prefix}{paths.KIND_ANY_CASE}/{paths.PHASE}", phase)
