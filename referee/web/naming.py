"""The setup's names page: the players type their names on a phone.

``/N/<token>`` is the capability a setup form shows as a QR code (see
``referee.naming``): it opens only while that form is on the box, and is a
plain 404 before and after, like an address that never existed.  The page
lists a field a seat (a team game: a list a team), with an "up" button a
name to reorder and, in a team game, a button to move a name to the other
team; tonight's names are offered as suggestions.  It works with JavaScript
off.  The setup is on the box, not in the store: the page asks the box what
to show and hands it what was typed over ``referee.channel`` (ops
``names.view`` and ``names.submit``, where ``referee.naming`` answers), and
its forms are guarded like a team page's (``referee.web.teams.forged``).

With JavaScript the page also posts its fields to ``/N/<token>/preview`` a
moment after typing pauses (``static/naming.js``): the box shows them
unsaved (op ``names.preview``), and the JSON answer names the fields whose
names the panels cannot take, which the page marks.  Saving is the form's
own submit either way.
"""
from __future__ import annotations

import types

from aiohttp import web

from games.base import NAME_LENGTH
from referee import channel, naming
from referee.i18n import _
from referee.web import guard, teams

TOKEN = r"{token:[A-Za-z2-7]{26}}"
COOKIE = teams.COOKIE


async def _ask(site, op: str, **fields) -> dict:
    try:
        return await site.box.ask(op, **fields)
    except channel.ChannelError:
        raise web.HTTPServiceUnavailable() from None


async def _view(site, token: str) -> dict:
    answer = await _ask(site, "names.view", token=token)
    if "view" not in answer:
        raise web.HTTPNotFound()
    return answer["view"]


def add_routes(app: web.Application, site) -> None:
    async def page(request: web.Request) -> web.Response:
        return _page(site, request, await _view(site, request.match_info["token"]))

    async def post(request: web.Request) -> web.Response:
        token = request.match_info["token"]
        view = await _view(site, token)
        fields = await guard.posted(request)
        if teams.forged(request, types.SimpleNamespace(csrf=view["csrf"]), fields):
            raise web.HTTPForbidden()
        answer = await _ask(site, "names.submit", token=token, fields=fields)
        if "refused" in answer:
            return _page(site, request, view, refused=answer["refused"], typed=fields, status=400,
                         why=answer.get("fields", {}))
        if not answer.get("ok"):
            raise web.HTTPNotFound()
        raise web.HTTPSeeOther(request.path)

    async def preview(request: web.Request) -> web.Response:
        token = request.match_info["token"]
        view = await _view(site, token)
        fields = await guard.posted(request)
        if teams.forged(request, types.SimpleNamespace(csrf=view["csrf"]), fields):
            raise web.HTTPForbidden()
        answer = await _ask(site, "names.preview", token=token, fields=fields)
        if not answer.get("ok"):
            raise web.HTTPNotFound()
        return web.json_response({"refused": answer.get("refused", {})}, headers={"Cache-Control": "no-store"})

    for prefix in ("/N/", "/n/"):
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
    most = max(seats) if seats else naming.MAX_SEATS
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


def _page(site, request, view: dict, refused: str = "", typed: dict | None = None,
          status: int = 200, why: dict | None = None) -> web.Response:
    titles = list(view["team_titles"]) if view.get("team_titles") else [_("Team 1"), _("Team 2")]
    rows = _rows(view, typed)
    why = why or {}
    # The alert names each refused field as its label does ("Seat 2: …"),
    # the field itself marked, its reason under it.
    if why:
        refused = [f"{_seat(view, titles, field)}: {text}" for field, text in why.items()]
    elif refused:
        refused = [refused]
    text = site.render("naming.html", title=view["title"], view=view, rows=rows, why=why,
                       team_titles=titles, csrf=view["csrf"], action=request.path, refused=refused or [],
                       saved=not refused and any(view["names"]), live=False, most=naming.MAX_SEATS,
                       length=NAME_LENGTH, scripts=("naming.js",))
    response = web.Response(text=text, status=status, content_type="text/html",
                            headers={"Cache-Control": "no-store"})
    response.set_cookie(COOKIE, view["csrf"], path=request.path, samesite="Strict", httponly=True)
    response.enable_compression()
    return response
