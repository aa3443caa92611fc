"""The installer's updates (systemd/venv-swap.sh, which install.sh sources):
each version's venv is made whole beside the one in use, its packages
checked against the lock's hashes, and swapped in at once; when the units do
not come up on it, the one before is swapped back and started again.

The units here are a real process started from ``$PREFIX/venv`` by an
``up`` command, as install.sh's restarts the services; the package is a
small wheel of its own, from a folder standing in for the package index."""
from __future__ import annotations

import base64
import hashlib
import os
import pathlib
import signal
import subprocess
import zipfile

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
SWAP = ROOT / "systemd" / "venv-swap.sh"

UP = """#!/bin/sh
# Restart the unit from $PREFIX/venv; up once it said it is ready.
[ -f "$STATE/pid" ] && kill "$(cat "$STATE/pid")" 2>/dev/null
rm -f "$STATE/ready"
"$PREFIX/venv/bin/python" -m tinyunit "$STATE/ready" >/dev/null 2>&1 &
echo $! > "$STATE/pid"
i=0
while [ $i -lt 300 ]; do
    [ -f "$STATE/ready" ] && exit 0
    kill -0 "$(cat "$STATE/pid")" 2>/dev/null || exit 1
    sleep 0.1
    i=$((i + 1))
done
exit 1
"""


def wheel(folder: pathlib.Path, version: str, start: str) -> pathlib.Path:
    """A wheel of the package ``tinyunit`` at ``version``, whose start is ``start``."""
    path = folder / f"tinyunit-{version}-py3-none-any.whl"
    info = f"tinyunit-{version}.dist-info"
    files = {"tinyunit/__init__.py": f"VERSION = {version!r}\n",
             "tinyunit/__main__.py": start,
             f"{info}/METADATA": f"Metadata-Version: 2.1\nName: tinyunit\nVersion: {version}\n",
             f"{info}/WHEEL": "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n"}
    record = []
    for name, text in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=").decode()
        record.append(f"{name},sha256={digest},{len(text.encode())}")
    record.append(f"{info}/RECORD,,")
    with zipfile.ZipFile(path, "w") as z:
        for name, text in files.items():
            z.writestr(name, text)
        z.writestr(f"{info}/RECORD", "\n".join(record) + "\n")
    return path


READY = ("import signal, sys, tinyunit\n"
         "open(sys.argv[1], 'w').write(tinyunit.VERSION)\n"
         "signal.pause()\n")
CRASH = "raise SystemExit('this version does not start')\n"


def lock(folder: pathlib.Path, version: str, made: pathlib.Path) -> pathlib.Path:
    path = folder / f"lock-{version}.txt"
    path.write_text(f"tinyunit=={version} --hash=sha256:{hashlib.sha256(made.read_bytes()).hexdigest()}\n")
    return path


class Box:
    def __init__(self, tmp: pathlib.Path) -> None:
        self.prefix, self.state, self.index = tmp / "opt", tmp / "state", tmp / "index"
        for folder in (self.prefix, self.state, self.index):
            folder.mkdir()
        self.up = tmp / "up"
        self.up.write_text(UP)
        self.up.chmod(0o755)
        self.env = {**os.environ, "PREFIX": str(self.prefix), "STATE": str(self.state)}

    def sh(self, script: str, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run(["sh", "-c", f'. "{SWAP}"; {script}', "sh", *args], env=self.env,
                              capture_output=True, text=True, timeout=300)

    def update(self, version: str, start: str = READY, broken: bool = False) -> tuple[int, str]:
        """install.sh's steps for one version: build, then swap; (exit code, the new venv)."""
        made = wheel(self.index, version, start)
        if broken:
            made.write_bytes(made.read_bytes()[:100])   # cut short on its way from the index
        built = self.sh('venv_build "$PREFIX" "$1" "" --no-index --find-links "$2"',
                        str(lock(self.index, version, made)), str(self.index))
        if built.returncode != 0:
            return built.returncode, ""
        new = built.stdout.strip()
        return self.sh('venv_swap "$PREFIX" "$1" "$2"', new, str(self.up)).returncode, new

    def running(self) -> str:
        """The version the unit runs, once it is up."""
        pid = int((self.state / "pid").read_text())
        os.kill(pid, 0)   # alive
        return (self.state / "ready").read_text()

    def stop(self) -> None:
        try:
            os.kill(int((self.state / "pid").read_text()), signal.SIGTERM)
        except (FileNotFoundError, ProcessLookupError):
            pass


@pytest.fixture
def box(tmp_path):
    b = Box(tmp_path)
    yield b
    b.stop()


def test_a_failed_update_leaves_the_version_before_running(box):
    assert box.update("1.0")[0] == 0
    first = os.readlink(box.prefix / "venv")
    assert box.running() == "1.0"
    # A wheel cut short: pip refuses it (its hash is not the lock's); the
    # running version and its venv are untouched, nothing is left beside.
    assert box.update("1.1", broken=True)[0] != 0
    assert box.running() == "1.0" and os.readlink(box.prefix / "venv") == first
    assert sorted(os.listdir(box.prefix / "venvs")) == [os.path.basename(first)]
    # A version that installs but does not start: swapped back, started again.
    code, new = box.update("2.0", start=CRASH)
    assert code == 1 and not os.path.exists(new)
    assert box.running() == "1.0" and os.readlink(box.prefix / "venv") == first
    # A good update: the version before is kept for one update.
    code, second = box.update("3.0")
    assert code == 0 and box.running() == "3.0"
    assert sorted(os.listdir(box.prefix / "venvs")) == sorted(os.path.basename(p) for p in (first, second))


def test_the_swap_passes_shellcheck():
    done = subprocess.run(["shellcheck", str(SWAP)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout
