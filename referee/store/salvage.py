"""A damaged database is set aside and what can be read of it is saved.

An SD card that loses power in the wrong microsecond, or wears out, can
flip a byte anywhere in ``referee.db`` or its write-ahead log: SQLite then
says ``file is not a database`` or ``database disk image is malformed`` on
every start, or, for the log, silently leaves out everything after the
damaged frame (``Store`` notices: see ``sqlite_file.log_cut_short``).  The box
must start anyway (issue 15), so ``open_store`` does this instead:

1. the damaged file and its ``-wal``/``-shm`` are renamed
   ``referee.db.damaged-<time>`` (kept, never written again);
2. a scratch copy gets its fixed header fields back (a flip there makes the
   whole file unreadable, though every page behind it is fine);
3. rows are read from it twice: by plain queries over rowid ranges, which
   halve around whatever fails, and from the table leaf pages themselves
   (``referee.store.sqlite_file``, the log's page images first), which finds the rows
   no query reaches behind a damaged schema, interior page or log frame.
   (The ``sqlite3`` shell's ``.recover`` does the latter for any schema,
   but it needs ``sqlite_dbpage``, which Debian's SQLite is built without.);
4. every game that can be read goes into a new database, with its events
   up to the first one missing or unreadable (the rules replay them in
   order, so what follows a hole cannot be replayed), the settings, and the
   merges of players' names the queries can read.

The ``Report`` says what was lost; the box shows it on the main screen.
"""
from __future__ import annotations

import contextlib
import dataclasses
import json
import logging
import os
import shutil
import sqlite3
import stat
import tempfile
import time
from typing import Any, Callable, Iterator, TypeGuard

from referee.store import sqlite_file
from referee.store.events import Damaged, Store
from referee.store.schema import ADDED, SCHEMA

log = logging.getLogger(__name__)

HEADER = b"SQLite format 3\x00"
FAILURES = 2000   # failed queries a table may cost before the rest of it is given up
# How many values a row of events and of games may hold: from the first
# schema's to today's (store.ADDED; a row written before a column was added
# keeps its fewer values).  Their first columns have stayed the same.
EVENT_FIELDS = range(4, 5 + sum(table == "events" for table, *_ in ADDED))
GAME_FIELDS = range(5, 6 + sum(table == "games" for table, *_ in ADDED))


@dataclasses.dataclass
class Report:
    aside: str             # where the damaged file now is
    games: int = 0         # games saved into the new database
    events: int = 0        # their events
    lost_games: int = 0    # games known to have been there (by their numbers) but not readable
    lost_events: int = 0   # events of saved games that could not be read or replayed


def unfit(path: str) -> str:
    """What stands at ``path`` when it is there but is no file SQLite can
    use: a folder, a FIFO (SQLite's own read of it would wait for good), a
    device such as /dev/zero, or a link to one; "" otherwise."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return "a link to nothing" if os.path.islink(path) else ""
    if stat.S_ISREG(mode):
        return ""
    kind = "a folder" if stat.S_ISDIR(mode) else "a FIFO" if stat.S_ISFIFO(mode) else "a device"
    return f"a link to {kind}" if os.path.islink(path) else kind


def _set_aside_unfit(path: str, now: float) -> Report | None:
    """Sets aside whatever at the database's path is no file (see ``unfit``):
    the database with its log, or its log or index alone; a report of an
    empty salvage when the database itself went."""
    report = None
    for suffix in ("", "-wal", "-shm"):
        kind = unfit(path + suffix)
        if not kind:
            continue
        if suffix:
            aside = f"{path}{suffix}.damaged-{time.strftime('%Y%m%d-%H%M%S', time.localtime(now))}"
            os.replace(path + suffix, aside)
        else:
            aside = set_aside(path, now)
            report = Report(aside)
        log.error("database: %s%s is %s, not a file: set aside as %s", path, suffix, kind, aside)
        if not suffix:
            break
    return report


def open_store(path: str, now: float) -> tuple[Store, Report | None]:
    """The store at ``path``; if the file is damaged, a new one holding
    what could be saved of it, and a report of what was lost."""
    report = _set_aside_unfit(path, now)
    try:
        return Store(path), report
    except Damaged as exc:
        log.error("database damaged (%s): setting it aside and saving what can be read", exc)
        kept = exc.log
    report = salvage(path, now, kept)
    log.error("database: the damaged file is now %s; saved %d games with %d events, lost %d games and "
              "%d events", report.aside, report.games, report.events, report.lost_games, report.lost_events)
    return Store(path), report


def set_aside(path: str, now: float) -> str:
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(now))
    aside = f"{path}.damaged-{stamp}"
    n = 1
    while os.path.lexists(aside):
        n += 1
        aside = f"{path}.damaged-{stamp}-{n}"
    for suffix in ("", "-wal", "-shm"):
        if os.path.lexists(path + suffix):     # a link is moved, not what it points at
            os.replace(path + suffix, aside + suffix)
    return aside


def salvage(path: str, now: float, wal: bytes = b"") -> Report:
    """``wal``: the log as it was, if SQLite has deleted it since."""
    aside = set_aside(path, now)
    if wal and not os.path.exists(aside + "-wal"):
        with open(aside + "-wal", "wb") as f:
            f.write(wal)
    report = Report(aside)
    found = Found()
    with tempfile.TemporaryDirectory(prefix=".salvage-", dir=os.path.dirname(os.path.abspath(path))) as scratch:
        copy = os.path.join(scratch, "copy.db")
        for suffix in ("", "-wal"):
            if os.path.exists(aside + suffix):
                shutil.copyfile(aside + suffix, copy + suffix)
        if os.path.exists(copy):
            _mend_header(copy)
            frames = _bytes(copy + "-wal")   # read before SQLite has had the copy
            with _reading(copy) as db:
                found.read_tables(db)
            found.read_pages(_bytes(copy), frames)
    found.write(path, report)
    return report


def _mend_header(copy: str) -> None:
    # The first 24 bytes are the same in every database the box writes
    # (page size aside): the magic text, format numbers 2/2 (WAL), no
    # reserved bytes, payload fractions 64/32/32; and the page count is
    # the file's.
    with open(copy, "r+b") as f:
        head = bytearray(f.read(32))
        if len(head) < 32:
            return
        size = int.from_bytes(head[16:18], "big")
        if size not in (1,) and (size < 512 or size & (size - 1)):
            size = 4096
        head[:16] = HEADER
        head[16:18] = size.to_bytes(2, "big")
        head[18:24] = bytes((2, 2, 0, 64, 32, 32))
        # The page count (28-31) follows from the file's length; a wrong one
        # makes SQLite call the whole file malformed.
        page = 65536 if size == 1 else size
        head[28:32] = (os.fstat(f.fileno()).st_size // page).to_bytes(4, "big")
        f.seek(0)
        f.write(head)


def _bytes(path: str) -> bytes:
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return b""


@contextlib.contextmanager
def _reading(path: str) -> Iterator[sqlite3.Connection]:
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        yield db
    finally:
        db.close()


def _rows(db: sqlite3.Connection, sql: str, lo: int, hi: int, out: list[tuple[Any, ...]],
          budget: list[int]) -> None:
    """Rows with rowid in [lo, hi], halving the range around what fails
    (``budget``: how many more failures to try around)."""
    try:
        out.extend(db.execute(sql, (lo, hi)).fetchall())
    except (sqlite3.Error, UnicodeDecodeError):   # the latter: SQLite quoting damaged bytes
        budget[0] -= 1
        if lo < hi and budget[0] > 0:
            mid = (lo + hi) // 2
            _rows(db, sql, lo, mid, out, budget)
            _rows(db, sql, mid + 1, hi, out, budget)


def _blob_text(value: object) -> str | None:
    if isinstance(value, bytes):
        try:
            return value.decode()
        except UnicodeDecodeError:
            return None
    return value if isinstance(value, str) else None


def _number(value: object) -> TypeGuard[float]:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


class Found:
    """Rows read from any source; the first reading of a row wins."""

    def __init__(self) -> None:
        # The rows to write, in their tables' column order.
        self.games: dict[int, tuple[int, str, str, float, float | None]] = {}
        self.events: dict[tuple[int, int], tuple[int, int, float, str]] = {}
        self.settings: dict[str, str] = {}
        self.team_pages: dict[str, tuple[str, int, int, str]] = {}
        self.merges: dict[int, tuple[int, str, str, float, float | None]] = {}
        self.highest_game = 0
        self.bad_events: set[tuple[int, int]] = set()   # rows there, but not readable
        self._newer: set[tuple[str, object]] = set()   # rows already taken from the log's newest page images

    def read_tables(self, db: sqlite3.Connection) -> None:
        try:
            size = db.execute("PRAGMA page_count").fetchone()[0] * db.execute("PRAGMA page_size").fetchone()[0]
        except (sqlite3.Error, UnicodeDecodeError):
            size = 1 << 24
        top = max(1 << 16, size)   # a bound on rowids: the box never deletes many rows
        tables: tuple[tuple[str, str, Callable[..., None]], ...] = (
                ("games", "rowid, CAST(name AS BLOB), CAST(options AS BLOB), started, ended", self.game),
                ("events", "game, seq, at, CAST(data AS BLOB)", self.event),
                ("settings", "CAST(key AS BLOB), CAST(value AS BLOB)", self.setting),
                ("team_pages", "token, game, team, csrf", self.team_page),
                ("merges", "id, from_key, into_key, at, undone", self.merge))
        for table, columns, take in tables:
            sql = f"SELECT {columns} FROM {table} WHERE rowid BETWEEN ? AND ?"
            try:
                db.execute(sql, (-2, -1)).fetchall()   # no rows: fails only if the table cannot be found
            except (sqlite3.Error, UnicodeDecodeError):
                continue
            rows: list[tuple[Any, ...]] = []
            _rows(db, sql, 0, top, rows, [FAILURES])
            for row in rows:
                take(*row)

    def read_pages(self, data: bytes, log: bytes) -> None:
        # Last, the leaf pages themselves (referee.store.sqlite_file): what no query
        # could reach behind a damaged schema or interior page, or behind a
        # damaged frame of the log.  The log's page images first, newest
        # first: they are younger than the file's.
        pages = sqlite_file.File(data)
        if log:
            newest: dict[int, bytes] = {}
            for number, image in sqlite_file.wal_pages(log, pages.size):
                newest.setdefault(number, image)
            for number, image in sqlite_file.wal_pages(log, pages.size):
                for rowid, values in pages.leaf_rows(image, 100 if number == 1 else 0, newest):
                    self.cell(rowid, values, newer=True)
        for rowid, values in pages.rows():
            self.cell(rowid, values)

    def cell(self, rowid: int, values: list[sqlite_file.Value], newer: bool = False) -> None:
        """A row found on a page, told by its shape whose it is.  ``newer``:
        from the log, where a row that changes (a game's end, a setting)
        may be younger than what the queries read, if they stopped at a
        damaged frame."""
        n = len(values)
        if n in EVENT_FIELDS and isinstance(values[3], sqlite_file.Text):   # set_aside keeps data as a BLOB
            self.event(values[0], values[1], values[2], bytes(values[3]))
        if n in GAME_FIELDS and values[0] is None:   # id: the rowid itself
            if newer and ("game", rowid) not in self._newer:
                self._newer.add(("game", rowid))
                self.games.pop(rowid, None)
            self.game(rowid, *values[1:5])
        if n == 2:
            if newer and ("setting", values[0]) not in self._newer:
                self._newer.add(("setting", values[0]))
                key = _blob_text(values[0])
                if key is not None:
                    self.settings.pop(key, None)
            self.setting(values[0], values[1])
        if n == 4:
            self.team_page(*(_blob_text(v) if isinstance(v, bytes) else v for v in values))

    def game(self, id: object, name_blob: object, options_blob: object, started: object, ended: object) -> None:
        name, options = _blob_text(name_blob), _blob_text(options_blob)
        if not isinstance(id, int) or id < 1:
            return
        self.highest_game = max(self.highest_game, id)
        if id in self.games or name is None or options is None or not _number(started):
            return
        try:
            if not isinstance(json.loads(options), dict):
                return
        except ValueError:
            return
        self.games[id] = (id, name, options, started, ended if _number(ended) else None)

    def event(self, game: object, seq: object, at: object, data: object) -> None:
        if not (isinstance(game, int) and isinstance(seq, int)) or (game, seq) in self.events:
            return
        if game >= 1:
            self.highest_game = max(self.highest_game, game)   # a game of its own, if its row is lost
        text = _blob_text(data)
        try:
            parsed = json.loads(text) if text is not None and _number(at) else None
        except ValueError:
            parsed = None
        if not (isinstance(parsed, dict) and isinstance(parsed.get("type"), str)) or text is None or not _number(at):
            self.bad_events.add((game, seq))
            return
        self.events[(game, seq)] = (game, seq, at, text)

    def setting(self, key_blob: object, value_blob: object) -> None:
        key, value = _blob_text(key_blob), _blob_text(value_blob)
        if key is None or value is None or key in self.settings:
            return
        try:
            json.loads(value)
        except ValueError:
            return
        self.settings[key] = value

    def team_page(self, token: object, game: object, team: object, csrf: object) -> None:
        if isinstance(token, str) and isinstance(csrf, str) and isinstance(game, int) and isinstance(team, int):
            self.team_pages.setdefault(token, (token, game, team, csrf))

    def merge(self, id: object, from_key: object, into_key: object, at: object, undone: object) -> None:
        if isinstance(id, int) and isinstance(from_key, str) and isinstance(into_key, str) and _number(at):
            self.merges.setdefault(id, (id, from_key, into_key, at, undone if _number(undone) else None))

    def write(self, path: str, report: Report) -> None:
        db = sqlite3.connect(path, isolation_level=None)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.executescript(SCHEMA)
            db.execute("BEGIN")
            for id, row in sorted(self.games.items()):
                db.execute("INSERT INTO games (id, name, options, started, ended) VALUES (?, ?, ?, ?, ?)", row)
                seqs = sorted(seq for game, seq in self.events if game == id)
                kept = 0
                while kept < len(seqs) and seqs[kept] == kept + 1:   # up to the first hole
                    db.execute("INSERT INTO events (game, seq, at, data) VALUES (?, ?, ?, ?)",
                               self.events[(id, kept + 1)])
                    kept += 1
                report.games += 1
                report.events += kept
                last = max([seq for game, seq in self.bad_events if game == id] + seqs[-1:] + [0])
                report.lost_events += last - kept
            report.lost_games = max(0, self.highest_game - len(self.games))
            for key, value in self.settings.items():
                db.execute("INSERT INTO settings (key, value) VALUES (?, ?)", (key, value))
            for page in self.team_pages.values():
                if page[1] in self.games:
                    db.execute("INSERT INTO team_pages (token, game, team, csrf) VALUES (?, ?, ?, ?)", page)
            for merge in self.merges.values():
                db.execute("INSERT INTO merges (id, from_key, into_key, at, undone) VALUES (?, ?, ?, ?, ?)", merge)
            db.execute("COMMIT")
        finally:
            db.close()
