"""The digits a page takes are the digits it names, on every page of every
game in the four languages.

A page takes only the digits its screen declares (``Screen.digits``; none
declared, none taken: the box answers "7 does nothing here"), so no page
acts on a digit it does not show.  The walk (``every_page``) checks the
other half on every page it meets: a digit its lines name as a key ("1 Ann",
"1E 2S", "Guess: 2 Bo", "Ann picks: 1-4", "1-17, then #") is one it takes.
And a range the setup's help names ("1-4: pick a letter") is the one the
game's page takes, for every number of players the setup offers.
"""
from __future__ import annotations

import re

import pytest

from games import osmisifry as osm
from referee import i18n
from referee.box.flows.roles import DIGITS
from referee.testing import Table
from every_page import GAMES, pages
from test_explains import LANGS, help_pages

RANGE = re.compile(r"(?<![\d\-–])(\d+)[-–](\d+)(?![\d\-–])")
# A range is a key hint where a colon, a semicolon or ", then" follows it,
# or where it ends the line after a colon ("Ann picks: 1-4").
RANGE_HINT = re.compile(r"(?<![\d\-–])(\d+)[-–](\d+)(?=[:;]|,? \S+ #|$)")
# Items numbered for their digit ("1 Ann", "►2 Bo", "1E 2S", "1· 2S"): a
# line that starts with one, or names two ("Guess: 2 Bo 3 Cyril").
ITEM = re.compile(r"(?:^|(?<=[\s►]))(\d)(?: (?=[^\W\d_])|(?=[^\W\d_]|·))")


def ranges(line: str) -> list[tuple[int, int]]:
    return [(int(a), int(b)) for a, b in RANGE_HINT.findall(line)]


def range_digits(low: int, high: int) -> set[str]:
    """The keys a range needs: its digits, or all ten for a number of two."""
    return set(DIGITS) if high > 9 else {str(n) for n in range(low, high + 1)}


def named_digits(lines, typing: bool = False) -> set[str]:
    """The digits a page's lines name as keys (``typing``: on a page where
    a number is typed)."""
    # A die's faces, not keys: Osmišifry's direction roll [OS-9].
    faces = {i18n._("1-4: to the left"), i18n._("5-8: to the right")}
    named: set[str] = set()
    for line in lines:
        if line in faces:
            continue
        for low, high in ranges(line):
            if not (typing and high > 9):   # a number's field, once full, takes no more
                named |= range_digits(low, high)
        items = ITEM.findall(RANGE.sub("", line))
        if len(items) > 1 or items and ITEM.match(line.lstrip(" ►")):
            named |= set(items)
    return named


def is_help(screen) -> bool:
    return screen.title.startswith(i18n._("Help {n}/{of}").split("{")[0])


def is_taught(screen) -> bool:
    """A taught page (``referee.box.flows.teacher``): prose of the rules,
    whose numbers are points and tokens ("the solver 5 and 2 per bonus
    token"), not keys; it takes # and C and no digit."""
    title = re.sub(r" \d+/\d+$", "", screen.title)
    return title in (i18n._("How it goes"), i18n._("Why")) and not screen.digits


def test_a_page_names_the_digits_it_takes_as_the_parser_reads_them():
    assert named_digits(["1 Ann      2 Bo", "3 Cyril"]) == {"1", "2", "3"}
    assert named_digits(["1E 2S 3H 4B"]) == {"1", "2", "3", "4"}
    assert named_digits(["Guess: 2 Bo 3 Cyril", "►1 Ann ■4 □1"]) == {"1", "2", "3"}
    assert named_digits(["Ann picks: 1-4", "1-3: who starts"]) == {"1", "2", "3", "4"}
    assert named_digits(["1-17, then #"]) == set(DIGITS)
    assert named_digits(["Round 1", "Space 12", "Deck: 17", "White said 3-1-4", "Last roll 1+4 = E",
                         "Tokens: 2 of 3", "1→3 2→1 3→2", "Word: 5 letters", "A guess costs 1 token"]) == set()


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
@pytest.mark.xdist_group("every page")   # one walk of each game read by both (every_page)
def test_every_page_takes_every_digit_it_names(game, lang):
    seen = pages(game, lang)
    try:
        i18n.use(lang)
        wrong = {text: "".join(sorted(named_digits(screen.lines, screen.typing is not None) - set(screen.digits)))
                 for text, screen in seen.shown.items() if not (is_help(screen) or is_taught(screen))}
    finally:
        i18n.use("en")
    assert len(seen.shown) > 10
    assert {text: missing for text, missing in wrong.items() if missing} == {}


# A key on a help page: "1-4: pick a letter", "Turn: space 1-17, #".
HELP_HINT = re.compile(r"(?<![\d\-–])(\d+)[-–](\d+)(?=:|, #)")


def _help_ranges(t: Table) -> set[tuple[int, int]]:
    return {(int(a), int(b)) for page in help_pages(t) for line in page.splitlines()[1:-2]
            for a, b in HELP_HINT.findall(line)}


@pytest.mark.parametrize("lang", LANGS)
def test_osmisifry_help_names_the_letters_the_pick_page_takes_for_every_player_count(lang):
    """[OS-3] a row has a letter more than the players: Help says "1-4" at
    three players, "1-7" at six, as the pick page takes them."""
    try:
        for players in range(2, 7):
            with Table(seed=43, lang=lang) as t:
                t.press(GAMES["osmisifry"])
                t.type("1" * (players - 2))                # the players option, stepped
                help_ranges = _help_ranges(t)
                t.press("#")
                while osm.step(t.box.session.state).kind != "pick":   # the rows rolled, to the first pick
                    t.press("#")
                pick = t.box.shown["main"]
                assert named_digits(pick.lines) == set(pick.digits) == range_digits(1, players + 1)
                assert help_ranges == {(1, players + 1)}, (players, help_ranges)
    finally:
        i18n.use("en")


@pytest.mark.parametrize("lang", LANGS)
def test_octiles_help_names_the_spaces_its_turn_page_takes(lang):
    try:
        with Table(seed=43, lang=lang) as t:
            t.press(GAMES["octiles"])
            help_ranges = _help_ranges(t)
            t.press("#")
            for _ in range(4):
                if t.box.shown["main"].digits:
                    break
                t.press("#")
            turn = t.box.shown["main"]
            page_ranges = {r for line in turn.lines for r in ranges(line)}
    finally:
        i18n.use("en")
    assert help_ranges and help_ranges <= page_ranges, (help_ranges, turn.text)
    assert all(range_digits(*r) <= set(turn.digits) for r in help_ranges)
