"""Writes requirements/lock-<machine>.txt: every package the box needs,
each at one version with the sha256 of its wheel, for each machine a box
runs on, resolved from the package index pip is set to use (pip's own
``install --dry-run --report``, for the machine's wheels, not this one's).

``systemd/install.sh`` and ``make`` install from the lock of ``uname -m``
with ``pip install --require-hashes``: what was tried is what a box gets,
and a wheel changed on the index is refused.  Run it again to move the
versions on, and commit the locks.

    python3 scripts/lock.py                  # every machine
    python3 scripts/lock.py aarch64          # one
    python3 scripts/lock.py --python 3.13    # for another Python (Trixie's)

armv7l (a Pi Zero 2 W or a Pi 3 on 32-bit Raspberry Pi OS) takes four
packages from piwheels, asked beside the index: where piwheels cannot be
reached, that lock is not written, and the installer there takes
pyproject.toml's ranges.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import tomllib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The wheel tags each machine takes, newest first: x86_64 for a PC running
# the simulator or the tests; aarch64 for 64-bit Raspberry Pi OS; armv7l
# for 32-bit, whose wheels are piwheels' (linux_armv7l).
PLATFORMS = {
    "x86_64": ["manylinux_2_28_x86_64", "manylinux2014_x86_64", "manylinux_2_17_x86_64", "linux_x86_64"],
    "aarch64": ["manylinux_2_28_aarch64", "manylinux2014_aarch64", "manylinux_2_17_aarch64", "linux_aarch64"],
    "armv7l": ["manylinux_2_28_armv7l", "manylinux2014_armv7l", "manylinux_2_17_armv7l", "linux_armv7l"],
}


# Where a machine's wheels come from beside PyPI: on armv7l, PyPI has none
# of msgspec, Pillow, psutil or cbor2, which piwheels builds (as
# systemd/install.sh installs them there).
PIWHEELS = "https://www.piwheels.org/simple"
EXTRA_INDEX = {"armv7l": PIWHEELS}


def reachable(index: str) -> str | None:
    """Why ``index`` cannot be reached from here, or None: said before pip
    tries, which would retry for minutes and then name one package."""
    import urllib.error
    import urllib.request
    try:
        urllib.request.urlopen(f"{index}/pip/", timeout=20).close()
        return None
    except (urllib.error.URLError, OSError) as exc:
        return str(getattr(exc, "reason", exc))


def requirements() -> list[str]:
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        return tomllib.load(f)["project"]["dependencies"]


def resolve(machine: str, python: str) -> list[dict]:
    """What pip would install on ``machine``: its report's ``install`` list."""
    with tempfile.TemporaryDirectory() as folder:
        report = os.path.join(folder, "report.json")
        command = [sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--dry-run",
                   "--ignore-installed", "--only-binary=:all:", "--implementation", "cp", "--python-version", python,
                   "--target", os.path.join(folder, "target"), "--report", report]
        for tag in PLATFORMS[machine]:
            command += ["--platform", tag]
        if machine in EXTRA_INDEX:
            why = reachable(EXTRA_INDEX[machine])
            if why is not None:
                raise RuntimeError(f"{EXTRA_INDEX[machine]}, where its wheels of msgspec, Pillow, psutil and cbor2 "
                                   f"come from, cannot be reached from here ({why})")
            command += ["--extra-index-url", EXTRA_INDEX[machine]]
        done = subprocess.run(command + requirements(), capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "pip failed")
        with open(report) as f:
            return json.load(f)["install"]


def lock_text(machine: str, python: str, installs: list[dict]) -> str:
    lines = [f"# The box's packages for {machine}, Python {python}: written by scripts/lock.py",
             "# from pyproject.toml's dependencies; install with pip install --require-hashes -r."]
    for item in sorted(installs, key=lambda i: i["metadata"]["name"].lower()):
        hashes = item["download_info"].get("archive_info", {}).get("hashes", {})
        if "sha256" not in hashes:
            raise RuntimeError(f"{item['metadata']['name']}: the index gave no sha256")
        lines.append(f"{item['metadata']['name']}=={item['metadata']['version']} \\\n"
                     f"    --hash=sha256:{hashes['sha256']}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="Write requirements/lock-<machine>.txt from the package index.")
    p.add_argument("machines", nargs="*", metavar="MACHINE", help=f"of {', '.join(PLATFORMS)} (default: all)")
    p.add_argument("--python", default="3.11", help="the Python the box runs (default: 3.11, Bookworm's)")
    args = p.parse_args(argv)
    unknown = [m for m in args.machines if m not in PLATFORMS]
    if unknown:
        p.error(f"no such machine: {', '.join(unknown)}")
    failed = 0
    for machine in args.machines or PLATFORMS:
        try:
            text = lock_text(machine, args.python, resolve(machine, args.python))
        except RuntimeError as exc:
            print(f"{machine}: not locked: {exc}", file=sys.stderr)
            failed += 1
            continue
        path = os.path.join(ROOT, "requirements", f"lock-{machine}.txt")
        with open(path, "w") as f:
            f.write(text)
        print(f"{machine}: {text.count('==')} packages in {os.path.relpath(path, ROOT)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
