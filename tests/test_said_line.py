"""Issue 34 item 4: the line of what was last done (``»``), read at a glance.

It is never cut short: on one row, on two where the page leaves two, or not
at all (``referee.box.screen.layout``), in the four languages on every page
of every game (``every_page``), and each game's last move fits two rows.  It says who
starts a Da Vinci Code game rather than "the deal"; a Decrypto round's
countdown shows no verdict of the round before; the clue page says how a
team says it is done; taking back an interception says it was one; and the
tie-break page says which score tied.
"""
from __future__ import annotations

import dataclasses

import pytest

from referee import i18n
from referee.box.screen import COLS, SAID, Screen, layout, wrap
from referee.testing import Table
import every_page
from test_wording import ALL

GAMES = {"decrypto": {}, "osmisifry": {"players": 2}, "octiles": {}, "davinci": {"players": 2},
         "decipher": {"players": 2, "length": 3}}
# The way to each game's end, where the longest lines were cut.
ENDS = {"osmisifry": ["D", "#", "#", "#", "#", "#", *"0#0#0#A", *"0#0#0#A"],
        "davinci": ["#", *"2A" * 4],
        "decipher": ["#", "2A"]}


def cut(main: Screen, found: dict, where: str) -> None:
    if not main.said:
        return
    at = layout(dataclasses.replace(main, flash=""))
    whole = wrap(SAID + main.said, at.cols)
    if at.said and (at.said.split("\n") != whole or at.said.endswith("…")):
        found.setdefault(f"{where}: {at.said!r}", main.text)
    if not main.picture and not main.qr and (len(whole) > 2 or whole[-1].endswith("…")):
        # too long to be shown whole on a page that has room for it
        found.setdefault(f"{where}: {main.said!r} takes {len(whole)} rows", main.text)


@pytest.mark.parametrize("lang", ALL)
@pytest.mark.xdist_group("every page")   # the games' walks, shared (every_page)
def test_the_last_action_line_is_never_cut(lang):
    found: dict[str, str] = {}
    shown = 0
    try:
        for game, options in GAMES.items():      # each game's end, where the longest lines were
            with Table(seed=34, lang=lang) as t:
                t.start(game, **options)
                for step in ENDS.get(game, ()):
                    t.type(step)
                    cut(t.box.shown["main"], found, game)
        for game in every_page.GAMES:            # and every page of every game
            for main in every_page.pages(game, lang).shown.values():
                cut(main, found, game)
                shown += bool(layout(main).said)
    finally:
        i18n.use("en")
    assert shown >= 60   # the walk meets it on 66 to 70 pages (a two-row key bar with Help leaves it none)
    assert found == {}, "\n\n".join(f"{k}\n{v}" for k, v in found.items())


@pytest.mark.parametrize("lang", ALL)
def test_DC10_decipher_round_table_says_the_guess_whole(lang):
    with Table(seed=34, lang=lang) as t:
        t.start("decipher", players=["Ania", "Bartholomew"], length=3)
        t.type("#2A")                               # Bartholomew solves it: the round table
        said = [line for line in t.screen().splitlines() if line.startswith(SAID)]
        words = i18n._("{name} guessed right").format(name="Bartholomew")
        text = t.screen()
        assert said and " ".join(wrap(SAID + words)) in " ".join(text.splitlines())
        assert "…" not in " ".join(said)


@pytest.mark.parametrize("lang", ALL)
def test_DV3_the_first_line_names_who_starts(lang):
    with Table(seed=34, lang=lang) as t:
        t.start("davinci", players=3)
        t.press("2")                                # P2 starts
        t.press("#")
        said = [line for line in t.screen().splitlines() if line.startswith(SAID)]
        assert said == [SAID + i18n._("{p} starts the deal").format(p=i18n._("P{n}").format(n=2))]
        t.hold("*", 1.0)
        assert i18n._("{p} starts the deal").format(p=i18n._("P{n}").format(n=2)) in \
            " ".join(t.screen().splitlines())


def done(t: Table, team: str) -> None:
    t.press(team)
    t.press(team)


def test_DE4_decrypto_rounds_say_how_a_team_is_done_and_show_nothing_stale():
    with Table(seed=34) as t:
        t.start("decrypto")
        assert "Done: team button ×2" in t.screen()
        done(t, "team1")
        done(t, "team2")
        t.type("132#")
        t.type("214#")
        t.press("#")                                    # round 1 over: its verdicts were read
        shown = t.screen()
        assert "[Round 2: encryptors]" in shown and "wrong" not in shown and "right" not in shown
        done(t, "team1")                                # White done: Black's countdown
        shown = t.screen()
        assert shown.startswith("[Black: finish clues!]")
        assert "1-3-2" not in shown and "2-1-4" not in shown      # nothing of round 1
        assert f"{SAID}White: clues done" in shown


def test_DE5_taking_back_an_interception_says_it_was_one():
    with Table(seed=34) as t:
        t.start("decrypto")
        for team in ("team1", "team2"):
            done(t, team)
        t.type("123#")
        t.type("124#")
        t.press("#")
        for team in ("team1", "team2"):
            done(t, team)
        t.type("341#")                                  # Black intercepts White's code
        t.hold("*", 1.0)
        lines = t.screen().splitlines()
        assert lines[1:3] == ["Take back:", "Black intercepts:"] and lines[3].startswith("3-4-1")
        assert "right" not in t.screen() and "wrong" not in t.screen()


def test_DE9_the_tie_break_says_which_score_tied():
    with Table(seed=34) as t:
        t.start("decrypto")
        s = t.box.session
        # Eight rounds, every code decoded right and nothing intercepted: a tie at 0:0.
        for number in range(1, 9):
            for team in ("team1", "team2"):
                done(t, team)
            for seat in (0, 1):
                code = "".join(map(str, s.state.codes[seat]))
                if number > 1:
                    t.type(("4321" if code != "432" else "123")[:3] + "#")   # a wrong interception
                t.type(code + "#")
            t.press("#")
            if s.rules.is_over(s.state) or s.state.result is not None or "Tie" in t.screen():
                break
        title = t.screen().splitlines()[0]
        assert title.startswith("[Tie, int-mis ") and len(title) - 2 <= COLS
