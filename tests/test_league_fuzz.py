"""Issue 27: a prankster's box on the club's broker.  Hypothesis publishes
payloads through a real Mosquitto to a real ``referee league``: valid rows
and statuses, valid rows with one field made wrong (a count past SQLite's
range, a time in another century, a list where a map is due, a name with a
bidi control, totals no game scores...), and hostile ones (random bytes,
random JSON, JSON nested too deep or too big, forged table names in the
topic), some of them retained.

After each one a valid status goes out on a table of its own; the league
must take it (so it still listens, and took or refused the one before, in
order); a valid one must not be refused and a wrong one must be, never
"failed"; a random bad address for each route answers below 500, and
every page, file and evening answers 200 now and then and at the end.
At the end the league starts again on what the broker retained (the bad
ones too) and must still be listening, with nothing logged as an error.

``make test`` sends 500 payloads, ``make soak`` (``--soak``) 10 000.
"""
from __future__ import annotations

import http.client
import json
import re
import time
import urllib.parse

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.club import messages
from referee.name_check import check
from test_club import CLUB, WAIT, Broker, League, Sniffer, table_of

pytestmark = pytest.mark.soak

PAYLOADS, SOAK_PAYLOADS = 500, 10_000
ROUTES_EVERY = 25
TABLES = ("north", "south", "east", "west")
PROBE = "probe"       # the marker's table: no payload here is published under it
NOW = time.time()
NAMES = [n for n in ("Ann", "Bob", "Cid", "Zoë", "Jiří", "Łucja", "Анна", "=HYPERLINK()", "+1", "@A1", "-2",
                     "<b>Bob</b>", "O'Neil", "Ann Lee", "Dan;Eve", 'Fay "F"') if check(n) == n]
GAME_NAMES = ("tools", "decrypto", "osmisifry", "octiles", "davinci", "decipher")


# --- valid payloads ----------------------------------------------------------------------------

@st.composite
def entries(draw, game_id: int) -> dict:
    game = draw(st.sampled_from(GAME_NAMES))
    players = draw(st.lists(st.sampled_from(NAMES), min_size=0 if game == "tools" else 2, max_size=4, unique=True))
    lowest, highest = messages.POINTS.get(game, messages.OTHER_POINTS)
    totals = {name: draw(st.integers(lowest, highest)) for name in players}
    status = draw(st.sampled_from(["playing", "finished", "abandoned"]))
    started = NOW - draw(st.floats(0, 3 * 86400))
    return {"id": game_id, "game": game, "started": started,
            "ended": None if status == "playing" else started + draw(st.floats(0, 7200)),
            "status": status, "players": players,
            "winners": draw(st.lists(st.sampled_from(players), unique=True, max_size=2)) if players else [],
            "totals": totals, "rounds": draw(st.lists(st.dictionaries(st.sampled_from(["n", "scores"]),
                                                                      st.integers(0, 9)), max_size=3))}


@st.composite
def valid_rows(draw) -> tuple[str, dict]:
    table, game, seq = draw(st.sampled_from(TABLES)), draw(st.integers(1, 40)), draw(st.integers(0, 10**6))
    kind = draw(st.sampled_from(["event", "game"]))
    sent = {"v": 1, "kind": kind, "id": f"{table}:{game}:{seq}", "table": table, "game": game, "seq": seq,
            "at": draw(st.floats(0, 10**6)), "entry": draw(entries(game))}
    return f"referee/{CLUB}/{table}/" + ("event" if kind == "event" else f"game/{game}"), sent


@st.composite
def valid_statuses(draw) -> tuple[str, dict]:
    table = draw(st.sampled_from(TABLES))
    sent = {"v": 1, "kind": "status", "table": table, "online": draw(st.booleans()),
            "at": NOW - draw(st.floats(0, 3600)), "game": draw(st.one_of(st.none(), st.integers(1, 40)))}
    return f"referee/{CLUB}/{table}/status", sent


# --- one thing made wrong -----------------------------------------------------------------------------

HUGE = st.sampled_from([2**63, 2**64 + 5, 10**30, -(2**63) - 1])
FAR = st.sampled_from([1e18, -1e18, 0.0, -1.0, NOW + 3 * 86400, NOW - 11 * 366 * 86400])
BAD_NAMES = st.sampled_from(["Ann\u202e", "\u200bBob", "A\x00", "Bob\u2066x", " Ann", "Ann  Lee", "A" * 13, "",
                             "e\u0301\u0301", "\ud7ff\U000e0001", "\U0010ffff", "‹img src=x>"[:12] + "\u061c"])
WRONG_TYPES = st.sampled_from([None, True, "7", 1.5, [], {}, [1, 2], {"a": 1}])


def top(field: str, values: st.SearchStrategy):
    return values.map(lambda v: ("top", field, v))


def inner(field: str, values: st.SearchStrategy):
    return values.map(lambda v: ("entry", field, v))


BREAKERS = st.one_of(
    top("v", st.sampled_from([0, 2, "1", None, True])), top("kind", st.sampled_from(["x", "", None])),
    top("game", st.one_of(HUGE, st.just(-1), WRONG_TYPES)), top("seq", st.one_of(HUGE, st.just(-1), WRONG_TYPES)),
    top("at", st.sampled_from([-1.0, 1e18, "now", None])), top("id", st.sampled_from(["north:1:1x", "", 7])),
    top("table", st.sampled_from(["‹img>", "league/x", "", "a" * 33, "north+", PROBE + "x"])),
    top("extra", st.just(1)), top("entry", st.one_of(WRONG_TYPES, st.just("x"))), top("-entry", st.just(None)),
    inner("id", st.one_of(HUGE, WRONG_TYPES, st.just(-3))), inner("-id", st.just(None)),
    inner("game", st.sampled_from(["chess", "", "DAVINCI", 1, None])),
    inner("started", st.one_of(FAR, st.sampled_from(["x", None]))), inner("-started", st.just(None)),
    inner("ended", FAR),
    inner("status", st.sampled_from(["won", "", None, 1])),
    inner("players", st.one_of(BAD_NAMES.map(lambda n: [n, "Bob"]), st.just(["Ann", "Ann"]),
                               st.just([f"P{i}" for i in range(17)]), st.just([5, "Bob"]), st.just("Ann"))),
    inner("winners", st.sampled_from([["Nobody"], "Ann", [1]])),
    inner("totals", st.one_of(st.just([1, 2]), HUGE.map(lambda v: {"$first": v}), st.just({"$first": "1"}),
                              st.just({"$first": 1.5}), st.just({"Nobody": 1}), st.just({"$first": -121}))),
    inner("rounds", st.one_of(st.just([{}] * 1001), st.just("x"), st.just({}))),
)


@st.composite
def broken_rows(draw) -> tuple[str, dict]:
    topic, sent = draw(valid_rows())
    where, field, value = draw(BREAKERS)
    target = sent if where == "top" else sent["entry"]
    if field == "extra":
        target["unknown"] = value
    elif field.startswith("-"):
        target.pop(field[1:], None)
    else:
        if isinstance(value, dict) and "$first" in value:
            players = sent["entry"]["players"] or ["Ann"]
            value = {players[0]: value["$first"], **{p: 0 for p in players[1:]}}
            if sent["entry"]["game"] != "davinci" and value[players[0]] == -121:
                value = {"Nobody": 1}           # -121 is a total only Da Vinci Code refuses
        target[field] = value
        if field in ("game", "seq") and where == "top" and isinstance(value, int) and not isinstance(value, bool):
            sent["id"] = f"{sent['table']}:{sent['game']}:{sent['seq']}"   # the id agrees: only the count is wrong
    return topic, sent


# --- hostile ---------------------------------------------------------------------------------------------

JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
                    lambda inside: st.lists(inside, max_size=4) | st.dictionaries(st.text(max_size=6), inside,
                                                                                   max_size=4), max_leaves=12)
LEVEL = st.text(st.characters(codec="utf-8", exclude_categories=("Cc", "Cs", "Co", "Cn"), exclude_characters="+#/"),
                min_size=0, max_size=20).filter(lambda t: t != PROBE)


@st.composite
def hostile(draw) -> tuple[str, bytes]:
    table = draw(st.one_of(st.sampled_from(TABLES), LEVEL))
    topic = f"referee/{CLUB}/{table}/" + draw(st.sampled_from(["event", "status", "game/7", "game/x", "x/y"]))
    kind = draw(st.integers(0, 5))
    if kind == 0:
        return topic, draw(st.binary(max_size=64))
    if kind == 1:
        return topic, json.dumps(draw(JSON)).encode()
    if kind == 2:
        return topic, json.dumps({"v": 1, **draw(st.dictionaries(st.text(max_size=6), JSON, max_size=6))}).encode()
    if kind == 3:
        depth = draw(st.sampled_from([100, 1000, 50_000]))
        return topic, b'{"v":1,"entry":' + b"[" * depth + b"]" * depth + b"}"
    if kind == 4:
        return topic, b'{"v":1,"pad":"' + b"x" * (messages.MAX_BYTES + draw(st.integers(0, 100))) + b'"}'
    _, sent = draw(valid_rows())             # a good row under a topic not its table's
    return f"referee/{CLUB}/{draw(LEVEL.filter(lambda t: t != sent['table']))}/event", json.dumps(sent).encode()


def encoded(pair):
    topic, sent = pair
    return topic, json.dumps(sent).encode()


PAYLOADS_OF = st.one_of(
    st.tuples(st.one_of(valid_rows(), valid_statuses()).map(encoded), st.just("valid")),
    st.tuples(broken_rows().map(encoded), st.just("bad")),
    st.tuples(hostile(), st.just("bad")),
)
BAD_ARGUMENT = st.tuples(st.sampled_from(["/e/", "/api/e/", "/static/", "/api/tonight.", "/", "/live/"]),
                         st.text(max_size=30), st.sampled_from(["", ".csv", ".json"]))


# --- the league, watched --------------------------------------------------------------------------------

class Watch:
    """The league's live stream, kept open: a marker taken wakes it."""

    def __init__(self, league: League) -> None:
        self.league = league
        self.conn = http.client.HTTPConnection("127.0.0.1", league.port, timeout=WAIT)
        self.conn.request("GET", "/live")
        self.stream = self.conn.getresponse()

    def until(self, done, what: str) -> dict:
        while True:
            found = done()
            if found:
                return found
            if not self.stream.fp.readline():
                raise AssertionError(f"the league's stream ended while waiting for {what}")

    def close(self) -> None:
        self.conn.close()


def status_below_500(league: League, path: str) -> int:
    status, _ = league.get(path)
    assert status < 500, path
    return status


def every_page(league: League) -> None:
    _, listing = league.get("/e/")
    days = sorted(set(re.findall(r'href="/e/(\d{4}-\d{2}-\d{2})"', listing.decode())))
    paths = ["/", "/e/", "/api/tonight", "/api/tonight.csv", "/api/tonight.json"]
    for day in days:
        paths += [f"/e/{day}", f"/api/e/{day}", f"/api/e/{day}.csv", f"/api/e/{day}.json"]
    answers = {path: league.get(path)[0] for path in paths}
    assert set(answers.values()) == {200}, answers


def test_27_fuzz_a_real_league_through_a_real_broker(tmp_path, soak):
    broker = Broker(tmp_path)
    broker.start()
    league = League(broker, tmp_path)
    league.until(lambda: league.api()["broker"], "the league on the broker")
    box = Sniffer(broker, topic=f"referee/{CLUB}/{PROBE}/#")
    watch = Watch(league)
    sent = {"valid": 0, "bad": 0, "retained": 0}
    marker = [0]

    def counts() -> dict:
        return league.api()["health"]["since_start"]

    def mark() -> dict:
        """A valid status of its own after everything sent: once the league
        shows it, it has taken or refused all before it."""
        marker[0] += 1
        at = NOW + marker[0] / 1000
        box.publish(f"referee/{CLUB}/{PROBE}/status", json.dumps(
            {"v": 1, "kind": "status", "table": PROBE, "online": True, "at": at}).encode())
        return watch.until(lambda: (tonight := league.api()) and table_of(tonight, PROBE).get("seen") == at
                           and tonight, f"marker {marker[0]}")

    @settings(max_examples=SOAK_PAYLOADS if soak else PAYLOADS, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    @given(PAYLOADS_OF, BAD_ARGUMENT, st.integers(0, 9))
    def one(payload, argument, retain_roll):
        (topic, data), expected = payload
        retain = retain_roll == 0 and bool(data)
        before = counts()
        box.client.publish(topic, data, qos=1, retain=retain).wait_for_publish(WAIT)
        sent[expected] += 1
        sent["retained"] += retain
        tonight = mark()
        after = tonight["health"]["since_start"]
        assert after["failed"] == 0, f"a fault taking {data[:200]!r} on {topic!r}"
        refused = after["refused"] - before["refused"]
        assert refused == (expected == "bad"), f"{expected} but refused {refused}: {data[:300]!r} on {topic!r}"
        assert tonight["health"]["restarts"] == 0 and tonight["broker"]
        prefix, middle, suffix = argument
        status_below_500(league, prefix + urllib.parse.quote(middle, safe="") + suffix)
        if marker[0] % ROUTES_EVERY == 0:
            every_page(league)

    try:
        one()
        every_page(league)
        assert sent["valid"] + sent["bad"] >= (SOAK_PAYLOADS if soak else PAYLOADS) and sent["retained"], sent
        # A start on what the broker retained, bad rows too: it listens, and serves.
        watch.close()
        league.stop()
        league = League(broker, tmp_path)
        league.until(lambda: league.api()["broker"], "the league back on the broker")
        watch = Watch(league)
        mark()
        assert league.api()["health"]["since_start"]["failed"] == 0
        every_page(league)
        assert league.proc.poll() is None
        said = league.log_path.read_text()
        for fault in ("Traceback", "Error handling request", "could not take", "listener failed"):
            assert fault not in said, fault
    finally:
        watch.close()
        box.close()
        league.stop()
        broker.stop()
