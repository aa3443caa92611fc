"""Issue 25 item 2: every Decrypto score says what it counts.

Black holds one interception and one miscommunication token: the box names
each team beside its tokens, the phone's game page counts both kinds of
token per team per round and in all with the rule that decides, tonight's
page shows tokens rather than their difference, the chart keeps lines that
coincide apart, and a code never breaks across lines.  Played on the keys
of the virtual table, read over HTTP, in the four languages.
"""
from __future__ import annotations

import re

import pytest

from referee import i18n
from referee.box.screen import COLS
from referee.store.scorelog import Entry
from referee.testing import Table
from referee.said import decrypto as said_decrypto
from referee.web import chart, decrypto as web_decrypto, sheets
from games import davinci
from test_web import act, current_id, decipher_game, octiles_turns, osmisifry_game, page_text, t  # noqa: F401

LANGS = ("en", "cs", "pl", "ru")
NB = "\u2011"


def code(t: Table, seat: int) -> str:
    return "".join(map(str, t.box.session.state.codes[seat]))


def wrong(t: Table, seat: int) -> str:
    return "".join(str(d % 4 + 1) for d in t.box.session.state.codes[seat])


def black_on_one_of_each(t: Table) -> None:
    """Round 1: Black decodes wrong; round 2: Black intercepts White's code."""
    t.start("decrypto", timer=False)
    t.type(["team1", "team1", "team2", "team2"])
    t.type(code(t, 0) + "##")
    t.type(wrong(t, 1) + "##")
    t.type(["team1", "team1", "team2", "team2"])
    t.type(code(t, 0) + "#" + code(t, 0) + "##")
    t.type(wrong(t, 1) + "#" + code(t, 1) + "##")


@pytest.fixture(params=LANGS)
def black_ahead(request):
    """The game of ``black_on_one_of_each`` at a table speaking each language."""
    with Table(seed=7, lang=request.param) as t:
        black_on_one_of_each(t)
        yield t


def body(t: Table, path: str) -> str:
    status, _headers, text = t.get(path)
    assert status == 200
    return text


def test_the_box_names_each_team_beside_its_tokens(black_ahead):
    t = black_ahead
    lines = t.screen("main").splitlines()
    line = i18n._("{team}: int {i}, mis {m}")
    assert line.format(team=i18n._("White"), i=0, m=0) in lines
    assert line.format(team=i18n._("Black"), i=1, m=1) in lines
    assert all(len(x) <= COLS for x in lines)
    t.press("C")                       # the help says what int and mis are: the page shows them
    helps = []
    while t.screen("main") not in helps:      # every page, round to the first again
        helps.append(t.screen("main"))
        t.press("D")
    said = " ".join(" ".join(h.splitlines()[1:-1]) for h in helps)
    for word in ("interception (int)|interception|interceptions|intercepts|int",
                 "miscommunication (mis)|miscommunication|miscommunications|miscommunicated|miscommunicates|mis"):
        head = i18n._(word).split("|")[0]
        assert f"{head[:1].upper()}{head[1:]}: " in said, said


def test_the_game_page_counts_each_kind_of_token_per_team_per_round_and_in_all(black_ahead):
    t = black_ahead
    game = t.log()[0]["id"]
    html = body(t, f"/g/{game}")
    table = re.search(r'<table class="sheet tokens">.*?</table>', html, re.S).group(0)
    heads = page_text(re.search(r"<thead>.*?</thead>", table, re.S).group(0))
    assert heads == " ".join([i18n._("White"), i18n._("Black"), i18n._("Round"),
                              i18n._("Int."), i18n._("Mis."), i18n._("Int."), i18n._("Mis.")])
    assert f'title="{i18n._("Interceptions")}"' in table and f'title="{i18n._("Miscommunications")}"' in table
    rows = re.findall(r'<tr class="round">(.*?)</tr>', table, re.S)
    cells = [re.findall(r"<td>(\d+)<small>.*?Σ (\d+)</small>", row, re.S) for row in rows]
    # White int, White mis, Black int, Black mis: won in the round, held after it.
    assert cells == [[("0", "0"), ("0", "0"), ("0", "0"), ("1", "1")],
                     [("0", "0"), ("0", "0"), ("1", "1"), ("0", "1")]]
    total = page_text(re.search(r"<tfoot>.*?</tfoot>", table, re.S).group(0))
    assert total == f"{i18n._('Total')} 0 0 1 1"
    text = page_text(html)
    assert i18n._(web_decrypto.TOKEN_RULE) in text
    assert "Σ -1" not in text and "Σ 0 Σ" not in text     # no difference shown as a score


def test_tonights_page_shows_tokens_not_their_difference(black_ahead):
    t = black_ahead
    text = page_text(body(t, "/"))
    white = said_decrypto.tokens_text(0, 0)
    black = said_decrypto.tokens_text(1, 1)
    assert f"{i18n._('White')} {white} {i18n._('Black')} {black}" in text
    assert i18n.ngettext("{n} interception", "{n} interceptions", 1).format(n=1) in black
    # Other games keep their points.
    points = davinci.Summary(status="playing", players=["A"], rounds=[], totals={"A": 2}, winners=[], scored=True)
    entry = Entry(id=1, game="davinci", started=0.0, ended=None, status="playing", summary=points)
    assert sheets.standings(entry)[0].tokens == ""


def test_a_code_never_breaks_across_lines():
    with Table(seed=7) as t:
        black_on_one_of_each(t)
        game = t.log()[0]["id"]
        text = page_text(body(t, f"/g/{game}"))
        details = re.findall(r"(?:White|Black) \S+:", text)
        assert details and all(re.fullmatch(rf"\w+ \d{NB}\d{NB}\d:", d) for d in details)
        assert not re.search(r"\d-\d-\d", text)               # no hyphen a line may break at
        css = body(t, "/static/style.css")
        assert re.search(r"\.code \{ white-space: nowrap; \}", css)


def test_lines_that_coincide_are_told_apart():
    # Both of a team's lines at 0 for two rounds: apart, one solid with
    # dots, the other thin, dashed, with hollow squares.
    svg = chart.running_totals(["int", "mis"], [(0, 0), (0, 0), (1, 1)], colours=[0, 0], dashed=frozenset({1}))
    lines = re.findall(r'<polyline class="line s0( dash thin)?" points="([^"]+)"', svg)
    assert [bool(d) for d, _p in lines] == [False, True]
    ys = [[float(p.split(",")[1]) for p in points.split()] for _d, points in lines]
    assert all(abs(a - b) == chart.APART for a, b in zip(*ys))
    assert svg.count('<circle class="dot s0"') == 2 and svg.count('<rect class="dot hollow s0"') == 2


def test_the_chart_of_the_game_page_draws_miscommunications_apart():
    with Table(seed=7) as t:
        black_on_one_of_each(t)
        html = body(t, f"/g/{t.log()[0]['id']}")
        assert html.count('class="line s1 dash thin"') == 1 and '<rect class="dot hollow s1"' in html


def davinci_tournament(t) -> None:
    """Game 1 of a tournament: its points on the sheet (a single game has none)."""
    t.start("davinci", players=["Ann", "Bob"], tournament=True)
    act(t, davinci.Dealt(), *[davinci.Attack(1, True)] * 4)


PLAYED = {"osmisifry": ("Booklet", osmisifry_game), "davinci": ("Game", davinci_tournament),
          "octiles": ("Turn", lambda t: (t.start("octiles"), octiles_turns(t, 2))),
          "decipher": ("Round", decipher_game)}


@pytest.mark.parametrize("game", PLAYED)
def test_every_sheet_names_what_its_rows_are(t, game):  # noqa: F811
    heading, play = PLAYED[game]
    play(t)
    html = body(t, f"/g/{current_id(t)}")
    assert page_text(re.search(r"<thead>.*?</thead>", html, re.S).group(0)).startswith(heading)
    rows = re.findall(r'<tr class="round"><th scope="row">(.*?)</th>', html)
    assert rows and all(heading.lower() in page_text(row).lower() for row in rows)   # the rows are what it says
    assert "Σ:" in page_text(html)                                                  # Σ is explained under the sheet
