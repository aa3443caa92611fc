"""Two names of one person: the merges the table's merge page asks for
(``referee.merging``), and every name a game seated, which a merge must
agree with."""
from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Callable, Iterator

from referee import catalogue
from referee.store.writes import Connected, writes


@dataclass(frozen=True)
class Merge:
    """The player ``from_key`` counted as ``into_key``, since ``at``."""
    id: int
    from_key: str
    into_key: str
    at: float


class Merges(Connected):
    """The store's merges (see the table in ``referee.store.schema``)."""

    def merges(self) -> list[Merge]:
        """The merges in effect, oldest first (none where an older database,
        read before the box made the table, has none)."""
        try:
            rows = self._db.execute("SELECT id, from_key, into_key, at FROM merges WHERE undone IS NULL "
                                    "ORDER BY id").fetchall()
        except sqlite3.OperationalError:
            return []
        return [Merge(*row) for row in rows if isinstance(row[1], str) and isinstance(row[2], str)]

    @writes
    def add_merge(self, from_key: str, into_key: str, at: float,
                  check: Callable[[Merges], object] | None = None) -> int:
        """``check(store)``, if given, reads what the merge must agree with
        inside the write's own transaction, and raises to refuse it: no
        other write can come between what it read and the row."""
        with self._transaction():
            if check is not None:
                check(self)
            made = self._db.execute("INSERT INTO merges (from_key, into_key, at) VALUES (?, ?, ?)",
                                    (from_key, into_key, at)).lastrowid
            assert made is not None   # an INSERT that returned made a row
            return made

    def seated(self) -> Iterator[tuple[int, str]]:
        """Every name a game's setup gave, as ``(game, name)`` (``seated``)."""
        return seated(self._db)

    @writes
    def undo_merge(self, merge: int, at: float) -> bool:
        """Takes a merge back; False if it is not in effect."""
        return self._db.execute("UPDATE merges SET undone = ? WHERE id = ? AND undone IS NULL",
                                (at, merge)).rowcount == 1


def seated(db: sqlite3.Connection) -> Iterator[tuple[int, str]]:
    """Every name a game's setup gave, as ``(game, name)``: its ``players``,
    and in a game of teams the option the catalogue names (``members``),
    team by team.  Read by SQLite's JSON functions, on the box's connection
    or the club publisher's read-only one; a games row whose options are not
    JSON (a damaged one) gives none."""
    options = "CASE WHEN json_valid(g.options) THEN g.options ELSE '{}' END"
    query = [f"SELECT g.id, CAST(p.value AS BLOB) FROM games g, json_each({options}, '$.players') p "
             "WHERE p.type = 'text'"]
    teams = [(game.name, f"$.{game.members}") for game in catalogue.GAMES.values() if game.members]
    query += [f"SELECT g.id, CAST(m.value AS BLOB) FROM games g, json_each({options}, ?) t, "
              "json_each(CASE WHEN t.type = 'array' THEN t.value ELSE '[]' END) m "
              "WHERE g.name = ? AND m.type = 'text'"] * len(teams)
    rows = db.execute(" UNION ALL ".join(query), [value for name, path in teams for value in (path, name)])
    for game, name in rows:
        try:
            yield game, name.decode()
        except UnicodeDecodeError:
            continue
