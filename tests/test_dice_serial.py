"""The host's dice driver over real ptys: against the simulated module (the
firmware's own code), and against a fake module that misbehaves on purpose."""
import asyncio
import fcntl
import logging
import os
import select
import struct
import termios
import threading
import time
import tty

import pytest

from firmware.module import FIRMWARE
from hal.dice import DiceRoll
from hal.dice_serial import SerialDice
from hal.sim.dice_module import SimulatedDiceModule

# A bound on a status change, however loaded the machine: how soon the driver
# finds a module plugged back in (firmware/README.md: two seconds) is
# bench/dice_bench.py's row, not a clock in a test.
STATUS_WAIT = 10.0
HELLO_REPLY = b"HELLO 1 0.0.0-fake fa4e\n"
FLOOD_SECONDS = 20.0  # a generous bound on reading a flood, for a machine under load

# --- helpers ------------------------------------------------------------------


def run(coro, timeout=10):
    """Runs a test's coroutine on a fresh event loop; a hang fails the test."""
    return asyncio.run(asyncio.wait_for(coro, timeout))


async def until(predicate, timeout=2.0):
    """Waits for something another thread does, looking every 5 ms."""
    async with asyncio.timeout(timeout):
        while not predicate():
            await asyncio.sleep(0.005)


class Host:
    """SerialDice as the service uses it, with what its callbacks say collected."""

    def __init__(self, port, **options):
        self.dice = SerialDice(port, **options)
        self.statuses = asyncio.Queue()
        self.buttons = asyncio.Queue()
        self.dice.on_status = self.statuses.put_nowait
        self.dice.on_button = self.buttons.put_nowait

    async def __aenter__(self):
        self.dice.start(asyncio.get_running_loop())
        return self

    async def __aexit__(self, *exc):
        self.dice.close()

    async def status(self, timeout=STATUS_WAIT):
        return await asyncio.wait_for(self.statuses.get(), timeout)

    async def button(self, timeout=2.0):
        return await asyncio.wait_for(self.buttons.get(), timeout)


class FakeModule:
    """Answers each line from the host with whatever ``answer(line)``
    returns (bytes, or a list of pieces written one after another), on a
    real pty: for the faults the firmware never makes."""

    def __init__(self, answer):
        self.answer = answer
        self.heard = []
        self.master, self._slave = os.openpty()
        tty.setraw(self._slave)  # a fresh pty echoes
        self.port = os.ttyname(self._slave)
        self._stop_r, self._stop_w = os.pipe()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        os.write(self._stop_w, b"!")
        self._thread.join(2)
        for fd in (self.master, self._slave, self._stop_r, self._stop_w):
            os.close(fd)

    def write(self, data):
        os.write(self.master, data)

    def unread(self):
        """Bytes written to the host that it has not read yet."""
        return struct.unpack("i", fcntl.ioctl(self._slave, termios.FIONREAD, b"\0" * 4))[0]

    def _run(self):
        pending = b""
        while True:
            ready, _, _ = select.select([self.master, self._stop_r], [], [])
            if self._stop_r in ready:
                return
            pending += os.read(self.master, 4096)
            *lines, pending = pending.split(b"\n")
            for line in lines:
                text = line.decode("ascii").strip()
                self.heard.append(text)
                reply = self.answer(text)
                for piece in reply if isinstance(reply, list) else [reply]:
                    if piece:
                        self.write(piece)
                        self._wait_read()

    def _wait_read(self):
        # Lets the host read a piece before the next one comes, so a line can
        # arrive split across reads: looks every millisecond, 0.1 s at most.
        for _ in range(100):
            if not self.unread():
                return
            time.sleep(0.001)


def hello_then(roll_answer):
    """A fake that greets properly and answers ROLL lines with
    ``roll_answer(id)``."""

    def answer(line):
        if line == "HELLO":
            return HELLO_REPLY
        if line.startswith("ROLL "):
            return roll_answer(int(line.split()[1]))
        return None

    return answer


@pytest.fixture(params=["cpython", "micropython"])
def sim(request):
    """The simulated module, its firmware run by CPython and (issue 18) by
    MicroPython itself, in its WebAssembly port."""
    if request.param == "micropython":
        request.getfixturevalue("micropython_tools")
        from hal.sim.micropython_module import MicroPythonDiceModule
        module = MicroPythonDiceModule()
    else:
        module = SimulatedDiceModule()
    with module:
        yield module


def no_tracebacks(caplog):
    return all(record.exc_info is None for record in caplog.records)


# --- against the simulated module -----------------------------------------------


def test_rolls_come_from_the_module_once_it_has_said_hello(sim):
    async def main():
        async with Host(sim.port) as host:
            assert host.dice.status == "offline"
            assert await host.status() == "online"
            assert host.dice.module == (FIRMWARE, sim.board)
            for count, sides in [(2, 8), (1, 20), (4, 6), (3, 2)]:
                roll = await host.dice.roll(count, sides)
                assert roll.source == "module" and len(roll.values) == count
                assert all(1 <= v <= sides for v in roll.values)
            assert sim.display == "".join("%2d" % v for v in roll.values).ljust(8)

    run(main())


def test_values_queued_with_next_are_the_next_rolls(sim):
    async def main():
        async with Host(sim.port) as host:
            await host.status()
            sim.next(4, 3)
            assert await host.dice.roll(2, 8) == DiceRoll((4, 3), "module")
            sim.next(20, 1, 17)
            assert await host.dice.roll(1, 20) == DiceRoll((20,), "module")
            assert await host.dice.roll(2, 20) == DiceRoll((1, 17), "module")
            assert sim.display == " 117    "

    run(main())


def test_button_press_on_the_module_arrives_through_on_button(sim):
    async def main():
        async with Host(sim.port) as host:
            await host.status()
            sim.next(5, 2)
            sim.press_button()
            assert await host.button() == DiceRoll((5, 2), "module")

    run(main())


def test_button_rolls_the_dice_the_host_armed(sim):
    async def main():
        async with Host(sim.port) as host:
            await host.status()
            host.dice.arm(3, 6)
            await until(lambda: "ARM 3d6" in sim.received)
            sim.press_button()
            roll = await host.button()
            assert roll.source == "module" and len(roll.values) == 3
            assert all(1 <= v <= 6 for v in roll.values)

    run(main())


def test_no_module_at_start_means_software_rolls_until_it_is_plugged_in(sim):
    sim.unplug()

    async def main():
        async with Host(sim.port) as host:
            roll = await host.dice.roll(2, 8)
            assert roll.source == "software" and all(1 <= v <= 8 for v in roll.values)
            assert host.dice.status == "offline" and host.statuses.empty()
            sim.plug_in()
            assert await host.status() == "online"
            assert (await host.dice.roll(2, 8)).source == "module"

    run(main())


def test_port_may_be_a_glob_like_the_by_id_default(sim):
    pattern = os.path.join(os.path.dirname(sim.port), "usb-MicroPython_*-if00")

    async def main():
        async with Host(pattern) as host:
            assert await host.status() == "online"
            sim.next(8, 8)
            assert await host.dice.roll(2, 8) == DiceRoll((8, 8), "module")

    run(main())


def test_module_unplugged_mid_roll_falls_back_to_software_and_goes_offline():
    # The module would tumble for a minute and the host would wait 30 s: only
    # noticing the lost port can end this roll within the test's time.
    with SimulatedDiceModule(animation_ms=60_000) as sim:
        async def main():
            async with Host(sim.port, timeout=30) as host:
                await host.status()
                rolling = asyncio.create_task(host.dice.roll(2, 8))
                await until(lambda: "ROLL 1 2d8" in sim.received)
                sim.unplug()
                roll = await rolling
                assert roll.source == "software" and all(1 <= v <= 8 for v in roll.values)
                assert await host.status() == "offline"
                assert (await host.dice.roll(1, 6)).source == "software"

        run(main())


def test_module_plugged_back_in_comes_back_online_and_re_armed(sim, caplog):
    async def main():
        async with Host(sim.port) as host:
            await host.status()
            host.dice.arm(4, 12)
            await until(lambda: "ARM 4d12" in sim.received)
            sim.unplug()
            assert await host.status() == "offline"
            sim.plug_in()  # a freshly booted module: armed 2d8 again
            assert await host.status() == "online"
            await until(lambda: sim.received.count("ARM 4d12") == 2)
            sim.press_button()
            roll = await host.button()
            assert len(roll.values) == 4 and all(1 <= v <= 12 for v in roll.values)
            sim.next(11, 12)
            assert await host.dice.roll(2, 12) == DiceRoll((11, 12), "module")

    run(main(), timeout=30)
    assert no_tracebacks(caplog)


def test_simulator_refuses_values_no_die_shows_and_goes_dark_unplugged(sim):
    with pytest.raises(ValueError):
        sim.next(0)
    with pytest.raises(ValueError):
        sim.next(21)
    assert sim.plugged and sim.display == " - -    "
    sim.unplug()
    assert not sim.plugged and sim.display == "" and not os.path.exists(sim.port)
    sim.plug_in()
    assert os.path.exists(sim.port)


# --- against a module that misbehaves -------------------------------------------


def test_a_roll_nobody_answers_falls_back_and_the_module_must_greet_again():
    with FakeModule(hello_then(lambda id: None)) as fake:
        async def main():
            async with Host(fake.port, timeout=0.2) as host:
                assert await host.status() == "online"
                roll = await host.dice.roll(2, 8)
                assert roll.source == "software"
                assert await host.status() == "offline"
                assert await host.status(timeout=3) == "online"  # it answered the next HELLO

        run(main())
    assert fake.heard.count("HELLO") >= 2


def test_garbage_wrong_ids_and_split_lines_around_the_answer_are_ignored(caplog):
    def answer(id):
        return [
            b"\xff\xfe\x00\x07\n",
            b"RESULT %d 1 1\n" % (id + 1),
            b"RESULT x 1 1\n",
            b"RESULT\n",
            b">>> \r\n",
            b"HELLO\n",
            b"A" * 300 + b"\n",
            b"RESULT %d 4" % id,
            b" 2\r\n",
        ]

    with FakeModule(hello_then(answer)) as fake:
        async def main():
            async with Host(fake.port, timeout=5) as host:
                await host.status()
                assert await host.dice.roll(2, 8) == DiceRoll((4, 2), "module")
                assert host.dice.status == "online" and host.statuses.empty()

        run(main())
    assert any(r.levelno == logging.WARNING for r in caplog.records)
    assert no_tracebacks(caplog)


@pytest.mark.parametrize("values", [b"9 1", b"0 1", b"3", b"3 4 5", b"21 21"])
def test_an_answer_with_the_wrong_dice_is_refused(values, caplog):
    with FakeModule(hello_then(lambda id: b"RESULT %d %s\nRESULT %d 1 1\n" % (id, values, id))) as fake:
        async def main():
            async with Host(fake.port, timeout=30) as host:
                await host.status()
                roll = await host.dice.roll(2, 8)
                assert roll.source == "software" and all(1 <= v <= 8 for v in roll.values)

        run(main())
    assert no_tracebacks(caplog)


def test_an_error_from_the_module_falls_back_at_once():
    with FakeModule(hello_then(lambda id: b"ERR %d busy\n" % id)) as fake:
        async def main():
            async with Host(fake.port, timeout=30) as host:
                await host.status()
                assert (await host.dice.roll(3, 6)).source == "software"
                assert host.dice.status == "online"

        run(main())


def test_button_lines_for_other_dice_or_bad_values_are_ignored():
    def answer(id):
        return (b"BUTTON 3d6 1 2 3\nBUTTON 2d8 9 9\nBUTTON 2d8 1\nBUTTON 2d8 1 2 3\n"
                b"BUTTON 2d8 7 7\nRESULT %d 1 1\n" % id)

    with FakeModule(hello_then(answer)) as fake:
        async def main():
            async with Host(fake.port) as host:
                await host.status()
                await host.dice.roll(2, 8)  # answered after all the button lines
                assert await host.button() == DiceRoll((7, 7), "module")
                assert host.buttons.empty()

        run(main())


def test_a_module_speaking_another_protocol_is_not_used():
    def answer(line):
        return b"HELLO 2 2.0.0 fa4e\n" if line == "HELLO" else b"RESULT 1 1 1\n"

    with FakeModule(answer) as fake:
        async def main():
            async with Host(fake.port) as host:
                await until(lambda: fake.heard.count("HELLO") >= 2, timeout=3)
                assert host.dice.status == "offline" and host.statuses.empty()
                assert (await host.dice.roll(2, 8)).source == "software"

        run(main())


def test_a_flood_is_bounded_never_accepted_and_the_module_works_after(caplog):
    flooded = threading.Event()

    class Watch(logging.Handler):
        def emit(self, record):
            if "floods" in record.getMessage():
                flooded.set()

    junk = b"".join([
        b"\xff\xfe garbage\n", b"RESULT 1 9 9\n", b"RESULT 99999999 1 1\n", b"RESULT 1\n",
        b"BUTTON 2d8 9 9\n", b"BUTTON 3d6 1 2 3\n", b"HELLO\n", b"X" * 100 + b"\n", b"ERR\n",
    ])
    watch = Watch()
    logging.getLogger("hal.dice_serial").addHandler(watch)
    try:
        with FakeModule(hello_then(lambda id: b"RESULT %d 5 6\n" % id)) as fake:
            async def main():
                async with Host(fake.port, timeout=0.5) as host:
                    await host.status()
                    # The loop is held up (a busy service) while the module
                    # floods: the reader must drop lines, not pile them up.
                    fake.write(junk * 100)
                    assert flooded.wait(FLOOD_SECONDS)
                    # Rolls time out (and are made in software) while the
                    # junk is read; on a loaded machine for a while: the
                    # module must answer again before long, however long.
                    give_up = time.monotonic() + FLOOD_SECONDS
                    while True:
                        roll = await host.dice.roll(2, 8)
                        if roll.source == "module" or time.monotonic() > give_up:
                            break
                        assert all(1 <= v <= 8 for v in roll.values)
                    assert roll == DiceRoll((5, 6), "module")
                    assert host.buttons.empty()

            run(main(), timeout=3 * FLOOD_SECONDS)
    finally:
        logging.getLogger("hal.dice_serial").removeHandler(watch)
    assert no_tracebacks(caplog)


def test_item7_a_fault_the_firmware_reports_is_logged_once_and_the_module_stays_in_use(caplog):
    # The firmware raised, said so, and its loop went on: the roll it was
    # making is answered after all (or times out, as any roll may).
    def answer(id):
        return [b"FAULT MemoryError\n", b"FAULT MemoryError\n", b"RESULT %d 2 5\n" % id]

    with FakeModule(hello_then(answer)) as fake:
        async def main():
            async with Host(fake.port) as host:
                await host.status()
                roll = await host.dice.roll(2, 8)
                assert (roll.source, roll.values) == ("module", (2, 5))
                assert host.dice.status == "online"

        with caplog.at_level(logging.WARNING, logger="hal"):
            run(main())
    faults = [r.getMessage() for r in caplog.records if "fault" in r.getMessage()]
    assert faults == ["dice module: the firmware reported a fault (MemoryError) and carried on"]
    assert no_tracebacks(caplog)
