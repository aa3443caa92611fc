"""Issue 20 item 14: what the panels say, in all four languages.

A soft key says what it does in a word ("A:number of dice", never "A:n");
a key range never falls off the end of a line after a long name; dice are
written as each language writes them (d8, k8, к8); the Czech Da Vinci
screens call the joker what the Czech rulebook calls it (panel s pomlčkou);
and a Polish table knows Decipher by its Polish edition's name, Słowotwórcy.
"""
from __future__ import annotations

import random
import re

import pytest

from referee import i18n
from referee.box.flows import menu
from referee.box.screen import COLS
from referee.testing import Table
from test_i18n import LANGS, catalogues

ALL = ("en", *LANGS)
KEYS = [*"0123456789ABCD*#", "team1", "team2"]
# Words of one letter that are words: a label may use them ("Pas a dál").
ONE_LETTER_WORDS = {"en": {"a", "I"}, "cs": set("aiksuvzo"), "pl": set("aiouwz"), "ru": set("авикосуя")}
# "A:next" on the key bar, or written into a line or title as "#: stop".
HINT = re.compile(r"(?:^|\s)[A-D#*]:\s?(\S+)")
TWELVE = ["Maximilianus", "Konstantinos", "Bartholomeus", "Wilhelmineke", "Christiansen", "Przemysława"]


def labels_on(screen) -> set[str]:
    """Every key's label on a screen: the bar's, and the hints written into
    its title and lines."""
    labels = {label for _key, label in screen.keys}
    for text in (screen.title, *screen.lines):
        labels.update(HINT.findall(text))
    return labels


def seen_labels(t: Table) -> set[str]:
    """Every key's label on every panel now."""
    return set().union(*map(labels_on, t.box.shown.values()))


def act_at_random(t: Table, rng: random.Random, keys: list[str]) -> None:
    """A hand pressing one of ``keys``, now and then holding a team button,
    letting time run out or setting the dice module's next roll."""
    key = rng.choice(keys)
    if key.startswith("team") and rng.random() < 0.3:
        t.hold(key, 1.5)
    else:
        t.press(key)
    if rng.random() < 0.05:
        t.advance(rng.choice([5, 31, 61, 301]))
    if rng.random() < 0.1:
        t.dice.next(rng.randint(1, 8), rng.randint(1, 8))


def walk(t: Table, rng: random.Random, presses: int, labels: set[str]) -> None:
    """A hand pressing anything, ``#`` more often than the rest."""
    for _ in range(presses):
        act_at_random(t, rng, KEYS + ["#"] * 4 + list("1234") * 2)
        labels |= seen_labels(t)


def cryptic(label: str, lang: str) -> bool:
    words = re.findall(r"\w+", label)
    return any(len(w) == 1 and w.isalpha() and w not in ONE_LETTER_WORDS[lang] for w in words)


@pytest.mark.parametrize("lang", ALL)
@pytest.mark.xdist_group("every page")   # the games' walks, shared (every_page)
def test_item14_no_soft_key_is_labelled_with_a_single_letter(lang):
    import every_page   # it walks with this module's hand: imported here, not in a circle
    labels: set[str] = set()
    try:
        with Table(seed=14, lang=lang) as t:
            # The menus, the settings, the table tools' timer, dice and list.
            for keys in ("", "D", "8", "*", "6", "D", "C", "*A#B#", "D*"):
                t.type(keys)
                labels |= seen_labels(t)
        # Every game's setup form, its pages and help, and its play.
        for game in every_page.GAMES:
            labels = labels.union(*map(labels_on, every_page.pages(game, lang).panels.values()))
    finally:
        i18n.use("en")
    assert "Roll" in labels or i18n.catalogue(lang).gettext("Roll") in labels   # the walk reached the dice
    assert sorted(label for label in labels if cryptic(label, lang)) == []


@pytest.mark.parametrize("lang", ALL)
def test_item14_the_key_range_stays_on_the_line_after_a_12_character_name(lang):
    with Table(seed=3, lang=lang) as t:
        t.start("osmisifry", players=TWELVE[:4])
        for _ in range(10):                 # rows 1 and 2, five letters each
            t.press("#")
        for seat, name in enumerate(TWELVE[:4]):
            lines = t.screen("main").splitlines()
            assert i18n._("{name}: 1-{last}").format(name=name, last=5) in lines, lines   # cs: "1–5"
            assert all(len(line) <= COLS for line in lines)
            t.press(str(seat + 1))


@pytest.mark.parametrize("lang", ALL)
def test_item14_a_short_name_keeps_the_whole_sentence(lang):
    with Table(seed=3, lang=lang) as t:
        t.start("osmisifry", players=["Ann", "Bo"])
        t.type("######")
        sentence = i18n._("{name} picks: 1-{last}").format(name="Ann", last=3)
        assert sentence in t.screen("main").splitlines()


@pytest.mark.parametrize("lang, die", [("en", "d"), ("cs", "k"), ("pl", "k"), ("ru", "к")])
def test_item14_dice_are_written_as_the_language_writes_them(lang, die):
    with Table(seed=1, lang=lang) as t:
        t.type("6D")                        # the table tools' dice
        assert f"2{die}8" in t.screen("main").splitlines()[0]
        t.press("A")
        assert f"3{die}8" in t.screen("main").splitlines()[0]
        t.type("*" * 3)
        t.start("osmisifry", players=2)
        assert f"2{die}8" in t.screen("main")
        t.type("D#")                        # creation ends early: the direction is rolled
        shown = t.screen("main")
        assert f"{die}8" in shown
        if lang != "en":
            assert "d8" not in shown


def test_item14_czech_da_vinci_names_the_dash_tile_as_the_rulebook_does():
    try:
        with Table(seed=5, lang="cs") as t:
            t.start("davinci", players=3, rules="extended")
            shown = t.screen("main")
            assert "Pomlčka" in shown and "olík" not in shown
    finally:
        i18n.use("en")
    czech = {m.id: m.string for m in catalogues.load("cs") if m.id}
    assert [text for text in czech.values() if "olík" in str(text)] == []
    assert "s pomlčkou" in czech["A joker may stand anywhere in your row, and never moves once placed."]


def test_item14_polish_table_calls_decipher_slowotworcy_on_screens_and_pages():
    try:
        with Table(seed=5, lang="pl") as t:
            t.press("D")
            assert "5 Słowotwórcy" in t.screen("main").splitlines()
            t.press("5")
            assert t.screen("main").startswith("[Słowotwórcy")
            t.type("**")
            t.start("decipher", players=3)
            status, _headers, body = t.get("/")
            assert status == 200 and "Słowotwórcy" in body and "Decipher" not in body
            assert menu.title("decipher") == "Słowotwórcy"
    finally:
        i18n.use("en")
    assert menu.title("decipher") == "Decipher"


# The short forms of "points" that score tables print, as English writes "pts".
POINTS = {"cs": {"b."}, "pl": {"pkt"}, "ru": {"очк."}}


@pytest.mark.parametrize("lang", LANGS)
def test_item14_no_word_on_a_panel_is_cut_short_with_a_dot(lang):
    panel = {m for m, places in catalogues.messages().items() if any(not p.startswith("referee/web/") for p in places)}
    short = {}
    for m in catalogues.load(lang):
        if m.id not in panel or not isinstance(m.string, str):
            continue
        # A dot inside the text before a small letter, a digit, a field, a
        # sign or a bracket; or closing a text whose English is no sentence.
        cut = [word for word, after in re.findall(r"\b([^\W\d]{1,6}\.)(.?.?)", m.string)
               if after[:1] in "),+" and after or after[:1] == " " and (after[1:].islower() or after[1:] in "0123456789{(+")
               or not after and not m.id.endswith((".", "!", "?"))]
        cut = [word for word in cut if word not in POINTS[lang]]
        if cut:
            short[m.id] = m.string
    assert short == {}
