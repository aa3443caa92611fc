"""Octiles names a place one way everywhere people read it: a space by its
number 1-17, a circle by the lowest-numbered space it touches and an arrow
towards it ("8↘"), as ``games.octiles_places.place`` gives them: on the
box's pages, the phones' sheets and replay, the table view, the score log's
JSON and the printed overlay, in every language.  The board file's grid
("c3", "A1") is the rules' own and is read by nobody at the table."""
from __future__ import annotations

import html
import json
import re

import msgspec
import pytest

from games import octiles as oc
from games.octiles_places import ARROWS, GIVEN, MOVE, grid, move_name, place
from referee import i18n
from referee.testing import Table
from referee.web import octiles as web_octiles
from test_octiles_table import start

LANGS = ("en", "cs", "pl", "ru")
# A place name on a page: digits and an arrow, or a grid name the table never sees.
NAMED = re.compile(rf"(?<!\d)(\d{{1,2}})([{''.join(ARROWS)}])")
GRID = re.compile(r"(?<![\w/])[A-Fa-f][1-6](?!\w)")


def grid_names(text: str) -> list[str]:
    """The board file's names in a page's text, leaving out the tile
    picture's name in the text mirror, the QR code's address and the
    overlay's paper."""
    text = re.sub(r"\[tile [^\]]*\]|QR \S+|PDF, A4", "", text)
    return GRID.findall(text)


def named(text: str) -> list[str]:
    return ["".join(m) for m in NAMED.findall(text)]


def test_OC5_every_place_has_one_short_name_of_a_space_it_touches():
    spaces = [place(s) for s in oc.BOARD.spaces]
    circles = [place(c) for c in oc.BOARD.circles]
    assert spaces == [str(n) for n in range(1, 18)]
    assert len(set(circles)) == 36 and not set(circles) & set(spaces)
    assert max(map(len, circles)) == 3                      # "12↓": the panel's narrow columns
    for circle in oc.BOARD.circles:
        number, arrow = int(place(circle)[:-1]), ARROWS.index(place(circle)[-1])
        touching = [slot // 8 + 1 for slot, link in enumerate(oc.BOARD.links) if link == ~oc.BOARD.circle_index[circle]]
        # the lowest space around it, and the side of that space it lies off
        assert number == min(touching)
        assert oc.BOARD.links[8 * (number - 1) + arrow] == ~oc.BOARD.circle_index[circle]
        assert grid(place(circle)) == circle
    assert (place("C3"), place("A1"), place("F2"), place("E3")) == ("8↘", "12↓", "11↘", "10↘")


def test_OC6_the_start_homes_are_named_by_the_spaces_of_their_edge():
    assert [place(c) for c in oc.BOARD.start_homes("west")] == ["12↓", "12↙", "12←", "7←", "7↖"]
    assert [place(c) for c in oc.BOARD.start_homes("north")] == ["1←", "1↖", "1↑", "2↑", "2↗"]
    assert [place(c) for c in oc.BOARD.start_homes("east")] == ["6↑", "6↗", "6→", "11→", "11↘"]
    assert [place(c) for c in oc.BOARD.start_homes("south")] == ["17→", "17↘", "17↓", "16↓", "16↙"]


def _pages(t: Table, keys: str) -> list[str]:
    """Every screen shown while ``keys`` are pressed, one at a time."""
    seen = []
    for key in keys:
        t.press(key)
        seen += [t.screen(name) for name in ("main", "team1", "team2")]
    return seen


@pytest.mark.parametrize("lang", LANGS)
def test_every_place_a_box_page_shows_is_named_the_one_way(lang):
    # Each page of Octiles that shows a place, in each language: the start
    # homes chosen at setup, the turning page's only move, the moves to
    # choose from, why a placement moves nobody, the exchange told with
    # its » line, where the box has every runner, and the map's pages.
    with Table(seed=43, lang=lang) as t:
        seen = _pages(t, "32#" + "25#" + "#")    # Octiles, 4 runners, referee; West's homes, East's
    with Table(seed=43, lang=lang) as t:
        start(t, "T06", "T02", "T03", players=2)
        seen += _pages(t, "9##*" + "*12#B#" + "*BBBBB#" + "*B##")  # nobody moves; why, three ways; then 12←⇒12↘
        seen += _pages(t, "6#BB#2")              # East chooses the second of two moves
        seen += _pages(t, "12###")               # West's tile off space 12, told
        seen += _pages(t, "#D3#" + "D1DDD#")     # the runners; the map's three pages
    i18n.use("en")
    text = "\n".join(seen)
    assert grid_names(text) == []
    shown = set(named(text))
    assert shown <= GIVEN
    assert {"12↓", "12↙", "12←", "7←", "7↖", "6↗", "5↘", "12↘", "8↘"} <= shown   # the walk met them all


def _play(t: Table) -> None:
    """Three turns by keys, in any language: West lays on 12 (its only
    move), East on 6 turned twice (the second move), West exchanges the tile
    on 12 (its only move) and the box says so on a page of words."""
    start(t, "T01", "T02", "T03", players=2)
    t.type("12###")
    t.type("6#BB#2")
    t.type("12###")


def _text(t: Table, path: str) -> str:
    status, _headers, body = t.get(path)
    assert status == 200, path
    return " ".join(html.unescape(re.sub(r"<(script|style)\b.*?</\1>|<[^>]+>", " ", body, flags=re.S)).split())


@pytest.mark.parametrize("lang", LANGS)
def test_the_phones_and_the_table_view_name_places_as_the_box_does(lang):
    with Table(seed=7, lang=lang) as t:
        _play(t)
        said = t.box.shown["main"].said       # the » line, on the page that tells of the exchange
        table_view = _text(t, "/table")
        t.type("#D2#")                        # on, then More, end the game, yes
        game = t.log()[-1]["id"]
        sheet, step = _text(t, f"/g/{game}"), _text(t, f"/g/{game}/step/1")
    i18n.use("en")
    moves = [move_name("A2", "B3"), move_name("F4", "E5"), move_name("A3", "B2")]
    assert moves == ["12↙⇒7↘", "6→⇒5↗", "12←⇒12↘"]
    assert all(m in sheet for m in moves) and moves[0] in step and moves[2] in said and moves[2] in table_view
    for text in (sheet, step, table_view, said):
        assert grid_names(text) == [], text
    assert "7↘ 12↓ 12←" in step                              # where West's runners stand after it


def test_the_score_log_files_give_places_by_their_names():
    with Table(seed=7, lang="en") as t:
        _play(t)
        status, _headers, body = t.get(f"/api/g/{t.log()[-1]['id']}")
    assert status == 200
    rounds = json.loads(body)["rounds"]
    assert [(r["space"], r["from"], r["to"]) for r in rounds] == [(12, "12↙", "7↘"), (6, "6→", "5↗"),
                                                                   (12, "12←", "12↘")]


def turn(stored: dict) -> oc.TurnLog:
    """A turn as the score log's JSON gives it back."""
    return msgspec.convert(stored, oc.TurnLog)


def test_a_score_log_kept_before_the_names_changed_reads_in_them():
    # As a score log (a league's file, an export) kept the turns before:
    # spaces and circles by the board file's grid.
    old = {"turn": 1, "round": 1, "player": "West", "action": "exchanged", "tile": "T03", "space": "a2",
           "removed": "T01", "finished": False, "set_aside": False, "scores": {"West": 0},
           "rotation": 0, "from": "A3", "to": "B2"}
    new = {**old, "space": 12, "from": "12←", "to": "12↘"}
    assert turn(old).space == "a2" and turn(new).space == 12
    assert web_octiles.details(1, turn(old)) == web_octiles.details(1, turn(new)) == (
        "Turn 1", f"West: tile exchanged on space 12, runner 12←{MOVE}12↘")
    # a place this board has not: as recorded, never a failure
    assert web_octiles.details(2, turn({**old, "space": "z9", "from": "Q7", "to": "B2"}))[1] == \
        "West: tile exchanged on space z9, runner Q7⇒B2"
