"""Issue 33 item 1: every file beside the box's database, every fault a card
or a hand can leave at its path, on real processes.

The box (``referee run``) and the web (``referee web``) run as the console
script on a data folder that is a small tmpfs of its own, in a private
mount namespace (``test_card_process.Mounts``), so that the card can be
filled and a file mounted read-only as on a Pi.  One box serves every case
of a file; the web is started again for each case of ``players.db``, since
its faults matter where the web first looks at it.

Each case asserts what players would notice: the process stays up and keeps
serving (keys are taken, pages answer 200), nothing the box recorded is
lost, ``players.db`` (derived from the box's record) is set aside and
counted again from it with one log line, and the fault is said once, in
words, never as a traceback.

The files: the box's record (``referee.db``, its log and index, with the
snapshots inside it), ``players.db``, the Wi-Fi's state and
``hotspot.toml``, ``config.toml``, the league's store and a box's club
outbox (``club.db``).  The faults: missing, empty, damaged bytes at the
start, middle and end, a folder, a FIFO, a link to /dev/zero or to a FIFO,
huge, and for ``players.db``, which the web writes, a read-only file and a
card full at the first look or mid-write.  A file that is only read
(the Wi-Fi's, ``config.toml``) or written whole at a start (the league's,
the outbox) is not put on a full or read-only card here: the box's record
is, in test_card_process.py.  ``make test`` runs the cases that found
faults, ``make soak`` every case.

The folder's files are listed at the end: a file the matrix does not know
fails it, so that a new one joins the matrix.
"""
from __future__ import annotations

import fnmatch
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import urllib.error
import urllib.request

import pytest

from processes import free_port, until
from referee.testing import Table
from test_card_process import Mounts, RealBox
from test_club import davinci_win

# Every file the box, the web, the club's publisher and comitup's callback
# keep beside the box's database, and who writes it.
KNOWN = {
    "referee.db": "the box: the record of every game",
    "referee.db-wal": "the box: its write-ahead log",
    "referee.db-shm": "the box: the log's index",
    "referee.db.damaged-*": "the box: a damaged record set aside",
    "referee.db-wal.damaged-*": "the box: a log that was no file, set aside",
    "referee.db-shm.damaged-*": "the box: an index that was no file, set aside",
    ".salvage-*": "the box: a damaged record's scratch copy, while it is read",
    "box.sock": "the box: the web's channel",
    "players.db": "the web: results and ratings, counted from the record",
    "players.db-wal": "the web: its write-ahead log",
    "players.db-shm": "the web: the log's index",
    "players.db.damaged-*": "the web: a damaged players.db set aside",
    "wifi": "comitup's callback: the Wi-Fi's state",
    "hotspot.toml": "the installer: the hotspot's name and password",
    "club.db": "referee club: what the broker has acknowledged",
    "club.db-wal": "referee club: its write-ahead log",
    "club.db-shm": "referee club: the log's index",
}
CARD_MB = 16
# make test runs the cases that found faults, make soak (-m soak --soak) every case.
pytestmark = pytest.mark.soak


def cases(faults, fast) -> list:
    """``faults`` as parameters, those ``fast`` does not pick marked
    ``slow_case``: make test leaves them out, make soak runs them all."""
    found = []
    for fault in faults:
        values, name = (fault, "-".join(fault)) if isinstance(fault, tuple) else ((fault,), fault)
        found.append(pytest.param(*values, id=name, marks=() if fast(fault) else pytest.mark.slow_case))
    return found
needs_mounts = pytest.mark.skipif(shutil.which("unshare") is None or shutil.which("nsenter") is None,
                                  reason="util-linux unshare/nsenter are needed for a card of its own")


@pytest.fixture(scope="module")
def evening(tmp_path_factory):
    """The box's database after one finished game of Ann and Bob, with
    Cid and Dan one key from the end of theirs."""
    folder = tmp_path_factory.mktemp("evening")
    with Table(seed=1) as t:
        t.start("davinci", players=["Ann", "Bob"])
        davinci_win(t)
        t.press("#")
        t.start("davinci", players=["Cid", "Dan"])
        t.press("#")
        for _ in range(3):
            t.type("2A")
        t.press("2")
        t.box.close()
        outside = sqlite3.connect(t.database)
        outside.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        outside.close()
        shutil.copyfile(t.database, folder / "referee.db")
    return folder / "referee.db"


class Card:
    """The data folder on a tmpfs of ``CARD_MB`` in a private namespace,
    a box on it, and a web started and stopped at will."""

    def __init__(self, folder, evening) -> None:
        self.mounts = Mounts()
        self.folder = folder
        self.path = folder / "card"
        self.path.mkdir()
        self.mounts.run("mount", "-t", "tmpfs", "-o", f"size={CARD_MB}m,mode=0755", "card", str(self.path))
        self.root = f"{self.mounts.root}{self.path}"     # the card as the test sees it
        shutil.copyfile(evening, f"{self.root}/referee.db")
        self.box = RealBox(folder, self.path, self.mounts)
        self.box.start()
        self.box._sock.settimeout(15)                       # a frozen box fails the case, not the run
        with open(self.box.config) as f:
            self.port = int(f.read().split("port = ")[1].split()[0])
        self.web: subprocess.Popen | None = None
        self.web_log = folder / "web.log"

    def at(self, name: str) -> str:
        return f"{self.root}/{name}"

    def start_web(self) -> None:
        script = os.path.join(os.path.dirname(sys.executable), "referee")
        command = [script] if os.path.exists(script) else [sys.executable, "-m", "referee.cli"]
        with open(self.web_log, "a") as log:
            self.web = subprocess.Popen([*self.mounts.enter, *command, "web", "--config", self.box.config],
                                        stdin=subprocess.DEVNULL, stdout=log, stderr=log)
        until(lambda: self.web.poll() is None and self.get("/api/evening")[0] == 200, 30, "the web's start")

    def stop_web(self) -> None:
        if self.web is not None:
            self.web.terminate()
            self.web.wait(10)
            self.web = None

    def get(self, path: str) -> tuple[int | None, str]:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.port}{path}", timeout=15) as r:
                return r.status, r.read().decode()
        except urllib.error.HTTPError as e:
            return e.code, e.read().decode()
        except OSError:
            return None, ""

    def said(self, log: str) -> list[str]:
        with open(log) as f:
            return f.read().splitlines()

    def fill(self) -> None:
        """Whatever else is on the card takes the rest of it."""
        with open(self.at("filler"), "wb", buffering=0) as f:
            try:
                while True:
                    f.write(bytes(65536))
            except OSError:
                pass            # the card is full: what the case wants

    def unfill(self) -> None:
        os.unlink(self.at("filler"))

    def close(self) -> None:
        self.stop_web()
        self.box.close()
        self.mounts.close()


@pytest.fixture(scope="module")
def card(tmp_path_factory, evening):
    if shutil.which("unshare") is None or shutil.which("nsenter") is None:
        pytest.skip("util-linux unshare/nsenter are needed for a card of its own")
    c = Card(tmp_path_factory.mktemp("matrix"), evening)
    c.start_web()
    c.expected = players(c)          # and players.db written
    assert c.expected == ["Ann", "Bob"]
    yield c
    c.close()


def players(card: Card) -> list[str]:
    status, text = card.get("/api/p/ann.json")
    assert status == 200, (status, text[-2000:])
    ann = json.loads(text)
    status, page = card.get("/p/")
    assert status == 200, (status, page[-2000:])
    assert card.get("/p/@bob")[0] == 200
    return sorted({a["name"] for a in ann["against"]} | {ann["name"]})


def records(card: Card) -> list:
    return card.box.rows()


# --- players.db: the web's own, derived from the record ------------------------------------------

def flip(where: str):
    def damage(path: str, good: bytes) -> None:
        at = {"start": 0, "middle": len(good) // 2, "end": len(good) - 64}[where]
        with open(path, "wb") as f:
            f.write(good[:at] + bytes(b ^ 0x5A for b in good[at:at + 32]) + good[at + 32:])
    return damage


def fifo(path: str, good: bytes = b"") -> None:
    os.mkfifo(path)


def folder(path: str, good: bytes = b"") -> None:
    os.mkdir(path)
    with open(os.path.join(path, "x"), "w") as f:
        f.write("x")


def link_to(target: str):
    def make(path: str, good: bytes = b"") -> None:
        os.symlink(target, path)
    return make


def link_to_fifo(path: str, good: bytes = b"") -> None:
    # The FIFO beside the data folder, not in it (where it is a file of its own).
    pipe = os.path.join(os.path.dirname(os.path.dirname(path)), f"{os.path.basename(path)}-{os.getpid()}.pipe")
    if not os.path.exists(pipe):
        os.mkfifo(pipe)
    os.symlink(pipe, path)


def huge(path: str, good: bytes = b"") -> None:
    with open(path, "wb") as f:
        f.truncate(2 * 1024**3)     # sparse: the card's room is not taken


def empty(path: str, good: bytes = b"") -> None:
    open(path, "wb").close()


# fault -> (what is done to players.db before the web starts, whether it is set aside)
PLAYERS = {
    "missing": (None, False),
    "empty": (empty, False),
    "damaged_start": (flip("start"), True),
    "damaged_middle": (flip("middle"), None),     # None: set aside if SQLite notices, else read as it is
    "damaged_end": (flip("end"), None),
    "folder": (folder, True),
    "fifo": (fifo, True),
    "link_to_dev_zero": (link_to("/dev/zero"), True),
    "link_to_fifo": (link_to_fifo, True),
    "huge": (huge, True),
}


def set_aside_lines(card: Card) -> list[str]:
    return [line for line in card.said(card.web_log) if "players" in line and ("set aside" in line
                                                                                 or "cannot be written" in line)]


def healthy(card: Card) -> bytes:
    """players.db as the web keeps it (its log in the file), read whole."""
    card.mounts.run(sys.executable, "-c", "import sqlite3, sys; sqlite3.connect(sys.argv[1])"
                    ".execute('PRAGMA wal_checkpoint(TRUNCATE)')", str(card.path / "players.db"))
    with open(card.at("players.db"), "rb") as f:
        return f.read()


def remove_players_db(card: Card) -> None:
    for name in os.listdir(card.root):
        if name.startswith("players.db") and ".damaged-" not in name:
            path = card.at(name)
            shutil.rmtree(path) if os.path.isdir(path) and not os.path.islink(path) else os.unlink(path)


def no_traceback(log: list[str]) -> None:
    assert not any("Traceback" in line for line in log), "\n".join(log[-40:])


@needs_mounts
@pytest.mark.parametrize("fault", PLAYERS)
def test_players_db_at_fault_is_set_aside_and_counted_again_from_the_record(card, fault, soak):
    """The fault is put in place of players.db under the running web, which
    opens it again as at a start; ``make soak`` starts the web on it too,
    twice (a restart did not help before)."""
    before = records(card)
    make, aside = PLAYERS[fault]
    good = healthy(card)
    remove_players_db(card)
    if make is not None:
        make(card.at("players.db"), good)
    lines = len(set_aside_lines(card))
    assert players(card) == card.expected
    assert card.get("/p/@ann")[0] == 200 and card.get("/api/p/bob.csv")[0] == 200
    if soak:
        good = healthy(card)
        remove_players_db(card)
        if make is not None:
            make(card.at("players.db"), good)
        for _ in range(2):
            card.stop_web()
            card.start_web()
            assert players(card) == card.expected
    said = set_aside_lines(card)[lines:]
    if aside is True:
        assert len(said) == (2 if soak else 1) and all("set aside as players.db.damaged-" in line for line in said), said
    elif aside is False:
        assert said == []
    else:
        assert len(said) <= (2 if soak else 1), said
    no_traceback(card.said(card.web_log))
    assert os.path.isfile(card.at("players.db")) and not os.path.islink(card.at("players.db"))
    # Damage SQLite did not meet at opening would be met by the next write.
    assert card.mounts.query(str(card.path / "players.db"), "PRAGMA integrity_check") == [("ok",)]
    assert records(card) == before
    assert card.web.poll() is None


# Damage SQLite's own check passes: a value changed inside a row, or a row
# gone.  Made on a copy beside the card, then put in place of players.db.
VALUES = {
    "a_rating_moved": "UPDATE ratings SET mu = mu + 5 WHERE rowid = (SELECT MIN(rowid) FROM ratings)",
    "a_result_rescored": """UPDATE results SET result = replace(result, '"score": ', '"score": 1')
                            WHERE game = (SELECT MIN(game) FROM results)""",
    "a_rating_gone": "DELETE FROM ratings WHERE rowid = (SELECT MAX(rowid) FROM ratings)",
}


@needs_mounts
@pytest.mark.parametrize("change", VALUES)
def test_players_db_with_a_value_changed_or_a_row_gone_is_counted_again_from_the_record(card, change, tmp_path):
    # The file changed is one begun after a set-aside, as every case above
    # leaves it: it must be as complete as one begun at a first start.
    good = healthy(card)
    remove_players_db(card)
    flip("start")(card.at("players.db"), good)
    status, text = card.get("/api/p/ann.json")
    assert status == 200
    before = json.loads(text)
    copy = tmp_path / "players.db"
    copy.write_bytes(healthy(card))
    db = sqlite3.connect(copy)
    with db:
        assert db.execute(VALUES[change]).rowcount == 1
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    remove_players_db(card)
    lines = len(set_aside_lines(card))
    shutil.copyfile(copy, card.at("players.db"))
    status, text = card.get("/api/p/ann.json")
    assert status == 200 and json.loads(text) == before      # the record's ratings, not the file's
    said = set_aside_lines(card)[lines:]
    assert len(said) == 1 and "set aside as players.db.damaged-" in said[0], said
    card.stop_web()                                          # what was written again is taken as it is
    card.start_web()
    assert json.loads(card.get("/api/p/ann.json")[1]) == before and set_aside_lines(card)[lines:] == said
    no_traceback(card.said(card.web_log))


@needs_mounts
def test_players_db_on_a_full_card_at_the_first_look_counts_in_memory_and_is_written_once_there_is_room(card):
    # The web's first look is at its start: a web that has held players.db
    # open since an earlier case would go on writing the file it holds.
    card.stop_web()
    remove_players_db(card)
    lines = len(set_aside_lines(card))
    card.fill()
    try:
        card.start_web()
        for _ in range(3):
            assert players(card) == card.expected
        said = set_aside_lines(card)[lines:]
        assert len(said) == 1 and "cannot be written (full)" in said[0], said
    finally:
        card.unfill()
    until(lambda: players(card) == card.expected and
          "players: players.db is written again" in card.said(card.web_log)[-1], 15, "players.db written once there is room")
    assert card.mounts.query(str(card.path / "players.db"), "SELECT COUNT(*) > 0 FROM results") == [(1,)]
    no_traceback(card.said(card.web_log))


@needs_mounts
def test_players_db_on_a_card_filled_before_a_game_is_counted_keeps_the_pages_and_catches_up(card):
    """Mid-write: the web has a players.db; a game ends; the card is full
    when the web counts it."""
    assert players(card) == card.expected
    lines = len(set_aside_lines(card))
    before = records(card)
    assert card.box.press("A")                     # Cid's last hit: the game ends
    ended = records(card)
    assert len(ended) == len(before) + 1
    card.fill()
    try:
        status, text = card.get("/api/p/cid.json")
        assert status == 200 and json.loads(text)["won"] == 1, text
        assert players(card) == card.expected
        said = set_aside_lines(card)[lines:]
        assert len(said) == 1 and "cannot be written (full)" in said[0], said
    finally:
        card.unfill()
    until(lambda: card.get("/p/@cid")[0] == 200 and
          "players: players.db is written again" in card.said(card.web_log)[-1], 15, "players.db written again")
    assert card.mounts.query(str(card.path / "players.db"), "SELECT COUNT(*) FROM results") == [(2,)]
    assert records(card) == ended
    no_traceback(card.said(card.web_log))


@needs_mounts
def test_players_db_read_only_counts_in_memory_says_so_once_and_is_written_once_writable(card):
    """A players.db of other rules (an update of the box) on a card that
    will not take the recount."""
    good = healthy(card)
    remove_players_db(card)
    with open(card.at("players.db"), "wb") as f:
        f.write(good)
    db = card.path / "players.db"
    card.mounts.run(sys.executable, "-c", "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); "
                    "c.execute(\"UPDATE meta SET value = 'older rules' WHERE key = 'rules'\"); c.commit()", str(db))
    card.mounts.run("mount", "--bind", str(db), str(db))
    card.mounts.run("mount", "-o", "remount,bind,ro", str(db))
    lines = len(set_aside_lines(card))
    try:
        for _ in range(3):
            assert players(card) == card.expected
        said = set_aside_lines(card)[lines:]
        assert len(said) == 1 and "cannot be written (read-only)" in said[0], said
    finally:
        card.mounts.run("umount", str(db))
    until(lambda: players(card) == card.expected and
          "players: players.db is written again" in card.said(card.web_log)[-1], 15, "players.db written once writable")
    assert card.mounts.query(str(db), "SELECT value != 'older rules' FROM meta WHERE key = 'rules'") == [(1,)]
    no_traceback(card.said(card.web_log))


# --- the Wi-Fi's state and the hotspot: read by the box's event loop every second --------------

HOTSPOT = 'name = "refbox"\npassword = "k7mq2xv9ab"\n'


def damaged_bytes(where: str):
    def damage(path: str, good: bytes) -> None:
        at = {"start": 0, "middle": len(good) // 2, "end": len(good) - 2}[where]
        with open(path, "wb") as f:
            f.write(good[:at] + bytes(b ^ 0xA5 for b in good[at:at + 2]) + good[at + 2:])
    return damage


# fault -> (what stands at the file's path, whether make test runs it: the rest under make soak)
SMALL = {
    "missing": (None, False),
    "empty": (empty, False),
    "damaged_start": (damaged_bytes("start"), False),
    "damaged_middle": (damaged_bytes("middle"), False),
    "damaged_end": (damaged_bytes("end"), False),
    "folder": (folder, False),
    "fifo": (fifo, True),
    "link_to_dev_zero": (link_to("/dev/zero"), True),
    "link_to_fifo": (link_to_fifo, False),
    "huge": (huge, False),
}


@pytest.fixture(scope="module")
def box(tmp_path_factory):
    """A box on the score log's screen, which shows the Wi-Fi's state."""
    folder = tmp_path_factory.mktemp("wifi")
    data = folder / "data"
    data.mkdir()
    b = RealBox(folder, data)
    b.data = data
    b.start()
    b._sock.settimeout(15)               # a frozen loop fails the case
    assert b.press("7").startswith("[Scores")
    yield b
    b.close()


def comitup_says(box: RealBox, state: str) -> None:
    path = box.data / "wifi"
    if os.path.lexists(path) and not os.path.isfile(path) or os.path.islink(path):
        shutil.rmtree(path) if os.path.isdir(path) and not os.path.islink(path) else os.unlink(path)
    path.write_text(state + "\n")


def clear(path) -> None:
    if os.path.lexists(path):
        shutil.rmtree(path) if os.path.isdir(path) and not os.path.islink(path) else os.unlink(path)


def titled(screen: str, title: str) -> bool:
    """The screen's title is ``title``, or a step of the hotspot's so named ("2. Scores")."""
    head = screen.split("\n", 1)[0]
    return head == f"[{title}]" or head.endswith(f". {title}]")


def screens_while(box: RealBox, done, what: str) -> str:
    """The score log's screen, asked for until ``done(screen)``: every ask
    is answered within the socket's timeout, or the box's loop is stuck."""
    return until(lambda: (lambda s: s if done(s) else None)(box.screen()), 10, what)


@pytest.mark.parametrize("name", ["wifi", "hotspot.toml"])
@pytest.mark.parametrize("fault", cases(SMALL, lambda fault: SMALL[fault][1]))
def test_a_wifi_file_at_fault_never_stops_the_box(box, name, fault):
    make = SMALL[fault][0]
    comitup_says(box, "CONNECTED")       # the hotspot is read as comitup opens it
    screens_while(box, lambda s: s.startswith("[Scores]"), "connected")
    clear(box.data / "hotspot.toml")
    (box.data / "hotspot.toml").write_text(HOTSPOT)
    comitup_says(box, "HOTSPOT")
    screens_while(box, lambda s: titled(s, "Wi-Fi") and "refbox" in s, "the hotspot's page")
    path = box.data / name
    good = path.read_bytes()
    lines = len(box.journal().splitlines())
    if name == "wifi":
        clear(path)
        if make is not None:
            make(str(path), good)
        # No word from comitup: the score log alone, no hotspot's pages.
        screens_while(box, lambda s: s.startswith("[Scores]"), "the state read")
    else:
        comitup_says(box, "CONNECTED")
        screens_while(box, lambda s: s.startswith("[Scores]"), "connected")
        clear(path)
        if make is not None:
            make(str(path), good)
        comitup_says(box, "HOTSPOT")
        # The hotspot's pages (comitup's page next), without the Wi-Fi's
        # code: its name is not known.
        screens_while(box, lambda s: titled(s, "Scores") and not s.startswith("[Scores]"), "the hotspot without its name")
    said = [line for line in box.journal().splitlines()[lines:] if name in line]
    assert len(said) <= 1, said
    if fault in ("fifo", "link_to_fifo", "link_to_dev_zero", "huge") and said:
        assert "not a regular file" in said[0] or "longer than" in said[0], said
    assert not any("Traceback" in line for line in box.journal().splitlines()), box.journal()[-3000:]
    clear(path)
    assert box.process.poll() is None


# --- the box's record: referee.db, its log and its index, at the box's start ----------------------

# (file, fault) -> what the main screen says once started ("" nothing), whether the record is kept
RECORD = {
    ("referee.db", "missing"): ("", False),
    ("referee.db", "empty"): ("", False),
    ("referee.db", "damaged_start"): ("Database repaired", True),
    ("referee.db", "folder"): ("Database repaired", False),
    ("referee.db", "fifo"): ("Database repaired", False),
    ("referee.db", "link_to_dev_zero"): ("Database repaired", False),
    ("referee.db", "link_to_fifo"): ("Database repaired", False),
    ("referee.db", "huge"): ("Database repaired", False),
    ("referee.db-wal", "damaged_start"): ("", True),
    ("referee.db-wal", "folder"): ("", True),
    ("referee.db-wal", "fifo"): ("", True),
    ("referee.db-wal", "link_to_dev_zero"): ("", True),
    ("referee.db-wal", "huge"): ("Database repaired", True),
    ("referee.db-shm", "fifo"): ("", True),
    ("referee.db-shm", "link_to_dev_zero"): ("", True),
}
FAST_RECORD = {("referee.db", "fifo"), ("referee.db", "folder"), ("referee.db-wal", "fifo")}
MAKERS = {**{fault: make for fault, (make, _aside) in PLAYERS.items()}}


@pytest.fixture(scope="module")
def recorded(evening) -> list:
    con = sqlite3.connect(f"file:{evening}?mode=ro", uri=True)
    try:
        return con.execute("SELECT game, seq, data FROM events ORDER BY game, seq").fetchall()
    finally:
        con.close()


@pytest.mark.parametrize("name, fault", cases(RECORD, FAST_RECORD.__contains__))
def test_the_boxs_record_at_fault_at_start_the_box_starts_says_so_and_saves_the_next_key(
        tmp_path, evening, recorded, name, fault):
    said, kept = RECORD[(name, fault)]
    data = tmp_path / "data"
    data.mkdir()
    shutil.copyfile(evening, data / "referee.db")
    path = data / name
    good = path.read_bytes() if path.exists() else b"\0" * 4096
    if path.exists():
        path.unlink()
    if MAKERS[fault] is not None:
        MAKERS[fault](str(path), good)
    box = RealBox(tmp_path, data)
    box.start()
    box._sock.settimeout(15)
    screen = box.screen()
    # Back in Cid's game where the record is kept; else on the main menu.
    assert screen.startswith("[Cid attacks Dan" if kept else "[Tabletop Referee"), screen
    if said:
        assert said in screen, screen
    else:
        assert "!" not in screen, screen
    rows = box.rows()
    if kept:
        assert rows == recorded
    if kept:
        box.press("A")                       # Cid's last hit
    else:
        assert box.press("6").startswith("[Timer") and box.press("D").startswith("[Dice")
        box.press("#")
    assert len(box.rows()) == len(rows) + 1
    errors = [line for line in box.journal().splitlines() if line.startswith("ERROR")]
    assert len(errors) <= 2, errors          # what was found, and what was saved of it
    box.close()                              # no traceback


# --- config.toml: read once at every start ------------------------------------------------------

# fault -> what `referee check-config` says first (exit code 2), or None: valid.  A box
# starts with such a file all the same (tests/test_config_mistakes.py).
CONFIG = {
    "missing": "no such file",
    "empty": None,
    "damaged_start": "not valid TOML",
    "damaged_middle": "not",
    "damaged_end": "not",
    "folder": "not a regular file",
    "fifo": "not a regular file",
    "link_to_dev_zero": "not a regular file",
    "link_to_fifo": "not a regular file",
    "huge": "longer than",
}
FAST_CONFIG = {"fifo", "link_to_dev_zero", "folder", "damaged_start"}


@pytest.mark.parametrize("fault", cases(CONFIG, FAST_CONFIG.__contains__))
def test_config_toml_at_fault_is_said_by_check_config_and_never_waits(tmp_path, fault):
    folder_ = tmp_path / "etc"
    folder_.mkdir()
    path = folder_ / "config.toml"
    good = f'database = "{tmp_path / "referee.db"}"\nlang = "cs"\n[web]\nport = 8080\n'.encode()
    if PLAYERS[fault][0] is not None:
        PLAYERS[fault][0](str(path), good)
    script = os.path.join(os.path.dirname(sys.executable), "referee")
    done = subprocess.run([script, "check-config", str(path)], capture_output=True, text=True, timeout=30,
                          stdin=subprocess.DEVNULL)
    if CONFIG[fault] is None:
        assert done.returncode == 0, done.stderr
        return
    lines = done.stderr.splitlines()
    assert done.returncode == 2 and lines and CONFIG[fault] in lines[0], done.stderr
    assert all("config.toml: " in line for line in lines) and not (tmp_path / "referee.db").exists()


# --- the league's store and a box's club outbox: kept by their processes, begun again ------------

DERIVED_FAULTS = ("missing", "empty", "damaged_start", "damaged_middle", "damaged_end", "folder", "fifo",
                  "link_to_dev_zero", "link_to_fifo", "huge")
FAST_DERIVED = {"damaged_start", "fifo"}
REFEREE = os.path.join(os.path.dirname(sys.executable), "referee")


def made_by(tmp_path, fault: str, name: str, make_good) -> str:
    """The file at fault, in a folder of its own; returns its path."""
    folder_ = tmp_path / "data"
    folder_.mkdir()
    path = str(folder_ / name)
    make_good(path)
    sqlite3.connect(path).execute("PRAGMA wal_checkpoint(TRUNCATE)").close()
    with open(path, "rb") as f:
        good = f.read()
    for suffix in ("", "-wal", "-shm"):
        if os.path.lexists(path + suffix):
            os.unlink(path + suffix)
    if PLAYERS[fault][0] is not None:
        PLAYERS[fault][0](path, good)
    return path


def sound(path: str) -> bool:
    """What the process kept passes SQLite's full check: no damage left in
    it for a later write to meet."""
    db = sqlite3.connect(path)
    try:
        return db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    finally:
        db.close()


def set_aside_once(log: str, name: str, fault: str) -> None:
    said = [line for line in log.splitlines() if "set aside as " + name in line]
    if fault in ("damaged_middle", "damaged_end"):    # bytes SQLite may never read: then nothing to say
        assert len(said) <= 1, log
    else:
        assert len(said) == (0 if fault in ("missing", "empty") else 1), log
    assert "Traceback" not in log, log


@pytest.mark.parametrize("fault", cases(DERIVED_FAULTS, FAST_DERIVED.__contains__))
def test_the_leagues_store_at_fault_is_set_aside_and_the_page_served(tmp_path, fault):
    from referee.club.league import League
    path = made_by(tmp_path, fault, "league.db", lambda p: League(p).close())
    port = free_port()
    log = tmp_path / "league.log"
    with open(log, "w") as out:
        league = subprocess.Popen([REFEREE, "league", "--broker", f"mqtt://127.0.0.1:{free_port()}", "--database",
                                   path, "--listen", f"127.0.0.1:{port}"], stdout=out, stderr=out,
                                  stdin=subprocess.DEVNULL)
    try:
        def page():
            assert league.poll() is None, log.read_text()
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/tonight", timeout=10) as r:
                    return r.status == 200 and json.loads(r.read())
            except OSError:
                return None
        assert until(page, 30, "the league's page")["games"] == []
        assert urllib.request.urlopen(f"http://127.0.0.1:{port}/p/", timeout=10).status == 200
    finally:
        league.terminate()
        league.wait(10)
    set_aside_once(log.read_text(), "league.db.damaged-", fault)
    assert os.path.isfile(path) and sound(path)


@pytest.mark.parametrize("fault", cases(DERIVED_FAULTS, FAST_DERIVED.__contains__))
def test_a_boxs_club_outbox_at_fault_is_set_aside_and_the_publisher_goes_on(tmp_path, fault, evening):
    from referee.club.outbox import Outbox
    path = made_by(tmp_path, fault, "club.db", lambda p: Outbox(str(evening), p).close())
    data = os.path.dirname(path)
    shutil.copyfile(evening, os.path.join(data, "referee.db"))
    config = tmp_path / "config.toml"
    config.write_text(f'database = "{data}/referee.db"\n[club]\nbroker = "mqtt://127.0.0.1:{free_port()}"\n'
                      f'table = "north"\n')
    log = tmp_path / "club.log"
    with open(log, "w") as out:
        club = subprocess.Popen([REFEREE, "club", "--config", str(config)], stdout=out, stderr=out,
                                stdin=subprocess.DEVNULL)
    try:
        # Up, and trying the broker: the outbox is open.
        until(lambda: club.poll() is None and "broker" in log.read_text(), 30, "the publisher at the broker")
        assert club.poll() is None, log.read_text()
    finally:
        club.terminate()
        club.wait(10)
    set_aside_once(log.read_text(), "club.db.damaged-", fault)
    assert os.path.isfile(path) and sound(path)


# --- the folder's files: each one in the matrix ---------------------------------------------------

@needs_mounts
def test_every_file_in_the_data_folder_is_one_the_matrix_knows(card, box):
    """Each file the processes leave beside the box's database is one the
    matrix above puts at fault; a new one must join it (and KNOWN)."""
    assert players(card) == card.expected
    comitup_says(box, "CONNECTED")
    (box.data / "hotspot.toml").write_text(HOTSPOT)
    screens_while(box, lambda s: s.startswith("[Scores]"), "connected")
    found = sorted(set(os.listdir(card.root)) | set(os.listdir(box.data)))
    unknown = [name for name in found if not any(fnmatch.fnmatchcase(name, known) for known in KNOWN)]
    assert unknown == [], f"files the fault matrix does not know: {unknown}"
    assert {"referee.db", "players.db", "box.sock", "wifi", "hotspot.toml"} <= set(found)
