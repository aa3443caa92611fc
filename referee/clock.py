"""Time, injected: the real clock for the service, a manual one for tests.

Everything in the box that waits — debouncing, holds, countdowns, display
retries, the buzzer — asks the clock, never ``time.sleep``.  ``monotonic()``
measures every duration; ``wall()`` only labels things with a date and hour
for people, because a Pi has no battery clock: it boots at 1970 or at its
last shutdown and NTP steps the wall clock by hours once the network is up.
``boot`` names the boot the monotonic clock counts from, so that labels
written before such a step can be re-dated after it (``WallLabels``).

``step_wall`` moves the wall clock as NTP would: the manual clock's own, and
the real clock's offset that the control socket (``referee.box.sim_control``) can move,
so that a running service can be shown a clock step without touching the
machine's clock.
"""
from __future__ import annotations

import heapq
import itertools
import subprocess
import time
from typing import NamedTuple

from referee.clock_thread import Handle, SteppedThread, TimerThread


# Wall-clock moves smaller than this are drift or rounding, not a step.
STEP_SECONDS = 2.0
# The latest time a phone's clock is believed: past it, a phone is wrong.
LATEST_WALL = 4_102_444_800.0   # 2100-01-01


def synchronised() -> bool:
    """Whether the system clock is set from the network, as systemd's
    ``timedatectl`` says (NTPSynchronized).  A machine where it cannot be
    asked is taken as set: nothing there would correct it better."""
    try:
        done = subprocess.run(["timedatectl", "show", "-p", "NTPSynchronized", "--value"],
                              capture_output=True, text=True, timeout=5)
    except (OSError, subprocess.TimeoutExpired):
        return True
    return done.returncode != 0 or done.stdout.strip() != "no"


def phone_step(phone: float, wall: float, floor: float) -> float | None:
    """How far to step a wall clock reading ``wall`` to a phone's time
    ``phone``: None when the phone's time is not to be believed (before
    ``floor``, the newest time the box has saved, or past 2100) or the
    clocks agree already."""
    if not floor <= phone <= LATEST_WALL:
        return None
    step = phone - wall
    return step if abs(step) >= STEP_SECONDS else None


def boot_id() -> str:
    """This boot's random id from the kernel ("" where there is none)."""
    try:
        with open("/proc/sys/kernel/random/boot_id") as f:
            return f.read().strip()
    except OSError:
        return ""


def keep_phone_time(clock, taken) -> None:
    """A box or web started again in the boot a phone set the clock in
    (``taken``: the store's setting ``phone_clock``) keeps the phone's time."""
    if isinstance(taken, dict) and taken.get("boot") == clock.boot and isinstance(taken.get("base"), (int, float)):
        clock.from_phone(float(taken["base"]))


class RealClock:
    def __init__(self, loop) -> None:
        self._loop = loop
        self.boot = boot_id()
        self._step = 0.0
        self._phone: float | None = None

    def monotonic(self) -> float:
        return time.monotonic()

    def wall(self) -> float:
        if self._phone is not None:
            return self._phone + time.monotonic()
        return time.time() + self._step

    def step_wall(self, seconds: float) -> None:
        self._step += seconds

    def from_phone(self, base: float) -> None:
        """The wall clock is ``base`` + the monotonic clock from now on: a
        phone's time, taken while the network sets no clock.  Once it does,
        the system's clock reads the same (the monotonic clock drifts by
        parts in a million), so nothing needs undoing."""
        self._phone = base

    def call_later(self, delay: float, fn, *args):
        return self._loop.call_later(max(0.0, delay), fn, *args)

    def thread(self, name: str):
        """Timers on an OS thread of their own (``referee.clock_thread``)."""
        return TimerThread(name)


class ManualClock:
    """Time moves only when told to.  ``settle`` is called after every
    callback, so that the work a callback starts finishes before the next
    moment is reached (the virtual table runs the event loop there)."""

    _boots = itertools.count(1)

    def __init__(self, wall: float = 1_790_000_000.0) -> None:
        self._now = 0.0
        self._wall0 = wall
        self.boot = f"manual-{next(self._boots)}"  # each manual clock is a boot of its own
        self._queue: list = []
        self._seq = itertools.count()
        self.settle = lambda: None

    def monotonic(self) -> float:
        return self._now

    def wall(self) -> float:
        return self._wall0 + self._now

    def step_wall(self, seconds: float) -> None:
        self._wall0 += seconds

    def from_phone(self, base: float) -> None:
        self._wall0 = base

    def call_later(self, delay: float, fn, *args) -> Handle:
        handle = Handle(self._now + max(0.0, delay), fn, args)
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
        return SteppedThread(self)

class Stamp(NamedTuple):
    """Where a row's wall-clock label came from: the ``label`` written, the
    ``boot`` and the ``mono``tonic second of that boot it was taken at (what
    re-dating needs once the wall clock steps)."""
    label: float
    boot: str
    mono: float


class WallLabels:
    """Dates and hours for events and games, kept honest across clock steps.

    A label is ``monotonic + offset``: every label of one boot shares one
    offset, so a step never reorders them, and when the wall clock steps
    (``check``) the store re-dates this boot's labels with the new offset.
    The offset never puts a label before ``floor``, the newest label the
    store already holds: a box booted at 1970 does not file tonight's first
    game before last week's."""

    def __init__(self, clock, floor: float = 0.0) -> None:
        self.clock = clock
        self.boot = clock.boot
        self._floor = floor - clock.monotonic()
        self.offset = self._measure()

    def _measure(self) -> float:
        return max(self.clock.wall() - self.clock.monotonic(), self._floor)

    def now(self) -> float:
        return self.clock.monotonic() + self.offset

    def stamp(self) -> Stamp:
        """The stamp of a row written now."""
        mono = self.clock.monotonic()
        return Stamp(mono + self.offset, self.boot, mono)

    def check(self) -> bool:
        """True once the wall clock has stepped since the last check; from
        then on labels follow the new clock."""
        offset = self._measure()
        if abs(offset - self.offset) < STEP_SECONDS:
            return False
        self.offset = offset
        return True
