"""The box's event store read as an outbox: the rows not yet acknowledged
by the broker, each with the public score-log entry it leads to.

Only the publisher reads it this way, on a read-only connection: the box
stays the store's one writer.  Where the publisher has got to is kept in a
small database of its own beside the store (``club.db``), one row per game:
the last row the broker acknowledged, and whether the game had ended then
(ending a game is not a row, but it changes the entry); and one row per
merge of two names (``referee.merging``), as it was when acknowledged, so
that a merge goes out once when made and once more when taken back.
"""
from __future__ import annotations

import json
import logging
import os
import sqlite3
import urllib.parse
from dataclasses import replace

from games import base
from referee.files import check_sound, opened
from referee.store import scorelog
from referee.store.events import UNDO, GameRow, seated
from referee.store.replay import effective, rules

CURSOR = """
CREATE TABLE IF NOT EXISTS sent (
    game   INTEGER PRIMARY KEY,
    seq    INTEGER NOT NULL,
    ended  INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS merges_sent (
    id     INTEGER PRIMARY KEY,      -- the box's merge id
    sent   TEXT NOT NULL             -- the merge as the broker acknowledged it (``Outbox.merges``)
);
"""


class Outbox:
    def __init__(self, store_path: str, cursor_path: str | None = None) -> None:
        self.store_path = store_path
        cursor_path = cursor_path or os.path.join(os.path.dirname(os.path.abspath(store_path)), "club.db")
        self._cursor = opened(cursor_path, _cursor, logging.getLogger("referee.club"),
                              "every game is sent again (the league takes each row once)")
        self._db: sqlite3.Connection | None = None
        self._inode: int | None = None
        self._version: int | None = None

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
        self._cursor.close()

    def _store(self) -> sqlite3.Connection | None:
        # The box may set a damaged file aside and start a new one: follow it.
        try:
            inode = os.stat(self.store_path).st_ino
        except FileNotFoundError:
            inode = None
        if inode != self._inode:
            if self._db is not None:
                self._db.close()
            self._db, self._inode, self._version = None, inode, None
            if inode is not None:
                uri = "file:" + urllib.parse.quote(os.path.abspath(self.store_path)) + "?mode=ro"
                self._db = sqlite3.connect(uri, uri=True, isolation_level=None)
        return self._db

    def changed(self) -> bool:
        """Whether the store was written since the last look (cheap: one
        pragma, no table read)."""
        db = self._store()
        if db is None:
            return False
        try:
            version = db.execute("PRAGMA data_version").fetchone()[0]
        except sqlite3.OperationalError:   # the box is creating it right now
            return False
        if version == self._version:
            return False
        self._version = version
        return True

    def current(self) -> int | None:
        """The game on the table's screens now (none while the box has made no
        store yet, or has just set a damaged one aside)."""
        db = self._store()
        if db is None:
            return None
        row = db.execute("SELECT value FROM settings WHERE key = 'current'").fetchone()
        return json.loads(row[0]) if row else None

    def pending(self) -> list[int]:
        """Games with rows (or an end) the broker has not acknowledged, oldest first."""
        db = self._store()
        if db is None:
            return []
        sent = {game: (seq, ended) for game, seq, ended in self._cursor.execute("SELECT game, seq, ended FROM sent")}
        found = db.execute(
            "SELECT g.id, g.ended IS NOT NULL, COALESCE(MAX(e.seq), 0) FROM games g "
            "LEFT JOIN events e ON e.game = g.id GROUP BY g.id ORDER BY g.id").fetchall()
        return [game for game, ended, seq in found if sent.get(game) != (seq, ended)]

    def entries(self, game: int) -> list[tuple[int, float, scorelog.Entry]]:
        """(seq, recorded at, score-log entry after that row) for each row of
        ``game`` not yet acknowledged; the last one again if only its end is new."""
        db = self._store()
        if db is None:
            return []
        row = db.execute("SELECT id, name, options, started, ended FROM games WHERE id = ?", (game,)).fetchone()
        game_row = GameRow(row[0], row[1], json.loads(row[2]), row[3], row[4])
        rows = [(seq, json.loads(data), at) for seq, data, at in
                db.execute("SELECT seq, data, at FROM events WHERE game = ? ORDER BY seq", (game,))]
        if not rows:   # begun, nothing played yet: the table still shows what it plays
            module = rules(game_row.name)
            return [(0, game_row.started, scorelog.entry_of(game_row, module, module.setup(dict(game_row.options))))]
        done = self._cursor.execute("SELECT seq FROM sent WHERE game = ?", (game,)).fetchone()
        after = min(done[0] if done else 0, rows[-1][0] - 1)
        return list(_replayed(game_row, rows, after))

    def merges(self) -> list[dict]:
        """The box's merges that changed since the broker acknowledged them
        (made, or taken back), oldest first, each with the two names as the
        table last typed them: ``{"id", "name", "into", "at", "undone"}``.
        A merge of a key no game seated (only a hand-edited store has one)
        stays on the box."""
        db = self._store()
        if db is None:
            return []
        try:
            rows = db.execute("SELECT id, from_key, into_key, at, undone FROM merges ORDER BY id").fetchall()
        except sqlite3.OperationalError:     # a store older than merges has none
            return []
        sent = dict(self._cursor.execute("SELECT id, sent FROM merges_sent"))
        changed = [row for row in rows if sent.get(row[0]) != _merge_text(row)]
        if not changed:
            return []
        spelled: dict[str, tuple[int, str]] = {}
        for game, name in seated(db):
            try:
                player = base.clean_name(name).casefold()     # as referee.web.players.key
            except base.Illegal:
                continue
            if game >= spelled.get(player, (-1, ""))[0]:
                spelled[player] = (game, name)
        out = []
        for merge, from_key, into_key, at, undone in changed:
            if from_key in spelled and into_key in spelled:
                out.append({"id": merge, "name": spelled[from_key][1], "into": spelled[into_key][1], "at": at,
                            "undone": undone, "row": (merge, from_key, into_key, at, undone)})
        return out

    def mark_merge(self, merge: dict) -> None:
        self._cursor.execute("INSERT INTO merges_sent (id, sent) VALUES (?, ?) "
                             "ON CONFLICT(id) DO UPDATE SET sent = excluded.sent",
                             (merge["id"], _merge_text(merge["row"])))

    def mark(self, game: int, seq: int, ended: bool) -> None:
        self._cursor.execute("INSERT INTO sent (game, seq, ended) VALUES (?, ?, ?) "
                             "ON CONFLICT(game) DO UPDATE SET seq = excluded.seq, ended = excluded.ended",
                             (game, seq, int(ended)))


def _cursor(path: str) -> sqlite3.Connection:
    db = sqlite3.connect(path, isolation_level=None)
    try:
        db.execute("PRAGMA journal_mode=WAL")
        db.executescript(CURSOR)
        db.execute("SELECT game, seq, ended FROM sent LIMIT 1").fetchall()
        db.execute("SELECT id, sent FROM merges_sent LIMIT 1").fetchall()
        check_sound(db, os.path.basename(path))
    except BaseException:
        db.close()
        raise
    return db


def _merge_text(row) -> str:
    return json.dumps(list(row))


def _replayed(row: GameRow, rows, after: int):
    """The entry after each row past ``after``: one pass over the game, a
    replay from the start only where an undo took something back."""
    module = rules(row.name)
    state = module.setup(dict(row.options))
    kept: list[tuple[dict, float]] = []
    last = rows[-1][0]
    for seq, data, at in rows:
        if data == UNDO:
            kept = effective([*kept, (data, at)])
            state = module.setup(dict(row.options))
            for kept_data, kept_at in kept:
                state = module.apply(state, base.decode(kept_data, module.EVENTS), kept_at)
        else:
            kept.append((data, at))
            state = module.apply(state, base.decode(data, module.EVENTS), at)
        if seq > after:
            shown = row if seq == last else replace(row, ended=None)
            yield seq, at, scorelog.entry_of(shown, module, state)
