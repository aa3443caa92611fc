"""Earlier evenings: which evening a game belongs to, the games of one
evening, and the list of evenings a page at a time.

The store only grows, so nothing here reads it whole.  Game ids grow with
the time a game started, which turns "the first game from time t" into a
binary search over ids; a clock set wrong for a while (a Pi that booted
without network) only files those games under the wrong evening.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from referee import catalogue
from referee.store.events import GameRow, Store
from referee.store.scorelog import EVENING_STARTS, evening_start

PER_PAGE = 20       # evenings on one page of the history
MOST_GAMES = 500    # more games than any evening holds
CHUNK = 200         # games read at a time while listing evenings


def evening_of(ts: float) -> dt.date:
    """The date of the evening a moment belongs to (06:00 to 06:00)."""
    return dt.datetime.fromtimestamp(evening_start(ts)).date()


def bounds(day: dt.date) -> tuple[float, float]:
    start = dt.datetime.combine(day, dt.time(EVENING_STARTS))
    return start.timestamp(), (start + dt.timedelta(days=1)).timestamp()


def _first_from(store: Store, ts: float) -> int:
    """The lowest game id that started at ``ts`` or later (one past the
    newest if none did)."""
    newest = store.games(limit=1)
    if not newest:
        return 1
    low, high = 1, newest[0].id + 1
    while low < high:
        mid = (low + high) // 2
        at = store.games(limit=1, before=mid + 1)   # the game at mid, or the one before a gap
        if not at or at[0].started < ts:
            low = mid + 1
        else:
            high = mid
    return low


def games_of(store: Store, day: dt.date) -> list[GameRow]:
    """The games of one evening, newest first, without the table tools."""
    start, end = bounds(day)
    rows = store.games(since=start, limit=MOST_GAMES, before=_first_from(store, end))
    return [row for row in rows if catalogue.logged(row.name)]


@dataclass(frozen=True)
class Evening:
    day: dt.date
    games: tuple[str, ...]     # rules names, newest first


def evenings(store: Store, before: dt.date | None = None,
             count: int = PER_PAGE) -> tuple[list[Evening], dt.date | None]:
    """Up to ``count`` evenings with games, newest first, all of them earlier
    than ``before``; and the ``before`` of the next page, if there is one."""
    cursor = _first_from(store, bounds(before)[0]) if before else None
    found: dict[dt.date, list[str]] = {}
    while True:
        rows = store.games(limit=CHUNK, before=cursor)
        for row in rows:
            if not catalogue.logged(row.name):
                continue
            day = evening_of(row.started)
            if day not in found:
                if len(found) == count:
                    return _listed(found), min(found)
                found[day] = []
            found[day].append(row.name)
        if len(rows) < CHUNK:
            return _listed(found), None
        cursor = rows[-1].id


def _listed(found: dict[dt.date, list[str]]) -> list[Evening]:
    return [Evening(day, tuple(names)) for day, names in found.items()]
