"""What of a configuration file can be read when not all of it can.

A box whose file has one typo plays with the rest of it: on a Pi the rest
is its wiring (every default is a simulated device, so a box that kept
nothing would light no panel to say what is wrong).  A line that is not
UTF-8, or where TOML's parser stops, is taken out with the whole table it
stands in, from the header above it to the next header: what follows a
broken header, or a value left open, belongs to no table one can name, and
a key put in the wrong table would be worse than its default.  The file is
read again without that table until the rest reads.  Lines are blanked,
not removed, so every line the parser or the checks name is the file's.
"""
from __future__ import annotations

import re
import tomllib
from typing import NamedTuple


class Unread(NamedTuple):
    """A table taken out: the file's ``line`` where reading stopped, the
    ``table`` ("" for the keys above the first header), and why."""
    line: int
    table: str
    text: str


_HEADER = re.compile(r"\s*\[+\s*([^\]#]*)")   # [a.b] or [[a.b]], maybe left open
# tomllib's own words end with where it stopped (Python 3.11 has no
# lineno attribute on the error yet).
_WHERE = re.compile(r"\s*\((?:at line (\d+), column (\d+)|at end of document)\)$")


def readable(data: bytes) -> tuple[dict, str, list[Unread]]:
    """The TOML of ``data`` once every table with a line that cannot be
    read is taken out, the text that was read, and what was taken out."""
    lines: list[str] = []
    unread: list[Unread] = []
    undecoded: list[int] = []
    for number, raw in enumerate(data.split(b"\n"), 1):
        try:
            lines.append(raw.decode("utf-8"))
        except UnicodeDecodeError as exc:
            lines.append(raw.decode("utf-8", "replace"))   # blanked below; here for its table's name
            undecoded.append(number)
            unread.append(Unread(number, "", f"not UTF-8 text (byte {exc.start + 1} of the line)"))
    for i, number in enumerate(undecoded):
        if lines[number - 1]:   # else in a table an earlier line took out
            table = _blank(lines, *_table(lines, number))
        unread[i] = unread[i]._replace(table=table)
    # Each round blanks at least one line that held something: it ends.
    while (stop := _stop(lines)) is not None:
        number, column, words = stop
        first, end = _table(lines, number)
        if column is not None and _holds(lines, first, end) and not _reads_alone(lines[number - 1]):
            unread.append(Unread(number, _blank(lines, first, end), f"not valid TOML: {words} at column {column}"))
            continue
        # Stopped at a sound header or at the end: a value above is still
        # open (a list, a string of many lines), and swallowed what follows.
        first, end = _open_above(lines, number, stop)
        if not _holds(lines, first, end):   # nothing left above: nothing of the file is kept
            unread.append(Unread(number, "", f"not valid TOML: {words}"))
            return {}, "", unread
        held = max(i for i in range(first, end) if lines[i].strip()) + 1
        stopped = f"line {number}" if column is not None else "the end of the file"
        unread.append(Unread(held, _blank(lines, first, end),
                             f"not valid TOML: a value here is not closed (reading stopped at {stopped}: {words})"))
    text = "\n".join(lines)
    return tomllib.loads(text), text, unread


def _stop(lines: list[str]) -> tuple[int, int | None, str] | None:
    """Where TOML's parser stops in ``lines``: the line (1 on), the
    column (None: at the end), its words; None if they read."""
    try:
        tomllib.loads("\n".join(lines))
        return None
    except tomllib.TOMLDecodeError as exc:
        where = _WHERE.search(str(exc))
        words = str(exc)[:where.start()] if where else str(exc)
        words = words[:1].lower() + words[1:]
        if where and where[1]:
            return int(where[1]), int(where[2]), words
        return len(lines) + 1, None, words


def _reads_alone(line: str) -> bool:
    """Whether ``line`` is a table's header that is sound by itself."""
    if not _HEADER.match(line):
        return False
    try:
        tomllib.loads(line)
        return True
    except tomllib.TOMLDecodeError:
        return False


def _open_above(lines: list[str], number: int, stop: tuple) -> tuple[int, int]:
    """The table above line ``number`` whose value is left open: the
    nearest one without which the parser goes further, else the nearest."""
    spans = []
    i = min(number - 1, len(lines))
    while (held := next((j for j in range(i - 1, -1, -1) if lines[j].strip()), None)) is not None:
        spans.append(_table(lines, held + 1))
        i = spans[-1][0]
    if not spans:
        return 0, 0
    for first, end in spans:
        tried = lines[:first] + [""] * (end - first) + lines[end:]
        further = _stop(tried)
        if further is None or further[0] > stop[0]:
            return first, end
    return spans[0]


def _holds(lines: list[str], first: int, end: int) -> bool:
    return any(line.strip() for line in lines[first:end])


def _table(lines: list[str], number: int) -> tuple[int, int]:
    """The lines (first, end: indexes) of the table that line ``number``
    stands in: from the header at or above it to the next header."""
    first = next((i for i in range(min(number, len(lines)) - 1, -1, -1) if _HEADER.match(lines[i])), 0)
    end = next((i for i in range(number, len(lines)) if _HEADER.match(lines[i])), len(lines))
    return first, end


def _blank(lines: list[str], first: int, end: int) -> str:
    """Blank ``lines[first:end]``; the name of the table they were."""
    header = _HEADER.match(lines[first])
    for i in range(first, end):
        lines[i] = ""
    return header[1].strip() if header else ""
