import os
import tempfile

import pytest

from referee import i18n
from referee.testing import Table


def _temporary_files_in_memory() -> None:
    """Every database the tests open commits with ``synchronous=FULL``, and
    on a disk each commit waits for an fsync: most of the suite's time went
    there.  A power cut is played by killing a process, which loses nothing
    the kernel already holds, so an fsync changes no test's outcome; the
    tests' files go to /dev/shm when it has room.  ``TMPDIR`` set by hand
    wins (the xdist workers inherit the one chosen here)."""
    if os.environ.get("TMPDIR"):
        return
    try:
        room = os.statvfs("/dev/shm")
    except OSError:
        return
    if room.f_bavail * room.f_frsize >= 2 << 30 and os.access("/dev/shm", os.W_OK | os.X_OK):
        os.environ["TMPDIR"] = "/dev/shm"
        tempfile.tempdir = None     # forget a choice made before this ran


_temporary_files_in_memory()


def pytest_addoption(parser):
    parser.addoption("--soak", action="store_true", help="run the long soak versions")


def pytest_collection_modifyitems(config, items):
    """Cases marked ``slow_case`` are make soak's alone: left out of make
    test (deselected, not skipped: nothing stands in for them there)."""
    if config.getoption("--soak"):
        return
    slow = [item for item in items if item.get_closest_marker("slow_case")]
    if slow:
        config.hook.pytest_deselected(items=slow)
        items[:] = [item for item in items if not item.get_closest_marker("slow_case")]


@pytest.fixture(autouse=True)
def english_after():
    """Each test starts in English: a table speaking another language sets
    the language of the whole process (``referee.i18n.use``), and the next
    test must not inherit it."""
    yield
    i18n.use("en")


@pytest.fixture
def table():
    with Table(seed=7, lang="en") as t:
        yield t


@pytest.fixture
def soak(request) -> bool:
    """True under ``make soak`` (``--soak``): tests marked ``soak`` then run
    their long version; ``make test`` runs the short one."""
    return request.config.getoption("--soak")


@pytest.fixture(scope="session")
def micropython_tools() -> str:
    """.micropython/, where scripts/micropython-tools puts mpy-cross, mypy
    with the rp2 stubs and MicroPython's WebAssembly port; ``make test``
    sets it up first, and a run without it sets it up here, once (a lock
    keeps the parallel workers from doing it twice)."""
    import fcntl
    import pathlib
    import subprocess

    root = pathlib.Path(__file__).resolve().parent.parent
    with open(root / ".micropython.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        done = subprocess.run([root / "scripts" / "micropython-tools"], capture_output=True, text=True)
    assert done.returncode == 0, f"scripts/micropython-tools failed:\n{done.stdout}{done.stderr}"
    return str(root / ".micropython")
