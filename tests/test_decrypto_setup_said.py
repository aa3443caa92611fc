"""Decrypto's setup says what its options mean and who joins which team,
calling the sides by the glossary's names, in every language of the box."""
import dataclasses

import pytest

from games import decrypto as d
from referee import i18n
from referee.box.screen import COLS, LINES, render
from referee.testing import Table

LANGS = ("en", "cs", "pl", "ru")
HACKER_CHOICE = 9   # presses of "1" from 2 v 2 to the Hacker's game


def lines(t, name="main"):
    return t.page(name).splitlines()


def word(lang, text):
    return i18n.catalogue(lang).gettext(text)


def hacker_setup(t):
    t.press("1")
    for _ in range(HACKER_CHOICE):
        t.press("1")


@pytest.mark.parametrize("lang", LANGS)
def test_DE_1_setup_names_each_team_with_its_size_on_the_page_and_its_screen(lang):
    white, black = (word(lang, side) for side in d.TEAMS)
    with Table(seed=7, lang=lang) as t:
        t.press("1")
        t.press("1")                                     # 3 v 2
        line = lines(t)[1]
        assert line.startswith("1 ") and white in line and black in line and "3" in line and "2" in line
        assert line.index(white) < line.index("3") < line.index("2") < line.index(black)
        assert lines(t, "team1")[0] == f"[{white}]" and "3" in lines(t, "team1")[1]
        assert lines(t, "team2")[0] == f"[{black}]" and "2" in lines(t, "team2")[1]
        # The panels draw the line whole: nothing cut to "…".
        assert all(len(text) <= COLS and not text.endswith("…") for text in lines(t))


@pytest.mark.parametrize("lang", LANGS)
def test_DE_10_the_hacker_game_says_what_the_hacker_plays_for_where_the_timer_was(lang):
    hacker, team = (word(lang, side) for side in d.HACKER_SIDES)
    with Table(seed=7, lang=lang) as t:
        hacker_setup(t)
        page = lines(t)
        assert hacker in page[1] and "2" in page[1]
        note = page[2]   # right under the Hacker's line, on the same page
        assert not note[:1].isdigit() and hacker in note and "2" in note
        assert all(len(text) <= COLS and not text.endswith("…") for text in page)
        assert t.box.shown["main"].digits == "124"       # no timer to choose [DE-10]
        t.press("3")
        assert lines(t) == page
        t.press("D")
        assert not any(line.startswith("3 ") for line in lines(t))
        # The Hacker's own screen says the whole of it: alone, intercepting, two by round 5.
        own = lines(t, "team1")
        assert own[0] == f"[{hacker}]" and 2 <= len(own) <= LINES + 1 and "5" in " ".join(own)
        assert lines(t, "team2")[0] == f"[{team}]"
        t.press("#")
        assert t.box.session.options["variant"] == "hacker" and "timer" not in t.box.session.options


def test_DE_10_the_hacker_note_is_drawn_on_the_panel():
    with Table(seed=7) as t:
        t.press("1")
        teams = t.image()
        for _ in range(HACKER_CHOICE):
            t.press("1")
        shown = t.box.shown["main"]
        assert shown.lines[1] == "Hacker wins on 2 int."
        # The panel's pixels are the note's, drawn where the timer's line was.
        assert t.image().tobytes() == render(shown).tobytes() != teams.tobytes()
        timer = dataclasses.replace(shown, lines=(shown.lines[0], "2 Keywords: English", *shown.lines[2:]))
        assert render(timer).tobytes() != t.image().tobytes()


@pytest.mark.parametrize("lang", LANGS)
def test_picking_tonights_players_marks_the_team_each_joins_by_its_name(lang):
    white, black = (word(lang, side) for side in d.TEAMS)
    hacker, team = (word(lang, side) for side in d.HACKER_SIDES)
    with Table(seed=7, lang=lang) as t:
        t.start("osmisifry", players=["Ann", "Bob", "Cy", "Dana"])
        t.box.leave()
        t.type("1A")
        assert lines(t)[-1].startswith("#:" + word(lang, "As last game"))
        t.type("21")
        assert lines(t)[1:3] == [f"1 Ann →{black}", f"2 Bob →{white}"]
        t.type("3")                                      # three: the Hacker's game, the first picked the Hacker
        assert lines(t)[1:4] == [f"1 Ann →{team}", f"2 Bob →{hacker}", f"3 Cy →{team}"]
        t.type("4")
        assert lines(t)[1:5] == [f"1 Ann →{white}", f"2 Bob →{white}", f"3 Cy →{black}", f"4 Dana →{black}"]
        t.press("#")
        assert lines(t, "team1") == [f"[{white}]", "Bob", "Ann"]
        assert lines(t, "team2") == [f"[{black}]", "Cy", "Dana"]


def test_DE_10_three_picked_are_the_hacker_against_a_team_of_two():
    with Table(seed=7) as t:
        t.start("osmisifry", players=["Ann", "Bob", "Cy"])
        t.box.leave()
        t.type("1A" "213" "#")
        assert lines(t)[1] == "1 Hacker alone v 2"
        assert lines(t, "team1") == ["[Hacker]", "Bob"] and lines(t, "team2") == ["[Team]", "Ann", "Cy"]
        t.press("#")
        assert t.log()[0]["members"] == {"Hacker": ["Bob"], "Team": ["Ann", "Cy"]}


@pytest.mark.parametrize("lang", LANGS)
def test_the_teams_are_called_white_and_black_on_the_setup_the_names_page_and_the_team_screens(lang):
    white, black = (word(lang, side) for side in d.TEAMS)
    others = [word(lang, text) for text in ("Team 1", "Team 2")]
    with Table(seed=7, lang=lang) as t:
        t.press("1")
        screens = [t.page(name) for name in ("main", "team1", "team2")]
        t.press("B")
        token = t.box.flow.names_token
        _status, _headers, page = t.get(f"/N/{token}")
        for text in (*screens, page):
            assert not any(other in text for other in others)
        assert white in page and black in page
        assert [s.splitlines()[0] for s in screens[1:]] == [f"[{white}]", f"[{black}]"]
