"""Power cuts in the middle of play: a real ``referee run`` killed with
SIGKILL at random moments, again and again, on one database, in every mode
of the box: Decrypto, Osmišifry, Octiles (referee and dealer), Da Vinci
Code (with and without the turn timer), Decipher and the table tools.

The box runs on simulated devices with a real SQLite file and a control socket
(``referee.box.sim_control``) on a Unix socket.  (The web is a process of its own:
test_web_split.py kills it and the box apart.)  A seeded player of the
mode (``players.py``) reads the screens and the game's state and presses
the keys a table could press: it sets the game up through the box's menus,
plays legal moves, looks at help and score pages, takes actions back and
ends games.  After every key the box answers, the test reads the screens,
the box's state and what the store holds: that is what the box has
acknowledged.  After every kill and start:

(a) every event on disk when a key was acknowledged is still there, in the
    same order, and so is every game; the start added nothing but what the
    box answers by itself (a shuffle, a drawn code); a key the cut caught
    left at most its own action; and the box's state is the stored events
    replayed from the first;
(b) when no key was on its way, the main screen is the page of the last key
    taken, or the one README's power-cut paragraph allows one step earlier:
    after the menus and setup forms the main menu, after the game menu held
    up by ``*`` the page under it (the countdown's digits, a passing
    message and a countdown run out while dark aside); a cut that caught a
    key in flight may come back one key further, and is counted;
(c) the team screens show no secret to the wrong team: a Decrypto code on
    no panel (nobody holds a button), a team's keywords and the address of
    its phone page (the QR code under ``B``) only on its own.

``PRAGMA integrity_check`` says ok after every kill, and the box's log
holds no traceback and no error.

Kills come while the box starts (a tenth, up to ``STARTING`` seconds after
the process starts), at a random moment while keys are pressed (four
tenths, up to ``FLIGHT`` seconds after the box is ready), or quietly
between two keys, after one to ``KEYS`` of them (the rest), in turn.  ``make test`` kills each mode ``KILLS``
times; ``make soak`` (``--soak``) ``SOAK_KILLS`` times.  A start in
``CONSOLE_EVERY`` runs the console script ``referee run`` itself (imports
and all: Decrypto once bricked the box with an import circle only a fresh
start showed); the others run the same ``referee.cli.main(["run", ...])``
in a process forked from a parent that has already imported the service
(``ZYGOTE``), a few tenths of a second instead of the imports.
"""
from __future__ import annotations

import importlib
import json
import os
import random
import re
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field

import pytest

from processes import free_port
from games import base
from referee.box.flows.decrypto import code_text
from players import HOLD, MODES, Player, Seen
from games.base import as_data
from referee.store.events import UNDO
from referee.store.replay import effective
from referee.testing import Table

pytestmark = pytest.mark.soak

SEED = 2611
KILLS, SOAK_KILLS = 5, 80          # per mode
KEYS, SOAK_KEYS = 8, 40            # at most, between two quiet kills
CONSOLE_EVERY = 40                 # the console script starts the box at start 2, 42, 82...
FLIGHT = 1.0          # in-flight kills land up to this long after the box is ready
STARTING = 0.3        # kills while starting land up to this long after the process starts
START_SECONDS = 30.0  # the console script imports everything first, on a machine under load
ANSWER_SECONDS = 30.0  # a box that takes longer to answer a line hangs
MENU_SECONDS = 10.0   # holding * brings the game menu up after 0.6 s; generous under load
# Which kind of cut each life ends in, in turn: a tenth while starting, four
# tenths at a random moment, the rest quietly between two keys.
KINDS = ("quiet", "flight", "quiet", "starting", "quiet", "flight", "quiet", "flight", "quiet", "flight")
AUTOMATIC = {cls.__name__ for cls in base.AUTOMATIC}

ZYGOTE = r"""
import os, sys
import referee.box.flows.decipher
import referee.box.flows.decrypto, referee.box.flows.osmisifry, referee.box.flows.octiles, referee.box.flows.davinci
import referee.cli, referee.box.service, referee.box.flows.menu, referee.box.flows.tools
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

    # --- the control socket --------------------------------------------------------

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
            sock.settimeout(ANSWER_SECONDS)
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
        except TimeoutError:
            raise AssertionError(f"the box did not answer {line!r} within {ANSWER_SECONDS} s") from None
        except OSError:
            answer = ""
        if not answer:
            raise Cut()
        assert not answer.startswith("error"), (line, answer)
        return answer.rstrip("\n")

    def screen(self, name: str = "main") -> str:
        return json.loads(self.ask(f"screen {name}"))

    def state(self) -> dict:
        return json.loads(self.ask("state"))

    def hold_star(self) -> None:
        """Holds ``*`` until the game menu is up, then lets go."""
        self.ask("down *")
        give_up = time.monotonic() + MENU_SECONDS
        while self.state()["overlay"] is None:
            assert time.monotonic() < give_up, "holding * brought no game menu"
            time.sleep(0.01)
        self.ask("up *")

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
        if not os.path.exists(self.db):
            return []   # cut during the very first start, before the store was made
        if os.path.exists(self.db + "-journal"):
            # Cut while the very first start was making the tables, before
            # the store went over to WAL: a read-only reader cannot roll the
            # hot journal back, so read a copy that may (the box does the
            # same on the original at its next start).
            return self._read_copy(sql, args)
        con = sqlite3.connect(f"file:{self.db}?mode=ro", uri=True, timeout=10)
        try:
            return con.execute(sql, args).fetchall()
        except sqlite3.OperationalError as exc:
            if "no such table" not in str(exc):
                raise
            return []   # cut during the very first start, before the store had its tables
        finally:
            con.close()

    def _read_copy(self, sql: str, args) -> list[tuple]:
        with tempfile.TemporaryDirectory() as folder:
            copy = os.path.join(folder, "referee.db")
            for suffix in ("", "-journal", "-wal"):
                if os.path.exists(self.db + suffix):
                    shutil.copyfile(self.db + suffix, copy + suffix)
            con = sqlite3.connect(copy, timeout=10)
            try:
                return con.execute(sql, args).fetchall()
            except sqlite3.OperationalError as exc:
                if "no such table" not in str(exc):
                    raise
                return []
            finally:
                con.close()

    def rows(self, after: int = 0) -> list[tuple]:
        return self.read("SELECT rowid, game, seq, at, data FROM events WHERE rowid > ? ORDER BY rowid", after)

    def games(self) -> list[tuple]:
        # Not the wall-clock labels: a start may re-date them (NTP).
        return self.read("SELECT id, name, options FROM games ORDER BY id")

    def game_on(self) -> str | None:
        """The game the box is on, as the store says."""
        row = self.read("SELECT value FROM settings WHERE key = 'current'")
        current = json.loads(row[0][0]) if row else None
        if current is None:
            return None
        return self.read("SELECT name FROM games WHERE id = ?", current)[0][0]



# --- what the box acknowledged -----------------------------------------------------------

def replayed(m: Machine, game: int):
    """The game's state from its stored events, replayed from the first
    (undo rows taking theirs back), as ``Session.replay`` does without a
    snapshot."""
    name, options = m.read("SELECT name, options FROM games WHERE id = ?", game)[0]
    rules = importlib.import_module(f"games.{name}")
    state = rules.setup(dict(json.loads(options)))
    rows = [(json.loads(data), at) for _g, _s, at, data in
            m.read("SELECT game, seq, at, data FROM events WHERE game = ? ORDER BY seq", game)]
    for data, at in effective(rows):
        state = rules.apply(state, base.decode(data, rules.EVENTS), at)
    return state


def as_json(value):
    return json.loads(json.dumps(as_data(value), ensure_ascii=False))


def player_rows(rows: list[tuple]) -> list[dict]:
    """The rows a key makes: not what the box answers by itself."""
    return [d for d in (json.loads(r[4]) for r in rows) if d == UNDO or d["type"] not in AUTOMATIC]


def looked(m: Machine) -> Seen:
    """The screens and the box's state, and the rules' state replayed from
    the store, checked against each other: (a) and (c)."""
    seen = Seen(m.screen("main"), m.screen("team1"), m.screen("team2"), m.state())
    box = seen.box
    if box["game"] is not None:
        seen.rules = replayed(m, box["game"])
        assert box["state"] == as_json(seen.rules), "the box's state is not its stored events replayed"
        if box["name"] == "decrypto":
            secrets_kept(seen)
            pages_kept(m, seen)
    return seen


def secrets_kept(seen: Seen) -> None:
    """(c) Nobody holds a team button: no panel shows a code, and a team's
    keywords are on its own panel only [DE-3].  (Main may show a code
    before it is revealed: a team's guess may be right.)"""
    s = seen.rules
    for seat, panel in enumerate((seen.team1, seen.team2)):
        lines = panel.split("\n")
        for code in s.codes:
            assert code is None or code_text(code) not in panel, f"a code on team{seat + 1}'s panel:\n{panel}"
        other = s.keywords[1 - seat]
        shown = [w for n, w in enumerate(other, 1) if f"{n} {w}" in lines]
        assert not shown, f"the other team's keywords {shown} on team{seat + 1}'s panel:\n{panel}"


def pages_kept(m: Machine, seen: Seen) -> None:
    """(c) A team's page address (its QR code, a capability) is on its own
    panel only."""
    tokens = dict(m.read("SELECT team, token FROM team_pages WHERE game = ?", seen.box["game"]))
    for seat, panel in enumerate((seen.main, seen.team1, seen.team2), -1):
        shown = [t for team, t in tokens.items() if team != seat and t in panel]
        assert not shown, f"another team's page on {('main', 'team1', 'team2')[seat + 1]}:\n{panel}"


CLOCK = re.compile(r"\d+:\d\d")


KEY_BAR = re.compile(r"(?:^|\s)[0-9A-D#*]:")


def normal(screen: str, said: bool = False) -> str:
    """A screen as it must come back: without a passing message, and with a
    countdown's digits, which move on while the box is dark; with the line
    of what was last done (``said``: issue 33 item 6) or without it, where a
    message on either side took its rows (one, or two: the second has no
    key of the key bar)."""
    lines, out = screen.split("\n"), []
    for i, line in enumerate(lines):
        if line.startswith("! "):
            continue
        if not said and (line.startswith("»") or i and lines[i - 1].startswith("»") and not KEY_BAR.search(line)
                         and not line.startswith("QR ")):
            continue
        out.append(CLOCK.sub("m:ss", line))
    return "\n".join(out)


def same_page(seen: str, last: str) -> bool:
    """``seen`` is the page ``last`` was, line for line; the line of what was
    last done too, unless a message over either took its rows."""
    said = not any(line.startswith("! ") for screen in (seen, last) for line in screen.split("\n"))
    if said:
        return normal(seen, said) == normal(last, said)
    # A message over either side covers some of its rows (the text view is
    # the panel): the rows it leaves are the other side's, in their order.
    a, b = sorted((normal(seen).split("\n"), normal(last).split("\n")), key=len)
    rest = iter(b)
    return a[:1] == b[:1] and all(line in rest for line in a)


@dataclass
class Ledger:
    """What the box has acknowledged: the rows and games on disk and what it
    showed when it answered the last key, and the page under a game menu."""
    rows: list[tuple] = field(default_factory=list)
    games: list[tuple] = field(default_factory=list)
    last: Seen | None = None
    in_flight: bool = False          # a key was sent and its answer not yet seen

    def saw(self, m: Machine) -> Seen:
        seen = looked(m)
        self.rows += m.rows(self.rows[-1][0] if self.rows else 0)
        self.games = m.games()
        self.last = seen
        self.in_flight = False
        return seen

    def press(self, m: Machine, key: str) -> Seen:
        self.in_flight = True
        if key == HOLD:
            m.hold_star()
        else:
            m.ask(f"press {key}")
        # Screens and state first, then the rows: whatever the screens show
        # was on disk before they showed it.
        return self.saw(m)


@dataclass
class Figures:
    kills: int = 0
    quiet: int = 0
    starting: int = 0
    keys: int = 0
    same_screen: int = 0          # (b) checked strictly
    under_menu: int = 0           # of which: back under the game menu held up by holding *
    at_menu: int = 0              # of which: back on the main menu after menus, or on a form after its names pickers
    key_in_flight: int = 0        # a key was on its way: its screen or the one before
    further: int = 0              # of which: one key further, on a screen not seen yet
    timer_ran_out: int = 0
    starts: list[float] = field(default_factory=list)


@pytest.fixture(scope="module")
def main_menu() -> str:
    with Table() as t:
        return t.screen("main")


@pytest.mark.parametrize("mode", MODES)
def test_power_cuts_in_every_mode_keep_the_events_the_page_and_the_secrets(tmp_path, soak, main_menu, mode):
    kills, most = (SOAK_KILLS, SOAK_KEYS) if soak else (KILLS, KEYS)
    rng = random.Random(f"{SEED}-{mode}")
    player = Player(mode, rng)
    figures = Figures()
    ledger = Ledger()
    at_kill: list[tuple] | None = None   # the rows on disk when the box was last killed
    with Machine(tmp_path) as m:
        for n in range(kills):
            kind = KINDS[n % len(KINDS)]
            began = time.monotonic()
            m.start(console=n % CONSOLE_EVERY == 2)
            killer = None
            if kind == "starting":
                killer = threading.Timer(rng.uniform(0, STARTING), m.kill)
                killer.start()
            seen = None
            try:
                m.connect()
                m.ask("ready")
                figures.starts.append(time.monotonic() - began)
                if kind == "flight":
                    killer = threading.Timer(rng.uniform(0, FLIGHT), m.kill)
                    killer.start()
                seen = looked(m)
                if at_kill is not None:
                    came_back(m, ledger, at_kill, seen, main_menu, figures)
                    at_kill = None
                ledger.saw(m)
                budget = rng.randint(1, most) if kind == "quiet" else 10_000
                while budget > 0:
                    for key in player.keys(ledger.last):
                        ledger.press(m, key)
                        figures.keys += 1
                        budget -= 1
                        if not budget:
                            break   # a quiet cut may come in the middle of a move
                if kind == "quiet":
                    figures.quiet += 1
                    m.kill()
            except Cut:
                assert m.cut.is_set(), "the box went dark by itself"
            finally:
                if killer:
                    killer.cancel()
                    killer.join()
            m.reap()
            figures.kills += 1
            if seen is None:
                figures.starting += 1   # killed while starting: the last expectation still stands
            else:
                at_kill = m.rows()

            # The box is dark: what is on the disk?
            assert m.read("PRAGMA integrity_check") in ([("ok",)], [] if not ledger.games else None)
            rows = m.rows()
            assert rows[:len(ledger.rows)] == ledger.rows, "an acknowledged event is gone"
            assert m.games()[:len(ledger.games)] == ledger.games, "an acknowledged game is gone"
            late = player_rows(rows[len(ledger.rows):])
            assert len(late) <= ledger.in_flight, f"actions on disk that no key acknowledged: {late}"

        with open(m.log) as f:
            log = f.read()
    assert "Traceback" not in log and "ERROR" not in log, log[-3000:]
    assert figures.keys >= kills and ledger.games, "it was played, not only restarted"
    if soak and mode != "tools":
        finished = m.read("SELECT COUNT(*) FROM games WHERE ended IS NOT NULL")[0][0]
        assert finished >= 1, "no game of the mode was played to its end"
    starts = sorted(figures.starts)
    print(f"\nsoak {mode}: {figures.kills} kills ({figures.quiet} quiet, {figures.starting} while starting), "
          f"{figures.keys} keys, {len(ledger.rows)} events in {len(ledger.games)} games; "
          f"back on the page of the last key {figures.same_screen} times (the game menu up "
          f"{figures.under_menu}, main menu after menus or form after names {figures.at_menu}), after a key in flight "
          f"{figures.key_in_flight} (one key further {figures.further}), timer ran out while dark "
          f"{figures.timer_ran_out}; start to ready median {starts[len(starts) // 2] * 1000:.0f} ms, "
          f"max {starts[-1] * 1000:.0f} ms")


PICKERS = ("[Tonight's players", "[Names")   # a setup form's, not kept (README)


def came_back(m: Machine, ledger: Ledger, at_kill: list[tuple], seen: Seen, menu: str, figures: Figures) -> None:
    """(a) and (b) for the first screen after a start."""
    rows = m.rows()
    assert rows[:len(at_kill)] == at_kill
    started = player_rows(rows[len(at_kill):])
    assert not started, f"the start itself stored actions: {started}"
    last = ledger.last
    moved = len(at_kill) > len(ledger.rows)
    expired = any(json.loads(r[4])["type"] == "TimerExpired" for r in rows[len(ledger.rows):])
    if expired and not ledger.in_flight:
        figures.timer_ran_out += 1   # a countdown ran out between the last key and the cut
        return
    if ledger.in_flight or moved:
        # The key in flight may have been taken: its page, or the one before.
        figures.key_in_flight += 1
        if not same_page(seen.main, last.main):
            figures.further += 1
        return
    if last.box["game"] is None and last.box["setup"] is None:
        # Menus are not kept: the main menu (its title the table tools'
        # countdown when one runs on behind it).
        assert seen.box["game"] is None and seen.main.split("\n")[1:] == menu.split("\n")[1:], \
            f"came back on\n{seen.main}\nafter\n{last.main}"
        figures.at_menu += 1
    elif last.main.startswith(PICKERS):
        # A setup form is kept, its pickers of names are not: the form.
        assert seen.box["setup"] == last.box["setup"], f"came back on\n{seen.main}\nafter\n{last.main}"
        figures.at_menu += 1
    else:
        if last.box["overlay"] is not None:
            figures.under_menu += 1   # the game menu comes back too
        assert same_page(seen.main, last.main), f"came back on\n{seen.main}\ninstead of\n{last.main}"
    if len(rows) == len(at_kill) and seen.box["game"] is not None and last.box["game"] == seen.box["game"]:
        assert seen.box["state"] == last.box["state"]
    figures.same_screen += 1
