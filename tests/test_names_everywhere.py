"""Issue 25, item 3: names typed for the seats reach every screen, page and
export.  With every seat of every game named, a random walk of the keys
(the game menu held up too) and every score-log page and file never show a
seat's default label ("P1", "Player 1", "Hráč 1"…).
"""
from __future__ import annotations

import html
import random
import re

import pytest

from games import decipher
from referee import catalogue, i18n
from referee.box.screen import LINES
from referee.testing import Table

NAMES = ["Ann", "Bob", "Cleo", "Dan"]
OPTIONS = {
    "decrypto": {"members": [["Ann", "Bob"], ["Cleo", "Dan"]]},
    "osmisifry": {"players": NAMES[:3]},
    "octiles": {"players": NAMES[:3]},
    "davinci": {"players": NAMES[:3]},
    "decipher": {"players": NAMES[:3]},
}
KEYS = list("0123456789ABCD*#") * 3 + ["team1", "team2", "hold"]
STEPS = 300


def defaults() -> re.Pattern:
    """Every language's default seat labels: "Player 1", "P1", "Hráč 1"…"""
    forms = set()
    for code in i18n.LANGS:
        for message in ("Player {n}", "P{n}"):
            forms.add(re.escape(i18n.catalogue(code).gettext(message)).replace(r"\{n\}", "[1-9]"))
    return re.compile(r"(?<!\w)(" + "|".join(sorted(forms)) + r")(?!\w)")


DEFAULT = defaults()


def shown(t: Table) -> str:
    return "\n".join(t.screen(name) for name in ("main", "team1", "team2"))


def walk(t: Table, rng: random.Random) -> None:
    for _ in range(STEPS):
        key = rng.choice(KEYS)
        if key == "hold":
            t.hold("*", 1.0)           # the game menu, with its undo question
        else:
            t.press(key)
        if t.box.session is None:      # the game ended and the box went back to the menu
            return
        seen = shown(t)
        assert not DEFAULT.search(seen), f"{key!r} led to a default seat label:\n{seen}"


def page_text(page: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html.unescape(page)).split())


def test_the_default_labels_are_found_in_every_language():
    assert DEFAULT.search("P2 attacks P1") and DEFAULT.search("Hráč 3") and not DEFAULT.search("Ann P10")


@pytest.mark.parametrize("game", list(OPTIONS))
@pytest.mark.parametrize("seed", [1, 2])
def test_named_seats_reach_every_screen_page_and_export(game, seed):
    assert set(OPTIONS) == {g.name for g in catalogue.on_menu()}
    with Table(seed=seed) as t:
        t.start(game, **OPTIONS[game])
        t.dice.next(1, 1)
        walk(t, random.Random(seed))
        if t.box.session is not None:
            t.hold("*", 1.0)
            t.press("D")
            t.press("#")               # the game ends, into the score log
        game_id = t.log()[0]["id"]
        for path in ("/", f"/g/{game_id}", "/api/evening.csv", f"/api/g/{game_id}.csv"):
            status, _h, page = t.get(path)
            assert status == 200
            assert not DEFAULT.search(page_text(page)), f"{path}: {page_text(page)}"
            assert all(name in page for name in ({n for team in OPTIONS[game].get("members", ()) for n in team}
                                                  or OPTIONS[game]["players"])), f"{path}: {page_text(page)}"


def test_a_four_way_tie_of_long_names_names_every_winner_on_a_screen():
    names = ["Alexandrina", "Bartholomew", "Christopher", "Maximiliane"]
    with Table(seed=5) as t:
        t.start("decipher", players=names)
        for _round in names:           # nobody guesses any word: all four share the win
            assert t.box.act(decipher.GiveUp())
            if not decipher.is_over(t.box.session.state):
                assert t.box.act(decipher.NextRound())
        assert t.log()[0]["winners"] == names
        screens = shown(t)
        assert all(name in screens for name in names), screens
        second = t.screen("team2")     # [DC-11] screen 2 names every winner, one a line
        assert [line for line in second.splitlines()[1:] if line] == names and len(names) <= LINES
