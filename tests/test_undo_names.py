"""Issue 20, item 9: holding * names what undo would take back, in every
game, in the table's language, on lines that fit the panel."""
from __future__ import annotations

import pytest

from referee.box.screen import COLS, LINES
from referee.testing import Table


def offered(t: Table) -> list[str]:
    """The undo question's lines, after holding *; the question is left open."""
    t.hold("*", 1.0)
    lines = [line for line in t.screen().splitlines() if not line.startswith("! ")]
    body = lines[1:-1]
    assert len(body) <= LINES - 1 and body[0] != "Take back the last" and all(len(line) <= COLS for line in body), body
    return body


def declined(t: Table) -> list[str]:
    body = offered(t)
    t.press("*")
    return body


def test_item9_osmisifry_undo_names_the_roll_and_its_letter_then_the_pick(table):
    table.start("osmisifry", players=3)
    table.dice.next(4, 3)
    table.press("#")
    assert declined(table) == ["Take back:", "roll 4+3 → T?"]   # [OS-1] (4,3) is T
    while "Roll 2d8" in table.screen():
        table.press("#")
    letter = table.screen().splitlines()[1].split()[1][1]          # "1X 2Y ...": the second letter
    table.press("2")
    assert declined(table) == ["Take back:", f"Player 1 takes {letter}?"]


def test_item9_decipher_undo_names_the_makers_no(table):
    table.start("decipher", players=["Ania", "Bara", "Cyril"])
    table.press("#")
    table.press("B")
    assert declined(table) == ["Take back:", "Ania's NO?"]
    table.press("A")
    assert declined(table) == ["Take back:", "Ania's YES?"]


def test_item9_davinci_undo_names_the_attack(table):
    table.start("davinci", players=3)
    table.press("#")
    assert declined(table) == ["Take back:", "P1 starts the deal?"]
    table.type("2B")
    assert declined(table) == ["Take back:", "P1 misses P2?"]


def test_item9_decrypto_undo_names_the_team_and_its_guess(table):
    table.start("decrypto")
    table.type(["team2", "team2"])                 # done: pressed twice
    assert declined(table) == ["Take back:", "Black: clues done?"]
    table.type(["team1", "team1"])
    table.type("124#")
    assert declined(table) == ["Take back:", "White: 1-2-4 wrong?"]   # and whether it was right (25.5)


def test_item9_octiles_undo_names_the_pass(table):
    table.start("octiles")
    table.type("D4#")   # More, pass the turn, yes [OC-8]
    assert declined(table) == ["Take back:", "West passes?"]


def test_item9_table_tools_undo_names_the_roll_and_the_timer(table):
    table.start("tools")
    table.press("C")
    assert declined(table) == ["Take back:", "timer set to 5:00?"]
    table.press("D")
    table.dice.next(6, 1)
    table.press("#")
    assert offered(table) == ["Take back:", "roll 6+1?"]
    table.press("#")
    assert "! Undone." in table.screen()
    assert declined(table) == ["Take back:", "timer set to 5:00?"]


@pytest.mark.parametrize("lang, line", [("cs", "Ania: NE?"), ("pl", "NIE: Ania?"), ("ru", "НЕТ: Ania?")])
def test_item9_the_undo_question_is_translated(lang, line):
    with Table(seed=7, lang=lang) as t:
        t.start("decipher", players=["Ania", "Bara", "Cyril"])
        t.press("#")
        t.press("B")
        assert offered(t)[1] == line
        assert "Take back" not in t.screen()
