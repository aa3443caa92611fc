"""The evening's score log, derived from the event store.

An evening is every game begun since 06:00 local time (a game night that
runs past midnight stays one evening); tonight's page also keeps a game
still in play at the cut-off until it ends.  Each game's entry is its rules'
``summary`` (only what was revealed) with the service's own facts around it,
an ``Entry``; ``as_json`` is what the phone page and ``/api/evening`` serve.
"""
from __future__ import annotations

import datetime as dt
from typing import Any, Literal

import msgspec

from games.base import Rules, Summary
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


Status = Literal["playing", "finished", "abandoned"]


class Entry(msgspec.Struct, kw_only=True, frozen=True):
    """A game's score-log entry: the box's facts about the game and its
    rules' summary (the game's own kind of ``Summary``)."""
    id: int
    game: str
    started: float
    ended: float | None
    status: Status      # the summary's; "abandoned": the box closed it before its end
    summary: Summary


def as_json(entry: Entry) -> dict[str, Any]:
    """The entry as one flat JSON object (the phone pages, ``/api/g``, the
    club's messages): the facts, then the summary's fields, its status the
    entry's."""
    return {"id": entry.id, "game": entry.game, "started": entry.started, "ended": entry.ended,
            **msgspec.to_builtins(entry.summary), "status": entry.status}


def game_entry(store: Store, row: GameRow) -> Entry:
    session = Replay(store, row.id, row.name, row.options)
    return entry_of(row, session.rules, session.state)


def entry_of(row: GameRow, rules: Rules, state: Any) -> Entry:
    """A game's score-log entry from its rules' summary of ``state``."""
    summary = rules.summary(state)
    closed = row.ended is not None and summary.status == "playing"
    return Entry(id=row.id, game=row.name, started=row.started, ended=row.ended,
                 status="abandoned" if closed else summary.status, summary=summary)


def evening(store: Store, now: float) -> list[Entry]:
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
