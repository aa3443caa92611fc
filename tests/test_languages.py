"""A table in any of the four languages: help titled as its interfaces
title it, Osmišifry's letter table of the box's language offered first
[OS-1], and the seats' default names read in the reader's language however
the box spoke when the game was recorded."""
from __future__ import annotations

import html
import re

import pytest

from referee import i18n
from referee.testing import Table


@pytest.fixture
def english():
    try:
        with Table(seed=7, lang="en") as table:
            yield table
    finally:
        i18n.use("en")  # the language is the whole process's


def main(t: Table) -> list[str]:
    return [line for line in t.page("main").splitlines() if not line.startswith("»")]


def text(t: Table, path: str) -> str:
    status, _headers, body = t.get(path)
    assert status == 200, path
    return " ".join(html.unescape(re.sub(r"<(script|style)\b.*?</\1>|<[^>]+>", " ", body, flags=re.S)).split())


def choose(t: Table, item: str) -> None:
    """Settings (item 8 of the main menu), a language, back."""
    t.press("8")
    t.press(item)
    t.press("*")


@pytest.mark.parametrize(("lang", "title"), [("en", "[Help 1/"), ("cs", "[Nápověda 1/"), ("pl", "[Pomoc 1/"),
                                              ("ru", "[Справка 1/")])
def test_help_is_titled_as_the_languages_interfaces_title_it(lang, title):
    with Table(seed=7, lang=lang) as t:
        t.press("1")              # Decrypto's setup
        t.press("C")
        assert main(t)[0].startswith(title)
        t.press("*")
        t.press("*")              # back to the main menu
        t.start("decrypto")
        t.press("C")              # the game's own help
        assert main(t)[0].startswith(title)


@pytest.mark.parametrize(("lang", "table"), [("en", "English"), ("cs", "Čeština"), ("pl", "polski"),
                                              ("ru", "Czech")])
def test_OS1_setup_offers_the_letter_table_of_the_box_language_first(lang, table):
    with Table(seed=7, lang=lang) as t:
        t.press("2")              # Osmišifry's setup
        line = main(t)[2]
        assert line.startswith("2 ")
        with i18n.speaking(lang):
            names = {"English": i18n._("English"), "Czech": i18n._("Czech"), "Čeština": i18n._("Czech"),
                     "polski": i18n._("Polish")}
        assert line.endswith(names[table]), line   # Russian has no table: the rulebook's Czech


def test_default_seat_names_read_in_the_readers_language(english):
    t = english
    t.start("davinci", players=2)
    game = t.log()[-1]["id"]
    t.press("#")
    for _ in range(4):
        t.press("2")
        t.press("A")
    assert t.log()[-1]["players"] == ["Player 1", "Player 2"]      # recorded in English
    assert "Player 1 wins" in text(t, f"/g/{game}")
    t.press("#")                      # the game-over screen, to the main menu
    choose(t, "2")                    # Čeština
    czech = text(t, f"/g/{game}")
    assert "Vítězí Hráč 1" in czech and "Player" not in czech
    assert "Hráč 2" in text(t, "/")
    choose(t, "4")                    # Русский
    russian = text(t, f"/g/{game}")
    assert "Игрок 1" in russian and "Player" not in russian
