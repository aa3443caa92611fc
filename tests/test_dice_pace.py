"""Issue 15 item 5: a dice module that floods valid ``BUTTON`` lines stores
no more rolls than a hand could make, and the journal says how many it
dropped, once, not once a line.

The simulated module (the firmware's own code over a pty) presses its
button; the box's manual clock says how fast.
"""
from __future__ import annotations

import logging
import time

import pytest

from hal import dice_serial
from referee.testing import Table


@pytest.fixture
def tools():
    with Table(seed=7, lang="en") as t:
        t.press("6")
        t.press("D")                      # the dice page: a roll is always wanted
        yield t


def stored_rolls(t: Table) -> int:
    return sum(data["type"] == "Rolled" for data, _at in t.box.store.events(t.box.session.id))


def test_item5_a_flood_of_button_rolls_stores_what_a_hand_could_roll_and_counts_the_rest(tools, caplog):
    presses, every = 100, 0.01            # 100 presses a second, for a second
    began = time.monotonic()
    with caplog.at_level(logging.WARNING, "hal.dice_serial"):
        for _ in range(presses):
            tools.dice.roll_button()
            tools.advance(every)
    took = time.monotonic() - began       # the journal is paced in real seconds
    stored = stored_rolls(tools)
    most = dice_serial.BUTTON_BURST + dice_serial.BUTTON_RATE * presses * every
    assert dice_serial.BUTTON_RATE * presses * every <= stored <= most
    assert tools.box.devices.dice.dropped == presses - stored
    said = [r.getMessage() for r in caplog.records if "faster than a hand" in r.getMessage()]
    assert 1 <= len(said) <= 1 + took // dice_serial.WARN_EVERY, said
    assert said[0].endswith("1 button rolls dropped since the start"), said


def test_item5_a_hand_at_its_fastest_loses_no_roll(tools):
    for _ in range(30):
        tools.dice.roll_button()
        tools.advance(1 / dice_serial.BUTTON_RATE)
    assert stored_rolls(tools) == 30 and tools.box.devices.dice.dropped == 0


def test_item5_a_double_press_is_two_rolls(tools):
    tools.advance(5)
    tools.dice.roll_button()
    tools.dice.roll_button()
    assert stored_rolls(tools) == 2
