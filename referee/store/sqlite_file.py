"""Rows read straight from the pages of a SQLite file, without SQLite.

When a flipped byte hits the schema page or a table's interior pages,
SQLite cannot find a single row of the tables behind it, though every leaf
page that holds the rows is intact.  The ``sqlite3`` shell's ``.recover``
walks the pages for that, but it needs the ``sqlite_dbpage`` table, which
Debian's (and so Raspberry Pi OS's) SQLite is built without: there it
recovers nothing.  This reads the same leaf pages by the file format
(https://www.sqlite.org/fileformat.html, sections 1.6 and 2.1): each table
leaf's cells as (rowid, [values]), which ``referee.store.salvage`` tells apart by
their shape.  A cell that does not parse is passed over; nothing raises.
"""
from __future__ import annotations

import struct
from collections.abc import Iterator

OTHER_KINDS = (0x02, 0x05, 0x0A)   # index interior, table interior, index leaf (a table leaf: 0x0D)
_SIZES = {0: 0, 1: 1, 2: 2, 3: 3, 4: 4, 5: 6, 6: 8, 7: 8, 8: 0, 9: 0}


class Text(bytes):
    """A value stored as TEXT (its bytes, maybe not UTF-8 any more), told
    apart from a BLOB of the same bytes."""


# A value of a record: NULL, an integer, a real, a TEXT or a BLOB.
Value = int | float | bytes | None


def varint(data: bytes, at: int) -> tuple[int, int]:
    """The varint at ``at`` and where it ends."""
    value = 0
    for n in range(8):
        byte = data[at + n]
        value = (value << 7) | (byte & 0x7F)
        if byte < 0x80:
            return value, at + n + 1
    return (value << 8) | data[at + 8], at + 9


def _value(kind: int, raw: bytes) -> Value:
    if kind == 0:
        return None
    if kind in (8, 9):
        return kind - 8
    if kind == 7:
        real: float = struct.unpack(">d", raw)[0]
        return real
    if kind <= 6:
        return int.from_bytes(raw, "big", signed=True)
    return Text(raw) if kind % 2 else bytes(raw)


def record(payload: bytes) -> list[Value]:
    """The values of one record; ValueError if it does not parse."""
    try:
        size, at = varint(payload, 0)
        kinds = []
        while at < size:
            kind, at = varint(payload, at)
            if kind in (10, 11):
                raise ValueError("reserved serial type")
            kinds.append(kind)
        at, values = size, []
        for kind in kinds:
            length = _SIZES[kind] if kind < 12 else (kind - 12) // 2
            if at + length > len(payload):
                raise ValueError("record runs past its payload")
            values.append(_value(kind, payload[at:at + length]))
            at += length
    except IndexError as exc:
        raise ValueError("record cut short") from exc
    return values


class File:
    """A database file's pages (``data``: the file's bytes)."""

    def __init__(self, data: bytes) -> None:
        size = int.from_bytes(data[16:18], "big") if len(data) >= 100 else 0
        self.size = 65536 if size == 1 else size
        if self.size < 512 or self.size & (self.size - 1):
            self.size = 4096
        self.data = data
        self.usable = self.size - (data[20] if len(data) > 20 else 0)
        self.count = len(data) // self.size

    def page(self, number: int) -> bytes:
        return self.data[(number - 1) * self.size:number * self.size]

    def rows(self) -> Iterator[tuple[int, list[Value]]]:
        """(rowid, values) of every cell of every table leaf page."""
        for number in range(1, self.count + 1):
            yield from self.leaf_rows(self.page(number), 100 if number == 1 else 0)

    def leaf_rows(self, page: bytes, head: int = 0,
                  newer: dict[int, bytes] | None = None) -> Iterator[tuple[int, list[Value]]]:
        """The rows of one page; ``newer``: page images (by number) to follow
        overflow chains through before the file's, for a page of the log."""
        # Read as a table's leaf unless it says it is another kind of b-tree
        # page: a leaf whose type byte flipped still holds its rows.
        if len(page) < head + 8 or page[head] in OTHER_KINDS:
            return
        cells = int.from_bytes(page[head + 3:head + 5], "big")
        for n in range(min(cells, (len(page) - head - 8) // 2)):
            start = int.from_bytes(page[head + 8 + 2 * n:head + 10 + 2 * n], "big")
            try:
                rowid, payload = self._cell(page, start, newer or {})
                yield rowid, record(payload)
            except (ValueError, IndexError):
                continue

    def _cell(self, page: bytes, start: int, newer: dict[int, bytes]) -> tuple[int, bytes]:
        length, at = varint(page, start)
        rowid, at = varint(page, at)
        if rowid >= 1 << 63:
            rowid -= 1 << 64
        usable = self.usable
        most = usable - 35
        payload: bytes | bytearray
        if length <= most:
            payload = page[at:at + length]
        else:   # the rest of the payload on a chain of overflow pages
            least = (usable - 12) * 32 // 255 - 23
            local = least + (length - least) % (usable - 4)
            local = local if local <= most else least
            payload = bytearray(page[at:at + local])
            following = int.from_bytes(page[at + local:at + local + 4], "big")
            seen = set()
            while len(payload) < length and (0 < following <= self.count or following in newer) \
                    and following not in seen:
                seen.add(following)
                over = newer.get(following) or self.page(following)
                payload += over[4:usable][:length - len(payload)]
                following = int.from_bytes(over[:4], "big")
        if len(payload) != length:
            raise ValueError("payload cut short")
        return rowid, bytes(payload)


def wal_pages(data: bytes, size: int) -> Iterator[tuple[int, bytes]]:
    """(page number, image) of every frame in a write-ahead log, newest
    first, checksums or not (a flipped byte makes SQLite drop the log from
    that frame on, though the frames behind it are whole)."""
    frame = 24 + size
    for n in reversed(range(max(0, (len(data) - 32) // frame))):
        at = 32 + n * frame
        yield int.from_bytes(data[at:at + 4], "big"), data[at + 24:at + frame]


# --- the write-ahead log (https://www.sqlite.org/fileformat.html, 4.1-4.3) ---

WAL_MAGIC = (0x377F0682, 0x377F0683)   # checksums in little-, big-endian words


def _checksum(data: bytes, big: bool, s0: int = 0, s1: int = 0) -> tuple[int, int]:
    for x0, x1 in struct.iter_unpack(">II" if big else "<II", data):
        s0 = (s0 + x0 + s1) & 0xFFFFFFFF
        s1 = (s1 + x1 + s0) & 0xFFFFFFFF
    return s0, s1


def log_cut_short(data: bytes, used: int) -> bool:
    """Whether the log holds committed frames that SQLite, reading the
    first ``used``, leaves out: a flipped byte in the log's header or in a
    frame makes it drop the log from there on, silently, and its next write
    would overwrite them.  A transaction cut short by a power cut is not
    that: no frame after the one that broke says "commit"."""
    if len(data) < 32:
        return False
    size = int.from_bytes(data[8:12], "big")
    if size < 512 or size > 65536 or size & (size - 1):
        size = 4096   # the header is damaged; the frames are likely the usual size
    frame = 24 + size
    count = (len(data) - 32) // frame
    magic = int.from_bytes(data[:4], "big")
    big = bool(magic & 1)
    if magic not in WAL_MAGIC or _checksum(data[:24], big) != struct.unpack(">II", data[24:32]):
        return count > 0   # no frame is read behind a damaged header
    salts = data[16:24]
    used = max(0, min(used, count))
    # Each frame's header holds the running checksum up to it: the first
    # frame past ``used`` that does not add up is where SQLite stopped.
    seed = data[24:32] if used == 0 else data[32 + (used - 1) * frame + 16:32 + (used - 1) * frame + 24]
    for n in range(used, count):
        head = data[32 + n * frame:32 + n * frame + 24]
        page = data[32 + n * frame + 24:32 + (n + 1) * frame]
        if head[8:16] != salts or _checksum(head[:8] + page, big, *struct.unpack(">II", seed)) != \
                struct.unpack(">II", head[16:24]):
            break
        seed = head[16:24]
    else:
        return False
    return any(data[32 + m * frame + 8:32 + m * frame + 16] == salts and
               data[32 + m * frame + 4:32 + m * frame + 8] != bytes(4) for m in range(n + 1, count))
