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
import urllib.error
import urllib.request

import pytest
from playwright.sync_api import sync_playwright

from processes import free_port
from referee.web import history, sheets
from test_web_browser import ARGS, CHROMIUM, PHONE

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
            f.write(f'database = "{folder / "referee.db"}"\nlang = "en"\nteach = false\n[dice]\ndriver = "software"\n'
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


@pytest.fixture(scope="module")
def evening_without_network(tmp_path_factory):
    """A box and its pages at a house without internet, booted at its last
    saved time two days ago, a Da Vinci Code game in play (dated into the
    evening of two days ago)."""
    folder = tmp_path_factory.mktemp("without-network")
    box = Box(folder, env=unsynchronised(folder))
    try:
        box.start()
        box.ask(f"clock {-2 * DAY:.3f}")
        box.press("433#")
        box.press("#")
        yield box
    finally:
        box.stop()


def evenings(box: Box) -> list[str]:
    return [e["day"] for e in box.get("/api/evenings")["evenings"]]


def post_time(box: Box, body: bytes, headers: dict | None = None) -> int:
    """What the web answers a phone posting ``body`` as its clock."""
    asked = urllib.request.Request(f"http://127.0.0.1:{box.port}/clock", data=body, method="POST",
                                   headers={"Content-Type": "text/plain", **(headers or {})})
    try:
        with urllib.request.urlopen(asked, timeout=10) as r:
            return r.status
    except urllib.error.HTTPError as refused:
        return refused.code


def test_a_posted_clock_that_is_not_a_time_in_milliseconds_is_refused_and_sets_nothing(evening_without_network):
    box = evening_without_network
    shown = evenings(box)
    for body in (b"", b"soon", b"-1", b"0", b"1.79e12", b"1790000000000.5", b" 1790000000000",
                 b"1790000000000\n", b"\xff\xfe", b"0x1A0B2C3D4E5F", str(int(4_102_444_801 * 1000)).encode(),
                 b"9" * 17, b"1" * 10_000):
        assert post_time(box, body) == 400, body
    assert post_time(box, b"1790000000000", {"Sec-Fetch-Site": "cross-site"}) == 403
    # A time of the right shape the box does not believe (before its
    # newest saved time) is heard and changes nothing either.
    assert post_time(box, str(int((time.time() - 10 * DAY) * 1000)).encode()) == 204
    assert evenings(box) == shown


@pytest.mark.browser
def test_the_first_phones_time_sets_a_box_without_network_and_re_dates_tonights_game(evening_without_network):
    box = evening_without_network
    before = history.evening_of(time.time() - 2 * DAY).isoformat()
    assert evenings(box) == [before]                  # dated into the evening of two days ago
    phone(box, time.time() - 10 * DAY)                # a Date header before the box's saved time: refused
    assert evenings(box) == [before]
    at = time.time() + 3 * HOUR                       # the phone's own clock, not this machine's
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            page = chromium.new_context(viewport=PHONE, is_mobile=True, has_touch=True).new_page()
            page.clock.set_fixed_time(at)
            with page.expect_response(lambda r: r.url.endswith("/clock"), timeout=10_000) as heard:
                page.goto(f"http://127.0.0.1:{box.port}/")
            assert heard.value.status == 204
            # The box re-dated the game into tonight; the open page shows it.
            page.locator("main", has_text=sheets.title("davinci")).wait_for()
            assert evenings(box) == [history.evening_of(at).isoformat()] and tonight(box) == ["davinci"]
            assert abs(box.get("/api/evening")[0]["started"] - at) < 60
            # The clock is set: pages ask the phones for it no more.
            later = chromium.new_context().new_page()
            sent: list[str] = []
            later.on("request", lambda r: sent.append(r.url))
            later.goto(f"http://127.0.0.1:{box.port}/")
            assert later.locator("script[src*=phone-clock]").count() == 0
            assert not [url for url in sent if url.endswith("/clock")]
        finally:
            chromium.close()
    phone(box, time.time() + DAY)                     # later phones change nothing
    assert evenings(box) == [history.evening_of(at).isoformat()]
    box.kill()                                        # the service starts again in the same boot
    box.start()
    assert evenings(box) == [history.evening_of(at).isoformat()] and "[P1: draw a tile]" in box.screen()
