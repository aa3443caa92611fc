"""The box on simulated devices: keys to pixels, time, power cuts, undo,
display faults, configuration and fonts."""
import errno
import re

import pytest
from PIL import Image, ImageDraw

from referee.box.screen import Screen, font, render
from referee.config import ConfigError, load
from referee.testing import Table


def open_tools(t):
    t.press("6")


def test_keypad_press_reaches_the_main_screen_through_mock_pins(table):
    assert "1 Decrypto" in table.screen("main")
    table.press("D")
    assert "6 Table tools" in table.screen("main")
    table.press("6")
    assert "1:00" in table.screen("main")
    assert "1:00" in table.screen("team1") and "1:00" in table.screen("team2")


def test_the_picture_on_the_panel_is_the_screen_rendered():
    with Table() as t:
        open_tools(t)
        expected = render(Screen(**{k: getattr(t.box.shown["main"], k) for k in ("title", "lines", "big", "keys", "qr")}))
        assert t.image("main").tobytes() == expected.tobytes()
        # and the panel is lit where the big countdown is
        assert t.image("main").crop((30, 14, 100, 45)).getbbox() is not None


def test_a_bouncing_press_is_one_key(table):
    open_tools(table)
    table.press("1")  # typing seconds: "1"
    assert "1s" in table.screen("main")
    # 8 edges within 20 ms, then held down: one key
    for _ in range(4):
        table.down("2")
        table.advance(0.0012)
        table.box.devices.pins.set("2", False)
        table.advance(0.0012)
    table.down("2")
    table.advance(0.06)
    table.up("2")
    assert "12s" in table.screen("main")


def test_a_team_button_held_for_one_second_is_a_hold_not_a_press(table):
    seen = []
    on_key = table.box.on_key
    table.box.devices.keys.on_key = lambda event: (seen.append((event.key, event.kind)), on_key(event))
    table.hold("team1", 1.0)
    assert seen == [("team1", "hold"), ("team1", "release")]
    seen.clear()
    table.press("team2")
    assert seen == [("team2", "press")]


def since_the_key(table, seconds):
    """Let time run until ``seconds`` after the last key acted (a key acts
    once debounced, before the finger is up again)."""
    table.advance(table.box.last_key.due + seconds - table.clock.monotonic())


def test_timer_preset_30s_expires_at_exactly_30_seconds(table):
    open_tools(table)
    table.press("A")
    assert "0:30" in table.screen("main")
    table.press("#")
    since_the_key(table, 29.999)
    assert "0:01" in table.screen("main")
    assert "timeup" not in table.sounds
    table.advance(0.001)
    assert "Time is up!" in table.screen("main")
    assert table.sounds == ["tick"] * 5 + ["timeup"]


def test_pause_freezes_the_timer(table):
    open_tools(table)
    table.press("A")
    table.press("#")
    table.advance(10)
    table.press("#")  # pause
    assert "0:20" in table.screen("main")
    table.advance(100)
    assert "0:20" in table.screen("main") and "timeup" not in table.sounds
    table.press("#")  # resume
    since_the_key(table, 19.9)
    assert "0:01" in table.screen("main")
    table.advance(0.2)
    assert "Time is up!" in table.screen("main")


def test_typed_seconds_and_reset(table):
    open_tools(table)
    table.type("90#")
    assert "1:30" in table.screen("main")
    table.press("#")
    table.advance(5)
    table.type("*#")  # reset, once asked
    assert "1:30" in table.screen("main") and "Pause" not in table.screen("main")
    table.press("*")  # at rest: back to the menu
    assert "Tabletop Referee" in table.screen("main")


def shown_seconds(table) -> int:
    minutes, seconds = re.search(r"(\d+):(\d\d)", table.screen("main")).groups()
    return int(minutes) * 60 + int(seconds)


def test_power_cut_during_a_running_timer_resumes_it_from_its_last_press(table):
    # The countdown comes back from the last press that moved it: the go,
    # and the pause and go on after it.
    open_tools(table)
    table.press("B")
    table.press("#")
    table.advance(20)
    table.press("#")                                   # pause at 0:40
    table.advance(5)
    table.press("#")                                   # go on
    table.advance(10)
    table.restart()
    assert shown_seconds(table) == 40
    table.advance(shown_seconds(table))
    assert "Time is up!" in table.screen("main")
    assert "timeup" in table.sounds


def changes(path: str):
    """A reading that moves once another connection has written the
    database at ``path``: SQLite's data_version, from a connection of its own."""
    import sqlite3
    reader = sqlite3.connect(path)
    return lambda: reader.execute("PRAGMA data_version").fetchone()[0]


def test_a_running_countdown_writes_its_place_every_fifteen_seconds_not_every_second(table):
    open_tools(table)
    written = changes(table.database)
    before = written()
    table.press("#")                                   # go: one row
    started = written()
    table.advance(14)                                  # fourteen seconds shown, ticks, no key
    assert "0:46" in table.screen("main") and written() == started > before
    table.advance(1)                                   # 0:45: its place
    noted = written()
    assert noted != started
    table.advance(14)
    assert "0:31" in table.screen("main") and written() == noted
    table.box.close()
    table.restart()                                    # a power cut gives back what ran since 0:45
    assert shown_seconds(table) == 45
    started = written()
    table.advance(46)                                  # time is up: the expiry is a row
    assert "Time is up!" in table.screen("main") and written() > started


def test_time_while_dark_is_not_counted(table):
    open_tools(table)
    table.press("A")
    table.press("#")
    table.advance(12)
    table.box.close()
    table.clock.advance(3600)  # the box is dark for an hour
    table.restart()
    assert shown_seconds(table) == 30                  # as at the go
    assert "Time is up!" not in table.screen("main")


def test_an_undone_pause_lets_the_timer_run_on_from_where_it_was(table):
    open_tools(table)
    table.press("B")
    table.press("#")
    table.advance(20)
    table.press("#")                 # pause at 0:40
    table.advance(100)               # a long think about it
    table.hold("*", 1.0)
    table.press("#")                 # undo the pause
    assert shown_seconds(table) == 40 and "Pause" in table.screen("main")
    assert "Time is up!" not in table.screen("main")
    since_the_key(table, 39.8)
    assert "Time is up!" not in table.screen("main")
    table.advance(0.3)
    assert "Time is up!" in table.screen("main")


def test_dice_rolls_show_large_and_are_listed(table):
    open_tools(table)
    table.press("D")
    table.dice.next(4, 3)
    table.press("#")
    assert "4  3" in table.screen("main")
    for faces in [(1, 1), (8, 2)]:
        table.dice.next(*faces)
        table.press("#")
    table.press("C")
    assert "8+2 | 1+1 | 4+3" in table.screen("main")


def test_ten_last_rolls_are_kept(table):
    open_tools(table)
    table.press("D")
    for i in range(12):
        table.dice.next(i % 8 + 1, 1)
        table.press("#")
    assert len(table.box.session.state.rolls) == 10


def test_a_roll_on_the_module_button_appears_from_the_timer_page(table):
    open_tools(table)
    table.dice.next(7, 5)
    table.dice.roll_button()
    assert "7  5" in table.screen("main")


def test_dice_count_and_sides_change(table):
    open_tools(table)
    table.press("D")
    table.press("A")  # 3 dice
    table.press("B")  # d10
    assert "3d10" in table.screen("main")
    table.dice.next(10, 1, 9)
    table.press("#")
    assert "10  1  9" in table.screen("main")


def test_power_cut_after_rolls_brings_back_the_screen_and_history(table):
    open_tools(table)
    table.press("D")
    for faces in [(2, 3), (5, 6)]:
        table.dice.next(*faces)
        table.press("#")
    before = table.screen("main")
    table.advance(1)  # the page shown is saved a moment after it changes
    table.restart()
    assert table.screen("main") == before
    table.press("C")
    assert "5+6 | 2+3" in table.screen("main")


def test_undo_restores_the_previous_screen(table):
    open_tools(table)
    table.press("A")
    before = table.screen("main")
    table.press("C")  # 5 minutes
    assert "5:00" in table.screen("main")
    table.hold("*", 1.0)
    assert "Undo?" in table.screen("main")
    table.press("#")
    assert table.screen("main").replace("! Undone.\n", "") == before


def test_undo_can_be_declined(table):
    open_tools(table)
    table.press("C")
    table.hold("*", 1.0)
    table.press("*")
    assert "5:00" in table.screen("main")


def test_a_failing_team_display_does_not_stop_the_box(table):
    open_tools(table)
    table.display_fault("team1", True)
    table.press("A")
    table.press("#")
    table.advance(3)
    assert not table.box.devices.displays["team1"].online
    assert "0:27" in table.screen("main")
    table.display_fault("team1", False)
    table.advance(2.5)  # the retry finds the panel and redraws it whole
    assert table.box.devices.displays["team1"].online
    shown = render(table.box.shown["team1"])
    assert table.image("team1").tobytes() == shown.tobytes()
    assert "0:25" in table.screen("team1")


def test_the_display_fault_is_an_oserror_121_on_data(table):
    panel = table.box.devices.panels["team1"]
    panel.fail = True
    with pytest.raises(OSError) as info:
        panel.data([0])
    assert info.value.errno == errno.EREMOTEIO == 121


def test_unchanged_screens_send_no_bytes(table):
    open_tools(table)
    sent = {n: d.bytes_sent for n, d in table.box.devices.displays.items()}
    table.press("D")  # only main changes
    after = {n: d.bytes_sent for n, d in table.box.devices.displays.items()}
    assert after["team1"] == sent["team1"] and after["team2"] == sent["team2"]
    assert after["main"] > sent["main"]


@pytest.mark.parametrize("text, key", [
    ("lang = 'de'", "lang"),
    ("[keypad]\nrows = [5, 6, 13, 40]", "keypad.rows[3]"),
    ("[keypad]\nrows = [5, 6]", "keypad.rows"),
    ("[keypad]\nteam1 = 18", "buzzer.pin"),
    ("[displays.main]\nadress = 60", "displays.main.adress"),
    ("[displays.team1]\naddress = 200", "displays.team1.address"),
    ("[dice]\ndriver = 'usb'", "dice.driver"),
    ("[web]\nport = 70000", "web.port"),
    ("colour = 'red'", "colour"),
])
def test_a_bad_config_names_the_key(tmp_path, text, key):
    path = tmp_path / "config.toml"
    path.write_text(text)
    with pytest.raises(ConfigError) as info:
        load(str(path))
    assert str(info.value).startswith(f"config.toml: line {text.count(chr(10)) + 1}: {key}: ")


def test_a_config_that_is_not_toml_says_so(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text("[keypad\n")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load(str(path))


def _glyph(ch, f):
    im = Image.new("1", (12, 12))
    ImageDraw.Draw(im).text((0, 0), ch, font=f, fill=1)
    return im.tobytes()


@pytest.mark.parametrize("kind", ["text", "big"])
def test_czech_polish_and_russian_render_without_missing_glyph_boxes(kind):
    f = font(kind)
    notdef = _glyph("\ue000", f)  # a private-use character: the font's notdef box
    for ch in "Řeřicha, źdźbło, Привет":
        if ch.strip(", "):
            assert _glyph(ch, f) != notdef, ch
    image = render(Screen("Řeřicha", ("źdźbło", "Привет")))
    assert image.getbbox() is not None


def test_holding_star_offers_to_end_the_game(table):
    open_tools(table)
    table.hold("*", 1.0)
    assert "Nothing to undo." in table.screen("main")
    table.press("D")
    assert "End this game?" in table.screen("main")
    table.press("#")
    assert "Tabletop Referee" in table.screen("main")
    table.restart()
    assert "Tabletop Referee" in table.screen("main")


def test_a_long_message_wraps_onto_two_lines():
    image = render(Screen("T", flash="Word length 5: pieces from 5 to 48."))
    assert "Word length 5: pieces from 5 to 48." in Screen("T", flash="Word length 5: pieces from 5 to 48.").text
    assert image.crop((0, 22, 128, 32)).getbbox() is not None  # the second line is drawn


def test_a_panel_the_user_may_not_open_is_offline_not_fatal():
    from luma.core.error import DevicePermissionError

    from hal.display import Display

    def refuse():
        raise DevicePermissionError("I2C device permission denied")

    panel = Display("main", refuse, lambda delay, fn: None)
    assert not panel.online


# --- issue 20, item 12: the countdown asks before a reset and runs on behind the menu ---

def test_item12_star_on_a_running_countdown_asks_before_resetting(table):
    open_tools(table)
    table.press("B")
    table.press("#")
    table.advance(5)
    table.press("*")
    assert "#: reset to 1:00" in table.screen() and "#:Reset D:Menu *:No" in table.screen()
    table.press("*")                                   # no: it goes on
    table.advance(5)
    assert "0:50" in table.screen() and "Pause" in table.screen()
    table.press("*")
    table.press("#")                                   # yes
    assert "1:00" in table.screen() and "#:Go" in table.screen()


def test_item12_a_paused_countdown_asks_too_and_time_up_resets_at_once(table):
    open_tools(table)
    table.press("A")
    table.press("#")
    table.advance(10)
    table.press("#")                                   # paused at 0:20
    table.press("*")
    assert "[Timer ‖ 0:20]" not in table.screen() and "#:Reset" in table.screen()
    table.press("*")
    table.press("#")
    table.advance(20)
    assert "Time is up!" in table.screen()
    table.press("*")
    assert "0:30" in table.screen() and "#:Go" in table.screen()


def test_item12_the_countdown_runs_on_behind_the_menu_with_its_time_in_the_title(table):
    open_tools(table)
    table.press("B")
    table.press("#")
    table.advance(5)
    table.press("*")
    table.press("D")                                   # to the menu, running
    assert table.screen().splitlines()[0] == "[Timer 0:55 1/2]" and "1 Decrypto" in table.screen()
    table.advance(10)
    assert table.screen().splitlines()[0] == "[Timer 0:45 1/2]"
    table.hold("*", 1.0)                               # no game menu over the main menu
    assert "Undo?" not in table.screen() and "Game menu" not in table.screen()
    table.press("6")                                   # Table tools: back to the same countdown
    assert "0:44" in table.screen() and "Pause" in table.screen()   # the hold took a second
    table.press("*")
    table.press("D")
    table.advance(44)
    assert table.sounds[-1] == "timeup"
    assert table.screen().splitlines()[0] == "[Time is up! 1/2]"


def test_item12_a_game_started_from_the_menu_stops_the_countdown_behind_it(table):
    open_tools(table)
    table.press("#")
    table.press("*")
    table.press("D")
    table.press("2")                                   # Osmišifry's setup: the countdown still runs
    assert table.box.remaining() is not None
    table.press("#")
    assert "Round 1/31" in table.screen()
    table.advance(120)
    assert "timeup" not in table.sounds
    table.box.leave()
    assert table.screen().splitlines()[0] == "[Tabletop Referee 1/2]"
    table.press("6")
    assert "1:00" in table.screen() and "#:Go" in table.screen()   # the tools anew


def test_item12_a_power_cut_behind_the_menu_comes_back_on_the_menu_with_the_countdown(table):
    open_tools(table)
    table.press("#")
    table.press("*")
    table.press("D")
    table.press("D")                                   # a page flip: the menu is saved as the page
    table.advance(20)
    table.restart()                                    # back from its place written at 0:45
    assert table.screen().splitlines()[0] == "[Timer 0:45 1/2]"
    table.advance(45)
    assert table.sounds[-1] == "timeup"


def test_a_game_left_while_its_menu_is_up_lands_on_the_main_menu(table):
    # Box.leave is how every flow ends a game; the menu held up by * belongs
    # to the game and goes with it, where it once drew a menu of no game.
    table.start("decrypto")
    table.hold("*", 1.2)
    assert table.screen().startswith("[Game menu]")
    table.box.leave()
    assert table.screen().startswith("[Tabletop Referee 1/2]")
    table.press("1")
    assert table.screen().startswith("[Decrypto 1/2]")
