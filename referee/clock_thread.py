"""Timers on a thread of their own, for work that must keep time however
late the event loop runs: the keypad scan.

``RealClock.thread(name)`` gives a ``TimerThread``: one OS thread that runs
its callbacks at their moment on ``time.monotonic``.  ``ManualClock.thread``
gives a ``SteppedThread``: the same calls, run by the manual clock's
``advance`` at their exact simulated moment, so tests stay deterministic and
never sleep.  Both answer ``monotonic()``, ``call_later(delay, fn, *args)``
(from any thread; the handle has ``cancel()``) and ``close()``.
"""
from __future__ import annotations

import heapq
import itertools
import logging
import threading
import time

log = logging.getLogger(__name__)


class Handle:
    """A callback due ``when``, on the manual clock (``referee.clock``) or
    a timer thread; ``cancel`` keeps it from running."""

    __slots__ = ("when", "fn", "args", "cancelled")

    def __init__(self, when, fn, args) -> None:
        self.when, self.fn, self.args, self.cancelled = when, fn, args, False

    def cancel(self) -> None:
        self.cancelled = True


class TimerThread:
    def __init__(self, name: str) -> None:
        self._queue: list = []
        self._seq = itertools.count()
        self._wake = threading.Condition(threading.Lock())
        self._closed = False
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._thread.start()

    def monotonic(self) -> float:
        return time.monotonic()

    def call_later(self, delay: float, fn, *args) -> Handle:
        handle = Handle(time.monotonic() + max(0.0, delay), fn, args)
        with self._wake:
            if not self._closed:
                heapq.heappush(self._queue, (handle.when, next(self._seq), handle))
                if self._queue[0][2] is handle:
                    self._wake.notify()
        return handle

    def _next(self) -> Handle | None:
        with self._wake:
            while not self._closed:
                if not self._queue:
                    self._wake.wait()
                    continue
                when, _, handle = self._queue[0]
                if handle.cancelled:
                    heapq.heappop(self._queue)
                    continue
                delay = when - time.monotonic()
                if delay <= 0:
                    heapq.heappop(self._queue)
                    return handle
                self._wake.wait(delay)
            return None

    def _run(self) -> None:
        while (handle := self._next()) is not None:
            try:
                handle.fn(*handle.args)
            except Exception:
                # One bad callback must not end the thread: keys would stop.
                log.exception("%s: callback %r raised", self._thread.name, handle.fn)

    def close(self) -> None:
        with self._wake:
            self._closed = True
            self._queue.clear()
            self._wake.notify()
        if threading.current_thread() is not self._thread:
            self._thread.join(timeout=2.0)


class SteppedThread:
    """The manual clock's stand-in: callbacks run inside ``advance``, in
    time order with every other callback of that clock."""

    def __init__(self, clock) -> None:
        self._clock = clock
        self._closed = False

    def monotonic(self) -> float:
        return self._clock.monotonic()

    def call_later(self, delay: float, fn, *args):
        return self._clock.call_later(delay, self._run, fn, args)

    def _run(self, fn, args) -> None:
        if not self._closed:
            fn(*args)

    def close(self) -> None:
        self._closed = True
