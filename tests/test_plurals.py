"""Issue 25 item 10: the players' own words, in Czech, Polish and Russian.

A message that puts a number before a noun ("5 runners") has plural forms:
Czech, Polish and Russian say "1 slovo, 2 slova, 5 slov".  A number needs
none where no noun agrees with it: after a colon ("Bonus: {n}"), as an
ordinal or a label ("Player {n}", "Round {n} of {last}", "{k}/{n}"), or
before an abbreviation ("{s} s").  And the terms the native review asked
for are the ones the screens use.
"""
from __future__ import annotations

import re
import string

import pytest

from referee import i18n
from referee.testing import Table
from test_i18n import catalogues

LANGS = ("cs", "pl", "ru")
# Words a number stands after as a label or ordinal: "Player 2", "clue 3".
LABELS = {"player", "clue", "seat", "round", "game", "row", "turn", "booklet", "help", "space", "spaces"}
# Words after a number that agree with nothing: prepositions, "each", units.
# "black": a team's name after its size ("White 2 v 2 Black").
FREE = {"of", "to", "and", "or", "for", "each", "v", "s", "h", "min", "pts", "black"}
# Placeholders whose values are not numbers.
WORDS = {"name", "names", "team", "player", "p", "t", "code", "letter", "letters", "clues", "maker", "officer",
         "agent", "winner", "winners", "final", "action", "scores", "option", "char", "file", "lang", "dice",
         "side", "time", "paused", "tokens", "dots", "typed", "keys", "seats", "circle", "tile", "removed",
         "ended", "by", "counts", "start", "end", "sides", "other", "key", "seeker", "attacker", "target"}
NUMBER = re.compile(r"(?P<before>[\w/]*)\s*\{(?P<name>\w+)(?:![rsa])?(?::[^}]*)?\}(?P<after>\s+[^\W\d_]+:?)?")


def wants_plural(message: str) -> list[str]:
    """The numbers of ``message`` that a noun agrees with."""
    found = []
    for m in NUMBER.finditer(message):
        name, before, after = m["name"], m["before"].lower(), (m["after"] or "").strip()
        if name in WORDS or not after or after.endswith(":"):
            continue   # not a number; or nothing follows, or a label ("Bonus:") does
        if before.endswith("/") or before in LABELS:
            continue   # "{k}/{n}", "Player {n}": a fraction, an ordinal, a label
        if after.lower() in FREE:
            continue
        found.append(f"{{{name}}} {after}")
    return found


def test_the_rule_tells_counted_nouns_from_labels():
    assert wants_plural("{team}: {n} keywords") == ["{n} keywords"]
    assert wants_plural("Put {n} runners on homes.") == ["{n} runners"]
    assert wants_plural("+{n} more") == ["{n} more"]
    assert wants_plural("Clue {n} is empty.") == []
    assert wants_plural("Round {n} of {last}") == []
    assert wants_plural("NO: {no}  Bonus: {tokens}") == []
    assert wants_plural("Start homes {k}/{n}") == []
    assert wants_plural("{s} s") == []


def test_every_message_with_a_counted_number_has_plural_forms():
    lacking = {message: wants_plural(message) for message in catalogues.messages()
               if isinstance(message, str) and wants_plural(message)}
    assert lacking == {}


@pytest.mark.parametrize("lang, forms", [
    ("cs", ["Tým: 1 slovo", "Tým: 2 slova", "Tým: 5 slov"]),
    ("pl", ["Tým: 1 słowo", "Tým: 2 słowa", "Tým: 5 słów"]),
    ("ru", ["Tým: 1 слово", "Tým: 2 слова", "Tým: 5 слов"]),
])
def test_a_count_reads_right_for_1_2_and_5(lang, forms):
    with i18n.speaking(lang):
        said = [i18n.ngettext("{team}: {n} keyword", "{team}: {n} keywords", n).format(team="Tým", n=n)
                for n in (1, 2, 5)]
    assert said == forms


@pytest.mark.parametrize("lang", LANGS)
def test_every_plural_form_is_written_and_keeps_its_placeholders(lang):
    for message in catalogues.load(lang):
        if message.id and isinstance(message.id, tuple):
            fields = sorted(n for _l, n, _s, _c in string.Formatter().parse(message.id[1]) if n)
            assert len(message.string) == 3 and all(message.string), message.id
            for form in message.string:
                assert sorted(n for _l, n, _s, _c in string.Formatter().parse(form) if n) == fields, form


def test_the_czech_menu_says_the_czech_rulebooks_titles():
    with Table(seed=1, lang="cs") as t:
        shown = t.screen("main")
        assert "3 Oktilky" in shown and "4 Da Vinciho kód" in shown
        t.press("3")
        assert t.screen("main").startswith("[Oktilky")


def test_czech_octiles_speak_of_the_oktilka_and_osmisifry_of_the_radek():
    czech = {m.id: m.string for m in catalogues.load("cs") if m.id}
    for message in ("Swaps tile", "Tile off space {n}", "Tile under the deck", "{name}: tile on {n}"):
        assert "oktilk" in czech[message].lower() and "díl" not in czech[message].lower()
    assert czech["Row {row}: {letters}"].startswith("Řádek")
    assert czech["Octiles"] == "Oktilky" and czech["Da Vinci Code"] == "Da Vinciho kód"


@pytest.mark.parametrize("lang, maker", [("pl", "Słowotwórc"), ("ru", "Ведущий")])
def test_decipher_calls_its_maker_as_the_rulebook_does(lang, maker):
    strings = {m.id: m.string for m in catalogues.load(lang) if m.id}
    for message in ("Maker: confirm on 1", "Maker: type the pieces left to place, then #.", "Maker: {name}"):
        assert maker in strings[message]
    assert not [s for s in strings.values() if isinstance(s, str) and re.search(r"Twórca|Автор", s)]


def test_the_russian_da_vinci_deal_says_low_to_high_not_by_height():
    with Table(seed=5, lang="ru") as t:
        t.start("davinci", players=3)
        shown = t.screen("main")
        assert "Ряд по возрастанию," in shown and "росту" not in shown


@pytest.mark.parametrize("lang, words", [("en", "English"), ("cs", "čeština"), ("pl", "polskie"), ("ru", "русские")])
def test_decrypto_names_the_keywords_language_as_osmisifry_names_its_letters(lang, words):
    with Table(seed=5, lang=lang) as t:
        t.press("1")
        assert f"2 {i18n._('Keywords')}: {words}" in t.screen("main")


@pytest.mark.parametrize("lang, five", [("cs", "Postav 5 figurek na domečky."), ("pl", "Postaw 5 pionków na domkach."),
                                        ("ru", "Поставь фишки на домики: 5.")])
def test_five_runners_read_right(lang, five):
    with i18n.speaking(lang):
        assert i18n.ngettext("Put {n} runner on homes.", "Put {n} runners on homes.", 5).format(n=5) == five
