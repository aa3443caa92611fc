"""The store's tables, brought up to date on open, and how their stored
JSON text is read."""
from __future__ import annotations

import json
from typing import Any

from referee.store.writes import Connected

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
    view     TEXT,             -- the page the box showed before the key (see Store.append)
    PRIMARY KEY (game, seq)
);
CREATE INDEX IF NOT EXISTS events_boot ON events(boot);
CREATE INDEX IF NOT EXISTS games_boot ON games(boot);
CREATE TABLE IF NOT EXISTS settings (
    key      TEXT PRIMARY KEY,
    value    TEXT NOT NULL
);
-- A game's state after row ``seq``, so that a start replays only the rows
-- after it (see referee.box.session).  ``depth``: events in effect at ``seq``
-- (undo rows taken back); ``at``: the game clock there; ``rules``: the
-- fingerprint of the rules that made ``state`` (referee.store.snapshot).
CREATE TABLE IF NOT EXISTS snapshots (
    game     INTEGER NOT NULL REFERENCES games(id),
    seq      INTEGER NOT NULL,
    depth    INTEGER NOT NULL,
    at       REAL NOT NULL,
    rules    TEXT NOT NULL,
    state    TEXT NOT NULL,
    PRIMARY KEY (game, seq)
);
CREATE TABLE IF NOT EXISTS team_pages (
    token    TEXT PRIMARY KEY,
    game     INTEGER NOT NULL REFERENCES games(id),
    team     INTEGER NOT NULL,
    csrf     TEXT NOT NULL,
    UNIQUE (game, team)
);
-- One person, one name: ``from_key`` (a player, as ``referee.web.players.key``
-- spells one) is counted as ``into_key`` from now on, until ``undone``.
-- Written by the box only, when the table's merge page asks (referee.merging).
-- The id comes last: a repair that reads rows off damaged pages tells the
-- tables' rows apart by their shape, and a games row starts with its id.
CREATE TABLE IF NOT EXISTS merges (
    from_key TEXT NOT NULL,
    into_key TEXT NOT NULL,
    at       REAL NOT NULL,
    undone   REAL,             -- when it was taken back; NULL while it holds
    id       INTEGER PRIMARY KEY
);
"""

# Columns added since the first schema: (table, column, type).
ADDED = (("games", "boot", "TEXT"), ("games", "mono", "REAL"), ("games", "end_boot", "TEXT"),
         ("games", "end_mono", "REAL"), ("events", "wall", "REAL"), ("events", "boot", "TEXT"),
         ("events", "mono", "REAL"), ("events", "view", "TEXT"))


def migrate(store: Connected) -> None:
    """Columns added since the first schema are added here; tables added
    since (snapshots) come from SCHEMA, which only makes what is missing."""
    db = store._db
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if "events" not in tables:
        return  # a new database: SCHEMA makes it whole
    with store._transaction():
        for table, column, kind in ADDED:
            have = {r[1] for r in db.execute(f"PRAGMA table_info({table})")}
            if column not in have:
                db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")
                if (table, column) == ("events", "wall"):
                    db.execute("UPDATE events SET wall = at")  # it was the wall clock


def read_json(data: bytes | str | None) -> Any:
    """A stored JSON text, or None if the bytes do not hold one."""
    if data is None:
        return None
    try:
        return json.loads(data)
    except (TypeError, ValueError):   # bad UTF-8 is a ValueError too
        return None
