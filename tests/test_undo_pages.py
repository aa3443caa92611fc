"""Issue 20 item 9, issue 15 item 6: after an undo the screens are the ones
the table had before the undone move was keyed, in every game, also across a
power cut, and the key that made the move does not make it again from there.

Each case keys a move in, takes it back and then presses the move's last
key once more: the player has to choose again, so that key alone makes no
move (it only begins another one, or is refused).  A power cut comes right
after the move (the undo then lands on the page kept with the move's row),
right after the undo, or between the undo's row and its page.
"""
from __future__ import annotations

import dataclasses

import sqlite3

import pytest

from referee.testing import Table
from test_octiles_table import StackedDeck

CUTS = ("no cut", "cut after the move", "cut after the undo", "cut between the undo and its page")


def shown(t: Table) -> dict[str, str]:
    """The three screens, without a message flashed over main (which takes
    the rows of the page's own lines and of what was last done: that line
    is left out too)."""
    return {name: "\n".join(line for line in dataclasses.replace(t.box.shown[name], flash="").text.splitlines()
                            if not line.startswith("»"))
            for name in ("main", "team1", "team2")}


def moves(t: Table) -> list:
    """The game's events that count (undone ones left out)."""
    return [event for event, _at in t.box.session.events]


def undo(t: Table) -> None:
    t.hold("*", 1.0)
    assert "Undo?" in t.screen()
    t.press("#")
    assert "! Undone." in t.screen()


def lands_before(t: Table, keys, again: str, cut: str) -> None:
    """``keys`` make one move; undone, the screens are those before it,
    and ``again`` (the move's last key) does not make it again there."""
    before, made = shown(t), moves(t)
    t.type(keys)
    move = moves(t)[len(made):]
    assert move and shown(t) != before
    if cut == "cut after the move":
        t.restart()
    page = t.box.store.setting("ui")
    undo(t)
    assert shown(t) == before and moves(t) == made
    if cut == "cut between the undo and its page":
        t.box.store.set_setting("ui", page)   # the undo's row is on disk, its page is not
    if cut in ("cut after the undo", "cut between the undo and its page"):
        t.restart()
        assert shown(t) == before
    t.type(again)
    assert moves(t)[:len(made)] == made and moves(t)[len(made):len(made) + len(move)] != move, \
        f"{again!r} made the undone move again"


@pytest.mark.parametrize("cut", CUTS)
def test_DV_undo_lands_before_the_target_is_named(table, cut):
    table.start("davinci", players=3)
    table.press("#")
    lands_before(table, "2B", "B", cut)          # P1 misses P2; B alone names no one
    assert "B does nothing here" in table.screen()
    lands_before(table, "3A", "A", cut)          # a hit, then the page that asks "again?"


@pytest.mark.parametrize("cut", CUTS)
def test_DE_undo_lands_on_the_play_page_with_nothing_typed(table, cut):
    table.start("decrypto")
    lands_before(table, "A12", "2", cut)         # a keyword swap, from the swap page
    table.type(["team1", "team1", "team2", "team2"])
    lands_before(table, "124#", "#", cut)        # White's decode; # alone guesses nothing
    assert "! " in table.screen()                # the rules say why


@pytest.mark.parametrize("cut", CUTS)
def test_OS_undo_lands_before_the_question_or_the_answers(table, cut):
    table.start("osmisifry", players=2)
    table.dice.next(4, 3)
    lands_before(table, "#", "", cut)            # a roll: the row is to be rolled again
    lands_before(table, "D#", "#", cut)          # creation ended early: # alone rolls a letter
    table.type("D#")
    table.dice.next(2)
    table.type("###")                            # direction, the five minutes, all done early?
    table.press("#")
    assert "Pictures drawn: _" in table.screen()
    lands_before(table, "0#0#0#B", "B", cut)     # a booklet scored: its answers are asked anew
    assert "Pictures drawn: _" in table.screen()


@pytest.mark.parametrize("cut", CUTS)
def test_OC_undo_lands_before_the_space_is_keyed_not_on_the_picture_or_the_moves(table, cut):
    table.box.rng = StackedDeck("T01", "T02", "T03")
    table.start("octiles", players=2)
    lands_before(table, "12###", "#", cut)       # the only move, shown with the tile: # alone asks for the space
    assert "Space: _" in table.screen() and "West to play" in table.screen()
    table.type("12###")
    lands_before(table, "6#BB#2", "2", cut)      # a move from the list: 2 alone begins a space
    assert "Space: 2_" in table.screen()
    table.press("*")
    lands_before(table, "D2#", "#", cut)         # the game ended by the table: # alone ends nothing
    assert "Space: _" in table.screen()


@pytest.mark.parametrize("cut", CUTS)
def test_DC_undo_lands_on_the_turn_not_the_guess(table, cut):
    table.start("decipher", players=3)
    lands_before(table, "5#", "#", cut)          # the maker's count: asked again, # starts without it
    assert "Pieces: —" in table.screen()
    lands_before(table, "2A", "A", cut)          # Player 2 solves it: A alone is the maker's YES
    assert "Turn: Player 3" in table.screen()


@pytest.mark.parametrize("cut", CUTS)
def test_tools_undo_lands_on_the_page_of_the_roll_and_before_the_question(table, cut):
    table.start("tools")
    lands_before(table, "90#", "#", cut)         # typed seconds: # alone starts what was set before
    table.type("B#")                             # that countdown is under way: B asks first
    table.press("#")                             # the minute runs
    table.advance(5)
    lands_before(table, "*#", "#", cut)          # "reset it?" yes: back before the question
    table.press("D")
    table.dice.next(6, 1)
    lands_before(table, "#", "", cut)            # a roll: back on the dice page
    assert "[Dice 2d8]" in table.screen()


def test_OC_undo_of_a_move_whose_page_cannot_be_read_lands_on_the_games_first_page(table, caplog):
    # A page stored with a move that no longer fits the flow (a damaged
    # row, another version's record) gives way to the game's first page.
    table.box.rng = StackedDeck("T01", "T02", "T03")
    table.start("octiles", players=2)
    table.type("12###")
    with sqlite3.connect(table.database) as db:
        db.execute("""UPDATE events SET view = '{"page": "north"}' WHERE seq = (SELECT MAX(seq) FROM events)""")
    undo(table)
    assert "West to play" in table.screen() and "Space: _" in table.screen()
    assert "cannot be shown" in caplog.text
    table.restart()
    assert "West to play" in table.screen() and "Space: _" in table.screen()


def test_a_database_from_before_pages_were_kept_gains_the_column_and_undoes_to_the_first_page(tmp_path):
    # events without ``view``, as the box wrote them before: opened, the
    # column is added; the old moves undo to the game's first page.
    path = str(tmp_path / "referee.db")
    with Table(seed=7, lang="en", config={"database": path}) as t:
        t.box.rng = StackedDeck("T01", "T02", "T03")
        t.start("octiles", players=2)
        t.type("12###")
    with sqlite3.connect(path) as db:
        db.execute("ALTER TABLE events DROP COLUMN view")
    with Table(seed=7, lang="en", config={"database": path}) as t:
        assert "East to play" in t.screen()
        undo(t)
        assert "West to play" in t.screen() and "Space: _" in t.screen()
        t.type("12###")
        undo(t)
        assert "West to play" in t.screen() and "Space: _" in t.screen()


def test_DV9_after_an_undo_and_power_cuts_the_turn_has_the_time_it_had(table):
    # Issue 20 item 1 with the pages: P1 hits 10 s into the turn and stops
    # 5 s later, P2's minute runs out, the power goes; the undo of P1's stop
    # lands on "again?" with the 45 s P1 had, and a cut keeps them.
    table.start("davinci", players=2, turn_timer=60)
    table.press("#")
    table.advance(10)
    table.type("2A")
    table.advance(5)
    table.press("#")
    table.advance(60)
    assert "Time up: P2 missed" in table.screen("team1")
    table.restart()
    undo(table)
    assert shown(table)["main"].splitlines()[:2] == ["[P1 hit! Again?]", "0:45"]
    table.restart()
    assert shown(table)["main"].splitlines()[:2] == ["[P1 hit! Again?]", "0:45"]
    heard = table.sounds.count("timeup")
    table.advance(44)
    assert table.sounds.count("timeup") == heard and "0:01" in table.screen()
    table.advance(1)
    assert table.sounds.count("timeup") == heard + 1 and "Time up: P1 missed" in table.screen("team1")
