"""The keypad path: no key press lost and none out of order however late the
event loop is (issue 16, item 1), and a matrix that never drives two rows
against each other (issue 18, item 2)."""
import asyncio
import contextlib
import itertools
import random
import threading
import time

from hal.keys import DEBOUNCE, HOLD, LAYOUT, SCAN, KeyEvent, Keys
from hal.sim.pins import SimulatedPins
from referee.clock import RealClock
from referee.testing import Table

ROWS, COLS, TEAMS = (5, 6, 13, 19), (12, 16, 20, 21), {"team1": 23, "team2": 24}
KEYS = [k for row in LAYOUT for k in row]


def until(done, seconds: float = 10.0) -> None:
    """Poll ``done()`` from a thread that is not the loop's."""
    end = time.monotonic() + seconds
    while not done():
        if time.monotonic() > end:
            raise TimeoutError("the keypad did not take the key")
        time.sleep(0.001)


def heard_by(t: Table) -> list:
    """The key events the box gets from now on, still handed to it."""
    heard = []
    keys, on_key = t.box.devices.keys, t.box.on_key
    keys.on_key = lambda event: (heard.append((event.key, event.kind)), on_key(event))
    return heard


@contextlib.contextmanager
def loop_stalled(t: Table):
    """The virtual table's loop gets no turn while time passes: a render,
    a page or a disk write holding it up."""
    settle = t.clock.settle
    t.clock.settle = lambda: None
    try:
        yield
    finally:
        t.clock.settle = settle
        settle()


# --- issue 16, item 1: no key lost, none out of order ----------------------------


def test_keys_pressed_while_the_real_loop_is_stuck_all_arrive_in_order():
    # The real clock: the scan runs on its own thread.  A callback blocks the
    # loop while fingers (another thread) press keys and team buttons, each
    # let go as soon as the keypad has taken it down.
    loop = asyncio.new_event_loop()
    pins = SimulatedPins(ROWS, COLS, TEAMS)
    heard = []
    keys = Keys(ROWS, COLS, TEAMS, RealClock(loop), lambda event: heard.append((event.key, event.kind)),
                pin_factory=pins.factory)
    keys.start(loop)
    typed = ["3", "2", "1", "team2", "#", "3", "team1", "A", "*", "0", "D"]
    fingers_done, heard_while_stuck = threading.Event(), []

    def fingers():
        try:
            for key in typed:
                pins.set(key, True)
                until(lambda key=key: key in keys.held())
                pins.set(key, False)
                until(lambda key=key: key not in keys.held())
            heard_while_stuck.extend(heard)
        finally:
            fingers_done.set()

    async def all_heard():
        while len(heard) < len(typed):
            await asyncio.sleep(0.005)

    try:
        loop.call_soon(fingers_done.wait, 30)     # the loop is stuck until the fingers are done
        threading.Thread(target=fingers).start()
        loop.run_until_complete(asyncio.wait_for(all_heard(), 30))
    finally:
        keys.close()
        loop.close()
    assert heard_while_stuck == []               # the loop really was stuck meanwhile
    assert heard == [(key, "press") for key in typed]


def test_presses_of_40ms_during_a_500ms_stall_are_all_taken_in_order(table):
    t = table
    t.press("6")                                 # the table tools: typed seconds show
    heard = heard_by(t)
    pins = t.box.devices.pins
    with loop_stalled(t):
        for key in ("3", "1", "team2", "2", "team1", "1"):
            pins.set(key, True)
            t.advance(0.04)
            pins.set(key, False)
            t.advance(0.04)
        t.advance(0.02)
        assert heard == []                       # nothing reached the box during the stall
    assert heard == [("3", "press"), ("1", "press"), ("team2", "press"), ("2", "press"),
                     ("team1", "press"), ("1", "press")]
    assert "3121s" in t.screen("main")


def test_keys_arrive_in_the_order_they_went_down_not_let_go(table):
    t = table
    heard = heard_by(t)
    pins = t.box.devices.pins
    # A team button goes down first and stays (a hold means something for
    # it: it reports when let go); 9 is pressed and let go meanwhile: the
    # box hears the button first, as soon as it is let go.
    pins.set("team1", True)
    t.advance(0.1)
    pins.set("9", True)
    t.advance(0.05)
    pins.set("9", False)
    t.advance(0.1)
    assert heard == []
    pins.set("team1", False)
    t.advance(0.05)
    assert heard == [("team1", "press"), ("9", "press")]
    # Three keys let go between two scans come in the order they went down
    # (one scan apart), not row by row.
    heard.clear()
    for key in "D82":
        pins.set(key, True)
        t.advance(0.012)
    t.advance(0.05)
    for key in "D82":
        pins.set(key, False)
    t.advance(0.05)
    assert heard == [("D", "press"), ("8", "press"), ("2", "press")]


def test_a_key_held_down_does_not_hold_up_the_others_past_a_hold(table):
    t = table
    heard = heard_by(t)
    pins = t.box.devices.pins
    pins.set("team1", True)                      # peeking at the team's code
    t.advance(0.1)
    pins.set("7", True)
    t.advance(0.05)
    pins.set("7", False)
    t.advance(1.0)
    assert heard == [("team1", "hold"), ("7", "press")]
    pins.set("team1", False)
    t.advance(0.05)
    assert heard[-1] == ("team1", "release")


# --- issue 18, item 2: the keypad's electrics ---------------------------------------


def test_a_press_is_taken_on_the_scan_its_debounce_ends_however_late_each_scan_wakes(table):
    # A real scan thread wakes a little after each due moment, by its own
    # amount each time: timed by those wake-ups, a level read on scans 20 ms
    # apart on the grid would seem to have held 19.x ms about half the time,
    # and be taken a whole scan (10 ms) later.
    t = table
    keys = t.box.devices.keys
    # A page where every key has a hold meaning: "D" reports when let go,
    # and its release falls anywhere on the scan grid.
    t.box.holds = lambda: frozenset(KEYS)
    t.box.render()
    rng = random.Random(16)
    on_time, jitter = keys.timer.call_later, 0.004
    keys.timer.call_later = lambda delay, fn, *args: on_time(delay + rng.uniform(0.0, jitter), fn, *args)
    taken, on_key = [], keys.on_key
    keys.on_key = lambda event: (taken.append((event.key, t.clock.monotonic(), event.due)), on_key(event))
    late = []
    for n in range(40):
        t.down("D")
        t.advance(0.1 + n * 0.0013)           # let go anywhere between two scans
        up = t.clock.monotonic()
        t.up("D")
        t.advance(0.1)
        key, at, due = taken[-1]
        assert key == "D" and len(taken) == n + 1
        assert up + DEBOUNCE - jitter <= due <= at     # (a scan's reading counts as made when it was due)
        late.append(at - (up + DEBOUNCE))
    assert max(late) <= SCAN + jitter, late            # taken by the first scan after the debounce


def test_no_two_rows_are_ever_driven_to_different_levels(table):
    t = table
    pins = t.box.devices.pins
    pins.row_log = []
    heard = heard_by(t)
    # Two keys held in one column (1 and 4), a third pressed in it (7), and
    # keys of the other rows typed meanwhile; every key a hold means
    # something for, so that each reports its hold and its release.
    t.box.holds = lambda: frozenset(KEYS)
    t.box.render()
    t.down("1")
    t.down("4")
    t.advance(0.7)
    t.type("7908#")
    for key in "14":
        t.up(key)
    t.type("2580")
    assert len(pins.row_log) > 100               # the scans were recorded
    for rows in pins.row_log:
        levels = {state for function, state in rows if function == "output"}
        assert levels <= {False}, rows           # outputs only ever low; the rest let go
    assert pins.shorts == 0
    assert heard[:2] == [("1", "hold"), ("4", "hold")]
    assert [k for k, kind in heard if kind == "press"] == list("7908#2580")


def test_any_two_keys_held_together_read_as_those_two(table):
    t = table
    pins = t.box.devices.pins
    heard = []
    t.box.devices.keys.on_key = lambda event: heard.append((event.key, event.kind))   # the box hears none
    t.box.devices.keys.page_holds(frozenset(KEYS))   # each says "hold" and "release"
    for a, b in itertools.combinations(KEYS, 2):
        heard.clear()
        pins.set(a, True)
        pins.set(b, True)
        t.advance(0.7)
        pins.set(a, False)
        pins.set(b, False)
        t.advance(0.1)
        assert sorted(heard) == sorted([(a, "hold"), (b, "hold"), (a, "release"), (b, "release")]), (a, b)
    assert pins.shorts == 0


def test_the_simulated_copper_shows_a_short_when_a_row_is_driven_high(table):
    # The model the tests above trust: a row driven high while another is
    # driven low, with two keys held in one column, is a short.
    t = table
    pins = t.box.devices.pins
    row1, row2 = (t.box.devices.keys._rows[r].pin for r in (0, 1))
    pins.set("1", True)
    pins.set("4", True)
    assert pins.shorts == 0
    row1.state = True
    assert pins.shorts == 1
    row1.state = False
    row2.function = "input"
    row1.state = True                            # a row let go drives nothing
    assert pins.shorts == 1


def test_on_key_is_handed_one_event_with_when_it_happened_and_when_it_was_known(table):
    t = table
    t.box.holds = lambda: frozenset(KEYS)          # "5" with a hold meaning: it reports when let go
    t.box.render()
    events, on_key = [], t.box.on_key
    t.box.devices.keys.on_key = lambda event: (events.append(event), on_key(event))
    down = t.clock.monotonic()
    t.down("5")
    t.advance(0.1)
    up = t.clock.monotonic()
    t.up("5")
    t.advance(0.1)
    t.down("5")
    t.advance(HOLD + 0.1)
    [press, hold] = events
    assert isinstance(press, KeyEvent) and (press.key, press.kind) == ("5", "press")
    assert down <= press.at < down + SCAN                            # when it went down
    assert up + DEBOUNCE <= press.due <= up + DEBOUNCE + SCAN       # known once let go and settled
    assert hold.kind == "hold" and abs(hold.due - hold.at - HOLD) < 1e-9   # known once held long enough
    assert t.box.last_key == hold


# --- issue 25, item 6: keys act when pressed ---------------------------------------


def test_a_digit_acts_once_debounced_on_the_way_down(table):
    t = table
    t.press("6")                                 # the table tools: typed seconds show
    heard = heard_by(t)
    down = t.clock.monotonic()
    t.down("5")
    t.advance(DEBOUNCE - 0.001)
    assert heard == [] and "5s" not in t.screen("main")
    t.advance(0.001)
    assert heard == [("5", "press")] and "[Set timer]\n5s" in t.screen("main")
    assert (t.box.last_key.at, t.box.last_key.due) == (down, down + DEBOUNCE)
    t.advance(1.0)                               # held on: no hold meaning, nothing more
    t.up("5")
    assert heard == [("5", "press")] and "5s" in t.screen("main")


def test_star_in_a_game_still_waits_for_its_release_or_its_hold(table):
    t = table
    t.type("6" "12")                             # the table tools: a game, where holding * means the menu
    assert "*" in t.box.holds()
    heard = heard_by(t)
    t.down("*")
    t.advance(0.3)
    assert heard == [] and "12s" in t.screen("main")
    t.up("*")                                    # let go early: a press, it clears the seconds
    assert heard == [("*", "press")] and "12s" not in t.screen("main")
    t.hold("*", 1.0)
    assert heard[1:] == [("*", "hold"), ("*", "release")] and "[Game menu]" in t.screen("main")
    t.down("*")                                  # in the game menu a hold means nothing: * closes it at once
    t.advance(DEBOUNCE)
    assert heard[-1] == ("*", "press") and "[Game menu]" not in t.screen("main")
    t.up("*")


def test_star_on_the_menus_and_a_letter_act_on_the_way_down(table):
    t = table
    assert t.box.holds() == {"team1", "team2"}
    t.down("8")
    t.advance(DEBOUNCE)
    assert t.screen("main").startswith("[Language")
    t.up("8")
    t.down("*")
    t.advance(DEBOUNCE)
    assert t.screen("main").startswith("[Tabletop Referee 1/2]")
    t.up("*")
    t.down("D")
    t.advance(DEBOUNCE)
    assert t.screen("main").startswith("[Tabletop Referee 2/2]")
    t.up("D")


def test_a_team_button_still_waits_for_its_release(table):
    t = table
    heard = heard_by(t)
    t.down("team1")
    t.advance(0.3)
    assert heard == []
    t.up("team1")
    assert heard == [("team1", "press")]
