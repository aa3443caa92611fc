"""Time, injected: the real clock for the service, a manual one for tests.

Everything in the box that waits — debouncing, holds, countdowns, display
retries, the buzzer — asks the clock, never ``time.sleep``.  ``monotonic()``
measures intervals; ``wall()`` stamps events so that a countdown survives a
power cut.
"""
from __future__ import annotations

import heapq
import itertools
import time


class RealClock:
    def __init__(self, loop) -> None:
        self._loop = loop

    def monotonic(self) -> float:
        return time.monotonic()

    def wall(self) -> float:
        return time.time()

    def call_later(self, delay: float, fn, *args):
        return self._loop.call_later(max(0.0, delay), fn, *args)

    def thread(self, name: str):
        """Timers on an OS thread of their own (``referee.clock_thread``)."""
        from referee.clock_thread import TimerThread
        return TimerThread(name)


class _Handle:
    __slots__ = ("when", "fn", "args", "cancelled")

    def __init__(self, when, fn, args) -> None:
        self.when, self.fn, self.args, self.cancelled = when, fn, args, False

    def cancel(self) -> None:
        self.cancelled = True


class ManualClock:
    """Time moves only when told to.  ``settle`` is called after every
    callback, so that the work a callback starts finishes before the next
    moment is reached (the virtual table runs the event loop there)."""

    def __init__(self, wall: float = 1_790_000_000.0) -> None:
        self._now = 0.0
        self._wall0 = wall
        self._queue: list = []
        self._seq = itertools.count()
        self.settle = lambda: None

    def monotonic(self) -> float:
        return self._now

    def wall(self) -> float:
        return self._wall0 + self._now

    def call_later(self, delay: float, fn, *args) -> _Handle:
        handle = _Handle(self._now + max(0.0, delay), fn, args)
        heapq.heappush(self._queue, (handle.when, next(self._seq), handle))
        return handle

    def advance(self, seconds: float) -> None:
        """Let ``seconds`` pass, running every callback due on the way at
        the exact moment it was due."""
        end = self._now + seconds
        self.settle()  # what the outside world queued happens now, not later
        while self._queue and self._queue[0][0] <= end + 1e-9:
            when, _, handle = heapq.heappop(self._queue)
            if handle.cancelled:
                continue
            self._now = max(self._now, when)
            handle.fn(*handle.args)
            self.settle()
        self._now = max(self._now, end)
        self.settle()

    def next_due(self) -> float | None:
        while self._queue and self._queue[0][2].cancelled:
            heapq.heappop(self._queue)
        return self._queue[0][0] if self._queue else None

    def thread(self, name: str):
        """A clock thread stepped by ``advance`` (``referee.clock_thread``)."""
        from referee.clock_thread import SteppedThread
        return SteppedThread(self)
