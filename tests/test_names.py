"""Issue 17: players' names are safe everywhere they go: cleaned, short
enough for the panels, unique, drawable by the panel font, and in the box's
language when nobody typed any."""
import pytest

from games import base
from referee.testing import Table


def flashed(t):
    return [line[2:] for line in t.screen("main").splitlines() if line.startswith("! ")]


def test_issue17_names_are_trimmed_composed_and_kept_in_unicode(table):
    table.start("osmisifry", players=["  Z\u030cofie ", "Bartoloměj", "Игорь  Лев", "Łucja"])
    assert table.log()[0]["players"] == ["Žofie", "Bartoloměj", "Игорь Лев", "Łucja"]
    assert "Žofie picks" in table.screen() or "Roll 2d8" in table.screen()


@pytest.mark.parametrize(("names", "message"), [
    (["Bartolomějovec", "Eva"], "A name has at most 12 characters."),
    (["Eva", " eva"], "Two players have the same name."),
    (["Li 中", "Eva"], "The screens cannot show 中 in Li 中."),
    (["Eva 🎲", "Ann"], "The screens cannot show 🎲 in Eva 🎲."),
    (["Ann\u202e", "Eva"], "A name cannot hold the character U+202E."),
    (["A\u200bnn", "Eva"], "A name cannot hold the character U+200B."),
])
def test_issue17_a_name_the_panels_cannot_show_is_refused_clearly(table, names, message):
    table.start("davinci", players=names)
    assert flashed(table) == [message]
    assert table.log() == []                  # no game began
    assert "1 Decrypto" in table.screen()


def test_issue17_twelve_characters_fit_and_every_game_takes_them(table):
    names = ["Bartoloměj12", "Ёлкина-Палка"]
    assert all(len(n) == base.NAME_LENGTH for n in names)
    for game in ("osmisifry", "davinci", "decipher", "octiles"):
        table.start(game, players=names)
        assert table.log()[-1]["players"] == names, game
        table.box.leave()


def test_issue17_a_refusal_in_czech_names_the_character():
    with Table(seed=7, lang="cs") as t:
        t.start("decipher", players=["Li 中", "Eva"])
        assert flashed(t) == ["Displeje neumí zobrazit 中 ve jménu Li 中."]


@pytest.mark.parametrize(("lang", "first"), [("cs", "Hráč 1"), ("pl", "Gracz 1"), ("ru", "Игрок 1")])
@pytest.mark.parametrize("menu", ["2", "4", "5"])   # Osmišifry, Da Vinci Code, Decipher
def test_issue17_seats_counted_on_the_keys_are_named_in_the_box_language(lang, first, menu):
    with Table(seed=7, lang=lang) as t:
        t.type(menu + "#")
        assert t.log()[0]["players"][0] == first
