"""What the drivers ask of a clock: the time, and a call later.  The
service's clocks (``referee.clock``: the real one, the tests' manual one,
a timer thread's) each give both."""
from __future__ import annotations

from typing import Any, Callable, Protocol


class Timer(Protocol):
    """A call that is due, until it is cancelled."""

    def cancel(self) -> None: ...


class Clock(Protocol):
    def monotonic(self) -> float: ...

    def call_later(self, delay: float, fn: Callable[..., Any], *args: Any) -> Timer: ...


class TimerThread(Clock, Protocol):
    """A clock whose calls run on a thread of their own, until closed."""

    def close(self) -> None: ...


class ThreadedClock(Protocol):
    """A clock that can give a driver a timer thread of its own."""

    def thread(self, name: str) -> TimerThread: ...
