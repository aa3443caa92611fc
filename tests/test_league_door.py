"""Issue 33 item 2: every league payload normalised at the door.

A box's entry is kept as the typed structure that decoded it, its defaults
filled, so that an entry lacking an optional field cannot make a page fail;
every field that carries names (players, Decrypto's members, winners,
totals, finishing order, the starter, each round's scores) passes the box's
own name check; rows stored before these checks are set aside or rebuilt
when the league starts; and what the league holds in memory changes only
once its database has the change.

A real ``referee league`` on a real Mosquitto where the tests publish; the
league's own web app fed as its listener is fed where a fault is planted.
"""
from __future__ import annotations

import asyncio
import datetime as dt
import json
import sqlite3
import time

from aiohttp.test_utils import TestClient, TestServer

from referee.club import messages
from referee.club.league import League as Store
from referee.club.league_web import LeagueSite, make_app
from referee.store.scorelog import evening_start
from test_club import CLUB, Broker, League, Sniffer, club, table_of  # noqa: F401

PROBE = "probe"
# Each optional field of an entry, and what the league keeps when a box leaves it out.
DEFAULTS = {"ended": None, "starter": None, "winners": [], "totals": {}, "rounds": [], "members": {},
            "finishing_order": []}


def decrypto(now: float, game: int, members: tuple[list, list], winner: str = "White", **change) -> dict:
    """A finished Decrypto game of two named teams, as a box's score log has it."""
    e = {"id": game, "game": "decrypto", "started": now - 600, "ended": now - 60 + game, "status": "finished",
         "variant": "standard", "players": ["White", "Black"], "starter": None,
         "rounds": [{"round": 1, "scores": {"White": 1, "Black": 0}}], "totals": {"White": 2, "Black": 0},
         "winners": [winner], "members": {"White": members[0], "Black": members[1]}, "reason": "tokens"}
    e.update(change)
    return e


def octiles(now: float, game: int, **change) -> dict:
    e = {"id": game, "game": "octiles", "started": now - 900, "ended": now - 30, "status": "finished",
         "players": ["Ann", "Bob", "Cid"], "starter": "Bob", "winners": ["Cid"], "totals": {"Ann": 1, "Bob": 0, "Cid": 4},
         "rounds": [{"turn": 1, "player": "Bob", "scores": {"Ann": 0, "Bob": 0, "Cid": 0}}],
         "finishing_order": ["Cid", "Ann"], "mode": "referee", "turns": 1}
    e.update(change)
    return e


def sent(table: str, game: int, seq: int, entry: dict, kind: str = "event") -> bytes:
    return json.dumps({"v": 1, "kind": kind, "id": f"{table}:{game}:{seq}", "table": table, "game": game,
                       "seq": seq, "at": 10.0 + seq, "entry": entry}).encode()


class Publish:
    """A box on the broker, and a marker after each message: once the league
    shows the marker, it has taken or refused what came before it."""

    def __init__(self, broker, league: League) -> None:
        self.league = league
        self.box = Sniffer(broker, topic=f"referee/{CLUB}/{PROBE}/#")
        self.marks = 0

    def __call__(self, table: str, payload: bytes, topic: str = "event", retain: bool = False) -> dict:
        self.box.client.publish(f"referee/{CLUB}/{table}/{topic}", payload, qos=1, retain=retain).wait_for_publish(20)
        return self.mark()

    def mark(self) -> dict:
        self.marks += 1
        at = time.time() + self.marks / 1000
        self.box.publish(f"referee/{CLUB}/{PROBE}/status", json.dumps(
            {"v": 1, "kind": "status", "table": PROBE, "online": True, "at": at}).encode())
        self.league.until(lambda: table_of(self.league.api(), PROBE).get("seen") == at, f"marker {self.marks}")
        return self.league.api()["health"]

    def close(self) -> None:
        self.box.close()


def every_page(league: League, now: float) -> dict:
    day = dt.date.fromtimestamp(evening_start(now))
    paths = ["/", "/e/", f"/e/{day}", "/api/tonight", "/api/tonight.csv", "/api/tonight.json",
             f"/api/e/{day}.csv", "/p/"]
    return {path: league.get(path)[0] for path in paths}


def test_an_entry_without_an_optional_field_is_kept_with_its_default_and_every_page_answers(club):
    broker, league, _ = club
    publish = Publish(broker, league)
    now = time.time()
    for game, field in enumerate(DEFAULTS, 1):
        entry = octiles(now, game) if field == "finishing_order" else decrypto(now, game, (["Ann"], ["Bob"]))
        del entry[field]
        health = publish("north", sent("north", game, 1, entry))
        assert health["since_start"]["taken"] == game + publish.marks and health["refused"] == 0, field
    assert set(every_page(league, now).values()) == {200}
    kept = {g["id"]: g for g in league.api()["games"]}
    for game, (field, default) in enumerate(DEFAULTS.items(), 1):
        assert kept[game][field] == default, field
    # Ann is named in five: a game without its end has no result, one without members names only its teams.
    assert league.api("/api/p/ann.json")["played"] == 5
    publish.close()


BAD_MEMBERS = {
    "too long": (["A" * 40], ["Bob"]),
    "bidi": (["Ann\u202eboB"], ["Bob"]),
    "empty": ([""], ["Bob"]),
    "not text": ([5], ["Bob"]),
    "spaces": ([" Ann"], ["Bob"]),
    "twice": (["Ann"], ["ann"]),
    "too many": ([f"P{n}" for n in range(17)], ["Bob"]),
}


def test_decrypto_members_pass_the_name_check_and_later_updates_still_count(club, tmp_path):
    """A member the box would refuse is refused here too, with the member
    named in one log line, and never rated: an update to an earlier game
    after it still counts, after a restart too (the bad ones retained)."""
    broker, league, _ = club
    publish = Publish(broker, league)
    now = time.time()
    publish("north", sent("north", 1, 1, decrypto(now, 1, (["Ann", "Bob"], ["Cid", "Dan"]))))
    for n, (why, members) in enumerate(BAD_MEMBERS.items(), 1):
        table = f"south{n}"        # a table each: the log says one refusal a minute per table and kind
        health = publish(table, sent(table, 100 + n, 1, decrypto(now, 100 + n, members)),
                         topic=f"game/{100 + n}", retain=True)
        assert health["refused"] == n and health["since_start"]["failed"] == 0, why
    wrong_team = decrypto(now, 200, (["Eve"], ["Fay"]))
    wrong_team["members"] = {"White": ["Eve"], "Grey": ["Fay"]}
    assert publish("south", sent("south", 200, 1, wrong_team))["refused"] == len(BAD_MEMBERS) + 1
    said = league.log_path.read_text()
    assert "member 'AAAAAAAAAAAA" in said and "U+202E" in said and "named twice" in said
    # The first game's result changes at its table (Black won after all): the league follows.
    publish("north", sent("north", 1, 2, decrypto(now, 1, (["Ann", "Bob"], ["Cid", "Dan"]), winner="Black")))
    ann = league.api("/api/p/ann.json")
    assert [(r["game"], r["winner"]) for r in ann["results"]] == [("decrypto", False)]
    assert set(every_page(league, now).values()) == {200} and league.get("/p/" + "a" * 40)[0] == 404

    league.stop()
    league = League(broker, tmp_path)            # the bad ones come again, retained
    try:
        league.until(lambda: league.api()["broker"], "the league back on the broker")
        publish.league = league
        health = publish.mark()
        assert health["refused"] == len(BAD_MEMBERS) and health["since_start"]["failed"] == 0
        publish("north", sent("north", 1, 3, decrypto(now, 1, (["Ann", "Bob"], ["Cid", "Dan"]))))
        assert [r["winner"] for r in league.api("/api/p/ann.json")["results"]] == [True]
        assert "could not take" not in league.log_path.read_text()
    finally:
        league.stop()
        publish.close()


def test_rows_stored_before_the_door_are_rebuilt_or_set_aside_at_start(tmp_path):
    """A league file from before these checks: an entry stored as it came
    (no winners), one with a member no box keeps, one that is no JSON, a
    result counted from a name no box keeps.  The league starts, sets the
    bad rows aside with a line each, rebuilds its results from the games it
    keeps, and every page answers."""
    now = time.time()
    path = tmp_path / "league.db"
    Store(str(path)).close()
    db = sqlite3.connect(path)
    no_winners = decrypto(now, 1, (["Ann"], ["Bob"]))
    del no_winners["winners"]
    rows = [("north", 1, 1, now - 600, json.dumps(no_winners)),
            ("north", 2, 1, now - 600, json.dumps(decrypto(now, 2, (["A" * 40], ["Bob"])))),
            ("north", 3, 1, now - 600, "{"),
            ("north", 4, 1, now - 900, json.dumps(octiles(now, 4)))]
    db.executemany("INSERT INTO games VALUES (?, ?, ?, ?, ?)", rows)
    wrong = {"game": 1, "name": "decrypto", "ended": now, "counted": True, "why": "",
             "sides": [{"players": ["A" * 40], "rank": 1, "score": None, "won": True},
                       {"players": ["Bob"], "rank": 2, "score": None, "won": False}]}
    db.execute("INSERT INTO results (id, tbl, game, result) VALUES (1, 'north', 2, ?)", (json.dumps(wrong),))
    db.execute("INSERT INTO results (id, tbl, game, result) VALUES (2, 'north', 4, 'not json')")
    db.commit()
    db.close()

    broker = Broker(tmp_path)
    broker.start()
    league = League(broker, tmp_path)
    try:
        league.until(lambda: league.api()["broker"], "the league on the broker")
        assert set(every_page(league, now).values()) == {200}
        games = {g["id"]: g for g in league.api()["games"]}
        assert sorted(games) == [1, 4] and games[1]["winners"] == []
        assert {p for p in ("ann", "bob", "cid") if league.get(f"/p/@{p}")[0] == 200} == {"ann", "bob", "cid"}
        assert league.get("/p/" + "a" * 40)[0] == 404
        said = league.log_path.read_text()
        assert said.count("set aside") == 1 and "Traceback" not in said      # one line for both
        assert "game 2 of table 'north': member 'AAAAAAAAAAAA" in said and "game 3 of table 'north': not JSON" in said
        publish = Publish(broker, league)
        publish("north", sent("north", 5, 1, octiles(now, 5)))
        assert league.api("/api/p/cid.json")["played"] == 2
        publish.close()
    finally:
        league.stop()
        broker.stop()
    kept = sqlite3.connect(path)
    assert [r[0] for r in kept.execute("SELECT game FROM set_aside ORDER BY game")] == [2, 3]   # kept, not lost
    kept.close()


def test_what_the_league_holds_changes_only_with_its_database(tmp_path, monkeypatch):
    """A step of the store failing (planted: a trigger), or the rating refusing
    a result (planted: the model failing), leaves the players and ratings as
    they were; the next message is taken as if it never happened."""
    import referee.web.players as players_module
    now = time.time()
    league = Store(str(tmp_path / "league.db"))
    topic = messages.topic(CLUB, "north", "event")

    async def page(path: str) -> tuple[int, str]:
        async with TestClient(TestServer(make_app(LeagueSite(league)))) as client:
            answer = await client.get(path)
            return answer.status, await answer.text()

    def shown() -> tuple:
        return tuple(asyncio.run(page(path)) for path in ("/api/p/ann.json", "/p/?by=name", "/api/p/cid.json"))

    def plant(sql: str) -> None:
        db = sqlite3.connect(tmp_path / "league.db")
        db.execute(sql)
        db.commit()
        db.close()

    try:
        assert league.take(topic, sent("north", 1, 1, octiles(now, 1))) == "taken"
        before = shown()
        plant("CREATE TRIGGER planted BEFORE UPDATE ON results BEGIN SELECT RAISE(ABORT, 'planted'); END")
        assert league.take(topic, sent("north", 2, 1, octiles(now, 2, players=["Ann", "Dan"], winners=["Dan"],
                                                                 totals={"Ann": 0, "Dan": 4}, starter="Ann",
                                                                 finishing_order=["Dan"], rounds=[]))) == "failed"
        assert shown() == before
        plant("DROP TRIGGER planted")

        def refuse():
            raise RuntimeError("planted: the rating refused")
        monkeypatch.setattr(players_module, "model", refuse)
        assert league.take(topic, sent("north", 1, 2, octiles(now, 1, winners=["Ann"]))) == "failed"
        assert shown() == before
        monkeypatch.undo()
        assert league.take(topic, sent("north", 1, 3, octiles(now, 1, winners=["Ann"]))) == "taken"
        assert json.loads(shown()[0][1])["won"] == 1
    finally:
        league.close()


def test_every_game_a_table_plays_with_names_is_taken_and_its_people_rated(tmp_path):
    """The door refuses nothing a box sends: each game started with typed
    names (Decrypto's members team by team), and a Decrypto game of named
    members played to its end, whose members the league then rates."""
    from referee.testing import Table
    from test_club import davinci_win
    from test_web import decrypto_clues, decrypto_guesses
    with Table(seed=3) as t:
        for game in ("octiles", "osmisifry", "decipher"):
            t.start(game, players=["Ann", "Bob", "Cid"])
            t.box.leave()
        t.start("davinci", players=["Zoë", "Jiří"])
        davinci_win(t)
        t.box.leave()
        t.start("decrypto", members=[["Ann", "Bob"], ["Cy", "Dana"]])
        for _ in range(2):
            decrypto_clues(t)
            decrypto_guesses(t, miscommunicate={1})
        now = t.clock.wall()
        entries = t.log()
    assert sorted(e["game"] for e in entries) == ["davinci", "decipher", "decrypto", "octiles", "osmisifry"]
    league = Store(str(tmp_path / "league.db"), clock=lambda: now)
    try:
        for e in entries:
            assert league.take(messages.topic(CLUB, "north", "event"), sent("north", e["id"], 1, e)) == "taken", e
        kept = {g.game: g for g in league.tonight(now)["games"]}
        assert kept["decrypto"].status == "finished"
        assert list(kept["decrypto"].members.values()) == [["Ann", "Bob"], ["Cy", "Dana"]]
        assert {g: kept[g].starter for g in ("octiles", "osmisifry", "decipher")} == {
            g: next(e["starter"] for e in entries if e["game"] == g) for g in ("octiles", "osmisifry", "decipher")}
        rated = {league.players.names[p] for (game, p) in league.players.ratings if game == "decrypto"}
        assert rated == {"Ann", "Bob", "Cy", "Dana"}
    finally:
        league.close()
