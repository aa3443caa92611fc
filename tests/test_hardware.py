"""Issue 18, true to the hardware: what reaches the panels and the buzzer,
read back from the simulated parts behind the real drivers."""
from __future__ import annotations

import pathlib
import socket
import subprocess

import pytest
from luma.oled.device import sh1106, ssd1306
from PIL import Image, ImageDraw

from gpiozero.pins.mock import MockFactory, MockPWMPin

from hal.buzzer import SOUNDS, Buzzer
from hal.display import Display
from hal.sim.oled import SimulatedSSD1306
from referee import cli
from referee.clock import ManualClock
from referee.config import BUZZER_BAND, BUZZER_OCTAVES, Config, ConfigError, parse
from referee.testing import Table
from referee.tools import doctor

ROOT = pathlib.Path(__file__).resolve().parent.parent

# --- item 1: rotation reaches the panel ----------------------------------------------


def _arrow(size):
    """A picture that looks different turned any way: a block in its top-left
    corner and a line along its top edge."""
    picture = Image.new("1", size)
    draw = ImageDraw.Draw(picture)
    draw.rectangle((0, 0, 9, 5), fill=1)
    draw.line((0, 0, size[0] - 1, 0), fill=1)
    return picture


def _panel(rotate, controller=ssd1306):
    controller_sim = SimulatedSSD1306()
    display = Display("main", lambda: controller(controller_sim, rotate=rotate),
                      ManualClock().call_later, rotate=rotate)
    return display, controller_sim


@pytest.mark.parametrize("rotate", [0, 1, 2, 3])
def test_item1_each_rotation_reaches_the_controllers_framebuffer_as_luma_would_turn_it(rotate):
    display, panel = _panel(rotate)
    picture = _arrow(display.size)
    display.show(picture)
    # luma's own way: device.display() turns the picture with preprocess()
    reference = ssd1306(SimulatedSSD1306(), rotate=rotate)
    assert panel.image.tobytes() == reference.preprocess(picture).convert("1").tobytes()
    assert display.image.tobytes() == picture.tobytes()  # the picture as given, the right way up
    if rotate == 2:  # upside down: the block lands in the panel's bottom-right corner
        assert panel.image.getpixel((127, 63)) and not panel.image.getpixel((0, 0))


@pytest.mark.parametrize("rotate", [1, 2, 3])
def test_item1_a_turned_panel_is_still_sent_only_the_columns_that_changed(rotate):
    display, panel = _panel(rotate)
    display.show(_arrow(display.size))
    sent = panel.data_bytes
    changed = _arrow(display.size)
    changed.putpixel((display.size[0] // 2, display.size[1] // 2), 1)  # one pixel more
    display.show(changed)
    assert panel.data_bytes - sent == 1  # one byte: one column of one page
    reference = ssd1306(SimulatedSSD1306(), rotate=rotate)
    assert panel.image.tobytes() == reference.preprocess(changed).convert("1").tobytes()


def test_item1_sh1106_panels_turn_too():
    display, panel = _panel(2, sh1106)
    picture = _arrow(display.size)
    display.show(picture)
    assert panel.image.tobytes() == picture.transpose(Image.Transpose.ROTATE_180).tobytes()


def test_item1_a_picture_of_the_wrong_shape_is_refused_not_garbled():
    display, _ = _panel(1)
    with pytest.raises(ValueError, match="64x128"):
        display.show(Image.new("1", (128, 64)))


def test_item1_rotate_2_in_the_config_turns_the_box_screen_upside_down():
    turned = {"displays": {"team1": {"rotate": 2}}}
    with Table(lang="en") as upright, Table(lang="en", config=turned) as t:
        assert t.screen("team1") == upright.screen("team1")
        # t.image is the simulated controller's framebuffer: what the glass shows
        assert t.image("team1").tobytes() == upright.image("team1").transpose(Image.Transpose.ROTATE_180).tobytes()
        assert t.image("main").tobytes() == upright.image("main").tobytes()


# --- item 4: the configuration says what cannot work, the doctor never crashes ------


def _refused(raw) -> str:
    with pytest.raises(ConfigError) as info:
        parse(raw)
    return str(info.value)


def test_item4_an_spi_panel_defaults_to_spi0_and_the_boot_config_turns_spi0_on():
    c = parse({"displays": {"main": {"driver": "spi"}}})
    assert (c.displays.main.bus, c.displays.main.device) == (0, 0)
    assert "dtparam=spi=on" in doctor.boot_lines(c)
    assert not any("spi1" in line for line in doctor.boot_lines(c))


@pytest.mark.parametrize("raw, message", [
    # SPI1 is GPIO 18-21: the buzzer's pin and three keypad pins
    ({"displays": {"main": {"driver": "spi", "bus": 1}}}, "keypad.rows[3]: GPIO 19 is already used by SPI1"),
    ({"displays": {"main": {"driver": "spi", "bus": 1}}, "keypad": {"rows": [5, 6, 13, 26], "cols": [12, 16, 4, 27]}},
     "buzzer.pin: GPIO 18 is already used by SPI1"),
    ({"displays": {"main": {"driver": "spi"}, "team1": {"driver": "spi"}}},
     "displays.team1.device: chip select 0 of SPI0 is already displays.main's"),
    ({"displays": {"main": {"driver": "spi", "device": 2}}}, "displays.main.device: SPI0 has chip selects 0-1, not 2"),
    ({"displays": {"main": {"driver": "spi", "bus": 2}}},
     "displays.main.bus: SPI bus 2 is not one the box can use (0: SPI0, 1: SPI1)"),
    ({"displays": {"main": {"controller": "ssd1309"}}},
     'displays.main.controller: "ssd1309" is not one of "ssd1306", "sh1106"'),
    ({"displays": {"team2": {"rotate": 1}}}, "displays.team2.rotate: 1 is not one of 0, 2"),
    ({"lang": "de"}, 'lang: "de" is not one of "en", "cs", "pl", "ru"'),
    ({"dice": {"driver": "usb"}}, 'dice.driver: "usb" is not one of "sim", "serial", "software"'),
])
def test_item4_check_config_refuses_each_wiring_that_cannot_work_in_one_line(raw, message):
    said = _refused(raw)
    assert said == f"config.toml: {message}" and "\n" not in said


def test_item4_check_config_on_the_command_line_names_the_spi1_clash(tmp_path, capsys):
    path = tmp_path / "config.toml"
    path.write_text('[displays.main]\ndriver = "spi"\nbus = 1\n')
    assert cli.main(["check-config", str(path)]) == 2
    assert "GPIO 19 is already used by SPI1" in capsys.readouterr().err


def test_item4_spi1_panels_get_the_spi1_overlay_with_enough_chip_selects():
    moved = {"keypad": {"rows": [5, 6, 13, 26], "cols": [12, 4, 27, 14]}, "buzzer": {"pin": 15}}
    c = parse({**moved, "displays": {"main": {"driver": "spi", "bus": 1},
                                     "team1": {"driver": "spi", "bus": 1, "device": 1}}})
    lines = doctor.boot_lines(c)
    assert "dtoverlay=spi1-2cs" in lines and "dtparam=spi=on" not in lines


def test_item4_a_check_that_raises_is_a_failed_line_and_the_doctor_goes_on(tmp_path):
    class Broken(SimulatedSSD1306):
        def command(self, *cmd):
            raise KeyError("ssd1309")  # what the doctor once died of

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    box = parse({"database": str(tmp_path / "referee.db"), "web": {"port": port}})
    lines: list[str] = []
    machine = doctor.Machine(panels={"team1": Broken()}, wait=lambda s: None)
    assert doctor.run(box, machine, out=lines.append) == 1
    [bad] = [line for line in lines if line.startswith("FAIL")]
    assert bad.startswith("FAIL  display team1: the check itself failed: KeyError")
    assert lines[-1].endswith("1 failed") and any(line.startswith("ok    dice module") for line in lines)


# --- item 6: make flash needs mpremote only -----------------------------------------


def test_item6_make_flash_installs_mpremote_and_nothing_else():
    # --no-print-directory: under `make test` a sub-make would announce its folder.
    dry = subprocess.run(["make", "--no-print-directory", "-n", "-B", "flash"], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout
    assert "need-apt" not in dry and ".[test]" not in dry and "-e ." not in dry  # no fonts, no test tools
    [install] = [line for line in dry.splitlines() if "pip install" in line]
    wanted = subprocess.run(install.split("$(", 1)[1].rstrip(")").split(), cwd=ROOT, capture_output=True,
                            text=True, check=True).stdout.split()
    assert [req.split(">")[0] for req in wanted] == ["mpremote"]
    assert dry.splitlines()[-1].endswith("-m firmware.deploy")


# --- item 3: every sound near the buzzer's resonance ----------------------------------


def _heard(band, name):
    """(frequency, seconds) of each step of a sound as the PWM pin plays it."""
    factory = MockFactory(pin_class=MockPWMPin)
    clock = ManualClock()
    buzzer = Buzzer(18, clock, band, BUZZER_OCTAVES, pin_factory=factory)
    pin = factory.pin(18)
    buzzer.play(name)
    steps = []
    while buzzer._step is not None:
        step = buzzer._step
        steps.append((pin.frequency if pin.state else None, step.when - clock.monotonic()))
        clock.advance(step.when - clock.monotonic())
    assert pin.state == 0  # silent at the end
    buzzer.close()
    return steps


@pytest.mark.parametrize("band", [BUZZER_BAND, (2300, 2700), (1800, 3200)])
@pytest.mark.parametrize("name", sorted(SOUNDS))
def test_item3_every_sound_stays_inside_the_buzzers_band(band, name):
    steps = _heard(band, name)
    tones = [hz for hz, _ in steps if hz is not None]
    assert tones and all(band[0] - 1e-6 <= hz <= band[1] + 1e-6 for hz in tones)


def test_item3_the_default_band_is_the_datasheets_resonance_and_the_sounds_keep_their_shapes():
    assert Config().buzzer.band == (2000, 2800)  # the part's rated 2400 Hz, +- 400 (hardware/BOM.md)
    timeup = [hz for hz, _ in _heard(BUZZER_BAND, "timeup") if hz]
    assert timeup[0] == timeup[1] > timeup[2]            # two beeps, then lower and long
    done = [hz for hz, _ in _heard(BUZZER_BAND, "done") if hz]
    assert done[0] < done[1]                             # rising: "done"
    assert max(hz for name in SOUNDS for hz, _ in _heard(BUZZER_BAND, name) if hz) > 2600
    assert min(hz for name in SOUNDS for hz, _ in _heard(BUZZER_BAND, name) if hz) == pytest.approx(2000)


def test_item3_the_box_plays_with_the_configured_band():
    with Table(config={"buzzer": {"band": [2300, 2500]}}) as t:
        pin = t.box.devices.pins.factory.pin(Config().buzzer.pin)
        t.box.devices.buzzer.play("warning")  # the highest sound
        assert pin.frequency == pytest.approx(2300 * (2500 / 2300) ** 0.9)


@pytest.mark.parametrize("band, message", [
    ([2800, 2000], "buzzer.band: needs a low and a high frequency in Hz, low < high, within 100-10000, not [2800, 2000]"),
    ([500, 2500], "buzzer.band: 500-2500 Hz is wider than 2 octaves, which the buzzer's TonalBuzzer cannot span"),
])
def test_item3_a_band_a_tonal_buzzer_cannot_play_is_refused(band, message):
    assert _refused({"buzzer": {"band": band}}) == f"config.toml: {message}"


def test_item3_the_installed_service_names_its_pin_library_and_the_build_guide_says_why():
    unit = (ROOT / "systemd" / "referee.service").read_text()
    assert "Environment=GPIOZERO_PIN_FACTORY=lgpio" in unit.splitlines()
    guide = (ROOT / "hardware" / "BUILD.md").read_text()
    assert "GPIOZERO_PIN_FACTORY=lgpio" in guide and "pigpio times the pin by DMA" in guide


# --- item 5: the dice module as the sandboxed service sees it --------------------------

PROC_DEVICES = "Character devices:\n  1 mem\n  4 tty\n{acm}  5 /dev/tty\n\nBlock devices:\n  8 sd\n"


@pytest.fixture
def sandbox(tmp_path):
    """An installed unit, /proc/devices and the modules-load file, as files."""
    unit = tmp_path / "referee.service"
    unit.write_text((ROOT / "systemd" / "referee.service").read_text())
    proc = tmp_path / "devices"
    modules = tmp_path / "referee.conf"
    return unit, proc, modules


def _access(sandbox, acm: bool, at_boot: bool):
    unit, proc, modules = sandbox
    proc.write_text(PROC_DEVICES.format(acm="166 ttyACM\n" if acm else ""))
    modules.write_text("i2c-dev\ncdc_acm\n" if at_boot else "i2c-dev\n")
    return doctor.dice_access(str(proc), str(unit), str(modules))


def test_item5_without_cdc_acm_loaded_the_doctor_fails_what_the_service_would_meet(sandbox):
    found = _access(sandbox, acm=False, at_boot=True)
    assert found.status == "FAIL" and "Operation not permitted" in found.detail
    assert "sudo modprobe cdc_acm && sudo systemctl restart referee" in found.fix


def test_item5_cdc_acm_loaded_but_not_at_boot_is_a_warning(sandbox):
    assert _access(sandbox, acm=True, at_boot=False).status == "warn"


def test_item5_loaded_now_and_at_boot_with_the_units_rule_is_ok(sandbox):
    found = _access(sandbox, acm=True, at_boot=True)
    assert found.status == "ok" and "char-ttyACM" in found.detail


def test_item5_a_unit_without_the_ttyacm_rule_fails(sandbox):
    unit = sandbox[0]
    unit.write_text(unit.read_text().replace("DeviceAllow=char-ttyACM rw\n", ""))
    assert _access(sandbox, acm=True, at_boot=True).status == "FAIL"


def test_item5_a_block_device_named_alike_does_not_count(sandbox):
    unit, proc, modules = sandbox
    proc.write_text("Character devices:\n  1 mem\n\nBlock devices:\n166 ttyACM\n")
    modules.write_text("cdc_acm\n")
    assert doctor.dice_access(str(proc), str(unit), str(modules)).status == "FAIL"


def test_item5_referee_doctor_checks_access_for_a_serial_dice_module(sandbox, tmp_path):
    unit, proc, modules = sandbox
    proc.write_text(PROC_DEVICES.format(acm=""))
    modules.write_text("cdc_acm\n")
    box = parse({"database": str(tmp_path / "referee.db"), "dice": {"driver": "serial"}})
    machine = doctor.Machine(service_running=True, proc_devices=str(proc), unit=str(unit), modules_load=str(modules))
    [found] = [f for f in doctor.examine(box, machine) if f.subject == "dice module access"]
    assert found.status == "FAIL"


def test_item5_the_installer_loads_cdc_acm_at_boot_and_the_uninstaller_takes_the_list_away():
    install = (ROOT / "systemd" / "install.sh").read_text()
    uninstall = (ROOT / "systemd" / "uninstall.sh").read_text()
    assert 'MODULE_LIST="i2c-dev cdc_acm"' in install and "MODULES=/etc/modules-load.d/referee.conf" in install
    # the list is written one module a line, as modules-load.d(5) reads it
    listed = subprocess.run(["sh", "-c", "MODULE_LIST='i2c-dev cdc_acm'; printf '%s\\n' $MODULE_LIST"],
                            capture_output=True, text=True, check=True).stdout
    assert listed == "i2c-dev\ncdc_acm\n" and "printf '%s\\n' $MODULE_LIST" in install
    assert "MODULES=/etc/modules-load.d/referee.conf" in uninstall and 'rm -f "$MODULES"' in uninstall


# --- item 8: the 5 V budget adds up and fits the supplies -----------------------------


def test_item8_the_boms_5v_budget_adds_up_and_fits_the_pi_4s_supply():
    bom = (ROOT / "hardware" / "BOM.md").read_text()
    budget = bom.split("## The 5 V budget", 1)[1].split("\n\n")
    [table] = [block for block in budget if block.startswith("| part |")]
    rows = [[cell.strip().strip("*") for cell in line.strip("|").split("|")] for line in table.splitlines()[2:]]
    *parts, (total_name, total, _) = rows
    assert "worst case" in total_name
    assert sum(int(mA) for _, mA, _ in parts) == int(total)
    assert {"MAX7219,", "buzzer", "Pico", "OLED"} <= {word for name, _, _ in parts for word in name.split()}
    assert int(total) < 3000  # the Pi 4's 3 A supply of the parts list
    assert f"{total} mA of the Pi 4's 3 A" in bom
