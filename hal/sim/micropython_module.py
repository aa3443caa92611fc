"""The dice module on a real MicroPython interpreter: the firmware's
``module``, ``protocol`` and ``dice`` run by MicroPython's WebAssembly port
under node, behind the same pty as ``SimulatedDiceModule``.

The pty, the plugging and the module's thread are the simulator's own; only
the module's behaviour is computed elsewhere: each byte from the host, each
tick and each button press goes to MicroPython as a request (see
``firmware/wasm/shim.py``), and the bytes the firmware wrote come back with
the reply.  So the host's driver meets the firmware as MicroPython runs it,
with MicroPython's ``bytes``, ``str`` formatting, integer and list semantics.

It needs the tools ``scripts/micropython-tools`` sets up in .micropython/
(``make test`` runs it): Debian's nodejs and the npm package
``@micropython/micropython-webassembly-pyscript``.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import threading
from typing import IO, Any, Callable, TypeVar

import msgspec

from firmware import protocol
from hal.sim.dice_module import SimulatedDiceModule

HERE = os.path.dirname(os.path.abspath(__file__))
FIRMWARE = os.path.join(os.path.dirname(os.path.dirname(HERE)), "firmware")
TOOLS = os.path.join(os.path.dirname(os.path.dirname(HERE)), ".micropython")
PORT = os.path.join(TOOLS, "node", "node_modules", "@micropython", "micropython-webassembly-pyscript")
REPLY_S = 60.0  # a request MicroPython does not answer in this long is a hang


class MicroPythonUnavailable(RuntimeError):
    pass


class _Ready(msgspec.Struct):
    """The first line of firmware/wasm/host.mjs: MicroPython is up."""
    ready: str   # its sys.version


class Reply(msgspec.Struct):
    """The module's state after a request (firmware/wasm/shim.py), or what
    MicroPython raised.  The defaults are a module not yet booted."""
    out: str = ""                          # the bytes it wrote, in hex
    display: str = ""
    armed: tuple[int, int] | None = None
    running: bool = True
    wake_in: int | None = None             # ms until it wants a tick; None: never
    printed: str = ""                      # what a "run" request's code printed
    error: str | None = None


_Line = TypeVar("_Line", _Ready, Reply)


class MicroPython:
    """One MicroPython (WebAssembly) process holding the firmware."""

    def __init__(self, port_dir: str = PORT) -> None:
        node = shutil.which("node") or shutil.which("nodejs")
        if node is None or not os.path.isdir(port_dir):
            raise MicroPythonUnavailable("MicroPython's WebAssembly port is not set up: run scripts/micropython-tools")
        self._lock = threading.Lock()
        self._process = subprocess.Popen(
            [node, os.path.join(FIRMWARE, "wasm", "host.mjs"), FIRMWARE, port_dir],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, bufsize=1)
        assert self._process.stdin and self._process.stdout and self._process.stderr   # all three piped
        self._stdin: IO[str] = self._process.stdin
        self._stdout: IO[str] = self._process.stdout
        self._stderr: IO[str] = self._process.stderr
        self.version = self._reply(_Ready).ready

    def request(self, op: str, **fields: Any) -> Reply:
        with self._lock:
            self._stdin.write(msgspec.json.encode({"op": op, **fields}).decode() + "\n")
            self._stdin.flush()
            reply = self._reply(Reply)
        if reply.error is not None:
            raise RuntimeError(f"MicroPython raised: {reply.error}")
        return reply

    def _reply(self, kind: type[_Line]) -> _Line:
        line: list[str] = []
        reader = threading.Thread(target=lambda: line.append(self._stdout.readline()), daemon=True)
        reader.start()
        reader.join(REPLY_S)
        if not line or not line[0]:
            self.close()
            raise RuntimeError(f"MicroPython did not answer: {self._stderr.read()[-2000:]}")
        return msgspec.json.decode(line[0], type=kind)

    def close(self) -> None:
        if self._process.poll() is None:
            self._process.kill()
        self._process.wait()
        for stream in (self._stdin, self._stdout, self._stderr):
            stream.close()


class _RemoteModule:
    """``firmware.module.Module`` as the simulator's thread uses it, each
    call made inside MicroPython."""

    def __init__(self, mp: MicroPython, write: Callable[[bytes], None], board: str, animation_ms: int) -> None:
        self._mp = mp
        self._write = write
        self._board = board
        self._animation_ms = animation_ms
        self._state = Reply()
        self._at = 0  # the module's time at the last call, ms

    def _call(self, op: str, **fields: Any) -> None:
        self._at = fields.get("now", self._at)
        self._state = self._mp.request(op, **fields)
        if self._state.out:
            self._write(bytes.fromhex(self._state.out))

    def start(self) -> None:
        self._call("boot", board=self._board, animation_ms=self._animation_ms)

    def receive(self, data: bytes, now: int) -> None:
        self._call("receive", data=data.hex(), now=now)

    def tick(self, now: int) -> None:
        if self._state.wake_in is not None:
            self._call("tick", now=now)

    def press(self, now: int) -> None:
        self._call("press", now=now)

    def wake_in(self, now: int) -> int | None:
        wake = self._state.wake_in
        return None if wake is None else max(0, wake - (now - self._at))

    @property
    def running(self) -> bool:
        return self._state.running

    @property
    def armed(self) -> tuple[int, int]:
        armed = self._state.armed
        assert armed is not None, "armed is asked of a booted module"
        return armed

    @property
    def display(self) -> str:
        return self._state.display


class MicroPythonDiceModule(SimulatedDiceModule):
    """``SimulatedDiceModule`` with the firmware run by MicroPython."""

    def __init__(self, *, animation_ms: int = 0, board: str = "5e7a0d1ce0000002") -> None:
        self._mp = MicroPython()
        super().__init__(animation_ms=animation_ms, board=board)

    @property
    def version(self) -> str:
        return self._mp.version

    def next(self, *values: int) -> None:
        for v in values:
            if not isinstance(v, int) or not 1 <= v <= protocol.MAX_SIDES:
                raise ValueError(f"a die shows 1 to {protocol.MAX_SIDES}, not {v!r}")
        self._mp.request("next", values=list(values))

    def close(self) -> None:
        super().close()
        self._mp.close()

    def _new_module(self) -> _RemoteModule:
        return _RemoteModule(self._mp, self._write, self.board, self.animation_ms)
