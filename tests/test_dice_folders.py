"""Issue 15 item 7: a box with the simulated dice module, killed outright,
leaves no folder behind for good.  A real ``referee run`` with its own
temporary folder, killed with SIGKILL and started again."""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time

START_SECONDS = 30.0


def start(folder, tmp) -> subprocess.Popen:
    script = os.path.join(os.path.dirname(sys.executable), "referee")
    command = [script] if os.path.exists(script) else [sys.executable, "-m", "referee.cli"]
    log = open(folder / "box.log", "ab")
    try:
        box = subprocess.Popen([*command, "run", "--config", str(folder / "config.toml")], stdout=log,
                               stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env={**os.environ, "TMPDIR": str(tmp)})
    finally:
        log.close()
    give_up = time.monotonic() + START_SECONDS
    while True:   # the box is up once its control socket answers "ready"
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            try:
                sock.connect(str(folder / "control.sock"))
                file = sock.makefile("rw", encoding="utf-8")
                file.write("ready\n")
                file.flush()
                if file.readline().strip() == "ok":
                    file.close()
                    return box
            except OSError:
                pass
        assert box.poll() is None and time.monotonic() < give_up, (folder / "box.log").read_text()
        time.sleep(0.02)   # the box is still starting


def folders(tmp) -> list[str]:
    return sorted(name for name in os.listdir(tmp) if name.startswith("dice-module-"))


def test_a_killed_box_leaves_no_dice_module_folder_for_good(tmp_path):
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    (tmp_path / "config.toml").write_text(
        f'database = "{tmp_path / "referee.db"}"\n[sim]\ncontrol = "{tmp_path / "control.sock"}"\n')
    first = start(tmp_path, tmp)
    assert [name.split("-")[2] for name in folders(tmp)] == [str(first.pid)]
    first.send_signal(signal.SIGKILL)
    first.wait(10)
    assert len(folders(tmp)) == 1                 # SIGKILL runs no clean-up ...
    second = start(tmp_path, tmp)
    assert [name.split("-")[2] for name in folders(tmp)] == [str(second.pid)]   # ... the next start does
    second.send_signal(signal.SIGTERM)
    second.wait(10)
    assert folders(tmp) == []
