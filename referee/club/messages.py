"""What travels over the broker: topics and payloads, checked on arrival.

Both ends use these types.  The league never trusts a payload: it must be
JSON of at most ``MAX_BYTES``, of a version it knows, and of this shape;
anything else is refused with one log line.
"""
from __future__ import annotations

from typing import Literal

import msgspec

VERSION = 1
MAX_BYTES = 64 * 1024          # a Decrypto game with its clue tape is a few KB


class Status(msgspec.Struct, forbid_unknown_fields=True):
    v: int
    kind: Literal["status"]
    table: str
    online: bool
    at: float
    game: int | None = None


class Entry(msgspec.Struct, forbid_unknown_fields=True):
    """A row of a table's score log, as the public page shows it."""
    v: int
    kind: Literal["game", "event"]
    id: str                     # "<table>:<game>:<seq>"
    table: str
    game: int
    seq: int
    at: float
    entry: dict


class Summary(msgspec.Struct):
    """The part of an entry the league reads; the rest is each game's own."""
    game: str
    started: float
    status: Literal["playing", "finished", "abandoned"]
    players: list[str]
    winners: list[str] = []


class Refused(ValueError):
    """A payload the league will not take; the message says why, in one
    line, and ``kind`` which sort of fault it is (for rate-limited logs)."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


_decoders = {kind: msgspec.json.Decoder(kind) for kind in (Status, Entry)}


def topic(club: str, table: str, *rest: str) -> str:
    return "/".join(("referee", club, table, *rest))


def encode(message: Status | Entry) -> bytes:
    return msgspec.json.encode(message)


def decode(topic_name: str, payload: bytes) -> Status | Entry:
    """The message on ``topic_name``, or ``Refused``."""
    if len(payload) > MAX_BYTES:
        raise Refused("size", f"{len(payload)} bytes is over the limit of {MAX_BYTES}")
    try:
        head = msgspec.json.decode(payload, type=dict)
    except msgspec.DecodeError as exc:
        raise Refused("json", f"not JSON: {exc}") from None
    if head.get("v") != VERSION:
        raise Refused("version", f"version {head.get('v')!r} is not one this league knows ({VERSION})")
    kind = Status if topic_name.endswith("/status") else Entry
    try:
        message = _decoders[kind].decode(payload)
    except msgspec.ValidationError as exc:
        raise Refused("shape", f"wrong shape: {exc}") from None
    if isinstance(message, Entry):
        try:
            msgspec.convert(message.entry, Summary)
        except msgspec.ValidationError as exc:
            raise Refused("shape", f"wrong entry: {exc}") from None
    parts = topic_name.split("/")
    if len(parts) < 4 or parts[2] != message.table:
        raise Refused("table", f"table {message.table!r} published under {topic_name!r}")
    if isinstance(message, Entry) and message.id != f"{message.table}:{message.game}:{message.seq}":
        raise Refused("table", f"id {message.id!r} does not name its table, game and row")
    return message
