"""Issue 24, item 1: one definition per game.

Every game is one entry of ``referee.catalogue``; its rules keep the
``games.base.Rules`` protocol, its flows and web modules the hooks the
catalogue names.  A game added through the catalogue alone (Tally, under
``tests/extra_tally``) is played on the box, logged, shown, exported and
published with no other file touched.
"""
from __future__ import annotations

import contextlib
import csv
import dataclasses
import html
import inspect
import io
import json
import re
import typing

import msgspec
import pytest

from extra_tally import GAME as TALLY
from games import base
from referee import catalogue
from referee.club import messages as m
from referee.club.league import League, standings
from referee.club.outbox import Outbox
from referee.store import scorelog
from referee.testing import Table
from referee.web.players import key

PROTOCOL = {name: value for name, value in vars(base.Rules).items()
            if inspect.isfunction(value) and not name.startswith("_")}


def text(page: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html.unescape(page)).split())


def entries() -> list[catalogue.Game]:
    return list(catalogue.GAMES.values()) + [TALLY]


@pytest.mark.parametrize("game", entries(), ids=lambda g: g.name)
def test_every_entry_keeps_the_rules_protocol(game):
    rules = catalogue.load(game.rules)
    assert isinstance(rules, base.Rules)
    assert rules.NAME == game.name
    assert all(dataclasses.is_dataclass(e) and e.__dataclass_params__.frozen for e in rules.EVENTS)
    for name, wanted in PROTOCOL.items():
        given = inspect.signature(getattr(rules, name)).parameters.values()
        needed = [p for p in given if p.default is inspect.Parameter.empty]
        taken = len(inspect.signature(wanted).parameters) - 1   # less self
        assert len(needed) <= taken <= len(given), f"{game.name}.{name}{inspect.signature(getattr(rules, name))}"
    assert set(typing.get_type_hints(base.Rules)) == {"NAME", "EVENTS"}


# A start each game's rules take (the games of seats, two players).
STARTS = {"decrypto": {}, "tools": {}}


@pytest.mark.parametrize("game", entries(), ids=lambda g: g.name)
def test_every_entry_s_views_are_its_own_kind_of_view_and_plain_data(game):
    rules = catalogue.load(game.rules)
    state = rules.setup(STARTS.get(game.name, {"players": 2}))
    public, private = rules.public(state), rules.private(state, 0)
    assert isinstance(public, base.View) and isinstance(private, base.View)
    assert isinstance(private, type(public))      # what a seat sees adds to what anyone sees
    for view in (public, private):
        assert msgspec.json.decode(msgspec.json.encode(view), type=type(view)) == view


@pytest.mark.parametrize("game", entries(), ids=lambda g: g.name)
def test_every_entry_names_modules_with_the_hooks_it_promises(game):
    flows = catalogue.load(game.flows)
    assert isinstance(flows, catalogue.Flows) and callable(flows.Play) and callable(flows.describe)
    assert not game.on_menu or callable(flows.setup)     # the table tools start from the menu itself
    web = catalogue.load(game.web) if game.web else None
    for hook in ("details", "now", "team_form", "chart", "routes", "replay_step", "replay_hidden", "tokens",
                 "token_sheet"):
        assert getattr(web, hook, None) is None or callable(getattr(web, hook))
    assert (getattr(web, "team_form", None) is not None) == bool(game.teams) == bool(game.phone_events)
    # Issue 38: every game of the score log has a replay, and its words for an action.
    assert not game.logged or isinstance(web, catalogue.Web) and callable(web.replay_step)
    assert not game.logged or isinstance(catalogue.load(game.said), catalogue.Said)
    # Where it stands, as the box, the table view and the replay all say it.
    assert not game.logged or callable(catalogue.load(game.said).account)
    low, high = game.seats
    assert 1 <= low <= high


@pytest.fixture
def tally(monkeypatch):
    monkeypatch.setitem(catalogue.GAMES, TALLY.name, TALLY)
    with Table(seed=3) as t:
        yield t


def test_a_game_added_through_the_catalogue_alone_is_played_logged_exported_and_published(tally, tmp_path):
    t = tally
    # On the box: the main menu offers it, its setup starts it, its keys play it.
    t.press("D")                           # the menu's next page
    assert "6 Tally" in t.screen()
    t.press("6")
    assert "[Tally]" in t.screen()
    t.press("#")
    assert "Ann 0" in t.screen() and "Bob 0" in t.screen()
    t.type("121")
    t.hold("*", 1.0)                       # the game menu: its describer says what undo takes back
    assert "Ann scores" in t.screen()
    t.press("*")
    t.type("11")
    assert "Over" in t.screen() and "Ann 3" in t.screen()
    game_id = t.log()[-1]["id"]

    # The score log, its pages and its files.
    entry = next(e for e in t.log() if e["id"] == game_id)
    assert entry["game"] == "tally" and entry["winners"] == ["Ann"] and entry["totals"] == {"Ann": 3, "Bob": 1}
    status, _h, page = t.get("/")
    assert status == 200 and "Tally Finished" in text(page) and "★ Ann 3 Bob 1" in text(page)
    status, _h, page = t.get(f"/g/{game_id}")
    assert status == 200 and "Ann wins" in text(page) and "Point 4" in page and "scored by Bob" in page
    # Its replay, step by step, in its own words (issue 38).
    status, _h, page = t.get(f"/g/{game_id}/step/4")
    assert status == 200 and "» Ann scores" in text(page) and "Point 4" in text(page) and "Ann 3 Bob 1" in text(page)
    status, _h, sheet = t.get("/api/evening.csv")
    rows = list(csv.reader(io.StringIO(sheet.lstrip("\ufeff")), delimiter=";"))
    assert ["Tally", "Ann", "3", "yes"] == [rows[1][1], rows[1][6], rows[1][7], rows[1][8]]
    status, _h, sheet = t.get(f"/api/g/{game_id}.csv")
    assert status == 200 and "Point 1;1;0;scored by Ann" in sheet
    status, _h, played = t.get("/api/evening.json")
    assert status == 200 and json.loads(played)

    # The club: what the publisher sends of it, and what the league makes of that.
    with published(t, tmp_path) as league:
        rows = standings(league.games(0))
        assert {"name": "Ann", "played": 1, "wins": 1, "davinci": 0} in rows


@contextlib.contextmanager
def published(t: Table, tmp_path):
    """The league, once it has taken what the table's publisher sends."""
    outbox = Outbox(t.database, str(tmp_path / "club.db"))
    league = League(str(tmp_path / "league.db"))
    try:
        for game in outbox.pending():
            for seq, at, sent in outbox.entries(game):
                message = m.Entry(v=m.VERSION, kind="event", id=f"t1:{game}:{seq}", table="t1", game=game,
                                  seq=seq, at=at, entry=scorelog.as_json(sent))
                assert league.take(m.topic("club", "t1", "event"), m.encode(message)) == "taken"
        yield league
    finally:
        league.close()
        outbox.close()


def test_a_team_variant_through_the_catalogue_alone_is_logged_replayed_shown_rated_and_counted(tally, tmp_path):
    """Tally's team variant names the people of each team (``members``)
    and nothing else: every surface takes it from there."""
    t = tally
    t.press("D")
    t.press("6")
    t.press("0")                           # two teams of two
    assert "Reds 0" in t.screen() and "Blues 0" in t.screen()
    t.type("12")

    # The table view, while it is played: the teams with their people and points.
    status, _h, body = t.get("/api/table")
    view = json.loads(body)
    assert status == 200 and view["title"] == "Tally" and view["said"].endswith("Blues scores")
    assert [(s["name"], s["score"], s["members"]) for s in view["sides"]] == [
        ("Reds", "1", ["Ann", "Cy"]), ("Blues", "1", ["Bob", "Di"])]
    t.type("11")
    assert "Over" in t.screen() and "Reds 3" in t.screen()
    game_id = t.log()[-1]["id"]

    # The score log: the teams, their people beside them, the team that won.
    entry = next(e for e in t.log() if e["id"] == game_id)
    assert entry["members"] == {"Reds": ["Ann", "Cy"], "Blues": ["Bob", "Di"]} and entry["winners"] == ["Reds"]
    status, _h, page = t.get("/")
    assert status == 200 and "★ Reds (Ann, Cy) 3 Blues (Bob, Di) 1" in text(page)
    status, _h, page = t.get(f"/g/{game_id}")
    assert status == 200 and "Reds wins" in text(page) and "Reds (Ann, Cy)" in text(page)
    assert "Ann" in text(page.partition('class="players"')[2])     # the people's own pages, linked

    # The replay: the team's action in the box's words, the teams with their people.
    status, _h, page = t.get(f"/g/{game_id}/step/4")
    assert status == 200 and "» Reds scores" in text(page) and "Reds (Ann, Cy) 3 Blues (Bob, Di) 1" in text(page)

    # The ladder rates the people, each winner above each loser, never a team.
    status, _h, body = t.get("/api/p/ladder/tally.json")
    ladder = json.loads(body)
    rated = {r["name"]: r["mu"] for r in ladder["ranked"] + ladder["provisional"]}
    assert status == 200 and set(rated) == {"Ann", "Cy", "Bob", "Di"}
    assert min(rated["Ann"], rated["Cy"]) > max(rated["Bob"], rated["Di"])

    # The league counts the team's win, and rates its people across the club.
    with published(t, tmp_path) as league:
        assert {"name": "Reds", "played": 1, "wins": 1, "davinci": 0} in standings(league.games(0))
        ratings = league.players.ratings
        assert ratings["tally", key("Cy")].mu > ratings["tally", key("Di")].mu
        assert ("tally", key("Reds")) not in ratings
