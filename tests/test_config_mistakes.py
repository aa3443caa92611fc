"""Issue 25 item 9: ``referee check-config`` says every mistake of a file in
one run, with the key a misspelt one is closest to; refuses a web port the
unprivileged service cannot bind and a phone address without a scheme; and
``referee doctor`` warns when phones are sent to a loopback address."""
from __future__ import annotations

import html
import os
import socket
import subprocess
import sys
import tomllib
import urllib.request
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_clock_steps_process import START_SECONDS, Box

from referee.config import ConfigError, parse
from referee.config_text import readable
from referee.tools import doctor

FOUR_MISTAKES = """\
lang = "en"
[display.main]
driver = "i2c"
[keypad]
rowz = [5, 6, 13, 19]
[web]
port = 80
public_url = "referee.local:8080"
"""


def referee(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "referee.cli", *args], capture_output=True, text=True, timeout=60)


def test_check_config_names_all_four_mistakes_of_a_file_in_one_run(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text(FOUR_MISTAKES)
    done = referee("check-config", str(path))
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [
        "referee: config.toml: line 2: display: unknown key; did you mean `displays`?",
        "referee: config.toml: line 5: keypad.rowz: unknown key; did you mean `rows`?",
        "referee: config.toml: line 7: web.port: 80 needs root, which the service does not have: "
        "choose 1024-65535, e.g. 8080",
        "referee: config.toml: line 8: web.public_url: 'referee.local:8080' does not start with http:// or https://, "
        'so phones cannot open it; e.g. "http://referee.local:8080"',
    ]


def test_the_fixed_file_is_fine(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text(FOUR_MISTAKES.replace("[display.", "[displays.").replace("rowz", "rows")
                    .replace("80\n", "8080\n").replace('"referee.local', '"http://referee.local'))
    done = referee("check-config", str(path))
    assert (done.returncode, done.stdout.strip()) == (0, f"{path}: fine"), done.stderr


@pytest.mark.parametrize("raw, said", [
    ({"keypad": {"colz": [12, 16, 20, 21]}}, "keypad.colz: unknown key; did you mean `cols`?"),
    ({"buzer": {}}, "buzer: unknown key; did you mean `buzzer`?"),
    ({"zzz": 1}, "zzz: unknown key; the keys here are lang, teach, database, keypad, buzzer, displays, dice, "
                 "web, sim, club, ladder, osmisifry"),
    ({"web": {"port": 1023}}, "web.port: 1023 needs root, which the service does not have: "
                              "choose 1024-65535, e.g. 8080"),
    ({"web": {"public_url": "ftp://box/"}}, "web.public_url: 'ftp://box/' does not start with http:// or "
                                            "https://, so phones cannot open it"),
    ({"web": {"public_url": "http://"}}, "web.public_url: 'http://' names no host"),
])
def test_each_refusal_says_why(raw, said):
    with pytest.raises(ConfigError) as info:
        parse(raw)
    assert str(info.value) == f"config.toml: {said}"


def test_mistakes_in_a_table_and_a_clash_between_tables_are_said_together():
    with pytest.raises(ConfigError) as info:
        parse({"keypad": {"team1": 18, "rows": [5, 6]}, "displays": {"main": {"contrast": 300}}})
    assert str(info.value).splitlines() == [
        "config.toml: keypad.rows: needs 4 pins, got 2",
        "config.toml: displays.main.contrast: runs from 0 to 255",
        "config.toml: buzzer.pin: GPIO 18 is already used by keypad.team1",
    ]


@pytest.mark.parametrize("web", [{"host": "127.0.0.1"}, {"host": "::1"}, {"host": "localhost"},
                                 {"public_url": "http://127.0.0.1:8080/"}, {"public_url": "http://localhost/"}])
def test_doctor_warns_that_phones_cannot_open_a_loopback_address(web):
    found = doctor.phones(parse({"web": web}))
    assert found.status == "warn" and found.fix


@pytest.mark.parametrize("web", [{"host": "192.168.1.20"}, {"public_url": "http://referee.local:8080/"}])
def test_doctor_takes_an_address_phones_can_open(web):
    assert doctor.phones(parse({"web": web})).status == "ok"


def test_doctor_on_the_command_line_warns_of_the_default_loopback_host(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text(f'database = "{tmp_path / "referee.db"}"\n[web]\nport = 18089\n')
    done = referee("doctor", "--config", str(path))
    [line] = [line for line in done.stdout.splitlines() if " address: " in line]
    assert line.startswith("warn  address: phones are sent to 127.0.0.1:18089 ([web] host), which only this box")


def test_the_version_is_told_on_stdout_and_looked_up_only_when_asked():
    from importlib.metadata import version
    done = referee("--version")
    assert done.returncode == 0 and done.stdout == f"referee {version('tabletop-referee')}\n"
    # Every other command builds the same parser without reading the
    # package's metadata (importlib.metadata and what it loads, for one line).
    built = subprocess.run([sys.executable, "-c", "import sys; from referee import cli; cli.parser(); "
                            "print('importlib.metadata' in sys.modules)"], capture_output=True, text=True, timeout=60)
    assert built.stdout.split() == ["False"], built.stderr


MISTAKES = '[keypad]\nrowz = [5, 6, 13, 19]\n[buzzer]\npin = 40\n'   # lines 12-15 of the box's file


def test_a_box_with_config_mistakes_plays_and_says_them_on_its_screen_and_the_phones_page(tmp_path):
    box = Box(tmp_path, more=MISTAKES)
    said = ["Config error: line 12: keypad.rowz: unknown key; did you mean `rows`?",
            "Config error: line 14: buzzer.pin: GPIO 40 does not exist (BCM 2-27)",
            f"Mend it in {box.config}"]
    folder, name = os.path.split(box.config)
    try:
        box.start()
        # The panel's three rows for a message: the first mistake's line and
        # the file, broken after its folder.
        assert f"! Config error: line 12. {folder}/ {name}." in box.screen()
        box.get("/api/evening")                       # the web is up
        with urllib.request.urlopen(f"http://127.0.0.1:{box.port}/", timeout=10) as r:
            page = html.unescape(r.read().decode())
        assert all(f"<p>{line}</p>" in page for line in said), page
        box.press("6")                                # the box plays: the table tools
        assert "1:00" in box.screen()
    finally:
        box.stop()
    done = referee("check-config", box.config)
    assert done.returncode == 2
    assert [line.removeprefix("referee: config.toml: ") for line in done.stderr.splitlines()] == \
        [line.removeprefix("Config error: ") for line in said[:2]]


# Lines 10-11 of the box's file: a list left unclosed by a missing comma, and
# a comment that is not UTF-8 (a file saved as Latin-1); the tables above
# them (the web's port, the simulator's socket) are read either way.
NOT_READ = {
    "toml": (b"[keypad]\nrows = [5, 6 13, 19]\n", "not valid TOML: unclosed array at column 14"),
    "utf8": (b"[keypad]\nrows = [5, 6, 13, 19]   # caf\xe9\n", "not UTF-8 text (byte 30 of the line)"),
}


@pytest.mark.parametrize("damage", NOT_READ)
def test_a_box_whose_file_is_not_toml_plays_with_its_other_tables_and_says_the_line(tmp_path, damage):
    box = Box(tmp_path)
    text, problem = NOT_READ[damage]
    with open(box.config, "ab") as f:
        f.write(text)
    said = f"line 12: keypad: {problem}; [keypad] is left at its defaults"
    folder, name = os.path.split(box.config)
    try:
        box.start()                                   # on the file's [sim] socket
        assert f"! Config error: line 12. {folder}/ {name}." in box.screen()
        box.get("/api/evening")                       # on the file's [web] port
        with urllib.request.urlopen(f"http://127.0.0.1:{box.port}/", timeout=10) as r:
            page = html.unescape(r.read().decode())
        assert f"<p>Config error: {said}</p>" in page and f"<p>Mend it in {box.config}</p>" in page, page
        box.press("6")                                # the box plays: the table tools
        assert "1:00" in box.screen()
    finally:
        box.stop()
    done = referee("check-config", box.config)
    assert (done.returncode, done.stderr.splitlines()) == (2, [f"referee: config.toml: {said}"])


def test_a_box_whose_file_cannot_be_read_starts_on_the_defaults_and_says_why(tmp_path):
    config = tmp_path / "config.toml"
    config.mkdir()                                    # root reads any file: a folder is what none can read
    state = tmp_path / "state"
    state.mkdir()
    ready = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    ready.bind(str(tmp_path / "notify.sock"))
    ready.settimeout(START_SECONDS)
    env = {**os.environ, "NOTIFY_SOCKET": str(tmp_path / "notify.sock"), "STATE_DIRECTORY": str(state)}
    script = os.path.join(os.path.dirname(sys.executable), "referee")
    with open(tmp_path / "box.log", "w") as log:
        box = subprocess.Popen([script, "run", "--config", str(config)], env=env, stdin=subprocess.DEVNULL,
                               stdout=log, stderr=log)
    try:
        told = ""
        while "READY=1" not in told:                 # as systemd hears a box that can play
            told += ready.recv(4096).decode()
    finally:
        box.terminate()
        ready.close()
    assert box.wait(10) == 0
    journal = (tmp_path / "box.log").read_text()
    assert f"config: {config}: not a regular file (left at its default)" in journal, journal
    assert (state / "referee.db").exists()            # the score log where the service keeps it
    done = referee("check-config", str(config))
    assert (done.returncode, done.stderr) == (2, f"referee: {config}: not a regular file\n")


def test_a_value_left_open_takes_out_its_own_table_not_the_ones_it_swallowed():
    # The list on line 3 runs on into [keypad]: the parser stops at that
    # sound header (or at the end, for a string), but the fault is [web]'s.
    for opened in ("rows = [1,", 'motto = """open'):
        raw, _, unread = readable(f'[web]\nport = 8081\n{opened}\n[keypad]\ndriver = "gpio"\n'.encode())
        assert raw == {"keypad": {"driver": "gpio"}}
        assert [(u.line, u.table) for u in unread] == [(3, "web")]
        assert unread[0].text.startswith("not valid TOML: a value here is not closed (reading stopped at ")


PI_CONFIG = (Path(__file__).parent.parent / "config.pi.toml").read_bytes()


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, len(PI_CONFIG)), st.sampled_from(list(b'[]"\'=,{}\n#\xff x'))),
                min_size=1, max_size=6))
def test_any_damage_to_the_pi_config_reads_whole_tables_at_the_file_s_own_lines(changes):
    data = bytearray(PI_CONFIG)
    for at, byte in changes:
        data[min(at, len(data) - 1)] = byte
    raw, text, unread = readable(bytes(data))
    assert tomllib.loads(text) == raw and text.count("\n") == data.count(b"\n")
    kept = text.split("\n")
    for number, line in enumerate(bytes(data).split(b"\n")):
        # Each line is the file's own or blanked, never another's.
        assert kept[number] in ("", line.decode("utf-8", "replace"))
    assert all(1 <= u.line <= len(kept) for u in unread)
