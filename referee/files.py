"""Files at paths anyone with the card in hand may have put anything at:
small ones read whole (the configuration, comitup's Wi-Fi state, the
hotspot's name), and the SQLite files a process keeps for itself beside
the box's record (``opened``).
"""
from __future__ import annotations

import logging
import os
import sqlite3
import stat
import time

# SQLite's primary result codes that say the card, not the file, is at
# fault: the file is kept, and written again once the card lets it.
CARD = {3: "no permission", 5: "busy", 6: "locked", 7: "out of memory", 8: "read-only", 10: "I/O error",
        13: "full", 14: "cannot open"}


def card_fault(exc: BaseException) -> bool:
    """A fault of the card (full, read-only, failing), not of the file."""
    if isinstance(exc, sqlite3.Error):
        return (getattr(exc, "sqlite_errorcode", 0) & 0xFF) in CARD
    return isinstance(exc, OSError)


class Unsound(ValueError):
    """A file found damaged: by SQLite's own check, or by the checks its
    rows carry."""


def check_sound(db: sqlite3.Connection, name: str) -> None:
    """Raises ``Unsound`` when ``PRAGMA quick_check`` finds damage.  A
    flipped byte SQLite does not meet at opening is met by the first write
    to its page, in the middle of an evening; this finds it at the start,
    where the file can be set aside and begun again."""
    found = db.execute("PRAGMA quick_check(1)").fetchone()[0]
    if found != "ok":
        raise Unsound(f"{name} is damaged ({found})")


def opened(path: str, open_it, log: logging.Logger, then: str):
    """``open_it(path)``, for a SQLite file a process keeps for itself and
    can begin again: whatever stands at ``path`` that is no file (a
    folder, a FIFO, a link to a device), or a file SQLite finds damaged
    or no database, is set aside as ``<path>.damaged-<time>`` with one
    log line ending in ``then`` (what the process does without it), and
    a new one is begun.  A fault of the card is raised as it is."""
    from referee.store.salvage import set_aside, unfit
    kind = next((f"{os.path.basename(path + s)} is {unfit(path + s)}" for s in ("", "-wal", "-shm")
                 if unfit(path + s)), "")
    if kind:
        log.error("%s, not a file: set aside as %s; %s", kind, os.path.basename(set_aside(path, time.time())), then)
    try:
        return open_it(path)
    except (sqlite3.DatabaseError, ValueError, KeyError, TypeError) as exc:
        if card_fault(exc):
            raise
        log.error("%s cannot be read (%s): set aside as %s; %s", os.path.basename(path), exc,
                  os.path.basename(set_aside(path, time.time())), then)
    return open_it(path)


class Unfit(OSError):
    """A file that is there but cannot be what the box expects at its path."""


def read_small(path: str, most: int) -> tuple[bytes, os.stat_result]:
    """A small regular file's bytes and its status, read without ever
    waiting: whatever stands at ``path`` (a FIFO with no writer, a link to
    /dev/zero, a file grown huge) must not hold up the box's event loop,
    which reads some of them between keys.  A FIFO or device, or a file
    longer than ``most`` bytes, raises ``Unfit`` (an OSError)."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise Unfit("not a regular file")
        data = b""
        while len(data) <= most:
            chunk = os.read(fd, most + 1 - len(data))
            if not chunk:
                break
            data += chunk
    finally:
        os.close(fd)
    if len(data) > most:
        raise Unfit(f"longer than {most} bytes")
    return data, st
