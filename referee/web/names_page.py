"""The setup's names page: the players type their names on a phone.

``/N/<token>`` is the capability a setup form shows as a QR code (see
``referee.setup_names``): it opens only while that form is on the box, and is a
plain 404 before and after, like an address that never existed.  The page
lists a field a seat (a team game: a list a team), with an "up" button a
name to reorder and, in a team game, a button to move a name to the other
team; tonight's names are offered as suggestions.  It works with JavaScript
off.  The setup is on the box, not in the store: the page asks the box what
to show and hands it what was typed over ``referee.channel`` (ops
``names.view`` and ``names.submit``, where ``referee.setup_names`` answers), and
its forms are guarded like a team page's (``referee.web.team_pages.forged``).
Only the page open now is handed on: the box names it with every change it
tells the web of (``referee.channel``'s watch), so that an address made up
by a guest costs the box nothing (``OpenPage``).

A name the box takes may still look just like another player's, tonight's
or another seat's ("Ola" and "0la"): the page warns of it under the field
(``warnings``), as it is typed and once saved, and names the other.  It is
a warning, not a refusal: Unicode's look-alike data is the web's to hold
(``referee.look_alike``), and a table may mean two people all the same.
"""
from __future__ import annotations

import asyncio
import hmac
import re

from aiohttp import web

from games.base import NAME_LENGTH, Illegal, clean_name
from referee import channel, setup_names
from referee.look_alike import look_alike
from referee.i18n import _
from referee.web import guard, team_pages
from referee.web.paths import TOKEN, both_cases

COOKIE = team_pages.COOKIE
ASK_GAP = 0.2   # seconds between two questions to the box about which page is open
NAME_FIELD = re.compile(r"(?:t[12])?n[1-9]")   # a seat's field: n1…, or t1n1… team by team


class OpenPage:
    """Which names page the box has open.  While the web is told of every
    change, it knows: any other address is refused here.  Only while it is
    not (the box restarting) is the box asked (op ``names.open``), one
    question at a time, ``ASK_GAP`` apart, shared by every request waiting
    for it: the address itself never goes to the box."""

    def __init__(self, client: channel.Client) -> None:
        self.channel = client
        self.token: str | None = None
        self.asked = 0
        self._last = -ASK_GAP
        self._asking: asyncio.Future | None = None

    async def is_open(self, token: str) -> bool:
        if self.channel.watching:
            return _same(self.channel.names, token)
        if _same(self.token, token):
            return True
        if self._asking is None:
            self._asking = asyncio.ensure_future(self._ask())
        await asyncio.shield(self._asking)
        return _same(self.token, token)

    async def _ask(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            wait = self._last + ASK_GAP - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
            self.asked += 1
            token = (await self.channel.ask("names.open")).get("token")
            self.token = token if isinstance(token, str) else None
        finally:
            self._last = loop.time()
            self._asking = None


def _same(known: str | None, token: str) -> bool:
    return known is not None and hmac.compare_digest(known.encode(), token.upper().encode())


async def ask(site, op: str, **fields) -> dict:
    """The box's answer to a capability page's request; 503 while the box
    cannot be reached (the merge page asks the same way)."""
    try:
        return await site.channel.ask(op, **fields)
    except channel.ChannelError:
        raise web.HTTPServiceUnavailable() from None


async def posted(request: web.Request, view: dict) -> dict:
    """The fields a capability page's form sent, once the page's secret in
    them is checked (the merge page checks its own the same way)."""
    fields = await guard.posted(request)
    if team_pages.forged(request, view["csrf"], fields):
        raise web.HTTPForbidden()
    return fields


async def _view(site, open_page: OpenPage, token: str) -> dict:
    try:
        known = await open_page.is_open(token)
    except channel.ChannelError:
        raise web.HTTPServiceUnavailable() from None
    if not known:
        raise web.HTTPNotFound()
    answer = await ask(site, "names.view", token=token)
    if "view" not in answer:
        raise web.HTTPNotFound()
    return answer["view"]


OPEN_PAGE = web.AppKey("names_open_page", OpenPage)


def add_routes(app: web.Application, site) -> None:
    open_page = app[OPEN_PAGE] = OpenPage(site.channel)

    async def page(request: web.Request) -> web.Response:
        return _page(site, request, await _view(site, open_page, request.match_info["token"]))

    async def post(request: web.Request) -> web.Response:
        token = request.match_info["token"]
        view = await _view(site, open_page, token)
        fields = await posted(request, view)
        answer = await ask(site, "names.submit", token=token, fields=fields)
        if "refused" in answer:
            return _page(site, request, view, refused=answer["refused"], typed=fields, status=400,
                         why=answer.get("fields", {}))
        if not answer.get("ok"):
            raise web.HTTPNotFound()
        raise web.HTTPSeeOther(request.path)

    async def preview(request: web.Request) -> web.Response:
        token = request.match_info["token"]
        view = await _view(site, open_page, token)
        fields = await posted(request, view)
        answer = await ask(site, "names.preview", token=token, fields=fields)
        if not answer.get("ok"):
            raise web.HTTPNotFound()
        refused = answer.get("refused", {})
        return web.json_response({"refused": refused, "warned": warnings(view, fields, refused)},
                                 headers={"Cache-Control": "no-store"})

    for prefix in both_cases("n"):
        app.router.add_get(prefix + TOKEN, page)
        app.router.add_post(prefix + TOKEN, post)
        app.router.add_post(prefix + TOKEN + "/preview", preview)


def _seat(view: dict, titles: list[str], field: str) -> str:
    """A field's seat as the page labels it: "Seat 2", or "Black, seat 2"."""
    team, _sep, n = field.rpartition("n")
    seat = _("Seat {n}").format(n=n)
    if team and view["teams"]:
        return f"{titles[int(team[1:]) - 1]}, {seat[:1].lower()}{seat[1:]}"
    return seat


def _rows(view: dict, typed: dict | None) -> list[dict]:
    """The lists of fields: one for seats, or one a team; a refused post
    keeps what was typed."""
    seats = view["seats"]
    most = max(seats) if seats else setup_names.MAX_SEATS
    if view["teams"]:
        given = view["names"] or [[], []]
        lists = [(f"t{t + 1}n", given[t] if t < len(given) else [], 4) for t in (0, 1)]
    else:
        lists = [("n", view["names"], most)]
    rows = []
    for prefix, names, size in lists:
        values = [(typed or {}).get(f"{prefix}{i}", names[i - 1] if i <= len(names) else "")
                  for i in range(1, size + 1)]
        rows.append({"prefix": prefix, "values": values})
    return rows


def warnings(view: dict, fields: dict[str, str], refused: dict) -> dict[str, str]:
    """By field, a name that looks just like another player's: another
    seat's on this page, or one typed tonight (``view["roster"]``)."""
    names = {}
    for field, value in fields.items():
        if NAME_FIELD.fullmatch(field) and field not in refused and value.strip():
            try:
                names[field] = clean_name(value)
            except Illegal:
                continue
    warned = {}
    for field, name in names.items():
        other = look_alike(name, [n for f, n in names.items() if f != field] + list(view.get("roster", ())))
        if other is not None:
            warned[field] = _("Looks just like {other}, another player: no page could tell the two apart. "
                              "If it is one person, type the name as before.").format(other=other)
    return warned


def _page(site, request, view: dict, refused: str = "", typed: dict | None = None,
          status: int = 200, why: dict | None = None) -> web.Response:
    titles = list(view["team_titles"]) if view.get("team_titles") else [_("Team 1"), _("Team 2")]
    rows = _rows(view, typed)
    why = why or {}
    # The alert names each refused field as its label does ("Seat 2: …"),
    # the field itself marked, its reason under it.
    if why:
        alerts = [f"{_seat(view, titles, field)}: {text}" for field, text in why.items()]
    else:
        alerts = [refused] if refused else []
    shown = {f"{row['prefix']}{n}": value for row in rows for n, value in enumerate(row["values"], 1)}
    text = site.render("names.html", title=view["title"], view=view, rows=rows, why=why,
                       warned=warnings(view, shown, why),
                       team_titles=titles, csrf=view["csrf"], action=request.path, refused=alerts,
                       saved=not alerts and any(view["names"]), live=False, most=setup_names.MAX_SEATS,
                       length=NAME_LENGTH, scripts=("names.js",))
    response = web.Response(text=text, status=status, content_type="text/html",
                            headers={"Cache-Control": "no-store"})
    response.set_cookie(COOKIE, view["csrf"], path=request.path, samesite="Strict", httponly=True)
    response.enable_compression()
    return response
