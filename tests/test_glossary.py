"""The words the screens use, defined: every word a game's pages show, in
each of the four languages, is an everyday word (``tests/everyday/<lang>.txt``)
or a term of that game's glossary (``referee.glossary``), and each term is
said in the game's help, with the same words the phones use.

The pages are every screen met in the game's setup, help and play, driven by
keys through the virtual table (``every_page``).  Not checked: what players
typed or the box dealt (names, keywords from the word lists), letters
and codes in capitals, and the games' own names.
"""
from __future__ import annotations

import functools
import html
import os
import re

import pytest

from every_page import GAMES, NAMES, pages
from referee import catalogue, glossary, i18n
from referee.box.flows.forms import HELP_LINES
from referee.box.screen import wrap
from referee.testing import Table
from test_osmisifry_table import to_scoring

LANGS = ("en", "cs", "pl", "ru")
HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(os.path.dirname(HERE), "games", "data")
WORD = re.compile(r"[^\W\d_]+")
PICTURE = re.compile(r"\[tile [^\]]*\]")
CUT = re.compile(r"[^\W\d_]+…")   # a word cut short to fit its line


@functools.cache
def everyday(lang: str) -> frozenset[str]:
    with open(os.path.join(HERE, "everyday", f"{lang}.txt"), encoding="utf-8") as f:
        return frozenset(line.strip() for line in f if line.strip() and not line.startswith("#"))


@functools.cache
def dealt() -> frozenset[str]:
    """The keywords the box deals, in every language: the table's, not the box's words."""
    words = set()
    for name in os.listdir(DATA):
        if name.startswith("words-"):
            with open(os.path.join(DATA, name), encoding="utf-8") as f:
                words.update(w.lower() for line in f for w in WORD.findall(line))
    return frozenset(words)


def shown_words(texts: list[str]) -> set[str]:
    """The words of ``texts`` as a reader meets them, without the games' names,
    the box's and the players', without capitals-only runs (rolled letters,
    codes, QR), words cut short ("odkry…") and the mirror's name for a
    picture ("[tile T15 r0]")."""
    names = sorted({catalogue.title(g) for g in catalogue.GAMES} | {"Tabletop Referee", *NAMES},
                   key=len, reverse=True)
    words = set()
    for text in texts:
        text = CUT.sub(" ", PICTURE.sub(" ", text))
        for name in names:
            text = re.sub(rf"\b{re.escape(name)}\b", " ", text)
        words.update(w.lower() for w in WORD.findall(text) if len(w) > 1 and not w.isupper())
    return words - dealt()


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
@pytest.mark.xdist_group("every page")   # one walk of each game read by both (every_page)
def test_every_word_a_game_shows_is_everyday_or_its_glossarys(game, lang):
    seen = pages(game, lang)
    try:
        i18n.use(lang)
        unknown = shown_words(seen) - everyday(lang) - glossary.forms(game)
    finally:
        i18n.use("en")
    assert sorted(unknown) == []


@pytest.mark.parametrize("lang", LANGS)
def test_no_term_of_a_game_is_listed_as_an_everyday_word(lang):
    try:
        i18n.use(lang)
        overlap = {game: sorted(glossary.forms(game) & everyday(lang)) for game in GAMES}
    finally:
        i18n.use("en")
    assert {game: words for game, words in overlap.items() if words} == {}


@pytest.mark.parametrize("lang", ("cs", "pl", "ru"))
def test_every_term_is_defined_in_every_language(lang):
    catalog = i18n.catalogue(lang)
    missing = [text for game in GAMES for term in glossary.terms(game) for text in term
               if catalog.gettext(text) == text and text.split("|")[0] != "Hacker"]
    assert missing == []


@pytest.mark.parametrize("lang", LANGS)
def test_a_definition_fits_one_help_page(lang):
    try:
        i18n.use(lang)
        long = [line for game in GAMES for line in glossary.lines(game) if len(wrap(line)) > HELP_LINES]
    finally:
        i18n.use("en")
    assert long == []


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
def test_the_help_defines_every_term_of_its_game(game, lang):
    try:
        with Table(seed=43, lang=lang) as t:
            t.press(GAMES[game])
            t.press("C")
            shown = [t.screen()]
            while len(shown) < 40 and "D:►" in shown[-1]:
                t.press("D")
                shown.append(t.screen())
            text = " ".join(" ".join(page.splitlines()[1:-1]) for page in shown)
            sentences = glossary.defined(game)
    finally:
        i18n.use("en")
    text = " ".join(text.split())
    assert sentences and [word for word, means in sentences
                          if f"{word[:1].upper()}{word[1:]}: {means}" not in text] == []


@pytest.mark.parametrize("lang", LANGS)
def test_OS11_the_phones_say_a_booklets_counts_in_the_words_the_box_asked_them_in(lang):
    try:
        with Table(seed=43, lang=lang) as t:
            to_scoring(t, players=2)              # creation ended at once: no letter unused
            t.type("3#2#0#")
            asked = [line for line in t.screen().splitlines()[1:4]]
            t.press("B")
            page = html.unescape(t.get("/g/1")[2])
    finally:
        i18n.use("en")
    assert len(asked) == 3 and all(line in page for line in asked), (asked, page)
