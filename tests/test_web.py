"""The score log on every phone, over HTTP on the virtual table: pages, the
API, the files, live updates, team pages, and what none of them may show.

The games are played with ``t.box.act`` (the events their key flows would
make); a scripted flow stands in for those key flows, which have tests of
their own, so that these tests play exactly the events they name.
"""
from __future__ import annotations

import asyncio
import csv
import dataclasses
import datetime as dt
import html
import io
import json
import logging
import re
import time
import types
import urllib.parse

import aiohttp
import pytest

from games import base, davinci, decipher, decrypto, octiles, osmisifry
from referee import catalogue, i18n, team_links
from referee.box import flows
from referee.box.flows import Flow
from referee.box.screen import Screen
from referee.store import scorelog
from referee.testing import Table
from referee.web import chart, history, sheets, team_pages
from referee.web import decrypto as web_decrypto

GAMES = ("decrypto", "osmisifry", "octiles", "davinci", "decipher")
SCRIPT: list = []   # the events the stand-in flow plays, one per "#"
_real_module = flows.module


class Scripted(Flow):
    """Stands in for a game's key flow: each ``#`` plays the next event of
    ``SCRIPT``, the way a real flow turns a key into an event."""

    def __init__(self, box, session) -> None:
        super().__init__(box)
        self.session = session

    def key(self, key, kind):
        if kind == "press" and key == "#" and SCRIPT:
            self.box.act(SCRIPT.pop(0))

    def screens(self):
        return {"main": Screen(self.session.name, keys=(("#", "Play"),))}   # the box hands a page only its keys


def stand_in(name: str):
    return types.SimpleNamespace(Play=Scripted) if name in GAMES else _real_module(name)


@pytest.fixture
def t(monkeypatch):
    monkeypatch.setattr(flows, "module", stand_in)
    SCRIPT.clear()
    with Table(seed=7, lang="en") as table:
        yield table


# --- playing -------------------------------------------------------------------------------

def act(t: Table, *events) -> None:
    for event in events:
        assert t.box.act(event), f"refused: {event}"


def state(t: Table):
    return t.box.session.state


def wrong(code) -> tuple:
    return next(c for c in decrypto.CODES if c != tuple(code))


def decrypto_clues(t: Table) -> None:
    act(t, decrypto.CluesDone(0), decrypto.CluesDone(1))


def decrypto_guesses(t: Table, miscommunicate=()) -> None:
    """Every code of the round guessed: interceptions miss, decodes hit
    except those of the teams in ``miscommunicate``."""
    while (now := decrypto.step(state(t))).kind in ("intercept", "decode"):
        code = state(t).codes[now.of_team]
        right = now.kind == "decode" and now.team not in miscommunicate
        act(t, decrypto.Guess(now.team, code if right else wrong(code)))


def decrypto_game(t: Table) -> None:
    """White wins in round 2: Black miscommunicates twice [DE-1]."""
    t.start("decrypto")
    for _ in range(2):
        decrypto_clues(t)
        decrypto_guesses(t, miscommunicate={1})


def decipher_game(t: Table) -> None:
    """Ann makes a word, Bob solves it; Bob makes one, nobody does; Cy's
    round is being played."""
    t.start("decipher", players=["Ann", "Bob", "Cy"])
    act(t, decipher.No(), decipher.Yes(), decipher.Guess(1, True), decipher.NextRound(),
        decipher.No(), decipher.Guess(0, False), decipher.GiveUp(), decipher.NextRound(),
        decipher.Yes())


def davinci_game(t: Table) -> None:
    """Ann hits all four of Bob's hidden tiles in her first turn."""
    t.start("davinci", players=["Ann", "Bob"])
    act(t, davinci.Dealt(), *[davinci.Attack(1, True)] * 4)


def octiles_turns(t: Table, turns: int) -> None:
    """Each player lays the tile in hand the first way the rules allow."""
    for _ in range(turns):
        s = state(t)
        if octiles.is_over(s):
            return
        moves = octiles.legal_moves(s.board, s.hand)
        act(t, octiles.Play(*moves[0]) if moves else octiles.Pass())


def osmisifry_game(t: Table) -> None:
    """A short game: creation ended early, both booklets scored."""
    t.start("osmisifry", players=["Ann", "Bob"])
    while osmisifry.step(state(t)).kind == "roll_letter":
        act(t, base.Rolled("letter", (3, 4)))
    act(t, osmisifry.PickLetter(0, 0), osmisifry.PickLetter(1, 1))
    while osmisifry.step(state(t)).kind == "roll_letter":
        act(t, base.Rolled("letter", (2, 5)))
    act(t, osmisifry.EndCreation(), base.Rolled("direction", (2,)), osmisifry.StartDecoding(),
        osmisifry.EndDecoding(), osmisifry.Score(0, 6, 4, 1, False), osmisifry.Score(1, 5, 5, 0, True))


def entry(t: Table, game_id: int) -> dict:
    return next(e for e in t.log() if e["id"] == game_id)


def current_id(t: Table) -> int:
    return t.box.session.id


def page_text(body: str) -> str:
    """What a reader sees: tags gone, entities decoded, spaces squeezed."""
    text = re.sub(r"<(script|style)\b.*?</\1>|<[^>]+>", " ", body, flags=re.S)
    return " ".join(html.unescape(text).split())


def ok(t: Table, path: str) -> str:
    status, headers, body = t.get(path)
    assert status == 200, (path, status, body[:300])
    return body


# --- tonight -----------------------------------------------------------------------------------

def test_tonight_shows_every_game_with_status_players_totals_and_winners(t):
    davinci_game(t)
    t.box.leave()
    decipher_game(t)
    text = page_text(ok(t, "/"))
    # the game being played first, then the finished one
    assert text.index("Decipher") < text.index("Da Vinci Code")
    assert "Decipher Playing" in text and "Round 3 of 3 · Cy makes the word" in text
    assert "Da Vinci Code Finished" in text
    assert re.search(r"★ Ann Bob Players", text)      # a single Da Vinci Code game: the winner starred, no points
    assert re.search(r"Ann \d+ Bob \d+ Cy \d+", text)


def test_an_evening_without_games_says_so(t):
    assert "No games yet tonight" in page_text(ok(t, "/"))


def test_the_table_tools_are_not_a_game_of_the_evening(t):
    t.press("6")   # main menu: table tools
    assert t.box.session.name == "tools"
    assert "No games yet tonight" in page_text(ok(t, "/"))


def test_api_evening_serves_exactly_the_score_log(t):
    davinci_game(t)
    t.box.leave()
    decrypto_game(t)
    status, headers, body = t.get("/api/evening")
    assert status == 200 and headers["Content-Type"].startswith("application/json")
    assert json.loads(body) == t.log() == [scorelog.as_json(e) for e in scorelog.evening(t.box.store, t.clock.wall())]


def test_the_evening_as_json_and_csv_files(t):
    davinci_game(t)
    status, headers, body = t.get("/api/evening.json")
    day = history.evening_of(t.clock.wall())
    assert headers["Content-Disposition"] == f'attachment; filename="scores-{day}.json"'
    assert json.loads(body) == t.log()
    status, headers, body = t.get("/api/evening.csv")
    assert headers["Content-Disposition"] == f'attachment; filename="scores-{day}.csv"'
    rows = list(csv.DictReader(io.StringIO(body.removeprefix("\ufeff")), delimiter=";"))
    assert [(r["game"], r["player"], r["total"], r["winner"]) for r in rows] == [
        ("Da Vinci Code", "Ann", "1", "yes"), ("Da Vinci Code", "Bob", "0", "")]


def test_a_name_that_looks_like_a_formula_stays_text_in_the_csv(t):
    t.start("davinci", players=["=1+1", "Bob"])
    act(t, davinci.Dealt(), *[davinci.Attack(1, True)] * 4)
    rows = list(csv.reader(io.StringIO(t.get("/api/evening.csv")[2].removeprefix("\ufeff")), delimiter=";"))
    assert rows[1][6] == "'=1+1"


# --- one game ----------------------------------------------------------------------------------

def test_game_page_has_the_score_sheet_chart_winners_and_duration(t):
    decipher_game(t)
    t.advance(47 * 60)
    act(t, decipher.Guess(0, False), decipher.GiveUp())   # round 3 ends: the game is over
    game = current_id(t)
    e = entry(t, game)
    assert e["status"] == "finished"
    body = ok(t, f"/g/{game}")
    text = page_text(body)
    assert f"{e['winners'][0]} wins" in text or "share the win" in text
    assert "47 min" in text
    # the sheet: a row per round, each player's points with the total so far
    cells = re.findall(r'<tr class="round"><th scope="row">([^<]+)</th>(.*?)</tr>', body)
    running = dict.fromkeys(e["players"], 0)
    for (label, row), r in zip(cells, e["rounds"], strict=True):
        assert label == f"Round {r['round']}"
        for name in e["players"]:
            running[name] += r["scores"][name]
        assert re.findall(r'<td>(-?\d+)<small><span class="sr">running total </span>Σ (-?\d+)</small></td>', row) == [
            (str(r["scores"][n]), str(running[n])) for n in e["players"]]
    assert "Ann made the word, solved by Bob" in text and "Bob made the word, given up" in text
    totals = " ".join(str(e["totals"][n]) for n in e["players"])
    assert f"Total {totals}" in text
    # the chart: one line per player through the running totals
    lines = re.findall(r'<polyline class="line s(\d)" points="([^"]+)"', body)
    assert [k for k, _ in lines] == ["0", "1", "2"]
    assert all(len(points.split()) == 4 for _, points in lines)   # the start and three rounds


def test_a_game_in_play_says_who_plays_once(t):
    t.start("decrypto", members=[["Ann", "Bob"], ["Cy", "Dan"]])
    text = page_text(ok(t, f"/g/{current_id(t)}"))
    assert "No rounds scored yet." in text and text.count("Players:") == 1
    assert "Teams: White (Ann, Bob), Black (Cy, Dan) Players: Ann , Bob , Cy , Dan" in text
    t.box.leave()
    t.start("davinci", players=["Ann", "Bob"])
    assert page_text(ok(t, f"/g/{current_id(t)}")).count("Players:") == 1


def test_a_long_sheet_without_a_scoring_row_still_says_how_many_rows_the_csv_has(t, monkeypatch):
    monkeypatch.setattr(sheets, "LONG_SHEET", 1)
    t.start("octiles", mode="dealer")
    act(t, octiles.Pass(), octiles.Pass())           # two turns passed: no points
    text = page_text(ok(t, f"/g/{current_id(t)}"))
    assert "No rounds scored yet." in text
    assert "2 rows without points are left out: the CSV has every one." in text


def test_the_chart_follows_the_running_totals():
    svg = chart.running_totals(["A", "B"], [(0, 0), (2, 0), (2, 5)])
    lines = dict(re.findall(r'class="line (s\d)" points="([^"]+)"', svg))
    ys = {k: [float(p.split(",")[1]) for p in v.split()] for k, v in lines.items()}
    assert abs(ys["s0"][0] - ys["s1"][0]) == chart.APART      # both start at 0, drawn apart
    assert ys["s1"][1] == ys["s0"][0]                         # B stays at 0, alone there now, where A started
    assert ys["s0"][1] < ys["s1"][1]                          # A goes up (SVG y grows down)
    assert ys["s1"][2] < ys["s0"][2]                          # and B ends above A
    assert 'aria-label="Running totals: A 2, B 5"' in svg


def test_a_zero_total_is_drawn_on_the_zero_line():
    svg = chart.running_totals(["A", "B"], [(0, 0), (0, 3), (2, 0)])
    zero = float(re.search(r'<line class="axis"[^>]* y1="([\d.]+)"', svg).group(1))
    lines = dict(re.findall(r'class="line (s\d)" points="([^"]+)"', svg))
    ys = {k: [float(p.split(",")[1]) for p in v.split()] for k, v in lines.items()}
    assert ys["s0"][0] == zero and ys["s1"][0] == zero + chart.APART   # both at 0: A on the line, B beside it
    assert ys["s0"][1] == zero and ys["s1"][2] == zero                 # a 0 alone: on the line
    dots = [float(cy) for cy in re.findall(r'<circle class="dot s\d" cx="[\d.]+" cy="([\d.]+)"', svg)]
    assert dots.count(zero) == 2


def test_a_negative_total_is_drawn_below_the_zero_line():
    svg = chart.running_totals(["White", "Black"], [(0, 0), (1, -1), (1, -2)])
    zero = float(re.search(r'<line class="axis"[^>]* y1="([\d.]+)"', svg).group(1))
    black = [float(p.split(",")[1]) for p in re.search(r'class="line s1" points="([^"]+)"', svg).group(1).split()]
    assert abs(black[0] - zero) <= chart.APART and black[2] > black[1] > zero


def test_equal_lines_in_a_chart_are_drawn_apart_so_none_hides_another():
    svg = chart.running_totals(["A", "B", "C"], [(0, 0, 0), (1, 3, 3), (2, 4, 4)])
    lines = dict(re.findall(r'class="line (s\d)" points="([^"]+)"', svg))
    ys = {k: [float(p.split(",")[1]) for p in v.split()] for k, v in lines.items()}
    assert len({ys[k][2] for k in ys}) == 3                   # B and C end equal, yet both show
    assert ys["s2"][2] - ys["s1"][2] == chart.APART
    dots = re.findall(r'<circle class="dot (s\d)" cx="[\d.]+" cy="([\d.]+)"', svg)
    assert len(set(dots)) == len(dots)


def test_decryptos_chart_counts_interception_and_miscommunication_tokens_per_round(t):
    decrypto_game(t)                                  # Black miscommunicates in both rounds
    body = ok(t, f"/g/{current_id(t)}")
    svg = re.search(r"<svg class=\"chart\".*?</svg>", body, re.S).group(0)
    assert 'aria-label="Tokens: White: Interceptions 0, White: Miscommunications 0, ' \
           'Black: Interceptions 0, Black: Miscommunications 2"' in svg
    lines = re.findall(r'<polyline class="line (s\d)( dash thin)?" points="([^"]+)"', svg)
    assert [(k, bool(d)) for k, d, _ in lines] == [("s0", False), ("s0", True), ("s1", False), ("s1", True)]
    legend = page_text(re.search(r'<figcaption class="legend">.*?</figcaption>', body, re.S).group(0))
    assert legend == ("White: Interceptions 0 White: Miscommunications 0 "
                      "Black: Interceptions 0 Black: Miscommunications 2")
    misc = [float(p.split(",")[1]) for p in lines[3][2].split()]
    assert misc[2] < misc[1] < misc[0]                # one more token each round


def test_game_csv_is_the_paper_score_sheet(t):
    decrypto_game(t)
    game = current_id(t)
    status, headers, body = t.get(f"/api/g/{game}.csv")
    assert headers["Content-Disposition"] == f'attachment; filename="game-{game}.csv"'
    rows = list(csv.reader(io.StringIO(body.removeprefix("\ufeff")), delimiter=";"))
    assert rows[0] == ["round", "White", "Black", "details"]
    assert [r[:3] for r in rows[1:]] == [["Round 1", "0", "-1"], ["Round 2", "0", "-1"], ["total", "0", "-2"]]
    assert "Black" in rows[1][3] and "miscommunication" in rows[1][3]
    assert rows[3][3] == "White wins"


def test_api_game_is_its_score_log_entry(t):
    decrypto_game(t)
    game = current_id(t)
    assert json.loads(ok(t, f"/api/g/{game}")) == entry(t, game)


def test_DE1_finished_decrypto_says_why_it_was_won(t):
    decrypto_game(t)
    text = page_text(ok(t, f"/g/{current_id(t)}"))
    assert "White wins Black miscommunicated twice." in text   # as the box's result page says it


def test_save_to_bgstats_link_for_a_finished_game_in_its_documented_format(t):
    t.start("davinci", players=["Ann", "Bob"])
    game = current_id(t)
    assert "Save to BG Stats" not in ok(t, f"/g/{game}")          # not while it is played
    t.advance(20 * 60)
    act(t, davinci.Dealt(), *[davinci.Attack(1, True)] * 4)
    link = re.search(r'href="(https://app\.bgstatsapp\.com/createPlay\.html\?data=[^"]+)"[^>]*>Save to BG Stats',
                     ok(t, f"/g/{game}")).group(1)
    play = json.loads(urllib.parse.unquote(html.unescape(link).split("data=", 1)[1]))
    assert play["sourceName"] == "Tabletop Referee"
    assert play["game"]["name"] == "Da Vinci Code"
    assert play["durationMin"] == 20
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", play["playDate"])
    # [DV-8] A single game is won, not scored: no points, no scores.
    assert play["game"]["noPoints"] is True and not any("score" in p for p in play["players"])
    assert [(p["name"], p["winner"], p["rank"]) for p in play["players"]] == [("Ann", True, 1), ("Bob", False, 2)]


def bgstats_play(t: Table, game: int) -> dict:
    link = re.search(r'href="(https://app\.bgstatsapp\.com/createPlay\.html\?data=[^"]+)"', ok(t, f"/g/{game}")).group(1)
    return json.loads(urllib.parse.unquote(html.unescape(link).split("data=", 1)[1]))


def test_bgstats_knows_each_name_for_the_evening_and_who_started(t):
    ids = []
    for _ in range(2):
        t.start("davinci", players=["Žofie", "Игорь"], starts=1)
        ids.append(current_id(t))
        act(t, davinci.Dealt(), *[davinci.Attack(0, True)] * 4)
        t.box.leave()
    t.advance(24 * 3600)                      # the next evening, the same names
    t.start("davinci", players=["Žofie", "Игорь"])
    ids.append(current_id(t))
    act(t, davinci.Dealt(), *[davinci.Attack(1, True)] * 4)
    plays = [bgstats_play(t, game) for game in ids]
    first = [(p["name"], p["seatOrder"], p["startPlayer"], p["winner"]) for p in plays[0]["players"]]
    assert first == [("Žofie", 1, False, False), ("Игорь", 2, True, True)]
    ids_of = [[p["sourcePlayerId"] for p in play["players"]] for play in plays]
    assert ids_of[0] == ids_of[1]                                  # one id per name tonight
    assert len(set(ids_of[0])) == 2
    assert not set(ids_of[2]) & set(ids_of[0])                     # another evening, other ids
    assert [p["startPlayer"] for p in plays[2]["players"]] == [True, False]


def test_bgstats_gets_decrypto_as_a_team_game_with_its_players_in_their_teams(t):
    t.start("decrypto", members=[["Ann", "Bob", "Cy"], ["Dana", "Eva"]])
    for _ in range(2):
        decrypto_clues(t)
        decrypto_guesses(t, miscommunicate={1})
    play = bgstats_play(t, current_id(t))
    assert play["usesTeams"] is True and play["game"]["usesTeams"] is True and "board" not in play
    assert [(p["name"], p["team"], p["score"], p["winner"], p["rank"]) for p in play["players"]] == [
        ("Ann", "White", 0, True, 1), ("Bob", "White", 0, True, 1), ("Cy", "White", 0, True, 1),
        ("Dana", "Black", -2, False, 2), ("Eva", "Black", -2, False, 2)]
    assert t.log()[0]["members"] == {"White": ["Ann", "Bob", "Cy"], "Black": ["Dana", "Eva"]}


def test_bgstats_gets_the_hacker_variant_as_what_it_is(t):
    t.start("decrypto", variant="hacker", members=[["Ann"], ["Bob", "Cy"]])
    for _ in range(2):                                   # the Team miscommunicates twice [DE-10]
        act(t, decrypto.CluesDone(1))
        decrypto_guesses(t, miscommunicate={1})
    assert t.log()[0]["winners"] == ["Hacker"]
    play = bgstats_play(t, current_id(t))                # read back from the page's own link
    assert play["board"] == "Hacker variant" and play["usesTeams"] is True
    assert [(p["name"], p["team"], p["winner"], p["rank"]) for p in play["players"]] == [
        ("Ann", "Hacker", True, 1), ("Bob", "Team", False, 2), ("Cy", "Team", False, 2)]


def test_DE10_the_replay_names_the_hacker_variants_side_the_team_and_the_hacker_keeps_nothing_hidden(t):
    t.start("decrypto", variant="hacker", members=[["Ann"], ["Bob", "Cy"]])
    for _ in range(2):                                   # the Team miscommunicates twice [DE-10]
        act(t, decrypto.CluesDone(1))
        decrypto_guesses(t, miscommunicate={1})
    game = current_id(t)
    sides = re.findall(r'<a href="/g/\d+/step/1\?side=(\w+)">([^<]+)</a>', ok(t, f"/g/{game}/step/1"))
    assert sides == [("team", "Team's side")]          # the Hacker has no keywords: nothing of it was hidden
    assert t.get(f"/g/{game}/step/1?side=hacker")[0] == 404
    team = ok(t, f"/g/{game}/step/1?side=team")
    assert f'href="/g/{game}/step/2?side=team" rel="next"' in team and 'name="side" value="team"' in team
    assert re.findall(r'\?side=(\w+)">', team) == []       # no other side's link
    assert ok(t, f"/g/{game}/step/1?side=black") == team           # an address of before keeps working
    assert t.get(f"/g/{game}/step/1?side=white%0a")[0] == 404


def test_bgstats_fields_have_the_documented_names_and_types(t):
    t.start("davinci", players=["Ann", "Bob"], starts=1)
    started = t.clock.wall()
    t.advance(20 * 60)
    act(t, davinci.Dealt(), *[davinci.Attack(0, True)] * 4)    # Bob, who started, turns up Ann's row
    ended = t.log()[0]["ended"]
    play = bgstats_play(t, current_id(t))
    assert {k: type(v) for k, v in play.items()} == {
        "sourceName": str, "sourcePlayId": str, "playDate": str, "durationMin": int, "game": dict, "players": list}
    # When the play ended, in UTC, without a zone or a "T".
    assert play["playDate"] == time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(ended)) and ended > started
    assert play["game"] == {"name": "Da Vinci Code", "sourceGameId": "davinci", "bggId": 8946,
                            "highestWins": True, "noPoints": True}   # [DV-8] a single game scores nothing
    for p in play["players"]:
        assert {k: type(v) for k, v in p.items()} == {
            "name": str, "sourcePlayerId": str, "seatOrder": int, "winner": bool, "rank": int,
            "startPlayer": bool}                         # no "team" outside a team game, no score without points
    assert [p["startPlayer"] for p in play["players"]] == [False, True]
    t.box.leave()
    t.start("decrypto", members=[["Ann", "Bob"], ["Cy", "Dana"]])
    for _ in range(2):
        decrypto_clues(t)
        decrypto_guesses(t, miscommunicate={1})
    play = bgstats_play(t, current_id(t))
    assert play["game"]["bggId"] == 225694 and play["game"]["usesTeams"] is True
    assert play["game"]["noPoints"] is False and all(type(p["score"]) is int for p in play["players"])


def test_the_csv_is_utf8_with_a_byte_order_mark_and_semicolons_for_czech_polish_russian_spreadsheets(t):
    t.start("davinci", players=["Žofie", "Łucja;Ola"])
    act(t, davinci.Dealt(), *[davinci.Attack(1, True)] * 4)
    names = {}
    for path in ("/api/evening.csv", f"/api/g/{current_id(t)}.csv"):
        status, headers, body = t.get(path)
        assert headers["Content-Type"].startswith("text/csv") and "utf-8" in headers["Content-Type"]
        assert body.startswith("\ufeff")
        rows = list(csv.reader(io.StringIO(body[1:]), delimiter=";"))
        assert all(len(row) == len(rows[0]) for row in rows)
        names[path] = rows
    assert [row[6] for row in names["/api/evening.csv"][1:]] == ["Žofie", "Łucja;Ola"]  # a ";" in a name is quoted
    assert names[f"/api/g/{current_id(t)}.csv"][0][1:3] == ["Žofie", "Łucja;Ola"]


def test_the_table_tools_and_unknown_games_have_no_page(t):
    t.press("6")
    assert t.get(f"/g/{current_id(t)}")[0] == 404
    assert t.get("/g/424242")[0] == 404
    assert t.get("/api/g/424242")[0] == 404


# --- earlier evenings --------------------------------------------------------------------------

def test_earlier_evenings_are_kept_and_browsable(t):
    davinci_game(t)
    t.box.leave()
    first = history.evening_of(t.clock.wall())
    t.advance(24 * 3600)
    decipher_game(t)
    text = page_text(ok(t, "/"))
    assert "Decipher" in text and "Da Vinci" not in text
    listing = ok(t, "/e/")
    assert f'href="/e/{first}"' in listing
    earlier = page_text(ok(t, f"/e/{first}"))
    assert "Da Vinci Code Finished" in earlier and "Decipher" not in earlier
    assert [e["game"] for e in json.loads(ok(t, f"/api/e/{first}"))] == ["davinci"]
    # tonight's date is the live page itself
    status, headers, _ = t.get(f"/e/{history.evening_of(t.clock.wall())}")
    assert status == 302 and headers["Location"] == "/"


def test_the_list_of_evenings_comes_a_page_at_a_time(t):
    for _ in range(history.PER_PAGE + 3):
        t.start("davinci", players=["Ann", "Bob"])
        t.box.leave()
        t.restart(off=24 * 3600)     # the box is put away until the next evening
    first = json.loads(ok(t, "/api/evenings"))
    assert len(first["evenings"]) == history.PER_PAGE
    second = json.loads(ok(t, f"/api/evenings?before={first['older']}"))
    assert len(second["evenings"]) == 3 and second["older"] is None
    days = [e["day"] for e in first["evenings"] + second["evenings"]]
    assert days == sorted(days, reverse=True) and len(set(days)) == history.PER_PAGE + 3
    assert f'href="/e/?before={first["older"]}"' in ok(t, "/e/")


def test_an_evening_is_six_in_the_morning_to_six_in_the_morning():
    day = dt.date(2026, 3, 7)
    start, end = history.bounds(day)
    assert history.evening_of(start) == day
    assert history.evening_of(end - 1) == day        # 05:59:59 next morning: still that evening
    assert history.evening_of(end) == day + dt.timedelta(days=1)


# --- live ---------------------------------------------------------------------------------------

class Stream:
    """An open /live connection, read on the table's loop."""

    def __init__(self, t: Table) -> None:
        self.t = t
        self.raw = b""

        async def connect():
            self.session = aiohttp.ClientSession()
            self.response = await self.session.get(t.web_url() + "live")

        t.loop.run_until_complete(connect())

    def message(self, seconds: float = 5.0) -> str:
        async def read():
            while True:
                line = await self.response.content.readline()
                self.raw += line
                if line.startswith(b"data:"):
                    return line[5:].strip().decode()
        return self.t.loop.run_until_complete(asyncio.wait_for(read(), seconds))

    def close(self) -> None:
        async def close():
            self.response.close()
            await self.session.close()
        self.t.loop.run_until_complete(close())


def test_a_key_press_at_the_table_reaches_the_live_stream_and_the_page(t):
    t.start("decipher", players=["Ann", "Bob"])
    assert "Ann 0 Bob 0" in page_text(ok(t, "/"))
    stream = Stream(t)
    try:
        first = stream.message()
        assert stream.response.headers["Content-Type"] == "text/event-stream"
        SCRIPT.append(decipher.Guess(1, True))
        t.press("#")                      # Bob has it: the round is scored
        version = stream.message()
        assert int(version) > int(first)
        page = ok(t, "/")
        assert f'data-version="{version}"' in page
        totals = t.log()[0]["totals"]
        assert totals["Bob"] > 0
        assert f"Round 1 of 4: scored Ann {totals['Ann']} Bob {totals['Bob']}" in page_text(page)
    finally:
        stream.close()


def test_after_a_power_cut_the_same_address_serves_the_same_evening(t):
    decipher_game(t)
    url, before = t.web_url(), page_text(ok(t, "/"))
    t.restart()
    assert t.web_url() == url                 # phones keep their page open
    assert page_text(ok(t, "/")) == before


def test_pages_that_can_change_fall_back_to_refreshing_without_javascript(t):
    decipher_game(t)
    for path in ("/", f"/g/{current_id(t)}"):
        body = ok(t, path)
        assert '<noscript><meta http-equiv="refresh"' in body
        assert re.search(r'<script src="/static/live\.js\?v=\w+" defer>', body)
    game = current_id(t)
    t.box.leave()
    assert "http-equiv" not in ok(t, f"/g/{game}")   # over: nothing left to follow


# --- pages as a phone gets them -------------------------------------------------------------

@pytest.fixture
def speaking(request, t):
    # As the Settings menu does: the box speaks it and keeps it in the store,
    # where the web reads it.
    i18n.use(request.param)
    t.box.store.set_setting("lang", request.param)
    yield request.param
    i18n.use("en")   # the language is the whole process's


@pytest.mark.parametrize("speaking", ["en", "ru"], indirect=True)   # Cyrillic takes two bytes a letter
def test_pages_are_small_on_the_wire_and_load_nothing_from_elsewhere(t, speaking):
    for _ in range(8):
        decrypto_game(t)
        t.box.leave()
    t.start("octiles", players=4)
    octiles_turns(t, 60)
    game = current_id(t)
    for path in ("/", f"/g/{game}", "/static/style.css", "/static/live.js"):
        status, headers, body = t.get(path, {"Accept-Encoding": "gzip"})
        assert headers["Content-Encoding"] == "gzip"
        assert int(headers["Content-Length"]) <= 20_000, path
        if not path.startswith("/static/"):
            assert f'<html lang="{speaking}">' in body, path
        for url in re.findall(r'<(?:link|script|img|iframe|source)\b[^>]*(?:src|href)="([^"]*)"', body):
            assert url.startswith("/") and not url.startswith("//"), url
        assert "@import" not in body and "url(" not in body


def test_an_unchanged_page_is_not_sent_again(t):
    davinci_game(t)
    status, headers, body = t.get("/")
    status, again, body = t.get("/", {"If-None-Match": headers["ETag"]})
    assert status == 304 and body == ""
    t.box.leave()   # a change at the table: a new page
    assert t.get("/", {"If-None-Match": headers["ETag"]})[0] == 200


def test_strict_headers_on_every_answer(t):
    davinci_game(t)
    for path in ("/", "/g/1", "/api/evening", "/static/style.css", "/nope"):
        headers = t.get(path)[1]
        csp = headers["Content-Security-Policy"]
        assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp
        assert "unsafe-inline" not in csp
        assert headers["X-Content-Type-Options"] == "nosniff"
        assert headers["Referrer-Policy"] == "no-referrer"


def test_no_inline_script_or_style_in_any_page(t):
    decrypto_game(t)
    pages = [ok(t, "/"), ok(t, f"/g/{current_id(t)}"), ok(t, "/e/"), ok(t, teams_path(t, 0)), t.get("/nope")[2]]
    for body in pages:
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", body)
        assert not re.search(r"\son\w+=|\sstyle=|<style", body)


def test_bad_paths_methods_and_sizes_get_plain_4xx(t):
    decipher_game(t)
    for path in ("/nope", "/g/abc", "/g/0", "/g/99999999999999999999", "/e/2026-13-45", "/static/../app.py",
                 "/static/nope.css", "/api/nope", "/T/short", "/api/e/2026-02-30"):
        status, headers, body = t.get(path)
        assert status == 404, path
        assert "Traceback" not in body and ".py" not in body
    assert t.get("/e/?before=yesterday")[0] == 400
    status, headers, _ = t.post("/", {"a": "b"})
    assert status == 405 and "GET" in headers["Allow"]
    status, _, body = t.get("/api/nope")
    assert json.loads(body) == {"error": "Not Found"}


def test_a_failure_inside_is_a_plain_500_and_goes_to_the_log(t, monkeypatch, caplog):
    def broken(store, now):
        raise RuntimeError("secret detail of the failure")
    monkeypatch.setattr(scorelog, "evening", broken)
    with caplog.at_level(logging.ERROR, logger="referee.web.app"):
        status, headers, body = t.get("/")
    assert status == 500
    assert "Internal Server Error" in body
    assert "secret detail" not in body and "Traceback" not in body
    assert "secret detail" in caplog.text


# --- team pages -----------------------------------------------------------------------------------

def teams_path(t: Table, team: int) -> str:
    return urllib.parse.urlsplit(team_links.team_url(t.box, team)).path


def form_of(t: Table, path: str) -> tuple[str, str]:
    """A team page's form secret and its cookie (which holds the same)."""
    cookie = t.get(path)[1]["Set-Cookie"].split(";")[0]
    return cookie.split("=", 1)[1], cookie


def test_team_url_is_a_new_128_bit_capability_for_every_game(t):
    t.start("decrypto")
    url = team_links.team_url(t.box, 0)
    assert re.fullmatch(r"HTTP://127\.0\.0\.1:8080/T/[A-Z2-7]{26}", url)   # 26 base32 letters: 130 bits
    assert team_links.team_url(t.box, 0) == url                    # the same for the whole game
    assert team_links.team_url(t.box, 1) != url
    t.restart()                                             # a power cut keeps it
    assert team_links.team_url(t.box, 0) == url
    t.box.leave()
    t.start("decrypto")
    assert team_links.team_url(t.box, 0) != url


def test_only_team_games_have_team_pages(t):
    with pytest.raises(ValueError):
        team_links.team_url(t.box, 0)                              # nothing is played
    t.start("decipher", players=2)
    with pytest.raises(ValueError):
        team_links.team_url(t.box, 0)
    t.box.leave()
    t.start("decrypto")
    with pytest.raises(ValueError):
        team_links.team_url(t.box, 2)


def test_DE3_team_page_shows_its_own_keywords_and_revealed_codes_never_the_code_in_play(t):
    t.start("decrypto")
    decrypto_clues(t)
    decrypto_guesses(t)                                     # round 1 revealed
    s = state(t)
    white, black = (ok(t, teams_path(t, team)) for team in (0, 1))
    for word in s.keywords[0]:
        assert word in white and word not in black
    for word in s.keywords[1]:
        assert word in black and word not in white
    revealed = s.rounds[0].reveals[0].code
    assert "-".join(map(str, revealed)) in page_text(white)
    code_now = "-".join(map(str, s.codes[0]))
    assert code_now != "-".join(map(str, revealed))           # [DE-8] never the same code twice in a row
    assert code_now not in white
    assert "Round 2 of 8" in page_text(white)


def test_team_pages_keep_their_address_to_themselves(t):
    t.start("decrypto")
    status, headers, body = t.get(teams_path(t, 0))
    assert headers["Referrer-Policy"] == "no-referrer"
    assert headers["Cache-Control"] == "no-store"
    cookie = headers["Set-Cookie"]
    assert "SameSite=Strict" in cookie and "HttpOnly" in cookie
    assert re.search(r"<a [^>]*href=\"https?://", body) is None   # no link out that could carry it


def test_an_unknown_or_old_team_token_is_a_plain_404(t):
    t.start("decrypto")
    old = teams_path(t, 0)
    assert t.get(old)[0] == 200
    assert t.get(old.lower())[0] == 200                     # typed by hand in lower case
    unknown = "/T/" + team_links.new_token()
    t.box.leave()
    t.start("decrypto")
    for path in (old, unknown):
        status, headers, body = t.get(path)
        assert status == 404
        assert body == t.get("/nothing-here")[2]            # word for word any 404
        assert "Set-Cookie" not in headers


class Done:
    """A team-page form for the test: "clues done" for the team."""

    def __call__(self, state, team, form):
        if form.get("do") != "done":
            raise base.Illegal(f"Unknown button {form.get('do', '')}.")
        return decrypto.CluesDone(team)


@pytest.fixture
def done_button(monkeypatch):
    monkeypatch.setattr(web_decrypto, "team_form", Done())
    # ... and the box lets a team page play that event.
    monkeypatch.setitem(catalogue.GAMES, "decrypto", dataclasses.replace(catalogue.get("decrypto"),
                                                                   phone_events=frozenset({"CluesDone"})))


def test_a_form_from_the_team_page_itself_plays_its_event(t, done_button):
    t.start("decrypto")
    path = teams_path(t, 1)
    secret, cookie = form_of(t, path)
    status, headers, _ = t.post(path, {"csrf": secret, "do": "done"},
                                {"Cookie": cookie, "Origin": t.web_url().rstrip("/"), "Sec-Fetch-Site": "same-origin"})
    assert status == 303 and headers["Location"] == path
    assert state(t).clues_done == (False, True)


@pytest.mark.parametrize("forgery", ["no secret", "wrong secret", "no cookie", "other origin", "cross-site",
                                     "other referer"])
def test_forms_from_other_sites_are_refused(t, done_button, forgery):
    t.start("decrypto")
    path = teams_path(t, 0)
    secret, cookie = form_of(t, path)
    data = {"csrf": secret, "do": "done"}
    headers = {"Cookie": cookie, "Origin": "null"}
    if forgery == "no secret":
        del data["csrf"]
    elif forgery == "wrong secret":
        data["csrf"] = secret[:-1] + ("A" if secret[-1] != "A" else "B")
    elif forgery == "no cookie":
        del headers["Cookie"]
    elif forgery == "other origin":
        headers["Origin"] = "http://evil.example"
    elif forgery == "cross-site":
        headers["Sec-Fetch-Site"] = "cross-site"
    elif forgery == "other referer":
        headers["Referer"] = "http://evil.example/page"
    status, _, body = t.post(path, data, headers)
    assert status == 403 and "Forbidden" in body
    assert state(t).clues_done == (False, False)


def test_team_forms_are_length_limited_and_what_comes_back_is_escaped(t, done_button):
    t.start("decrypto")
    path = teams_path(t, 0)
    secret, cookie = form_of(t, path)
    headers = {"Cookie": cookie, "Origin": "null"}
    status, _, body = t.post(path, {"csrf": secret, "do": "<b>x</b>"}, headers)
    assert status == 400 and "Unknown button &lt;b&gt;x&lt;/b&gt;." in body
    assert t.post(path, {"csrf": secret, "do": "x" * (team_pages.MAX_FIELD + 1)}, headers)[0] == 400
    assert t.post(path, {"csrf": secret, "do": "x" * 20_000}, headers)[0] == 413
    assert state(t).clues_done == (False, False)


def test_a_refused_move_from_a_phone_does_not_beep_at_the_table(t, done_button):
    t.start("decrypto")
    path = teams_path(t, 0)
    secret, cookie = form_of(t, path)
    headers = {"Cookie": cookie, "Origin": "null"}
    assert t.post(path, {"csrf": secret, "do": "done"}, headers)[0] == 303
    status, _, body = t.post(path, {"csrf": secret, "do": "done"}, headers)
    assert status == 400 and "Your clues are already done." in body
    assert "error" not in t.sounds


# --- nothing secret in anything public -------------------------------------------------------------

class Secrets:
    """What must not be in a public answer at one moment of the evening."""

    def __init__(self) -> None:
        self.words: set[str] = set()
        self.codes: set[tuple] = set()
        self.patterns: set[str] = set()

    def decrypto(self, s: decrypto.State) -> None:
        self.words.update(w for team in s.keywords for w in team)
        if s.result is None:
            shown = {r.team for r in s.reveals}
            self.codes = {c for team, c in enumerate(s.codes) if c and team in s.coding and team not in shown}
        else:
            self.codes = set()

    def found_in(self, body: str, public_codes: set[tuple]) -> list[str]:
        text = "\n".join((body, html.unescape(body), urllib.parse.unquote(body)))
        found = [w for w in self.words if re.search(rf"\b{re.escape(w)}\b", text, re.I)]
        for code in self.codes - public_codes:
            forms = ("-".join(map(str, code)), json.dumps(list(code)), json.dumps(list(code), separators=(",", ":")))
            found += [form for form in forms if form in text]
        found += [p for p in self.patterns if re.search(p, text, re.I | re.S)]
        return found


def public_answers(t: Table) -> dict[str, str]:
    """Every public answer there is now: pages, API, files, 404s, a 405,
    and the live stream's messages."""
    day = history.evening_of(t.clock.wall())
    paths = ["/", "/e/", f"/e/{day - dt.timedelta(days=1)}", "/api/evening", "/api/evening.csv",
             "/api/evening.json", "/api/evenings", f"/api/e/{day}", f"/api/e/{day}.csv", "/g/999999",
             "/api/g/999999", "/nope", "/T/" + "A" * 26, "/N/" + "A" * 26]
    for e in t.log():
        paths += [f"/g/{e['id']}", f"/api/g/{e['id']}", f"/api/g/{e['id']}.csv"]
    answers = {}
    for path in paths:
        status, headers, body = t.get(path)
        shown = "\n".join(f"{k}: {v}" for k, v in headers.items() if k != "Date")   # "Sun, 22 Nov"
        answers[path] = shown + "\n\n" + body
    answers["POST /"] = t.post("/", {"x": "y"})[2]
    stream = Stream(t)
    try:
        stream.message()
        # One more message, as after any move: something committed, and the box says so.
        t.box.store.set_setting("test-change", t.box.store.setting("test-change", 0) + 1)
        t.box.changed()
        stream.message()
        answers["/live"] = stream.raw.decode()
    finally:
        stream.close()
    return answers


def public_codes(t: Table) -> set[tuple]:
    """Every code shown on purpose: revealed codes and every guess."""
    codes = set()
    for e in t.log():
        if e["game"] == "decrypto":
            for r in e["rounds"]:
                codes.update(tuple(c) for c in r["codes"].values())
                for g in r["guesses"].values():
                    codes.update(tuple(c) for c in g.values() if c)
    return codes


def assert_nothing_secret(t: Table, secrets: Secrets) -> None:
    shown = public_codes(t)
    leaks = {where: found for where, body in public_answers(t).items() if (found := secrets.found_in(body, shown))}
    assert not leaks


def tokens_of_the_evening(t: Table, secrets: Secrets) -> None:
    """A Decrypto game first, left after its first round, with both team
    pages opened: its keywords and team tokens stay secret all evening."""
    t.start("decrypto")
    for team in (0, 1):
        token = team_links.team_url(t.box, team).rsplit("/", 1)[1]
        secrets.patterns.add(token)
        assert t.get(f"/T/{token}")[0] == 200
    secrets.decrypto(state(t))
    assert_nothing_secret(t, secrets)
    decrypto_clues(t)
    decrypto_guesses(t)
    secrets.decrypto(state(t))
    t.box.leave()
    secrets.codes = set()


def pieces_near(count: int) -> str:
    return rf"pieces?\D{{0,30}}\b{count}\b|\b{count}\b\D{{0,30}}pieces?"


def test_nothing_secret_in_anything_public_decrypto(t):
    secrets = Secrets()
    tokens_of_the_evening(t, secrets)
    t.start("decrypto")
    secrets.decrypto(state(t))
    assert secrets.codes and len(secrets.words) == 16
    assert_nothing_secret(t, secrets)                       # keywords dealt, codes drawn
    decrypto_clues(t)
    decrypto_guesses(t)
    decrypto_clues(t)
    now = decrypto.step(state(t))
    act(t, decrypto.Guess(now.team, wrong(state(t).codes[now.of_team])))   # an interception announced
    secrets.decrypto(state(t))
    assert_nothing_secret(t, secrets)
    decrypto_guesses(t, miscommunicate={0})
    secrets.decrypto(state(t))
    assert_nothing_secret(t, secrets)


def test_nothing_secret_in_anything_public_decipher(t):
    secrets = Secrets()
    tokens_of_the_evening(t, secrets)
    t.start("decipher", players=["Ann", "Bob", "Cy"])
    act(t, decipher.Pieces(17))                             # [DC-3] the maker's secret
    secrets.patterns.add(pieces_near(17))
    assert_nothing_secret(t, secrets)
    act(t, decipher.Yes())
    assert t.box.session.rules.private(state(t), 0).pieces == 16
    secrets.patterns.add(pieces_near(16))
    assert_nothing_secret(t, secrets)
    act(t, decipher.Guess(1, True), decipher.NextRound(), decipher.Pieces(23))
    secrets.patterns.add(pieces_near(23))
    assert_nothing_secret(t, secrets)


def test_nothing_secret_in_anything_public_octiles(t):
    secrets = Secrets()
    tokens_of_the_evening(t, secrets)
    t.start("octiles", players=3)
    octiles_turns(t, 3)
    s = state(t)
    seen = {s.hand} | {tile for turn in s.turns for tile in (turn.tile, turn.removed)}
    unseen = set(s.deck) - seen                             # the deck is face down
    assert len(unseen) >= 12
    secrets.words.update(unseen)
    assert_nothing_secret(t, secrets)


def test_nothing_secret_in_anything_public_naming(t):
    """The names page of a setup: its address in nothing public, and on
    the page nothing of the evening's secrets (keywords, team addresses)."""
    secrets = Secrets()
    tokens_of_the_evening(t, secrets)
    form = _real_module("decrypto").setup(t.box)
    form.game = "decrypto"
    t.box.goto(form)
    t.press("B")
    path = urllib.parse.urlsplit(form.names_url()).path
    page = ok(t, path)
    assert secrets.found_in(page, set()) == []
    naming_token = path.rsplit("/", 1)[1]
    secrets.patterns.add(naming_token)
    assert_nothing_secret(t, secrets)
    assert t.get("/N/" + "A" * 26)[0] == 404


def test_nothing_secret_in_anything_public_davinci(t):
    secrets = Secrets()
    tokens_of_the_evening(t, secrets)
    davinci_game(t)
    assert_nothing_secret(t, secrets)


def test_nothing_secret_in_anything_public_osmisifry(t):
    secrets = Secrets()
    tokens_of_the_evening(t, secrets)
    osmisifry_game(t)
    assert entry(t, current_id(t))["status"] == "finished"
    assert_nothing_secret(t, secrets)


def test_the_secret_scan_finds_a_secret_when_one_is_shown(t):
    secrets = Secrets()
    tokens_of_the_evening(t, secrets)
    word = sorted(secrets.words)[0]
    t.start("decipher", players=[word, "Bob"])              # a keyword as a player's name: now public
    with pytest.raises(AssertionError):
        assert_nothing_secret(t, secrets)


def test_the_form_macro_for_team_pages_carries_the_page_secret():
    from jinja2 import Environment, PackageLoader
    env = Environment(loader=PackageLoader("referee.web", "templates"), autoescape=True)
    page = env.from_string('{% from "team-forms.html" import form with context %}'
                           '{% call form() %}<button name="do" value="done">Done</button>{% endcall %}')
    html_text = page.render(action="/T/ABC", csrf='s3"cret')
    assert '<form method="post" action="/T/ABC">' in html_text
    assert '<input type="hidden" name="csrf" value="s3&#34;cret">' in html_text
    assert '<button name="do" value="done">Done</button>' in html_text
