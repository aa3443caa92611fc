"""The dice module's firmware, run under CPython: its wire format, its
behaviour on the table, the fairness of its dice, and its deployment."""
import math
import os
import stat

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware import deploy, dice, module, protocol

# --- helpers ------------------------------------------------------------------


class Box:
    """A module on the bench: bytes in, the lines it answers out."""

    def __init__(self, animation_ms=0, rng=os.urandom):
        self.out = b""
        self.shown = []
        self.sounds = []
        self.module = module.Module(
            dice.Dice(rng), self._write, self.shown.append, self.sounds.append,
            board="e6614c311b7e8a2f", animation_ms=animation_ms,
        )
        self.module.start()
        self.take()

    def _write(self, data):
        assert isinstance(data, bytes)
        self.out += data

    def send(self, data, now=0):
        self.module.receive(data, now)
        return self.take()

    def take(self):
        lines, self.out = self.out.decode("ascii").splitlines(), b""
        return lines


def replies(lines):
    return [protocol.parse_reply(line) for line in lines]


def chi_square_p_7(x):
    """P(chi-square with 7 degrees of freedom >= x): the regularized upper
    gamma function Q(7/2, x/2), exact for half-integer shape: it starts at
    Q(1/2, y) = erfc(sqrt y) and climbs with Q(a+1, y) = Q(a, y) + y^a e^-y / Gamma(a+1)."""
    y = x / 2
    q = math.erfc(math.sqrt(y))
    for a in (0.5, 1.5, 2.5):
        q += y**a * math.exp(-y) / math.gamma(a + 1)
    return q


# --- the wire format ----------------------------------------------------------


@pytest.mark.parametrize("line, parsed", [
    (protocol.hello(), ("HELLO",)),
    (protocol.roll(1, 2, 8), ("ROLL", 1, 2, 8)),
    (protocol.roll(99999999, 4, 20), ("ROLL", 99999999, 4, 20)),
    (protocol.roll(42, 1, 2), ("ROLL", 42, 1, 2)),
    (protocol.arm(3, 6), ("ARM", 3, 6)),
    (protocol.repl(), ("REPL",)),
])
def test_host_commands_round_trip(line, parsed):
    assert line.endswith("\n") and len(line) <= protocol.MAX_LINE
    assert protocol.parse_command(line.rstrip("\n")) == parsed


@pytest.mark.parametrize("line, parsed", [
    (protocol.hello_reply("1.0.0", "e6614c311b7e8a2f"), ("HELLO", 1, "1.0.0", "e6614c311b7e8a2f")),
    (protocol.result(7, [3, 8]), ("RESULT", 7, (3, 8))),
    (protocol.result(99999999, [20, 20, 20, 20]), ("RESULT", 99999999, (20, 20, 20, 20))),
    (protocol.armed(4, 20), ("ARMED", 4, 20)),
    (protocol.button(2, 8, [1, 8]), ("BUTTON", 2, 8, (1, 8))),
    (protocol.error(5, protocol.RANGE), ("ERR", 5, "out-of-range")),
    (protocol.error(None, protocol.UNKNOWN), ("ERR", None, "unknown-command")),
    (protocol.bye(), ("BYE",)),
])
def test_module_replies_round_trip(line, parsed):
    assert line.endswith("\n") and len(line) <= protocol.MAX_LINE
    assert protocol.parse_reply(line.rstrip("\n")) == parsed


@pytest.mark.parametrize("line, reason", [
    ("", protocol.MALFORMED),
    ("ROLL", protocol.MALFORMED),
    ("ROLL 1", protocol.MALFORMED),
    ("ROLL one 2d8", protocol.MALFORMED),
    ("ROLL 123456789 2d8", protocol.MALFORMED),
    ("ROLL 1 2d8 2d8", protocol.MALFORMED),
    ("ROLL 1 2x8", protocol.MALFORMED),
    ("ROLL 1 2d", protocol.MALFORMED),
    ("ROLL 1 d8", protocol.MALFORMED),
    ("ROLL 1 -2d8", protocol.MALFORMED),
    ("ROLL 1 2d99999999999", protocol.MALFORMED),
    ("ARM", protocol.MALFORMED),
    ("HELLO there", protocol.MALFORMED),
    ("ROLL 1 5d8", protocol.RANGE),
    ("ROLL 1 0d8", protocol.RANGE),
    ("ROLL 1 2d1", protocol.RANGE),
    ("ROLL 1 2d21", protocol.RANGE),
    ("ARM 1d99", protocol.RANGE),
    ("SHAKE 2d8", protocol.UNKNOWN),
    ("RESULT 1 3 4", protocol.UNKNOWN),
])
def test_commands_that_are_not_protocol_say_why(line, reason):
    with pytest.raises(protocol.ProtocolError) as e:
        protocol.parse_command(line)
    assert e.value.reason == reason


@pytest.mark.parametrize("line, reason, id", [
    ("RESULT 3", protocol.MALFORMED, None),
    ("RESULT 3 1 2 3 4 5", protocol.MALFORMED, None),
    ("RESULT 3 21", protocol.RANGE, 3),
    ("RESULT 3 0", protocol.RANGE, 3),
    ("RESULT 3 x", protocol.MALFORMED, 3),
    ("BUTTON 2d8 9 1", protocol.RANGE, None),
    ("BUTTON 2d8 1", protocol.MALFORMED, None),
    ("HELLO 1 1.0.0", protocol.MALFORMED, None),
    ("ERR 3", protocol.MALFORMED, None),
    ("Traceback (most recent call last):", protocol.UNKNOWN, None),
    (">>> ", protocol.UNKNOWN, None),
])
def test_replies_that_are_not_protocol_are_refused(line, reason, id):
    with pytest.raises(protocol.ProtocolError) as e:
        protocol.parse_reply(line)
    assert (e.value.reason, e.value.id) == (reason, id)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=80))
def test_no_text_breaks_the_parsers(text):
    for parse in (protocol.parse_command, protocol.parse_reply):
        try:
            parse(text)
        except protocol.ProtocolError:
            pass


# --- the module's behaviour -----------------------------------------------------


def test_module_greets_on_power_on_and_on_request():
    out = []
    box = module.Module(dice.Dice(os.urandom), out.append, board="e6614c311b7e8a2f")
    box.start()
    assert out == [b"HELLO 1 1.1.0 e6614c311b7e8a2f\n"]
    assert box.display == " - -    "  # armed 2d8, nothing rolled yet
    bench = Box()
    assert bench.send(b"HELLO\n") == ["HELLO 1 %s e6614c311b7e8a2f" % module.FIRMWARE]


def test_roll_answers_with_the_request_id_and_dice_in_range():
    box = Box()
    for id, (count, sides) in enumerate([(1, 2), (2, 8), (3, 12), (4, 20)], start=10):
        [(word, got_id, values)] = replies(box.send(protocol.roll(id, count, sides).encode()))
        assert (word, got_id, len(values)) == ("RESULT", id, count)
        assert all(1 <= v <= sides for v in values)
        assert box.module.display == module.readout(values)


def test_rolling_animation_then_the_result_is_held():
    box = Box(animation_ms=module.ANIMATION_MS)
    assert box.send(b"ROLL 1 2d8\n", now=1000) == []
    tumbling = len(box.shown)
    for now in range(1000, 1000 + module.ANIMATION_MS, 10):
        box.module.tick(now)
        assert box.take() == []
    assert len(box.shown) - tumbling >= module.ANIMATION_MS // module.FRAME_MS - 1
    assert box.module.wake_in(1000 + module.ANIMATION_MS - 1) == 1
    box.module.tick(1000 + module.ANIMATION_MS)
    [(_, _, values)] = replies(box.take())
    assert box.module.display == module.readout(values)
    assert box.sounds[-1] == "done" and "tick" in box.sounds
    box.module.tick(1000 + 10 * module.ANIMATION_MS)
    assert box.module.display == module.readout(values)
    assert box.module.wake_in(99999) is None


def test_rolls_queue_behind_the_animation_and_the_fifth_is_busy():
    box = Box(animation_ms=module.ANIMATION_MS)
    sent = b"".join(protocol.roll(id, 1, 6).encode() for id in range(1, 6))
    assert box.send(sent, now=0) == ["ERR 5 busy"]
    answered = []
    for step in range(1, 5):
        box.module.tick(step * module.ANIMATION_MS)
        answered += replies(box.take())
    assert [r[1] for r in answered] == [1, 2, 3, 4]


def test_button_rolls_what_was_armed_default_2d8():
    box = Box()
    box.module.press(0)
    [(word, count, sides, values)] = replies(box.take())
    assert (word, count, sides, len(values)) == ("BUTTON", 2, 8, 2)
    assert box.send(b"ARM 3d6\n") == ["ARMED 3d6"]
    box.module.press(1)
    [(word, count, sides, values)] = replies(box.take())
    assert (word, count, sides, len(values)) == ("BUTTON", 3, 6, 3)
    assert all(1 <= v <= 6 for v in values)


def test_arming_before_any_roll_shows_the_dice_to_come():
    box = Box()
    box.send(b"ARM 4d6\n")
    assert box.module.display == " - - - -"


def test_button_is_ignored_while_dice_are_rolling():
    box = Box(animation_ms=module.ANIMATION_MS)
    box.send(b"ROLL 1 2d8\n", now=0)
    box.module.press(100)
    box.module.tick(module.ANIMATION_MS)
    assert [r[0] for r in replies(box.take())] == ["RESULT"]
    box.module.tick(10 * module.ANIMATION_MS)
    assert box.take() == []


@pytest.mark.parametrize("sent, answer", [
    (b"SHAKE 2d8\n", "ERR - unknown-command"),
    (b"ROLL 7 5d8\n", "ERR 7 out-of-range"),
    (b"ROLL 7 2d30\n", "ERR 7 out-of-range"),
    (b"ARM 0d6\n", "ERR - out-of-range"),
    (b"ROLL 7 2d8 now\n", "ERR 7 malformed"),
    (b"ROLL seven 2d8\n", "ERR - malformed"),
    (b"ROLL 7 \xe2\x9a\x80\n", "ERR - malformed"),
    (b"ROLL 7\x002d8\n", "ERR - malformed"),
])
def test_bad_commands_get_an_error_with_a_reason(sent, answer):
    box = Box()
    assert box.send(sent) == [answer]
    assert box.send(b"ROLL 8 1d4\n")[0].startswith("RESULT 8 ")


def test_lines_arrive_in_any_pieces_with_either_line_ending():
    box = Box()
    assert box.send(b"RO") == []
    assert box.send(b"LL 3 1d") == []
    [line] = box.send(b"6\r\nhello\n")[:1]
    assert line.startswith("RESULT 3 ")
    assert box.send(b"\n\r\n   \n") == []  # blank lines are no commands


def test_an_over_long_line_is_one_error_and_costs_nothing_else():
    box = Box()
    assert box.send(b"A" * 50) == []
    assert box.send(b"B" * 5000) == []
    assert box.send(b"C\nROLL 4 1d6\n")[0] == "ERR - malformed"
    assert box.send(b"x" * protocol.MAX_LINE + b"\n") == ["ERR - malformed"]
    assert box.send(b"ROLL 4 1d6\n")[0].startswith("RESULT 4 ")


def test_repl_command_ends_the_loop_and_nothing_more_is_said():
    box = Box()
    assert box.send(b"REPL\nHELLO\n") == ["BYE"]
    assert not box.module.running
    box.module.press(0)
    assert box.send(b"ROLL 1 2d8\n") == []


@settings(max_examples=200, deadline=None)
@given(st.lists(st.binary(max_size=90), max_size=8))
def test_whatever_the_host_sends_the_module_only_speaks_protocol(chunks):
    box = Box()
    for now, chunk in enumerate(chunks):
        for line in box.send(chunk, now):
            protocol.parse_reply(line)


def test_readout_puts_two_digits_per_die_first_die_left():
    assert module.readout([3, 7]) == " 3 7    "
    assert module.readout([12, 1, 20, 9]) == "12 120 9"
    assert module.readout([None]) == " -      "


def test_debounce_counts_a_bouncing_press_once():
    button = module.Debounce(stable_ms=20)
    levels = [(0, True), (2, False), (3, True), (5, False), (6, True)]  # contacts bounce
    levels += [(t, True) for t in range(7, 200, 5)]  # held
    levels += [(200, False), (202, True), (204, False)]  # bounce on release
    levels += [(t, False) for t in range(205, 300, 5)]
    levels += [(t, True) for t in range(300, 400, 5)]  # a second press
    presses = [t for t, closed in levels if button.update(closed, t)]
    # closed for good from 6 ms: the first look 20 ms later is at 27 ms
    assert presses == [27, 320]


# --- fair dice ---------------------------------------------------------------


class Spent(Exception):
    pass


@pytest.mark.parametrize("sides", range(2, 21))
def test_every_face_gets_exactly_the_same_share_of_random_bytes(sides):
    # Every byte value once, then no more: a fair die throws away the bytes
    # past the last whole multiple of its sides, and shares the rest evenly.
    passes = []

    def every_byte_once(n):
        if passes:
            raise Spent
        passes.append(n)
        return bytes(range(256))

    fair = dice.Dice(every_byte_once, batch=256)
    faces = []
    with pytest.raises(Spent):
        while True:
            faces.append(fair.face(sides))
    kept = 256 - 256 % sides
    assert len(faces) == kept
    assert all(faces.count(face) == kept // sides for face in range(1, sides + 1))


def test_chi_square_p_value_of_the_closed_form():
    # 24.32 is the chi-square critical value for p = 0.001 at 7 degrees of freedom
    assert chi_square_p_7(24.32) == pytest.approx(0.001, rel=0.01)
    assert chi_square_p_7(6.346) == pytest.approx(0.5, rel=0.01)
    assert chi_square_p_7(0.0) == pytest.approx(1.0)


def test_a_million_d8_rolls_from_urandom_pass_chi_square():
    fair = dice.Dice(os.urandom, batch=1 << 16)
    counts = [0] * 9
    for _ in range(250_000):
        for face in fair.roll(4, 8):
            counts[face] += 1
    expected = 1_000_000 / 8
    chi2 = sum((n - expected) ** 2 / expected for n in counts[1:])
    # p > 0.001, i.e. chi2 < 24.32: a fair die fails this once in a thousand runs
    assert chi_square_p_7(chi2) > 0.001, (chi2, counts)


# --- deployment ----------------------------------------------------------------


def test_deploy_without_mpremote_prints_the_install_command_and_exits_2(monkeypatch, capsys):
    monkeypatch.setattr(deploy, "find_mpremote", lambda: None)
    assert deploy.main([]) == 2
    err = capsys.readouterr().err
    assert "-m pip install mpremote" in err


def test_deploy_copies_the_package_boot_and_main_then_resets(monkeypatch, tmp_path, capsys):
    log = tmp_path / "args"
    fake = tmp_path / "mpremote"
    fake.write_text(f'#!/bin/sh\nfor a in "$@"; do echo "$a"; done > {log}\n')
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setattr(deploy, "find_mpremote", lambda: str(fake))
    assert deploy.main(["--port", "/dev/ttyACM0"]) == 0
    args = log.read_text().splitlines()
    assert args[:2] == ["connect", "/dev/ttyACM0"]
    copies = {args[i + 2]: args[i + 1] for i, a in enumerate(args) if a == "cp"}
    assert set(copies) == {":firmware/__init__.py", ":firmware/protocol.py", ":firmware/dice.py",
                           ":firmware/module.py", ":firmware/watchdog.py", ":boot.py", ":main.py"}
    assert all(os.path.isfile(src) for src in copies.values())
    assert copies[":main.py"].endswith(os.path.join("firmware", "main.py"))
    # boot.py is copied before main.py: a main.py that starts the watchdog
    # never runs without the boot.py that keeps feeding it at the REPL
    assert list(copies).index(":boot.py") < list(copies).index(":main.py")
    assert args[-1] == "reset"


# --- main.py: faults do not leave the module at the REPL (issue 18, item 7) ---------


class FakeBoard:
    """The parts of ``machine``, ``select``, ``time`` and ``sys`` main.py
    uses, as one Pico: bytes from the host go in, what it writes comes out."""

    class Reset(Exception):
        pass

    def __init__(self, host=(), button_fails=lambda n: False):
        self.later = list(host)  # (ms, bytes): what the host sends when
        self.host = bytearray()
        self.out = bytearray()
        self.reads = 0
        self.button_fails = button_fails
        self.timers = []
        self.fed = 0
        self.ms = 0
        board = self

        class Pin:
            IN, OUT, PULL_UP = 0, 1, 2

            def __init__(self, *args, **kwargs):
                pass

            def value(self, *args):
                board.reads += 1
                if not args and board.button_fails(board.reads):
                    raise OSError(5, "EIO")
                return 1

        class Any:
            def __init__(self, *args, **kwargs):
                pass

            def __getattr__(self, name):
                return lambda *args, **kwargs: None

        class WDT:
            def __init__(self, timeout):
                assert timeout <= 8388  # the RP2040's longest

            def feed(self):
                board.fed += 1

        class Timer(Any):
            PERIODIC = 1

            def __init__(self, *args, **kwargs):
                board.timers.append(kwargs)

        def reset():
            raise FakeBoard.Reset()

        self.machine = type("machine", (), dict(Pin=Pin, SPI=Any, PWM=Any, WDT=WDT, Timer=Timer,
                                                unique_id=staticmethod(lambda: b"\xe6\x61"),
                                                reset=staticmethod(reset)))

        class Poll:
            def register(self, *args):
                pass

            def poll(self, ms):
                board.ms += 1  # a turn of the loop takes a millisecond
                while board.later and board.later[0][0] <= board.ms:
                    board.host += board.later.pop(0)[1]
                return [1] if board.host else []

        class Stream:
            class buffer:
                @staticmethod
                def read(n):
                    data = bytes(board.host[:n])
                    del board.host[:n]
                    return data

                @staticmethod
                def write(data):
                    board.out.extend(data)

        self.select = type("select", (), dict(poll=Poll, POLLIN=1))
        self.stream = Stream

    def run(self, monkeypatch):
        import runpy
        import sys
        import time

        monkeypatch.setitem(sys.modules, "machine", self.machine)
        monkeypatch.setitem(sys.modules, "select", self.select)
        monkeypatch.delitem(sys.modules, "firmware.watchdog", raising=False)  # a fresh one, on this board
        monkeypatch.setattr(time, "ticks_ms", lambda: self.ms, raising=False)
        monkeypatch.setattr(time, "ticks_diff", lambda a, b: a - b, raising=False)
        monkeypatch.setattr(sys, "stdin", self.stream)
        monkeypatch.setattr(sys, "stdout", self.stream)
        runpy.run_path(os.path.join(os.path.dirname(module.__file__), "main.py"))

    @property
    def lines(self):
        return self.out.decode("ascii").splitlines()


def test_item7_a_fault_in_the_loop_is_reported_and_the_loop_goes_on(monkeypatch):
    pico = FakeBoard([(10, b"ROLL 1 2d8\n"), (2000, b"REPL\n")], button_fails=lambda n: n == 300)
    pico.run(monkeypatch)
    words = [line.split()[0] for line in pico.lines]
    assert words == ["HELLO", "FAULT", "RESULT", "BYE"]
    assert pico.lines[1] == "FAULT OSError"
    assert pico.fed > 0  # the loop fed the watchdog itself
    # at the REPL a timer feeds it, so the REPL and mpremote keep the board
    assert pico.timers[-1]["period"] <= 8000 // 2


def test_item7_faults_without_end_reset_the_board_after_five(monkeypatch):
    pico = FakeBoard(button_fails=lambda n: True)
    with pytest.raises(FakeBoard.Reset):
        pico.run(monkeypatch)
    assert pico.lines == ["HELLO 1 %s e661" % module.FIRMWARE] + ["FAULT OSError"] * module.FAULTS


def test_item7_a_fault_line_is_one_word_and_short_whatever_the_exception_is_called():
    assert protocol.fault("MemoryError") == "FAULT MemoryError\n"
    long = protocol.fault("x" * 200 + " -\n")
    assert len(long) <= protocol.MAX_LINE and protocol.parse_reply(long.rstrip("\n"))[0] == "FAULT"
    assert protocol.fault("") == "FAULT unknown\n"
