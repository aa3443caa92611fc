"""gpiozero mock pins wired like the box: a keypad matrix and two buttons.

The real ``hal.keys.Keys`` driver runs on these pins unchanged.  The matrix
is modelled as the copper is: every row and column is a wire, and a pressed
key joins its row's wire to its column's.  Wires joined this way form one
net; a net is low if a row driven low is on it, high if a row driven high
is, and otherwise the columns' pull-ups hold it high.  A net with one row
driven high and another driven low is a short (``shorts`` counts them).  A
row let go (an input) drives nothing, as on the board.
"""
from __future__ import annotations

import threading

from typing import Any, Sequence

from gpiozero.pins.mock import MockFactory, MockPin, MockPWMPin

from hal.keys import LAYOUT


class QuietPin(MockPin):  # type: ignore[misc]  # gpiozero ships no types
    """A mock pin that keeps no history: gpiozero's ``MockPin`` records every
    change, which a box scanning its keypad all evening cannot afford."""

    _state: bool  # MockPin's level, set here without its history

    def _change_state(self, value: bool) -> bool:
        if self._state == value:
            return False
        self._state = value
        return True


class RowPin(QuietPin):
    """A row's pin: tells the matrix whenever it drives another level or
    stops or starts driving."""

    matrix: SimulatedPins | None = None

    def _change_state(self, value: bool) -> bool:
        changed: bool = super()._change_state(value)
        if changed and self.matrix is not None:
            self.matrix.rows_changed()
        return changed

    def _set_function(self, value: str) -> None:
        before = self._function
        super()._set_function(value)
        if value != before and self.matrix is not None:
            self.matrix.rows_changed()


class WiredFactory(MockFactory):  # type: ignore[misc]  # gpiozero ships no types
    """Hands gpiozero the pins wired up in advance, whatever class they are
    (``MockFactory`` refuses a PWM pin to a caller that did not ask for one)."""

    def pin(self, name: int | str, pin_class: type[MockPin] | None = None, **kwargs: Any) -> MockPin:
        for _header, info in self.board_info.find_pin(name):
            if info in self.pins:
                return self.pins[info]
        return super().pin(name, pin_class, **kwargs)


class SimulatedPins:
    """A ``MockFactory`` with the keypad matrix and team buttons of a pin map
    (``rows``, ``cols``: 4 BCM numbers each; ``teams``: name → BCM;
    ``buzzer``: BCM of the PWM pin).

    Keys may be pressed from any thread while the driver scans on its own.
    ``row_log``: set it to a list, and it records what every row does after
    each change, one tuple per change of ``(function, state)`` per row."""

    def __init__(self, rows: Sequence[int], cols: Sequence[int], teams: dict[str, int], buzzer: int | None = None) -> None:
        self.factory = WiredFactory(pin_class=QuietPin)
        self._rows = [self.factory.pin(p, pin_class=RowPin) for p in rows]
        self._cols = [self.factory.pin(p) for p in cols]
        self._teams = {name: self.factory.pin(p) for name, p in teams.items()}
        if buzzer is not None:
            self.factory.pin(buzzer, pin_class=MockPWMPin)
        self._lock = threading.RLock()
        self.shorts = 0
        self.row_log: list[tuple[tuple[str, bool], ...]] | None = None
        for row in self._rows:
            row.matrix = self
        self._where = {LAYOUT[r][c]: (r, c) for r in range(4) for c in range(4)}
        self.down: set[str] = set()
        self._net = self._nets()

    def set(self, key: str, down: bool) -> None:
        """Press (``down=True``) or let go of a keypad key or team button."""
        with self._lock:
            if key in self._teams:
                pin = self._teams[key]
                pin.drive_low() if down else pin.drive_high()
                return
            if key not in self._where:
                raise ValueError(f"no key {key!r} on the keypad")
            (self.down.add if down else self.down.discard)(key)
            self._net = self._nets()
            self.update()

    def _nets(self) -> tuple[int, ...]:
        """Each wire's net, as the held keys join them: wires 0-3 are the
        rows, 4-7 the columns.  Worked out when a key moves, not at each of
        the dozen row changes of every scan."""
        net = list(range(8))

        def find(w: int) -> int:
            while net[w] != w:
                net[w] = net[net[w]]
                w = net[w]
            return w

        for key in self.down:
            r, c = self._where[key]
            net[find(r)] = find(4 + c)
        return tuple(find(w) for w in range(8))

    def rows_changed(self) -> None:
        with self._lock:
            if self.row_log is not None:
                self.row_log.append(tuple((p.function, bool(p.state)) for p in self._rows))
            self.update()

    def update(self) -> None:
        """Set every column to the level of its net."""
        # The pins' own fields, not gpiozero's properties: this runs at every
        # row change of every scan, a dozen a scan.
        with self._lock:
            if not self.down:
                # No key joins a column to a row: each column is a net of its
                # own, held high by its pull-up, and no net can be a short.
                for col in self._cols:
                    if col._function == "input":
                        col.drive_high()
                return
            net = self._net
            driven: dict[int, set[bool]] = {}
            for r, pin in enumerate(self._rows):
                if pin._function == "output":
                    driven.setdefault(net[r], set()).add(bool(pin._state))
            self.shorts += sum(1 for levels in driven.values() if len(levels) > 1)
            for c, col in enumerate(self._cols):
                if col._function == "input":
                    low = False in driven.get(net[4 + c], ())
                    col.drive_low() if low else col.drive_high()
