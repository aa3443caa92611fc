"""The event store: every game of every evening as an append-only list of
events in SQLite.

WAL journal with ``synchronous=FULL``: when ``append`` returns, the event is
on disk and survives a power cut, and only then does the screen change.  The
score log, undo and resuming after a power cut are all derived from these
rows; beside them only settings and the addresses of the teams' web pages
are kept.  Undo is a row too (``{"type": "Undo"}``): it takes back the last
player action (see ``games.base.AUTOMATIC``).
"""
from __future__ import annotations

import json
import sqlite3
import urllib.parse
from dataclasses import dataclass

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id       INTEGER PRIMARY KEY,
    name     TEXT NOT NULL,
    options  TEXT NOT NULL,
    started  REAL NOT NULL,
    ended    REAL
);
CREATE TABLE IF NOT EXISTS events (
    game     INTEGER NOT NULL REFERENCES games(id),
    seq      INTEGER NOT NULL,
    at       REAL NOT NULL,
    data     TEXT NOT NULL,
    PRIMARY KEY (game, seq)
);
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
        self._db.executescript(SCHEMA)

    @classmethod
    def reader(cls, path: str) -> Store:
        """A read-only view of the store at ``path`` (the web's): WAL lets it
        read while the box writes, and it can never write itself."""
        store = cls.__new__(cls)
        store.path = path
        store._db = sqlite3.connect(f"file:{urllib.parse.quote(path)}?mode=ro", uri=True, isolation_level=None,
                                    check_same_thread=False)
        return store

    def data_version(self) -> int:
        """A number that changes whenever another connection committed."""
        return self._db.execute("PRAGMA data_version").fetchone()[0]

    def close(self) -> None:
        self._db.close()

    # --- games ----------------------------------------------------------------

    def new_game(self, name: str, options: dict, at: float) -> int:
        cur = self._db.execute("INSERT INTO games (name, options, started) VALUES (?, ?, ?)",
                               (name, json.dumps(options, ensure_ascii=False), at))
        return cur.lastrowid

    def end_game(self, game: int, at: float) -> None:
        self._db.execute("UPDATE games SET ended = ? WHERE id = ?", (at, game))

    def reopen_game(self, game: int) -> None:
        self._db.execute("UPDATE games SET ended = NULL WHERE id = ?", (game,))

    def game(self, game: int) -> GameRow | None:
        row = self._db.execute("SELECT id, name, options, started, ended FROM games WHERE id = ?",
                               (game,)).fetchone()
        return _game(row) if row else None

    def games(self, since: float = 0.0, limit: int = 1000, before: int | None = None) -> list[GameRow]:
        rows = self._db.execute(
            "SELECT id, name, options, started, ended FROM games WHERE started >= ? AND id < ? "
            "ORDER BY id DESC LIMIT ?", (since, before or 2**62, limit)).fetchall()
        return [_game(r) for r in rows]


    # --- events -----------------------------------------------------------------

    def append(self, game: int, data: dict, at: float) -> int:
        with self._db:  # one transaction: committed (and synced) on return
            self._db.execute("BEGIN IMMEDIATE")
            seq = self._db.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM events WHERE game = ?",
                                   (game,)).fetchone()[0]
            self._db.execute("INSERT INTO events (game, seq, at, data) VALUES (?, ?, ?, ?)",
                             (game, seq, at, json.dumps(data, ensure_ascii=False)))
        return seq

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
