"""What the web process knows of the box: the store, read-only, and what it
derives from it.

The box is the store's only writer; the web reads it on a connection of its
own (WAL: the box never waits for a reader).  ``PRAGMA data_version`` tells
whether the box committed anything since the last look, so every rendered
answer is keyed by it: one rendering per change, however many phones ask.
The game in play is replayed from its events the first time a page needs it
after a change.
"""
from __future__ import annotations

import logging
import os
import sqlite3

from referee import i18n
from referee.store.events import Store
from referee.store.replay import Replay

log = logging.getLogger(__name__)


class Reader:
    def __init__(self, database: str, clock, lang: str = "en") -> None:
        self.database = database
        self.store = Store.open_read_only(database)
        self._file = _identity(database)
        self.clock = clock
        self._lang = lang
        self.version = -1
        self._base = 0     # keeps ``version`` rising across a replaced file (renderings are keyed by it)
        self._session: Replay | None = None
        self._replayed = -1
        self.watchers: list = []   # called after a refresh that found a change
        self.refresh()

    def refresh(self) -> bool:
        """Look whether the box committed something; True if it did."""
        self._follow()
        version = self._base + self.store.data_version()
        if version == self.version:
            return False
        self.version = version
        i18n.use(self.store.setting("lang", self._lang))
        for watcher in self.watchers:
            watcher()
        return True

    @property
    def session(self) -> Replay | None:
        """The game on the box, as of the last ``refresh``."""
        if self._replayed != self.version:
            self._replayed = self.version
            current = self.store.setting("current")
            row = self.store.game(current) if current is not None else None
            session = self._session
            try:
                if session is not None and row is not None and session.id == row.id:
                    session.replay()
                else:
                    self._session = Replay(self.store, row.id, row.name, row.options) if row else None
            except Exception:
                # A game the web cannot replay still leaves the score log readable.
                log.exception("web: cannot replay game %s", current)
                self._session = None
        return self._session

    def _follow(self) -> None:
        # A damaged file is set aside (renamed) by the box and a new one made
        # in its place; an open connection keeps reading the old one for good.
        # One stat a look finds that out.
        now = _identity(self.database)
        if now is None or now == self._file:
            return   # unchanged, or the new file is not there yet
        try:
            fresh = Store.open_read_only(self.database)
            fresh.data_version()
        except sqlite3.Error:
            return   # being made: the next look takes it
        log.warning("web: the database file was replaced (repaired by the box); reading the new one")
        self.store.close()
        self.store, self._file = fresh, now
        self._base, self._replayed, self._session = self.version + 1, -1, None

    def close(self) -> None:
        self.store.close()


def _identity(path: str) -> tuple[int, int] | None:
    try:
        found = os.stat(path)
    except OSError:
        return None
    return found.st_dev, found.st_ino
