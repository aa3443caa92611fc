"""The dice: one small interface, the software fallback, and the switch
between module and fallback.

The service asks ``await dice.roll(count, sides)`` and gets a ``DiceRoll``.
Someone pressing the module's own ROLL button arrives through
``on_button(roll)``; what that button rolls is set with ``arm(count, sides)``.
Callbacks are always called on the event loop's thread.
"""
from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass
from typing import Callable

MAX_DICE = 4
SIDES = range(2, 21)


@dataclass(frozen=True)
class DiceRoll:
    values: tuple[int, ...]
    source: str  # "module" or "software"


def check(count: int, sides: int) -> None:
    if not 1 <= count <= MAX_DICE or sides not in SIDES:
        raise ValueError(f"cannot roll {count}d{sides}: 1 to {MAX_DICE} dice of 2 to 20 sides")


class Dice:
    """Base of every dice device.  ``status`` is "online" when rolls come
    from the module, "offline" when they come from software."""

    status = "online"

    def __init__(self) -> None:
        self.on_button: Callable[[DiceRoll], None] | None = None
        self.on_status: Callable[[str], None] | None = None
        self.armed = (2, 8)

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        """Called once, on the event loop's thread, before any roll."""

    def arm(self, count: int, sides: int) -> None:
        check(count, sides)
        self.armed = (count, sides)

    async def roll(self, count: int, sides: int) -> DiceRoll:
        raise NotImplementedError

    def close(self) -> None:
        pass

    def _button(self, roll: DiceRoll) -> None:
        if self.on_button:
            self.on_button(roll)

    def _set_status(self, status: str) -> None:
        if status != self.status:
            self.status = status
            if self.on_status:
                self.on_status(status)


class SoftwareDice(Dice):
    """Rolls with the operating system's CSPRNG (``os.urandom``, through
    ``random.SystemRandom`` as ``secrets`` does, without loading hashlib's
    OpenSSL half with it): the fallback when no module is connected, and the
    choice of ``dice = "software"``."""

    status = "offline"
    _urandom = random.SystemRandom()

    async def roll(self, count: int, sides: int) -> DiceRoll:
        check(count, sides)
        return DiceRoll(tuple(self._urandom.randrange(sides) + 1 for _ in range(count)), "software")
