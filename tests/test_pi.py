"""The box on a real Raspberry Pi: the pin map, the Pi's configuration, the
real drivers on recorded buses and mock pins, the systemd unit, the install
scripts, and the drawings made from the pin map.
"""
from __future__ import annotations

import asyncio
import importlib.machinery
import importlib.util
import os
import pathlib
import re
import shutil
import signal
import socket
import subprocess
import sys
import tomllib
import xml.etree.ElementTree as ET

import msgspec
import pytest
import smbus2
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPWMPin
from PIL import Image, ImageDraw

from hal.buzzer import Buzzer
from hal.display import Display
from hal.keys import Keys
from hal.sim.pins import SimulatedPins
from referee.box import devices
from referee.box.service import serve
from referee.clock import ManualClock
from referee.config import BUZZER_OCTAVES, DEFAULT_PATH, PINMAP, Config, ConfigError, load, parse, sections
from referee.notify import Watchdog, notify, watchdog_interval
from referee.tools import doctor

ROOT = pathlib.Path(__file__).resolve().parent.parent
UNIT = ROOT / "systemd" / "referee.service"
WEB_UNIT = ROOT / "systemd" / "referee-web.service"
SCRIPTS = [ROOT / "systemd" / "install.sh", ROOT / "systemd" / "uninstall.sh"]

# Facts of the Pi's 40-pin header (BCM GPIO -> physical pin) and its
# peripherals, written out here to check the pin map against.
HEADER_PIN = {2: 3, 3: 5, 4: 7, 17: 11, 27: 13, 22: 15, 10: 19, 9: 21, 11: 23, 0: 27, 5: 29, 6: 31,
              13: 33, 19: 35, 26: 37, 14: 8, 15: 10, 18: 12, 23: 16, 24: 18, 25: 22, 8: 24, 7: 26,
              1: 28, 12: 32, 16: 36, 20: 38, 21: 40}
PIN_3V3, PIN_5V, PIN_GND = {1, 17}, {2, 4}, {6, 9, 14, 20, 25, 30, 34, 39}
I2C1 = {"sda": 2, "scl": 3}
HAT_EEPROM, UART, SPI0 = {0, 1}, {14, 15}, {7, 8, 9, 10, 11}
HARDWARE_PWM = {12, 13, 18, 19}


def pi_config() -> Config:
    return load(str(ROOT / "config.pi.toml"))


def wiring_script():
    spec = importlib.util.spec_from_file_location("wiring_svg", ROOT / "scripts" / "wiring_svg.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# --- the pin map ----------------------------------------------------------------

def pins_in_use() -> dict[str, int]:
    pins = {f"keypad row {i + 1}": p for i, p in enumerate(PINMAP["keypad"]["rows"])}
    pins |= {f"keypad column {i + 1}": p for i, p in enumerate(PINMAP["keypad"]["cols"])}
    pins |= {f"button {name}": p for name, p in PINMAP["buttons"].items()}
    pins["buzzer"] = PINMAP["buzzer"]["pin"]
    for bus, lines in PINMAP["i2c"].items():
        pins |= {f"I2C bus {bus} {line}": lines[line] for line in ("sda", "scl")}
    pins |= {f"SPI {line}": pin for line, pin in PINMAP["spi"].items()}
    return pins


def test_no_pin_is_used_twice():
    pins = pins_in_use()
    twice = {pin for pin in pins.values() if list(pins.values()).count(pin) > 1}
    assert not twice, {name: pin for name, pin in pins.items() if pin in twice}


def test_every_pin_is_a_gpio_on_the_header():
    for name, pin in pins_in_use().items():
        assert pin in HEADER_PIN, name


def test_the_hardware_bus_is_i2c1_at_400_khz():
    bus1 = PINMAP["i2c"]["1"]
    assert {"sda": bus1["sda"], "scl": bus1["scl"]} == I2C1
    assert bus1["hz"] == 400_000


def test_the_software_bus_is_on_two_plain_gpios():
    software = [lines for lines in PINMAP["i2c"].values() if lines.get("overlay") == "i2c-gpio"]
    assert software
    for lines in software:
        assert not {lines["sda"], lines["scl"]} & (HAT_EEPROM | set(I2C1.values()) | UART | SPI0)


def test_the_buzzer_is_on_a_hardware_pwm_pin():
    assert PINMAP["buzzer"]["pin"] in HARDWARE_PWM


def test_keys_and_buttons_keep_off_the_i2c_spi_and_uart_pins():
    taken = HAT_EEPROM | set(I2C1.values()) | UART | SPI0
    for lines in PINMAP["i2c"].values():
        taken |= {lines["sda"], lines["scl"]}
    inputs = [*PINMAP["keypad"]["rows"], *PINMAP["keypad"]["cols"], *PINMAP["buttons"].values()]
    assert not set(inputs) & taken


def test_spi_panels_would_find_spi0_and_two_free_pins():
    spi = PINMAP["spi"]
    assert (spi["mosi"], spi["miso"], spi["sclk"], spi["ce0"], spi["ce1"]) == (10, 9, 11, 8, 7)
    assert not {spi["dc"], spi["reset"]} & (SPI0 | UART | HAT_EEPROM)


def test_each_panel_has_a_bus_an_address_of_its_own_and_power():
    seen = set()
    for name, panel in PINMAP["displays"].items():
        assert str(panel["bus"]) in PINMAP["i2c"], name
        assert panel["address"] in (0x3C, 0x3D), name  # all these panels can answer at
        assert (panel["bus"], panel["address"]) not in seen, name
        seen.add((panel["bus"], panel["address"]))
        assert PINMAP["power"][name]["vcc"] in PIN_3V3, name
        assert PINMAP["power"][name]["gnd"] in PIN_GND, name


def test_the_buzzer_driver_runs_on_5v_and_the_buttons_on_ground():
    assert PINMAP["power"]["buzzer"]["vcc"] in PIN_5V
    assert PINMAP["power"]["buzzer"]["gnd"] in PIN_GND
    assert PINMAP["power"]["buttons"]["gnd"] in PIN_GND


# --- the configuration ------------------------------------------------------------

def test_the_defaults_are_the_pin_map():
    c = Config()
    assert list(c.keypad.rows) == PINMAP["keypad"]["rows"]
    assert list(c.keypad.cols) == PINMAP["keypad"]["cols"]
    assert (c.keypad.team1, c.keypad.team2) == (PINMAP["buttons"]["team1"], PINMAP["buttons"]["team2"])
    assert c.buzzer.pin == PINMAP["buzzer"]["pin"]
    for name, wiring in PINMAP["displays"].items():
        panel = getattr(c.displays, name)
        assert (panel.bus, panel.address) == (wiring["bus"], wiring["address"])
        assert (panel.dc, panel.reset) == (PINMAP["spi"]["dc"], PINMAP["spi"]["reset"])


def test_the_pi_config_selects_the_real_devices_on_the_pin_map():
    c = pi_config()
    assert (c.keypad.driver, c.buzzer.driver, c.dice.driver) == ("gpio", "gpio", "serial")
    assert [getattr(c.displays, n).driver for n in ("main", "team1", "team2")] == ["i2c"] * 3
    assert c.displays.main.controller == "sh1106"
    # The pins are not repeated in the file: they come from the pin map.
    assert (c.keypad, c.buzzer.pin) == (msgspec.structs.replace(Config().keypad, driver="gpio"), Config().buzzer.pin)
    assert (c.displays.team1.bus, c.displays.team1.address) == (1, 0x3D)
    assert (c.displays.team2.bus, c.displays.team2.address) == (3, 0x3C)
    assert c.dice.port.startswith("/dev/serial/by-id/")
    assert c.web.host == "0.0.0.0" and c.web.port > 1023  # the service has no privileges
    assert c.database == ""  # so it goes to $STATE_DIRECTORY


def test_the_pi_config_puts_the_score_log_in_the_state_directory(monkeypatch):
    monkeypatch.setenv("STATE_DIRECTORY", doctor.SERVICE_STATE)
    assert pi_config().database_path == f"{doctor.SERVICE_STATE}/referee.db"


def _keys(struct_type) -> dict:
    out = {}
    for f in msgspec.structs.fields(struct_type):
        out[f.encode_name] = _keys(f.type) if isinstance(f.type, type) and issubclass(f.type, msgspec.Struct) else None
    return out


def _table_keys(table: dict) -> dict:
    return {k: _table_keys(v) if isinstance(v, dict) else None for k, v in table.items()}


def _config_keys() -> dict:
    """Every key of the file: the house's tables and each game's section."""
    house = {key: found for key, found in _keys(Config).items() if key not in Config.BUILT}
    return house | {name: _keys(module.Section) for name, module in sections().items()}


def test_the_example_config_lists_every_key_at_its_default():
    path = ROOT / "config.example.toml"
    assert load(str(path)) == Config()
    with open(path, "rb") as f:
        assert _table_keys(tomllib.load(f)) == _config_keys()


def test_a_panel_named_only_by_its_driver_keeps_its_wiring():
    c = parse({"displays": {"team1": {"driver": "i2c"}, "team2": {"driver": "i2c"}}})
    assert (c.displays.team1.bus, c.displays.team1.address) == (1, 0x3D)
    assert (c.displays.team2.bus, c.displays.team2.address) == (3, 0x3C)


@pytest.mark.parametrize("raw, message", [
    ({"displays": {"team2": {"driver": "i2c"}}, "keypad": {"rows": [17, 6, 13, 19]}},
     "keypad.rows[0]: GPIO 17 is already used by I2C bus 3"),
    ({"displays": {"main": {"driver": "i2c"}}, "buzzer": {"pin": 3}},
     "buzzer.pin: GPIO 3 is already used by I2C bus 1"),
    ({"displays": {"main": {"driver": "spi", "bus": 0}}, "keypad": {"cols": [12, 16, 20, 8]}},
     "keypad.cols[3]: GPIO 8 is already used by SPI0"),
    ({"displays": {"main": {"driver": "i2c"}, "team1": {"driver": "i2c", "address": 0x3C}}},
     "displays.team1.address: 0x3c on I2C bus 1 is already displays.main's address"),
])
def test_a_real_device_config_refuses_wiring_that_cannot_work(raw, message):
    with pytest.raises(ConfigError) as info:
        parse(raw)
    assert str(info.value) == f"config.toml: {message}"


def test_panels_on_one_bus_share_its_pins():
    c = parse({"displays": {n: {"driver": "i2c"} for n in ("main", "team1", "team2")}})
    assert c.displays.main.bus == c.displays.team1.bus


# --- the real drivers, on recorded buses and mock pins ---------------------------------

class FakeSMBus:
    """Stands in for smbus2.SMBus: every I2C write as (address, control
    byte, payload).  Control byte 0x00 carries commands, 0x40 pixels."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.sent: list[tuple[int, int, bytes]] = []

    def write_i2c_block_data(self, address, control, data) -> None:
        self.sent.append((address, control, bytes(data)))

    def i2c_rdwr(self, *messages) -> None:
        for m in messages:
            raw = bytes(m)
            self.sent.append((m.addr, raw[0], raw[1:]))

    def commands(self) -> bytes:
        return b"".join(payload for _, control, payload in self.sent if control == 0x00)

    def pixels(self) -> bytes:
        return b"".join(payload for _, control, payload in self.sent if control == 0x40)


@pytest.fixture
def buses(monkeypatch):
    """The I2C buses the Pi config's panels open, by port number."""
    opened: dict[int, FakeSMBus] = {}
    monkeypatch.setattr(smbus2, "SMBus", lambda port: opened.setdefault(port, FakeSMBus(port)))
    return opened


def pi_panel(name: str) -> Display:
    cfg = getattr(pi_config().displays, name)
    make = devices.panel_factory(cfg, {}, name)  # how the service makes it
    return Display(name, make, ManualClock().call_later, cfg.controller)


def _in_order(stream: bytes, *steps: bytes) -> bool:
    at = 0
    for step in steps:
        at = stream.find(step, at)
        if at < 0:
            return False
        at += len(step)
    return True


def test_ssd1306_panels_get_the_init_sequence_of_a_128x64_panel_at_their_address(buses):
    panel = pi_panel("team1")
    assert panel.online
    bus = buses[1]
    assert {address for address, _, _ in bus.sent} == {0x3D}
    commands = bus.commands()
    assert commands[0] == 0xAE  # dark while it is set up
    # The datasheet's start-up: 64 rows multiplexed, no offset, COM pins in
    # the alternative layout of the 128x64 modules, the charge pump on (the
    # modules run from 3.3 V), and only then the display on.
    for setting in (b"\xa8\x3f", b"\xd3\x00", b"\xda\x12", b"\x8d\x14"):
        assert _in_order(commands, setting, b"\xaf"), setting.hex()
    assert _in_order(commands, b"\x81" + bytes([pi_config().displays.team1.contrast]))


def test_ssd1306_panels_are_sent_only_the_columns_that_changed(buses):
    panel = pi_panel("team2")
    bus = buses[3]
    del bus.sent[:]
    picture = Image.new("1", (128, 64))
    ImageDraw.Draw(picture).rectangle((10, 16, 20, 23), fill=1)  # page 2, columns 10-20
    panel.show(picture)
    assert bus.commands() == bytes([0x21, 10, 20, 0x22, 2, 2])
    assert bus.pixels() == b"\xff" * 11
    assert {address for address, _, _ in bus.sent} == {0x3C}


def test_sh1106_panels_get_their_init_sequence_and_page_writes_two_columns_in(buses):
    panel = pi_panel("main")
    bus = buses[1]
    commands = bus.commands()
    assert commands[0] == 0xAE
    for setting in (b"\xa8\x3f", b"\xda\x12"):
        assert _in_order(commands, setting, b"\xaf"), setting.hex()
    del bus.sent[:]
    picture = Image.new("1", (128, 64))
    picture.putpixel((0, 63), 1)  # page 7, column 0: the panel's column 2
    panel.show(picture)
    assert bus.commands() == bytes([0xB7, 0x02, 0x10])
    assert bus.pixels() == b"\x80"
    assert {address for address, _, _ in bus.sent} == {0x3C}


def test_the_keypad_and_team_buttons_work_on_the_pi_configs_pins():
    c = pi_config()
    pins = SimulatedPins(c.keypad.rows, c.keypad.cols, {"team1": c.keypad.team1, "team2": c.keypad.team2})
    clock, loop, heard = ManualClock(), asyncio.new_event_loop(), []
    clock.settle = lambda: loop.run_until_complete(asyncio.sleep(0))
    keys = Keys(c.keypad.rows, c.keypad.cols, {"team1": c.keypad.team1, "team2": c.keypad.team2},
                clock, lambda event: heard.append((event.key, event.kind)), pin_factory=pins.factory)
    keys.start(loop)
    try:
        for key in ("5", "D", "team2"):
            for down in (True, False):
                pins.set(key, down)
                clock.settle()  # the pin callbacks reach the loop
                clock.advance(0.1)
    finally:
        keys.close()
        loop.close()
    assert heard == [("5", "press"), ("D", "press"), ("team2", "press")]


def test_the_buzzer_plays_its_tones_on_the_pi_configs_pin():
    c = pi_config()
    factory = MockFactory(pin_class=MockPWMPin)
    clock = ManualClock()
    buzzer = Buzzer(c.buzzer.pin, clock, c.buzzer.band, BUZZER_OCTAVES, pin_factory=factory)
    pin = factory.pin(c.buzzer.pin)
    buzzer.play("error")  # the band's low edge
    assert pin.frequency == pytest.approx(c.buzzer.band[0]) and pin.state > 0
    clock.advance(0.2)
    assert pin.state == 0
    buzzer.close()


def test_the_pi_config_builds_every_device_and_a_missing_panel_is_only_offline(monkeypatch):
    # No Pi here: gpiozero's default pin library is a mock, and no
    # /dev/i2c-* or Pico exists, which must not stop the box.
    monkeypatch.setattr(Device, "pin_factory", MockFactory(pin_class=MockPWMPin))
    monkeypatch.setattr(smbus2, "SMBus", _no_such_bus)
    built = devices.build(pi_config(), ManualClock(), lambda event: None)
    try:
        assert set(built.displays) == {"main", "team1", "team2"}
        assert not any(d.online for d in built.displays.values())
        assert built.dice.status == "offline" and built.buzzer is not None
        assert built.pins is None  # nothing simulated
    finally:
        built.close()


def _no_such_bus(port):
    raise FileNotFoundError(2, "No such file or directory", f"/dev/i2c-{port}")


# --- systemd ---------------------------------------------------------------------------

def unit(path: pathlib.Path = UNIT) -> dict[str, list[str]]:
    """The unit's settings; keys that repeat keep every value."""
    settings: dict[str, list[str]] = {}
    for line in path.read_text().splitlines():
        if line and not line.startswith(("#", "[")):
            key, _, value = line.partition("=")
            settings.setdefault(key, []).append(value)
    return settings


def test_the_unit_runs_the_installed_box_as_its_user():
    u = unit()
    assert u["ExecStart"] == [f"/opt/referee/venv/bin/referee run --config {DEFAULT_PATH}"]
    assert u["User"] == [doctor.SERVICE]
    assert u["StateDirectory"] == [os.path.basename(doctor.SERVICE_STATE)]


def test_the_unit_is_watched_and_restarted():
    u = unit()
    assert u["Type"] == ["notify"] and u["Restart"] == ["on-failure"]
    assert int(u["WatchdogSec"][0]) > 0
    assert u["RestartPreventExitStatus"] == ["2"]  # what the CLI returns for a bad config


def test_the_unit_lets_the_service_reach_its_devices_and_no_others():
    u = unit()
    assert u["DevicePolicy"] == ["closed"]
    assert {rule.split()[0] for rule in u["DeviceAllow"]} == {"char-gpiochip", "char-i2c", "char-spi", "char-ttyACM"}
    assert "PrivateDevices" not in u
    # gpiozero reads the board's revision from /proc/device-tree or /proc/cpuinfo.
    assert "ProcSubset" not in u
    # lgpio makes its notification pipes in $LG_WD: it must be writable.
    assert "LG_WD=%t/referee" in u["Environment"] and u["RuntimeDirectory"] == ["referee"]


def tool(command: str, package: str) -> str:
    """The path of ``command``, installing its Debian package when root."""
    if shutil.which(command) is None and os.geteuid() == 0:
        for step in (["apt-get", "install", "-y", "-qq", package], ["apt-get", "update", "-qq"],
                     ["apt-get", "install", "-y", "-qq", package]):
            subprocess.run(step, check=False, capture_output=True,
                           env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"})
            if shutil.which(command):
                break
    if shutil.which(command) is None:
        pytest.skip(f"{command} is missing and only root can install it (apt-get install {package})")
    return shutil.which(command)


def systemd_analyze() -> str:
    return tool("systemd-analyze", "systemd")


@pytest.mark.parametrize("path", [UNIT, WEB_UNIT], ids=lambda p: p.name)
def test_systemd_accepts_the_unit(tmp_path, path):
    # verify wants the program to exist; on this machine the box is not installed.
    text = path.read_text().replace("ExecStart=/opt/referee/venv/bin/referee",
                                    f"ExecStart={sys.executable} -m referee.cli")
    (tmp_path / path.name).write_text(text)
    done = subprocess.run([systemd_analyze(), "verify", str(tmp_path / path.name)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0 and done.stderr == "", done.stderr


@pytest.mark.parametrize("path", [UNIT, WEB_UNIT], ids=lambda p: p.name)
def test_each_units_sandbox_scores_at_most_2_0(path):
    done = subprocess.run([systemd_analyze(), "security", "--offline=yes", str(path)],
                          capture_output=True, text=True, check=False)
    score = re.search(rf"Overall exposure level for {re.escape(path.name)}: ([0-9.]+)", done.stdout)
    assert score, done.stdout + done.stderr
    assert float(score.group(1)) <= 2.0


def test_the_box_has_no_network_and_the_web_no_device():
    box, web = unit(UNIT), unit(WEB_UNIT)
    assert box["IPAddressDeny"] == ["any"] and "IPAddressAllow" not in box
    assert set(box["RestrictAddressFamilies"][0].split()) == {"AF_UNIX", "AF_NETLINK"}
    assert web["PrivateDevices"] == ["yes"] and web["DevicePolicy"] == ["closed"] and "DeviceAllow" not in web
    assert "AF_INET" in web["RestrictAddressFamilies"][0].split()


def test_the_web_runs_apart_comes_back_by_itself_and_yields_the_cpu_to_the_box():
    box, web = unit(UNIT), unit(WEB_UNIT)
    assert web["ExecStart"] == [f"/opt/referee/venv/bin/referee web --config {DEFAULT_PATH}"]
    assert web["User"] == box["User"] and web["StateDirectory"] == box["StateDirectory"]   # the same score log
    assert web["Restart"] == ["always"] and web["Type"] == ["notify"] and int(web["WatchdogSec"][0]) > 0
    assert int(web["CPUWeight"][0]) < int(box["CPUWeight"][0])
    assert int(web.get("Nice", ["0"])[0]) > int(box.get("Nice", ["0"])[0])


def test_the_webs_descriptors_outnumber_its_connections():
    from referee.web import guard
    assert int(unit(WEB_UNIT)["LimitNOFILE"][0]) >= 2 * guard.MOST_CONNECTIONS + 64


def test_the_installer_installs_and_the_uninstaller_removes_both_units():
    for script in SCRIPTS:
        text = script.read_text()
        assert re.search(r'UNITS="[^"]*\breferee\b[^"]*"', text) and "referee-web" in text, script.name


def test_the_box_runs_with_memory_deny_write_execute():
    # MemoryDenyWriteExecute= forbids memory both writable and executable.
    # Linux 6.3+ offers the same rule to one process (PR_SET_MDWE): start the
    # whole box under it, on simulated devices.
    code = """
import ctypes, sys
if ctypes.CDLL(None, use_errno=True).prctl(65, 1, 0, 0, 0) != 0:
    sys.exit(3)
import mmap
try:
    mmap.mmap(-1, 4096, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
    sys.exit(4)
except OSError:
    pass
import smbus2, serial, aiohttp, psutil
from referee.testing import Table
with Table(seed=1) as t:
    t.press("1")
print(t.screen("main").splitlines()[0])
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=False)
    if done.returncode == 3:
        pytest.skip("this kernel cannot apply the rule to one process (PR_SET_MDWE needs Linux 6.3)")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip()


# --- sd_notify ------------------------------------------------------------------------

@pytest.fixture
def systemd_socket(tmp_path, monkeypatch):
    path = str(tmp_path / "notify")
    s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    s.bind(path)
    s.setblocking(False)
    monkeypatch.setenv("NOTIFY_SOCKET", path)
    yield s
    s.close()


def _heard(s: socket.socket) -> list[str]:
    out = []
    while True:
        try:
            out.append(s.recv(4096).decode())
        except BlockingIOError:
            return out


def test_notify_tells_systemd_in_one_datagram(systemd_socket):
    assert notify("READY=1", "STATUS=ready")
    assert _heard(systemd_socket) == ["READY=1\nSTATUS=ready"]


def test_notify_reaches_an_abstract_socket(monkeypatch):
    name = f"referee-test-{os.getpid()}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as s:
        s.bind("\0" + name)
        monkeypatch.setenv("NOTIFY_SOCKET", "@" + name)
        assert notify("WATCHDOG=1")
        assert s.recv(64) == b"WATCHDOG=1"


def test_notify_outside_systemd_does_nothing(monkeypatch):
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    assert not notify("READY=1")


def test_notify_to_a_socket_gone_is_logged_not_raised(tmp_path, monkeypatch, caplog):
    monkeypatch.setenv("NOTIFY_SOCKET", str(tmp_path / "gone"))
    assert not notify("READY=1")
    assert "cannot tell systemd READY=1" in caplog.text


def test_the_watchdog_interval_is_half_of_watchdogsec():
    assert watchdog_interval({"WATCHDOG_USEC": "30000000"}) == 15.0
    assert watchdog_interval({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "1"}, pid=2) is None
    assert watchdog_interval({"WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "2"}, pid=2) == 15.0
    assert watchdog_interval({}) is None


def test_the_watchdog_beats_on_the_clock_until_stopped():
    clock, said = ManualClock(), []
    dog = Watchdog(clock, 15.0, send=said.append)
    dog.start()
    clock.advance(45.0)
    assert said == ["WATCHDOG=1"] * 4
    dog.stop()
    clock.advance(60.0)
    assert len(said) == 4


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_the_service_says_ready_beats_from_its_loop_and_says_stopping(systemd_socket, tmp_path, monkeypatch):
    monkeypatch.setenv("WATCHDOG_USEC", "30000000")
    monkeypatch.delenv("WATCHDOG_PID", raising=False)
    config = parse({"database": str(tmp_path / "referee.db"), "dice": {"driver": "software"},
                    "web": {"port": _free_port()}})
    clock = ManualClock()

    async def evening():
        running = asyncio.create_task(serve(config, clock))
        said: list[str] = []
        for _ in range(1000):
            await asyncio.sleep(0)
            said += _heard(systemd_socket)
            if said:
                break
        assert said[0].startswith("READY=1\nSTATUS=ready: 3 of 3 displays answering")
        assert (tmp_path / "referee.db").exists()  # the store was up before READY
        clock.advance(15.0)
        clock.advance(15.0)
        said += _heard(systemd_socket)
        os.kill(os.getpid(), signal.SIGTERM)
        await asyncio.wait_for(running, 5)
        return said + _heard(systemd_socket)

    said = asyncio.run(evening())
    assert said == [said[0], "WATCHDOG=1", "WATCHDOG=1", "WATCHDOG=1", "STOPPING=1"]


# --- the install scripts ------------------------------------------------------------

def test_the_install_scripts_pass_shellcheck():
    done = subprocess.run([tool("shellcheck", "shellcheck"), *map(str, SCRIPTS)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout


@pytest.mark.parametrize("script, says", [
    ("install.sh", ["/opt/referee/venv", "/etc/referee/config.toml", "--no-boot-config"]),
    ("uninstall.sh", ["--purge", "/var/lib/referee"]),
])
def test_the_install_scripts_explain_themselves(script, says):
    path = str(ROOT / "systemd" / script)
    done = subprocess.run(["sh", path, "--help"], capture_output=True, text=True, check=False)
    assert done.returncode == 0
    for words in says:
        assert words in done.stdout
    wrong = subprocess.run(["sh", path, "--frobnicate"], capture_output=True, text=True, check=False)
    assert wrong.returncode == 2 and "Usage:" in wrong.stderr


def test_the_install_scripts_stop_at_the_first_error():
    for path in SCRIPTS:
        lines = path.read_text().splitlines()
        assert lines[0] == "#!/bin/sh" and "set -eu" in lines[:6], path.name
        assert os.access(path, os.X_OK), path.name


def test_the_installer_ships_the_pin_map_with_the_package():
    with open(ROOT / "pyproject.toml", "rb") as f:
        data = tomllib.load(f)["tool"]["setuptools"]["package-data"]
    assert "pinmap.toml" in data["referee"]


# --- the drawings ---------------------------------------------------------------------

def test_the_committed_wiring_diagram_and_pin_table_are_drawn_from_the_pin_map():
    w = wiring_script()
    pinmap = w.load()
    assert (ROOT / "hardware" / "wiring.svg").read_text(encoding="utf-8") == w.svg(pinmap), \
        "run python scripts/wiring_svg.py"
    build = (ROOT / "hardware" / "BUILD.md").read_text(encoding="utf-8")
    assert w.build_md(build, w.pin_table(pinmap)) == build, "run python scripts/wiring_svg.py"


def test_the_drawing_puts_every_wire_on_the_right_header_pin():
    w = wiring_script()
    for gpio, pin in HEADER_PIN.items():
        assert w.HEADER[pin - 1] == gpio
    assert {i + 1 for i, what in enumerate(w.HEADER) if what == "3V3"} == PIN_3V3
    assert {i + 1 for i, what in enumerate(w.HEADER) if what == "5V"} == PIN_5V
    assert {i + 1 for i, what in enumerate(w.HEADER) if what == "GND"} == PIN_GND
    svg = ET.fromstring((ROOT / "hardware" / "wiring.svg").read_text(encoding="utf-8"))
    texts = {t.text for t in svg.iter("{http://www.w3.org/2000/svg}text")}
    for gpio in pins_in_use().values():
        assert f"GPIO {gpio}" in texts


def test_the_build_guide_gives_the_boot_config_lines_the_pi_config_needs():
    build = (ROOT / "hardware" / "BUILD.md").read_text(encoding="utf-8")
    lines = doctor.boot_lines(pi_config())
    assert lines == ["dtparam=i2c_arm=on", "dtparam=i2c_arm_baudrate=400000", "core_freq_fixed=1",
                     "dtoverlay=i2c-gpio,bus=3,i2c_gpio_sda=17,i2c_gpio_scl=27"]
    for line in lines:
        assert f"\n{line}\n" in build


# --- pi-check's cache -------------------------------------------------------------------

def pi_check_module():
    loader = importlib.machinery.SourceFileLoader("pi_check", str(ROOT / "scripts" / "pi-check"))
    module = importlib.util.module_from_spec(importlib.util.spec_from_loader("pi_check", loader))
    loader.exec_module(module)
    return module


def test_pi_checks_results_are_kept_until_a_tracked_file_changes(tmp_path, monkeypatch):
    check = pi_check_module()
    repo = tmp_path / "checkout"
    repo.mkdir()
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@example.org"]
    (repo / "referee.py").write_text("rules\n")
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "referee.py"], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "one"], check=True)
    monkeypatch.setattr(check, "ROOT", repo)
    kept = check.checkout_id()
    (repo / "pi-check.log").write_text("a log beside the checkout\n")   # untracked: nothing to rebuild
    assert check.checkout_id() == kept
    (repo / "referee.py").write_text("rules, changed\n")                # tracked, changed: all anew
    assert check.checkout_id() != kept
