"""Logging that a flood cannot turn into a flood of log lines.

A fault repeated in a loop (a client sending garbage, a thousand sockets at
once, ``accept()`` out of descriptors) is written once, then counted: the
next line of the same kind after a minute says how many were left out.  The
journal's volume is then bounded by the number of kinds of message in the
program, not by what anyone sends.  "The same kind" is the logger and the
first line of the message before its arguments are filled in: asyncio's
own messages carry no arguments, only the socket below the first line.
A caller that counts its faults itself (``referee.club.publisher.Faults``)
marks its lines ``extra={"counted": True}``, and they pass as they are.
"""
from __future__ import annotations

import logging
import os
import time

WINDOW_SECONDS = 60.0
MOST_KINDS = 512


class Repeats(logging.Filter):
    def __init__(self, clock=time.monotonic) -> None:
        super().__init__()
        self._clock = clock
        self._kinds: dict[tuple, list] = {}   # kind -> [window start, left out]

    def filter(self, record: logging.LogRecord) -> bool:
        if getattr(record, "counted", False):
            return True
        kind = (record.name, record.levelno, str(record.msg).split("\n", 1)[0][:200])
        now = self._clock()
        seen = self._kinds.get(kind)
        if seen is not None and now - seen[0] < WINDOW_SECONDS:
            seen[1] += 1
            return False
        if seen is not None and seen[1]:
            record.msg = f"{record.getMessage()} (and {seen[1]} more like it in the minute before)"
            record.args = None
        if len(self._kinds) >= MOST_KINDS:
            self._kinds.clear()
        self._kinds[kind] = [now, 0]
        return True


class _JournalPriority(logging.Formatter):
    # Under systemd, "<4>" before a line makes the journal file it as a
    # warning, "<3>" as an error.
    LEVELS = {logging.DEBUG: 7, logging.INFO: 6, logging.WARNING: 4, logging.ERROR: 3, logging.CRITICAL: 2}

    def format(self, record):
        return f"<{self.LEVELS.get(record.levelno, 6)}>{super().format(record)}"


def to_journal_or_terminal() -> None:
    handler = logging.StreamHandler()
    if os.environ.get("JOURNAL_STREAM"):
        handler.setFormatter(_JournalPriority("%(name)s: %(message)s"))
    else:
        handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
    handler.addFilter(Repeats())
    logging.basicConfig(level=logging.INFO, handlers=[handler])
