"""The SD card as the table sees it: what the box says when the store
cannot keep what a key did, and how it opens the store at all.

Nothing is acknowledged that is not on disk: a write the card refuses
(``store.Unsaved``: full, read-only, an I/O error) refuses the key on the
main screen with the error sound, and the view stays where it was.  The
journal says so once, then at most once a minute with a count, and once
more when writes go through again: a full card must not fill the journal
too.  Nothing needs restarting when the fault clears: the next key writes.

At start the store may not open for writing at all (a read-only or full
card): the box then starts on what it can read, says so on the main screen,
and tries the card again at each key until it can write.
"""
from __future__ import annotations

import logging
import sqlite3
import time
from collections.abc import Callable

from referee.i18n import _, ngettext
from referee.store import salvage
from referee.store.events import Store, Unreadable, Unsaved

log = logging.getLogger("referee.store")
LOG_EVERY = 60.0     # seconds between two journal lines about the same fault
RETRY_EVERY = 1.0    # seconds between two tries to open a card that could not be written


def refusal(reason: str) -> str:
    return {"full": _("Cannot save: card full"),
            "read-only": _("Cannot save: card is read-only"),
            "damaged": _("Cannot save: card damaged")}.get(reason, _("Cannot save: card error"))


def trouble(reason: str) -> str:
    """The fault as systemd's status line says it."""
    return {"full": "card full: keys that would be saved are refused",
            "read-only": "card read-only: nothing is saved",
            "damaged": "card damaged: nothing is saved"}.get(reason, "card failing: keys that would be saved are refused")


def lost_text(report: salvage.Report) -> str:
    if report.lost_games:
        return ngettext("Database repaired: {n} game could not be read",
                        "Database repaired: {n} games could not be read", report.lost_games).format(n=report.lost_games)
    if report.lost_events:
        return ngettext("{n} event could not be read", "{n} events could not be read",
                        report.lost_events).format(n=report.lost_events)
    return _("Database repaired: nothing lost")


def unreadable_text(found: Unreadable, store: Store, title) -> list[str]:
    """The main screen's lines for damage found inside rows (see
    ``Store.unreadable``); ``title`` names a game in the box's language."""
    lines = []
    if found.games:
        lines.append(ngettext("{n} game could not be read", "{n} games could not be read",
                              len(found.games)).format(n=len(found.games)))
    for game, n in sorted(found.rows.items()):
        row = store.game(game)
        name = f"{title(row.name)} {time.strftime('%H:%M', time.localtime(row.started))}" if row else str(game)
        lines.append(ngettext("{game}: {n} event could not be read", "{game}: {n} events could not be read",
                              n).format(game=name, n=n))
    return lines


class Card:
    def __init__(self, path: str, clock) -> None:
        self.path = path
        self.clock = clock
        self.notices: list[str] = []   # what the main screen says once started
        self.fault: str | None = None  # why the last write failed, while it does
        self._refused = 0              # writes refused since the journal last said so
        self._logged_at: float | None = None
        self._tried_at: float | None = None
        self.on_change: Callable[[], object] | None = None   # called when ``fault`` changes (the service tells systemd)

    def open(self) -> Store:
        """The store, salvaged if damaged, read-only if it cannot be written."""
        try:
            store, report = salvage.open_store(self.path, self.clock.wall())
        except Unsaved as exc:
            return self._reading(exc.reason, exc.detail)
        except (OSError, sqlite3.Error) as exc:   # a damaged file on a card that cannot take a new one
            return self._reading("damaged" if isinstance(exc, sqlite3.DatabaseError) else "error", str(exc))
        if report is not None:
            self.notices.append(lost_text(report))
        return store

    def look_through(self, known: frozenset[str], current: int | None) -> Unreadable:
        """Damage inside rows, though the file opened (``Store.unreadable``):
        a row damaged in place costs its game, or the rest of its moves, on
        every page.  It reads every row of the record, so it runs on a
        thread of its own with a reading connection of its own."""
        store = Store.open_read_only(self.path)
        try:
            found = store.unreadable(known, skip=current)
        finally:
            store.close()
        if found.games or found.rows:
            log.error("database: unreadable rows: games %s lost, rows lost per game %s", list(found.games), found.rows)
        return found

    def _reading(self, reason: str, detail: str) -> Store:
        self.fault = reason
        log.error("database %s cannot be written (%s): nothing will be saved until it can", self.path, detail)
        self._logged_at = self.clock.monotonic()   # said: the keys it refuses are counted for a minute
        self.notices.append(refusal(reason))
        return Store.unwritable(self.path)

    def reopen(self, store: Store) -> Store | None:
        """A store in place of a read-only one (which it closes): writable
        once the card takes writes again, else read-only again; None
        between two tries (at most one every RETRY_EVERY seconds)."""
        if not store.read_only:
            return None
        now = self.clock.monotonic()
        if self._tried_at is not None and now - self._tried_at < RETRY_EVERY:
            return None
        self._tried_at = now
        # Closed first: connections of one process share a file's lock and
        # shared memory, and a read-only connection's would keep the new one
        # read-only too (SQLITE_READONLY with a -shm left by a power cut).
        store.close()
        try:
            fresh = Store(self.path)
        except Exception:   # noqa: BLE001  still not writable (or damaged): read again
            return Store.unwritable(self.path)
        log.warning("database %s can be written again", self.path)
        return fresh   # the fault is over once a write goes through (``saved``)

    def refused(self, exc: Unsaved) -> str:
        """Journal a refused write (rate-limited); the line for the screen."""
        now = self.clock.monotonic()
        self._refused += 1
        if self.fault != exc.reason or self._logged_at is None or now - self._logged_at >= LOG_EVERY:
            more = f" ({self._refused} writes refused)" if self._refused > 1 else ""
            log.error("database: cannot save: %s%s", exc.detail, more)
            self._logged_at, self._refused = now, 0
        self._set(exc.reason)
        return refusal(exc.reason)

    def saved(self) -> str | None:
        """A write went through: the line the screen said about the fault,
        if there was one, so that it can go (it is no longer true)."""
        if self.fault is None:
            return None
        log.warning("database: saving again%s",
                    f" ({self._refused} more writes were refused)" if self._refused else "")
        said = refusal(self.fault)
        self._refused, self._logged_at = 0, None
        self._set(None)
        return said

    def _set(self, fault: str | None) -> None:
        changed, self.fault = fault != self.fault, fault
        if changed and self.on_change is not None:
            self.on_change()
