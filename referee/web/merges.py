"""The page that merges two names of one player: ``/M/<token>``.

The box's Settings show its address as a QR code (``referee.merging``): it
opens only while that code is up, and is a plain 404 before and after.  It
lists every player the ledger knows, merges one name into another ("A
becomes B") and takes a merge back.  The merges are the box's to keep: the
page asks it over ``referee.channel`` (``merges.view``, ``merges.merge``,
``merges.undo``) and the players' ledger counts every game again once the
store holds them.  Like the names page it works with JavaScript off and
its forms are guarded as a team page's are (``referee.web.team_pages.forged``).

Two names that sat in one game are two people: the page does not merge
them (the ledger would rate such a game for the first of them only).  The
page's check is for its message, in the names the players' pages show; the
box checks again where it writes (``referee.merging.check``), so that two
posts at once, each checked before the other's merge, are not both taken.
"""
from __future__ import annotations

import hmac

from aiohttp import web

from referee.i18n import _
from referee.web import team_pages
from referee.web.names_page import ask, posted
from referee.web.paths import TOKEN, both_cases
from referee.web.player_pages import BOOK
from referee.web.player_stats import everyone

async def _view(site, token: str) -> dict:
    # While the web is told of every change it knows which page is open:
    # a made-up address costs the box nothing.
    if site.channel.watching and (site.channel.merges is None
                                  or not hmac.compare_digest(site.channel.merges.encode(), token.upper().encode())):
        raise web.HTTPNotFound()
    answer = await ask(site, "merges.view", token=token)
    if "view" not in answer:
        raise web.HTTPNotFound()
    return answer["view"]


def add_routes(app: web.Application, site) -> None:
    book = app[BOOK]    # the players' pages' (``player_pages.add_routes``, first)

    async def page(request: web.Request) -> web.Response:
        view = await _view(site, request.match_info["token"])
        return _page(site, request, view, await book.fresh())

    async def post(request: web.Request) -> web.Response:
        token = request.match_info["token"]
        view = await _view(site, token)
        fields = await posted(request, view)
        ledger = await book.fresh()
        undo = fields.get("undo", "")
        if undo.isascii() and undo.isdigit():      # "²".isdigit() too, which int() refuses
            answer = await ask(site, "merges.undo", token=token, id=int(undo))
        else:
            from_key, into_key = fields.get("from", ""), fields.get("into", "")
            if from_key not in ledger.names or into_key not in ledger.names:
                return _page(site, request, view, ledger, _("Choose two players."), 400)
            if set(ledger.games[from_key]) & set(ledger.games[into_key]):
                return _page(site, request, view, ledger,
                             _("{name} and {other} played in one game: they are two players.").format(
                                 name=ledger.names[from_key], other=ledger.names[into_key]), 400)
            answer = await ask(site, "merges.merge", token=token, from_key=from_key, into_key=into_key)
        if "refused" in answer:
            return _page(site, request, view, ledger, answer["refused"], 400)
        if not answer.get("ok"):
            raise web.HTTPNotFound()
        raise web.HTTPSeeOther(request.path)

    for prefix in both_cases("m"):
        app.router.add_get(prefix + TOKEN, page)
        app.router.add_post(prefix + TOKEN, post)


def _page(site, request, view: dict, ledger, refused: str = "", status: int = 200) -> web.Response:
    players = [{"key": p.key, "name": p.name, "played": p.played} for p in everyone(ledger, "name")]
    shown = {**ledger.spelled, **ledger.names}
    merges = [{"id": m["id"], "from": shown.get(m["from"], m["from"]), "into": shown.get(m["into"], m["into"])}
              for m in reversed(view["merges"])]
    text = site.render("merges.html", title=_("Merge names"), players=players, merges=merges,
                       csrf=view["csrf"], action=request.path, refused=refused, live=False)
    response = web.Response(text=text, status=status, content_type="text/html",
                            headers={"Cache-Control": "no-store"})
    response.set_cookie(team_pages.COOKIE, view["csrf"], path=request.path, samesite="Strict", httponly=True)
    response.enable_compression()
    return response
