"""The 4×4 keypad and the two team buttons, read through gpiozero.

The keypad is a matrix: rows are outputs, columns are inputs pulled up, and a
pressed key connects its row to its column.  At rest every row is driven low,
so any press pulls a column low and wakes the scanner; while a key is down the
rows are scanned one at a time on the service clock.  Debouncing and hold
detection happen here, on that clock, because mock pins ignore
``bounce_time`` and real pin libraries each debounce differently.

Every key, team buttons included, reports to ``on_key(key, kind)`` on the
event loop's thread:

- ``"press"``:   released before ``HOLD`` seconds
- ``"hold"``:    still down after ``HOLD`` seconds
- ``"release"``: released after a hold
"""
from __future__ import annotations

from typing import Callable

from gpiozero import DigitalInputDevice, DigitalOutputDevice

LAYOUT = ("123A", "456B", "789C", "*0#D")
TEAMS = ("team1", "team2")
SCAN = 0.01       # seconds between matrix scans while a key is down
DEBOUNCE = 0.02   # a level must hold this long before it counts
HOLD = 0.6        # seconds down before a press becomes a hold


class _Key:
    """Debounce and hold detection for one key, fed with raw levels."""

    def __init__(self, name: str, keys: Keys) -> None:
        self.name = name
        self._keys = keys
        self.down = False       # the accepted level
        self._raw = False
        self._since = 0.0       # when the raw level last changed
        self._hold = None
        self._held = False

    def sample(self, raw: bool, now: float) -> None:
        if raw != self._raw:
            self._raw, self._since = raw, now
        elif raw != self.down and now - self._since >= DEBOUNCE - 1e-9:
            self.down = raw
            if raw:
                self._held = False
                self._hold = self._keys.clock.call_later(HOLD, self._on_hold)
            else:
                self._hold.cancel()
                self._keys.emit(self.name, "release" if self._held else "press")

    def _on_hold(self) -> None:
        self._held = True
        self._keys.emit(self.name, "hold")


class Keys:
    """The keypad and team buttons.  ``rows``/``cols`` are 4 BCM pin numbers
    each, ``teams`` maps "team1"/"team2" to a pin."""

    def __init__(self, rows, cols, teams: dict[str, int], clock, on_key: Callable[[str, str], None],
                 pin_factory=None) -> None:
        self.clock = clock
        self.on_key = on_key
        self._loop = None
        opts = {"pin_factory": pin_factory}
        self._rows = [DigitalOutputDevice(p, active_high=False, initial_value=True, **opts) for p in rows]
        self._cols = [DigitalInputDevice(p, pull_up=True, **opts) for p in cols]
        # The scan talks to the pins directly: the devices' own machinery
        # (blink threads, locks) is several times the cost of the pin access.
        self._row_pins = [d.pin for d in self._rows]
        self._col_pins = [d.pin for d in self._cols]
        self._matrix = [[_Key(LAYOUT[r][c], self) for c in range(4)] for r in range(4)]
        self._scanning = None
        self._held_back: list | None = None   # key events found mid-scan
        # Team buttons are plain inputs, not gpiozero ``Button``s: holds are
        # timed here, and ``Button`` would keep a hold thread for each.
        self._buttons: dict[str, DigitalInputDevice] = {}
        self._teams = {name: _Key(name, self) for name in teams}
        self._team_checks: dict[str, object] = {}
        for name, pin in teams.items():
            button = DigitalInputDevice(pin, pull_up=True, bounce_time=None, **opts)
            button.when_activated = button.when_deactivated = lambda _b=None, n=name: self._from_pin(self._team_edge, n)
            self._buttons[name] = button
        for col in self._cols:
            col.when_activated = lambda _d=None: self._from_pin(self._wake)

    def start(self, loop) -> None:
        self._loop = loop

    def emit(self, key: str, kind: str) -> None:
        if self._held_back is not None:
            self._held_back.append((key, kind))  # mid-scan: after the rows are back at rest
        else:
            self.on_key(key, kind)

    def _from_pin(self, fn, *args) -> None:
        # gpiozero calls back from its own thread on real pins.
        if self._loop is not None:
            self._loop.call_soon_threadsafe(fn, *args)

    # --- the matrix -----------------------------------------------------------

    def _wake(self) -> None:
        if self._scanning is None:
            self._scan(self.clock.monotonic())

    def _scan(self, due: float) -> None:
        # Scans keep to a fixed grid and each counts at the time it was due:
        # a loop busy with other work may run one late, but the lateness
        # neither adds up from scan to scan nor postpones the debounce.
        any_down = False
        self._held_back = []
        rows, cols = self._row_pins, self._col_pins
        for pin in rows[1:]:
            pin.state = True            # all rows high but the first
        for r, pin in enumerate(rows):
            if r:
                rows[r - 1].state = True
                pin.state = False       # this row low: its keys pull columns low
            for c, key in enumerate(self._matrix[r]):
                level = not cols[c].state
                key.sample(level, due)
                any_down |= key.down or level
        for pin in rows[:-1]:
            pin.state = False           # at rest every row is low
        # Keep scanning until every key has settled up; then rest, rows low,
        # until a column falls again.
        if any_down or self._unsettled():
            now = self.clock.monotonic()
            after = max(due + SCAN, now)    # far behind: start a new grid
            self._scanning = self.clock.call_later(after - now, self._scan, after)
        else:
            self._scanning = None
        # Only now, with the matrix at rest and the next scan booked, do the
        # keys reach the box: whatever a key does cannot stall the keypad.
        found, self._held_back = self._held_back, None
        for key, kind in found:
            self.on_key(key, kind)

    def _unsettled(self) -> bool:
        return any(k.down != k._raw for row in self._matrix for k in row)

    # --- the team buttons -------------------------------------------------------

    def _team_edge(self, name: str) -> None:
        key = self._teams[name]
        key.sample(self._buttons[name].is_active, self.clock.monotonic())
        pending = self._team_checks.get(name)
        if pending is not None:
            pending.cancel()
        self._team_checks[name] = self.clock.call_later(DEBOUNCE, self._team_settle, name)

    def _team_settle(self, name: str) -> None:
        self._team_checks.pop(name, None)
        key = self._teams[name]
        key.sample(self._buttons[name].is_active, self.clock.monotonic())
        if key.down != self._buttons[name].is_active:
            self._team_checks[name] = self.clock.call_later(DEBOUNCE, self._team_settle, name)

    def close(self) -> None:
        for device in (*self._rows, *self._cols, *self._buttons.values()):
            device.close()
