"""Issue 18, proof without a Pico: the dice module's firmware as MicroPython
itself takes it.  Three layers, each of which CPython alone would let pass:

- mpy-cross compiles every file the Pico runs, as the board's compiler does;
- mypy checks them against the rp2 port's stubs (``machine``, ``select``,
  ``sys.stdin.buffer`` as that port defines them);
- MicroPython's WebAssembly port runs the protocol, the dice and the module
  (here, and under tests/test_dice_serial.py through the host's driver).
"""
from __future__ import annotations

import json
import math
import os
import pathlib
import subprocess

import pytest

from firmware import deploy, protocol

ROOT = pathlib.Path(__file__).resolve().parent.parent
FIRMWARE = ROOT / "firmware"
# What goes onto the Pico, and the chi-square tool that runs there too.
# One worker runs these: two mypy runs at once on its one cache left one of
# them with nothing to say, and the WebAssembly interpreter starts once.
pytestmark = pytest.mark.xdist_group("micropython")

ON_THE_PICO = [*deploy.PACKAGE, *deploy.ROOT_FILES, "chisquare.py"]


def mpy_cross(tools: str, source: pathlib.Path, out: pathlib.Path) -> subprocess.CompletedProcess:
    return subprocess.run([os.path.join(tools, "venv", "bin", "mpy-cross"), "-o", str(out), str(source)],
                          capture_output=True, text=True)


def mypy(tools: str, *files) -> subprocess.CompletedProcess:
    return subprocess.run([os.path.join(tools, "venv", "bin", "mypy"), "--config-file", str(FIRMWARE / "mypy.ini"),
                           *map(str, files)], capture_output=True, text=True, cwd=ROOT)


# --- 9a: the board's compiler ---------------------------------------------------------


@pytest.mark.parametrize("name", ON_THE_PICO)
def test_item9a_every_file_on_the_pico_compiles_with_mpy_cross(micropython_tools, tmp_path, name):
    done = mpy_cross(micropython_tools, FIRMWARE / name, tmp_path / "out.mpy")
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "out.mpy").read_bytes()[:1] == b"M"  # an .mpy file


def test_item9a_mpy_cross_refuses_what_micropython_lacks(micropython_tools, tmp_path):
    # CPython 3.10's match statement: MicroPython has none
    source = tmp_path / "lacking.py"
    source.write_text("def f(x):\n    match x:\n        case 1:\n            return 2\n")
    assert mpy_cross(micropython_tools, source, tmp_path / "out.mpy").returncode != 0


# --- 9b: the rp2 port's stubs ---------------------------------------------------------


def test_item9b_the_firmware_type_checks_against_the_rp2_ports_stubs(micropython_tools):
    done = mypy(micropython_tools, *(FIRMWARE / name for name in ON_THE_PICO))
    assert done.returncode == 0, done.stdout + done.stderr


def test_item9b_the_stubs_are_the_rp2_ports_not_cpythons(micropython_tools, tmp_path):
    # Both are fine under CPython's typeshed (which has no machine at all
    # and a random.Random); the rp2 port has Timer(id, ...) and no Random.
    wrong = tmp_path / "wrong.py"
    wrong.write_text("import machine\nimport random\n"
                     "machine.Timer(mode=machine.Timer.PERIODIC, period=1000)\n"
                     "random.Random(1)\n")
    done = mypy(micropython_tools, wrong)
    said = done.stdout
    assert 'No overload variant of "Timer"' in said and 'Module has no attribute "Random"' in said, done.stderr


# --- 9c: MicroPython runs the firmware -------------------------------------------------


@pytest.fixture(scope="module")
def mp(micropython_tools):
    from hal.sim.micropython_module import MicroPython
    interpreter = MicroPython()
    yield interpreter
    interpreter.close()


def test_item9c_it_is_micropython_that_runs_it(mp):
    assert "MicroPython v1.27" in mp.version


def test_item9c_micropython_speaks_the_protocol_as_cpython_does(mp):
    lines = [protocol.hello(), protocol.roll(7, 3, 6), protocol.arm(4, 20), protocol.repl(),
             "roll 12345678 1d20\n", "ROLL 1 5d8\n", "SHAKE\n", "ROLL one 2d8\n"]
    code = ("from firmware import protocol\nimport json\nout = []\n"
            f"for line in {lines!r}:\n"
            "    try:\n        out.append(list(protocol.parse_command(line.rstrip())))\n"
            "    except protocol.ProtocolError as e:\n        out.append(['error', e.id, e.reason])\n"
            "out.append(protocol.fault('MemoryError'))\n"
            "out.append(list(protocol.parse_reply('FAULT OSError')))\n"
            "print(json.dumps(out))\n")
    theirs = _run(mp, code)
    ours = []
    for line in lines:
        try:
            ours.append(list(protocol.parse_command(line.rstrip())))
        except protocol.ProtocolError as e:
            ours.append(["error", e.id, e.reason])
    ours += [protocol.fault("MemoryError"), list(protocol.parse_reply("FAULT OSError"))]
    assert theirs == ours


def test_item9c_micropython_counts_faults_and_asks_for_a_reset_at_the_fifth_in_ten_seconds(mp):
    code = ("import json\nfrom firmware import module\nf = module.Faults()\n"
            "print(json.dumps([f.add(t) for t in (0, 30000, 30001, 30002, 30003, 30004)]))\n")
    assert _run(mp, code) == [False, False, False, False, False, True]


def test_item9c_the_firmwares_dice_on_micropython_pass_a_chi_square(mp):
    # 16000 d8 rolls with the random bytes the host hands in (the WebAssembly
    # port has no os.urandom).  Seven degrees of freedom: above 24.32 happens
    # by chance once in a thousand runs.
    code = ("import binascii, host, json\nfrom firmware import chisquare\n"
            "faces = chisquare.counts(lambda n: binascii.unhexlify(host.urandom(n)), 16000, 8)\n"
            "print(json.dumps([faces, chisquare.chi_square(faces)]))\n")
    faces, x = _run(mp, code)
    assert sum(faces) == 16000 and len(faces) == 8
    assert x < 24.32
    assert x == pytest.approx(sum((c - 2000) ** 2 / 2000 for c in faces))
    assert not math.isnan(x)


def _run(mp, code: str):
    """What ``code`` prints, run inside MicroPython, as JSON."""
    reply = mp.request("run", code=code)
    return json.loads(reply.printed)
