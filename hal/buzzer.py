"""The buzzer: a few named sounds on gpiozero's ``TonalBuzzer``.

``TonalBuzzer`` plays A3–A5 by default and raises outside that range, so
every note here stays inside it.  A sound is a list of (note, seconds) steps
played on the service clock; a new sound cuts the one playing.
"""
from __future__ import annotations

from gpiozero import TonalBuzzer
from gpiozero.tones import Tone

SOUNDS = {
    "key": (("A5", 0.01),),
    "tick": (("E5", 0.04),),
    "warning": (("A5", 0.08), (None, 0.05), ("A5", 0.08)),
    "timeup": (("A4", 0.25), (None, 0.05), ("A4", 0.25), (None, 0.05), ("A3", 0.6)),
    "error": (("A3", 0.15),),
    "done": (("A4", 0.08), ("E5", 0.12)),
}


class Buzzer:
    def __init__(self, pin: int, clock, pin_factory=None) -> None:
        self.clock = clock
        self._device = TonalBuzzer(pin, pin_factory=pin_factory)
        self._step = None
        self.played: list[tuple[float, str]] = []  # (monotonic second, sound)

    def play(self, name: str) -> None:
        self.played.append((self.clock.monotonic(), name))
        del self.played[:-1000]
        if self._step is not None:
            self._step.cancel()
        self._next(SOUNDS[name], 0)

    def _next(self, steps, i: int) -> None:
        if i == len(steps):
            self._device.stop()
            self._step = None
            return
        note, seconds = steps[i]
        if note is None:
            self._device.stop()
        else:
            self._device.play(Tone(note))
        self._step = self.clock.call_later(seconds, self._next, steps, i + 1)

    def close(self) -> None:
        if self._step is not None:
            self._step.cancel()
        self._device.close()
