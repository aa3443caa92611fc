"""The web server: routes, pages, headers and errors, in the web process.

Public answers are pure functions of the store and the evening, so each is
rendered once per (page, language, store version) and kept, compressed,
until the next change (``Site.cached``): fifty phones refreshing at once, or
one phone adding a new query string to every request, cost one rendering.
Team pages are rendered per request and never kept anywhere.  What a team
page sends goes to the box over ``referee.channel``, where the rules judge
it.

Pages speak the box's language (``referee.i18n``, chosen under Settings at
the table): templates through Jinja's i18n extension, view code through
``_``.  A language switch counts as a change: kept pages go, and open pages
fetch themselves again.  The API and the files stay English.
"""
from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import json
import logging
from importlib import resources

from aiohttp import web
from aiohttp.http_exceptions import HttpProcessingError
from aiohttp.typedefs import Handler, Middleware
from aiohttp.web_protocol import RequestPayloadError
from jinja2 import ChoiceLoader, Environment, PackageLoader, StrictUndefined

from games import base
from referee import catalogue, channel, i18n
from referee import setup_names
from referee.config import Ladder
from referee.i18n import N_, _
from referee.store import scorelog
from referee.store.scorelog import Entry
from referee.web import (chart, export, guard, history, how, live, merges, names_page, phone_clock, player_pages,
                         replay, sheets, table, team_pages)
from referee.web.bodies import TYPES, Body, PerChange, attachment, key_of, send
from referee.web.paths import DAY, GAME, TOKEN, both_cases

log = logging.getLogger(__name__)

MAX_BODY = 16 * 1024        # bytes in a request body: team forms are a few fields
SHUTDOWN_SECONDS = 2.0

# An error page's heading; the JSON API keeps aiohttp's English reason.
ERRORS = {400: N_("Bad Request"), 403: N_("Forbidden"), 404: N_("Not Found"), 405: N_("Method Not Allowed"),
          413: N_("Request Entity Too Large"), 500: N_("Internal Server Error"), 503: N_("Service Unavailable")}


def static_files() -> dict[str, Body]:
    folder = resources.files("referee.web") / "static"
    return {item.name: Body.of(item.read_text(encoding="utf-8"), item.name.rpartition(".")[2])
            for item in folder.iterdir() if item.name.rpartition(".")[2] in TYPES}


def environment(static: dict[str, Body], *packages: str) -> Environment:
    """Jinja for pages: the templates of ``packages`` (the first found wins),
    autoescaped, in the box's language, ``static(name)`` addressing a file
    by its content."""
    env = Environment(loader=ChoiceLoader([PackageLoader(p, "templates") for p in packages]), autoescape=True,
                      undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                      extensions=["jinja2.ext.i18n"])
    # scripts/catalogues.py extracts the templates' messages with the same settings.
    env.policies["ext.i18n.trimmed"] = True
    # referee.i18n's functions read the language of the moment at every call.
    env.install_gettext_callables(  # type: ignore[attr-defined]  # the i18n extension adds it; Jinja's types do not say
        i18n._, i18n.ngettext, newstyle=True)
    # Static files are kept a year: their address changes with their content.
    stamped = {name: f"/static/{name}?v={body.etag[1:-1]}" for name, body in static.items()}
    env.globals["static"] = stamped.__getitem__
    return env


class Site:
    """The pages of one box."""

    def __init__(self, reader, client: channel.Client, ladder: Ladder | None = None,
                 clock: phone_clock.PhoneClock | None = None) -> None:
        self.reader = reader    # the store, read-only (referee.web.reader)
        self.ladder = ladder or Ladder()    # config.toml's [ladder]: the players' ladders
        self.channel = client    # the box's end of the channel
        self.phone_clock = clock    # referee.web.phone_clock: None where phones set no clock
        self.hub = live.Hub(reader)
        self.static = static_files()
        self.env = environment(self.static, "referee.web")
        self._cache = PerChange()

    # --- helpers ---------------------------------------------------------------------

    def tonight(self) -> dt.date:
        return history.evening_of(self.reader.clock.wall())

    def cached(self, request: web.Request, make, *, query: str = "") -> Body:
        """The answer to this path since the last change at the table
        (``bodies.key_of``: ``query`` is the one parameter a page reads)."""
        self.reader.refresh()
        return self._cache.get((self.reader.version, self.tonight(), i18n.lang, self.phone_time()),
                               key_of(request, query), make)

    def phone_time(self) -> bool:
        """Whether pages ask the phone for its time (the box's clock is not set)."""
        return self.phone_clock is not None and self.phone_clock.wanted()

    def render(self, names, **context) -> str:
        return self.env.select_template(names if isinstance(names, list) else [names]).render(
            version=self.hub.version, lang=i18n.lang, phone_time=self.phone_time(), **context)

    def html(self, name: str, **context) -> Body:
        return Body.of(self.render(name, **context), "html")

    def entries(self, day: dt.date) -> list[Entry]:
        """An evening's score log: tonight exactly as ``scorelog.evening``."""
        store = self.reader.store
        if day == self.tonight():
            return scorelog.evening(store, self.reader.clock.wall())
        return [scorelog.game_entry(store, row) for row in history.games_of(store, day)]

    def entry(self, request: web.Request) -> Entry:
        row = self.reader.store.game(int(request.match_info["id"]))
        if row is None or not catalogue.logged(row.name):
            raise web.HTTPNotFound()
        return scorelog.game_entry(self.reader.store, row)

    def now(self, entry: Entry) -> str:
        session = self.reader.session
        if entry.status != "playing" or session is None or session.id != entry.id:
            return ""
        return sheets.now(session.name, session.rules.public(session.state))

    def day(self, request: web.Request) -> dt.date:
        day = _date(request.match_info["day"])
        if day is None:
            raise web.HTTPNotFound()
        return day

    def error(self, request: web.Request, status: int, reason: str, allow: str | None = None) -> web.Response:
        headers = {"Cache-Control": "no-store"}
        if allow:
            headers["Allow"] = allow
        if request.path.startswith("/api/"):
            return web.json_response({"error": reason}, status=status, headers=headers)
        title = _(ERRORS[status]) if status in ERRORS else reason
        try:
            text = self.render("error.html", title=title, status=status, live=False)
        except Exception:
            log.exception("web: the error page failed")
            return web.Response(text=f"{status} {reason}", status=status, headers=headers)
        return web.Response(text=text, status=status, content_type="text/html", headers=headers)

    # --- pages -----------------------------------------------------------------------

    async def evening(self, request: web.Request) -> web.Response:
        # ?player=Ann: the games Ann played tonight (the names page links
        # tonight's players here).
        player = " ".join(request.query.get("player", "").split())[:64]
        return send(request, self.cached(request, lambda: self._evening(self.tonight(), player), query="player"))

    async def earlier(self, request: web.Request) -> web.Response:
        day = self.day(request)
        if day == self.tonight():
            raise web.HTTPFound("/")
        return send(request, self.cached(request, lambda: self._evening(day)))

    def _evening(self, day: dt.date, player: str = "") -> Body:
        entries = sheets.in_play_first(self.entries(day))
        if player:
            entries = [e for e in entries if player.casefold() in {n.casefold() for n in setup_names.typed(e)}]
        tonight = day == self.tonight()
        return self.html("evening.html", title=_("Tonight") if tonight else sheets.long_date(day),
                         date=sheets.long_date(day), day=day.isoformat(), tonight=tonight, live=tonight,
                         player=player, cards=[sheets.card(e, self.now(e)) for e in entries],
                         players=player_pages.links(name for e in entries for name in setup_names.typed(e)))

    async def game(self, request: web.Request) -> web.Response:
        return send(request, self.cached(request, lambda: self._game(self.entry(request))))

    def _game(self, entry: Entry) -> Body:
        day = history.evening_of(entry.started)
        standings = sheets.standings(entry)
        return self.html(
            "game.html", entry=entry, title=sheets.title(entry.game), live=entry.status == "playing",
            date=sheets.long_date(day), back="/" if day == self.tonight() else f"/e/{day}",
            started=sheets.clock(entry.started),
            ended=sheets.clock(entry.ended) if entry.ended is not None else "",
            duration=sheets.duration(entry), verdict=sheets.verdict(entry),
            reason=sheets.reason(entry), now=self.now(entry), standings=standings,
            sheet=sheets.on_a_phone(sheets.sheet(entry)), heading=sheets.row_heading(entry.game),
            points=entry.summary.scored, empty=sheets.empty(entry),
            tokens=sheets.token_sheet(entry),
            notes=[(sheets.side(entry.game, name), rows) for name, rows in entry.summary.notes.items() if rows],
            chart=chart.for_entry(entry, standings), series=chart.SERIES, bgstats=export.bgstats_link(entry),
            players=player_pages.links(setup_names.typed(entry)))

    async def evenings(self, request: web.Request) -> web.Response:
        before = self._before(request)
        def make():
            shown, older = history.evenings(self.reader.store, before)
            return self.html("history.html", title=_("Evenings"), live=False, older=older,
                             evenings=[{"day": e.day.isoformat(), "tonight": e.day == self.tonight(),
                                        "date": sheets.long_date(e.day),
                                        "games": [sheets.title(g) for g in e.games]} for e in shown])
        return send(request, self.cached(request, make, query="before"))

    def _before(self, request: web.Request) -> dt.date | None:
        given = request.query.get("before")
        if given is None:
            return None
        day = _date(given)
        if day is None:
            raise web.HTTPBadRequest()
        return day

    # --- the API and the files --------------------------------------------------------

    async def api_evening(self, request: web.Request) -> web.Response:
        return send(request, self.cached(request, lambda: Body.of(json.dumps([scorelog.as_json(e) for e in self.entries(self.tonight())]), "json")))

    async def api_earlier(self, request: web.Request) -> web.Response:
        day = self.day(request)
        return send(request, self.cached(request, lambda: Body.of(json.dumps([scorelog.as_json(e) for e in self.entries(day)]), "json")))

    async def api_evenings(self, request: web.Request) -> web.Response:
        before = self._before(request)
        def make():
            shown, older = history.evenings(self.reader.store, before)
            return Body.of(json.dumps({"evenings": [{"day": e.day.isoformat(), "games": list(e.games)} for e in shown],
                                       "older": older and older.isoformat()}), "json")
        return send(request, self.cached(request, make, query="before"))

    async def api_game(self, request: web.Request) -> web.Response:
        return send(request, self.cached(request, lambda: Body.of(json.dumps(scorelog.as_json(self.entry(request))), "json")))

    async def evening_file(self, request: web.Request) -> web.Response:
        day = self.day(request) if "day" in request.match_info else self.tonight()
        kind = request.match_info["kind"]
        def make():
            entries = self.entries(day)
            return Body.of(export.evening_csv(entries) if kind == "csv" else export.json_text([scorelog.as_json(e) for e in entries]), kind)
        return send(request, self.cached(request, make), attachment(f"scores-{day}.{kind}"))

    async def game_file(self, request: web.Request) -> web.Response:
        body = self.cached(request, lambda: Body.of(export.game_csv(self.entry(request)), "csv"))
        return send(request, body, attachment(f"game-{request.match_info['id']}.csv"))

    async def static_file(self, request: web.Request) -> web.Response:
        body = self.static.get(request.match_info["name"])
        if body is None:
            raise web.HTTPNotFound()
        return send(request, body, {"Cache-Control": "public, max-age=31536000, immutable"})

    async def stream(self, request: web.Request) -> web.StreamResponse:
        return await self.hub.stream(request)

    async def phone_time_post(self, request: web.Request) -> web.Response:
        """A phone's clock, sent by static/phone-clock.js: 204 once heard
        (whether the box believes it or not), 400 for anything that is not
        a time (``phone_clock.posted_time``)."""
        if request.headers.get("Sec-Fetch-Site", "same-origin") not in ("same-origin", "none"):
            raise web.HTTPForbidden()
        if request.content_length is None or request.content_length > phone_clock.LONGEST_BODY:
            raise web.HTTPBadRequest()
        try:
            async with asyncio.timeout(guard.BODY_SECONDS):
                body = await request.read()
        except (HttpProcessingError, RequestPayloadError):
            raise web.HTTPBadRequest() from None
        except TimeoutError:
            raise web.HTTPRequestTimeout() from None
        wall = phone_clock.posted_time(body)
        if wall is None:
            raise web.HTTPBadRequest()
        if self.phone_clock is not None:
            await self.phone_clock.heard(wall)
        return web.Response(status=204, headers={"Cache-Control": "no-store"})

    # --- team pages -----------------------------------------------------------------------

    async def team(self, request: web.Request) -> web.Response:
        page, session = self._team(request)
        return self._team_page(request, page, session)

    async def team_post(self, request: web.Request) -> web.Response:
        page, session = self._team(request)
        fields = await guard.posted(request)
        if team_pages.forged(request, page.csrf, fields):
            raise web.HTTPForbidden()
        handler = catalogue.hook(session.name, "web", "team_form")
        if handler is None:
            raise web.HTTPBadRequest()
        try:
            event = handler(session.state, page.team, fields)
        except base.Illegal as exc:
            return self._team_page(request, page, session, i18n.refusal(exc), 400, typed=fields)
        # The box's rules judge it; a refusal comes back as their sentence
        # (and the table hears no error beep for a phone's slip).
        try:
            answer = await self.channel.ask("team", token=page.token, event=base.encode(event))
        except channel.ChannelError as exc:
            log.warning("web: a team page's form could not reach the box: %s", exc)
            raise web.HTTPServiceUnavailable() from None
        if "refused" in answer:
            return self._team_page(request, page, session, answer["refused"], 400, typed=fields)
        if not answer.get("ok"):
            raise web.HTTPNotFound()   # the table moved on to another game meanwhile
        raise web.HTTPSeeOther(request.path)

    def _team(self, request: web.Request):
        self.reader.refresh()
        found = team_pages.open_page(self.reader, request.match_info["token"])
        if found is None:
            raise web.HTTPNotFound()
        return found

    def _team_page(self, request, page, session, refused: str = "", status: int = 200,
                   typed: dict | None = None) -> web.Response:
        view = team_pages.view(session, page.team)
        names = team_pages.sides(session) or [_("Team {n}").format(n=n + 1)
                                              for n in range(catalogue.get(session.name).teams)]
        text = self.render([f"team-{session.name}.html", "team.html"], live=True, view=view, sides=names,
                           team=page.team, team_name=names[page.team], title=sheets.title(session.name),
                           csrf=page.csrf, action=request.path, refused=refused, typed=typed)
        response = web.Response(text=text, status=status, content_type="text/html",
                                headers={"Cache-Control": "no-store"})
        response.set_cookie(team_pages.COOKIE, page.csrf, path=request.path, samesite="Strict", httponly=True)
        response.enable_compression()
        return response


def _loggable(path: str) -> str:
    # A team page's or a names page's address is its key: it stays out of the logs.
    return path[:3].upper() + "…" if path[:3].upper() in ("/T/", "/N/") else path


SITE = web.AppKey("site", Site)


def _clock_from_phones(clock: phone_clock.PhoneClock) -> Middleware:
    @web.middleware
    async def clock_from_phones(request: web.Request, handler: Handler) -> web.StreamResponse:
        # referee.web.phone_clock: a box the network does not set takes a phone's time.
        await clock.hear(request.headers.get("Date"))
        return await handler(request)
    return clock_from_phones


def make_app(reader, client: channel.Client, ladder: Ladder | None = None,
             clock: phone_clock.PhoneClock | None = None) -> web.Application:
    site = Site(reader, client, ladder, clock)

    @web.middleware
    async def plain_errors(request: web.Request, handler):
        try:
            return await handler(request)
        except web.HTTPException as exc:
            if exc.status < 400:
                raise
            return site.error(request, exc.status, exc.reason, exc.headers.get("Allow"))
        except Exception:
            log.exception("web: %s %s failed", request.method, _loggable(request.path))
            return site.error(request, 500, "Internal Server Error")

    async def end_streams(app: web.Application) -> None:
        site.hub.close()
        if clock is not None:
            await clock.close()

    app = web.Application(middlewares=[plain_errors] + ([_clock_from_phones(clock)] if clock else []),
                          client_max_size=MAX_BODY)
    app[SITE] = site
    app.on_shutdown.append(end_streams)
    get = app.router.add_get
    get("/", site.evening)
    get(f"/g/{GAME}", site.game)
    get("/e/", site.evenings)
    get(f"/e/{DAY}", site.earlier)
    get("/live", site.stream)
    get("/static/{name}", site.static_file)
    app.router.add_post(phone_clock.PATH, site.phone_time_post)
    for prefix in both_cases("t"):
        get(prefix + TOKEN, site.team)
        app.router.add_post(prefix + TOKEN, site.team_post)
    get("/api/evening", site.api_evening)
    get("/api/evening.{kind:csv|json}", site.evening_file)
    get("/api/evenings", site.api_evenings)
    get(f"/api/e/{DAY}", site.api_earlier)
    get(f"/api/e/{DAY}.{{kind:csv|json}}", site.evening_file)
    get(f"/api/g/{GAME}", site.api_game)
    get(f"/api/g/{GAME}.csv", site.game_file)
    names_page.add_routes(app, site)
    replay.add_routes(app, site)
    player_pages.add_routes(app, site)
    merges.add_routes(app, site)
    table.add_routes(app, site)
    how.add_routes(app, site)
    for name in catalogue.GAMES:   # a game's addresses of its own
        routes = catalogue.hook(name, "web", "routes")
        if routes is not None:
            routes(app)
    return app


class Server:
    """The web app listening on a TCP port, within ``referee.web.guard``'s
    limits, told of changes by the box."""

    def __init__(self, reader, client: channel.Client, ladder: Ladder | None = None,
                 clock: phone_clock.PhoneClock | None = None) -> None:
        self.app = make_app(reader, client, ladder, clock)
        self.channel = client
        # No access log: a team page's address in it would be a key left lying about.
        self.runner = web.AppRunner(self.app, access_log=None, shutdown_timeout=SHUTDOWN_SECONDS,
                                    **guard.HANDLER_ARGS)
        self.host, self.port = "", 0
        self.guard: guard.Guard | None = None
        self._watch: asyncio.Task | None = None

    @property
    def site(self) -> Site:
        return self.app[SITE]

    async def start(self, host: str, port: int) -> None:
        await self.runner.setup()
        guard.secure_requests(self.runner, self.app)
        listening = guard.GuardedSite(self.runner, host, port)
        await listening.start()
        self.guard = listening.guard
        self.host, self.port = host, listening.port
        hub, board = self.site.hub, self.app[table.BOARD]

        def told() -> None:
            hub.changed()
            board.heard()   # the table view's line and countdown came with the notice
        self._watch = asyncio.get_running_loop().create_task(self.channel.watch(told, told, on_lose=board.lost))

    @property
    def url(self) -> str:
        """Where this machine reaches it (for tests and benchmarks)."""
        host = {"": "127.0.0.1", "0.0.0.0": "127.0.0.1", "::": "::1"}.get(self.host, self.host)
        return f"http://[{host}]:{self.port}/" if ":" in host else f"http://{host}:{self.port}/"

    async def stop(self) -> None:
        if self._watch is not None:
            self._watch.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._watch
            self._watch = None
        await self.runner.cleanup()


class _QuietBadRequests(logging.Filter):
    """aiohttp answers a request it cannot parse with a 400 and logs it with
    a traceback; anyone on the network could fill the journal that way."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        return not isinstance(exc, HttpProcessingError)


logging.getLogger("aiohttp.server").addFilter(_QuietBadRequests())


async def serve(reader, client: channel.Client, host: str, port: int, ladder: Ladder | None = None,
                clock: phone_clock.PhoneClock | None = None) -> Server:
    """Start the web app on ``host``:``port`` (0: any free port), reading
    the store through ``reader`` and asking the box through ``client``
    (``ladder``: config.toml's ``[ladder]``, the defaults if None;
    ``clock``: a ``referee.web.phone_clock.PhoneClock``, told of the
    phones' times)."""
    server = Server(reader, client, ladder, clock)
    try:
        await server.start(host, port)
    except BaseException:
        await server.stop()
        raise
    return server


def _date(text: str) -> dt.date | None:
    """A date in an address, within years the box can have seen (the ends of
    the calendar overflow when an evening's hours are added)."""
    try:
        day = dt.date.fromisoformat(text)
    except ValueError:
        return None
    return day if 2000 <= day.year <= 9000 else None
