"""``referee league``: every table of the club, tonight's standings, the
history — from what the boxes publish, kept in a SQLite file of its own.

Scoring across tables (documented in README, "Club night"): every finished
game counts once for each of its players; each of its winners gets a win
(a shared win is a win for each).  Players are matched by name, as typed
at the tables.  Da Vinci Code's tournament points are added up per name
across tables.  Standings: most wins, then most Da Vinci points, then
fewest games played, then name.

Beside the standings, every player's page and ratings over every table's
games (``/p/``): a finished game's result and OpenSkill ratings, worked out
by the box's web code (``referee.web.players``: ``result_of`` and
``Rater``), with the names matched as the boxes match them (composed,
spaces single, case ignored), so that a name meeting across tables is one
player.  The results are kept in the league's file (``results``); the
ratings are counted from them in the order the games ended, once at start
and then game by game.
"""
from __future__ import annotations

import asyncio
import dataclasses
import datetime as dt
import json
import logging
import re
import sqlite3
import time

import aiomqtt

from referee import catalogue
from referee.club import messages as m
from referee.club.publisher import BACKOFF, Faults, keep_connected
from referee.config import Config
from referee.store.scorelog import evening_start
from referee.web.players import Rater, Result, result_of

LONGEST_NAME = 64         # a name a box's panels can show is far shorter

log = logging.getLogger("referee.league")

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    name    TEXT PRIMARY KEY,
    online  INTEGER NOT NULL,
    game    INTEGER,
    seen    REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS games (
    tbl     TEXT NOT NULL,
    game    INTEGER NOT NULL,
    seq     INTEGER NOT NULL,
    started REAL NOT NULL,
    entry   TEXT NOT NULL,
    PRIMARY KEY (tbl, game)
);
CREATE TABLE IF NOT EXISTS results (
    id      INTEGER PRIMARY KEY,     -- the result's number in the league (players.Result.game)
    tbl     TEXT NOT NULL,
    game    INTEGER NOT NULL,
    result  TEXT NOT NULL,           -- players.Result as JSON
    UNIQUE (tbl, game)
);
CREATE TABLE IF NOT EXISTS arrivals (
    tbl     TEXT NOT NULL,
    game    INTEGER NOT NULL,
    seq     INTEGER NOT NULL,
    at      REAL NOT NULL,
    PRIMARY KEY (tbl, game, seq)
);
"""


class League:
    """The league's own store.  ``take`` is the only way in."""

    def __init__(self, path: str, clock=time.time) -> None:
        self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.executescript(SCHEMA)
        self.clock = clock
        self.version = 0
        self.counts = {"taken": 0, "duplicate": 0, "refused": 0, "failed": 0}
        self.faults = Faults()
        self.on_change = None     # called after each change (the pages' live stream)
        self.connected = False    # to the broker, now
        self.restarts = 0         # of the listener, after a fault it did not expect
        self._tonight = (None, 0)  # (evening, messages refused or failed in it)
        self._forget_refused()
        self.players = Rater()
        self.tables_of: dict[int, str] = {}       # result -> the table it was played at
        for rid, tbl, text in self._db.execute("SELECT id, tbl, result FROM results"):
            self.players.results[rid] = Result.from_json(text)
            self.tables_of[rid] = tbl
        self._recount()

    def close(self) -> None:
        self._db.close()

    def take(self, topic: str, payload: bytes) -> str:
        """One message from the broker: "taken", "duplicate", "refused" or
        "failed".  Never raises: one message, whatever it holds, must not
        end the listening for the rest of the evening."""
        now = self.clock()
        try:
            message = m.decode(topic, payload, now)
            outcome = self._status(message) if isinstance(message, m.Status) else self._entry(message)
        except m.Refused as exc:
            self.faults(f"{_table_of(topic)} {exc.kind}", "league: refused a message on %s: %s", m.short(topic), exc)
            outcome = "refused"
        except Exception as exc:
            self.faults(f"{_table_of(topic)} failed", "league: could not take a message on %s: %r",
                        m.short(topic), exc)
            outcome = "failed"
        self.counts[outcome] += 1
        if outcome in ("refused", "failed"):
            evening = evening_start(now)
            self._tonight = (evening, (self._tonight[1] if self._tonight[0] == evening else 0) + 1)
        if outcome != "duplicate":
            self.version += 1     # the page shows the refusals too (without waking every phone)
        return outcome

    def health(self) -> dict:
        """What the page says of the league itself."""
        evening, refused = self._tonight
        return {"broker": self.connected, "restarts": self.restarts,
                "refused": refused if evening == evening_start(self.clock()) else 0,
                "since_start": dict(self.counts)}

    def _forget_refused(self) -> None:
        """Rows stored by an older league that today's checks refuse (a
        start time no date has, an entry without its id) would fail every
        page: they are dropped, each with a log line."""
        for tbl, game, seq, started, entry in self._db.execute(
                "SELECT tbl, game, seq, started, entry FROM games").fetchall():
            try:
                payload = m.encode(m.Entry(v=m.VERSION, kind="game", id=f"{tbl}:{game}:{seq}", table=tbl, game=game,
                                           seq=seq, at=started, entry=json.loads(entry)))
                m.decode(m.topic("club", str(tbl), "game"), payload, self.clock())
            except Exception as exc:
                log.warning("league: dropped stored game %r of table %r: %s", game, m.short(tbl), exc)
                with self._db:
                    self._db.execute("DELETE FROM games WHERE tbl = ? AND game = ?", (tbl, game))
        bad = [name for (name,) in self._db.execute("SELECT name FROM tables")
               if not isinstance(name, str) or not re.match(m.NAME, name)]
        with self._db:
            self._db.executemany("DELETE FROM tables WHERE name = ?", [(name,) for name in bad])

    def link(self, connected: bool) -> None:
        if connected != self.connected:
            self.connected = connected
            self.version += 1
            if self.on_change:
                self.on_change()

    def _status(self, s: m.Status) -> str:
        with self._db:
            self._db.execute("BEGIN")
            self._db.execute("INSERT INTO tables (name, online, game, seen) VALUES (?, ?, ?, ?) "
                             "ON CONFLICT(name) DO UPDATE SET online = excluded.online, game = excluded.game, "
                             "seen = excluded.seen", (s.table, int(s.online), s.game, s.at))
        return "taken"

    def _entry(self, e: m.Entry) -> str:
        with self._db:
            self._db.execute("BEGIN")   # all of it or, should a step fail, nothing
            row = self._db.execute("SELECT seq FROM games WHERE tbl = ? AND game = ?", (e.table, e.game)).fetchone()
            if row is not None and (row[0] > e.seq or (row[0] == e.seq and e.kind == "event")):
                return "duplicate"
            self._db.execute("INSERT INTO games (tbl, game, seq, started, entry) VALUES (?, ?, ?, ?, ?) "
                             "ON CONFLICT(tbl, game) DO UPDATE SET seq = excluded.seq, entry = excluded.entry",
                             (e.table, e.game, e.seq, e.entry["started"], json.dumps(e.entry, ensure_ascii=False)))
            if e.kind == "event":
                self._db.execute("INSERT OR IGNORE INTO arrivals (tbl, game, seq, at) VALUES (?, ?, ?, ?)",
                                 (e.table, e.game, e.seq, e.at))
            self._db.execute("INSERT OR IGNORE INTO tables (name, online, game, seen) VALUES (?, 1, ?, ?)",
                             (e.table, e.game, e.at))
            self._result(e)
        return "taken"

    def _result(self, e: m.Entry) -> None:
        """The game's result as it stands now, kept and rated: a game that
        ended after every one rated is one rating update, any other change
        (a game taken back, one that reached the league late) counts the
        ratings again from the first game."""
        result = _result_of(e.entry)
        row = self._db.execute("SELECT id, result FROM results WHERE tbl = ? AND game = ?",
                               (e.table, e.game)).fetchone()
        if result is None:
            if row is not None:
                self._db.execute("DELETE FROM results WHERE id = ?", (row[0],))
                self.players.results.pop(row[0], None)
                self._recount()
            return
        if row is None:
            rid = self._db.execute("INSERT INTO results (tbl, game, result) VALUES (?, ?, '')",
                                   (e.table, e.game)).lastrowid
        else:
            rid = row[0]
        result = dataclasses.replace(result, game=rid)
        if row is not None and row[1] == result.to_json():
            return
        self._db.execute("UPDATE results SET result = ? WHERE id = ?", (result.to_json(), rid))
        last = max(((r.ended, r.game) for r in self.players.results.values()), default=(0.0, 0))
        self.players.results[rid] = result
        self.tables_of[rid] = e.table
        if row is None and (result.ended, rid) > last:
            self.players.rate(result)
            self.players.learn(result)
        else:
            self._recount()

    def _recount(self) -> None:
        self.players.rate_all()
        self.players.learn_all()

    # --- what the pages show ---------------------------------------------------------

    def games(self, since: float, until: float | None = None) -> list[dict]:
        """Games begun in [since, until) and, for tonight, any still in play."""
        rows = self._db.execute("SELECT tbl, seq, entry FROM games WHERE started >= ? AND started < ? "
                                "ORDER BY started DESC", (since, until or 2**62)).fetchall()
        if until is None:
            rows += [r for r in self._db.execute("SELECT tbl, seq, entry FROM games WHERE started < ?", (since,))
                     if json.loads(r[2]).get("status") == "playing"]
        return [{"table": tbl, "seq": seq, **json.loads(entry)} for tbl, seq, entry in rows]

    def tables(self, tonight: list[dict]) -> list[dict]:
        games = {(g["table"], g["id"]): g for g in tonight}
        out = []
        for name, online, game, seen in self._db.execute("SELECT name, online, game, seen FROM tables ORDER BY name"):
            entry = games.get((name, game))
            out.append({"table": name, "online": bool(online), "seen": seen, "game": entry and entry["game"],
                        "status": entry and entry.get("status"), "round": entry and len(entry.get("rounds", ())),
                        "leaders": leaders(entry) if entry else []})
        return out

    def tonight(self, now: float) -> dict:
        games = self.games(evening_start(now))
        return {"broker": self.connected, "health": self.health(), "tables": self.tables(games),
                "standings": standings(games), "games": games}

    def evening(self, day: dt.date) -> dict:
        start = evening_start(dt.datetime.combine(day, dt.time(12)).timestamp())
        games = self.games(start, start + 86400)
        return {"standings": standings(games), "games": games}

    def evenings(self) -> list[tuple[dt.date, int]]:
        days: dict[dt.date, int] = {}
        for (started,) in self._db.execute("SELECT started FROM games"):
            day = dt.date.fromtimestamp(evening_start(started))
            days[day] = days.get(day, 0) + 1
        return sorted(days.items(), reverse=True)

    def arrivals(self, table: str) -> list[tuple[int, int]]:
        """(game, seq) of a table's rows in the order the league took them."""
        return [(g, s) for g, s in self._db.execute("SELECT game, seq FROM arrivals WHERE tbl = ? ORDER BY rowid",
                                                     (table,))]


def _result_of(entry: dict) -> Result | None:
    """A game's result once it has ended, or None.  What a box publishes is
    not trusted: an entry whose names are not short strings has none."""
    if not isinstance(entry.get("ended"), (int, float)) or isinstance(entry.get("ended"), bool):
        return None
    try:
        result = result_of(entry)
    except (TypeError, ValueError, KeyError, AttributeError):
        return None
    names = [name for side in result.sides for name in side.players]
    if not all(isinstance(n, str) and 0 < len(n) <= LONGEST_NAME for n in names) or len(names) > 32:
        return None
    return result


def leaders(entry: dict) -> list[str]:
    totals = entry.get("totals") or {}
    if not totals or not all(isinstance(v, (int, float)) for v in totals.values()):
        return []
    best = max(totals.values())
    return [name for name, points in totals.items() if points == best]


def standings(games: list[dict]) -> list[dict]:
    table: dict[str, dict] = {}
    for g in games:
        if g.get("status") != "finished":
            continue
        for name in g.get("players", ()):
            row = table.setdefault(str(name), {"name": str(name), "played": 0, "wins": 0, "davinci": 0})
            row["played"] += 1
            row["wins"] += name in g.get("winners", ())
            if getattr(catalogue.GAMES.get(g.get("game")), "league_points", False) and g.get("points", True):
                row["davinci"] += (g.get("totals") or {}).get(name, 0)
    return sorted(table.values(), key=lambda r: (-r["wins"], -r["davinci"], r["played"], r["name"]))


async def follow(config: Config, league: League, stop: asyncio.Event) -> None:
    """Take what the club's boxes publish until ``stop`` is set."""
    async def session(mqtt: aiomqtt.Client) -> None:
        await mqtt.subscribe(m.topic(config.club.name, "#"), qos=1)
        log.info("league: following club %s on %s", config.club.name, config.club.broker)
        league.link(True)
        async for message in mqtt.messages:
            payload = message.payload if isinstance(message.payload, bytes) else b""
            if league.take(str(message.topic), payload) == "taken" and league.on_change:
                league.on_change()

    # keep_connected rides out the broker's faults; anything else that
    # escapes a session (a bug of ours) is logged and the session begun
    # again, so the league never stops listening while saying "connected".
    delay = BACKOFF[0]
    while not stop.is_set():
        try:
            await keep_connected(config, f"referee-league-{config.club.name}", session, stop, league.faults,
                                 lost=lambda: league.link(False))
        except Exception:
            log.exception("league: the listener failed; it starts again in %.1f s", delay)
            league.link(False)
            league.restarts += 1
            try:
                await asyncio.wait_for(stop.wait(), delay)
            except TimeoutError:
                pass
            delay = min(delay * 2, BACKOFF[1])


def _table_of(topic: str) -> str:
    """A topic's table level for grouping log lines: a forged name is one group."""
    parts = topic.split("/")
    return parts[2] if len(parts) > 2 and re.match(m.NAME, parts[2]) else "?"
