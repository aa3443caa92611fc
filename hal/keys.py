"""The 4×4 keypad and the two team buttons, read through gpiozero.

The keypad is a matrix without diodes: a pressed key joins its row to its
column.  Columns are inputs pulled up.  At rest every row is an output driven
low, so a press anywhere pulls its column low and wakes the scanner.  While a
key is down the rows are read one at a time: the row being read is driven
low and the other rows are let go (inputs, high impedance).  A row is never
driven high: with two keys held in one column a high row would be shorted to
the low one through the membrane.  Every output is low whenever it is an
output, so no current flows from pin to pin whatever is held, and any one or
two keys held together read right.  (Three keys on three corners of a
rectangle also show the fourth, as on any matrix without diodes; no screen
asks for three keys at once.)  Rows are switched with the pin's ``function``,
which gpiozero offers on every pin library and on its mock pins; rows are
only ever written low, so a row that becomes an output again drives low
(lgpio even claims an output low by default).

Scanning, debouncing and hold timing run on a thread of their own, the
clock's ``thread("keypad")``: the real clock gives it an OS thread keeping
real time, the manual clock of the virtual table steps it inside ``advance``.
A scan thread rather than edge timestamps taken in gpiozero's callback
thread, because a matrix must be driven to be read: an edge on a column only
says that some key in it moved, and which one is known only by selecting the
rows in turn, on time, however late the event loop is.  The team buttons
have pins of their own: their edges are taken with their level and time in
gpiozero's callback thread and handed to the same scan thread, so that one
thread puts every key in order.  Debouncing and holds are timed here because
mock pins ignore ``bounce_time`` and real pin libraries each debounce
differently.

Key events queue with their times and reach ``on_key(event)`` on the event
loop's thread, in the order the keys went down, however late the loop runs.
A ``KeyEvent`` names the ``key`` and its ``kind``, the time it happened
(``at``, the clock's ``monotonic``: when the key went down, or was let go
after a hold) and ``due``, the moment the keypad could first have known it
(the debounce or the hold time over), from which its way to the screens is
timed.  Its kinds:

- ``"press"``:   released before ``HOLD`` seconds
- ``"hold"``:    still down after ``HOLD`` seconds
- ``"release"``: released after a hold

That is for the keys a hold means something for on the page shown (the box
says which with each page it draws, ``Keys.page_holds``: ``*`` in a game,
the team buttons); they report on release, since only then is a press
known not to be a hold.
Every other key reports its ``"press"`` as soon as it is debounced, on the
way down, and nothing when let go: the screen answers the finger, not the
end of the press.  (Unless three keys or more are down together: a palm,
whose keys wait like those that hold and, held, say nothing a page
takes.)  Events go in the order the keys went down, so a key
pressed after a key that holds and has not yet said whether it was a
press or a hold waits for it: never longer than ``HOLD``.
"""
from __future__ import annotations

import asyncio
import collections
import itertools
import math
from typing import Any, Callable, NamedTuple, Sequence

from gpiozero import DigitalInputDevice, DigitalOutputDevice, Factory

from hal.timing import ThreadedClock, Timer

LAYOUT = ("123A", "456B", "789C", "*0#D")
TEAMS = ("team1", "team2")
SCAN = 0.01       # seconds between matrix scans while a key is down
DEBOUNCE = 0.02   # a level must hold this long before it counts
HOLD = 0.6        # seconds down before a press becomes a hold


class KeyEvent(NamedTuple):
    """A key's press, hold or release, as ``on_key`` is handed it."""
    key: str      # a keypad key ("1" … "D", "*", "#") or a team button ("team1", "team2")
    kind: str     # "press", "hold" or "release"
    at: float     # when it happened (the clock's monotonic)
    due: float    # when the keypad could first have known it


# A key event found on the scan thread: (time, sequence, key, kind, due).
_Found = tuple[float, int, str, str, float]


class _Key:
    """Debounce and hold detection for one key, fed with levels."""

    def __init__(self, name: str, keys: Keys) -> None:
        self.name = name
        self._keys = keys
        self.down = False       # the accepted level
        self.pressed = 0.0      # when the accepted press began
        self.told = True        # its press or hold is already in the queue
        self.early = False      # it acted on the way down: nothing to say when let go
        self._raw = False
        self._since = 0.0       # when the raw level last changed
        self._hold: Timer | None = None

    def sample(self, raw: bool, now: float) -> None:
        """A level read at ``now`` (a scan of the matrix)."""
        if raw != self._raw:
            self._raw, self._since = raw, now
        else:
            self.settle(now)

    def edge(self, raw: bool, at: float) -> None:
        """The level changed at exactly ``at`` (a button's own pin): the
        level before held until then."""
        if raw != self._raw:
            self.settle(at)
            self._raw, self._since = raw, at

    def settle(self, now: float) -> None:
        if self._raw == self.down or now - self._since < DEBOUNCE - 1e-9:
            return
        self.down = self._raw
        known = self._since + DEBOUNCE
        if self.down:
            self.pressed = self._since
            holds = self._keys._holds
            self.early = holds is not None and self.name not in holds and not self._keys.crowded()
            self.told = self.early
            if self.early:
                self._keys.emit(self, "press", self.pressed, known)
            else:
                self._hold = self._keys.timer.call_later(HOLD, self._on_hold)
        elif self.early:
            self.early = False
        else:
            # Neither early nor told on the way down: the hold timer was set.
            assert self._hold is not None
            self._hold.cancel()
            if self.told:
                self._keys.emit(self, "release", self._since, known)
            else:
                self.told = True
                self._keys.emit(self, "press", self.pressed, known)

    @property
    def unsettled(self) -> bool:
        return self._raw != self.down

    def _on_hold(self) -> None:
        self.told = True
        self._keys.emit(self, "hold", self.pressed, self.pressed + HOLD)
        self._keys.flush()


class Keys:
    """The keypad and team buttons.  ``rows``/``cols`` are 4 BCM pin numbers
    each, ``teams`` maps "team1"/"team2" to a pin; ``clock`` gives the scan
    thread (``clock.thread(name)``)."""

    def __init__(self, rows: Sequence[int], cols: Sequence[int], teams: dict[str, int],
                 clock: ThreadedClock, on_key: Callable[[KeyEvent], None],
                 pin_factory: Factory | None = None) -> None:
        self.on_key = on_key
        # The keys a hold means something for on the page shown, which
        # report on release; None: every key (a keypad no page has spoken
        # to yet).  Set with each page drawn (``page_holds``), read on the
        # scan thread when a key goes down: a finger answers the page it sees.
        self._holds: frozenset[str] | None = None
        self.emitted = 0          # events found, on the scan thread…
        self.delivered = 0        # …and handed to on_key, on the loop's
        self._loop: asyncio.AbstractEventLoop | None = None
        opts = {"pin_factory": pin_factory}
        self._rows = [DigitalOutputDevice(p, active_high=False, initial_value=True, **opts) for p in rows]
        self._cols = [DigitalInputDevice(p, pull_up=True, **opts) for p in cols]
        # The scan talks to the pins directly: the devices' own machinery
        # (blink threads, locks) is several times the cost of the pin access.
        self._row_pins = [d.pin for d in self._rows]
        self._col_pins = [d.pin for d in self._cols]
        self.timer = clock.thread("keypad")     # once the pins are ours: nothing to leak if not
        self._matrix = [[_Key(LAYOUT[r][c], self) for c in range(4)] for r in range(4)]
        self._scanning: Timer | None = None
        # Team buttons are plain inputs, not gpiozero ``Button``s: holds are
        # timed here, and ``Button`` would keep a hold thread for each.
        self._buttons: dict[str, DigitalInputDevice] = {}
        self._teams = {name: _Key(name, self) for name in teams}
        self._settling: dict[str, Timer] = {}
        self._all = [k for row in self._matrix for k in row] + list(self._teams.values())
        self._found: list[_Found] = []     # not yet in order
        self._seq = itertools.count()
        self._queue: collections.deque[_Found] = collections.deque()   # in order, for the loop
        for name, pin in teams.items():
            button = DigitalInputDevice(pin, pull_up=True, bounce_time=None, **opts)
            button.when_activated = lambda _b=None, n=name: self._from_pin(self._team_edge, n, True)
            button.when_deactivated = lambda _b=None, n=name: self._from_pin(self._team_edge, n, False)
            self._buttons[name] = button
        for col in self._cols:
            col.when_activated = lambda _d=None: self._from_pin(self._wake)

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        """Key events go to ``on_key`` on ``loop`` from now on (any found
        before wait for it)."""
        self._loop = loop
        if self._queue:
            self._post()

    def page_holds(self, keys: frozenset[str]) -> None:
        """The page just drawn gives a hold a meaning on ``keys``: from now
        on they report when let go (or held), every other key as soon as it
        is down.  A key already down keeps the way it went down with."""
        self._holds = keys

    def held(self) -> set[str]:
        """The keys down now, as debounced."""
        return {k.name for k in self._all if k.down}

    def crowded(self) -> bool:
        """Three keys or more down at once: a palm or a sleeve on the pad,
        which a matrix without diodes cannot even read right.  Such keys
        wait to be let go as the keys that hold do, and held they are
        holds, which mean nothing on a page that asks for presses."""
        return sum(k._raw for k in self._all) >= 3

    def taken(self, key: str) -> bool:
        """``key`` is up, as debounced, and every event found so far has
        reached ``on_key``: what a hand letting go waits for, whether the
        key acted on the way down or on release."""
        return key not in self.held() and self.delivered == self.emitted

    def _from_pin(self, fn: Callable[..., None], *args: Any) -> None:
        # gpiozero calls back from its own thread on real pins: note the
        # moment, and leave the work to the scan thread.
        self.timer.call_later(0, fn, *args, self.timer.monotonic())

    # --- the queue ------------------------------------------------------------

    def emit(self, key: _Key, kind: str, at: float, due: float) -> None:
        self._found.append((at, next(self._seq), key.name, kind, due))
        self.emitted += 1

    def flush(self) -> None:
        """Queue for the loop the events no earlier key waits ahead of."""
        if not self._found:
            return
        first = min((k.pressed for k in self._all if k.down and not k.told), default=math.inf)
        self._found.sort()
        ready = 0
        while ready < len(self._found) and self._found[ready][0] <= first:
            ready += 1
        if ready:
            self._queue.extend(self._found[:ready])
            del self._found[:ready]
            self._post()

    def _post(self) -> None:
        if self._loop is None:
            return
        try:
            self._loop.call_soon_threadsafe(self._deliver)
        except RuntimeError:
            pass  # the loop is closed: the box is gone

    def _deliver(self) -> None:
        # On the loop's thread.  One key that raises must not hold up the
        # rest: they follow on the loop's next turn.
        try:
            while self._queue:
                at, _, key, kind, due = self._queue.popleft()
                try:
                    self.on_key(KeyEvent(key, kind, at, due))
                finally:
                    self.delivered += 1
        finally:
            if self._queue and self._loop is not None:
                self._loop.call_soon(self._deliver)

    # --- the matrix (on the scan thread) ----------------------------------------

    def _wake(self, at: float) -> None:
        # The first scan's levels are timed at the column's edge: the key
        # went down then, however late this thread woke to read which one,
        # so a late wake-up does not lengthen the debounce.
        if self._scanning is None:
            self._scan(min(at, self.timer.monotonic()))

    def _scan(self, due: float) -> None:
        # Scans keep to a fixed grid: a scan that runs late is late once.
        # Levels are timed on the grid, not by when the thread got to read
        # them: a level read alike by scans DEBOUNCE apart on the grid counts,
        # where timing by the thread's wake-ups (a little late, each by its
        # own amount) would miss it by a hair half the time and take it a
        # whole scan later.
        any_down = False
        rows, cols = self._row_pins, self._col_pins
        for pin in rows[1:]:
            pin.function = "input"      # let go of all rows but the first
        for r, pin in enumerate(rows):
            if r:
                pin.function = "output"  # this row low: its keys pull columns low
                rows[r - 1].function = "input"
            for c, key in enumerate(self._matrix[r]):
                level = not cols[c].state
                key.sample(level, due)
                any_down |= key.down or level
        for pin in rows[:-1]:
            pin.function = "output"     # at rest every row is low
        # Keep scanning until every key has settled up; then rest, rows low,
        # until a column falls again.
        if any_down or any(k.unsettled for row in self._matrix for k in row):
            now = self.timer.monotonic()
            after = max(due + SCAN, now)    # far behind: start a new grid
            self._scanning = self.timer.call_later(after - now, self._scan, after)
        else:
            self._scanning = None
        self.flush()

    # --- the team buttons (on the scan thread) ------------------------------------

    def _team_edge(self, name: str, level: bool, at: float) -> None:
        self._teams[name].edge(level, at)
        self.flush()
        pending = self._settling.get(name)
        if pending is not None:
            pending.cancel()
        self._settling[name] = self.timer.call_later(at + DEBOUNCE - self.timer.monotonic(),
                                                     self._team_settle, name)

    def _team_settle(self, name: str) -> None:
        self._settling.pop(name, None)
        self._teams[name].settle(self.timer.monotonic())
        self.flush()

    def close(self) -> None:
        self.timer.close()
        for device in (*self._rows, *self._cols, *self._buttons.values()):
            device.close()
