"""``referee league``: every table of the club, tonight's standings, the
history — from what the boxes publish, kept in a SQLite file of its own.

Scoring across tables (documented in README, "Club night"): every finished
game counts once for each of its players; each of its winners gets a win
(a shared win is a win for each).  Players are matched by name, as typed
at the tables, a name a box's merge joined into another player counted as
that player.  Da Vinci Code's tournament points are added up per name
across tables.  Standings: most wins, then most Da Vinci points, then
fewest games played, then name.

Beside the standings, every player's page and ratings over every table's
games (``/p/``): a finished game's result and OpenSkill ratings, worked out
by the box's web code (``referee.web.players``: ``result_from`` and
``Rater``), with the names matched as the boxes match them (composed,
spaces single, case ignored), so that a name meeting across tables is one
player.  The results are kept in the league's file (``results``); the
ratings are counted from them in the order the games ended, once at start
and then game by game.

What is stored is what the door let in (``referee.club.messages``): each
game's entry as the typed structure that decoded it, never the JSON as it
came.  Nothing stored is trusted either: at start every game row is read
again as a message arriving then would be, one that no longer passes is
set aside (kept in ``set_aside``, with a log line), and the results are
worked out again from the games kept.  What the league holds in memory (the
players and their ratings) changes only once its database has the change:
a write that fails, or a rating that refuses a result, leaves it as it was.

The boxes' merges of two names are kept too (``merges``, in the order the
league first took them; an undo marks its row), and the league counts the
names they join as one player at every table; which merges apply, and
which two boxes' merges disagree, is worked out again from them and the
results (``referee.club.joins``), never stored.
"""
from __future__ import annotations

import asyncio
import copy
import dataclasses
import datetime as dt
import logging
import os
import re
import sqlite3
import time
import zlib
from collections import Counter
from collections.abc import Callable, Mapping, Sequence

import aiomqtt
import msgspec

from games.base import Illegal
from referee import catalogue
from referee.club import joins
from referee.club import messages as m
from referee.club.publisher import BACKOFF, Faults, keep_connected
from referee.config import Config
from referee.files import check_sound
from referee.store.scorelog import evening_start
from referee.web.players import Rater, Result, key, result_from

log = logging.getLogger("referee.league")
SAID = 3       # stored rows set aside that the log line names; the rest it counts
MERGES = 1000  # merges the league keeps of one table: a club's names merged many times over
KEPT_REFUSED = 1024   # retained messages refused, remembered so as to say each once

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
CREATE TABLE IF NOT EXISTS merges (     -- the boxes' merges of two names, as sent (referee.club.joins)
    n       INTEGER PRIMARY KEY,     -- the order the league first took them in: the earlier stands
    tbl     TEXT NOT NULL,
    id      INTEGER NOT NULL,        -- the box's own merge id
    name    TEXT NOT NULL,
    into_name TEXT NOT NULL,
    at      REAL NOT NULL,
    undone  REAL,
    UNIQUE (tbl, id)
);
CREATE TABLE IF NOT EXISTS set_aside (   -- stored rows today's checks refuse, kept for whoever looks
    tbl     ANY,
    game    ANY,
    seq     ANY,
    started ANY,
    entry   ANY,
    why     TEXT NOT NULL,
    at      REAL NOT NULL                -- when the league set it aside
);
"""


class Played(m.Summary, kw_only=True):
    """A game as the league's pages list it: what it keeps of the entry,
    and the table and row that brought it."""
    table: str
    seq: int


class League:
    """The league's own store.  ``take`` is the only way in."""

    def __init__(self, path: str, clock=time.time) -> None:
        self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        try:
            self._db.execute("PRAGMA journal_mode=WAL")
            # Not a sync to disk at every message (10 000 merges waited on one each): a power cut may lose
            # the last ones, which the boxes' retained messages bring again, never the file.
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.executescript(SCHEMA)
            check_sound(self._db, os.path.basename(path))
        except BaseException:
            self._db.close()
            raise
        self.clock = clock
        self.version = 0
        self.counts = {"taken": 0, "duplicate": 0, "refused": 0, "failed": 0}
        self.faults = Faults()
        self.on_change: Callable[[], None] | None = None   # called after each change (the pages' live stream)
        self.connected = False    # to the broker, now
        self.restarts = 0         # of the listener, after a fault it did not expect
        self._tonight: tuple[float | None, int] = (None, 0)  # (evening, messages refused or failed in it)
        self._refused_retained: dict[tuple[str, int, int], None] = {}   # said once: (topic, size, CRC)
        self._set_aside()
        self.players = Rater()
        self.tables_of: dict[int, str] = {}       # result -> the table it was played at
        self.joins = joins.Joins()                # the merges as stored, in the order taken, judged
        self._merges_of: Counter[str] = Counter()   # each table's merges kept
        self._rebuild()

    def close(self) -> None:
        self._db.close()

    @property
    def verdicts(self) -> list[joins.Verdict]:
        """On each merge in effect, in the order taken."""
        return list(self.joins.verdicts.values())

    def take(self, topic: str, payload: bytes, retained: bool = False) -> str:
        """One message from the broker: "taken", "duplicate", "refused" or
        "failed".  Never raises: one message, whatever it holds, must not
        end the listening for the rest of the evening.  A retained message
        refused is said once: the broker sends it again at every
        reconnection, and it is passed over then as a duplicate."""
        now = self.clock()
        if retained:
            seen = (topic, len(payload), zlib.crc32(payload))
            if seen in self._refused_retained:
                self.counts["duplicate"] += 1
                return "duplicate"
        try:
            message = m.decode(topic, payload, now)
            outcome = (self._status(message) if isinstance(message, m.Status) else
                       self._merge(message) if isinstance(message, m.Merge) else self._entry(message))
        except m.Refused as exc:
            self.faults(f"{_table_of(topic)} {exc.kind}", "league: refused a message on %s: %s", m.short(topic), exc)
            outcome = "refused"
        except Exception as exc:   # noqa: BLE001  one message the league cannot take: logged, it listens on
            self.faults(f"{_table_of(topic)} failed", "league: could not take a message on %s: %r",
                        m.short(topic), exc)
            outcome = "failed"
        self.counts[outcome] += 1
        if retained and outcome == "refused":
            if len(self._refused_retained) >= KEPT_REFUSED:
                self._refused_retained.pop(next(iter(self._refused_retained)))
            self._refused_retained[seen] = None
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

    def _set_aside(self) -> None:
        """Every stored game read again as if it arrived now: one that today's
        checks refuse (stored by an older league, or damaged) would fail
        every page, and is moved to ``set_aside``, said in one log line for
        them all; one kept as it came is rewritten as its typed entry.
        Tables whose names no box may have are dropped."""
        now = self.clock()
        refused = []
        with self._db:
            self._db.execute("BEGIN")
            for rowid, tbl, game, seq, started, text in self._db.execute(
                    "SELECT rowid, tbl, game, seq, started, entry FROM games").fetchall():
                try:
                    if not isinstance(tbl, str) or not re.match(m.NAME, tbl) or type(seq) is not int:
                        raise m.Refused("shape", "its table or row is not one a box has")
                    entry = m.stored(text, game, now)
                except m.Refused as exc:
                    refused.append(f"game {m.short(game)} of table {m.short(tbl)}: {exc}")
                    self._db.execute("INSERT INTO set_aside VALUES (?, ?, ?, ?, ?, ?, ?)",
                                     (tbl, game, seq, started, text, str(exc), now))
                    self._db.execute("DELETE FROM games WHERE rowid = ?", (rowid,))
                    continue
                typed = _text(entry)
                if typed != text or started != entry.started:
                    self._db.execute("UPDATE games SET entry = ?, started = ? WHERE rowid = ?",
                                     (typed, entry.started, rowid))
            for n, tbl, merge, name, into, at, undone in self._db.execute(
                    "SELECT n, tbl, id, name, into_name, at, undone FROM merges").fetchall():
                try:
                    if not isinstance(tbl, str) or not re.match(m.NAME, tbl):
                        raise m.Refused("shape", "its table is not one a box has")
                    m.merge_checked(_stored_merge(tbl, merge, name, into, at, undone), now)
                except (m.Refused, msgspec.ValidationError) as exc:
                    refused.append(f"merge {m.short(merge)} of table {m.short(tbl)}: {exc}")
                    self._db.execute("INSERT INTO set_aside VALUES (?, ?, NULL, ?, ?, ?, ?)",
                                     (tbl, merge, at, _json([name, into, undone]), str(exc), now))
                    self._db.execute("DELETE FROM merges WHERE n = ?", (n,))
            bad = [name for (name,) in self._db.execute("SELECT name FROM tables")
                   if not isinstance(name, str) or not re.match(m.NAME, name)]
            self._db.executemany("DELETE FROM tables WHERE name = ?", [(name,) for name in bad])
        if refused:
            log.warning("league: set aside %d stored games or merges that today's checks refuse "
                        "(kept in set_aside): %s%s",
                        len(refused), "; ".join(refused[:SAID]), "; …" if len(refused) > SAID else "")

    def _rebuild(self) -> None:
        """The results worked out again from the games kept, the stored ones
        corrected where they differ (a result is derived data: never
        trusted); then the ratings counted from them."""
        results: dict[int, Result] = {}
        tables_of: dict[int, str] = {}
        changed = 0
        with self._db:
            self._db.execute("BEGIN")
            stored = {(tbl, game): (rid, text) for rid, tbl, game, text in
                      self._db.execute("SELECT id, tbl, game, result FROM results").fetchall()}
            for tbl, game, text in self._db.execute("SELECT tbl, game, entry FROM games").fetchall():
                result = _result_of(_decode(text))
                rid, was = stored.pop((tbl, game), (None, None))
                if result is None:
                    if rid is not None:
                        self._db.execute("DELETE FROM results WHERE id = ?", (rid,))
                        changed += 1
                    continue
                if rid is None:
                    rid = self._db.execute("INSERT INTO results (tbl, game, result) VALUES (?, ?, '')",
                                           (tbl, game)).lastrowid
                result = dataclasses.replace(result, game=rid)
                if was != result.to_json():
                    self._db.execute("UPDATE results SET result = ? WHERE id = ?", (result.to_json(), rid))
                    changed += 1
                results[rid], tables_of[rid] = result, tbl
            for rid, _text in stored.values():      # results of no game kept
                self._db.execute("DELETE FROM results WHERE id = ?", (rid,))
                changed += 1
        if changed:
            log.warning("league: %d results worked out again from the games kept", changed)
        merges = [joins.ClubMerge(*row) for row in self._db.execute(
            "SELECT tbl, id, name, into_name, at, undone FROM merges ORDER BY n")]
        self.joins = joins.Joins(merges, results, tables_of)
        self._merges_of = Counter(merge.table for merge in merges)
        self.players, self.tables_of = _counted(results, self.joins.aliases), tables_of

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

    def _entry(self, e: m.Kept) -> str:
        with self._db:
            self._db.execute("BEGIN")   # all of it or, should a step fail, nothing
            row = self._db.execute("SELECT seq FROM games WHERE tbl = ? AND game = ?", (e.table, e.game)).fetchone()
            if row is not None and (row[0] > e.seq or (row[0] == e.seq and e.kind == "event")):
                return "duplicate"
            self._db.execute("INSERT INTO games (tbl, game, seq, started, entry) VALUES (?, ?, ?, ?, ?) "
                             "ON CONFLICT(tbl, game) DO UPDATE SET seq = excluded.seq, entry = excluded.entry",
                             (e.table, e.game, e.seq, e.entry.started, _text(e.entry)))
            if e.kind == "event":
                self._db.execute("INSERT OR IGNORE INTO arrivals (tbl, game, seq, at) VALUES (?, ?, ?, ?)",
                                 (e.table, e.game, e.seq, e.at))
            self._db.execute("INSERT OR IGNORE INTO tables (name, online, game, seen) VALUES (?, 1, ?, ?)",
                             (e.table, e.game, e.at))
            rated = self._result(e)
        # Committed: only now does what the pages show change.
        if rated is not None:
            players, tables_of, judged, seated = rated
            if judged is not None:
                self.joins = judged
            elif seated is not None:
                self.joins.seat(*seated)
            self.joins.tables_of = tables_of
            players.aliases = self.joins.aliases
            self.players, self.tables_of = players, tables_of
        return "taken"

    def _merge(self, merge: m.Merge) -> str:
        """A box's merge, made or taken back: stored, then judged after the
        merges before it (``joins.Joins``), the players counted again only
        where it joined a name that played.  A table's ``MERGES`` merges
        are all the league keeps of it: one more is refused, said in the
        log, its undos still taken."""
        made = joins.ClubMerge(merge.table, merge.id, merge.name, merge.into, merge.at, merge.undone)
        with self._db:
            self._db.execute("BEGIN")
            row = self._db.execute("SELECT name, into_name, at, undone FROM merges WHERE tbl = ? AND id = ?",
                                   (merge.table, merge.id)).fetchone()
            if row is not None and row[:2] == (merge.name, merge.into) and (
                    row[3] is not None or merge.undone is None):
                return "duplicate"     # sent again (retained), or older than the undo the league has
            if row is None and self._merges_of[merge.table] >= MERGES:
                raise m.Refused("merges", f"table {merge.table} has sent {MERGES} merges, the most the league "
                                          "keeps of one table: this one is not taken")
            self._db.execute("INSERT INTO merges (tbl, id, name, into_name, at, undone) VALUES (?, ?, ?, ?, ?, ?) "
                             "ON CONFLICT(tbl, id) DO UPDATE SET name = excluded.name, "
                             "into_name = excluded.into_name, at = excluded.at, undone = excluded.undone",
                             (merge.table, merge.id, merge.name, merge.into, merge.at, merge.undone))
            verdict, judged, players = None, None, self.players
            if row is None:            # after every merge taken: judged alone
                verdict = self.joins.judged(made) if made.undone is None else None
                if verdict is not None and self.joins.joins(verdict):
                    players = _counted(self.players.results, self.joins.after(verdict))
            elif not self.joins.changes_nothing(made):      # it changes verdicts given: all judged again
                merges = dict(self.joins.merges)
                merges[(made.table, made.id)] = made
                judged = joins.Joins(merges.values(), self.players.results, self.tables_of)
                players = _counted(self.players.results, judged.aliases)
        # Committed: only now does what the pages show change.
        if row is None:
            self.joins.take(made, verdict)
            self._merges_of[made.table] += 1
        elif judged is None:
            self.joins.drop(made)
        else:
            self.joins = judged
        players.aliases = self.joins.aliases
        self.players = players
        return "taken"

    def _result(self, e: m.Kept) -> tuple[Rater, dict[int, str], joins.Joins | None,
                                           tuple[int, Result] | None] | None:
        """Stores the game's result as it stands now, and returns what
        ``_entry`` takes once stored (None: no change): the players and
        tables rated with it, and either the merges judged again with it
        or the game to seat in the merges' judge as it is (``Joins.fits``).
        A game that ended after every one rated is one rating update, any
        other change (a game taken back, one that reached the league late,
        one where two joined names sat together) counts the ratings again
        from the first game.  Either is worked out on a copy: a rating that
        fails leaves the league's own as they were (and the store's: the
        transaction is undone)."""
        result = _result_of(e.entry)
        row = self._db.execute("SELECT id, result FROM results WHERE tbl = ? AND game = ?",
                               (e.table, e.game)).fetchone()
        if result is None and row is None:     # a game in play: most messages
            return None
        results = dict(self.players.results)
        tables_of = dict(self.tables_of)
        if result is None:
            self._db.execute("DELETE FROM results WHERE id = ?", (row[0],))
            results.pop(row[0], None)
            tables_of.pop(row[0], None)
            judged = joins.Joins(self.joins.merges.values(), results, tables_of)
            return _counted(results, judged.aliases), tables_of, judged, None
        if row is None:
            rid = self._db.execute("INSERT INTO results (tbl, game, result) VALUES (?, ?, '')",
                                   (e.table, e.game)).lastrowid
            assert rid is not None   # an INSERT sets it
        else:
            rid = row[0]
        result = dataclasses.replace(result, game=rid)
        if row is not None and row[1] == result.to_json():
            return None
        self._db.execute("UPDATE results SET result = ? WHERE id = ?", (result.to_json(), rid))
        tables_of[rid] = e.table
        last = max(((r.ended, r.game) for r in results.values()), default=(0.0, 0))
        results[rid] = result
        if row is not None or not self.joins.fits(rid, result):
            # A game changed, or one where two joined names sat together (which parts them again).
            judged = joins.Joins(self.joins.merges.values(), results, tables_of)
            return _counted(results, judged.aliases), tables_of, judged, None
        if (result.ended, rid) > last:
            players = _copy(self.players)
            players.results[rid] = result
            players.rate(result)
            players.learn(result)
            return players, tables_of, None, (rid, result)
        return _counted(results, self.joins.aliases), tables_of, None, (rid, result)

    # --- what the pages show ---------------------------------------------------------

    def games(self, since: float, until: float | None = None) -> list[Played]:
        """Games begun in [since, until) and, for tonight, any still in play."""
        rows = self._db.execute("SELECT tbl, seq, entry FROM games WHERE started >= ? AND started < ? "
                                "ORDER BY started DESC", (since, until or 2**62)).fetchall()
        if until is None:
            rows += self._db.execute("SELECT tbl, seq, entry FROM games WHERE started < ? AND CASE "
                                     "WHEN json_valid(entry) THEN json_extract(entry, '$.status') END = 'playing'",
                                     (since,)).fetchall()
        games = []
        for tbl, seq, text in rows:
            entry = _decode(text)
            if entry is None:     # changed under the league since it started: left out, said once a minute
                self.faults("stored", "league: a stored game of table %s cannot be read; it is left out",
                            m.short(tbl))
                continue
            games.append(Played(table=tbl, seq=seq, **msgspec.structs.asdict(entry)))
        return games

    def tables(self, tonight: list[Played]) -> list[dict]:
        games = {(g.table, g.id): g for g in tonight}
        out = []
        for name, online, game, seen in self._db.execute("SELECT name, online, game, seen FROM tables ORDER BY name"):
            entry = games.get((name, game))
            out.append({"table": name, "online": bool(online), "seen": seen, "game": entry and entry.game,
                        "status": entry and entry.status, "round": entry and len(entry.rounds),
                        "leaders": leaders(entry) if entry else []})
        return out

    def tonight(self, now: float) -> dict:
        games = self.games(evening_start(now))
        return {"broker": self.connected, "health": self.health(), "tables": self.tables(games),
                "standings": standings(games, self.players), "games": games, "merges": joins.shown(self.verdicts)}

    def evening(self, day: dt.date) -> dict:
        start = evening_start(dt.datetime.combine(day, dt.time(12)).timestamp())
        games = self.games(start, start + 86400)
        return {"standings": standings(games, self.players), "games": games}

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


def _stored_merge(tbl, merge, name, into, at, undone) -> m.Merge:
    """A stored merge as the message that brought it, typed as one arriving is."""
    return msgspec.convert({"v": m.VERSION, "kind": "merge", "table": tbl, "id": merge, "name": name, "into": into,
                            "at": at, "undone": undone}, m.Merge, strict=True)


def _json(value) -> str:
    return msgspec.json.encode(value).decode()


def _text(entry: m.Summary) -> str:
    """An entry as the league stores it: the typed structure's JSON."""
    return m.encode(entry).decode()


def _decode(text) -> m.Summary | None:
    """A stored entry, or None if it is not one (the store is read, never trusted)."""
    try:
        return msgspec.json.decode(text, type=m.Summary)
    except (msgspec.DecodeError, TypeError, RecursionError):
        return None


def _result_of(entry: m.Summary | None) -> Result | None:
    """A game's result once it has ended, or None."""
    if entry is None or entry.ended is None:
        return None
    return result_from(entry, entry)


def _counted(results: dict[int, Result], aliases: Mapping[str, str] | None = None) -> Rater:
    """Players and ratings counted from ``results``, in the order the games
    ended; ``aliases`` kept as given (the merges' view, not a copy)."""
    players = Rater(aliases={} if aliases is None else aliases, results=results)  # type: ignore[arg-type]
    players.rate_all()
    players.learn_all()
    return players


def _copy(players: Rater) -> Rater:
    """A copy to rate one more result on; the results themselves (frozen)
    are shared, not copied."""
    return copy.deepcopy(players, {id(r): r for r in players.results.values()})


def leaders(entry: m.Summary) -> list[str]:
    totals = entry.totals
    if not totals:
        return []
    best = max(totals.values())
    return [name for name, points in totals.items() if points == best]


def standings(games: Sequence[m.Summary], players: Rater | None = None) -> list[dict]:
    """Rows by name as typed; a name a box's merge joined into another
    player (``players.aliases``) counts as that player, under its name."""
    table: dict[str, dict] = {}
    counted = [game.name for game in catalogue.league_points()]
    for g in games:
        if g.status != "finished":
            continue
        for seat in g.players:
            name = _as_player(seat, players)
            row = table.setdefault(name, {"name": name, "played": 0, "wins": 0, **dict.fromkeys(counted, 0)})
            row["played"] += 1
            row["wins"] += seat in g.winners
            if g.game in counted and g.scored:
                row[g.game] += g.totals.get(seat, 0)
    return sorted(table.values(), key=lambda r: (-r["wins"], *(-r[game] for game in counted), r["played"], r["name"]))


def _as_player(name: str, players: Rater | None) -> str:
    """The name of the player a merge joined ``name`` into, or ``name``."""
    if players is None or not players.aliases:
        return name
    try:
        joined = players.aliases.get(key(name))
    except Illegal:
        return name
    return players.names.get(joined, name) if joined else name


async def follow(config: Config, league: League, stop: asyncio.Event) -> None:
    """Take what the club's boxes publish until ``stop`` is set."""
    async def session(mqtt: aiomqtt.Client) -> None:
        await mqtt.subscribe(m.topic(config.club.name, "#"), qos=1)
        log.info("league: following club %s on %s", config.club.name, config.club.broker)
        league.link(True)
        async for message in mqtt.messages:
            payload = message.payload if isinstance(message.payload, bytes) else b""
            if league.take(str(message.topic), payload, message.retain) == "taken" and league.on_change:
                league.on_change()
            # Messages waiting in the client's queue come without a pause:
            # each lets the pages in before the next.
            await asyncio.sleep(0)

    # keep_connected rides out the broker's faults; anything else that
    # escapes a session (a bug of ours) is logged and the session begun
    # again, so the league never stops listening while saying "connected".
    delay = BACKOFF[0]
    while not stop.is_set():
        try:
            await keep_connected(config, f"referee-league-{config.club.name}", session, stop, league.faults,
                                 lost=lambda: league.link(False), most_bytes=m.PACKET_BYTES)
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
