"""What the dice module does, without its hardware.

``Module`` is the whole behaviour of the box on the table: it reads the
host's bytes, rolls, animates the read-out, answers, and rolls by itself
when its button is pressed.  Its outputs are three callables (bytes for the
host, text for the read-out, sounds for the piezo) and its clock is the
``now`` passed in, in milliseconds, so it runs the same on the Pico
(main.py), in the host's simulator and in tests.

A roll is answered when its animation ends, not when its values are drawn,
so the number on the box's screen and on the module appear together.
"""

from firmware import protocol

MYPY = False
if MYPY:  # mypy reads this (it takes MYPY as true); MicroPython has no typing and skips it
    from typing import Callable, Optional, Protocol  # noqa: F401  (named in type comments)

    class Roller(Protocol):
        """What rolls the dice: ``firmware.dice.Dice``, or the simulator's."""

        def roll(self, count, sides):
            # type: (int, int) -> list[int]
            ...

FIRMWARE = "1.1.0"  # 1.1: FAULT lines, the watchdog
ANIMATION_MS = 600
FRAME_MS = 60
QUEUE = 3  # rolls waiting behind the one on the read-out; more get ERR busy
DIGITS = 8
FAULTS = 5  # faults within FAULT_WINDOW_MS that make the board start afresh
FAULT_WINDOW_MS = 10000


def readout(values):
    # type: (list[Optional[int]]) -> str
    """The read-out's text for some dice: two digits a die, the first die
    leftmost, blank digits after the last; None shows as a dash (not rolled)."""
    text = "".join([" -" if v is None else "%2d" % v for v in values])
    return text + " " * (DIGITS - len(text))


class Module:
    def __init__(self, dice, write, show=None, sound=None, board="0", animation_ms=ANIMATION_MS):
        # type: (Roller, Callable[[bytes], object], Optional[Callable[[str], object]], Optional[Callable[[str], object]], str, int) -> None
        self.dice = dice
        self.board = board
        self.animation_ms = animation_ms
        self.armed = (2, 8)
        self.running = True  # False once the host asked for the REPL
        self._write = write
        self._show = show
        self._sound = sound
        self._line = b""
        self._overlong = False
        self._queue = []  # type: list[tuple]  # (id, count, sides) of rolls asked for, not started
        self._rolling = None  # type: Optional[tuple]  # (id or None for the button, count, sides, values, started)
        self._frame = -1
        self._rolled = False
        self.display = readout([None] * self.armed[0])

    def start(self):
        # type: () -> None
        """Power on: greet whoever listens, show what the button would roll."""
        self._display(self.display)
        self._reply(protocol.hello_reply(FIRMWARE, self.board))

    def receive(self, data, now):
        # type: (bytes, int) -> None
        """Bytes from the host, in pieces of any size."""
        self._line += data
        while self.running:
            end = self._line.find(b"\n")
            if end < 0:
                break
            line = self._line[:end]
            self._line = self._line[end + 1:]
            if self._overlong or end >= protocol.MAX_LINE:
                self._overlong = False
                self._reply(protocol.error(None, protocol.MALFORMED))
            else:
                self._handle(line, now)
        if len(self._line) >= protocol.MAX_LINE:
            # Memory is small: the rest of an over-long line is dropped as it
            # comes, and its newline answers for it.
            self._line = b""
            self._overlong = True

    def press(self, now):
        # type: (int) -> None
        """The ROLL button was pressed (already debounced).  A press while
        dice are rolling is ignored: those dice are already in the air."""
        if self.running and self._rolling is None and not self._queue:
            count, sides = self.armed
            self._start(None, count, sides, now)

    def tick(self, now):
        # type: (int) -> None
        """Advances the animation; call it whenever ``wake_in`` says."""
        if self._rolling is None:
            return
        id, count, sides, values, started = self._rolling
        elapsed = now - started
        if elapsed >= self.animation_ms:
            self._rolling = None
            self._display(readout(values))
            self._beep("done")
            if id is None:
                self._reply(protocol.button(count, sides, values))
            else:
                self._reply(protocol.result(id, values))
            self._next(now)
            return
        frame = elapsed // FRAME_MS
        if frame != self._frame:
            self._frame = frame
            # Faces run past at different speeds, like dice tumbling; they
            # are decoration, so they cost no random bytes.
            self._display(readout([(frame * (3 + i) + i) % sides + 1 for i in range(count)]))
            self._beep("tick")

    def wake_in(self, now):
        # type: (int) -> Optional[int]
        """Milliseconds until ``tick`` has something to do, or None."""
        if self._rolling is None:
            return None
        elapsed = now - self._rolling[4]
        due = min((elapsed // FRAME_MS + 1) * FRAME_MS, self.animation_ms)
        return max(0, due - elapsed)

    def _handle(self, line, now):
        if line.endswith(b"\r"):
            line = line[:-1]
        if not line.strip():
            return  # an empty line is how a person at a terminal clears it
        for byte in line:
            if not 32 <= byte <= 126:
                self._reply(protocol.error(None, protocol.MALFORMED))
                return
        try:
            command = protocol.parse_command(line.decode())
        except protocol.ProtocolError as e:
            self._reply(protocol.error(e.id, e.reason))
            return
        word = command[0]
        if word == "HELLO":
            self._reply(protocol.hello_reply(FIRMWARE, self.board))
        elif word == "ROLL":
            if len(self._queue) >= QUEUE:
                self._reply(protocol.error(command[1], protocol.BUSY))
                return
            self._queue.append(command[1:])
            self._next(now)
        elif word == "ARM":
            self.armed = command[1:]
            if not self._rolled:
                self._display(readout([None] * self.armed[0]))
            self._reply(protocol.armed(self.armed[0], self.armed[1]))
        elif word == "REPL":
            self._reply(protocol.bye())
            self.running = False

    def _next(self, now):
        if self._rolling is None and self._queue:
            id, count, sides = self._queue.pop(0)
            self._start(id, count, sides, now)

    def _start(self, id, count, sides, now):
        self._rolled = True
        self._rolling = (id, count, sides, self.dice.roll(count, sides), now)
        self._frame = -1
        self.tick(now)

    def _reply(self, text):
        self._write(text.encode())

    def _display(self, text):
        self.display = text
        if self._show:
            self._show(text)

    def _beep(self, kind):
        if self._sound:
            self._sound(kind)


class Debounce:
    """A mechanical button read as a level, as often as the loop comes
    round.  Contacts bounce for a few milliseconds, so a press counts once
    they have stayed closed for ``stable_ms``, and the next press only after
    they have stayed open as long."""

    def __init__(self, stable_ms=20):
        self.stable_ms = stable_ms
        self._closed = False
        self._since = 0
        self._down = False

    def update(self, closed, now):
        """Returns True exactly once per press."""
        if closed != self._closed:
            self._closed = closed
            self._since = now
            return False
        if now - self._since < self.stable_ms or closed == self._down:
            return False
        self._down = closed
        return closed


class Faults:
    """Counts the main loop's faults.  One now and then is reported and the
    loop goes on; ``FAULTS`` within ``FAULT_WINDOW_MS`` mean it cannot get
    past something, and only a reset (a fresh start, as at power-on) helps."""

    def __init__(self, limit=FAULTS, window_ms=FAULT_WINDOW_MS):
        self.limit = limit
        self.window_ms = window_ms
        self.total = 0
        self._recent = []

    def add(self, now):
        """Counts one fault at ``now``; True when the board should reset."""
        self.total += 1
        self._recent = [t for t in self._recent if now - t < self.window_ms] + [now]
        return len(self._recent) >= self.limit
