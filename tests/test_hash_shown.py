"""Issue 34 item 2: no page that ``#`` leaves without showing ``#``.

``#`` is the key a table presses out of habit: to confirm, to go on.  A page
whose ``#`` does something (turns to another page, ends a game, records a
move) says so on the page, on its key bar or in its lines ("then #"), so
that a habitual ``#`` never skips a result nobody read.  Every page reached
in random walks of the menus and of every game, in the four languages, is
tried: ``#`` is pressed on it and what changed is compared.
"""
from __future__ import annotations

import random
import re

import pytest

from referee import i18n
from referee.box.screen import Screen
from referee.testing import Table
from test_wording import ALL, KEYS, act_at_random

# A countdown ticks while a key is down: its time is not a change of page.
TIME = re.compile(r"\d+:\d\d")


def page(t: Table) -> tuple:
    """What a player reads as the page: the main screen without the passing
    message and the line of what was last done (``#`` may change those on
    any page), with the game's record and the game menu."""
    main: Screen = t.box.shown["main"]
    words = (main.title, *main.lines, *(f"{k}:{label}" for k, label in main.keys), main.qr, main.picture[:1])
    session = t.box.session
    return (TIME.sub("", "\n".join(map(str, words))), type(t.box.flow).__name__,
            None if session is None else (session.id, session.seq), t.box.game_menu.mode)


def shows_hash(main: Screen) -> bool:
    return any(key == "#" for key, _label in main.keys) or any("#" in text for text in (main.title, *main.lines))


def trial(t: Table, where: str, found: dict) -> None:
    """Press ``#`` on the page up now; if it did something, the page must
    have shown it."""
    before, main = page(t), t.box.shown["main"]
    t.press("#")
    if page(t) != before and not shows_hash(main):
        found.setdefault(f"{where}: {main.title}", main.text)


def walk(t: Table, rng: random.Random, where: str, presses: int, found: dict) -> None:
    for _ in range(presses):
        if rng.random() < 0.4:
            trial(t, where, found)
            continue
        act_at_random(t, rng, KEYS + list("1234") * 2)


GAMES = {"decrypto": {}, "osmisifry": {"players": 2}, "octiles": {}, "davinci": {"players": 2},
         "decipher": {"players": 2, "length": 3}}
# The way through each game to its result, one step at a time, ``#``
# pressed after every step (by ``trial``, so not written here): the habitual
# ``#`` after a count, a decode, an interception, an answer, a last hit.
DONE = ["team1", "team1", "team2", "team2"]
THROUGH = {
    "decrypto": [*DONE, "123", "124", *DONE, "123", "", "341", "213", "", "432"],
    "osmisifry": ["D", "", "", "", "", "0", "0", "0", "A", "0", "0", "0", "A", ""],
    "davinci": ["", *["2", "A"] * 4, ""],
    "decipher": ["", "D", "3", "", "D", "3", ""],
}


@pytest.mark.soak
@pytest.mark.parametrize("lang", ALL)
def test_a_page_whose_hash_does_something_shows_it(lang, soak):
    found: dict[str, str] = {}
    rng = random.Random(342)
    try:
        with Table(seed=34, lang=lang) as t:   # the menus, settings, score log, tools
            for keys in ("7", "*", "8", "*", "D", "7", "*", "6", "B", "*", "*"):
                t.type(keys)
                trial(t, "menus", found)
            walk(t, rng, "menus", 80, found)
        for game, options in GAMES.items():
            with Table(seed=34, lang=lang) as t:
                t.start(game, **options)
                for step in THROUGH.get(game, ()):
                    t.press(step) if step.startswith("team") else t.type(step)
                    trial(t, game, found)
                walk(t, rng, game, 250 if soak else 120, found)   # make soak walks further
    finally:
        i18n.use("en")
    assert sorted(found) == [], "\n\n".join(f"{k}\n{v}" for k, v in sorted(found.items()))


def test_DE5_DE6_an_interception_has_its_page_so_a_habitual_hash_is_no_error():
    with Table(seed=34) as t:
        t.start("decrypto")
        for step in [*DONE, "123#", "#", "124#", "#", *DONE]:
            t.press(step) if step.startswith("team") else t.type(step)
        t.type("123#")                                # Black intercepts White's code
        heard = len(t.sounds)
        shown = t.screen()
        assert "Black intercepts:\n1-2-3" in shown and "#:Next" in shown
        assert "right" not in shown and "wrong" not in shown   # [DE-6] judged with the code, not before
        t.press("#")                                  # the habitual second #
        assert "White decodes." in t.screen() and "error" not in t.sounds[heard:]
        t.type("341#")                                # the decode's digits move on by themselves too
        assert "[Round 2: White" in t.screen() and "White: 3-4-1" in t.screen()


def test_OS13_the_result_says_that_hash_leaves_it():
    with Table(seed=34) as t:
        t.start("osmisifry", players=2)
        t.type("D#####")
        t.type("0#0#0#A0#0#0#A")
        assert t.screen().startswith("[Game over]") and "#:Menu" in t.screen()
        t.press("D")
        assert "#:Menu" in t.screen()
