"""The dice module, simulated: the firmware's own code behind a real pty.

``SimulatedDiceModule`` runs ``firmware.module.Module`` (with
``firmware.dice.Dice`` rolling) in a thread, on the master side of a pseudo
terminal.  The host driver opens ``port``, the slave side, exactly as it
opens the Pico's USB serial port, and sees the same bytes.

``port`` is a stable symlink, named like the Pico's entry in
/dev/serial/by-id, that follows the current pty: ``unplug()`` closes the pty
and removes the link, ``plug_in()`` makes a new pty and a freshly booted
module (armed 2d8 again) and puts the link back, so the host has to notice
the loss, find the port again and re-arm, as with a real cable.

The rolling animation takes ``animation_ms`` (0 by default: rolls are
answered as fast as the bytes move, which the benchmark and tests rely on;
the terminal simulator may pass 600, the firmware's own, to watch
``display`` tumble).

    sim = SimulatedDiceModule()        # or: with SimulatedDiceModule() as sim:
    sim.start()
    sim.port                           # path for SerialDice(port=...)
    sim.next(4, 3)                     # the next dice rolled show 4, then 3
    sim.press_button()                 # someone presses ROLL on the module
    sim.display                        # the 8-digit read-out now, e.g. " 4 3    "
    sim.unplug(); sim.plug_in()
    sim.close()

Values given to ``next`` are used as they are, one die each, by rolls from
the host and from the button alike; a value above the sides being rolled
makes the module misbehave on purpose (the host must refuse such a roll).
When the queue is empty the firmware's RNG rolls: ``rng(n) -> bytes``,
``os.urandom`` unless given (e.g. ``random.Random(seed).randbytes``).
"""
from __future__ import annotations

import collections
import os
import queue
import select
import shutil
import tempfile
import threading
import time
import tty
from typing import TYPE_CHECKING, Protocol

from firmware import dice, module, protocol

if TYPE_CHECKING:
    from collections.abc import Callable

IDLE_S = 0.5  # how long the thread sleeps with nothing to do; actions wake it at once
# How long a caller waits for the module's thread to take an action (plug,
# unplug, stop): a ceiling, never a pace, as the thread answers at once when
# it runs.  On two cores shared by four test workers, a chromium and a VM,
# a plug once waited over 2 s for its turn to run.
ACTION_WAIT_S = 10.0
HEARD = 256  # lines the module heard, kept for inspection


class Firmware(Protocol):
    """What the simulator drives of a booted module: ``firmware.module.Module``
    in this process, or the same code run by MicroPython
    (``hal.sim.micropython_module``)."""

    @property
    def armed(self) -> tuple[int, int]: ...
    @property
    def display(self) -> str: ...
    @property
    def running(self) -> bool: ...
    def start(self) -> None: ...
    def receive(self, data: bytes, now: int) -> None: ...
    def press(self, now: int) -> None: ...
    def tick(self, now: int) -> None: ...
    def wake_in(self, now: int) -> int | None: ...


FOLDER = "dice-module-"


def _folder() -> str:
    """A folder for the module's port, named after this process: a box
    killed outright (SIGKILL runs no clean-up) leaves its folder behind, and
    the next simulated module removes the folders of processes that are gone."""
    tmp = tempfile.gettempdir()
    for name in os.listdir(tmp):
        pid = name[len(FOLDER):].split("-", 1)[0]
        if name.startswith(FOLDER) and pid.isdigit() and not _alive(int(pid)):
            shutil.rmtree(os.path.join(tmp, name), ignore_errors=True)
    return tempfile.mkdtemp(prefix=f"{FOLDER}{os.getpid()}-")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True   # another user's process: alive, and not ours to clean
    return True


class SimulatedDiceModule:
    def __init__(self, *, animation_ms: int = 0, rng: Callable[[int], bytes] = os.urandom, board: str = "5e7a0d1ce0000001") -> None:
        self.animation_ms = animation_ms
        self.board = board
        self._dice = _Queued(dice.Dice(rng))
        self._dir = _folder()
        self.port = os.path.join(self._dir, f"usb-MicroPython_Board_in_FS_mode_{board}-if00")
        self._module: Firmware | None = None
        self._master: int | None = None
        self._slave: int | None = None
        self._heard: collections.deque[str] = collections.deque(maxlen=HEARD)
        self._partial = b""
        self._actions: queue.SimpleQueue[tuple[str, threading.Event]] = queue.SimpleQueue()
        self._wake_r, self._wake_w = os.pipe()
        self._thread = threading.Thread(target=self._run, name="dice-module-sim", daemon=True)

    # --- the API --------------------------------------------------------

    def start(self) -> None:
        self._thread.start()
        self.plug_in()

    def close(self) -> None:
        if self._thread.is_alive():
            self._act("stop")
            self._thread.join(ACTION_WAIT_S)
        for fd in (self._wake_r, self._wake_w):
            os.close(fd)
        shutil.rmtree(self._dir, ignore_errors=True)

    def __enter__(self) -> SimulatedDiceModule:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def next(self, *values: int) -> None:
        for v in values:
            if not isinstance(v, int) or not 1 <= v <= protocol.MAX_SIDES:
                raise ValueError(f"a die shows 1 to {protocol.MAX_SIDES}, not {v!r}")
        self._dice.queue.extend(values)

    @property
    def armed(self) -> tuple[int, int] | None:
        """What the module's button rolls now (None while unplugged)."""
        box = self._module
        if box is None:
            return None
        count, sides = box.armed    # as the host's ARM set it: a pair
        return count, sides

    def press_button(self) -> None:
        """Returns once the module has taken the press (and, with no
        animation, written its BUTTON line).  Unplugged, nothing happens."""
        self._act("press")

    def unplug(self) -> None:
        """Returns once the pty is closed and ``port`` is gone."""
        self._act("unplug")

    def plug_in(self) -> None:
        """Returns once a new pty is behind ``port`` and the module has booted."""
        self._act("plug")

    @property
    def plugged(self) -> bool:
        return self._master is not None

    @property
    def display(self) -> str:
        """The read-out's eight digits (see firmware.module.readout); "" while unplugged."""
        box = self._module
        return box.display if box else ""

    @property
    def received(self) -> tuple[str, ...]:
        """The last lines the module heard from the host, oldest first."""
        return tuple(self._heard)

    # --- the module's thread ---------------------------------------------

    def _act(self, name: str) -> None:
        done = threading.Event()
        self._actions.put((name, done))
        os.write(self._wake_w, b"!")
        if not done.wait(ACTION_WAIT_S):
            raise TimeoutError(f"the simulated dice module did not {name}")

    def _run(self) -> None:
        while True:
            box = self._module
            wait = box.wake_in(_now()) if box else None
            fds = [self._wake_r] if self._master is None else [self._wake_r, self._master]
            ready, _, _ = select.select(fds, [], [], IDLE_S if wait is None else wait / 1000)
            if self._wake_r in ready:
                os.read(self._wake_r, 64)
                while not self._actions.empty():
                    name, done = self._actions.get()
                    getattr(self, "_" + name)()
                    done.set()
                    if name == "stop":
                        return
            if self._master is not None and self._master in ready:
                self._hear()
            if self._module:
                self._module.tick(_now())

    def _hear(self) -> None:
        if self._master is None:
            return
        try:
            data = os.read(self._master, 4096)
        except BlockingIOError:
            return
        if self._module is None:
            return  # at the REPL: nothing here speaks it
        self._partial += data
        *lines, self._partial = self._partial.split(b"\n")
        self._partial = self._partial[-protocol.MAX_LINE:]
        self._heard.extend(line.decode("ascii", "replace") for line in lines)
        self._module.receive(data, _now())
        if not self._module.running:
            self._module = None  # its loop has ended: the port belongs to the REPL

    def _write(self, data: bytes) -> None:
        # Like the Pico's USB port, output nobody reads is dropped rather
        # than allowed to stall the module.
        if self._master is None:
            return   # unplugged: nobody to hear it
        try:
            os.write(self._master, data)
        except (BlockingIOError, OSError):
            pass

    def _press(self) -> None:
        if self._module:
            self._module.press(_now())

    def _plug(self) -> None:
        if self._master is not None:
            return
        master, slave = os.openpty()
        # Raw at once: a fresh pty echoes, and the module would hear its own
        # HELLO before the host has opened the port and made it raw.
        tty.setraw(slave)
        os.set_blocking(master, False)
        self._master, self._slave = master, slave
        link = self.port + ".new"
        os.symlink(os.ttyname(slave), link)
        os.replace(link, self.port)
        self._partial = b""
        self._module = self._new_module()
        self._module.start()

    def _new_module(self) -> Firmware:
        """A freshly booted module (not started yet)."""
        return module.Module(self._dice, self._write, board=self.board, animation_ms=self.animation_ms)

    def _unplug(self) -> None:
        if self._master is None or self._slave is None:
            return
        os.unlink(self.port)
        os.close(self._master)
        os.close(self._slave)
        self._master = self._slave = None
        self._module = None

    def _stop(self) -> None:
        self._unplug()


class _Queued:
    """The firmware's dice, but values queued with ``next`` come first."""

    def __init__(self, fair: dice.Dice) -> None:
        self.fair = fair
        self.queue: collections.deque[int] = collections.deque()

    def roll(self, count: int, sides: int) -> list[int]:
        values: list[int] = []
        while len(values) < count and self.queue:
            values.append(self.queue.popleft())
        return values + self.fair.roll(count - len(values), sides)


def _now() -> int:
    return int(time.monotonic() * 1000)
