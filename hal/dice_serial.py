"""The dice module on USB serial: the host's side of firmware/PROTOCOL.md.

``SerialDice(port, *, timeout=1.5, poll=0.5, clock=time.monotonic)``

``port``     the module's path, best its /dev/serial/by-id entry, which stays
             the same whichever USB socket it is in.  May be a glob (the
             configuration's default, ``[dice] port``, matches any Pico
             running MicroPython; the first in sorted order is taken) or
             any pyserial URL such as ``loop://``.
``timeout``  seconds a roll waits for the module before it is rolled in
             software instead.
``poll``     seconds between looks for the port while it is missing.
``clock``    the monotonic seconds that pace the module's button.

The module is used only while ``status`` is "online": after it has
answered HELLO with protocol 1.  Otherwise every roll comes from
``SoftwareDice``, and the service carries on.  A reader thread owns the
port: it opens it (again and again, if need be), greets the module, and
hands each line to the event loop, where all protocol decisions are made
and every callback runs.  Unplugging shows as "offline" at once; plugging
back in as "online" within ``poll`` plus a round trip, with the armed dice
sent again.

A faulty module cannot make the service accept a wrong roll: lines are at
most ``protocol.MAX_LINE`` bytes, at most ``INBOX`` of them wait for the
loop, answers must carry the id of a roll still waiting and exactly the
dice asked for, and a button roll must be the armed dice.  Faults are logged
as one-line warnings, each kind at most once per ``WARN_EVERY`` seconds.

Nor can it roll faster than a hand: button rolls beyond ``BUTTON_RATE`` a
second (after a burst of ``BUTTON_BURST``) are dropped and counted in
``dropped``.  A module whose button bounces or whose firmware repeats
itself once sent thousands of valid ``BUTTON`` lines, each a stored roll.
"""
from __future__ import annotations

import asyncio
import collections
import enum
import glob
import io
import logging
import os
import threading
import time
from typing import Callable, Protocol

import serial  # ships no types: _Port says what is used of a port

from firmware import protocol
from hal.dice import Dice, DiceRoll, SoftwareDice, check

log = logging.getLogger(__name__)

BAUD = 115200
READ_TIMEOUT = 0.1  # s the reader waits for a byte before it looks at the clock
HELLO_EVERY = 1.0  # s between greetings while the module has not answered
INBOX = 64  # lines waiting for the loop; a flood beyond that is dropped
WARN_EVERY = 10.0
# A hand pressing as fast as it can makes about five presses a second; a
# few quicker ones in a row (a double press) still pass.
BUTTON_RATE = 5.0
BUTTON_BURST = 3

class _Lost(enum.Enum):
    """The inbox item that says the port failed and is closed."""
    LOST = enum.auto()


_LOST = _Lost.LOST


class _Port(Protocol):
    """What is used of a pyserial port."""

    def readline(self, size: int = -1, /) -> bytes: ...

    def write(self, data: bytes, /) -> int | None: ...

    def fileno(self) -> int: ...

    def close(self) -> None: ...


class SerialDice(Dice):
    status = "offline"

    def __init__(self, port: str | os.PathLike[str], *, timeout: float = 1.5, poll: float = 0.5,
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.clock = clock
        self.dropped = 0   # button rolls beyond BUTTON_RATE, since the start
        self._presses: tuple[float, float | None] = (float(BUTTON_BURST), None)   # (presses in hand, when counted)
        self.port = os.fspath(port)
        self.timeout = timeout
        self.poll = poll
        self.module: tuple[str, str] | None = None  # (firmware, board) once greeted
        self._software = SoftwareDice()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._port_lock = threading.Lock()  # the open port: writes and close
        self._serial: _Port | None = None
        self._inbox_lock = threading.Lock()
        self._inbox: collections.deque[bytes | _Lost] = collections.deque()
        self._draining = False
        self._pending: dict[int, tuple[int, int, asyncio.Future[tuple[int, ...] | None]]] = {}
        self._last_id = 0
        self._warn_lock = threading.Lock()
        self._warned: dict[str, tuple[float, int]] = {}  # message -> (said at, times unsaid)

    # --- the Dice interface (event loop thread) ---------------------------

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        if self._thread is None:
            self._loop = loop
            self._thread = threading.Thread(target=self._run, name="dice-serial", daemon=True)
            self._thread.start()

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(2 * READ_TIMEOUT + 1)
        for id in list(self._pending):
            self._settle(id, None)

    def arm(self, count: int, sides: int) -> None:
        super().arm(count, sides)
        if self.status == "online":
            self._send(protocol.arm(count, sides))

    async def roll(self, count: int, sides: int) -> DiceRoll:
        check(count, sides)
        if self.status == "online":
            values = await self._ask(count, sides)
            if values is not None:
                return DiceRoll(values, "module")
        return await self._software.roll(count, sides)

    async def _ask(self, count: int, sides: int) -> tuple[int, ...] | None:
        """The module's values, or None to roll in software (already logged)."""
        self._last_id = self._last_id % protocol.MAX_ID + 1
        id = self._last_id
        assert self._loop is not None, "rolls on the module only once started"
        answer = self._loop.create_future()
        self._pending[id] = (count, sides, answer)
        try:
            if not self._send(protocol.roll(id, count, sides)):
                return None
            return await asyncio.wait_for(answer, self.timeout)
        except TimeoutError:
            self._warn("no answer to roll %d in %.1f s; rolled in software", id, self.timeout)
            # Not trusted again until it answers a greeting, which the reader sends.
            self._set_status("offline")
            return None
        finally:
            del self._pending[id]

    # --- lines from the module (event loop thread) ------------------------

    def _drain(self) -> None:
        # A bounded batch, then the rest of the loop gets its turn: a module
        # in a flood cannot starve the service.
        for _ in range(INBOX):
            with self._inbox_lock:
                if not self._inbox:
                    self._draining = False
                    return
                item = self._inbox.popleft()
            try:
                if isinstance(item, _Lost):
                    self._lost()
                else:
                    self._receive(item)
            except Exception:
                # A fault of ours or of a callback: say so, and keep the dice going.
                log.exception("dice module: cannot handle %r", item)
        assert self._loop is not None  # it scheduled this drain
        self._loop.call_soon(self._drain)

    def _receive(self, raw: bytes) -> None:
        try:
            reply = protocol.parse_reply(raw.decode("ascii"))
        except UnicodeDecodeError:
            self._warn("ignored a line that is not ASCII")
            return
        except protocol.ProtocolError as e:
            self._warn("ignored %r (%s)", raw[:40], e.reason)
            if e.id is not None:
                self._settle(e.id, None)  # a broken answer to a roll: do not wait for another
            return
        word = reply[0]
        if word == "FAULT":
            # The firmware raised and its loop goes on; a roll it was making
            # may be lost, which the roll's timeout already covers.
            self._warn("the firmware reported a fault (%s) and carried on", reply[1])
        elif word == "HELLO":
            self._hello(*reply[1:])
        elif self.status != "online":
            self._warn("ignored %r before its hello", raw[:40])
        elif word == "RESULT":
            self._result(*reply[1:])
        elif word == "BUTTON":
            self._pressed(*reply[1:])
        elif word == "ERR":
            id, reason = reply[1:]
            self._warn("refused %s: %s", "a line" if id is None else f"roll {id}", reason)
            if id is not None:
                self._settle(id, None)
        elif word == "BYE":
            log.info("dice module handed its port to the REPL")
            self._set_status("offline")
        # ARMED confirms what was sent; nothing waits for it.

    def _hello(self, version: int, firmware: str, board: str) -> None:
        if version != protocol.PROTOCOL:
            self._warn("%s speaks protocol %d, not %d", board, version, protocol.PROTOCOL)
            return
        self.module = (firmware, board)
        if self.status != "online":
            log.info("dice module %s (firmware %s) online", board, firmware)
            # A module that was unplugged has booted afresh and armed 2d8.
            self._send(protocol.arm(*self.armed))
            self._set_status("online")

    def _result(self, id: int, values: tuple[int, ...]) -> None:
        if id not in self._pending:
            self._warn("ignored an answer to roll %d, which nothing waits for", id)
            return
        count, sides, _ = self._pending[id]
        if len(values) != count or not all(1 <= v <= sides for v in values):
            self._warn("answered roll %d of %dd%d with %s; rolled in software", id, count, sides, values)
            self._settle(id, None)
            return
        self._settle(id, values)

    def _pressed(self, count: int, sides: int, values: tuple[int, ...]) -> None:
        if (count, sides) != self.armed:
            # An ARM on its way when the button was pressed; the next press is right.
            self._warn("ignored a button roll of %dd%d while %dd%d is armed", count, sides, *self.armed)
            return
        if not self._paced():
            self.dropped += 1
            self._warn("its button rolls faster than a hand can: %d button rolls dropped since the start", self.dropped)
            return
        self._button(DiceRoll(values, "module"))

    def _paced(self) -> bool:
        """A token bucket: BUTTON_BURST presses in hand, one more every
        1/BUTTON_RATE seconds; a roll takes one."""
        now = self.clock()
        left, then = self._presses
        if then is not None:
            left = min(float(BUTTON_BURST), left + (now - then) * BUTTON_RATE)
        if left < 1:
            self._presses = (left, now)
            return False
        self._presses = (left - 1, now)
        return True

    def _lost(self) -> None:
        self.module = None
        self._set_status("offline")
        for id in list(self._pending):
            self._settle(id, None)

    def _settle(self, id: int, values: tuple[int, ...] | None) -> None:
        entry = self._pending.get(id)
        if entry and not entry[2].done():
            entry[2].set_result(values)

    # --- the port (reader thread) -----------------------------------------

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self._connect()
            except Exception:
                # Not an expected fault: log it whole, and try again, since a
                # dead reader would leave the dice in software for the evening.
                log.exception("dice module: reader failed")
                self._stop.wait(self.poll)

    def _connect(self) -> None:
        """One spell with the port: find it, open it, read until it fails."""
        port = self._open()
        if port is None:
            self._stop.wait(self.poll)
            return
        try:
            self._read(port)
        except (serial.SerialException, OSError) as e:
            self._warn("lost: %s", e)
        finally:
            with self._port_lock:
                self._serial = None
            try:
                port.close()
            except (serial.SerialException, OSError):
                pass
            self._post(_LOST)

    def _open(self) -> _Port | None:
        path = self._find()
        if path is None:
            return None
        try:
            port: _Port = serial.serial_for_url(path, baudrate=BAUD, timeout=READ_TIMEOUT)
        except (serial.SerialException, OSError, ValueError) as e:
            self._warn("cannot open %s: %s", path, e)
            return None
        with self._port_lock:
            self._serial = port
        log.info("dice module port %s open", path)
        return port

    def _find(self) -> str | None:
        if "://" in self.port:
            return self.port
        if glob.has_magic(self.port):
            found = sorted(glob.glob(self.port))
            return found[0] if found else None
        return self.port if os.path.exists(self.port) else None

    def _read(self, port: _Port) -> None:
        line = b""
        too_long = False
        greeted_at = -HELLO_EVERY
        while not self._stop.is_set():
            if self.status != "online" and time.monotonic() - greeted_at >= HELLO_EVERY:
                greeted_at = time.monotonic()
                self._send(protocol.hello())
            # Returns part of a line when the module pauses mid-line; the rest
            # comes with the next call.
            line += port.readline(protocol.MAX_LINE)
            if line.endswith(b"\n"):
                if too_long or len(line) > protocol.MAX_LINE:
                    self._warn("ignored a line longer than %d bytes", protocol.MAX_LINE)
                else:
                    self._post(line)
                line, too_long = b"", False
            elif len(line) >= protocol.MAX_LINE:
                line, too_long = b"", True

    def _send(self, text: str) -> bool:
        """Any thread, never waits.  False if the module could not take the line."""
        data = text.encode("ascii")
        with self._port_lock:
            if self._serial is None:
                return False
            try:
                written = _write_now(self._serial, data)
            except (serial.SerialException, OSError) as e:
                self._warn("cannot write: %s", e)
                return False
        if written != len(data):
            self._warn("is not reading; a line was not sent whole")
            return False
        return True

    def _post(self, item: bytes | _Lost) -> None:
        with self._inbox_lock:
            if item is not _LOST and len(self._inbox) >= INBOX:
                self._warn("floods the port; lines dropped")
                return
            self._inbox.append(item)
            if self._draining:
                return
            self._draining = True
        assert self._loop is not None  # set before the reader thread starts
        try:
            self._loop.call_soon_threadsafe(self._drain)
        except RuntimeError:
            pass  # the loop has closed: the service is stopping

    def _warn(self, message: str, *args: object) -> None:
        """Any thread.  Expected faults: one line, no traceback, and each
        kind of fault at most once per WARN_EVERY seconds, so a faulty
        module cannot flood the log either."""
        with self._warn_lock:
            now = time.monotonic()
            said_at, unsaid = self._warned.get(message, (-WARN_EVERY, 0))
            if now - said_at < WARN_EVERY:
                self._warned[message] = (said_at, unsaid + 1)
                return
            self._warned[message] = (now, 0)
        if unsaid:
            message += f" (and {unsaid} times more since)"
        log.warning("dice module: " + message, *args)


def _write_now(port: _Port, data: bytes) -> int:
    """Writes what the port takes at once; returns how much that was.

    pyserial's own write waits for room: with a timeout it can report a
    timeout for bytes that did go out (it looks at the clock after writing,
    so a thread held up by the scheduler fails), and with a zero timeout it
    spins while the buffer is full.  The loop must never wait on the module,
    so one write on the port's descriptor, which pyserial opens non-blocking.
    """
    try:
        fd = port.fileno()
    except (AttributeError, io.UnsupportedOperation):
        return port.write(data) or 0  # URL handlers such as loop:// keep it in memory
    try:
        return os.write(fd, data)
    except BlockingIOError:
        return 0
