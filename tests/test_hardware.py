"""Issue 18, true to the hardware: what reaches the panels and the buzzer,
read back from the simulated parts behind the real drivers."""
from __future__ import annotations

import pathlib
import socket
import subprocess

import pytest
from luma.oled.device import sh1106, ssd1306
from PIL import Image, ImageDraw

from hal.display import Display
from hal.sim.oled import SimulatedSSD1306
from referee import cli, doctor
from referee.clock import ManualClock
from referee.config import ConfigError, parse
from referee.testing import Table

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
    dry = subprocess.run(["make", "-n", "-B", "flash"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert "need-apt" not in dry and ".[test]" not in dry and "-e ." not in dry  # no fonts, no test tools
    [install] = [line for line in dry.splitlines() if "pip install" in line]
    wanted = subprocess.run(install.split("$(", 1)[1].rstrip(")").split(), cwd=ROOT, capture_output=True,
                            text=True, check=True).stdout.split()
    assert [req.split(">")[0] for req in wanted] == ["mpremote"]
    assert dry.splitlines()[-1].endswith("-m firmware.deploy")
