"""gpiozero mock pins wired like the box: a keypad matrix and two buttons.

The real ``hal.keys.Keys`` driver runs on these pins unchanged.  A pressed
key joins its row pin to its column pin, so when the driver pulls that row low
the column reads low, exactly as the copper does.
"""
from __future__ import annotations

from gpiozero.pins.mock import MockFactory, MockPin, MockPWMPin

from hal.keys import LAYOUT


class QuietPin(MockPin):
    """A mock pin that keeps no history: gpiozero's ``MockPin`` records every
    change, which a box scanning its keypad all evening cannot afford."""

    def _change_state(self, value):
        if self._state == value:
            return False
        self._state = value
        return True


class RowPin(QuietPin):
    """An output pin that tells the matrix whenever its level changes."""

    matrix = None

    def _change_state(self, value):
        changed = super()._change_state(value)
        if changed and self.matrix is not None:
            self.matrix.update()
        return changed


class WiredFactory(MockFactory):
    """Hands gpiozero the pins wired up in advance, whatever class they are
    (``MockFactory`` refuses a PWM pin to a caller that did not ask for one)."""

    def pin(self, name, pin_class=None, **kwargs):
        for _header, info in self.board_info.find_pin(name):
            if info in self.pins:
                return self.pins[info]
        return super().pin(name, pin_class, **kwargs)


class SimulatedPins:
    """A ``MockFactory`` with the keypad matrix and team buttons of a pin map
    (``rows``, ``cols``: 4 BCM numbers each; ``teams``: name → BCM;
    ``buzzer``: BCM of the PWM pin)."""

    def __init__(self, rows, cols, teams: dict[str, int], buzzer: int | None = None) -> None:
        self.factory = WiredFactory(pin_class=QuietPin)
        self._rows = [self.factory.pin(p, pin_class=RowPin) for p in rows]
        self._cols = [self.factory.pin(p) for p in cols]
        self._teams = {name: self.factory.pin(p) for name, p in teams.items()}
        if buzzer is not None:
            self.factory.pin(buzzer, pin_class=MockPWMPin)
        for row in self._rows:
            row.matrix = self
        self._where = {LAYOUT[r][c]: (r, c) for r in range(4) for c in range(4)}
        self.down: set[str] = set()

    def set(self, key: str, down: bool) -> None:
        """Press (``down=True``) or let go of a keypad key or team button."""
        if key in self._teams:
            pin = self._teams[key]
            pin.drive_low() if down else pin.drive_high()
            return
        if key not in self._where:
            raise ValueError(f"no key {key!r} on the keypad")
        (self.down.add if down else self.down.discard)(key)
        self.update()

    def update(self) -> None:
        for c, col in enumerate(self._cols):
            low = any(
                self._where[k][1] == c and self._rows[self._where[k][0]].state == 0 and
                self._rows[self._where[k][0]].function == "output"
                for k in self.down)
            if col.function == "input":
                col.drive_low() if low else col.drive_high()
