"""Issues 27 and 33: a prankster's box on the club's broker.  Hypothesis
publishes payloads through a real Mosquitto to a real ``referee league``:
valid rows and statuses (each optional field of an entry sometimes left
out, the league filling its default), valid rows with one thing made
wrong (each required field missing; each field of the message, of its
entry, of a round and of Decrypto's members made wrong: a count past
SQLite's range, a time in another century, a list where a map is due, a
name with a bidi control, a member named twice, totals no game scores...),
and hostile ones (random bytes, random JSON, JSON nested too deep or too
big, forged table names in the topic), some of them retained; and a box's
merges of two names (issue 37), valid (their undo sometimes left out) or
with each field left out or made wrong (a name the box refuses, one name
twice, a time in another century, an id its topic does not carry).

After each one a valid status goes out on a table of its own; the league
must take it (so it still listens, and took or refused the one before, in
order); a valid one must not be refused and a wrong one must be, never
"failed"; a random bad address for each route answers below 500, and
every page, file and evening answers 200 now and then and at the end.
At the end every valid row the league should hold is there as it was
sent; then the league starts again on what the broker retained (the bad
ones too) and must still be listening, hold the same, with nothing logged
as an error.  The figures (payloads, 500s, listener deaths, failed, wrong
verdicts, valid rows lost) are counted through the run and printed.

``make test`` sends 500 payloads, ``make soak`` (``--soak``) 10 000.
"""
from __future__ import annotations

import http.client
import json
import re
import time
import urllib.parse

import msgspec
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

# An entry's optional fields, each left out now and then (the league fills its default);
# the test below checks these lists against the structures the league decodes.
OPTIONAL = ("ended", "starter", "winners", "totals", "rounds", "members", "finishing_order", "scored", "stopped")
REQUIRED = ("id", "game", "started", "status", "players")
ENVELOPE = ("v", "kind", "id", "table", "game", "seq", "at", "entry")


@st.composite
def rounds_of(draw, players: list[str]) -> dict:
    """A round as a box's score log has it: its scores, and what else each game says of it."""
    one = {"round": draw(st.integers(1, 9)), "note": draw(st.sampled_from(["", "x", None]))}
    if draw(st.integers(0, 5)):
        one["scores"] = {name: draw(st.integers(-3, 9)) for name in draw(st.lists(st.sampled_from(players), unique=True))
                         } if players else {}
    return one


@st.composite
def entries(draw, game_id: int) -> dict:
    game = draw(st.sampled_from(GAME_NAMES))
    players = draw(st.lists(st.sampled_from(NAMES), min_size=0 if game == "tools" else 2, max_size=4, unique=True))
    lowest, highest = messages.totals_range(game)
    totals = {name: draw(st.integers(lowest, highest)) for name in players}
    status = draw(st.sampled_from(["playing", "finished", "abandoned"]))
    started = NOW - draw(st.floats(0, 3 * 86400))
    entry = {"id": game_id, "game": game, "started": started,
             "ended": None if status == "playing" else started + draw(st.floats(0, 7200)),
             "status": status, "players": players,
             "starter": draw(st.sampled_from(players)) if players else None,
             "winners": draw(st.lists(st.sampled_from(players), unique=True, max_size=2)) if players else [],
             "totals": totals, "rounds": draw(st.lists(rounds_of(players), max_size=3))}
    if game == "decrypto" and players:      # the teams' people, no name twice
        people = draw(st.lists(st.sampled_from(NAMES), unique_by=str.casefold, min_size=len(players), max_size=8))
        entry["members"] = {team: people[n::len(players)] for n, team in enumerate(players)}
    if game == "davinci":
        entry["scored"] = draw(st.booleans())     # False: a single game, its 1 and 0 no points
    if game == "octiles":
        entry["stopped"] = draw(st.booleans())
        entry["finishing_order"] = draw(st.permutations(players))[:draw(st.integers(0, len(players)))]
    for field in OPTIONAL:
        if draw(st.integers(0, 6)) == 0:
            entry.pop(field, None)
    return entry


@st.composite
def valid_rows(draw) -> tuple[str, dict]:
    table, game, seq = draw(st.sampled_from(TABLES)), draw(st.integers(1, 40)), draw(st.integers(0, 10**6))
    kind = draw(st.sampled_from(["event", "game"]))
    sent = {"v": 1, "kind": kind, "id": f"{table}:{game}:{seq}", "table": table, "game": game, "seq": seq,
            "at": draw(st.floats(0, 10**6)), "entry": draw(entries(game))}
    return f"referee/{CLUB}/{table}/" + ("event" if kind == "event" else f"game/{game}"), sent


MERGE_REQUIRED = ("v", "kind", "table", "id", "name", "into", "at")


@st.composite
def valid_merges(draw) -> tuple[str, dict]:
    table, number = draw(st.sampled_from(TABLES)), draw(st.integers(1, 20))
    name, into = draw(st.lists(st.sampled_from(NAMES), min_size=2, max_size=2, unique_by=str.casefold))
    at = NOW - draw(st.floats(0, 3 * 86400))
    sent = {"v": 1, "kind": "merge", "table": table, "id": number, "name": name, "into": into, "at": at,
            "undone": draw(st.sampled_from([None, at + 60]))}
    if draw(st.integers(0, 6)) == 0:
        sent.pop("undone")
    return f"referee/{CLUB}/{table}/merge/{number}", sent


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
                             "e\u0301\u0301", "\ud7ff\U000e0001", "\U0010ffff", "‹img src=x>"[:12] + "\u061c",
                             "A" * 40])
WRONG_TYPES = st.sampled_from([None, True, "7", 1.5, [], {}, [1, 2], {"a": 1}])
MANY = [f"P{i}" for i in range(17)]


def first(entry: dict) -> str:
    """The entry's first player (a name no game has where it has none)."""
    return (entry["players"] or ["Ann"])[0]


def top(field: str, values: st.SearchStrategy):
    return values.map(lambda v: ("top", field, lambda entry: v))


def inner(field: str, values: st.SearchStrategy):
    """``field`` of the entry made wrong: each value is the wrong one, or
    made from the entry (``first``: its first player)."""
    return values.map(lambda v: ("entry", field, v if callable(v) else lambda entry: v))


def missing(where: str, fields) -> st.SearchStrategy:
    return st.sampled_from(fields).map(lambda f: (where, "-" + f, None))


# Each field of a message, and of its entry, made wrong (a round's scores and
# Decrypto's members' lists inside "rounds" and "members").
WRONG_TOP = {
    "v": st.sampled_from([0, 2, "1", None, True]), "kind": st.sampled_from(["x", "", None]),
    "game": st.one_of(HUGE, st.just(-1), WRONG_TYPES), "seq": st.one_of(HUGE, st.just(-1), WRONG_TYPES),
    "at": st.sampled_from([-1.0, 1e18, "now", None]), "id": st.sampled_from(["north:1:1x", "", 7, "x" * 129]),
    "table": st.sampled_from(["‹img>", "league/x", "", "a" * 33, "north+", PROBE + "x"]),
    "entry": st.one_of(WRONG_TYPES, st.just("x")),
}
WRONG_ENTRY = {
    "id": st.one_of(HUGE, WRONG_TYPES, st.just(-3)),
    "game": st.sampled_from(["chess", "", "DAVINCI", 1, None, "x" * 40]),
    "started": st.one_of(FAR, st.sampled_from(["x", None])),
    "ended": st.one_of(FAR, st.sampled_from(["x", [], True])),
    "status": st.sampled_from(["won", "", None, 1]),
    "players": st.one_of(BAD_NAMES.map(lambda n: [n, "Bob"]), st.just(["Ann", "Ann"]),
                         st.just(MANY), st.just([5, "Bob"]), st.just("Ann"), st.just(None)),
    "starter": st.one_of(BAD_NAMES, st.sampled_from(["Nobody", 5, ["Ann"], {}])),
    "winners": st.one_of(BAD_NAMES.map(lambda n: [n]), st.sampled_from([["Nobody"], "Ann", [1], MANY, None])),
    "totals": st.one_of(st.just([1, 2]), st.just(None), st.just({"Nobody": 1}),
                        BAD_NAMES.map(lambda n: lambda e: {**e.get("totals", {}), n: 0}),
                        st.sampled_from([2**63, 10**30, "1", 1.5, None, -121]).map(
                            lambda v: lambda e: {first(e): v, **{p: 0 for p in e["players"][1:]}})),
    "rounds": st.one_of(st.just([{}] * 1001), st.sampled_from(["x", {}, None, [5], [[]]]),
                        st.sampled_from([[1], {"Nobody": 1}, "x", None]).map(lambda v: [{"scores": v}]),
                        BAD_NAMES.map(lambda n: [{"scores": {n: 1}}]),
                        st.one_of(HUGE, st.sampled_from(["1", 1.5, None, [1]])).map(
                            lambda v: lambda e: [{"scores": {first(e): v}}])),
    "members": st.one_of(st.sampled_from([[["Ann"], ["Bob"]], "Ann", {"Nobody": ["Ann"]}, None]),
                         BAD_NAMES.map(lambda n: lambda e: {first(e): ["Cid", n]}),
                         st.sampled_from([["Ann", "ann"], MANY, "Ann", [5], [None], {}, [["Ann"]]]).map(
                             lambda v: lambda e: {first(e): v}),
                         st.just(lambda e: {p: ["Zed"] for p in e["players"]} or {"Ann": ["Zed", "zed"]})),
    "finishing_order": st.one_of(BAD_NAMES.map(lambda n: [n]), st.sampled_from([["Nobody"], "Ann", [1], MANY, None, {}]),
                                 st.just(lambda e: [first(e), first(e)])),
    "scored": st.sampled_from(["no", 0, None, [True], {}]),
    "stopped": st.sampled_from(["yes", 1, None, [False], {}]),
}
# Each field of a merge made wrong; "into" also as its own name in another case.
WRONG_MERGE = {
    "v": WRONG_TOP["v"], "kind": st.sampled_from(["game", "status", "", None]), "table": WRONG_TOP["table"],
    "id": st.one_of(HUGE, st.just(-1), WRONG_TYPES), "name": st.one_of(BAD_NAMES, WRONG_TYPES),
    "into": st.one_of(BAD_NAMES, WRONG_TYPES, st.just(lambda sent: sent["name"].upper())),
    "at": st.one_of(FAR, st.sampled_from(["now", None])), "undone": st.one_of(FAR, st.sampled_from(["x", [], True])),
}


@st.composite
def broken_merges(draw) -> tuple[str, dict]:
    topic, sent = draw(valid_merges())
    field = draw(st.sampled_from([*WRONG_MERGE, "-", "extra"]))
    if field == "-":
        sent.pop(draw(st.sampled_from(MERGE_REQUIRED)))
    elif field == "extra":
        sent["unknown"] = 1
    else:
        value = draw(WRONG_MERGE[field])
        sent[field] = value(sent) if callable(value) else value
    return topic, sent


BREAKERS = st.one_of(missing("top", ENVELOPE), missing("entry", REQUIRED), top("extra", st.just(1)),
                     *(top(field, values) for field, values in WRONG_TOP.items()),
                     *(inner(field, values) for field, values in WRONG_ENTRY.items()))


@st.composite
def broken_rows(draw) -> tuple[str, dict]:
    topic, sent = draw(valid_rows())
    where, field, make = draw(BREAKERS)
    target = sent if where == "top" else sent["entry"]
    if field == "extra":
        target["unknown"] = make(sent["entry"])
    elif field.startswith("-"):
        target.pop(field[1:], None)
    else:
        value = make(sent["entry"])
        if field == "totals" and isinstance(value, dict) and value.get(first(sent["entry"])) == -121 \
                and sent["entry"]["game"] != "davinci":
            value = {"Nobody": 1}           # -121 is a total only Da Vinci Code refuses
        target[field] = value
        if field in ("game", "seq") and where == "top" and isinstance(value, int) and not isinstance(value, bool):
            sent["id"] = f"{sent['table']}:{sent['game']}:{sent['seq']}"   # the id agrees: only the count is wrong
    return topic, sent


def test_the_fuzz_leaves_out_and_makes_wrong_every_field_the_league_reads():
    """A field added to a message, an entry, a round or Decrypto's members
    must join the fuzz: missing (refused if required, its default if not)
    and made wrong."""
    def fields(kind) -> dict[str, bool]:
        return {f.name: f.required for f in msgspec.structs.fields(kind)}
    assert fields(messages.Entry) == dict.fromkeys(ENVELOPE, True)
    assert fields(messages.Summary) == {**dict.fromkeys(REQUIRED, True), **dict.fromkeys(OPTIONAL, False)}
    assert fields(messages.Round) == {"scores": False}     # left out in rounds_of, made wrong under "rounds"
    assert set(WRONG_TOP) == set(ENVELOPE)
    assert set(WRONG_ENTRY) == set(REQUIRED) | set(OPTIONAL)
    assert fields(messages.Merge) == {**dict.fromkeys(MERGE_REQUIRED, True), "undone": False}
    assert set(WRONG_MERGE) == set(fields(messages.Merge))


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
    st.tuples(valid_merges().map(encoded), st.just("valid")),
    st.tuples(broken_merges().map(encoded), st.just("bad")),
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


def held(league: League) -> dict:
    """Every game the league shows, tonight's and each evening's, by (table, id);
    an evening whose file does not answer shows none."""
    games = {}
    _, listing = league.get("/e/")
    days = sorted(set(re.findall(r'href="/e/(\d{4}-\d{2}-\d{2})"', listing.decode())))
    for path in ["/api/tonight", *(f"/api/e/{day}" for day in days)]:
        status, body = league.get(path)
        if status == 200:
            games.update({(g["table"], g["id"]): g for g in json.loads(body)["games"]})
    return games


def lost(league: League, kept: dict) -> list:
    """The valid rows the league should hold (the latest of each game) that it
    does not, or not as sent."""
    games = held(league)
    out = []
    for (table, game), (seq, entry) in kept.items():
        g = games.get((table, game), {})
        sent = {"seq": seq, "status": entry["status"], "players": entry["players"],
                "winners": entry.get("winners", []), "totals": entry.get("totals", {}),
                "members": entry.get("members", {}), "starter": entry.get("starter")}
        if {k: g.get(k) for k in sent} != sent:
            out.append((table, game, sent, {k: g.get(k) for k in sent}))
    return out


def every_page(league: League) -> list:
    """The addresses of every page and file that do not answer 200."""
    _, listing = league.get("/e/")
    days = sorted(set(re.findall(r'href="/e/(\d{4}-\d{2}-\d{2})"', listing.decode())))
    paths = ["/", "/e/", "/p/", "/api/tonight", "/api/tonight.csv", "/api/tonight.json"]
    for day in days:
        paths += [f"/e/{day}", f"/api/e/{day}", f"/api/e/{day}.csv", f"/api/e/{day}.json"]
    return [path for path in paths if league.get(path)[0] != 200]


def test_fuzz_a_real_league_through_a_real_broker(tmp_path, soak):
    broker = Broker(tmp_path)
    broker.start()
    league = League(broker, tmp_path)
    league.until(lambda: league.api()["broker"], "the league on the broker")
    box = Sniffer(broker, topic=f"referee/{CLUB}/{PROBE}/#")
    watch = Watch(league)
    sent = {"valid": 0, "bad": 0, "retained": 0}
    figures = {"payloads": 0, "500s": 0, "listener deaths": 0, "failed": 0, "wrong verdicts": 0,
               "valid rows lost": 0}
    wrong: list = []          # the first few payloads judged wrong, to say which
    kept: dict = {}           # (table, game) -> (seq, entry) of the latest valid row of each game
    retained: dict = {}       # topic -> the valid row the broker keeps there, or None for a bad one
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

    def keep(topic: str, data: bytes) -> None:
        """A valid row as the league must hold it: the latest of its game
        (an event as new as the one held is a duplicate, a retained game not)."""
        if topic.endswith("/status") or "/merge/" in topic:
            return
        row = json.loads(data)
        was = kept.get((row["table"], row["game"]))
        if was is None or row["seq"] > was[0] or (row["seq"] == was[0] and row["kind"] == "game"):
            kept[(row["table"], row["game"])] = (row["seq"], row["entry"])

    @settings(max_examples=SOAK_PAYLOADS if soak else PAYLOADS, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    @given(PAYLOADS_OF, BAD_ARGUMENT, st.integers(0, 9))
    def one(payload, argument, retain_roll):
        (topic, data), expected = payload
        # A box sends every merge retained (its newest word on it); anything else now and then.
        retain = (retain_roll == 0 or (expected == "valid" and "/merge/" in topic)) and bool(data)
        before = counts()
        box.client.publish(topic, data, qos=1, retain=retain).wait_for_publish(WAIT)
        sent[expected] += 1
        sent["retained"] += retain
        figures["payloads"] += 1
        if expected == "valid":
            keep(topic, data)
        if retain:
            retained[topic] = data if expected == "valid" else None
        tonight = mark()
        after = tonight["health"]["since_start"]
        figures["failed"] += after["failed"] - before["failed"]
        refused = after["refused"] - before["refused"]
        if refused != (expected == "bad") or after["failed"] != before["failed"]:
            figures["wrong verdicts"] += 1
            if len(wrong) < 5:
                wrong.append((expected, refused, topic, data[:300]))
        figures["listener deaths"] = tonight["health"]["restarts"]
        prefix, middle, suffix = argument
        figures["500s"] += league.get(prefix + urllib.parse.quote(middle, safe="") + suffix)[0] >= 500
        if marker[0] % ROUTES_EVERY == 0:
            figures["500s"] += len(every_page(league))

    try:
        one()
        figures["500s"] += len(every_page(league))
        missed = lost(league, kept)
        figures["valid rows lost"] = len(missed)
        assert sent["valid"] + sent["bad"] >= (SOAK_PAYLOADS if soak else PAYLOADS) and sent["retained"], sent
        # A start on what the broker retained, bad rows too: it listens, serves and holds the same,
        # the merges judged as before.
        merges = league.api()["merges"]
        assert merges, "no merge in effect to hold over the restart"
        watch.close()
        league.stop()
        league = League(broker, tmp_path)
        league.until(lambda: league.api()["broker"], "the league back on the broker")
        watch = Watch(league)
        mark()
        for topic, data in retained.items():   # taken again: a game's retained row as new as the one held
            if data is not None:
                keep(topic, data)
        figures["failed"] += league.api()["health"]["since_start"]["failed"]
        figures["500s"] += len(every_page(league))
        missed = missed or lost(league, kept)
        assert league.api()["merges"] == merges
        figures["valid rows lost"] = max(figures["valid rows lost"], len(missed))
        print(f"\nleague fuzz: {figures} ({sent['valid']} valid, {sent['bad']} bad, {sent['retained']} retained)")
        assert {k: v for k, v in figures.items() if k != "payloads"} == dict.fromkeys(
            ("500s", "listener deaths", "failed", "wrong verdicts", "valid rows lost"), 0), (figures, wrong, missed[:3])
        assert league.proc.poll() is None
        said = league.log_path.read_text()
        for fault in ("Traceback", "Error handling request", "could not take", "listener failed"):
            assert fault not in said, fault
    finally:
        watch.close()
        box.close()
        league.stop()
        broker.stop()
