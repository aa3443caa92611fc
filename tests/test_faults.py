"""Faults players cause at the table: loose display cables, the dice module
pulled out and pushed back, a key that chatters, both team buttons held
down, a palm on the keypad, # drummed on through the end of a countdown,
the plug pulled while seconds are being typed.

Each time the box keeps its game exactly (the events in the store and the
countdown), is itself again within 2 s of the fault ending, and says what
happened in one line: the log holds no traceback for any of these.

``make test`` runs each fault a few times; ``make soak`` (``--soak``) for
several minutes of simulated time, and the dice module fifty times.
"""
from __future__ import annotations

import asyncio
import logging
import random
import time

import pytest

from referee.box.flows import clock_text
from referee.box.flows.decrypto import code_text
from referee.box.screen import render
from referee.config import DISPLAYS
from referee.testing import Table


def done(t, team):
    """A team's clues are written: two short presses of its button [DE-4]."""
    t.press(team)
    t.press(team)

pytestmark = pytest.mark.soak

HEAL_SECONDS = 2.0
# The dice module works on the real clock: a bound however loaded the
# machine.  How soon it is found again is bench/dice_bench.py's row.
DICE_WAIT = 10.0


@pytest.fixture
def log(caplog):
    caplog.set_level(logging.DEBUG)
    yield caplog
    said = [r for r in caplog.records if r.exc_info or "Traceback" in r.getMessage()]
    assert not said, [r.getMessage() for r in said]
    assert "Traceback" not in caplog.text


def stored(t: Table) -> list:
    return t.box.store.events(t.box.session.id)


def on_panel(t: Table, name: str) -> bool:
    """Whether the panel shows what the box means it to."""
    display = t.box.devices.displays[name]
    return display.online and t.image(name).tobytes() == render(t.box.shown[name]).tobytes()


def healed_after(t: Table, name: str, step: float = 0.01) -> float:
    """Simulated seconds until the panel shows its screen again."""
    steps = 0
    while not on_panel(t, name):
        if steps * step > 2 * HEAL_SECONDS:
            raise AssertionError(f"display {name} did not come back")
        t.advance(step)
        steps += 1
    return steps * step


def long_countdown(t: Table) -> None:
    """The table tools with 99:59 running: every panel changes every second."""
    t.press("6")
    t.type("5999#")
    t.press("#")


def test_display_faults_in_bursts_keep_the_game_and_each_panel_heals_within_2s(table, log, soak):
    t = table
    long_countdown(t)
    # The countdown started when # acted, once debounced, before the finger was up.
    started, events = t.clock.wall() - (t.clock.monotonic() - t.box.last_key.due), stored(t)
    rng = random.Random(121)
    worst, flaps = 0.0, 0
    bursts = 300 if soak else 12
    for burst in range(bursts):
        name = DISPLAYS[burst % len(DISPLAYS)]
        # A loose cable: the panel drops out and back a few times, for up
        # to a few seconds, while the table plays on.
        for _ in range(rng.randint(1, 6)):
            flaps += 1
            t.display_fault(name, True)
            t.advance(rng.uniform(0.01, 0.8))
            if rng.random() < 0.3:   # turns main between the countdown and the dice
                t.press("D" if t.screen("main").startswith("[Timer") else "*")
            t.display_fault(name, False)
            t.advance(rng.uniform(0.0, 0.05))
        flaps += 1
        t.display_fault(name, True)
        t.advance(rng.uniform(0.01, 0.8))
        t.display_fault(name, False)
        worst = max(worst, healed_after(t, name))
        assert all(on_panel(t, other) for other in DISPLAYS if other != name)
    assert worst <= HEAL_SECONDS
    assert stored(t) == events                       # nothing played itself, nothing lost
    left = 5999 - (t.clock.wall() - started)
    assert t.box.remaining() == pytest.approx(left)
    if not t.screen("main").startswith("[Timer"):   # the dice page goes back to the timer on *
        t.press("*")
    assert clock_text(t.box.remaining()) in t.screen("main")
    print(f"\ndisplays: {bursts} bursts, {flaps} drop-outs, every panel back within {worst:.2f} s")


def run_until(t: Table, done, seconds: float) -> float:
    """Real seconds until ``done()``: the dice module works on threads and
    a pty, on the real clock."""
    async def poll():
        begin = time.monotonic()
        while not done():
            if time.monotonic() - begin > seconds:
                raise AssertionError(f"not within {seconds} s")
            await asyncio.sleep(0.005)
        return time.monotonic() - begin
    took = t.loop.run_until_complete(poll())
    t.advance(0)   # and what the news set off on the loop
    return took


def test_the_dice_module_pulled_out_and_pushed_back_in(log, soak):
    with Table(seed=3) as t:
        dice = t.box.devices.dice
        t.press("6")
        t.press("D")   # the dice page
        run_until(t, lambda: dice.status == "online", 5)
        worst = 0.0
        cycles = 50 if soak else 3
        for _ in range(cycles):
            events = len(stored(t))
            t.dice.unplug()
            run_until(t, lambda: dice.status == "offline", DICE_WAIT)
            assert "Dice module offline" in t.screen("main")
            t.press("#")   # the game goes on: rolled in software
            assert "(software)" in t.screen("main") and len(stored(t)) == events + 1
            t.dice.plug_in()
            worst = max(worst, run_until(t, lambda: dice.status == "online", DICE_WAIT))
            assert "Dice module is back" in t.screen("main")
            t.dice.next(3, 6)
            t.press("#")   # from the module again, with the faces it shows
            assert "3  6" in t.screen("main") and "(software)" not in t.screen("main")
            assert [e["source"] for e, _ in stored(t)[-2:]] == ["software", "module"]
        print(f"\ndice module: pulled out {cycles} times, back online within {worst:.2f} s")


def bounce(t: Table, key: str, seconds: float) -> None:
    """A contact that chatters: 100 edges a second, each level 10 ms, out
    of step with the keypad scan."""
    pins = t.box.devices.pins
    t.advance(0.003)
    for edge in range(round(seconds * 100)):
        pins.set(key, edge % 2 == 0)
        t.advance(0.01)
    pins.set(key, False)


def test_a_key_chattering_100_edges_a_second_is_no_key_and_the_next_press_counts(table, log, soak):
    t = table
    t.press("6")
    t.press("A")   # 0:30, waiting for # to start
    keys, events, screen = t.box.key_count, stored(t), t.screen("main")
    bounce(t, "#", 120 if soak else 5)
    assert t.box.key_count == keys and stored(t) == events and t.screen("main") == screen
    t.press("#")   # the fault is over: a clean press is taken at once
    assert "Pause" in t.screen("main") and len(stored(t)) == len(events) + 1
    t.advance(HEAL_SECONDS)
    assert "0:28" in t.screen("main")


def test_DE4_a_chattering_team_button_is_no_clues_done(table, log, soak):
    t = table
    t.start("decrypto")
    events = stored(t)
    bounce(t, "team1", 60 if soak else 5)
    assert stored(t) == events and t.box.session.state.clues_done == (False, False)
    done(t, "team1")
    assert t.box.session.state.clues_done == (True, False)
    assert "0:30" in t.screen("team2")   # [DE-4] the other team's sand timer runs


def test_DE3_both_team_buttons_held_for_a_minute(table, log, soak):
    t = table
    t.start("decrypto")
    s = t.box.session.state
    events, main = stored(t), t.page("main")   # the page, beneath the first page's banner the buttons take down
    t.down("team1")
    t.down("team2")
    t.advance(600 if soak else 60)
    # [DE-3] each encryptor sees their own code, for as long as they hold
    assert code_text(s.codes[0]) in t.screen("team1") and code_text(s.codes[1]) in t.screen("team2")
    assert code_text(s.codes[1]) not in t.screen("team1") and code_text(s.codes[0]) not in t.screen("team2")
    assert stored(t) == events and t.screen("main") == main
    t.up("team1")
    t.up("team2")
    assert code_text(s.codes[0]) not in t.screen("team1") and code_text(s.codes[1]) not in t.screen("team2")
    assert stored(t) == events and t.box.session.state == s
    done(t, "team2")   # let go: the next two short presses are "our clues are written"
    assert t.box.session.state.clues_done == (False, True)


def test_a_palm_on_the_keypad_for_a_second_plays_nothing(table, log):
    t = table
    long_countdown(t)
    events = stored(t)
    pins = t.box.devices.pins
    for key in "0123456789ABCD*#":
        pins.set(key, True)
    t.advance(1.0)
    for key in "0123456789ABCD*#":
        pins.set(key, False)
    t.advance(0.1)
    # Every key was held, none pressed: holding * is the game menu, the rest
    # do nothing.  The menu goes with *, and the countdown never stopped.
    assert stored(t) == events
    assert "Undo?" in t.screen("main") or "Nothing to undo." in t.screen("main")
    t.press("*")
    assert "Timer" in t.screen("main") and "99:58" in t.screen("main")


def test_go_and_pause_mashed_through_the_last_second_of_a_countdown(table, log):
    t = table
    t.press("6")
    t.type("3#")   # 0:03
    t.press("#")
    # Someone drums on # until the time is up: go, pause, go, pause...
    for _ in range(60):
        if "Time is up!" in t.screen("main"):
            break
        t.press("#")
        t.advance(0.07)
    assert "Time is up!" in t.screen("main") and t.sounds.count("timeup") == 1
    assert t.box.session.state.expired


def test_a_power_cut_while_seconds_are_typed_comes_back_with_them(table, log):
    t = table
    t.press("6")
    t.type("45")   # typing 45 seconds for the countdown
    typed = t.screen("main")
    t.advance(1)   # longer than the box takes to note what is on the screen
    t.restart()
    assert t.screen("main") == typed
    t.press("#")
    assert "0:45" in t.screen("main")
