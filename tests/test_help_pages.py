"""Issue 34 item 5: help pages end on a whole sentence, and a menu's
numbers run 1, 2, 3, 4.

Every game's help (``C`` on its setup form, and Decrypto's in play), in the
four languages, is turned page by page: a page whose last line goes on into
the next page's first ("No keyword as a clue," then "nor in translation."),
or a page that is only the end of the last one's sentence, fails.
"""
from __future__ import annotations

import re

import pytest

from referee import i18n
from referee.testing import Table
from test_explains import GAMES, LANGS, help_pages


def body(page: str, hint: bool = True) -> list[str]:
    """A help page's own lines: under the title, over the undo hint (a
    setup's help has it on every page: ``hint``) and the key bar."""
    return [line for line in page.splitlines()[1:-2 if hint else -1] if line and not line.startswith("! ")]


def goes_on(line: str, following: str) -> bool:
    """A sentence left open at ``line`` and finished by ``following``."""
    if line.rstrip()[-1:] in ".!?":
        return False
    return line.rstrip()[-1:] in ",:;" or following[:1].islower() or following[:1] == "("


def split_sentences(pages: list[str], hint: bool = True) -> list[str]:
    cut = []
    for this, following in zip(pages, pages[1:]):
        last, first = body(this, hint)[-1], body(following, hint)[0]
        if goes_on(last, first):
            cut.append(f"{last!r} / {first!r}")
    return cut


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
def test_every_help_page_ends_on_a_whole_sentence(lang, game):
    try:
        with Table(seed=34, lang=lang) as t:
            t.press(GAMES[game])
            pages = help_pages(t)
            assert len(pages) >= 2 and all(body(page) for page in pages)
            cut = split_sentences(pages)
            if game == "decrypto":   # in play, the phase and its keys, then the clue rules: four lines a page, no hint
                t.press("#")
                played = help_pages(t)
                rules = next(i for i, page in enumerate(played) if body(page, False)[:1] == body(pages[0])[:1])
                cut += split_sentences(played[rules:-1], hint=False)
    finally:
        i18n.use("en")
    assert cut == []


def test_decrypto_keeps_a_sentence_on_one_page():
    with Table(seed=34) as t:
        t.press("1")
        pages = [body(page) for page in help_pages(t)]
    assert ["No keyword as a clue,", "nor in translation."] in [page[:2] for page in pages]
    assert any(page[-2:] == ["A: swap a keyword", "(before round 1)."] or
               page[:2] == ["A: swap a keyword", "(before round 1)."] for page in pages)


def test_da_vinci_ends_on_more_than_its_last_words():
    with Table(seed=34) as t:
        t.press("4")
        pages = [body(page) for page in help_pages(t)]
    assert ["After a hit: A again,", "# stops."] in pages   # the keys' last page, before the words


def test_DC6_decipher_more_menu_is_numbered_1_to_4_at_every_moment():
    with Table(seed=34) as t:
        t.start("decipher", players=2)
        t.press("#")
        for moment in ("start", "count", "bonus"):
            if moment == "count":
                t.type("*")                               # the round under way, no count
            t.press("D")
            numbers = [line[0] for line in t.screen().splitlines()[1:] if line[:2].rstrip().isdigit()]
            assert numbers == ["1", "2", "3", "4"], t.screen()
            if moment == "bonus":
                t.press("1")                              # nothing to count in bonus mode: said why
                assert "! Bonus mode: the count is the bonus tokens." in t.screen()
                assert t.sounds[-1] == "error"
            t.press("*")
            if moment == "count":
                t.type("D2")                              # the maker calls bonus mode


KEY_HINT = re.compile(r"(?:^|\s)(?:[A-D#*]|\d+(?:[-–]\d+)?)(?:[:+/]|\s:)")   # "#:", "1-4:", "B+digit", "#/ROLL"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
def test_the_help_says_what_the_game_is_for_before_which_key_does_what(game, lang):
    """Its first page is the goal (Osmišifry: agents hide words, officers seek them), not a key."""
    try:
        with Table(seed=34, lang=lang) as t:
            t.press(GAMES[game])
            first = body(help_pages(t)[0])
    finally:
        i18n.use("en")
    assert first and [line for line in first if KEY_HINT.search(line)] == []
