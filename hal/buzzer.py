"""The buzzer: a few named sounds on gpiozero's ``TonalBuzzer``.

A 12 mm magnetic buzzer is loud only near its resonance (the box's part is
rated at 2400 Hz, hardware/BOM.md); an octave below it is a whisper.  So a
sound is not written in notes but in places within the buzzer's band
(``band``, from its datasheet; the configuration's ``[buzzer] band``, which
referee/config.py checks): 0 is the band's low edge, 1 its high edge,
spaced evenly in pitch.  Whatever band a box's buzzer has, every sound stays
inside it, and the sounds keep their shapes (rising, falling, high, low).

A sound is a list of (place, seconds) steps played on the service clock,
None a rest; a new sound cuts the one playing.
"""
from __future__ import annotations

import math
from typing import Any

from hal.timing import Clock, Timer

Steps = tuple[tuple[float | None, float], ...]

SOUNDS: dict[str, Steps] = {
    "key": ((0.5, 0.01),),
    "tick": ((0.35, 0.04),),
    "warning": ((0.9, 0.08), (None, 0.05), (0.9, 0.08)),
    "timeup": ((0.75, 0.25), (None, 0.05), (0.75, 0.25), (None, 0.05), (0.0, 0.6)),
    "error": ((0.0, 0.15),),
    "done": ((0.3, 0.08), (0.8, 0.12)),
}


def frequency(place: float, band: tuple[float, float]) -> float:
    """Hz of a place in the band (0: its low edge, 1: its high edge)."""
    low, high = band
    return float(low * (high / low) ** place)


class Buzzer:
    """``band`` and ``octaves``: the configuration's, which checked that the
    band fits within ``octaves`` either side of its middle tone."""

    def __init__(self, pin: int, clock: Clock, band: tuple[float, float], octaves: int,
                 pin_factory: Any = None) -> None:
        self.clock = clock
        self.band: tuple[float, float] = (band[0], band[1])
        # Lazy: gpiozero only where a buzzer is driven (the doctor imports
        # this module to find a beep's frequency).
        from gpiozero import TonalBuzzer
        from gpiozero.tones import Tone
        self._tone = Tone.from_frequency
        middle = Tone.from_frequency(math.sqrt(band[0] * band[1]))
        self._device = TonalBuzzer(pin, mid_tone=middle, octaves=octaves, pin_factory=pin_factory)
        self._step: Timer | None = None
        self.played: list[tuple[float, str]] = []  # (monotonic second, sound)

    def play(self, name: str) -> None:
        self.played.append((self.clock.monotonic(), name))
        del self.played[:-1000]
        if self._step is not None:
            self._step.cancel()
        self._next(SOUNDS[name], 0)

    def _next(self, steps: Steps, i: int) -> None:
        if i == len(steps):
            self._device.stop()
            self._step = None
            return
        place, seconds = steps[i]
        if place is None:
            self._device.stop()
        else:
            self._device.play(self._tone(frequency(place, self.band)))
        self._step = self.clock.call_later(seconds, self._next, steps, i + 1)

    def close(self) -> None:
        if self._step is not None:
            self._step.cancel()
        self._device.close()
