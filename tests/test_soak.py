"""Power cuts in the middle of play: a real ``referee run`` killed with
SIGKILL at random moments, again and again, on one database.

The box runs on simulated devices with a real SQLite file and a remote hand
(``referee.remote``) on a Unix socket.  (The web is a process of its own:
test_web_split.py kills it and the box apart.)
A seeded hand plays the table tools (timer and dice), Decipher and Da Vinci
Code.  After every key the box answers, the test reads what the store holds
(read-only, from outside) and what the main screen says: that is what the
box has acknowledged.  After every kill:

- every event that was on disk when a key was acknowledged is still there,
  in the same order, and so is every game;
- ``PRAGMA integrity_check`` says ok;
- the box starts again on the same database.

Every fifth kill comes when the hand has let the screen stand for longer
than the box takes to note which page is up (``VIEW_WRITE_DELAY``); then
the box must come back on that very screen (the countdown's digits and a
passing message aside; a countdown that ran out while the box was dark may
say "Time is up!").  The other kills land anywhere: during a start (a
fourth of them are aimed at it), in the middle of a key, between two keys.
For those the screen the box comes back on is counted, not asserted: the
key in flight may have reached the disk (one key further), and a page
turned less than half a second before the cut is not on disk yet, by design.

``make test`` kills 50 times; ``make soak`` (``--soak``) 1000 times.  The
fifth start, and every hundredth after it, runs the console script
``referee run`` itself.  The others run the same
``referee.cli.main(["run", ...])`` in a process forked from a parent that
has already imported the service (``ZYGOTE``): a start then costs a few
tenths of a second instead of the imports, which is what lets fifty cuts
fit in ``make test``.
"""
from __future__ import annotations

import json
import os
import random
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field

import pytest

from referee.box import VIEW_WRITE_DELAY
from referee.testing import Table

pytestmark = pytest.mark.soak

SEED = 2611
KILLS, SOAK_KILLS = 50, 1000
QUIET_EVERY = 5
# How long the hand lets a screen stand before a quiet kill.  The box notes
# the page VIEW_WRITE_DELAY after a key, on a loop timer that runs before the
# loop reads the next command, so a small margin is enough even under load.
SETTLED = VIEW_WRITE_DELAY + 0.05
FLIGHT = 0.5          # in-flight kills land up to this long after the box is ready
STARTING = 0.3        # every fourth of them up to this long after the process starts
START_SECONDS = 30.0  # the console script imports everything first

ZYGOTE = r"""
import os, sys
import referee.cli, referee.service, referee.flows.menu, referee.flows.tools, referee.flows.decipher
for line in sys.stdin:
    command, *args = line.rstrip("\n").split("\t")
    if command == "run":
        config, log = args
        pid = os.fork()
        if pid == 0:
            null = os.open(os.devnull, os.O_RDONLY)
            out = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
            os.dup2(null, 0)
            os.dup2(out, 1)
            os.dup2(out, 2)
            code = 1
            try:
                code = referee.cli.main(["run", "--config", config])
            finally:
                os._exit(code or 0)
        print(pid, flush=True)
    elif command == "wait":
        print(os.waitpid(int(args[0]), 0)[1], flush=True)
"""


class Cut(Exception):
    """The box went dark while the test was talking to it."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Machine:
    """The box as another process: started, talked to through its control
    socket, read through its database file, killed."""

    def __init__(self, folder) -> None:
        self.db = str(folder / "referee.db")
        self.control = str(folder / "control.sock")
        self.log = str(folder / "box.log")
        self.port = free_port()
        self.config = str(folder / "config.toml")
        with open(self.config, "w") as f:
            f.write(f'database = "{self.db}"\nlang = "en"\n[dice]\ndriver = "software"\n'
                    f'[web]\nhost = "127.0.0.1"\nport = {self.port}\n[sim]\ncontrol = "{self.control}"\n')
        self.zygote = subprocess.Popen([sys.executable, "-c", ZYGOTE], stdin=subprocess.PIPE,
                                       stdout=subprocess.PIPE, text=True)
        self.pid: int | None = None
        self.direct: subprocess.Popen | None = None
        self.cut = threading.Event()
        self._sock: socket.socket | None = None
        self._file = None

    # --- life and death ---------------------------------------------------------

    def start(self, console: bool) -> None:
        self.cut.clear()
        if console:
            script = os.path.join(os.path.dirname(sys.executable), "referee")
            command = [script] if os.path.exists(script) else [sys.executable, "-m", "referee.cli"]
            with open(self.log, "a") as log:
                self.direct = subprocess.Popen([*command, "run", "--config", self.config],
                                               stdin=subprocess.DEVNULL, stdout=log, stderr=log)
            self.pid = self.direct.pid
        else:
            self.direct = None
            self.pid = int(self._zygote(f"run\t{self.config}\t{self.log}"))

    def kill(self) -> None:
        """SIGKILL: the power cord.  Any thread; the pid is still ours until
        ``reap`` has collected it."""
        self.cut.set()
        if self.pid is not None:
            os.kill(self.pid, signal.SIGKILL)

    def reap(self) -> int:
        if not self.cut.is_set():
            self.kill()
        self._hang_up()
        status = self.direct.wait() if self.direct else int(self._zygote(f"wait\t{self.pid}"))
        self.pid = None
        return status

    def _zygote(self, line: str) -> str:
        self.zygote.stdin.write(line + "\n")
        self.zygote.stdin.flush()
        return self.zygote.stdout.readline()

    def close(self) -> None:
        if self.pid is not None:
            self.reap()
        self.zygote.stdin.close()
        self.zygote.wait(10)
        self.zygote.stdout.close()

    def __enter__(self) -> Machine:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # --- the remote hand --------------------------------------------------------

    def connect(self) -> None:
        """Waits for the control socket; a stale one from the last life
        refuses until the new box has replaced it."""
        give_up = time.monotonic() + START_SECONDS
        while not self.cut.is_set():
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                sock.connect(self.control)
            except OSError:
                sock.close()
                if time.monotonic() > give_up:
                    raise AssertionError("the box did not come back") from None
                time.sleep(0.005)
                continue
            self._sock, self._file = sock, sock.makefile("rw", encoding="utf-8")
            return
        raise Cut()

    def ask(self, line: str) -> str:
        if self._file is None:
            raise Cut()
        try:
            self._file.write(line + "\n")
            self._file.flush()
            answer = self._file.readline()
        except OSError:
            answer = ""
        if not answer:
            raise Cut()
        assert not answer.startswith("error"), (line, answer)
        return answer.rstrip("\n")

    def screen(self) -> str:
        return json.loads(self.ask("screen main"))

    def _hang_up(self) -> None:
        if self._sock is not None:
            try:
                self._file.close()   # flushes what a dead box did not read
            except OSError:
                pass
            self._sock.close()
            self._sock = self._file = None

    # --- the disk, read from outside --------------------------------------------

    def read(self, sql: str, *args) -> list[tuple]:
        con = sqlite3.connect(f"file:{self.db}?mode=ro", uri=True, timeout=10)
        try:
            return con.execute(sql, args).fetchall()
        except sqlite3.OperationalError as exc:
            if "no such table" not in str(exc):
                raise
            return []   # cut during the very first start, before the store had its tables
        finally:
            con.close()

    def rows(self, after: int = 0) -> list[tuple]:
        return self.read("SELECT rowid, game, seq, at, data FROM events WHERE rowid > ? ORDER BY rowid", after)

    def games(self) -> list[tuple]:
        return self.read("SELECT id, name, options, started FROM games ORDER BY id")

    def game_on(self) -> str | None:
        """The game the box is on, as the store says."""
        row = self.read("SELECT value FROM settings WHERE key = 'current'")
        current = json.loads(row[0][0]) if row else None
        if current is None:
            return None
        return self.read("SELECT name FROM games WHERE id = ?", current)[0][0]


class Hand:
    """A player who mostly presses what the screen offers (the keys on its
    bottom line, the numbers of its items) and now and then any key."""

    PAD = "0123456789ABCD*#"
    MENU = {"4": 1, "5": 2, "6": 1}   # Da Vinci Code, Decipher, the table tools
    OFFERED = re.compile(r"(?:^|\s)([0-9A-D*#](?:,[0-9])*):")

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def key(self, screen: str) -> str:
        if screen.startswith("[Tabletop Referee"):
            keys = list(self.MENU)
            return self.rng.choices(keys, [self.MENU[k] for k in keys])[0]
        if self.rng.random() < 0.1:
            return self.rng.choice(self.PAD)
        return self.offered(screen)

    def offered(self, screen: str) -> str:
        lines = screen.split("\n")
        offered = [k for found in self.OFFERED.findall(lines[-1]) for k in found.split(",")]
        offered += [line[0] for line in lines[1:] if re.match(r"\d ", line)]
        if "D:" in lines[0]:
            offered.append("D")   # the table tools' timer turns to the dice
        return self.rng.choice(offered or self.PAD)


CLOCK = re.compile(r"\d+:\d\d")


def normal(screen: str) -> str:
    """A screen as it must come back: without a passing message, and with a
    countdown's digits, which move on while the box is dark."""
    return "\n".join(CLOCK.sub("m:ss", line) for line in screen.split("\n") if not line.startswith("! "))


@dataclass
class Expect:
    """What the next start must show: one of ``screens`` (strictly, after
    a quiet kill), with ``rows`` events on disk at the kill."""
    screens: list[str]
    rows: int
    strict: bool
    game: str | None = None
    moved: bool = False   # the store holds more than was acknowledged


@dataclass
class Ledger:
    """What the box has acknowledged: the event rows and games on disk when
    it answered a key, and the screens it showed since it last started."""
    rows: list[tuple] = field(default_factory=list)
    games: list[tuple] = field(default_factory=list)
    seen: list[tuple[float, str]] = field(default_factory=list)   # (when, screen)
    shown_rows: int = 0   # rows on disk when the last screen was read

    def saw(self, screen: str) -> str:
        self.seen.append((time.monotonic(), screen))
        self.shown_rows = len(self.rows)
        return screen

    def press(self, m: Machine, key: str) -> str:
        m.ask(f"press {key}")
        self.rows += m.rows(self.rows[-1][0] if self.rows else 0)
        self.games = m.games()
        return self.saw(m.screen())


@dataclass
class Figures:
    kills: int = 0
    quiet: int = 0
    keys: int = 0
    events: int = 0
    games: int = 0
    same_screen: int = 0      # quiet kills: the very screen came back
    same_in_flight: int = 0   # other kills: a screen shown at most half a second before the cut
    timer_ran_out: int = 0
    key_in_flight: int = 0    # other kills: one key further, as the store holds it
    stale_page: int = 0
    killed_starting: int = 0
    stale: list = field(default_factory=list)
    starts: list[float] = field(default_factory=list)


@pytest.fixture(scope="module")
def main_menu() -> str:
    with Table() as t:
        return t.screen("main")


def test_power_cuts_keep_every_acknowledged_event_and_the_screen(tmp_path, soak, main_menu):
    kills = SOAK_KILLS if soak else KILLS
    rng = random.Random(SEED)
    hand = Hand(rng)
    figures = Figures()
    ledger = Ledger()
    expect: Expect | None = None
    with Machine(tmp_path) as m:
        for n in range(kills):
            quiet = n % QUIET_EVERY == QUIET_EVERY - 1
            began = time.monotonic()
            m.start(console=n % 100 == QUIET_EVERY - 1)
            killer = None
            if not quiet and n % 4 == 0:
                killer = threading.Timer(rng.uniform(0, STARTING), m.kill)
                killer.start()
            ledger.seen = []
            ledger.shown_rows = len(ledger.rows)
            try:
                m.connect()
                m.ask("ready")
                figures.starts.append(time.monotonic() - began)
                if not quiet and killer is None:
                    killer = threading.Timer(rng.uniform(0, FLIGHT), m.kill)
                    killer.start()
                screen = m.screen()
                if expect is not None:
                    came_back(m, expect, screen, main_menu, figures)
                    expect = None
                ledger.saw(screen)
                for _ in range(rng.randint(1, 2) if quiet else 10_000):
                    screen = ledger.press(m, hand.key(screen))
                    figures.keys += 1
                if quiet:
                    # Seconds half typed into the tools' countdown are saved a
                    # moment after each digit, like any page: the hand
                    # confirms or clears them before it lets the screen stand.
                    while screen.startswith("[Set timer"):
                        screen = ledger.press(m, hand.offered(screen))
                        figures.keys += 1
                    time.sleep(SETTLED)
                    screen = m.screen()
                    on_disk = len(ledger.rows) + len(m.rows(ledger.rows[-1][0] if ledger.rows else 0))
                    m.kill()
            except Cut:
                assert m.cut.is_set(), "the box went dark by itself"
                if not ledger.seen:
                    figures.killed_starting += 1
            finally:
                if killer:
                    killer.cancel()
                    killer.join()
            killed_at = time.monotonic()
            m.reap()
            figures.kills += 1

            # The box is dark: what is on the disk?
            assert m.read("PRAGMA integrity_check") == [("ok",)]
            rows = m.rows()
            assert rows[:len(ledger.rows)] == ledger.rows, "an acknowledged event is gone"
            assert m.games()[:len(ledger.games)] == ledger.games, "an acknowledged game is gone"
            moved = len(rows) > ledger.shown_rows   # a key in flight reached the disk
            ledger.rows, ledger.games = rows, m.games()   # all on disk now: from here on it must stay
            if not ledger.seen:
                continue   # killed while starting: the last expectation still stands
            game = m.game_on()
            if quiet:
                figures.quiet += 1
                expect = Expect([screen], len(rows), strict=on_disk == len(rows), game=game)
            else:
                # The screen at the cut, one shown within the delay the box
                # takes to note pages, or the one before those.
                seen = ledger.seen
                recent = [s for when, s in seen if killed_at - when <= SETTLED + 0.1]
                older = [s for when, s in seen if killed_at - when > SETTLED + 0.1][-1:]
                expect = Expect(older + recent, len(rows), strict=False, game=game, moved=moved)

        figures.events, figures.games = len(ledger.rows), len(ledger.games)
        with open(m.log) as f:
            log = f.read()
    assert "Traceback" not in log and "ERROR" not in log, log[-3000:]
    # Every quiet kill but perhaps the last was checked at the next start.
    assert figures.same_screen >= figures.quiet - 1 == kills // QUIET_EVERY - 1
    assert figures.keys >= kills // 2 and figures.events >= 10   # it was played, not only restarted
    starts = sorted(figures.starts)
    print(f"\nsoak: {figures.kills} kills ({figures.quiet} quiet, {figures.killed_starting} while starting), "
          f"{figures.keys} keys, {figures.events} events in {figures.games} games; back on the same screen "
          f"after {figures.same_screen} quiet kills, on a screen of the last half second after "
          f"{figures.same_in_flight} others, one key further after {figures.key_in_flight} (the key in flight "
          f"was on disk), on an older page {figures.stale_page} times, at a timer run out "
          f"{figures.timer_ran_out} times; start to ready median {starts[len(starts) // 2] * 1000:.0f} ms, "
          f"max {starts[-1] * 1000:.0f} ms")
    for screen, shown in figures.stale[:3]:
        print(f"came back on {screen!r} after {shown!r}")


def came_back(m: Machine, expect: Expect, screen: str, menu: str, figures: Figures) -> None:
    """Checks the screen a start came back on against what was shown."""
    if expect.game is None and screen != menu and normal(screen) not in {normal(s) for s in expect.screens}:
        # No game was on: the box comes back on the setup form that was up,
        # else at the main menu; a picker of names comes back as its form.
        assert not expect.strict or expect.screens[-1].startswith(("[Tonight's players", "[Names")), \
            f"came back on\n{screen}\ninstead of\n{expect.screens[-1]}"
        figures.stale_page += 1
        figures.stale.append((screen, expect.screens))
        same = None
    elif expect.game is None:
        same = True
    elif normal(screen) in {normal(s) for s in expect.screens}:
        same = True
    elif screen.startswith(("[Timer ", "[Time is up!")) and screen.split("\n")[1:] == menu.split("\n")[1:] \
            and not any(s.startswith(("[Timer ", "[Time is up!", "[Dice", "[Last rolls", "[Set timer"))
                        and s.split("\n")[1:] != menu.split("\n")[1:] for s in expect.screens):
        # The table tools ran on behind a menu: like any menu, the box comes
        # back on the main one, its title the countdown.
        same = True
    elif screen.startswith("[Time is up!") and \
            any(json.loads(r[4])["type"] == "TimerExpired" for r in m.rows()[expect.rows:]):
        figures.timer_ran_out += 1   # the countdown ended while the box was dark
        same = None
    elif expect.moved:
        figures.key_in_flight += 1   # the cut came after the key's event was on disk
        same = None
    else:
        assert not expect.strict, f"came back on\n{screen}\ninstead of\n{expect.screens[-1]}"
        figures.stale_page += 1
        figures.stale.append((screen, expect.screens))
        same = None
    if same:
        if expect.strict:
            figures.same_screen += 1
        else:
            figures.same_in_flight += 1
