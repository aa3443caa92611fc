"""Issue 15 item 4 and issue 16's evening cut-off: durations run on the game
clock, the wall clock only labels.  A Pi has no battery clock: NTP steps the
wall clock by hours at boot, or from 1970.  Here the steps come from the
virtual table's manual clock (``Table.clock.step_wall``); the same trials
against a running ``referee run`` are in test_clock_steps_process.py."""
from __future__ import annotations

import datetime as dt
import re

import pytest

from referee.store.scorelog import evening_start
from referee.testing import Table

HOUR = 3600.0
STEPS = (-HOUR, HOUR, -5 * HOUR, 11 * HOUR)


def seconds_shown(t: Table) -> int:
    minutes, seconds = re.search(r"(\d+):(\d\d)", t.screen("main")).groups()
    return int(minutes) * 60 + int(seconds)


def to_1970(t: Table) -> None:
    """The box booted without network: its clock says January 1970."""
    t.clock.step_wall(86400.0 - t.clock.wall())


@pytest.mark.parametrize("step", STEPS)
def test_a_wall_clock_step_changes_no_countdown_pause_or_resume(step):
    with Table(seed=1) as t:
        t.press("6")
        t.press("B")                      # 1 minute
        t.press("#")
        t.advance(10)
        t.clock.step_wall(step)
        t.advance(10)
        assert seconds_shown(t) == 40 and "Time is up!" not in t.screen("main")
        t.press("#")                      # pause
        t.clock.step_wall(-step)
        t.advance(100)
        assert seconds_shown(t) == 40
        t.press("#")                      # resume
        t.clock.step_wall(step)
        t.advance(39.8)
        assert seconds_shown(t) == 1
        t.advance(0.3)
        assert "Time is up!" in t.screen("main") and t.sounds.count("timeup") == 1


@pytest.mark.parametrize("step", STEPS)
def test_a_step_during_a_turn_timer_changes_neither_the_timer_nor_the_order(step):
    with Table(seed=1) as t:
        t.start("davinci", players=2, turn_timer=60)
        t.press("#")
        t.advance(20)
        t.clock.step_wall(step)
        t.press("2")
        t.press("B")                      # P1 misses: P2's turn, a fresh minute
        t.advance(30)
        assert "0:30" in t.screen("main") and "P2" in t.screen("main")
        game = t.log()[0]
        assert game["game"] == "davinci" and game["status"] == "playing"


def test_a_game_begun_at_1970_is_re_dated_when_the_clock_is_set():
    with Table(seed=1) as t:
        true_now = t.clock.wall()
        t.start("decipher", players=2)    # yesterday's game, on a synchronised clock
        t.box.leave()
        t.advance(HOUR)
        t.restart()                       # tonight the box boots without network
        to_1970(t)
        t.restart()
        t.start("davinci", players=2)
        t.press("#")
        t.press("2")
        t.press("A")
        t.clock.step_wall(true_now + HOUR - t.clock.wall() + 60)   # NTP
        t.press("#")                      # P1 stops
        log = t.log()
        assert [g["game"] for g in log] == ["davinci", "decipher"]
        started = {g["game"]: g["started"] for g in log}
        assert started["decipher"] < started["davinci"] <= t.box.labels.now()
        assert started["davinci"] > true_now  # not 1970, not before yesterday's game
        status, _, body = t.get("/api/evenings")
        days = [e["day"] for e in __import__("json").loads(body)["evenings"]]
        assert days == sorted(days, reverse=True) and not any(d.startswith("19") for d in days)


def test_a_box_booted_at_1970_never_files_a_game_before_the_last_one():
    # Until NTP answers, the labels stay after the newest one on the card.
    with Table(seed=1) as t:
        t.start("decipher", players=2)
        t.box.leave()
        first = t.log()[0]["started"]
        to_1970(t)
        t.restart()
        t.start("davinci", players=2)
        rows = t.box.store.games()
        assert rows[0].name == "davinci" and rows[0].started >= first
        assert dt.date.fromtimestamp(rows[0].started).year > 1970


def test_labels_of_this_boot_keep_their_order_across_a_step_back():
    with Table(seed=1) as t:
        t.start("decipher", players=2)
        t.box.leave()
        t.advance(60)
        t.clock.step_wall(-5 * HOUR)
        t.start("davinci", players=2)
        t.box.leave()
        rows = t.box.store.games()
        assert [r.name for r in rows] == ["davinci", "decipher"]
        assert rows[0].started - rows[1].started == pytest.approx(60, abs=1)


def test_a_game_in_play_at_the_cut_off_stays_on_tonights_page_until_it_ends():
    with Table(seed=1) as t:
        # 05:30 in the morning, local time.
        cut_off = evening_start(t.clock.wall()) + 24 * HOUR
        t.clock.step_wall(cut_off - 1800 - t.clock.wall())
        t.restart()
        t.start("davinci", players=2)
        t.press("#")
        t.advance(HOUR)                  # 06:30: a new evening by the calendar
        assert [g["game"] for g in t.log()] == ["davinci"]
        status, _, body = t.get("/api/evening")
        assert status == 200 and '"davinci"' in body
        status, _, page = t.get("/")
        assert status == 200 and "playing" in t.log()[0]["status"]
        t.box.leave()                    # the game ends: it belongs to last night
        assert t.log() == []
