"""The table view, ``/table``: the game at the table for a TV, a projector or
a tablet propped at the end of it, in landscape.  It shows the game, the
round and whose turn it is, the countdown, the tokens or the scores, the
line of the last action as the public screen says it, and between games
tonight's standings.  It has nothing to press.

What it shows is public by construction: the rules' ``public`` view (the
game's "now" lines), the score log's entry (what every phone sees), and
what the box sends beside its change notices (``referee.channel``'s
``table``: the ``»`` line and the countdown, both on the public screen
already).  No team page's data and no private view is read here.

The page is live through a stream of its own, ``/table/live``, on the
machinery of ``/live`` (``referee.web.live``): one message per change, each
carrying the view's HTML (rendered once per change, whoever asks) and the
countdown as it stands the moment that stream is sent it.  Only the box keeps
the game clock, so the box sends the countdown's seconds left with every
notice and the web counts on from the moment it heard them; the page counts
down by itself between messages and is put right by each one.  A box that
is gone (restarting, unplugged) stops the game clock, so its countdown is
shown standing.  Each stream holds at most one message; a view that reads
nothing is dropped (``live.WRITE_SECONDS``); the page reconnects by itself
(``table.js``) after the web restarts or the Wi-Fi drops.
"""
from __future__ import annotations

import json

import msgspec
from aiohttp import web

from games.base import clock_text
from referee import account as accounts, catalogue, channel, i18n, merging
from referee.account import Account
from referee.i18n import _
from referee.store import scorelog
from referee.store.scorelog import Entry
from referee.web import live, players, sheets
from referee.web.bodies import Body, send

# The seconds a view waits between two messages before it takes its
# stream for dead and opens another (the keepalive comes every 15 s).
SILENT_SECONDS = 40


class Side(msgspec.Struct):
    name: str
    score: str           # the points ("12", "3/5" against a goal) or the tokens in words; "" where none
    winner: bool
    members: list[str]


class Row(msgspec.Struct):
    """A player tonight: games counted and won."""
    name: str
    games: int
    wins: int


class Played(msgspec.Struct):
    """One of tonight's games."""
    title: str
    verdict: str


class View(msgspec.Struct):
    """What the table view shows (``/api/table``)."""
    lang: str
    title: str           # the game's, "Table tools" or "Tonight"
    lines: list[str]     # the round and whose turn; a finished game's result
    said: str            # the last action, as the public screen's » line says it
    sides: list[Side]
    tonight: list[Row]   # between games: tonight's standings
    games: list[Played]
    countdown: channel.Countdown | None = None   # as of the answer
    account: Account | None = None   # the game's account, as the box's public screen stands


class Board(live.Hub):
    """The table view's streams, and the box's word they carry."""

    def __init__(self, site) -> None:
        super().__init__(site.reader)
        self.site = site
        self.told = 0        # notices heard and losses of the box, so far
        self._word: channel.TableNotice | None = None
        self._at = 0.0       # when (the reader's clock) it was heard
        self._kept: tuple | None = None   # (stamp, View, the HTML as a JSON string, encoded)
        self._tonight_kept: tuple | None = None   # (tonight's games and their ends, lang; what they make)

    # --- what the box said --------------------------------------------------------

    @property
    def version(self):
        return self.reader.version, self.told

    def heard(self) -> None:
        """The box sent a notice (or was reached again)."""
        self._word, self._at = self.site.channel.table, self._now()
        self.told += 1
        self.wake()

    def lost(self) -> None:
        """The box is gone: its game clock stands, and so does the view's
        countdown, on what it had come to, until the box is back."""
        left = self._countdown()
        if self._word is not None and left is not None:
            self._word = msgspec.structs.replace(
                self._word, countdown=channel.Countdown(left.left, False, left.seconds))
        self._at = self._now()
        self.told += 1
        self.wake()

    def _now(self) -> float:
        return self.reader.clock.monotonic()

    def _countdown(self) -> channel.Countdown | None:
        word, session = self._word, self.reader.session
        if word is None or word.countdown is None or session is None or word.game != session.id:
            return None
        cd = word.countdown
        left = max(0.0, cd.left - (self._now() - self._at)) if cd.running else cd.left
        return channel.Countdown(round(left, 3), cd.running and left > 0, cd.seconds)

    # --- what the view shows --------------------------------------------------------

    def view(self) -> View:
        """The view as of the last change, with the countdown as of now."""
        return msgspec.structs.replace(self._current()[0], countdown=self._countdown())

    def _current(self, look: bool = True) -> tuple[View, bytes]:
        if look:    # (a stream's message: the stream has just looked)
            self.reader.refresh()
        stamp = (self.version, i18n.lang, self.site.tonight())
        if self._kept is None or self._kept[0] != stamp:
            view = self._make()
            html = self.site.render("table-main.html", view=view, countdown="")
            self._kept = (stamp, view, json.dumps(html, ensure_ascii=False).encode())
        return self._kept[1], self._kept[2]

    def _make(self) -> View:
        session, store = self.reader.session, self.reader.store
        word = self._word if self._word is not None and session is not None and self._word.game == session.id \
            else None
        said = word.said if word is not None else ""
        lang = i18n.lang
        if session is not None and catalogue.logged(session.name) and not session.rules.is_over(session.state):
            tonight: list[Row] = []     # a game in play fills the screen
            games: list[Played] = []
        else:
            tonight, games = self._tonight()
        if session is None:
            return View(lang, _("Tonight"), [], "", [], tonight, games)
        if not catalogue.logged(session.name):
            # The table tools: their countdown, over tonight's standings.
            return View(lang, catalogue.title(session.name), [], "", [], tonight, games)
        row = store.game(session.id)
        entry = scorelog.entry_of(row, session.rules, session.state)
        told = accounts.of(session.name, session.rules.public(session.state), session.rules.summary(session.state),
                          ended=row.ended is not None, phase=word.phase if word is not None else "", said=said,
                           outcome=word is not None and word.outcome, staged=word is not None and word.staged)
        tokens = [s.tokens for s in told.sides] if len(told.sides) == len(entry.summary.players) else []
        sides = [Side(s.name, _score(entry, s) or (tokens[i] if tokens else ""), s.winner, list(s.members))
                 for i, s in enumerate(sheets.standings(entry))]
        if not told.over or told.outcome:
            lines = view_lines(told)
            return View(lang, sheets.title(session.name), lines, said, sides, [], [], account=told)
        lines = [line for line in (told.result, told.reason) if line]
        return View(lang, sheets.title(session.name), lines, said, sides, tonight, games, account=told)

    def _tonight(self) -> tuple[list[Row], list[Played]]:
        """Tonight's standings: each named player's counted games and wins
        (as the players' pages count them: a game played to its end with two
        names or more, names merged on the box one player), most wins first,
        then fewer games, then the name, as the club's league orders them;
        and tonight's games, newest first."""
        store, now = self.reader.store, self.reader.clock.wall()
        merges = store.merges()
        # Counted again only when a game of tonight began or ended, or a
        # merge was made or taken back (the table tools' keys, say, change
        # nothing of it).
        key = (tuple((g.id, g.ended) for g in store.games(since=scorelog.evening_start(now), playing=True)),
               tuple(m.id for m in merges), i18n.lang)
        if self._tonight_kept is None or self._tonight_kept[0] != key:
            self._tonight_kept = (key, self._count_tonight(scorelog.evening(store, now), merging.aliases(merges)))
        return self._tonight_kept[1]

    @staticmethod
    def _count_tonight(entries: list[Entry], aliases: dict[str, str]) -> tuple[list[Row], list[Played]]:
        rows: dict[str, Row] = {}
        for entry in reversed(entries):     # oldest first: a player keeps the spelling first typed
            if entry.status != "finished":
                continue
            result = players.result_of(entry)
            if not result.counted:
                continue
            for side in result.sides:
                for name in side.players:
                    own = players.key(name)
                    player = aliases.get(own, own)
                    row = rows.setdefault(player, Row(name, 0, 0))
                    if own == player and players.key(row.name) != player:
                        row.name = name     # a merged player under the name merged into
                    row.games += 1
                    row.wins += side.won
        standing = sorted(rows.values(), key=lambda r: (-r.wins, r.games, r.name.casefold()))
        games = [Played(sheets.title(e.game), sheets.verdict(e)) for e in entries]
        return standing, games

    # --- the stream ----------------------------------------------------------------------

    def message(self, version) -> bytes:
        _view, html = self._current(look=False)
        cd = self._countdown()
        data = b'{"lang":' + msgspec.json.encode(i18n.lang) + b',"title":' + msgspec.json.encode(_page_title()) \
            + b',"html":' + html + b',"countdown":' + msgspec.json.encode(cd) + b"}"
        return b"data: " + data + b"\n\n"

    # A named event, which the page hears (a comment it would not): so the
    # page knows its stream is alive, and opens another when it falls silent.
    keepalive = b"event: alive\ndata: 1\n\n"


def view_lines(told: Account) -> list[str]:
    """A game in play's lines: the page the box is on, in its own title (a
    reveal stays until #), the round where that page draws it on a row of
    its own (Octiles' "Round 4" under "West to play") or where the box has
    said no page, and whose turn it is by the rules."""
    stage = told.stage if told.staged or not told.phase else ""
    return [line for line in dict.fromkeys((told.phase, stage, told.turn)) if line]


def _score(entry: Entry, s: sheets.Standing) -> str:
    if s.tokens:
        return s.tokens
    if not entry.summary.scored or not sheets.has_points(entry):
        return ""
    return f"{s.total}/{s.goal}" if s.goal else str(s.total)


def _page_title() -> str:
    return f"{_('Table view')} · Tabletop Referee"


BOARD = web.AppKey("board", Board)   # the server tells it of the box's notices


def add_routes(app: web.Application, site) -> None:
    board = app[BOARD] = Board(site)

    async def page(request: web.Request) -> web.Response:
        view = board.view()
        cd = view.countdown
        text = site.render("table.html", title=_("Table view"), view=view, live=False,
                           countdown=clock_text(cd.left) if cd is not None else "", silent=SILENT_SECONDS)
        return web.Response(text=text, content_type="text/html", headers={"Cache-Control": "no-store"})

    async def api(request: web.Request) -> web.Response:
        return send(request, Body.of(msgspec.json.encode(board.view()).decode(), "json"),
                    {"Cache-Control": "no-store"})

    async def stream(request: web.Request) -> web.StreamResponse:
        return await board.stream(request)

    async def end(app: web.Application) -> None:
        board.close()

    app.on_shutdown.append(end)
    for path in ("/table", "/TABLE"):   # the box's QR code writes it in capitals (compact QR)
        app.router.add_get(path, page)
    app.router.add_get("/table/live", stream)
    app.router.add_get("/api/table", api)
