"""Issue 37: one person, one player at every table of the club.

A box publishes its merges of two names, and their undos, with its games;
the league applies them so that a name joined at one table is joined at
every table, counts every game again, and says on the player's page which
tables' names were joined.  Two boxes whose merges disagree: the later is
not applied, and the league's page says why (``referee.club.joins``).

The league's store fed as its listener is fed, its pages through its web
app; then the whole way, two boxes and the league on a real Mosquitto.
"""
from __future__ import annotations

import asyncio
import datetime as dt
import html
import json
import re
import sqlite3
import time

import pytest
from aiohttp.test_utils import TestClient, TestServer
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee import i18n
from referee.club import messages
from referee.club.league import League as Store
from referee.club.league_web import LeagueSite, make_app
from referee.store.scorelog import evening_start
from referee.web.players import Rater, key
from referee.web.history import evening_of
from test_club import CLUB, WAIT, Sniffer, club, davinci_win, league_player, table_of  # noqa: F401
from test_merges import merge_page, post

NOW = time.time()


def game(table: str, number: int, players: list[str], winner: str | None = None,
         ended: float | None = None) -> tuple[str, bytes]:
    """A finished single game of Da Vinci Code at ``table``: ``winner`` (the
    first player unless said) beats the other."""
    winner = winner or players[0]
    entry = {"id": number, "game": "davinci", "started": NOW - 3600, "status": "finished", "players": players,
             "ended": ended or NOW - 3000 + 10 * number + (7 if table == "south" else 0),
             "winners": [winner], "totals": {p: int(p == winner) for p in players}, "scored": False}
    return messages.topic(CLUB, table, "event"), messages.encode(messages.Entry(
        v=1, kind="event", id=f"{table}:{number}:1", table=table, game=number, seq=1, at=5.0, entry=entry))


def merge(table: str, number: int, name: str, into: str, /, undone: float | None = None, **change) -> tuple[str, bytes]:
    sent = {"v": 1, "kind": "merge", "table": table, "id": number, "name": name, "into": into,
            "at": NOW - 1000 + number, "undone": undone, **change}
    return messages.topic(CLUB, table, "merge", str(number)), json.dumps(sent).encode()


def fed(league: Store, *payloads) -> list[str]:
    return [league.take(topic, payload) for topic, payload in payloads]


def standings(league: Store) -> list[tuple[str, int, int]]:
    """The evening's standings: (name, games, wins)."""
    day = dt.date.fromtimestamp(evening_start(NOW - 3600))
    return [(row["name"], row["played"], row["wins"]) for row in league.evening(day)["standings"]]


def games_of(league: Store, name: str) -> int:
    """How many games the league counts for the player a name is now."""
    return len(league.players.games.get(league.players.who(name), []))


def pages(league: Store, *paths: str) -> list[str]:
    async def get():
        async with TestClient(TestServer(make_app(LeagueSite(league)))) as client:
            out = []
            for path in paths:
                answer = await client.get(path)
                assert answer.status == 200, path
                out.append(html.unescape(await answer.text()))
            return out
    return asyncio.run(get())


def why_not(league: Store) -> list[tuple[str, str]]:
    return [(j["table"], j["text"]) for j in league.tonight(NOW)["merges"] if not j["joined"]]


@pytest.fixture
def league(tmp_path):
    store = Store(str(tmp_path / "league.db"))
    yield store
    store.close()


# The evening of both tables: Ania plays at both; Anna at the south, Ola at the north.
EVENING = [game("south", 1, ["Anna", "Cid"]), game("south", 2, ["Ania", "Cid"]),
           game("north", 1, ["Ania", "Bob"]), game("north", 2, ["Ola", "Bob"])]


def test_a_merge_at_one_table_joins_the_name_at_every_table_and_its_undo_parts_them(league):
    fed(league, *EVENING)
    assert games_of(league, "Anna") == 1 and games_of(league, "Ania") == 2
    alone = league.players.ratings[("davinci", "anna")].mu
    before = standings(league)
    assert ("Ania", 2, 2) in before and ("Anna", 1, 1) in before
    assert fed(league, merge("south", 1, "Ania", "Anna")) == ["taken"]
    # Ania's game at the north counts for Anna too: three games, rated in the order they ended.
    assert games_of(league, "Ania") == games_of(league, "Anna") == 3
    assert league.players.ratings[("davinci", "anna")].games == 3
    assert ("davinci", "ania") not in league.players.ratings
    anna, = pages(league, "/p/@anna")
    assert "Names joined at the club's tables: Ania → Anna (south)" in anna
    assert "Also played as: Ania" in anna
    assert [row for row in standings(league) if row[0] in ("Ania", "Anna")] == [("Anna", 3, 3)]
    assert fed(league, merge("south", 1, "Ania", "Anna", undone=NOW - 10)) == ["taken"]
    assert games_of(league, "Anna") == 1 and games_of(league, "Ania") == 2
    assert league.players.ratings[("davinci", "anna")].mu == pytest.approx(alone)
    assert "Names joined" not in pages(league, "/p/@anna")[0]
    assert standings(league) == before


def test_two_tables_merging_one_name_into_two_people_the_later_is_refused_and_said(league):
    fed(league, *EVENING)
    fed(league, merge("south", 1, "Ania", "Anna"), merge("north", 1, "Ania", "Ola"))
    assert games_of(league, "Ania") == games_of(league, "Anna") == 3 and games_of(league, "Ola") == 1
    assert why_not(league) == [("north", "Not joined: Ania already counts as Anna (merged at south).")]
    tonight, = pages(league, "/")
    assert "Names joined across tables" in tonight
    assert "Not joined: Ania already counts as Anna (merged at south)." in tonight
    # The south takes its merge back: the north's now holds, nothing held back.
    fed(league, merge("south", 1, "Ania", "Anna", undone=NOW - 10))
    assert games_of(league, "Ania") == games_of(league, "Ola") == 3 and games_of(league, "Anna") == 1
    assert why_not(league) == []
    assert "Names joined at the club's tables: Ania → Ola (north)" in pages(league, "/p/@ola")[0]


def test_the_league_page_kept_between_changes_says_each_merges_verdict_as_it_now_stands(league):
    """One page served across changes and languages, as the league serves
    it: each merge's row is rendered once for what it says, and says again
    what its verdict is now (an undo lets a held-back merge apply)."""
    fed(league, *EVENING, merge("south", 1, "Ania", "Anna"), merge("north", 1, "Ania", "Ola"))

    async def get(client, path: str) -> str:
        answer = await client.get(path)
        assert answer.status == 200
        page = await answer.text()
        return html.unescape(re.sub(r"<[^>]+>", "", page[page.index('class="last merges"'):]))   # its rows' words

    async def walk() -> list[str]:
        async with TestClient(TestServer(make_app(LeagueSite(league)))) as client:
            seen = [await get(client, "/")]
            with i18n.speaking("cs"):
                seen.append(await get(client, "/"))
            fed(league, merge("south", 1, "Ania", "Anna", undone=NOW - 10), merge("west", 1, "Cid", "Cyd"))
            seen.append(await get(client, "/"))
            with i18n.speaking("cs"):
                seen.append(await get(client, "/"))
            return seen

    before, before_cs, after, after_cs = asyncio.run(walk())
    refused = "Ania → Ola · north · Not joined: Ania already counts as Anna (merged at south)."
    assert refused in before and "Ania → Anna · south" in before
    assert "Ania → Ola · north · Nespojeno: Ania se už počítá jako Anna (sloučeno u stolu south)." in before_cs
    for page in (after, after_cs):
        assert "Ania → Ola · north\n" in page and "Cid → Cyd · west\n" in page
        assert "Ania → Anna" not in page and "Not joined" not in page and "Nespojeno" not in page


def test_names_that_met_in_a_game_at_any_table_stay_two_players(league):
    fed(league, *EVENING, game("west", 1, ["Anna", "Ola"]))
    fed(league, merge("north", 1, "Ola", "Anna"))
    assert why_not(league) == [("north", "Not joined: Ola and Anna played in one game at west: they are two "
                                         "players.")]
    assert games_of(league, "Ola") == 2
    # Joined first, then a game reaches the league where the two sat together: parted again, said.
    fed(league, merge("south", 1, "Ania", "Anna"))
    assert games_of(league, "Anna") == 4
    fed(league, game("east", 1, ["Ania", "Anna"]))
    assert games_of(league, "Anna") == games_of(league, "Ania") == 3
    assert ("south", "Not joined: Ania and Anna played in one game at east: they are two players.") in why_not(league)
    assert league.players.ratings[("davinci", "anna")].games == 3


def test_merges_that_agree_or_chain_across_tables_make_one_player(league):
    fed(league, *EVENING, game("west", 1, ["Ola", "Cid"]))
    fed(league, merge("south", 1, "Ania", "Anna"), merge("north", 1, "ANIA", "anna"),   # the same merge
        merge("west", 1, "Anna", "Ania"),                                                # the other way round
        merge("north", 2, "Anna", "Ola"))                                                # and on: Anna is Ola
    assert why_not(league) == []
    assert games_of(league, "Ania") == games_of(league, "Anna") == games_of(league, "Ola") == 5
    assert league.players.who("Ania") == league.players.who("Anna") == "ola"
    line = pages(league, "/p/@ola")[0]
    assert "Ania → Anna (south); ANIA → anna (north); Anna → Ania (west); Anna → Ola (north)" in line


def test_the_league_refuses_a_merge_no_box_sends_and_drops_one_it_has(league):
    fed(league, *EVENING)
    refused = [merge("south", 1, "Ania\u202e", "Anna"), merge("south", 1, "Ania", "Anna" * 4),
               merge("south", 1, "Ania", "ANIA"), merge("south", 1, "Ania", "Anna", extra=1),
               merge("south", 1, "Ania", "Anna", at=NOW + 3 * 86400), merge("south", 1, "Ania", "Anna", undone="x"),
               merge("south", 1, "Ania", "Anna", id=2), merge("south", 1, "Ania", "Anna", table="north"),
               merge("south", 1, "Ania", "Аnna")]                       # a Cyrillic А: two alphabets
    assert fed(league, *refused) == ["refused"] * len(refused)
    assert league.tonight(NOW)["merges"] == [] and games_of(league, "Anna") == 1
    assert fed(league, merge("south", 1, "Ania", "Anna"), merge("south", 1, "Ania", "Anna")) == ["taken", "duplicate"]
    assert fed(league, merge("south", 1, "Ania", "Anna", undone=NOW - 5)) == ["taken"]
    # The merge as it was before its undo, sent again (a retained message late): an undo is for good.
    assert fed(league, merge("south", 1, "Ania", "Anna")) == ["duplicate"]
    assert games_of(league, "Anna") == 1


def test_after_a_restart_the_same_verdicts_and_a_damaged_merge_is_set_aside(tmp_path):
    path = str(tmp_path / "league.db")
    league = Store(path)
    fed(league, *EVENING, merge("south", 1, "Ania", "Anna"), merge("north", 1, "Ania", "Ola"),
        merge("north", 2, "Bob", "Cid"))
    before = league.tonight(NOW)["merges"], dict(league.players.aliases)
    league.close()
    league = Store(path)
    assert (league.tonight(NOW)["merges"], league.players.aliases) == before
    league.close()
    db = sqlite3.connect(path)
    db.execute("UPDATE merges SET into_name = 'Anna\u202e' WHERE tbl = 'south'")   # changed under the league
    db.commit()
    db.close()
    league = Store(path)
    try:
        # The south's merge is gone: the north's, held back by it, now holds.
        assert [(j["table"], j["name"], j["into"], j["joined"]) for j in league.tonight(NOW)["merges"]] == [
            ("north", "Ania", "Ola", True), ("north", "Bob", "Cid", True)]
        [(why,)] = league._db.execute("SELECT why FROM set_aside").fetchall()
        assert "merged into" in why
    finally:
        league.close()


def test_a_merge_the_store_cannot_take_changes_nothing_shown(league):
    fed(league, *EVENING)
    before = dict(league.players.games), league.tonight(NOW)["merges"]
    league._db.execute("PRAGMA query_only = 1")           # every write now fails
    assert fed(league, merge("south", 1, "Ania", "Anna")) == ["failed"]
    assert (dict(league.players.games), league.tonight(NOW)["merges"]) == before
    league._db.execute("PRAGMA query_only = 0")
    fed(league, game("west", 1, ["Ola", "Cid"]))           # counted with what the store holds: no merge
    assert games_of(league, "Anna") == 1 and league.tonight(NOW)["merges"] == []
    assert fed(league, merge("south", 1, "Ania", "Anna")) == ["taken"]
    assert games_of(league, "Anna") == 3


# --- judged as they come, as if all judged again -------------------------------------------------

def judged_whole(merges, results, tables_of):
    """The merges' verdicts by their definition: every merge in effect taken
    in order after all before it (the league's judge before it judged
    merges one message at a time).  A refused pair that met in more than
    one game is said for the first of them."""
    live = [m for m in merges if m.undone is None]
    sat: dict = {}
    for rid, result in sorted(results.items()):
        for side in result.sides:
            for name in side.players:
                sat.setdefault(key(name), {}).setdefault(rid, name)
    into, by, verdicts = {}, {}, []

    def end(k):
        while k in into:
            k = into[k]
        return k

    def group(e):
        return {k for k in set(into) | set(sat) | {e} if end(k) == e}

    for m in live:
        a, b = key(m.name), key(m.into)
        if end(a) == end(b):
            verdicts.append((m.table, m.id, True, "", "", "", ""))
        elif a in into:
            verdicts.append((m.table, m.id, False, "merged", m.name, by[a].into, by[a].table))
        else:
            mine = {rid: n for k in group(end(a)) for rid, n in sat.get(k, {}).items()}
            theirs = {rid: n for k in group(end(b)) for rid, n in sat.get(k, {}).items()}
            met = sorted(set(mine) & set(theirs))
            if met:
                verdicts.append((m.table, m.id, False, "played", mine[met[0]], theirs[met[0]],
                                 tables_of.get(met[0], "")))
            else:
                into[a], by[a] = b, m
                verdicts.append((m.table, m.id, True, "", "", "", ""))
    return {k: end(k) for k in into}, verdicts


def shown_verdicts(league):
    return [(v.merge.table, v.merge.id, v.joined, v.why, v.name, v.other, v.where) for v in league.verdicts]


PEOPLE = ["Ann", "ANN", "Bob", "Cid", "Dan", "Eve", "Fay", "Gus"]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.sampled_from(["merge", "merge", "undo", "game", "game", "take back"]),
                          st.sampled_from(["north", "south"]), st.integers(1, 6),
                          st.sampled_from(PEOPLE), st.sampled_from(PEOPLE)), max_size=40))
def test_merges_judged_message_by_message_give_the_verdicts_of_all_judged_again(tmp_path_factory, steps):
    path = str(tmp_path_factory.mktemp("league") / "league.db")
    league = Store(path)
    try:
        for n, (what, table, number, one, other) in enumerate(steps):
            if what == "merge":
                fed(league, merge(table, number, one, other))
            elif what == "undo":
                fed(league, merge(table, number, one, other, undone=NOW - 5))
            elif what == "game" and key(one) != key(other):
                fed(league, game(table, number, [one, other], ended=NOW - 2000 + n))
            elif what == "take back":    # the game back in play: its result goes
                topic, payload = game(table, number, [one, other] if key(one) != key(other) else [one])
                sent = json.loads(payload)
                sent["seq"], sent["id"] = 2 + n, f"{table}:{number}:{2 + n}"
                sent["entry"].update(status="playing", ended=None, winners=[], totals={})
                fed(league, (topic, json.dumps(sent).encode()))
            aliases, verdicts = judged_whole(list(league.joins.merges.values()), league.players.results,
                                             league.tables_of)
            assert shown_verdicts(league) == verdicts
            assert dict(league.players.aliases) == aliases
            counted = Rater(aliases=aliases, results=dict(league.players.results))
            counted.rate_all()
            counted.learn_all()
            assert (league.players.games, league.players.ratings) == (counted.games, counted.ratings)
        shown = shown_verdicts(league), dict(league.players.aliases)
    finally:
        league.close()
    again = Store(path)      # at start, all judged at once: the same
    try:
        assert (shown_verdicts(again), dict(again.players.aliases)) == shown
    finally:
        again.close()


def test_a_tables_merges_past_the_most_the_league_keeps_are_refused_and_said_its_undos_still_taken(
        league, monkeypatch, caplog):
    from referee.club import league as kept
    monkeypatch.setattr(kept, "MERGES", 3)
    fed(league, *EVENING)
    assert fed(league, *(merge("south", n, f"Name{n}", "Anna") for n in (1, 2, 3))) == ["taken"] * 3
    assert fed(league, merge("south", 4, "Ania", "Anna"), merge("north", 1, "Ania", "Anna")) == ["refused", "taken"]
    assert "table south has sent 3 merges, the most the league keeps of one table" in caplog.text
    assert fed(league, merge("south", 2, "Name2", "Anna", undone=NOW - 5)) == ["taken"]
    assert [(j["table"], j["name"]) for j in league.tonight(NOW)["merges"]] == [
        ("south", "Name1"), ("south", "Name3"), ("north", "Ania")]
    assert games_of(league, "Anna") == 3


def test_400_chained_merges_are_taken_in_by_a_real_league_serving_its_pages_and_a_game_after_them(club):
    broker, league, _box = club
    sniffer = Sniffer(broker)
    try:
        sent = [sniffer.client.publish(*merge("north", n, f"n{n}", f"n{n + 1}"), qos=1) for n in range(1, 401)]
        answered, deadline = [], time.monotonic() + 2 * WAIT
        while league.api()["health"]["since_start"]["taken"] < 400:      # each look a page asked for meanwhile
            assert time.monotonic() < deadline, f"{2 * WAIT} s and not all 400 merges taken: {league.api()['health']}"
            answered.append(league.get("/")[0])
        assert set(answered) <= {200}
        for info in sent:
            info.wait_for_publish(WAIT)
        shown = league.api()["merges"]
        assert len(shown) == 400 and all(j["joined"] for j in shown)
        sniffer.publish(*game("north", 1, ["n1", "Bob"]))
        league.until(lambda: (league_player(league, "n401") or {}).get("played") == 1, "the game after the merges")
    finally:
        sniffer.close()


# --- the whole way: two boxes, a real Mosquitto, the league ---------------------------------------

def shown_merges(league) -> list[tuple[str, str, str, bool]]:
    return [(j["table"], j["name"], j["into"], j["joined"]) for j in league.api()["merges"]]


def on_the_ladder(league, season: str) -> dict[str, int]:
    """The league's Da Vinci Code ladder of ``season``, ranked and provisional:
    each name's games.  (The season's: the tables' manual clocks may lie a
    whole season before the league's, which leaves everyone off all-time.)"""
    board = league.api(f"/api/p/ladder/davinci/{season}.json")
    return {row["name"]: row["games"] for row in board["ranked"] + board["provisional"]}


def test_a_merge_across_two_boxes_is_shown_in_the_league_over_a_real_mosquitto(club):
    broker, league, box = club
    north, south = box("north", 1), box("south", 2)
    for t, evening in ((south.table, (["Anna", "Cid"], ["Ania", "Cid"])), (north.table, (["Ania", "Bob"],
                                                                                         ["Ola", "Bob"]))):
        for players in evening:
            t.start("davinci", players=players)
            davinci_win(t)
            t.press("#")                      # back to the menu from the game's result
    league.until(lambda: (league_player(league, "ania") or {}).get("played") == 2, "Ania's games at both tables")

    # The south joins Ania into Anna through its own merge page: Ania's game at the north is Anna's too.
    path = merge_page(south.table)
    assert post(south.table, path, {"from": "ania", "into": "anna"})[0] == 303
    league.until(lambda: (league_player(league, "anna") or {}).get("played") == 3, "the south's merge")
    _status, page = league.get("/p/@anna")
    assert "Names joined at the club&#39;s tables: Ania → Anna (south)" in page.decode()
    # On the league's ladder too: one entry, the games of both names.
    season = f"{evening_of(south.table.clock.wall()):%Y-%m}"
    assert on_the_ladder(league, season) == {"Anna": 3, "Cid": 2, "Bob": 2, "Ola": 1}
    _status, page = league.get(f"/p/ladder/davinci/{season}")
    assert page.decode().count('href="/p/@anna"') == 1 and "Ania" not in page.decode()

    # The north joins Ania into Ola: one name, two people: the later is refused, and the page says so.
    path = merge_page(north.table)
    assert post(north.table, path, {"from": "ania", "into": "ola"})[0] == 303
    league.until(lambda: ("north", "Ania", "Ola", False) in shown_merges(league), "the north's merge, refused")
    _status, page = league.get("/")
    assert "Not joined: Ania already counts as Anna (merged at south)." in page.decode()
    assert league_player(league, "ola")["played"] == 1

    # The south takes its merge back: the north's now holds, at both tables.
    path = merge_page(south.table)
    [undo] = south.table.box.store.merges()
    assert post(south.table, path, {"undo": str(undo.id)})[0] == 303
    league.until(lambda: shown_merges(league) == [("north", "Ania", "Ola", True)], "the south's undo")
    assert league_player(league, "ola")["played"] == 3 and league_player(league, "anna")["played"] == 1
    assert on_the_ladder(league, season) == {"Ola": 3, "Anna": 1, "Cid": 2, "Bob": 2}

