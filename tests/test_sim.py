"""``referee sim``: the terminal simulator, driven with Textual's pilot on the
manual clock."""

import pytest

from referee.clock import ManualClock
from referee.config import parse
from referee.tools.sim import LEGEND, PIXELS_FIT, QUIT_ASKED, SOUND_SHOWN, RefereeSim, braille, half_blocks, simulated


def app_for(tmp_path):
    clock = ManualClock()
    config = simulated(parse({"dice": {"driver": "software"}}), str(tmp_path / "sim.db"))
    return RefereeSim(config, clock), clock


async def let_time_pass(pilot, clock, seconds, step=0.01):
    # Steps of 10 ms let a key typed meanwhile be scanned as the pad would;
    # with no key in play a longer step reaches the same moment sooner.
    for _ in range(round(seconds / step)):
        clock.advance(step)
        await pilot.pause()


async def test_typed_keys_reach_the_public_panel(tmp_path):
    app, clock = app_for(tmp_path)
    async with app.run_test(size=(170, 54)) as pilot:
        assert "1 Decrypto" in app.box.shown["main"].text
        await pilot.press("6")
        await let_time_pass(pilot, clock, 0.2)
        assert "1:00" in app.box.shown["main"].text
        await pilot.press("a")
        await let_time_pass(pilot, clock, 0.2)
        app.refresh_panels()
        assert "0:30" in app.box.shown["main"].text
        # the panel widget shows the controller's pixels in half blocks
        drawn = app.panels["main"]._last
        assert drawn == half_blocks(app.box.devices.panels["main"].image)
        assert "█" in drawn


async def test_text_mode_and_team_buttons(tmp_path):
    app, clock = app_for(tmp_path)
    async with app.run_test(size=(170, 54)) as pilot:
        await pilot.press("6")
        await let_time_pass(pilot, clock, 0.2)
        await pilot.press("t")
        assert "[Timer]" in app.panels["team1"]._last
        seen = []
        app.box.devices.keys.on_key = lambda event: seen.append((event.key, event.kind))
        await pilot.press("z")          # hold team 1 down…
        await let_time_pass(pilot, clock, 1.0)
        await pilot.press("Z")          # …and let go
        await let_time_pass(pilot, clock, 0.1)
        assert seen == [("team1", "hold"), ("team1", "release")]


async def test_keys_typed_quickly_arrive_in_the_order_typed(tmp_path):
    # A terminal hands over keys typed quickly (tmux send-keys 3 2 1) all at
    # once; they must reach the box as typed, repeats included.
    app, clock = app_for(tmp_path)
    async with app.run_test(size=(170, 54)) as pilot:
        seen = []
        app.box.devices.keys.on_key = lambda event: seen.append((event.key, event.kind))
        await pilot.press("3", "2", "1", "q", "1", "#")
        await let_time_pass(pilot, clock, 1.5)
        assert seen == [("3", "press"), ("2", "press"), ("1", "press"), ("team1", "press"),
                        ("1", "press"), ("#", "press")]


async def test_clicking_a_pad_key_presses_it(tmp_path):
    app, clock = app_for(tmp_path)
    async with app.run_test(size=(170, 54)) as pilot:
        await pilot.click("#key-6")
        await let_time_pass(pilot, clock, 0.2)
        assert "1:00" in app.box.shown["main"].text


def test_braille_packs_two_by_four_pixels():
    from PIL import Image
    image = Image.new("1", (4, 4))
    image.putpixel((0, 0), 1)
    image.putpixel((3, 3), 1)
    assert braille(image) == chr(0x2801) + chr(0x2880)


# --- issue 25 item 8 ---------------------------------------------------------------------

def out_of_sight(app) -> list[str]:
    """The controls and panels not wholly inside the terminal."""
    shown = app.screen.region
    widgets = [*app.query("PadKey"), *app.panels.values(), app.query_one("#roll"), app.query_one("#status"),
               app.query_one("#legend")]
    return [w.id for w in widgets if not shown.contains_region(w.region)]


def said(widget) -> str:
    return str(widget.render())


@pytest.mark.parametrize("size", [(100, 30), (160, 50)])
async def test_a_small_terminal_shows_the_text_view_whole_and_says_why(tmp_path, size):
    app, clock = app_for(tmp_path)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        assert app.show_text and out_of_sight(app) == []
        assert said(app.status).startswith(f"Terminal {size[0]}×{size[1]}: the pixels need "
                                           f"{PIXELS_FIT[0]}×{PIXELS_FIT[1]}, so the screens are shown as text.")
        assert app.panels["main"]._last == app.box.shown["main"].text
        await pilot.press("t")          # the pixels, asked for: cut, and said so
        assert not app.show_text and "cuts the pixels" in said(app.status)


async def test_a_terminal_that_holds_the_pixels_shows_them_and_says_nothing(tmp_path):
    app, clock = app_for(tmp_path)
    async with app.run_test(size=PIXELS_FIT) as pilot:
        await pilot.pause()
        assert not app.show_text and out_of_sight(app) == []
        assert said(app.status).startswith("buzzer: ")
        await pilot.resize_terminal(100, 30)
        await pilot.pause()
        assert app.show_text and said(app.status).startswith("Terminal 100×30")


@pytest.mark.parametrize("size", [(100, 30), (160, 50)])
async def test_the_legend_names_every_control_and_is_always_shown(tmp_path, size):
    app, clock = app_for(tmp_path)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        legend = said(app.query_one("#legend"))
        assert legend == LEGEND
        for words in ("0-9 A-D * # the pad", "Q W team buttons", "Z X hold a team button", "U hold *",
                      "R dice ROLL", "T text/pixels", "ctrl+q quit"):
            assert words in legend


async def test_both_cases_of_every_letter_key_work(tmp_path):
    app, clock = app_for(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        seen = []
        app.box.devices.keys.on_key = lambda event: seen.append((event.key, event.kind))
        await pilot.press("a", "A", "b", "B", "c", "C", "d", "D", "q", "Q", "w", "W")
        await let_time_pass(pilot, clock, 2.0)
        assert [key for key, kind in seen if kind == "press"] == ["A", "A", "B", "B", "C", "C", "D", "D",
                                                                 "team1", "team1", "team2", "team2"]
        app.box.devices.keys.on_key = app.box.on_key
        await pilot.press("6")          # the table tools, where holding * opens the game menu
        await let_time_pass(pilot, clock, 0.3)
        app.box.devices.keys.on_key = lambda event: seen.append((event.key, event.kind))
        seen.clear()
        await pilot.press("U")
        await let_time_pass(pilot, clock, 1.5)
        assert ("*", "hold") in seen
        text = app.show_text
        await pilot.press("T")
        assert app.show_text != text


async def test_the_text_view_shows_one_word_titles_verbatim(tmp_path):
    app, clock = app_for(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("1")          # Decrypto's setup: "[Decrypto 1/2]", its first page of two
        await let_time_pass(pilot, clock, 0.2)
        app.refresh_panels()
        assert app.box.shown["main"].text.startswith("[Decrypto 1/2]\n")
        assert said(app.panels["main"]) == app.box.shown["main"].text


async def test_the_status_line_clears_after_a_sound(tmp_path):
    app, clock = app_for(tmp_path)
    async with app.run_test(size=PIXELS_FIT) as pilot:
        app.box.sound("error")
        app.refresh_panels()
        assert said(app.status).startswith("buzzer: error\n")
        await let_time_pass(pilot, clock, SOUND_SHOWN + 0.1, step=0.1)
        app.refresh_panels()
        assert said(app.status).startswith("buzzer: -\n")


# --- issue 34 item 12 --------------------------------------------------------------------

async def test_drawn_buttons_name_their_keys_and_a_held_team_button_is_said(tmp_path):
    app, clock = app_for(tmp_path)
    async with app.run_test(size=PIXELS_FIT) as pilot:
        await pilot.pause()
        assert [str(app.query_one(f"#{i}").label) for i in ("key-team1", "key-team2", "roll")] == [
            "Team 1 (Q)", "Team 2 (W)", "ROLL dice (R)"]
        assert "Z X hold a team button down, again to let go" in LEGEND and "U hold * for 1 s" in LEGEND
        await pilot.press("x")
        assert said(app.status).startswith("Team 2 held: X lets go\n")
        await pilot.press("x")
        assert said(app.status).startswith("buzzer: ")


async def test_pixels_asked_for_at_160x50_narrow_the_pad_and_cut_no_key(tmp_path):
    app, clock = app_for(tmp_path)
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.press("t")
        await pilot.pause()
        assert not app.show_text
        cut = [name for name in out_of_sight(app) if name not in ("main", "team1", "team2")]
        assert cut == []
        await pilot.press("t")          # back to text: the pad as wide as ever
        await pilot.pause()
        assert app.query_one("#side").size.width == 30


def test_a_second_simulator_on_a_taken_port_says_so_and_does_not_start(tmp_path):
    import socket
    import subprocess
    import sys
    with socket.create_server(("127.0.0.1", 0)) as first:
        port = first.getsockname()[1]
        config = tmp_path / "config.toml"
        config.write_text(f'[web]\nhost = "127.0.0.1"\nport = {port}\n')
        run = subprocess.run([sys.executable, "-m", "referee.cli", "sim", "--config", str(config),
                              "--database", str(tmp_path / "sim.db")],
                             capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL)
    assert run.returncode == 1
    assert f"127.0.0.1:{port} is taken" in run.stderr and "another simulator" in run.stderr


async def test_ctrl_q_over_a_game_under_way_asks_first_and_a_second_quits(tmp_path):
    app, clock = app_for(tmp_path)
    async with app.run_test(size=PIXELS_FIT) as pilot:
        await pilot.press("1")          # Decrypto's setup: no game yet, nothing to ask
        await let_time_pass(pilot, clock, 0.2)
        await pilot.press("#")          # the game begins
        await let_time_pass(pilot, clock, 0.2)
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert app.return_code is None and said(app.status).startswith(QUIT_ASKED)
        await pilot.press("2")          # any other key: the game stays
        await pilot.pause()
        assert app.return_code is None and QUIT_ASKED not in said(app.status)
        await pilot.press("ctrl+q")
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert app.return_code == 0


async def test_ctrl_q_on_the_menus_quits_at_once(tmp_path):
    app, clock = app_for(tmp_path)
    async with app.run_test(size=PIXELS_FIT) as pilot:
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert app.return_code == 0


async def test_pixels_asked_for_at_100x30_say_what_the_terminal_cannot_show(tmp_path):
    app, clock = app_for(tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("t")
        await pilot.pause()
        status = said(app.status)
        assert not app.show_text and status.startswith("Terminal 100×30 cuts the pixels")
        assert "the public panel's right 32 columns" in status and "the team panels" in status
        assert "the pad not shown" in status and "t shows text" in status
        cut = set(out_of_sight(app))      # as said: the panels cut, the pad out of sight
        assert {"main", "team1", "team2"} <= cut and any(name.startswith("key-") for name in cut)
