"""Issue 25 items 1 and 5: the box explains itself.

Every game's first page after setup, and every help page, says how to take
a key back and reach the game menu (holding ``*``); the help says which key
does what; after a move the public screen says what was done and by whom,
until the next move.  And the wordings found confusing read as what they do.
All through the keys of the virtual table, in the four languages.
"""
from __future__ import annotations

import pytest

from referee import i18n
from referee.box.screen import COLS, SAID, render, said_shown
from referee.testing import Table

LANGS = ("en", "cs", "pl", "ru")
GAMES = {"decrypto": "1", "osmisifry": "2", "octiles": "3", "davinci": "4", "decipher": "5"}


def hint() -> str:
    return i18n._("Hold *: undo, menu")


def said(t: Table) -> list[str]:
    """The line of what was last done, as the main panel draws it."""
    return [line[len(SAID):] for line in t.screen("main").splitlines() if line.startswith(SAID)]


def help_pages(t: Table) -> list[str]:
    """``C`` opens the help; ``D`` turns its pages until they come round or
    the last page no longer offers it."""
    t.press("C")
    pages = [t.screen("main")]
    for _ in range(12):
        if not t.box.shown["main"].offers("D"):
            break
        t.press("D")
        if t.screen("main") in pages:
            break
        pages.append(t.screen("main"))
    t.press("*")
    return pages


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
def test_the_first_page_after_setup_says_how_to_undo_and_reach_the_menu(lang, game):
    with Table(seed=25, lang=lang) as t:
        t.type(GAMES[game] + "#")            # the setup form, then its defaults
        assert getattr(t.box.flow, "session", None) is t.box.session is not None
        shown = t.screen("main")
        assert f"{SAID}{hint()}" in shown or f"! {hint()}" in shown, shown
        # The title's brackets are the text mirror's mark of the lit row, not drawn.
        title, *rows = shown.splitlines()
        assert all(len(line) <= COLS for line in (title[1:-1], *rows) if not line.startswith("! "))


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", GAMES)
def test_every_help_page_says_how_to_undo_and_reach_the_menu(lang, game):
    with Table(seed=25, lang=lang) as t:
        t.press(GAMES[game])
        pages = help_pages(t)
        assert len(pages) >= 2
        for page in pages:
            assert hint() in page.splitlines(), page
        if game == "decrypto":                    # in play, C is the phase's words and its keys, then the clue rules
            t.press("#")
            played = help_pages(t)
            keys = next(i for i, page in enumerate(played) if hint() in page.splitlines())
            assert keys <= 1 and not [page for page in played[keys + 1:] if hint() in page]   # once, with the keys
            rules = [line for page in played[keys + 1:] for line in page.splitlines()[1:-1]]
            assert [line for line in pages[0].splitlines()[1:-2]] == rules[:3]   # the clue rules after them


KEYS_IN_HELP = {   # keys each game's help must explain, as its screens use them
    "decrypto": ("A:", "B:", "C:", "D:", "* "),
    "osmisifry": ("#/ROLL", "B+", "D:", "A/B"),
    "octiles": ("C:", "D ", "A/B", "#:"),
    "davinci": ("A ", "B ", "# "),
    "decipher": ("A:", "B:", "C:", "D:"),
}


@pytest.mark.parametrize("game", GAMES)
def test_the_help_says_which_key_does_what(game):
    with Table(seed=25) as t:
        t.press(GAMES[game])
        text = "\n".join(help_pages(t))
    for key in KEYS_IN_HELP[game]:
        assert key in text, (key, text)
    assert "docs" not in text                      # 25.5: no file the players do not have


@pytest.mark.parametrize("lang", LANGS)
def test_osmisifry_says_who_took_which_letter_until_the_next_move(lang):
    with Table(seed=3, lang=lang) as t:
        t.start("osmisifry", players=["Ania", "Bo", "Cyril"])
        for faces in [(1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (6, 6), (7, 7), (8, 8)]:
            t.dice.next(*faces)
            t.press("#")
        letters = t.box.session.state.offer.letters
        t.press("2")                                # a digit takes a letter at once...
        expected = i18n._("{name} takes {letter}").format(name="Ania", letter=letters[1])
        assert said(t) == [expected]                # ...and the panel says so
        assert said_shown(t.box.shown["main"])
        line = render(t.box.shown["main"]).crop((0, 42, 128, 52))
        assert line.getbbox() is not None           # drawn on the row above the keys
        t.press("5")                                # a key that is refused changes nothing:
        t.advance(3)                                # its message gone, the line is back
        assert said(t) == [expected]
        t.press("1")
        assert said(t) == [i18n._("{name} takes {letter}").format(name="Bo", letter=letters[0])]
        t.hold("*", 1.0)                            # the game menu offers to take it back
        t.press("#")
        t.advance(3)
        assert said(t) == [expected]


@pytest.mark.parametrize("lang", LANGS)
def test_decrypto_says_which_team_guessed_what_and_whether_it_was_right(lang):
    with Table(seed=3, lang=lang) as t:
        t.start("decrypto")
        t.type(["team1", "team1", "team2", "team2"])
        code = t.box.session.state.codes[0]
        t.type("".join(map(str, code)) + "#")
        white = i18n._("White")
        right = i18n._("{team}: {code} right").format(team=white, code="-".join(map(str, code)))
        assert right in t.screen("main").splitlines()
        t.press("#")                                 # on to Black's code
        wrong = tuple(d % 4 + 1 for d in t.box.session.state.codes[1])
        t.type("".join(map(str, wrong)) + "#")
        black = i18n._("Black")
        assert i18n._("{team}: {code} wrong").format(team=black, code="-".join(map(str, wrong))) \
            in t.screen("main").splitlines()


@pytest.mark.parametrize("lang", LANGS)
def test_da_vinci_says_who_attacked_whom(lang):
    with Table(seed=3, lang=lang) as t:
        t.start("davinci", players=3)
        t.press("#")
        t.type("2B")
        assert said(t) == [i18n._("{p} misses {t}").format(p=i18n._("P{n}").format(n=1),
                                                           t=i18n._("P{n}").format(n=2))]


@pytest.mark.parametrize("lang", LANGS)
def test_decrypto_a_team_done_leaves_the_revealed_code_up(lang):
    with Table(seed=3, lang=lang) as t:
        t.start("decrypto", timer=False)
        t.type(["team1", "team1", "team2", "team2"])
        for seat in (0, 1):
            t.type("".join(map(str, t.box.session.state.codes[seat])) + "#")
            if seat == 0:
                t.press("#")
        reveal = t.screen("main")
        t.type(["team1", "team1"])                   # White's round-2 clues are done
        assert t.screen("main").splitlines()[:3] == reveal.splitlines()[:3]
        t.press("#")                                 # read: the table moves on
        assert i18n._("Round {n}: encryptors").format(n=2) in t.screen("main")
        assert i18n._("Codes") in t.screen("main")   # D: the codes revealed so far


@pytest.mark.parametrize("lang", LANGS)
def test_osmisifry_help_and_game_give_the_same_letter_keys(lang):
    with Table(seed=3, lang=lang) as t:
        t.press("2")
        t.press("1")                                 # 3 players: rows of 4 letters
        text = "\n".join(help_pages(t))
        assert i18n._("1-{last}: pick a letter").format(last=4) in text
        t.press("#")
        for _ in range(8):
            t.press("#")
        assert i18n._("{name} picks: 1-{last}").format(name=i18n._("Player {n}").format(n=1), last=4) \
            in t.screen("main")


@pytest.mark.parametrize("lang", LANGS)
def test_osmisifry_b_in_round_1_says_why_and_opens_nothing(lang):
    with Table(seed=3, lang=lang) as t:
        t.start("osmisifry", players=3)
        for _ in range(8):
            t.press("#")
        t.press("B")
        assert f"! {i18n._('Nobody draws in round 1.')}" in t.screen("main")
        assert i18n._("Who is drawing?") not in t.screen("main")
        assert t.box.flow.mode == ""


def test_osmisifry_the_row_being_played_stays_in_sight_while_the_next_is_rolled():
    with Table(seed=3) as t:
        t.start("osmisifry", players=["Ania", "Bo", "Cyril"])
        for _ in range(8):
            t.press("#")
        t.type("123")                                   # round 1 picked: round 2 rolls row 3
        s = t.box.session.state
        row = " ".join(s.offer.letters)
        assert f"Now: {row}" in t.screen("main") and "Row 3: _ _ _ _" in t.screen("main")
        t.press("#")
        assert f"Now: {row}" in t.screen("main")


def test_decipher_says_which_keys_open_a_guess():
    names = ["Alexandrina", "Bartholomew", "Christopher", "Maximiliane"]
    with Table(seed=3) as t:
        t.start("decipher", players=names)
        t.press("#")
        assert "To guess, press 2/3/4" in t.screen("main")
        assert "Guess: key" not in t.screen("main")
