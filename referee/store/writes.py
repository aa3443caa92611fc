"""How the store writes, and what can go wrong with the card, sorted once.

Every write is one transaction that takes the write lock as it begins
(``transaction``; ``Connected._transaction`` on the store's own
connection; the web's players.db writes through it too): a transaction
that read first and wrote later could find another connection's write
between the two.  A write the card
refuses (full, read-only, an I/O error) raises ``Unsaved`` and changes
nothing, so the box can refuse the key; a damaged file raises ``Damaged``
when it is opened (see ``referee.store.salvage``).
"""
from __future__ import annotations

import contextlib
import functools
import sqlite3
from typing import Callable, Iterator, ParamSpec, TypeVar

BEGIN = "BEGIN IMMEDIATE"

# Result codes (the primary byte of sqlite3.Error.sqlite_errorcode).
READONLY, CORRUPT, NOTADB = 8, 11, 26
_UNSAVED = {13: "full", 8: "read-only", 14: "read-only", 10: "error", 11: "damaged", 26: "damaged"}


class Damaged(Exception):
    """The database file is damaged: it must be set aside and salvaged.
    ``log``: the write-ahead log as it was found, when it is the damaged
    part (SQLite deletes the file when it closes the database)."""

    def __init__(self, message: str, log: bytes = b"") -> None:
        super().__init__(message)
        self.log = log


class Unsaved(Exception):
    """A write the card refused; nothing of it was stored.  ``reason`` is
    ``"full"``, ``"read-only"``, ``"damaged"`` or ``"error"`` (I/O)."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(f"{reason}: {detail}")
        self.reason = reason
        self.detail = detail


def code(exc: sqlite3.Error) -> int:
    return (getattr(exc, "sqlite_errorcode", 0) or 0) & 0xFF


def unsaved(exc: sqlite3.Error) -> Unsaved | None:
    """What a failed write means for the table, if it is the card's fault."""
    reason = _UNSAVED.get(code(exc))
    return Unsaved(reason, str(exc)) if reason else None


def versions_flipped(path: str) -> bool:
    """The header's format numbers (bytes 18 and 19: 1 legacy, 2 WAL) are
    not SQLite's: a newer write format makes SQLite open the file read-only,
    and a flipped bit there must be mended (``referee.store.salvage``), not taken
    for a read-only card."""
    try:
        with open(path, "rb") as f:
            head = f.read(20)
    except OSError:
        return False
    return len(head) == 20 and not (head[18] in (1, 2) and head[19] in (1, 2))


def undecodable(exc: sqlite3.Error) -> bool:
    """Python's sqlite3, not SQLite, refusing text that is not UTF-8: a byte
    flipped in the schema's CREATE text (read by ``PRAGMA table_info``).
    That error carries no SQLite code, only this message."""
    return isinstance(exc, sqlite3.OperationalError) and str(exc).startswith("Could not decode to UTF-8")


@contextlib.contextmanager
def transaction(db: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """One write on ``db`` (a connection in autocommit, ``isolation_level``
    None), whole or not at all: the write lock taken as it begins,
    committed (and synced) on leaving, rolled back if anything in it
    raises.  The store's and the web's own files write through it alike."""
    with db:
        db.execute(BEGIN)
        yield db


class Connected:
    """What each part of the store writes through: its connection, and one
    transaction helper."""

    _db: sqlite3.Connection

    def _transaction(self) -> contextlib.AbstractContextManager[sqlite3.Connection]:
        """One write on the store's connection (``transaction``)."""
        return transaction(self._db)


P = ParamSpec("P")
R = TypeVar("R")


def writes(method: Callable[P, R]) -> Callable[P, R]:
    """A store method that writes: a write the card refuses raises ``Unsaved``."""
    @functools.wraps(method)
    def write(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return method(*args, **kwargs)
        except sqlite3.Error as exc:
            refused = unsaved(exc)
            if refused is None:
                raise
            raise refused from exc
    return write
