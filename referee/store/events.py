"""The event store: every game of every evening as an append-only list of
events in SQLite.

WAL journal with ``synchronous=FULL``: when ``append`` returns, the event is
on disk and survives a power cut, and only then does the screen change.  The
score log, undo and resuming after a power cut are all derived from these
rows; beside them only settings and the addresses of the teams' web pages
are kept.  Undo is a row too (``{"type": "Undo"}``): it takes back the last
player action (see ``games.base.AUTOMATIC``).

Two kinds of time are kept.  ``events.at`` is the game's own clock (see
``referee.box.session``): what the rules count turn timers in, stepped by no
wall clock.  ``games.started``/``ended`` and ``events.wall`` are wall-clock
labels for people; beside each label the boot and the monotonic second it
was taken in, so that ``redate`` can correct a boot's labels once NTP has
stepped the clock.  Databases from before these columns are brought up to
date on open (``referee.store.schema.migrate``): their ``at`` was the wall
clock, which as a game clock simply goes on from where it was.

What can go wrong with the card is sorted once, in ``referee.store.writes``:
a write the card refuses raises ``Unsaved`` and changes nothing, a damaged
file raises ``Damaged`` when it is opened; a row that cannot be read is
passed over (a game's events stop before it) rather than failing the caller.
The settings, the team pages and the merges are kept by the classes the
store is made of (``referee.store.settings``, ``.team_pages``, ``.merges``).
"""
from __future__ import annotations

import dataclasses
import json
import sqlite3
import urllib.parse
from dataclasses import dataclass
from typing import Any, Iterator, NamedTuple

from referee.clock import Stamp
from referee.store import sqlite_file
from referee.store.merges import Merge, Merges, seated
from referee.store.schema import ADDED, SCHEMA, migrate
from referee.store.schema import read_json as _json
from referee.store.settings import Settings
from referee.store.team_pages import TeamPage, TeamPages
from referee.store.writes import (BEGIN, CORRUPT, NOTADB, READONLY, Damaged, Unsaved, code, undecodable, unsaved,
                                  versions_flipped)
from referee.store.writes import writes as _writes

# What the rest of the project takes from here, wherever each part is kept.
__all__ = ["ADDED", "SCHEMA", "UNDO", "Damaged", "GameRow", "LastRow", "Merge", "Snapshot", "Store", "TeamPage",
           "Unreadable", "Unsaved", "seated", "unsaved"]

UNDO = {"type": "Undo"}

@dataclass(frozen=True)
class GameRow:
    id: int
    name: str
    options: dict[str, Any]
    started: float
    ended: float | None


@dataclass(frozen=True)
class Unreadable:
    """See ``Store.unreadable``: ids of games lost whole, and the rows each
    other game has lost (game id -> count)."""
    games: tuple[int, ...] = ()
    rows: dict[int, int] = dataclasses.field(default_factory=dict)


@dataclass(frozen=True)
class Snapshot:
    """A game's state after row ``seq`` (see referee.box.session): ``depth``
    events in effect, the game clock at ``at``, ``state`` encoded by the
    rules named ``rules`` (referee.store.snapshot)."""
    seq: int
    depth: int
    at: float
    rules: str
    state: str | None = None


class LastRow(NamedTuple):
    """A game's last row: its number, and its event (or ``UNDO``) as data."""
    seq: int
    data: dict[str, Any] | None


class Store(Settings, TeamPages, Merges):
    """The record: its games and their events and snapshots here; its
    settings, team pages and merges from the classes it is made of."""

    def __init__(self, path: str, check: bool = True) -> None:
        self.path = path
        self.read_only = False
        try:
            self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._check_log()
            migrate(self)
            self._db.executescript(f"{BEGIN}; {SCHEMA} COMMIT;")   # all tables or none, even if cut
            # SQLite opens a file it may not write (a read-only mount, which
            # stops root too) read-only without a word, and the first key
            # would be the first to know: a write to the header finds out now.
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            self._db.execute(f"PRAGMA user_version = {int(version)}")
            # A flipped byte is found here, at start, not in the middle of a game.
            if check and self._db.execute("PRAGMA quick_check(1)").fetchone()[0] != "ok":
                raise Damaged(f"{path}: quick_check failed")
        except sqlite3.Error as exc:
            self._close_quietly()
            if code(exc) in (CORRUPT, NOTADB) or (code(exc) == READONLY and versions_flipped(path)) \
                    or undecodable(exc):
                raise Damaged(f"{path}: {exc}") from exc
            refused = unsaved(exc)
            if refused is None:
                raise
            raise refused from exc
        except Damaged:
            self._close_quietly()
            raise
        except UnicodeDecodeError as exc:
            # SQLite quoting damaged bytes in its message (a mangled schema)
            self._close_quietly()
            raise Damaged(f"{path}: {exc.object[:80]!r}") from exc

    def _check_log(self) -> None:
        # Before anything is written: the first write would restart the log
        # over the frames a damaged one hides (see sqlite_file.log_cut_short).
        busy, used, _done = self._db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        if busy or used < 0:
            return
        try:
            with open(self.path + "-wal", "rb") as f:
                log = f.read()
        except OSError:
            return
        if sqlite_file.log_cut_short(log, used):
            raise Damaged(f"{self.path}-wal: committed frames after a damaged one", log)

    @classmethod
    def unwritable(cls, path: str) -> Store:
        """The database as it is, where it cannot be written (a read-only or
        full card): every write raises ``Unsaved``; if even reading fails, an
        empty evening."""
        store = cls.__new__(cls)
        store.path = path
        store.read_only = True
        for uri in (f"file:{path}?mode=ro", f"file:{path}?immutable=1", "file::memory:"):
            try:
                db = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
                if uri.endswith(":memory:"):
                    db.executescript(SCHEMA)
                db.execute("PRAGMA query_only=ON")
                for table in ("games", "events", "settings", "team_pages"):
                    db.execute(f"SELECT 1 FROM {table} LIMIT 1").fetchall()
            except sqlite3.Error:
                continue
            store._db = db
            return store
        raise AssertionError("an in-memory database always opens")

    def _close_quietly(self) -> None:
        try:
            self._db.close()
        except (AttributeError, sqlite3.Error):
            pass

    @classmethod
    def open_read_only(cls, path: str) -> Store:
        """A read-only view of the store at ``path`` (the web's): WAL lets it
        read while the box writes, and it can never write itself (unlike
        ``unwritable``, the box's own fallback on a card it cannot write)."""
        store = cls.__new__(cls)
        store.path = path
        store.read_only = True
        store._db = sqlite3.connect(f"file:{urllib.parse.quote(path)}?mode=ro", uri=True, isolation_level=None,
                                    check_same_thread=False)
        return store

    def data_version(self) -> int:
        """A number that changes whenever another connection committed."""
        return int(self._db.execute("PRAGMA data_version").fetchone()[0])

    def close(self) -> None:
        self._db.close()

    # --- games ----------------------------------------------------------------

    @_writes
    def new_game(self, name: str, options: dict[str, Any], at: float, stamp: Stamp | None = None) -> int:
        """``at``: the wall-clock label; ``stamp`` where it came from."""
        boot, mono = (stamp.boot, stamp.mono) if stamp else (None, None)
        cur = self._db.execute("INSERT INTO games (name, options, started, boot, mono) VALUES (?, ?, ?, ?, ?)",
                               (name, json.dumps(options, ensure_ascii=False), at, boot, mono))
        assert cur.lastrowid is not None  # an INSERT sets it
        return cur.lastrowid

    @_writes
    def end_game(self, game: int, at: float, stamp: Stamp | None = None) -> None:
        boot, mono = (stamp.boot, stamp.mono) if stamp else (None, None)
        self._db.execute("UPDATE games SET ended = ?, end_boot = ?, end_mono = ? WHERE id = ?",
                         (at, boot, mono, game))

    @_writes
    def reopen_game(self, game: int) -> None:
        self._db.execute("UPDATE games SET ended = NULL WHERE id = ?", (game,))

    def game(self, game: int) -> GameRow | None:
        """The game, or None if there is none (or its row cannot be read)."""
        row = self._db.execute(f"SELECT {_GAME} FROM games WHERE id = ?", (game,)).fetchone()
        return _game(row) if row else None

    def games(self, since: float = 0.0, limit: int = 1000, before: int | None = None,
              playing: bool = False) -> list[GameRow]:
        """Games started at ``since`` or later, newest first; ``playing``:
        and every game not ended yet, whenever it started."""
        rows = self._db.execute(
            f"SELECT {_GAME} FROM games WHERE (started >= ? OR (? AND ended IS NULL)) "
            "AND id < ? ORDER BY id DESC LIMIT ?", (since, playing, before or 2**62, limit)).fetchall()
        return [g for g in map(_game, rows) if g is not None]

    def unreadable(self, known: frozenset[str], skip: int | None = None) -> Unreadable:
        """What of the record cannot be read though SQLite opens it (a byte
        flipped inside a row, which no check of the file's structure sees):
        games whose own row is not one, and for every other game but
        ``skip`` (the one the box resumes, which says so itself), how many
        rows from its first unreadable one on (``events`` stops there)."""
        games = {row[0]: _game(row) for row in self._db.execute(f"SELECT {_GAME} FROM games")}
        lost_games = sorted(id_ for id_, row in games.items() if row is None or row.name not in known)
        # SQLite's json_valid finds most damage in C; bytes that are not
        # UTF-8 pass it, so the text is decoded here too (no JSON parsing).
        cut: dict[int, int] = {}
        for game, seq, blob, valid in self._db.execute(
                "SELECT game, seq, CAST(data AS BLOB), "
                "CASE WHEN json_valid(data) THEN json_type(data, '$.type') = 'text' ELSE 0 END "
                "FROM events ORDER BY game, seq"):
            if game in cut or game == skip or game in lost_games:
                continue
            try:
                ok = bool(valid) and isinstance(blob, bytes) and bool(blob.decode())
            except UnicodeDecodeError:
                ok = False
            if not ok:
                cut[game] = seq
        lost_rows = {game: self.count_rows(game, seq) for game, seq in cut.items()}
        return Unreadable(tuple(lost_games), lost_rows)

    def finished(self, name: str) -> bool:
        """Whether the box has ever finished a game of ``name``."""
        return self._db.execute("SELECT 1 FROM games WHERE name = ? AND ended IS NOT NULL LIMIT 1",
                                (name,)).fetchone() is not None

    def ended_games(self) -> dict[int, float]:
        """Every game that has ended (the table tools are no game), with
        the label of its end: id -> ended."""
        return {game: ended for game, ended in self._db.execute(
            "SELECT id, ended FROM games WHERE ended IS NOT NULL AND name != 'tools'")
            if isinstance(ended, (int, float))}

    def latest_label(self) -> float:
        """The newest wall-clock label of any game."""
        row = self._db.execute("SELECT MAX(started), MAX(ended) FROM games").fetchone()
        return max(row[0] or 0.0, row[1] or 0.0)

    def redate(self, boot: str, offset: float) -> None:
        """The wall clock stepped: every label taken in ``boot`` becomes its
        monotonic second plus the new ``offset``."""
        with self._transaction():
            self._db.execute("UPDATE games SET started = mono + ? WHERE boot = ?", (offset, boot))
            self._db.execute("UPDATE games SET ended = end_mono + ? WHERE end_boot = ?", (offset, boot))
            self._db.execute("UPDATE events SET wall = mono + ? WHERE boot = ?", (offset, boot))


    # --- events -----------------------------------------------------------------

    @_writes
    def append(self, game: int, data: dict[str, Any], at: float, stamp: Stamp | None = None,
               view: dict[str, Any] | None = None, snapshot: Snapshot | None = None) -> int:
        """``at``: the game clock; ``stamp``: the wall-clock label; ``view``:
        the page an undo of this row lands on (a player's action: the page
        it was keyed on; an undo row: the page it landed on), kept in the
        same transaction so that a power cut cannot part them; likewise
        ``snapshot``: the game's state after this row."""
        wall, boot, mono = stamp or (None, None, None)
        page = None if view is None else json.dumps(view, ensure_ascii=False)
        with self._transaction():
            seq = self.last_seq(game) + 1
            self._db.execute("INSERT INTO events (game, seq, at, data, wall, boot, mono, view) "
                             "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                             (game, seq, at, json.dumps(data, ensure_ascii=False), wall, boot, mono, page))
            if snapshot is not None:
                self._insert_snapshot(game, dataclasses.replace(snapshot, seq=seq, at=at))
        return seq

    def view(self, game: int, seq: int) -> dict[str, Any] | None:
        """The page stored with a row (see ``append``), or None: none was
        stored (an automatic event, a database from before pages were kept,
        a salvaged game) or it cannot be read."""
        try:
            row = self._db.execute("SELECT CAST(view AS BLOB) FROM events WHERE game = ? AND seq = ?",
                                   (game, seq)).fetchone()
        except sqlite3.Error:   # a read-only old database without the column
            return None
        view = _json(row[0]) if row else None
        return view if isinstance(view, dict) else None

    def last_row(self, game: int) -> LastRow | None:
        """The game's last row, if it has any."""
        row = self._db.execute("SELECT seq, CAST(data AS BLOB) FROM events WHERE game = ? ORDER BY seq DESC LIMIT 1",
                               (game,)).fetchone()
        return LastRow(row[0], _json(row[1])) if row else None

    def last_seq(self, game: int) -> int:
        return int(self._db.execute("SELECT COALESCE(MAX(seq), 0) FROM events WHERE game = ?", (game,)).fetchone()[0])

    def count_rows(self, game: int, since: int) -> int:
        """How many rows of a game have ``seq`` >= ``since``."""
        return int(self._db.execute("SELECT COUNT(*) FROM events WHERE game = ? AND seq >= ?",
                                    (game, since)).fetchone()[0])

    def events(self, game: int) -> list[tuple[dict[str, Any], float]]:
        """Every row of a game, undo rows included, in order, up to the
        first that cannot be read."""
        kept = []
        for _seq, data, at in self.rows(game):
            if data is None:
                break
            kept.append((data, at))
        return kept

    def rows(self, game: int, after: int = 0) -> list[tuple[int, dict[str, Any] | None, float]]:
        """The rows of a game after row ``after`` as ``(seq, data, at)``;
        ``data`` is None where the stored bytes are not an event (a damaged
        row)."""
        return list(self.stream(game, after))

    def stream(self, game: int, after: int = 0,
               before: int | None = None) -> Iterator[tuple[int, dict[str, Any] | None, float]]:
        """``rows``, one at a time (a long game is never all in memory),
        up to row ``before`` if given."""
        rows = self._db.execute("SELECT seq, CAST(data AS BLOB), at FROM events WHERE game = ? AND seq > ? "
                                "AND seq < ? ORDER BY seq", (game, after, 2**62 if before is None else before))
        for seq, blob, at in rows:
            data = _json(blob)
            ok = isinstance(data, dict) and isinstance(data.get("type"), str) and isinstance(at, (int, float))
            yield seq, data if ok else None, at if isinstance(at, (int, float)) else 0.0

    def kinds(self, game: int, after: int = 0,
              before: int | None = None) -> Iterator[tuple[int, str | None, float]]:
        """The rows as ``stream`` gives them, with only the event's type
        (None where ``stream`` finds no event), read by SQLite's JSON
        functions without decoding the event: ``(seq, type, at)``."""
        rows = self._db.execute(
            "SELECT seq, CASE WHEN json_valid(data) THEN CASE WHEN typeof(at) IN ('integer', 'real') "
            "AND json_type(data) = 'object' AND json_type(data, '$.type') = 'text' "
            "THEN CAST(json_extract(data, '$.type') AS BLOB) END END, at "
            "FROM events WHERE game = ? AND seq > ? AND seq < ? ORDER BY seq",
            (game, after, 2**62 if before is None else before))
        for seq, kind, at in rows:
            try:   # SQLite's JSON lets bytes that are not UTF-8 pass
                yield seq, None if kind is None else kind.decode(), at
            except UnicodeDecodeError:
                yield seq, None, at

    @_writes
    def set_aside(self, game: int, seq: int) -> int:
        """Moves a game's rows from ``seq`` on out of its events (into
        ``set_aside``, kept for whoever wants to look), so that the game
        goes on from the last row that could be replayed.  Returns how many."""
        with self._transaction():
            self._db.execute("CREATE TABLE IF NOT EXISTS set_aside (game INTEGER, seq INTEGER, at, data BLOB)")
            self._db.execute("INSERT INTO set_aside SELECT game, seq, at, CAST(data AS BLOB) FROM events "
                             "WHERE game = ? AND seq >= ?", (game, seq))
            self._db.execute("DELETE FROM snapshots WHERE game = ? AND seq >= ?", (game, seq))   # they cover those rows
            return self._db.execute("DELETE FROM events WHERE game = ? AND seq >= ?", (game, seq)).rowcount

    # --- snapshots ---------------------------------------------------------------

    def snapshots(self, game: int, rules: str, limit: int) -> list[Snapshot]:
        """The newest ``limit`` snapshots of a game made by ``rules``,
        newest first, without their state (see ``snapshot_state``)."""
        try:
            found = self._db.execute("SELECT seq, depth, at FROM snapshots WHERE game = ? AND rules = ? "
                                     "ORDER BY seq DESC LIMIT ?", (game, rules, limit)).fetchall()
        except sqlite3.OperationalError:
            return []   # a database read as it is, from before snapshots
        return [Snapshot(seq, depth, at, rules) for seq, depth, at in found
                if all(isinstance(v, (int, float)) for v in (seq, depth, at))]

    def has_snapshots(self, game: int) -> bool:
        """Whether a game has snapshots at all, whatever rules made them."""
        try:
            return self._db.execute("SELECT 1 FROM snapshots WHERE game = ? LIMIT 1", (game,)).fetchone() is not None
        except sqlite3.OperationalError:
            return False

    def snapshot_state(self, game: int, seq: int) -> bytes | None:
        row = self._db.execute("SELECT CAST(state AS BLOB) FROM snapshots WHERE game = ? AND seq = ?",
                               (game, seq)).fetchone()
        return row[0] if row else None

    @_writes
    def add_snapshot(self, game: int, snapshot: Snapshot) -> None:
        self._insert_snapshot(game, snapshot)

    def _insert_snapshot(self, game: int, s: Snapshot) -> None:
        self._db.execute("INSERT OR REPLACE INTO snapshots (game, seq, depth, at, rules, state) "
                         "VALUES (?, ?, ?, ?, ?, ?)", (game, s.seq, s.depth, s.at, s.rules, s.state))


_GAME = "id, CAST(name AS BLOB), CAST(options AS BLOB), started, ended"


def _game(row: tuple[Any, ...]) -> GameRow | None:
    try:
        name = row[1].decode()
    except (AttributeError, UnicodeDecodeError):
        return None
    options = _json(row[2])
    if not isinstance(options, dict) or not isinstance(row[3], (int, float)):
        return None
    return GameRow(row[0], name, options, row[3], row[4] if isinstance(row[4], (int, float)) else None)
