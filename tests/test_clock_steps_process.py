"""Issue 15 item 4 against a running ``referee run``: the wall clock steps
under it (the control socket's ``clock`` command moves the box's wall clock as
NTP moves a Pi's at boot, without touching this machine's), and no
countdown, pause, turn or date shows it.

The box boots at 1970, a Da Vinci Code game with a 60 s turn timer starts,
the clock steps by −1 h, +1 h, −5 h, then is set to the true time; one step
comes while a turn is paused by the undo menu and one after a power cut
(SIGKILL).  After each: the turn's seconds are within what real time allows,
the game is on tonight's page, and the evenings list is in order without
1970."""
from __future__ import annotations

import email.utils
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request

import pytest

from processes import free_port
from referee.web import history

START_SECONDS = 30.0
HOUR = 3600.0


class Box:
    """``referee run`` as another process, driven through its control socket."""

    def __init__(self, folder, more: str = "", env: dict | None = None) -> None:
        self.env = env   # the processes' environment (None: this one's)
        self.control = str(folder / "control.sock")
        self.log = str(folder / "box.log")
        self.port = free_port()
        self.config = str(folder / "config.toml")
        with open(self.config, "w") as f:
            f.write(f'database = "{folder / "referee.db"}"\nlang = "en"\n[dice]\ndriver = "software"\n'
                    f'[web]\nhost = "127.0.0.1"\nport = {self.port}\n[sim]\ncontrol = "{self.control}"\n{more}')
        self.process: subprocess.Popen | None = None
        self.web: subprocess.Popen | None = None   # the pages are their own process, started once
        self._file = None

    def start(self) -> None:
        script = os.path.join(os.path.dirname(sys.executable), "referee")
        command = [script] if os.path.exists(script) else [sys.executable, "-m", "referee.cli"]
        with open(self.log, "a") as log:
            self.process = subprocess.Popen([*command, "run", "--config", self.config],
                                            stdin=subprocess.DEVNULL, stdout=log, stderr=log, env=self.env)
            if self.web is None:
                self.web = subprocess.Popen([*command, "web", "--config", self.config],
                                            stdin=subprocess.DEVNULL, stdout=log, stderr=log, env=self.env)
        give_up = time.monotonic() + START_SECONDS
        while True:
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                sock.connect(self.control)
                break
            except OSError:
                sock.close()
                assert self.process.poll() is None and time.monotonic() < give_up, open(self.log).read()
                time.sleep(0.01)
        self._sock, self._file = sock, sock.makefile("rw", encoding="utf-8")
        assert self.ask("ready") == "ok"

    def ask(self, line: str) -> str:
        self._file.write(line + "\n")
        self._file.flush()
        answer = self._file.readline().rstrip("\n")
        assert not answer.startswith("error"), (line, answer)
        return answer

    def press(self, keys: str) -> None:
        for key in keys:
            self.ask(f"press {key}")

    def screen(self) -> str:
        return json.loads(self.ask("screen main"))

    def seconds(self) -> int:
        minutes, seconds = re.search(r"(\d+):(\d\d)", self.screen()).groups()
        return int(minutes) * 60 + int(seconds)

    def get(self, path: str, headers: dict | None = None):
        give_up = time.monotonic() + START_SECONDS
        while True:   # the page comes up a moment after the box
            try:
                asked = urllib.request.Request(f"http://127.0.0.1:{self.port}{path}", headers=headers or {})
                with urllib.request.urlopen(asked, timeout=10) as r:
                    return json.loads(r.read())
            except OSError:
                assert time.monotonic() < give_up
                time.sleep(0.05)

    def kill(self) -> None:
        self._file.close()
        self._sock.close()
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.web is not None:
            self.web.terminate()
            self.web.wait(10)
        if self.process is not None and self.process.poll() is None:
            self._file.close()
            self._sock.close()
            self.process.terminate()
            self.process.wait(10)
        with open(self.log) as f:
            log = f.read()
        assert "Traceback" not in log, log[-3000:]


@pytest.fixture
def box(tmp_path):
    b = Box(tmp_path)
    yield b
    b.stop()


def tonight(box: Box) -> list[str]:
    return [g["game"] for g in box.get("/api/evening")]


def assert_evenings_in_order(box: Box, synchronised: bool) -> None:
    days = [e["day"] for e in box.get("/api/evenings")["evenings"]]
    assert days == sorted(days, reverse=True) and len(days) == 1, days
    assert (days[0] > "2000") == synchronised, days


def test_clock_steps_under_a_running_box_change_no_turn_timer_and_no_date(box):
    box.start()
    stepped = 100_000 - time.time()                   # booted without network: 1970
    box.ask(f"clock {stepped:.3f}")
    box.press("433#")                                 # Da Vinci Code, 60 s turns
    box.press("#")
    began, began_wall = time.monotonic(), time.time()
    assert "[P1: draw a tile]" in box.screen()
    assert tonight(box) == ["davinci"]

    def assert_turn_clock() -> None:
        # Whole seconds shown: never more than the turn's 60, and never less
        # than real time since the turn began allows.
        assert 60 - (time.monotonic() - began) - 1 <= box.seconds() <= 60, box.screen()

    def assert_dates() -> None:
        assert tonight(box) == ["davinci"]
        assert_evenings_in_order(box, synchronised=stepped == 0)

    for step in (-HOUR, HOUR, -5 * HOUR, -stepped + 5 * HOUR):   # the last is NTP: the true time
        box.ask(f"clock {step:.3f}")
        stepped = 0 if step == -stepped + 5 * HOUR else stepped + step
        box.press("2")                                # P1 names P2 ...
        assert "[P1 attacks P2]" in box.screen()
        assert_turn_clock()
        box.press("*")                                # ... and thinks better of it
        assert "[P1: draw a tile]" in box.screen()
        assert_dates()
    assert abs(box.get("/api/evening")[0]["started"] - began_wall) < 5   # re-dated from 1970

    # The power goes; the box comes back on the true clock.
    left = box.seconds()
    box.kill()
    box.start()
    assert "[P1: draw a tile]" in box.screen()
    # The dark seconds took nothing from the turn, which comes back from its
    # last press (the turn's start: its moves since were taken back).
    assert left <= box.seconds() <= 60
    assert_dates()
    game = box.get("/api/evening")[0]
    assert game["status"] == "playing" and abs(game["started"] - began_wall) < 5


DAY = 24 * HOUR


def unsynchronised(folder) -> dict:
    """An environment whose ``timedatectl`` says the clock is not set from
    the network, as at a house without internet."""
    bin_ = folder / "bin"
    bin_.mkdir()
    (bin_ / "timedatectl").write_text("#!/bin/sh\necho no\n")
    (bin_ / "timedatectl").chmod(0o755)
    return {**os.environ, "PATH": f"{bin_}:{os.environ['PATH']}"}


def phone(box: Box, at: float) -> None:
    """A phone opens the Tonight page, its clock at ``at``."""
    box.get("/api/evening", headers={"Date": email.utils.formatdate(at, usegmt=True)})


def test_the_first_phones_time_sets_a_box_without_network_and_re_dates_tonights_game(tmp_path):
    box = Box(tmp_path, env=unsynchronised(tmp_path))

    def evenings() -> list[str]:
        return [e["day"] for e in box.get("/api/evenings")["evenings"]]

    today, before = (history.evening_of(time.time() - days * DAY).isoformat() for days in (0, 2))
    try:
        box.start()
        box.ask(f"clock {-2 * DAY:.3f}")              # booted at its last saved time, two days ago
        box.press("433#")                             # Da Vinci Code
        box.press("#")
        assert evenings() == [before]                 # dated into the evening of two days ago
        phone(box, time.time() - 10 * DAY)            # a phone with a wrong clock, before the box's saved time
        assert evenings() == [before]
        phone(box, time.time())                       # the first phone the box believes
        assert evenings() == [today] and tonight(box) == ["davinci"]
        assert abs(box.get("/api/evening")[0]["started"] - time.time()) < 60
        phone(box, time.time() + DAY)                 # the clock is set: later phones change nothing
        assert evenings() == [today]
        box.kill()                                    # the service starts again in the same boot
        box.start()
        assert evenings() == [today] and "[P1: draw a tile]" in box.screen()
    finally:
        box.stop()
