"""The box and the web as the systemd units run them: ``referee run`` and
``referee web``, two processes of their own, here on simulated devices and
a temporary database, the web at the unit's ``Nice=10`` and
``LimitNOFILE=2048``.  The box's unit gives it ``CPUWeight=1000``, ten
times a default service's weight; here, where the bench may, the box runs
at ``nice -10`` (the kernel's weight for it is 9.3 times nice 0's), and
``Table.box_nice`` says which it got.

Keys are pressed through the box's control socket (``[sim] control``,
``referee.box.sim_control``): down and up on the simulated pins, through the same
scan thread, debounce, key flows, rules and displays as a finger on the
keypad.  Its ``took`` answer is the stopwatch: when the keypad could first
have known the key (the debounce over) and when the displays were handed
their pictures, both read on the box's own clock where they happen.

CPU time is read from ``/proc/PID/task/*/schedstat`` (nanoseconds on a
CPU, every thread of the process), which the machine's other load does not
change; memory from ``/proc/PID/status`` (``VmHWM``, the peak resident set).
"""
from __future__ import annotations

import asyncio
import glob
import json
import os
import resource
import socket
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REFEREE = [sys.executable, "-m", "referee.cli"]   # the console script `referee`, without needing it on PATH
WEB_NICE = 10        # systemd/referee-web.service
BOX_NICE = -10       # as near as nice comes to the box unit's CPUWeight=1000
WEB_NOFILE = 2048    # likewise
LOST_AFTER = 1.0     # a key whose frame has not come by then is lost


class Hand:
    """A client of the box's control socket."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._reader, self._writer = reader, writer

    async def ask(self, line: str) -> str:
        self._writer.write(line.encode() + b"\n")
        return (await self._reader.readline()).decode().strip()

    async def press(self, key: str) -> None:
        answer = await self.ask(f"press {key}")
        if answer != "ok":
            raise RuntimeError(f"press {key}: {answer}")

    async def timed_press(self, key: str) -> float | None:
        """Milliseconds from the moment the keypad could first have known
        the press (its release debounced) to the pictures handed to the
        displays; None if the key was lost (no answer, or no new picture,
        within ``LOST_AFTER``)."""
        before = json.loads(await self.ask("took"))
        # Every answer is awaited (the hand gives up on a key by itself),
        # so that questions and answers stay in step.
        if await self.ask(f"press {key}") != "ok":
            return None
        took = json.loads(await self.ask("took"))
        lag = took["drawn"] - took["due"]
        if took["keys"] == before["keys"] or took["drawn"] <= before["drawn"] or lag > LOST_AFTER:
            return None
        return lag * 1000

    def close(self) -> None:
        self._writer.close()


class Table:
    """A real box and, with ``web``, a real web beside it."""

    def __init__(self, folder: str, web: bool = True) -> None:
        self.folder = folder
        self.database = os.path.join(folder, "referee.db")
        self.control = os.path.join(folder, "hand.sock")
        self.port = free_port()
        self.config = os.path.join(folder, "config.toml")
        self.want_web = web
        self.box: asyncio.subprocess.Process | None = None
        self.box_nice = 0
        self.web: asyncio.subprocess.Process | None = None
        self.hand: Hand | None = None
        self.url = f"http://127.0.0.1:{self.port}/"

    async def start(self) -> None:
        with open(self.config, "w") as f:
            f.write(f'database = "{self.database}"\n[web]\nport = {self.port}\n'
                    f'[sim]\ncontrol = "{self.control}"\n')
        self.box = await asyncio.create_subprocess_exec(*REFEREE, "run", "--config", self.config, cwd=ROOT,
                                                        stderr=asyncio.subprocess.DEVNULL, preexec_fn=_as_box)
        self.box_nice = os.getpriority(os.PRIO_PROCESS, self.box.pid)
        self.hand = await _hand(self.control, self.box)
        if self.want_web:
            self.web = await asyncio.create_subprocess_exec(*REFEREE, "web", "--config", self.config, cwd=ROOT,
                                                            stderr=asyncio.subprocess.DEVNULL, preexec_fn=_as_unit)
            await _answers(self.port, self.web)

    async def stop(self) -> None:
        if self.hand is not None:
            self.hand.close()
        for process in (self.web, self.box):
            if process is not None and process.returncode is None:
                process.terminate()
                await process.wait()

    async def __aenter__(self) -> Table:
        try:
            await self.start()
        except BaseException:
            await self.stop()
            raise
        return self

    async def __aexit__(self, *exc) -> None:
        await self.stop()


async def _hand(path: str, box, seconds: float = 30.0) -> Hand:
    end = time.monotonic() + seconds
    while time.monotonic() < end and box.returncode is None:
        try:
            hand = Hand(*await asyncio.open_unix_connection(path))
        except OSError:
            await asyncio.sleep(0.02)
            continue
        if await hand.ask("ready") == "ok":
            return hand
        hand.close()
    raise RuntimeError("the box did not start")


async def _answers(port: int, web, seconds: float = 30.0) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end and web.returncode is None:
        try:
            _, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            await asyncio.sleep(0.02)
            continue
        writer.close()
        return
    raise RuntimeError("the web did not start")


def _as_box() -> None:
    try:
        os.nice(BOX_NICE)
    except PermissionError:
        pass   # the weight of any other process, then


def _as_unit() -> None:
    os.nice(WEB_NICE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (WEB_NOFILE, WEB_NOFILE))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpu_seconds(pid: int) -> float:
    """Time on a CPU of every thread of ``pid`` so far."""
    total = 0
    for path in glob.glob(f"/proc/{pid}/task/*/schedstat"):
        try:
            with open(path) as f:
                total += int(f.read().split()[0])
        except (OSError, ValueError, IndexError):
            pass   # a thread that just ended
    return total / 1e9


def memory_mb(pid: int, field: str = "VmHWM") -> float | None:
    """``VmHWM`` (peak resident set) or ``VmRSS`` of ``pid``, in MB."""
    try:
        with open(f"/proc/{pid}/status") as f:
            return next(int(line.split()[1]) / 1024 for line in f if line.startswith(field + ":"))
    except (OSError, StopIteration):
        return None


def quantiles(samples: list[float]) -> dict:
    samples = sorted(samples)
    if not samples:
        return {"median_ms": float("nan"), "p99_ms": float("nan")}
    return {"median_ms": samples[len(samples) // 2], "p99_ms": samples[int(0.99 * (len(samples) - 1))]}


def temporary() -> tempfile.TemporaryDirectory:
    # Short: a Unix socket's path has at most 107 bytes.
    return tempfile.TemporaryDirectory(prefix="rb-", dir="/tmp" if os.path.isdir("/tmp") else None)




def cpu_split(pid: int) -> tuple[float, float]:
    """Time on a CPU so far of ``pid``'s main thread (the event loop) and
    of its other threads together (the keypad scan among them): Python's
    threads carry no names the kernel sees."""
    loop = other = 0
    for task in glob.glob(f"/proc/{pid}/task/*"):
        try:
            with open(f"{task}/schedstat") as f:
                ns = int(f.read().split()[0])
        except (OSError, ValueError, IndexError):
            continue   # a thread that just ended
        if task.endswith(f"/{pid}"):
            loop += ns
        else:
            other += ns
    return loop / 1e9, other / 1e9
