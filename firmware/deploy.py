"""Copies the firmware onto a Pico running MicroPython (``make flash``).

    python -m firmware.deploy [--port PORT]

PORT is what ``mpremote connect`` takes (``/dev/ttyACM0``, a by-id path, or
``auto``, the default: the first MicroPython board found).  The device
modules go to ``/firmware/`` on the Pico, so ``from firmware import ...``
reads the same there as on the host, and ``boot.py`` and ``main.py`` to the
root, where MicroPython runs them at every reset.  The board is reset at the end.
"""
from __future__ import annotations

import argparse
import os
import shlex
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE = ("__init__.py", "protocol.py", "dice.py", "module.py", "watchdog.py")
ROOT_FILES = ("boot.py", "main.py")  # MicroPython runs them at every reset
MKDIR = "import os; 'firmware' in os.listdir() or os.mkdir('firmware')"


def find_mpremote() -> str | None:
    # `make flash` runs the virtualenv's python without activating it, so
    # look beside this interpreter before the PATH.
    beside = os.path.join(os.path.dirname(sys.executable), "mpremote")
    if os.access(beside, os.X_OK):
        return beside
    return shutil.which("mpremote")


def command(mpremote: str, port: str = "auto") -> list[str]:
    """The one mpremote command line that deploys everything."""
    cmd = [mpremote, "connect", port, "exec", MKDIR]
    for name in PACKAGE:
        cmd += ["+", "cp", os.path.join(HERE, name), ":firmware/" + name]
    for name in ROOT_FILES:
        cmd += ["+", "cp", os.path.join(HERE, name), ":" + name]
    return cmd + ["+", "reset"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m firmware.deploy", description=__doc__.splitlines()[0])
    parser.add_argument("--port", default="auto", help="the Pico's serial port (default: auto)")
    args = parser.parse_args(argv)
    mpremote = find_mpremote()
    if mpremote is None:
        print("mpremote is needed to copy the firmware. Install it with:", file=sys.stderr)
        print(f"    {shlex.quote(sys.executable)} -m pip install mpremote", file=sys.stderr)
        return 2
    cmd = command(mpremote, args.port)
    print(shlex.join(cmd))
    return subprocess.run(cmd).returncode


if __name__ == "__main__":
    sys.exit(main())
