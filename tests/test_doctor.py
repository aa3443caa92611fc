"""``referee doctor``: a healthy box, and each fault a maker can meet, on
simulated parts and on the Pi's configuration with mock pins."""
from __future__ import annotations

import errno
import os
import pathlib
import shutil
import socket
import subprocess
import sys
import typing

import pytest
from gpiozero.pins.mock import MockFactory, MockPin, MockPWMPin

from hal.sim.dice_module import SimulatedDiceModule
from hal.sim.oled import SimulatedSSD1306
from hal.sim.pins import SimulatedPins, WiredFactory
from referee import cli
from referee.box import address
from referee.config import load, parse
from referee.tools import doctor
from referee.tools.doctor import Machine, examine
from test_pi import pi_check_module

ROOT = pathlib.Path(__file__).resolve().parent.parent


PHONES = "http://referee.local:8080/"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def box(tmp_path):
    """A simulated box with its score log in a folder of its own, sending
    phones to an address they can open (127.0.0.1 is warned of)."""
    return parse({"database": str(tmp_path / "referee.db"), "web": {"port": _free_port(), "public_url": PHONES}})


def pins_for(config, buzzer: bool = True) -> SimulatedPins:
    kp = config.keypad
    return SimulatedPins(kp.rows, kp.cols, {"team1": kp.team1, "team2": kp.team2},
                         config.buzzer.pin if buzzer else None)


def check(findings, subject):
    """The one finding about ``subject``."""
    [found] = [f for f in findings if f.subject == subject]
    return found


def test_a_healthy_simulated_box_passes_every_check(box):
    lines = []
    assert doctor.run(box, Machine(wait=lambda s: None), out=lines.append) == 0
    assert [line.split()[0] for line in lines[:-1]] == ["ok"] * 12
    assert lines[-1] == "12 checks, all well"
    subjects = [line.split(":")[0].split(maxsplit=1)[1] for line in lines[:-1]]
    assert subjects == ["board", "fonts", "display main", "display team1", "display team2", "keypad",
                        "team buttons", "buzzer", "dice module", "score log", "web", "address"]


def test_every_panel_that_answers_shows_its_own_name(box):
    machine = Machine(wait=lambda s: None)
    examine(box, machine)
    pictures = [machine.panels[name].image for name in ("main", "team1", "team2")]
    assert all(p.getbbox() for p in pictures)  # something is lit
    assert pictures[0].tobytes() != pictures[1].tobytes() != pictures[2].tobytes()


def test_the_buzzer_beeps_once_in_the_middle_of_its_band(box):
    pins = pins_for(box)
    heard = []
    pin = pins.factory.pin(box.buzzer.pin)
    found = examine(box, Machine(pin_factory=pins.factory, wait=lambda s: heard.append((pin.frequency, s))))
    assert check(found, "buzzer").status == "ok"
    assert heard == [(pytest.approx(2366.4, abs=0.1), doctor.BEEP)]  # sqrt(2000 * 2800)
    assert pin.state == 0  # silent again


def test_the_dice_module_says_hello_with_its_firmware_and_rolls(box):
    with SimulatedDiceModule(board="e6614103e7654321") as module:
        module.next(3, 7)
        found = check(examine(box, Machine(dice_port=module.port, wait=lambda s: None)), "dice module")
    assert found.status == "ok"
    assert "Pico e6614103e7654321 answers, firmware " in found.detail
    assert found.detail.endswith("rolled 2d8: 3 7")


# --- faults ----------------------------------------------------------------------

def test_a_failing_panel_is_named_with_its_fix(box):
    dead = SimulatedSSD1306()
    dead.fail = True
    lines = []
    status = doctor.run(box, Machine(panels={"team1": dead}, wait=lambda s: None), out=lines.append)
    assert status == 1
    failed = [line for line in lines if line.startswith("FAIL")]
    assert failed == ["FAIL  display team1: no answer on the simulated bus. Fix: the simulated panel is set to fail"]
    assert lines[-1] == "12 checks, 1 failed"


def test_a_key_held_down_names_its_row_and_column(box):
    pins = pins_for(box)
    pins.set("5", True)
    found = check(examine(box, Machine(pin_factory=pins.factory, wait=lambda s: None)), "keypad")
    assert found.status == "FAIL"
    assert found.detail == "key 5 reads as held down"
    assert "row R2 (GPIO 6) touches column C2 (GPIO 16)" in found.fix


def test_the_keypad_check_never_drives_a_row_high(box):
    """Two keys held in one column while the doctor scans: rows not being
    read are inputs, as when the box scans, so nothing shorts."""
    pins = pins_for(box)
    pins.set("2", True)
    pins.set("5", True)       # the same column as 2
    found = check(examine(box, Machine(pin_factory=pins.factory, wait=lambda s: None)), "keypad")
    assert found.status == "FAIL" and found.detail == "key 2 reads as held down"
    assert pins.shorts == 0


class GroundedPin(MockPin):
    """An input whose wire touches ground."""

    def _get_state(self):
        return 0 if self._function == "input" else super()._get_state()


def grounded(*pins: int) -> WiredFactory:
    factory = WiredFactory(pin_class=MockPWMPin)
    for pin in pins:
        factory.pin(pin, pin_class=GroundedPin)
    return factory


def test_a_keypad_column_shorted_to_ground_is_found(box):
    factory = grounded(box.keypad.cols[2])
    found = check(examine(box, Machine(pin_factory=factory, wait=lambda s: None)), "keypad")
    assert found.status == "FAIL"
    assert found.detail == f"column GPIO {box.keypad.cols[2]} reads low with no row selected"


def test_a_team_button_wired_to_nc_reads_as_pressed(box):
    # The NC lug joins the pin to ground until the button is pressed.
    factory = grounded(box.keypad.team2)
    found = check(examine(box, Machine(pin_factory=factory, wait=lambda s: None)), "team buttons")
    assert found.status == "FAIL"
    assert found.detail.startswith("team2 reads as pressed")
    assert "NO" in found.fix


def test_a_buzzer_pin_that_cannot_make_tones_fails(box):
    found = check(examine(box, Machine(pin_factory=pins_for(box, buzzer=False).factory, wait=lambda s: None)),
                  "buzzer")
    assert found.status == "FAIL"
    assert "PWM" in found.detail


def test_an_unplugged_dice_module_is_not_found(box):
    with SimulatedDiceModule() as module:
        module.unplug()
        found = check(examine(box, Machine(dice_port=module.port, wait=lambda s: None)), "dice module")
    assert found.status == "FAIL"
    assert found.detail == f"nothing at {module.port}"
    assert "USB data cable" in found.fix


def test_a_port_where_nothing_answers_hello_fails_after_the_timeout(box):
    master, slave = os.openpty()
    try:
        machine = Machine(dice_port=os.ttyname(slave), dice_timeout=0.2, wait=lambda s: None)
        found = check(examine(box, machine), "dice module")
    finally:
        os.close(master)
        os.close(slave)
    assert found.status == "FAIL"
    assert found.detail.startswith(f"{machine.dice_port} did not say hello within 0.2 s")


def test_a_missing_database_folder_fails(tmp_path):
    config = parse({"database": str(tmp_path / "stick" / "referee.db"), "web": {"port": _free_port()}})
    found = check(examine(config, Machine(wait=lambda s: None)), "score log")
    assert found.status == "FAIL"
    assert found.detail == f"folder {tmp_path / 'stick'} does not exist"
    assert found.fix == f"create it (mkdir -p {tmp_path / 'stick'}) or mount the drive it is on"


def test_the_users_own_data_folder_is_made_by_the_box(tmp_path, monkeypatch):
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    found = doctor.database(parse({}).database_path, made_by_box=True)
    assert found.status == "ok" and "will be made" in found.detail


def test_an_existing_score_log_is_checked_writable(box):
    pathlib.Path(box.database).write_bytes(b"")
    found = doctor.database(box.database)
    assert found.status == "ok" and found.detail.startswith(f"{box.database} is writable, ")
    assert found.detail.endswith(" MB free")


def test_a_nearly_full_card_is_a_warning_with_the_free_space(box, monkeypatch):
    pathlib.Path(box.database).write_bytes(b"")
    monkeypatch.setattr(doctor, "LOW_SPACE", shutil.disk_usage(os.path.dirname(box.database)).free * 2)
    found = doctor.database(box.database)
    assert found.status == "warn" and "MB free" in found.detail and "nearly full" in found.fix


ROUTES = ("Iface\tDestination\tGateway\tFlags\tRefCnt\tUse\tMetric\tMask\tMTU\tWindow\tIRTT\n"
          "tun0\t0000080A\t00000000\t0001\t0\t0\t0\t00FFFFFF\t0\t0\t0\n"
          "wlan0\t00000000\t0101A8C0\t0003\t0\t0\t600\t00000000\t0\t0\t0\n"
          "eth0\t00000000\t0101A8C0\t0003\t0\t0\t100\t00000000\t0\t0\t0\n")


def test_the_qr_address_is_the_default_routes_never_link_local_or_a_vpns():
    from referee.box import address
    addrs = {"eth0": ["169.254.7.1"], "tun0": ["10.8.0.2"], "wlan0": ["192.168.1.20"], "lo": ["127.0.0.1"]}
    up = set(addrs)
    # eth0 has the better metric but only a link-local address: wlan0's is used, never the VPN's.
    assert address.choose(ROUTES, addrs, up) == address.Choice("192.168.1.20", "wlan0", "the default route's interface")
    assert address.choose(ROUTES, {**addrs, "eth0": ["192.168.1.5"]}, up).address == "192.168.1.5"
    assert address.choose(ROUTES, addrs, up - {"wlan0"}).address == "10.8.0.2"       # no route that is up
    assert address.choose("", {"lo": ["127.0.0.1"], "eth0": ["169.254.1.1"]}, up).address == "127.0.0.1"
    box = parse({"web": {"host": "0.0.0.0", "port": 8080}})
    found = doctor.phones(box, address.choose(ROUTES, addrs, up))
    assert (found.status, found.detail) == ("ok", "phones are sent to 192.168.1.20:8080 "
                                                  "(wlan0, the default route's interface); "
                                                  f"or {socket.gethostname()}.local:8080 where phones know "
                                                  ".local names")
    alone = doctor.phones(box, address.choose("", {"lo": ["127.0.0.1"]}, {"lo"}))
    assert alone.status == "warn" and "public_url" in alone.fix


def test_an_interface_query_the_system_refuses_is_a_warning_not_a_traceback(monkeypatch, tmp_path):
    import psutil

    def refused():
        raise OSError(errno.ENOSYS, "Function not implemented (ioctl SIOCETHTOOL)")
    monkeypatch.setattr(psutil, "net_if_stats", refused)    # as an ARM root under emulation answers
    monkeypatch.setattr(address, "SYS_NET", str(tmp_path))  # and no sysfs to stand in
    config = parse({"database": str(tmp_path / "referee.db"), "web": {"host": "0.0.0.0", "port": 8080}})
    found = check(examine(config, Machine(wait=lambda s: None)), "address")
    assert found.status == "warn" and "public_url" in found.fix
    assert found.detail.startswith("the address cannot be looked up ([Errno 38] Function not implemented "
                                   "(ioctl SIOCETHTOOL)): phones are sent to the last address the box found")


def test_a_busy_web_port_fails(tmp_path):
    with socket.socket() as other:
        other.bind(("127.0.0.1", 0))
        other.listen()
        port = other.getsockname()[1]
        config = parse({"database": str(tmp_path / "referee.db"), "web": {"port": port}})
        found = check(examine(config, Machine(wait=lambda s: None)), "web")
    assert found.status == "FAIL"
    assert found.detail == f"port {port} is taken by another program"


def test_a_web_host_that_is_not_this_box_fails():
    found = doctor.web_port("192.0.2.1", _free_port())  # TEST-NET-1: nobody's address
    assert found.status == "FAIL" and found.fix == '[web] host = "0.0.0.0" listens on every network'


def test_with_the_service_running_the_devices_are_left_alone(box):
    found = examine(box, Machine(service_running=True, wait=lambda s: None))
    assert check(found, "service").status == "warn"
    assert check(found, "devices").status == "skip"
    assert not [f for f in found if f.subject.startswith(("display", "keypad", "buzzer", "web"))]


def test_parts_the_config_leaves_out_are_skipped(tmp_path):
    config = parse({"database": str(tmp_path / "referee.db"), "web": {"port": _free_port(), "public_url": PHONES},
                    "buzzer": {"driver": "none"}, "displays": {"team2": {"driver": "none"}},
                    "dice": {"driver": "software"}})
    found = examine(config, Machine(wait=lambda s: None))
    assert [f.subject for f in found if f.status == "skip"] == ["display team2", "buzzer", "dice module"]
    assert all(f.status in ("ok", "skip") for f in found)


# --- the board, on files laid out like the Pi's -----------------------------------------

def test_the_supported_boards_pass_and_others_are_named(tmp_path):
    model = tmp_path / "model"
    for text, status in [("Raspberry Pi 5 Model B Rev 1.0", "ok"), ("Raspberry Pi Zero 2 W Rev 1.0", "ok"),
                         ("Raspberry Pi 4 Model B Rev 1.5", "ok"), ("Raspberry Pi 3 Model B Rev 1.2", "warn")]:
        model.write_bytes(text.encode() + b"\0")
        found = doctor.board(str(model))
        assert (found.status, found.detail.split(":")[0]) == (status, text)
    found = doctor.board(str(tmp_path / "none"))
    assert found.status == "FAIL" and found.detail.startswith("not a Raspberry Pi")


def sysfs(tmp_path, bus: int, *, hz: int | None = None, compatible: bytes | None = None):
    (tmp_path / "dev").mkdir(exist_ok=True)
    (tmp_path / "dev" / f"i2c-{bus}").write_bytes(b"")
    node = tmp_path / "sys" / f"i2c-{bus}" / "of_node"
    node.mkdir(parents=True)
    if hz is not None:
        (node / "clock-frequency").write_bytes(hz.to_bytes(4, "big"))
    if compatible is not None:
        (node / "compatible").write_bytes(compatible)
    return str(tmp_path / "dev"), str(tmp_path / "sys")


def test_i2c_bus_1_at_400_khz_passes(tmp_path):
    found = doctor.i2c_bus(1, *sysfs(tmp_path, 1, hz=400_000))
    assert (found.status, found.detail) == ("ok", "on, 400 kHz")


def test_i2c_bus_1_at_the_default_100_khz_asks_for_the_baudrate_line(tmp_path):
    found = doctor.i2c_bus(1, *sysfs(tmp_path, 1, hz=100_000))
    assert (found.status, found.detail) == ("warn", "on, but at 100 kHz")
    assert "`dtparam=i2c_arm_baudrate=400000`" in found.fix


def test_i2c_bus_1_on_a_pi_whose_core_clock_scales_asks_for_it_fixed(tmp_path):
    # The device tree says 400 kHz; on a Pi 3, Zero 2 W or 4 the bus is divided
    # from the core clock, which idles lower unless config.txt holds it.
    model, boot = tmp_path / "model", tmp_path / "config.txt"
    model.write_bytes(b"Raspberry Pi Zero 2 W Rev 1.0\0")
    boot.write_text("[all]\ndtparam=i2c_arm=on\ndtparam=i2c_arm_baudrate=400000\n")
    found = doctor.i2c_bus(1, *sysfs(tmp_path, 1, hz=400_000), str(boot), str(model))
    assert (found.status, found.detail) == ("warn", "on, 400 kHz asked, but slower while the core clock idles")
    assert "`core_freq_fixed=1`" in found.fix
    (tmp_path / "b").mkdir()
    (tmp_path / "c").mkdir()
    boot.write_text(boot.read_text() + "core_freq_fixed=1  # the I2C clock steady\n")
    assert doctor.i2c_bus(1, *sysfs(tmp_path / "b", 1, hz=400_000), str(boot), str(model)).status == "ok"
    model.write_bytes(b"Raspberry Pi 5 Model B Rev 1.0\0")    # its I2C is on RP1, not divided from the core
    boot.write_text("dtparam=i2c_arm_baudrate=400000\n")
    assert doctor.i2c_bus(1, *sysfs(tmp_path / "c", 1, hz=400_000), str(boot), str(model)).status == "ok"


def test_the_software_bus_is_recognised(tmp_path):
    found = doctor.i2c_bus(3, *sysfs(tmp_path, 3, compatible=b"i2c-gpio\0"))
    assert (found.status, found.detail) == ("ok", "on (i2c-gpio, in software)")


def test_a_missing_bus_names_the_boot_config_line_that_makes_it(tmp_path):
    found = doctor.i2c_bus(3, str(tmp_path), str(tmp_path))
    assert found.status == "FAIL"
    assert "`dtoverlay=i2c-gpio,bus=3,i2c_gpio_sda=17,i2c_gpio_scl=27`" in found.fix
    found = doctor.i2c_bus(1, str(tmp_path), str(tmp_path))
    assert "`dtparam=i2c_arm=on` and `dtparam=i2c_arm_baudrate=400000`" in found.fix


def test_the_pi_config_on_mock_pins(tmp_path):
    config = load(str(ROOT / "config.pi.toml"))
    pins = pins_for(config)
    dev, sys_ = sysfs(tmp_path, 1, hz=400_000)
    found = examine(config, Machine(model=str(tmp_path / "model"), dev=dev, adapters=sys_,
                                    pin_factory=pins.factory, wait=lambda s: None))
    assert check(found, "keypad").detail == "rows GPIO 5, 6, 13, 19 and columns GPIO 12, 16, 20, 21 read, no key down"
    assert check(found, "team buttons").detail == "team1 on GPIO 23, team2 on GPIO 24, not pressed"
    assert check(found, "buzzer").status == "ok"
    assert check(found, "I2C bus 1").status == "ok"
    # Bus 3 has no device node here: its panel is not tried, the bus is blamed.
    assert check(found, "I2C bus 3").status == "FAIL"
    assert check(found, "display team2").detail == "not reachable while I2C bus 3 is not there (above)"


# --- the command ----------------------------------------------------------------------

def test_referee_doctor_prints_one_line_a_check_and_fails_on_a_fault(tmp_path, capsys):
    path = tmp_path / "config.toml"
    path.write_text(f'database = "{tmp_path / "nowhere" / "referee.db"}"\n'
                    f'[web]\nport = {_free_port()}\n[dice]\ndriver = "software"\n'
                    f'[buzzer]\ndriver = "none"\n')  # no beep to wait for
    assert cli.main(["doctor", "--config", str(path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == "12 checks, 1 failed"
    assert [line for line in out if line.startswith("FAIL")] == [
        f"FAIL  score log: folder {tmp_path / 'nowhere'} does not exist. "
        f"Fix: create it (mkdir -p {tmp_path / 'nowhere'}) or mount the drive it is on"]


def test_referee_doctor_prints_the_boot_config_lines(capsys):
    assert cli.main(["doctor", "--config", str(ROOT / "config.pi.toml"), "--boot-config"]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "dtparam=i2c_arm=on", "dtparam=i2c_arm_baudrate=400000", "core_freq_fixed=1",
        "dtoverlay=i2c-gpio,bus=3,i2c_gpio_sda=17,i2c_gpio_scl=27"]


def test_every_finding_has_one_of_the_statuses_the_report_knows(box):
    dead = SimulatedSSD1306()
    dead.fail = True
    findings = examine(box, Machine(panels={"team1": dead}, wait=lambda s: None))
    said = {f.status for f in findings}
    assert {"ok", "FAIL"} <= said <= set(typing.get_args(doctor.Status))


def test_the_doctor_says_where_tonights_dates_come_from(tmp_path):
    def unset():
        return False

    without = doctor.wall_clock(str(tmp_path), synchronised=unset)
    assert without.status == "warn" and "first phone" in without.detail
    assert "DS3231 on I2C bus 1 (0x68)" in without.fix and "`dtoverlay=i2c-rtc,ds3231`" in without.fix
    (tmp_path / "rtc0").touch()                  # the kernel found the DS3231
    assert doctor.wall_clock(str(tmp_path), synchronised=unset).status == "ok"
    assert doctor.wall_clock(str(tmp_path / "none"), synchronised=lambda: True).detail == "set from the network (NTP)"


# --- as the service runs, and what pi-check makes of it ----------------------------------

def test_root_looks_as_the_installed_unit_runs_the_box():
    """The unit's user, its environment (lgpio's LG_WD, the pin library) and
    its runtime folder as the working folder, %t read as systemd reads it."""
    run = doctor.service_run(str(ROOT / "systemd" / "referee.service"))
    assert run == doctor.ServiceRun("referee", {"LG_WD": "/run/referee", "GPIOZERO_PIN_FACTORY": "lgpio"},
                                    "/run/referee", "/run/referee")
    assert doctor.service_run("/nonexistent/referee.service") == run   # not installed: the shipped unit's


def test_the_doctor_started_anywhere_checks_in_the_services_folder_with_its_environment(tmp_path):
    """From a folder the service's user may not write (root's home, a
    checkout), the doctor works in the service's runtime folder, made as
    systemd makes it, with LG_WD naming it: lgpio's pipes go there."""
    import pwd
    me = pwd.getpwuid(os.getuid()).pw_name
    runtime = tmp_path / "run" / "referee"
    code = ("import os, sys; from referee.tools import doctor; "
            f"found = doctor.as_service_user(doctor.ServiceRun({me!r}, {{'LG_WD': {str(runtime)!r}}}, "
            f"{str(runtime)!r}, {str(runtime)!r})); "
            "print(os.getcwd()); print(os.environ['LG_WD']); print(found)")
    done = subprocess.run([sys.executable, "-c", code], cwd="/", capture_output=True, text=True, check=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    cwd, lg_wd, finding = done.stdout.splitlines()
    assert cwd == lg_wd == str(runtime) and runtime.is_dir()
    assert finding.startswith(f"ok    service user: checking as {me} (groups ")
    assert finding.endswith(f") in {runtime}, LG_WD={runtime}, as referee.service runs")


class PipeRefused(MockFactory):
    """Pins as lgpio gives them in a folder this user cannot write: its
    notification pipe cannot be made, and opening it fails."""

    def pin(self, spec, **kwargs):
        raise FileNotFoundError(errno.ENOENT, "No such file or directory", ".lgd-nfy-3")


def test_lgpio_without_a_folder_for_its_pipe_is_said_with_that_cause(box):
    found = check(examine(box, Machine(pin_factory=PipeRefused(), wait=lambda s: None)), "keypad")
    assert found.status == "FAIL"
    assert found.detail == (f"lgpio cannot make its notification pipe in {os.environ.get('LG_WD') or os.getcwd()} "
                            f"as {pwd_name()} (No such file or directory)")
    assert "LG_WD=/run/referee" in found.fix and "python3-lgpio" not in found.fix


def pwd_name() -> str:
    import pwd
    return pwd.getpwuid(os.geteuid()).pw_name


def test_a_machine_without_gpio_chips_fails_each_pin_part_with_that_cause(tmp_path, monkeypatch):
    from gpiozero import Device
    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    (tmp_path / "dev").mkdir()
    config = load(str(ROOT / "config.pi.toml"))
    found = examine(config, Machine(model=str(tmp_path / "model"), dev=str(tmp_path / "dev"),
                                    adapters=str(tmp_path), wait=lambda s: None))
    for part in ("keypad", "team buttons", "buzzer"):
        assert (check(found, part).status, check(found, part).detail) == (
            "FAIL", f"no {tmp_path / 'dev'}/gpiochip*: this machine has no GPIO pins")


def test_pi_check_explains_the_emulators_doctor_from_causes_and_no_other_fail(tmp_path, monkeypatch):
    """The doctor in an arm64 root under the emulator, as pi-check runs it:
    no board, buses, pins or Pico; each line has its cause in pi-check's
    table, and a keypad that fails for any other reason is not explained."""
    from gpiozero import Device
    monkeypatch.setattr(Device, "pin_factory", None)
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    proc_devices = tmp_path / "devices"
    proc_devices.write_text("Character devices:\n  1 mem\n  4 tty\n\nBlock devices:\n  8 sd\n")
    config = load(str(ROOT / "config.pi.toml"))
    lines: list[str] = []
    doctor.run(config, Machine(model=str(tmp_path / "model"), dev=str(tmp_path), adapters=str(tmp_path),
                               unit=str(ROOT / "systemd" / "referee.service"), proc_devices=str(proc_devices),
                               wait=lambda s: None), out=lines.append)
    check_ = pi_check_module()
    fails = [line for line in lines if line.startswith("FAIL")]
    assert len(fails) == 11
    assert [line for line in fails if check_.explain(line, str(tmp_path), str(tmp_path / 'model')) is None] == []
    assert check_.explain("FAIL  keypad: key 5 reads as held down. Fix: let go of the keypad") is None
    assert check_.explain("FAIL  keypad: lgpio cannot make its notification pipe in /root as referee "
                          "(Permission denied). Fix: run it where referee may write") is None
    assert check_.explain("FAIL  board: Raspberry Pi 3 Model B is not a Raspberry Pi") is None
