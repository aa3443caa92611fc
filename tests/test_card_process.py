"""Issue 15 item 3 against a real ``referee run``: a card that is full, a
card mounted read-only, a card that fails with an I/O error.

Each box is the console script, driven through its control socket; what it has
acknowledged is read from its database from outside after every key.  The
faults are the operating system's own:

- **full**: the database lives on a small tmpfs in a private mount
  namespace, and a file fills what is left of it (ENOSPC, SQLITE_FULL);
- **read-only**: the database's folder is bind-mounted read-only over
  itself before the box starts (root is not stopped by file modes), then
  mounted writable again under the running box;
- **I/O error**: the box runs under ``RLIMIT_FSIZE``: Python ignores
  SIGXFSZ, so a write past the limit fails with EFBIG, which SQLite reports
  as SQLITE_IOERR_WRITE (not SQLITE_FULL: only ENOSPC is "full" to it).

After each: the main screen says the key was not saved, the key changes
nothing on disk, the journal (stderr) has a line or two and no traceback,
scoring resumes once the fault is gone, and nothing acknowledged is missing
after a restart.  systemd's STATUS line is read from a NOTIFY_SOCKET the
test binds: READY, and that the card cannot be written.
"""
from __future__ import annotations

import errno
import json
import os
import resource
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys

import pytest

from processes import free_port, until

START_SECONDS = 30.0
FULL = "Cannot save: card full"
READ_ONLY = "Cannot save: card is read-only"
FAILING = "Cannot save: card error"

needs_unshare = pytest.mark.skipif(shutil.which("unshare") is None or shutil.which("nsenter") is None,
                                   reason="util-linux unshare/nsenter are needed for a private mount")


READER = r"""
import json, sqlite3, sys
for line in sys.stdin:
    db, sql = json.loads(line)
    try:
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10)
        try:
            print(json.dumps(con.execute(sql).fetchall()), flush=True)
        finally:
            con.close()
    except sqlite3.Error as exc:
        print(json.dumps(str(exc)), flush=True)
"""


class Mounts:
    """A private mount namespace, held open by a sleeping process, in which
    the test mounts what the box's card is; ``root`` is how the test sees
    files through it.  Without root, a user namespace lends the rights."""

    def __init__(self) -> None:
        user = [] if os.geteuid() == 0 else ["--map-root-user"]
        self.holder = subprocess.Popen(["unshare", "--mount", "--propagation", "private", *user,
                                        "sleep", "infinity"])
        mine = os.readlink("/proc/self/ns/mnt")
        until(lambda: self._ns() not in (None, mine), 10, "the namespace")
        self.enter = ["nsenter", "--target", str(self.holder.pid), "--mount",
                      *([] if os.geteuid() == 0 else ["--user"])]
        # Files are reached through the holder's root; SQLite, though,
        # resolves that link as a path and would read outside, so queries
        # go to a reader inside.
        self.root = f"/proc/{self.holder.pid}/root"
        self._reader = subprocess.Popen([*self.enter, sys.executable, "-c", READER], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True)

    def query(self, db: str, sql: str) -> list[tuple]:
        self._reader.stdin.write(json.dumps([db, sql]) + "\n")
        self._reader.stdin.flush()
        answer = json.loads(self._reader.stdout.readline())
        if isinstance(answer, str):
            raise sqlite3.OperationalError(answer)
        return [tuple(row) for row in answer]

    def _ns(self) -> str | None:
        try:
            return os.readlink(f"/proc/{self.holder.pid}/ns/mnt")
        except OSError:
            return None

    def run(self, *command: str) -> None:
        subprocess.run([*self.enter, *command], check=True, capture_output=True)

    def close(self) -> None:
        self._reader.stdin.close()
        self._reader.wait(10)
        self._reader.stdout.close()
        self.holder.kill()
        self.holder.wait(10)


class RealBox:
    """``referee run`` as another process: started (inside ``mounts`` if
    given), pressed through its control socket, read from outside, killed."""

    def __init__(self, folder, card, mounts: Mounts | None = None) -> None:
        self.folder, self.mounts = folder, mounts
        self.db = str(card / "referee.db")
        self.control = str(folder / "control.sock")
        self.log = str(folder / "box.log")
        self.notify_path = str(folder / "notify.sock")
        self.config = str(folder / "config.toml")
        with open(self.config, "w") as f:
            f.write(f'database = "{self.db}"\nlang = "en"\n[dice]\ndriver = "software"\n'
                    f'[web]\nhost = "127.0.0.1"\nport = {free_port()}\n[sim]\ncontrol = "{self.control}"\n')
        self.process: subprocess.Popen | None = None
        self.statuses: list[str] = []
        self._notify: socket.socket | None = None
        self._file = None

    def start(self, preexec_fn=None, notify: bool = False) -> None:
        script = os.path.join(os.path.dirname(sys.executable), "referee")
        command = [script] if os.path.exists(script) else [sys.executable, "-m", "referee.cli"]
        env = dict(os.environ)
        env.pop("NOTIFY_SOCKET", None)
        if notify:
            self._notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            self._notify.bind(self.notify_path)
            self._notify.setblocking(False)
            env["NOTIFY_SOCKET"] = self.notify_path
        prefix = self.mounts.enter if self.mounts else []
        with open(self.log, "a") as log:
            self.process = subprocess.Popen([*prefix, *command, "run", "--config", self.config], env=env,
                                            stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                                            preexec_fn=preexec_fn)

        def connected():
            assert self.process.poll() is None, self.journal()
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                sock.connect(self.control)
            except OSError:
                sock.close()
                return None
            return sock
        self._sock = until(connected, what="the box's control socket")
        self._file = self._sock.makefile("rw", encoding="utf-8")
        assert self.ask("ready") == "ok"

    def ask(self, line: str) -> str:
        self._file.write(line + "\n")
        self._file.flush()
        answer = self._file.readline().rstrip("\n")
        assert answer and not answer.startswith("error"), (line, answer)
        return answer

    def press(self, key: str) -> str:
        self.ask(f"press {key}")
        return self.screen()

    def screen(self) -> str:
        return json.loads(self.ask("screen main"))

    def status(self) -> list[str]:
        """The STATUS= lines told to systemd so far."""
        while True:
            try:
                datagram = self._notify.recv(4096).decode()
            except BlockingIOError:
                return self.statuses
            self.statuses += [line[7:] for line in datagram.split("\n") if line.startswith("STATUS=")]

    def rows(self) -> list[tuple]:
        """The events on disk, read from outside (in the namespace, if any)."""
        sql = "SELECT game, seq, data FROM events ORDER BY game, seq"
        if self.mounts:
            return self.mounts.query(self.db, sql)
        con = sqlite3.connect(f"file:{self.db}?mode=ro", uri=True, timeout=10)
        try:
            return con.execute(sql).fetchall()
        finally:
            con.close()

    def kill(self) -> None:
        self._file.close()
        self._sock.close()
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)
        self.process = None
        if self._notify is not None:
            self._notify.close()
            os.unlink(self.notify_path)
            self._notify = None

    def journal(self) -> str:
        with open(self.log) as f:
            return f.read()

    def close(self) -> None:
        if self.process is not None:
            self.kill()
        journal = self.journal()
        assert "Traceback" not in journal, journal[-3000:]


def rolling(box: RealBox) -> None:
    """The table tools' dice page, where each # is a roll stored as an event."""
    assert box.press("6").startswith("[Timer")
    assert box.press("D").startswith("[Dice")


def roll_until_refused(box: RealBox, refusal: str, acknowledged: list) -> None:
    """Rolls, noting what the box acknowledged, until it refuses one."""
    for _ in range(400):
        before = box.rows()
        screen = box.press("#")
        if refusal in screen:
            assert box.rows() == before, "a refused roll reached the disk"
            return
        acknowledged[:] = box.rows()
        assert len(acknowledged) == len(before) + 1, screen
    raise AssertionError(f"400 rolls and never {refusal!r}")


def refused_again_and_again(box: RealBox, refusal: str, times: int = 10) -> None:
    before, dice = box.rows(), box.screen().split("\n")[2]
    for _ in range(times):
        screen = box.press("#")
        assert refusal in screen and screen.split("\n")[2] == dice, screen
    assert box.rows() == before


def journal_says_it_once(box: RealBox, fault: str) -> None:
    lines = [line for line in box.journal().splitlines() if "cannot save" in line or "cannot be written" in line]
    assert len(lines) == 1 and fault in lines[0], lines


@pytest.fixture
def mounts():
    m = Mounts()
    yield m
    m.close()


@needs_unshare
def test_a_full_card_refuses_keys_says_so_and_loses_nothing(tmp_path, mounts):
    card = tmp_path / "card"
    card.mkdir()
    mounts.run("mount", "-t", "tmpfs", "-o", "size=1m,mode=0755", "card", str(card))
    box = RealBox(tmp_path, card, mounts)
    box.start()
    rolling(box)
    for _ in range(3):
        box.press("#")
    acknowledged = box.rows()
    assert len(acknowledged) == 3
    # Whatever else is on the card takes the rest of it.
    filler = f"{mounts.root}{card}/filler"
    with open(filler, "wb", buffering=0) as f:
        try:
            while True:
                f.write(bytes(4096))
        except OSError as exc:
            assert exc.errno == errno.ENOSPC
    roll_until_refused(box, FULL, acknowledged)
    refused_again_and_again(box, FULL)
    journal_says_it_once(box, "full")
    # Room again: the next roll is saved, with no restart.
    os.unlink(filler)
    screen = box.press("#")
    assert FULL not in screen and len(box.rows()) == len(acknowledged) + 1
    acknowledged = box.rows()
    box.kill()
    box.start()
    assert box.screen().startswith("[Dice")
    assert box.rows() == acknowledged
    box.close()


@needs_unshare
def test_a_read_only_card_at_start_plays_on_says_so_and_saves_once_writable(tmp_path, mounts):
    card = tmp_path / "card"
    card.mkdir()
    box = RealBox(tmp_path, card, mounts)
    box.start()
    rolling(box)
    for _ in range(3):
        box.press("#")
    acknowledged = box.rows()
    assert len(acknowledged) == 3
    box.kill()   # the journal and the shared memory file stay, as after a power cut

    mounts.run("mount", "--bind", str(card), str(card))
    mounts.run("mount", "-o", "remount,bind,ro", str(card))
    box.start(notify=True)
    screen = box.screen()
    assert screen.startswith("[Dice") and READ_ONLY in screen, screen
    assert any("read-only" in s and s.startswith("ready") for s in until(box.status, 10, "STATUS")), box.statuses
    assert box.rows() == acknowledged   # the rolls before the cut are read
    refused_again_and_again(box, READ_ONLY)
    journal_says_it_once(box, "readonly")

    mounts.run("mount", "-o", "remount,bind,rw", str(card))
    # The box tries the card again at a key, at most once a second.
    until(lambda: READ_ONLY not in box.press("#"), 10, "a roll saved once the card is writable")
    assert len(box.rows()) == len(acknowledged) + 1
    assert until(lambda: [s for s in box.status() if "card" not in s and s.startswith("ready")], 10,
                "STATUS without the card"), box.statuses
    acknowledged = box.rows()
    box.kill()
    box.start()
    assert box.rows() == acknowledged and READ_ONLY not in box.screen()
    box.close()


def test_a_card_failing_with_io_errors_refuses_keys_and_loses_nothing(tmp_path):
    card = tmp_path / "card"
    card.mkdir()
    box = RealBox(tmp_path, card)
    box.start()
    rolling(box)
    box.kill()
    con = sqlite3.connect(box.db)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")   # an empty journal: the limit below is its room
    con.close()
    limit = os.path.getsize(box.db) + 64 * 1024
    os.rename(box.log, str(tmp_path / "first.log"))   # the limit is on the journal file too

    def small_files():
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    box.start(preexec_fn=small_files)
    assert box.screen().startswith("[Dice")
    acknowledged = box.rows()
    roll_until_refused(box, FAILING, acknowledged)
    assert len(acknowledged) > 3
    refused_again_and_again(box, FAILING)
    journal_says_it_once(box, "disk I/O error")
    box.kill()
    box.start()
    assert box.rows() == acknowledged and box.screen().startswith("[Dice")
    box.press("#")
    assert len(box.rows()) == len(acknowledged) + 1
    box.close()


DOCTOR = "from referee.tools import doctor; import sys; print(doctor.database(sys.argv[1]))"


@needs_unshare
def test_doctor_says_a_read_only_card_cannot_be_written_and_how_to_mend_it(tmp_path, mounts):
    card = tmp_path / "card"
    card.mkdir()
    db = card / "referee.db"
    db.write_bytes(b"")
    mounts.run("mount", "--bind", "-o", "ro", str(card), str(card))
    said = subprocess.run([*mounts.enter, sys.executable, "-c", DOCTOR, str(db)], capture_output=True,
                          text=True, check=True).stdout
    assert said.startswith("FAIL  score log: ") and "cannot write" in said and "Read-only file system" in said
    assert "remount,rw" in said, said


@needs_unshare
def test_doctor_gives_the_free_space_of_a_full_card(tmp_path, mounts):
    card = tmp_path / "card"
    card.mkdir()
    mounts.run("mount", "-t", "tmpfs", "-o", "size=1m", "card", str(card))
    with open(f"{mounts.root}{card}/filler", "wb", buffering=0) as f:
        f.write(bytes(1024 * 1024 - 64 * 1024))
    said = subprocess.run([*mounts.enter, sys.executable, "-c", DOCTOR, str(card / "referee.db")],
                          capture_output=True, text=True, check=True).stdout
    assert said.startswith("warn  score log: ") and " 0 MB free" in said and "nearly full" in said, said
