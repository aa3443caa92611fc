"""The league's page: every table live, tonight's standings, the history.

Same look and the same live stream as a box's score log (its stylesheet,
``base.html`` and ``live.js``); each answer is rendered once per change in
the league and kept, so a room full of phones costs one rendering.  The
box's web limits and headers too (``referee.web.guard``, aiohttp's own
error answers included), and its CSV (``referee.web.export``).  A date in
an address that is none, or far from now, is 404.

``/p/`` and ``/p/@<player>`` are every player's page over all the club's
tables, as a box's web shows its own and at the same addresses
(``referee.web.player_pages``), the games' tables named;
``/api/p/<player>.json`` the same as a file, and ``/api/p/ladder/<game>.json``
(``/<season>.json``) a ladder's.
"""
from __future__ import annotations

import asyncio
import datetime as dt
import json
import time

import msgspec
from aiohttp import web
from babel.dates import format_time
from markupsafe import Markup

from referee import catalogue, i18n
from referee.club import joins, messages
from referee.club.league import League, Played, follow
from referee.web import export, guard, live
from referee.web.app import environment, static_files
from referee.web.bodies import Body, PerChange, send
from referee.config import Ladder
from referee.web import ladder
from referee.web.history import evening_of
from referee.web import ladder_files
from referee.web.paths import DAY, LADDER_FILES, LADDERS, WHO
from referee.web.player_pages import (game_of, href, ladder_page, look_alikes, places, places_json, player_json,
                                      player_page, players_page, rivals_view, season_of, wanted)
from referee.web.player_stats import ORDERS, Player, everyone, player



def _known(found: Player | None) -> Player:
    """The player ``wanted`` found; one it did not is 404 there already."""
    if found is None:
        raise web.HTTPNotFound()
    return found


class LeagueSite:
    def __init__(self, league: League, clock=time.time, ladder: Ladder | None = None) -> None:
        self.league = league
        self.clock = clock
        self.ladder = ladder or Ladder()    # config.toml's [ladder]
        self.hub = live.Hub()
        league.on_change = self.hub.changed
        self.static = static_files()
        self.env = environment(self.static, "referee.club", "referee.web")   # the score log's base.html
        self._kept = PerChange()
        # Each merge's row of tonight's page as last rendered, by what it says: a
        # merge taken changes one row, and 10 000 rows rendered again at every
        # change made the league's page its only cost (85 ms a page).
        self._rows: dict[tuple, str] = {}
        self.env.globals["merge_rows"] = self._merge_rows

    def cached(self, key: str, make) -> Body:
        # Bounded like the score log's pages: any day or name in an address
        # is a new key, and a crawler must not fill the league's memory.
        stamp = (self.league.version, dt.date.fromtimestamp(self.clock()), i18n.lang)
        return self._kept.get(stamp, key, make)

    def _page(self, template: str, **context) -> Body:
        titles = {g.name: catalogue.title(g.name) for g in catalogue.on_menu()}
        points = [(g.name, i18n._(g.league_points)) for g in catalogue.league_points()]
        html = self.env.get_template(template).render(version=self.hub.version, lang=i18n.lang, titles=titles,
                                                       points=points,
                                                       clock=_clock, player_href=self._href, **context)
        return Body.of(html, "html")

    def _merge_rows(self, merges: list[dict]) -> Markup:
        """The page's rows of ``merges`` (``joins.shown``), each rendered once
        for what it says in the page's language; rows no longer shown are
        forgotten, so that the kept rows are at most the merges in effect."""
        row = self.env.get_template("league-merge.html")
        kept: dict[tuple, str] = {}
        rows = []
        for j in merges:
            said = (i18n.lang, j["table"], j["name"], j["into"], j["joined"], j["text"])
            html = kept[said] = kept.get(said) or self._rows.get(said) or row.render(j=j)
            rows.append(html)
        self._rows = kept
        return Markup("\n".join(rows))

    def _href(self, name: str) -> str | None:
        """A name's player page, if it has one (a game of it counted)."""
        return href(name) if self.league.players.who(name) in self.league.players.names else None

    # --- pages ---------------------------------------------------------------------------

    async def tonight(self, request: web.Request) -> web.Response:
        def make():
            return self._page("league.html", title=i18n._("League"), live=True, tonight=True,
                              **self.league.tonight(self.clock()))
        return send(request, self.cached("/", make))

    async def evenings(self, request: web.Request) -> web.Response:
        return send(request, self.cached("/e/", lambda: self._page(
            "league-evenings.html", title=i18n._("All evenings"), live=False, days=self.league.evenings())))

    async def earlier(self, request: web.Request) -> web.Response:
        day = _day(request, self.clock())
        return send(request, self.cached(f"/e/{day}", lambda: self._page(
            "league.html", title=i18n._("League"), live=False, tonight=False, day=day, tables=[], broker=True,
            **self.league.evening(day))))

    async def api(self, request: web.Request) -> web.Response:
        """JSON of an evening; ``.csv`` and ``.json`` as files to keep."""
        kind = request.match_info.get("kind")
        day = request.match_info.get("day")
        data = self.league.evening(_day(request, self.clock())) if day else self.league.tonight(self.clock())
        if kind == "csv":
            body = Body.of(_csv(data["games"]), "csv")
        else:
            body = Body.of(msgspec.json.encode(data).decode(), "json")
        if kind is None:
            return send(request, body)
        name = f"league-{day or dt.date.fromtimestamp(self.clock())}.{kind}"
        return send(request, body, {"Content-Disposition": f'attachment; filename="{name}"'})

    async def players(self, request: web.Request) -> web.Response:
        order = request.query.get("by", "games")
        if order not in ORDERS:
            raise web.HTTPBadRequest()
        rater = self.league.players
        return send(request, self.cached(f"/p/?by={order}", lambda: self._page(
            "league-players.html", live=False, **players_page(everyone(rater, order), order, len(rater.ordered()),
                                                              ladder.games(rater)))))

    async def leaderboard(self, request: web.Request) -> web.Response:
        """A game's ladder over every table, all-time or a season's."""
        game, season = game_of(request), season_of(request, self.ladder)
        rater = self.league.players
        return send(request, self.cached(request.path, lambda: self._page(
            "league-ladder.html", live=False,
            **ladder_page(rater, game, self.ladder, evening_of(self.clock()), season))))

    async def leaderboard_file(self, request: web.Request) -> web.Response:
        """The same ladder as JSON (``referee.web.ladder_files``)."""
        game, season = game_of(request), season_of(request, self.ladder)
        rater = self.league.players
        return send(request, self.cached(request.path, lambda: Body.of(json.dumps(
            ladder_files.ladder_file(rater, game, self.ladder, evening_of(self.clock()), season),
            ensure_ascii=False), "json")))

    def _who(self, request: web.Request) -> str:
        return wanted(self.league.players, request)

    async def player(self, request: web.Request) -> web.Response:
        who = self._who(request)

        def make():
            rater = self.league.players
            page = player_page(_known(player(rater, who)), look_alikes(rater, who))
            for last in page["last"]:
                last["table"] = self.league.tables_of.get(last["game"], "")
            page["joined"] = joins.joined_line(self.league.verdicts, self.league.players.aliases, who)
            # The league keeps no game's page: a game's link is its evening's.
            return self._page("league-player.html", live=False, **page,
                              places=places(rater, who, self.ladder, evening_of(self.clock())),
                              **rivals_view(rater, who, lambda result: f"/e/{evening_of(result.started or result.ended)}",
                                            lambda result: self.league.tables_of.get(result.game, "")))
        return send(request, self.cached(f"/p/{who}", make))

    async def player_file(self, request: web.Request) -> web.Response:
        who = self._who(request)
        body = self.cached(f"/api/p/{who}.json", lambda: Body.of(
            json.dumps(player_json(_known(player(self.league.players, who)),
                                   places_json(self.league.players, who, self.ladder, evening_of(self.clock()))),
                       ensure_ascii=False), "json"))
        return send(request, body, {"Content-Disposition": 'attachment; filename="player.json"'})

    async def stream(self, request: web.Request) -> web.StreamResponse:
        return await self.hub.stream(request)

    async def static_file(self, request: web.Request) -> web.Response:
        body = self.static.get(request.match_info["name"])
        if body is None:
            raise web.HTTPNotFound()
        return send(request, body, {"Cache-Control": "public, max-age=31536000, immutable"})


def _day(request: web.Request, now: float) -> dt.date:
    """The evening in the address: 404 for a date that is none, and for one
    outside the times the league takes (nothing is kept there, and the
    clock's arithmetic fails far from now)."""
    try:
        day = dt.date.fromisoformat(request.match_info["day"])
    except ValueError:
        raise web.HTTPNotFound() from None
    today = dt.date.fromtimestamp(now)
    if not today - dt.timedelta(seconds=messages.PAST) <= day <= today + dt.timedelta(days=1):
        raise web.HTTPNotFound()
    return day


def _clock(at: float) -> str:
    return format_time(dt.datetime.fromtimestamp(at), "short", locale=i18n.lang)


def _csv(games: list[Played]) -> str:
    """A row per player and game: what a spreadsheet needs to total a league,
    written as the box writes its own files (``referee.web.export``)."""
    rows: list[list[object]] = [["table", "game_id", "game", "status", "started", "player", "total", "winner"]]
    for g in games:
        for name in g.players:
            rows.append([g.table, g.id, g.game, g.status,
                         dt.datetime.fromtimestamp(g.started).isoformat(timespec="seconds"), name,
                         g.totals.get(name, ""), int(name in g.winners)])
    return export.csv_text(rows)


def make_app(site: LeagueSite) -> web.Application:
    async def headers(request: web.Request, response: web.StreamResponse) -> None:
        guard.secure(response.headers)

    async def close_streams(app: web.Application) -> None:
        site.hub.close()

    app = web.Application(client_max_size=1024)
    app.on_response_prepare.append(headers)
    app.on_shutdown.append(close_streams)
    get = app.router.add_get
    get("/", site.tonight)
    get("/e/", site.evenings)
    get(f"/e/{DAY}", site.earlier)
    get("/live", site.stream)
    get("/static/{name}", site.static_file)
    get("/p/", site.players)
    for path in LADDERS:
        get(path, site.leaderboard)
    get(f"/p/{WHO}", site.player)
    get(f"/api/p/{WHO}.{{kind:json}}", site.player_file)
    for path in LADDER_FILES:
        get(path, site.leaderboard_file)
    get("/api/tonight", site.api)
    get("/api/tonight.{kind:csv|json}", site.api)
    get(f"/api/e/{DAY}", site.api)
    get(f"/api/e/{DAY}.{{kind:csv|json}}", site.api)
    return app


async def serve(config, database: str, host: str, port: int) -> None:
    """``referee league``: follow the club and serve its page until stopped."""
    import logging
    import signal

    from referee.files import opened
    i18n.use(config.lang)
    league = opened(database, League, logging.getLogger("referee.league"),
                    "a new one is begun, and the boxes' retained messages fill it again")
    site = LeagueSite(league, ladder=config.ladder)
    app = make_app(site)
    # Within the box's web limits, and aiohttp's own error answers with the headers too.
    runner = web.AppRunner(app, access_log=None, shutdown_timeout=2.0, **guard.HANDLER_ARGS)
    await runner.setup()
    guard.secure_requests(runner, app)
    await guard.GuardedSite(runner, host, port).start()
    logging.getLogger("referee.league").info("league: the page is at http://%s:%d/", host, port)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    following = loop.create_task(follow(config, league, stop))
    try:
        await stop.wait()
    finally:
        following.cancel()
        await runner.cleanup()
        league.close()
