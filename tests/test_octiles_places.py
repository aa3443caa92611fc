"""Octiles names a space one way on the box, the printed overlay and the
phones: by the number it is keyed with, 1-17 (circles: tests/test_octiles_names.py).
A game the table ends early says so on the phones."""
import html
import re

from games import octiles as oc
from referee.octiles_overlay import Paper, svg
from test_octiles_table import start


def text(t, path: str) -> str:
    status, _headers, body = t.get(path)
    assert status == 200, path
    return " ".join(html.unescape(re.sub(r"<(script|style)\b.*?</\1>|<[^>]+>", " ", body, flags=re.S)).split())


def test_OC2_the_phones_name_the_space_by_its_keyed_number_and_no_tile_number(table):
    start(table, "T01", "T18", "T07")
    game = table.log()[-1]["id"]
    table.type("12#")                 # space 12, as the box asks for it
    table.type("##")                  # the only move, then made
    sheet = text(table, f"/g/{game}")
    assert "tile laid on space 12" in sheet and oc.space_name(12) == "a2"
    assert " on a2" not in sheet and "T01" not in sheet


def test_OC2_the_printed_overlay_names_the_spaces_by_number_only():
    drawn = svg(Paper.A4)
    numbers = re.findall(r'font-size="10" fill="#000" font-weight="bold">(\d+)<', drawn)
    assert sorted(map(int, numbers)) == list(range(1, 18))
    assert not any(re.search(rf">{space}<", drawn) for space in oc.BOARD.spaces)   # no "a3" beside "7"


def test_an_octiles_game_ended_early_is_said_so_not_finished(table):
    start(table, "T01")
    game = table.log()[-1]["id"]
    table.type("D2#")                 # More, end the game, yes
    tonight, sheet = text(table, "/"), text(table, f"/g/{game}")
    assert "Octiles Ended early" in tonight and "Finished" not in tonight
    assert "Ended early: nobody wins" in sheet
