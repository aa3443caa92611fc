"""Issue 34 item 1: one key, one meaning in every game.

A table that answers the box's questions in one game and then switches to
another must find yes, right and hit on the same key, and no, wrong and miss
on the other.  Every game's pages are looked at (a random walk of each, and
the way to each question that takes such an answer), in the four languages;
a soft key (``A``-``D``) labelled with a positive answer on any other key
than the others', or a negative one likewise, fails.  The keys are the ones
``referee.box.flows.answers`` names, and pressing them records what they say.
"""
from __future__ import annotations

import random

import pytest

from referee import i18n
from referee.box.flows import answers
from referee.testing import Table
from test_wording import ALL, walk

# What the labels mean, said here apart from the flows' table, so that a
# flow writing its own labels is caught too.
POSITIVE = ("Yes", "YES", "Right", "Hit")
NEGATIVE = ("No", "NO", "Wrong", "Miss")
SOFT = "ABCD"


def meanings(t: Table, game: str, found: dict) -> None:
    """Every soft key on main now that says yes or no: (polarity) -> {(game, key, label)}."""
    positive = {i18n._(w).casefold() for w in POSITIVE}
    negative = {i18n._(w).casefold() for w in NEGATIVE}
    for key, label in t.box.shown["main"].keys:
        if key not in SOFT:
            continue
        if label.casefold() in positive:
            found.setdefault("positive", set()).add((game, key, label))
        elif label.casefold() in negative:
            found.setdefault("negative", set()).add((game, key, label))


def keys_of(found: dict, polarity: str) -> set[str]:
    return {key for _game, key, _label in found.get(polarity, ())}


# The way to each question a table answers, then the answer's pages.
QUESTIONS = {
    "osmisifry": ({"players": 2}, ["D", "#", "#", "#", "#", "#", "0#", "0#", "0#"]),   # secret destroyed?
    "davinci": ({"players": 2}, ["#", "2"]),                                           # hit or miss
    "decipher": ({"players": 3}, ["#", "2"]),                                          # YES/NO, then the guess
}
GAMES = ("decrypto", "osmisifry", "octiles", "davinci", "decipher")


@pytest.mark.parametrize("lang", ALL)
def test_yes_right_and_hit_are_one_key_in_every_game(lang):
    found: dict = {}
    rng = random.Random(34)
    try:
        for game in GAMES:
            with Table(seed=34, lang=lang) as t:
                options, keys = QUESTIONS.get(game, ({}, []))
                t.start(game, **options)
                meanings(t, game, found)
                for key in keys:
                    t.type(key)
                    meanings(t, game, found)
                labels: set[str] = set()
                for _ in range(6):
                    walk(t, rng, 15, labels)
                    meanings(t, game, found)
    finally:
        i18n.use("en")
    games = {polarity: {game for game, _key, _label in found.get(polarity, ())} for polarity in ("positive", "negative")}
    assert games["positive"] >= set(QUESTIONS) and games["negative"] >= set(QUESTIONS), found
    assert keys_of(found, "positive") == {answers.POSITIVE}, sorted(found["positive"])
    assert keys_of(found, "negative") == {answers.NEGATIVE}, sorted(found["negative"])


def test_the_table_puts_every_positive_answer_on_A():
    assert (answers.POSITIVE, answers.NEGATIVE) == ("A", "B")
    for kind in answers.ANSWERS:
        (yes_key, yes), (no_key, no) = answers.keys(kind)
        assert (yes_key, no_key) == ("A", "B") and yes in POSITIVE and no in NEGATIVE
    assert [answers.answer(key) for key in "AB#*1"] == [True, False, None, None, None]


def test_OS11_A_says_the_secret_word_was_destroyed():
    with Table(seed=34) as t:
        t.start("osmisifry", players=2)
        t.type("D#####")
        t.type("0#0#0#A")
        events = [e for e, _at in t.box.session.events if type(e).__name__ == "Score"]
        assert [e.destroyed for e in events] == [True]


def test_DC5_DC8_A_is_the_makers_yes_and_a_right_guess():
    with Table(seed=34) as t:
        t.start("decipher", players=["Ania", "Bara", "Cyril"])
        t.press("#")
        t.press("A")                              # the maker's YES: the next seeker
        assert "Turn: Cyril" in t.screen()
        t.press("B")                              # a NO: Cyril again, a NO token
        assert "Turn: Cyril" in t.screen() and "NO: 1" in t.screen()
        t.type("2A")                              # Bara's word is right: the round is hers
        assert "Bara solved it" in t.screen()


def test_DV5_A_is_a_hit():
    with Table(seed=34) as t:
        t.start("davinci", players=2)
        t.type("#2A")
        assert "P1 hit! Again?" in t.screen()
