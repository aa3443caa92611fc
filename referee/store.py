"""The event store: every game of every evening as an append-only list of
events in SQLite.

WAL journal with ``synchronous=FULL``: when ``append`` returns, the event is
on disk and survives a power cut, and only then does the screen change.  The
score log, undo and resuming after a power cut are all derived from these
rows; beside them only settings and the addresses of the teams' web pages
are kept.  Undo is a row too (``{"type": "Undo"}``): it takes back the last
player action (see ``games.base.AUTOMATIC``).

Two kinds of time are kept.  ``events.at`` is the game's own clock (see
``referee.session``): what the rules count turn timers in, stepped by no
wall clock.  ``games.started``/``ended`` and ``events.wall`` are wall-clock
labels for people; beside each label the boot and the monotonic second it
was taken in, so that ``redate`` can correct a boot's labels once NTP has
stepped the clock.  Databases from before these columns are brought up to
date on open (``_migrate``): their ``at`` was the wall clock, which as a
game clock simply goes on from where it was.
"""
from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id       INTEGER PRIMARY KEY,
    name     TEXT NOT NULL,
    options  TEXT NOT NULL,
    started  REAL NOT NULL,
    ended    REAL,
    boot     TEXT,             -- started was labelled in this boot,
    mono     REAL,             -- at this monotonic second
    end_boot TEXT,
    end_mono REAL
);
CREATE TABLE IF NOT EXISTS events (
    game     INTEGER NOT NULL REFERENCES games(id),
    seq      INTEGER NOT NULL,
    at       REAL NOT NULL,    -- game clock
    data     TEXT NOT NULL,
    wall     REAL,             -- wall-clock label
    boot     TEXT,
    mono     REAL,
    PRIMARY KEY (game, seq)
);
CREATE INDEX IF NOT EXISTS events_boot ON events(boot);
CREATE INDEX IF NOT EXISTS games_boot ON games(boot);
CREATE TABLE IF NOT EXISTS settings (
    key      TEXT PRIMARY KEY,
    value    TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS team_pages (
    token    TEXT PRIMARY KEY,
    game     INTEGER NOT NULL REFERENCES games(id),
    team     INTEGER NOT NULL,
    csrf     TEXT NOT NULL,
    UNIQUE (game, team)
);
"""
UNDO = {"type": "Undo"}

# Columns added since the first schema: (table, column, type).
ADDED = (("games", "boot", "TEXT"), ("games", "mono", "REAL"), ("games", "end_boot", "TEXT"),
         ("games", "end_mono", "REAL"), ("events", "wall", "REAL"), ("events", "boot", "TEXT"),
         ("events", "mono", "REAL"))

Stamp = tuple  # (wall label, boot, monotonic second): see referee.clock.WallLabels


@dataclass(frozen=True)
class GameRow:
    id: int
    name: str
    options: dict
    started: float
    ended: float | None


@dataclass(frozen=True)
class TeamPage:
    """A team's web page for one game: ``token`` is its address (a secret,
    see ``referee.web.teams``), ``csrf`` guards its forms."""
    token: str
    game: int
    team: int
    csrf: str


class Store:
    def __init__(self, path: str) -> None:
        self.path = path
        self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._migrate()
        # One transaction: a cut while a new database is made leaves no half schema.
        self._db.executescript(f"BEGIN IMMEDIATE; {SCHEMA} COMMIT;")

    def _migrate(self) -> None:
        tables = {r[0] for r in self._db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if "events" not in tables:
            return  # a new database: SCHEMA makes it whole
        with self._db:
            self._db.execute("BEGIN IMMEDIATE")
            for table, column, kind in ADDED:
                have = {r[1] for r in self._db.execute(f"PRAGMA table_info({table})")}
                if column not in have:
                    self._db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")
                    if (table, column) == ("events", "wall"):
                        self._db.execute("UPDATE events SET wall = at")  # it was the wall clock

    def close(self) -> None:
        self._db.close()

    # --- games ----------------------------------------------------------------

    def new_game(self, name: str, options: dict, at: float, stamp: Stamp | None = None) -> int:
        """``at``: the wall-clock label; ``stamp`` where it came from."""
        boot, mono = stamp[1:] if stamp else (None, None)
        cur = self._db.execute("INSERT INTO games (name, options, started, boot, mono) VALUES (?, ?, ?, ?, ?)",
                               (name, json.dumps(options, ensure_ascii=False), at, boot, mono))
        return cur.lastrowid

    def end_game(self, game: int, at: float, stamp: Stamp | None = None) -> None:
        boot, mono = stamp[1:] if stamp else (None, None)
        self._db.execute("UPDATE games SET ended = ?, end_boot = ?, end_mono = ? WHERE id = ?",
                         (at, boot, mono, game))

    def reopen_game(self, game: int) -> None:
        self._db.execute("UPDATE games SET ended = NULL WHERE id = ?", (game,))

    def game(self, game: int) -> GameRow | None:
        row = self._db.execute("SELECT id, name, options, started, ended FROM games WHERE id = ?",
                               (game,)).fetchone()
        return _game(row) if row else None

    def games(self, since: float = 0.0, limit: int = 1000, before: int | None = None,
              playing: bool = False) -> list[GameRow]:
        """Games started at ``since`` or later, newest first; ``playing``:
        and every game not ended yet, whenever it started."""
        rows = self._db.execute(
            "SELECT id, name, options, started, ended FROM games WHERE (started >= ? OR (? AND ended IS NULL)) "
            "AND id < ? ORDER BY id DESC LIMIT ?", (since, playing, before or 2**62, limit)).fetchall()
        return [_game(r) for r in rows]

    def latest_label(self) -> float:
        """The newest wall-clock label of any game."""
        row = self._db.execute("SELECT MAX(started), MAX(ended) FROM games").fetchone()
        return max(row[0] or 0.0, row[1] or 0.0)

    def redate(self, boot: str, offset: float) -> None:
        """The wall clock stepped: every label taken in ``boot`` becomes its
        monotonic second plus the new ``offset``."""
        with self._db:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute("UPDATE games SET started = mono + ? WHERE boot = ?", (offset, boot))
            self._db.execute("UPDATE games SET ended = end_mono + ? WHERE end_boot = ?", (offset, boot))
            self._db.execute("UPDATE events SET wall = mono + ? WHERE boot = ?", (offset, boot))


    # --- events -----------------------------------------------------------------

    def append(self, game: int, data: dict, at: float, stamp: Stamp | None = None) -> int:
        """``at``: the game clock; ``stamp``: the wall-clock label."""
        wall, boot, mono = stamp or (None, None, None)
        with self._db:  # one transaction: committed (and synced) on return
            self._db.execute("BEGIN IMMEDIATE")
            seq = self.last_seq(game) + 1
            self._db.execute("INSERT INTO events (game, seq, at, data, wall, boot, mono) VALUES (?, ?, ?, ?, ?, ?, ?)",
                             (game, seq, at, json.dumps(data, ensure_ascii=False), wall, boot, mono))
        return seq

    def last_seq(self, game: int) -> int:
        return self._db.execute("SELECT COALESCE(MAX(seq), 0) FROM events WHERE game = ?", (game,)).fetchone()[0]

    def events(self, game: int) -> list[tuple[dict, float]]:
        """Every row of a game, undo rows included, in order."""
        rows = self._db.execute("SELECT data, at FROM events WHERE game = ? ORDER BY seq", (game,))
        return [(json.loads(data), at) for data, at in rows]

    # --- settings ----------------------------------------------------------------

    def setting(self, key: str, default=None):
        row = self._db.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        return json.loads(row[0]) if row else default

    def set_setting(self, key: str, value) -> None:
        self._db.execute("INSERT INTO settings (key, value) VALUES (?, ?) "
                         "ON CONFLICT(key) DO UPDATE SET value = excluded.value", (key, json.dumps(value)))

    # --- team pages ------------------------------------------------------------------

    def team_page(self, game: int, team: int) -> TeamPage | None:
        row = self._db.execute("SELECT token, game, team, csrf FROM team_pages WHERE game = ? AND team = ?",
                               (game, team)).fetchone()
        return TeamPage(*row) if row else None

    def team_page_by_token(self, token: str) -> TeamPage | None:
        row = self._db.execute("SELECT token, game, team, csrf FROM team_pages WHERE token = ?",
                               (token,)).fetchone()
        return TeamPage(*row) if row else None

    def add_team_page(self, page: TeamPage) -> None:
        self._db.execute("INSERT INTO team_pages (token, game, team, csrf) VALUES (?, ?, ?, ?)",
                         (page.token, page.game, page.team, page.csrf))


def _game(row) -> GameRow:
    return GameRow(row[0], row[1], json.loads(row[2]), row[3], row[4])
