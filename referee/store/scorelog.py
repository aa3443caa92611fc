"""The evening's score log, derived from the event store.

An evening is every game begun since 06:00 local time (a game night that
runs past midnight stays one evening); tonight's page also keeps a game
still in play at the cut-off until it ends.  Each game's entry is its rules'
``summary`` (only what was revealed) with the service's own facts around it.
This is what the phone page shows and what ``/api/evening`` serves.
"""
from __future__ import annotations

import datetime as dt
from typing import Any

from referee import catalogue
from referee.store.events import GameRow, Store
from referee.store.replay import Replay

EVENING_STARTS = 6  # o'clock


def evening_start(now: float) -> float:
    local = dt.datetime.fromtimestamp(now)
    start = local.replace(hour=EVENING_STARTS, minute=0, second=0, microsecond=0)
    if local < start:
        start -= dt.timedelta(days=1)
    return start.timestamp()


def game_entry(store: Store, row: GameRow) -> dict[str, Any]:
    session = Replay(store, row.id, row.name, row.options)
    return entry_of(row, session.rules, session.state)


def entry_of(row: GameRow, rules: Any, state: Any) -> dict[str, Any]:
    """A game's score-log entry from its rules' summary of ``state``."""
    entry: dict[str, Any] = {"id": row.id, "game": row.name, "started": row.started, "ended": row.ended}
    entry.update(rules.summary(state))
    if row.ended is not None and entry.get("status") == "playing":
        entry["status"] = "abandoned"
    return entry


def evening(store: Store, now: float) -> list[dict[str, Any]]:
    """Tonight's games, and any still in play, newest first; the table tools
    are not a game (not ``logged``)."""
    return [game_entry(store, row) for row in store.games(since=evening_start(now), playing=True)
            if catalogue.logged(row.name)]


def words_dealt(store: Store, now: float) -> tuple[str, ...]:
    """Words the box dealt tonight (Decrypto's keywords: the games that
    ``deals_words``), so that none comes twice."""
    words: list[str] = []
    for row in store.games(since=evening_start(now)):
        if row.name in catalogue.GAMES and catalogue.GAMES[row.name].deals_words:
            session = Replay(store, row.id, row.name, row.options)
            words.extend(getattr(session.state, "dealt", ()))
    return tuple(words)
