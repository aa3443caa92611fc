"""Fair dice from a source of random bytes.

On the Pico the source is ``os.urandom`` (the RP2040's ring-oscillator
generator); under CPython anything with the same signature will do, so the
host's tests and simulator roll with the firmware's own logic.
"""

MYPY = False
if MYPY:  # mypy reads this (it takes MYPY as true); MicroPython has no typing and skips it
    from typing import Callable  # noqa: F401  (named in type comments)


class Dice:
    """Rolls dice of 2 to 256 sides.  ``rng(n)`` returns n random bytes; they
    are fetched ``batch`` at a time because each call into the hardware
    generator costs far more than reading a byte already fetched."""

    def __init__(self, rng, batch=32):
        # type: (Callable[[int], bytes], int) -> None
        self._rng = rng
        self._batch = batch
        self._pool = b""
        self._at = 0

    def face(self, sides):
        # type: (int) -> int
        # A byte has 256 values, which most dice do not divide: 256 % 6 = 4
        # values would make faces 1-4 of a d6 more likely.  Bytes from the
        # last incomplete run of `sides` values are thrown away and drawn
        # again, so every face keeps exactly limit / sides chances.
        limit = 256 - 256 % sides
        while True:
            if self._at >= len(self._pool):
                self._pool = self._rng(self._batch)
                self._at = 0
            byte = self._pool[self._at]
            self._at += 1
            if byte < limit:
                return byte % sides + 1

    def roll(self, count, sides):
        # type: (int, int) -> list[int]
        return [self.face(sides) for _ in range(count)]
