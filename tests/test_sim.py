"""``referee sim``: the terminal simulator, driven with Textual's pilot on the
manual clock."""

from referee.clock import ManualClock
from referee.config import parse
from referee.sim import RefereeSim, braille, half_blocks, simulated


def app_for(tmp_path):
    clock = ManualClock()
    config = simulated(parse({"dice": {"driver": "software"}}), str(tmp_path / "sim.db"))
    return RefereeSim(config, clock), clock


async def let_time_pass(pilot, clock, seconds):
    for _ in range(int(seconds / 0.01)):
        clock.advance(0.01)
        await pilot.pause()


async def test_typed_keys_reach_the_public_panel(tmp_path):
    app, clock = app_for(tmp_path)
    async with app.run_test(size=(170, 52)) as pilot:
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
    async with app.run_test(size=(170, 52)) as pilot:
        await pilot.press("6")
        await let_time_pass(pilot, clock, 0.2)
        await pilot.press("t")
        assert "[Timer]" in app.panels["team1"]._last
        seen = []
        app.box.devices.keys.on_key = lambda event: seen.append((event.key, event.kind))
        await pilot.press("Q")          # hold team 1 down…
        await let_time_pass(pilot, clock, 1.0)
        await pilot.press("Q")          # …and let go
        await let_time_pass(pilot, clock, 0.1)
        assert seen == [("team1", "hold"), ("team1", "release")]


async def test_16_keys_typed_quickly_arrive_in_the_order_typed(tmp_path):
    # A terminal hands over keys typed quickly (tmux send-keys 3 2 1) all at
    # once; they must reach the box as typed, repeats included.
    app, clock = app_for(tmp_path)
    async with app.run_test(size=(170, 52)) as pilot:
        seen = []
        app.box.devices.keys.on_key = lambda event: seen.append((event.key, event.kind))
        await pilot.press("3", "2", "1", "q", "1", "#")
        await let_time_pass(pilot, clock, 1.5)
        assert seen == [("3", "press"), ("2", "press"), ("1", "press"), ("team1", "press"),
                        ("1", "press"), ("#", "press")]


async def test_clicking_a_pad_key_presses_it(tmp_path):
    app, clock = app_for(tmp_path)
    async with app.run_test(size=(170, 52)) as pilot:
        await pilot.click("#key-6")
        await let_time_pass(pilot, clock, 0.2)
        assert "1:00" in app.box.shown["main"].text


def test_braille_packs_two_by_four_pixels():
    from PIL import Image
    image = Image.new("1", (4, 4))
    image.putpixel((0, 0), 1)
    image.putpixel((3, 3), 1)
    assert braille(image) == chr(0x2801) + chr(0x2880)
