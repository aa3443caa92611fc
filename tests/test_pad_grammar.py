"""The pad's grammar (referee.box.flows.roles): a page takes only the keys
it shows, ``C`` is help in every game, ``*`` one step back and shown where
it acts; the text view is what the panel draws; a message goes with the
next key that acts; a setup's names and options wait while the table
steps back to the main menu.

The walk (tests/pad_walk.py) presses keys over every page of every game in
the four languages and checks all of it on each page it meets.
"""
from __future__ import annotations

import urllib.parse

import pytest

from referee import i18n
from referee.testing import Table
from pad_walk import walk
from test_web_naming import post


def test_a_walk_of_every_game_in_four_languages_meets_no_key_the_page_does_not_offer():
    try:
        found = walk(steps=45, seed=42)
    finally:
        i18n.use("en")
    assert len(found.pages) >= 70 and found.keys >= 900
    said = {kind: examples[:3] for kind, examples in found.examples.items()}
    # No key acts that its page does not offer; C never acts in a game but
    # as help; the text view lists only what the panel draws; no message
    # outlives the next key that acts.
    assert said == {}


def first(t: Table) -> list[str]:
    return t.screen().splitlines()


def test_OC8_C_is_help_and_passes_nothing_and_a_pass_is_asked_first_under_more(table):
    table.start("octiles", players=2, mode="dealer")
    turn = first(table)[0]
    table.press("C")
    assert first(table)[0].startswith("[Help 1/") and table.box.session.state.turns == ()
    table.press("*")
    assert first(table)[0] == turn and table.box.session.state.turns == ()
    table.type("D4")
    assert first(table)[0] == "[Pass the turn?]" and "#:Yes C:Help *:No" in table.screen()
    table.press("*")                                     # no: back on the turn, nothing passed
    assert first(table)[0] == turn and table.box.session.state.turns == ()
    table.type("D4#")
    assert len(table.box.session.state.turns) == 1 and first(table)[0] != turn


def test_a_key_the_page_does_not_offer_says_what_it_takes_and_changes_nothing(table):
    table.start("osmisifry", players=2)
    table.type("D#")
    table.dice.next(1, 1)
    table.press("#")
    table.type("###")                                    # decoding over: the first booklet is scored
    table.type("2#1#0#")
    assert "Secret destroyed? _" in table.screen() and "A:Yes B:No" in table.screen()
    page = table.box.flow.view()
    table.press("#")                                     # a habit from other pages
    assert "! # does nothing here: A Yes, B No, * Back" in table.screen()
    assert table.box.flow.view() == page and table.sounds[-1] == "error"
    title = first(table)[0]
    table.press("B")                                     # the answer, as the bar says
    assert first(table)[0] != title and table.log()[0]["status"] == "playing"


def test_DE_B_and_D_on_the_clue_timer_open_nothing_the_bar_does_not_show(table):
    table.start("decrypto")
    table.type(["team1", "team1"])                       # White done: Black's 30 seconds
    assert "C:Help" in table.screen() and "D:" not in table.screen()
    for key in "BD":
        before = table.box.flow.view()
        table.press(key)
        assert table.box.flow.view() == before and f"{key} does nothing here: C Help" in table.screen()


def test_tools_star_is_shown_wherever_it_acts_and_goes_one_step_back(table):
    table.press("6")                                     # Table tools: the timer
    assert "*:Back" in table.screen()
    table.press("D")                                     # the dice: * goes back to the timer
    assert "*:Timer" in table.screen() and "D:" not in table.screen()
    table.type("*8")                                     # back to the timer, where 8 types seconds
    assert "[Set timer]" in table.screen()
    table.press("*")
    table.type("DC")                                     # the last rolls
    assert "*:Back" in table.screen()
    table.press("*")
    assert "[Dice" in table.screen()


@pytest.mark.parametrize("lang", ["en", "cs", "pl", "ru"])
def test_a_banner_leaves_the_title_and_what_to_key_on_the_first_page(lang):
    with Table(seed=3, lang=lang, config={}) as t:
        t.start("octiles", players=2, mode="dealer")
        screen = t.box.shown["main"]
        assert screen.flash == i18n._("Hold *: undo, menu")
        rows = t.screen().splitlines()
        assert rows[0] == f"[{screen.title}]"
        assert i18n._("Space: {typed}_").format(typed="") in rows
        assert i18n._("1-{n}, then #").format(n=17) in " ".join(rows)


def test_a_message_goes_with_the_next_key_that_acts(table):
    table.start("decrypto")
    table.type(["team1", "team1", "team2", "team2"])
    table.press("5")                                     # a code's digits are 1 to 4: refused
    assert "! A code's digits are 1 to 4." in table.screen()
    table.press("1")                                     # a digit taken: the message goes
    assert "! " not in table.screen() and "> 1-_-_" in table.screen()


def test_a_key_that_changes_a_screen_draws_it_once(table):
    table.start("decrypto")
    table.type(["team1", "team1", "team2", "team2"])
    for key in "123#":                                   # three digits, then the guess committed
        frames = table.box.frames
        table.press(key)
        assert table.box.frames - frames == 1


def test_names_typed_on_a_phone_wait_while_the_table_steps_back_to_the_main_menu(table):
    table.web_url()
    table.press("1")                                     # Decrypto's setup
    table.press("B")
    [qr] = [line[3:] for line in table.screen().splitlines() if line.startswith("QR ")]
    path = urllib.parse.urlsplit(qr).path
    assert post(table, path, {"t1n1": "Ann", "t1n2": "Bob", "t2n1": "Cy", "t2n2": "Dana"})[0] == 303
    table.press("*")                                     # off the phone page
    table.press("3")                                     # an option changed: the timer
    timer = next(line for line in table.screen().splitlines() if line.startswith("3 "))
    table.press("*")                                     # off the form
    assert table.screen().startswith("[Tabletop Referee")
    assert table.get(path)[0] == 200                     # the phone's page still answers
    table.press("1")
    table.press("D")                                     # the timer's page of the form
    assert timer in table.screen()
    assert table.screen("team1").splitlines()[1:] == ["Ann", "Bob"]
    table.press("#")                                     # the game starts with them
    assert table.log()[0]["members"] == {"White": ["Ann", "Bob"], "Black": ["Cy", "Dana"]} or \
        [list(team) for team in table.log()[0]["members"].values()] == [["Ann", "Bob"], ["Cy", "Dana"]]
    assert table.get(path)[0] == 404                     # its setup is done with


def test_DE4_the_public_screens_own_words_are_there_for_the_table_view(table):
    table.start("decrypto")
    table.type(["team1", "team1"])                       # White done: Black's 30 seconds
    assert table.box.public_words() == {"title": "Black: finish clues!", "said": "White: clues done", "staged": False}
    table.advance(31)                                    # time up: the page says so in its lines
    assert table.box.public_words() == {"title": "Round 1: White code", "said": "", "staged": False}
    assert "Time up: stop writing" in table.screen() and "»" not in table.screen()


def test_a_key_that_commits_an_event_hands_the_main_display_one_picture(table):
    table.start("decrypto")
    table.type(["team1", "team1", "team2", "team2"])
    main = table.box.devices.displays["main"]
    for key in "213#":                                   # the guess's digits, then the guess committed
        pictures = main.pictures
        table.press(key)
        assert main.pictures - pictures == 1, key
    assert "White: 2-1-3" in table.screen()


def test_a_countdown_that_runs_out_hands_the_main_display_one_picture(table):
    # An event no key committed (the time up, a team page's clues) is drawn
    # once too, with what the rules and the taught pages made of it.
    table.start("tools")
    table.type("A#")                                     # 30 seconds, started
    table.advance(29.5)
    main = table.box.devices.displays["main"]
    pictures = main.pictures
    table.advance(1.0)
    assert main.pictures - pictures == 1
    assert table.screen().startswith("[Time is up!")
