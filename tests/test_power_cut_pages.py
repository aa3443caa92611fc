"""Issue 15 item 6: after a power cut the box comes back on the page of the
last key it took: setup forms (their choices, names and help pages), the
start homes of Octiles and the game menu held up by holding ``*`` included.
What README lists as coming back one step earlier: the settings and score-log
menus, and the pickers of names (tonight's players, the phone's QR code)."""
from __future__ import annotations

import dataclasses
import json
import random
import re
import sqlite3

import pytest

from referee import i18n
from referee.box.screen import layout
from referee.testing import Table
from test_wording import ALL, walk

MENU = "[Tabletop Referee"


def screens(t: Table) -> dict[str, str]:
    """The three screens, without a message flashed over main."""
    return {name: "\n".join(line for line in t.page(name).splitlines())
            for name in ("main", "team1", "team2")}


def unclocked(t: Table, shown: dict[str, str]) -> dict[str, str]:
    """``shown`` without the seconds of a countdown running: it comes back
    from its last press (test_box), not the second last shown."""
    cd = t.box.countdown()
    if cd is None or not cd.running:
        return shown
    return {name: re.sub(r"\b\d+:\d\d\b", "m:ss", text) for name, text in shown.items()}


def comes_back(t: Table) -> dict[str, str]:
    before = screens(t)
    steady = unclocked(t, before)
    t.restart()
    assert unclocked(t, screens(t)) == steady
    return before


def test_item6_a_setup_form_comes_back_with_its_choices_and_its_help_page(table):
    table.press("4")                       # Da Vinci Code
    table.type("13")                       # 3 players, 30 s: the digit turns to its page
    shown = comes_back(table)["main"]
    assert "Turn timer: 30 s" in shown and "[Da Vinci Code 2/3]" in shown
    table.type("DD")                       # round to the first page
    assert "Players: 3" in comes_back(table)["main"]
    table.press("C")
    assert comes_back(table)["main"].startswith("[Help")
    table.press("*")
    table.press("#")                       # started as chosen
    assert table.log()[0]["players"] == ["Player 1", "Player 2", "Player 3"]
    assert "Take 4 tiles each" in comes_back(table)["main"]


def test_item6_a_form_left_for_the_menu_is_not_brought_back(table):
    table.press("5")
    table.press("*")
    assert comes_back(table)["main"].startswith(MENU)


def test_item6_names_taken_on_a_form_come_back_with_it(table):
    table.start("decipher", players=["Ania", "Bara", "Cyril"])
    table.hold("*", 1.0)
    table.type("D#")                       # ended: Ania, Bara and Cyril are tonight's players
    table.press("5")
    table.type("A#")                       # the same players as the last game
    assert "Ania" in comes_back(table)["team1"]
    table.press("#")
    assert table.log()[0]["players"] == ["Ania", "Bara", "Cyril"]


def test_item6_OC1_the_start_homes_come_back_as_they_were_being_chosen(table):
    table.press("3")                       # Octiles
    table.type("2")                        # 4 runners
    table.press("#")
    table.press("1")                       # West's first runner off its home
    assert "1○12↓" in comes_back(table)["main"]
    table.type("5#")
    table.type("#")                        # East takes the first homes
    assert table.box.session.options["homes"][0] == ["A2", "A3", "A4", "A5"]


def test_item6_the_game_menu_held_up_comes_back_and_still_undoes(table):
    table.start("davinci", players=2)
    table.press("#")
    table.type("2B")
    table.hold("*", 1.0)
    assert comes_back(table)["main"].startswith("[Undo?")
    table.press("D")
    assert comes_back(table)["main"].startswith("[End this game?")
    table.press("*")
    table.hold("*", 1.0)
    table.press("#")
    assert "P1: draw a tile" in table.screen()
    assert "P1: draw a tile" in comes_back(table)["main"]


def test_item6_a_form_opened_while_the_tools_countdown_runs_comes_back_over_it(table):
    table.start("tools")
    table.type("B#")                       # a minute, running
    table.type("*D")                       # to the menu, the countdown running on
    table.press("1")                       # Decrypto's form
    table.press("3")
    form = comes_back(table)["main"]
    assert form.startswith("[Decrypto") and "Timer: off" in form
    table.press("*")
    assert table.screen().startswith("[Timer ")   # the menu's title counts it down


def test_item6_the_countdowns_questions_come_back_after_a_power_cut(table):
    # The soak found it: a cut while "#: set to 5:00" was up brought the box
    # back on the timer with "Could not restore the page".
    table.start("tools")
    table.type("B#")                       # a minute, running
    table.advance(2.0)
    table.press("C")                       # 5 min over a countdown under way: asked first
    asked = comes_back(table)["main"]
    assert "#: set to 5:00" in asked and "Could not restore" not in table.screen()
    table.press("#")
    assert "5:00" in table.screen()
    table.press("#")                       # going
    table.advance(1.0)
    table.press("*")                       # time on the countdown: asked before a reset
    asked = comes_back(table)["main"]
    assert "#: reset to 5:00" in asked and "Could not restore" not in table.screen()
    table.press("*")                       # kept, and still going
    assert table.screen().startswith("[Timer") and "#:Pause A:30s" in table.screen()


def test_item6_a_timer_page_saved_by_the_last_version_still_comes_back(table):
    # Before, the question was False, True or a letter: a box updated while
    # the tools' page is saved must not lose it.  The card is written here as
    # the last version left it, while the power is off.
    def as_the_last_version_saved_it(path):
        with sqlite3.connect(path) as db:
            (value,) = db.execute("SELECT value FROM settings WHERE key = 'ui'").fetchone()
            ui = json.loads(value)
            assert ui["view"]["asking"] == "*"
            ui["view"]["asking"] = True
            db.execute("UPDATE settings SET value = ? WHERE key = 'ui'", (json.dumps(ui),))

    table.start("tools")
    table.type("B#")
    table.press("*")                       # the reset question
    table.restart(meanwhile=as_the_last_version_saved_it)
    assert "#: reset to 1:00" in table.screen() and "Could not restore" not in table.screen()


# --- issue 33 item 6: the same page after a cut, line for line ---------------------------

def page(t: Table) -> dict[str, str]:
    """Each panel as laid out for the players without a passing message
    (which is not kept): its title, lines, the line of what was last done
    (whole, on one row or two) and key bar, as ``render`` draws them."""
    out = {}
    for name, screen in t.box.shown.items():
        at = layout(dataclasses.replace(screen, flash=""))
        out[name] = "\n".join((at.title, screen.big, *at.lines, at.said, *at.keys, screen.qr))
    return out


@pytest.mark.soak
@pytest.mark.parametrize("lang", ALL)
@pytest.mark.parametrize("game", ["decrypto", "osmisifry", "octiles", "davinci", "decipher"])
def test_every_page_comes_back_line_for_line_with_its_last_action(lang, game, soak):
    rng = random.Random(f"33.6/{game}/{lang}")
    options = {"decrypto": {}, "osmisifry": {"players": 2}, "octiles": {}, "davinci": {"players": 2},
               "decipher": {"players": 2, "length": 3}}[game]
    differ: dict[str, str] = {}
    cuts = 0
    try:
        with Table(seed=336, lang=lang) as t:
            t.start(game, **options)
            for _ in range(14 if soak else 6):      # make soak cuts more often
                walk(t, rng, rng.randint(3, 12), set())
                t.advance(3.0)                   # a message's seconds and a team button's "done?" run out
                if t.box.session is None:        # the walk ended the game: another one
                    t.start(game, **options)
                before = unclocked(t, page(t))
                t.restart()
                cuts += 1
                after = unclocked(t, page(t))
                if after != before:
                    differ.setdefault(before["main"], after["main"])
    finally:
        i18n.use("en")
    assert cuts >= 3
    assert differ == {}, "\n\n".join(f"{k}\n  came back as\n{v}" for k, v in differ.items())
