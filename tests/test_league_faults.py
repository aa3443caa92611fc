"""Issue 27, the league: each fault the trials found, published once by a box
with a valid login (a valid entry with the one change), and what the league
does now: it refuses the message with a log line, stores nothing, takes the
next valid one, and no page answers 500.

The decoder is checked on its own first (each repro is refused, and why);
then a real ``referee league`` on a real Mosquitto gets them all, one after
the other, then again retained across restarts; then the page itself: its
health line in the four languages, the dates, the CSV and the headers.
"""
from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import html
import http.client
import json
import re
import socket
import sqlite3
import time

import pytest
from aiohttp.test_utils import TestClient, TestServer

from referee import i18n
from referee.club import messages
from referee.club.league import League as Store
from referee.club.league_web import LeagueSite, make_app
from referee.store.scorelog import evening_start
from test_club import CLUB, WAIT, Broker, League, Sniffer, club, table_of  # noqa: F401

ROUTES = ("/", "/e/", "/api/tonight", "/api/tonight.csv", "/api/tonight.json")
SECURITY = {"Content-Security-Policy", "X-Content-Type-Options", "Referrer-Policy", "X-Frame-Options",
            "Cross-Origin-Opener-Policy"}


def entry(now: float, game: int = 7, **change) -> dict:
    """A Da Vinci Code game as a box's score log has it, begun a minute ago."""
    e = {"id": game, "game": "davinci", "started": now - 60, "ended": None, "status": "finished",
         "players": ["Ann", "Bob"], "starter": "Ann", "rounds": [], "totals": {"Ann": 1, "Bob": 0},
         "winners": ["Ann"]}
    e.update(change)
    return e


def message(now: float, table: str = "north", game: int = 7, seq: int = 1, kind: str = "event",
            entry_of=None, **change) -> dict:
    return {"v": 1, "kind": kind, "id": f"{table}:{game}:{seq}", "table": table, "game": game, "seq": seq,
            "at": 12.5, "entry": entry_of if entry_of is not None else entry(now, game if game < 2**63 else 7,
                                                                                 **change)}


def without_id(now: float) -> dict:
    e = entry(now)
    del e["id"]
    return message(now, entry_of=e)


# name → (table level of the topic, the message): each as the trials sent it
REPROS = {
    "started_1e18": lambda now: ("north", message(now, started=1e18)),
    "started_minus_1e18": lambda now: ("north", message(now, started=-1e18)),
    "entry_without_id": lambda now: ("north", without_id(now)),
    "totals_a_list": lambda now: ("north", message(now, totals=[1, 2])),
    "seq_2_63": lambda now: ("north", message(now, seq=2**63)),
    "game_2_63": lambda now: ("north", message(now, game=2**63)),
    "bidi_name": lambda now: ("north", message(now, players=["Ann\u202eboB", "Bob"],
                                               totals={"Ann\u202eboB": 1, "Bob": 0}, winners=["Ann\u202eboB"])),
    "table_login_img": lambda now: ("‹img src=x>", message(now, table="‹img src=x>")),
    "totals_10_30": lambda now: ("north", message(now, totals={"Ann": 10**30, "Bob": 0})),
    "totals_negative": lambda now: ("north", message(now, totals={"Ann": -40, "Bob": 0}, winners=["Bob"])),
}
SAID = {"started_1e18": "started", "started_minus_1e18": "started", "entry_without_id": "missing required field `id`",
        "totals_a_list": "$.totals", "seq_2_63": "$.seq", "game_2_63": "$.game", "bidi_name": "U+202E",
        "table_login_img": "$.table", "totals_10_30": "$.totals", "totals_negative": "outside davinci's 0…120"}


def topic_of(table: str, kind: str = "event") -> str:
    return f"referee/{CLUB}/{table}/{kind}"


# --- the decoder --------------------------------------------------------------------------------

@pytest.mark.parametrize("repro", REPROS)
def test_each_repro_is_refused_with_its_reason_and_the_next_valid_row_taken(repro, tmp_path):
    now = time.time()
    table, sent = REPROS[repro](now)
    payload = json.dumps(sent).encode()
    with pytest.raises(messages.Refused, match=re.escape(SAID[repro])):
        messages.decode(topic_of(table), payload, now)
    league = Store(str(tmp_path / "league.db"))
    assert league.take(topic_of(table), payload) == "refused"
    assert league.take(topic_of("north"), json.dumps(message(now, seq=2)).encode()) == "taken"
    tonight = league.tonight(now)
    assert [(g.table, g.id, g.seq) for g in tonight["games"]] == [("north", 7, 2)]
    assert tonight["health"]["refused"] == 1
    assert league.evenings() and league.evening(dt.date.fromtimestamp(evening_start(now)))["games"]
    league.close()


def test_an_entry_stored_before_its_optional_fields_loads_with_their_defaults(tmp_path):
    """A game a league kept before the entry said whether it was scored or
    stopped, who started or finished first: its page and standings read it,
    each field missing taken as the box's default (scored, not stopped, no
    order), never as a fault."""
    path = str(tmp_path / "league.db")
    now = time.time()
    Store(path).close()
    old = {"id": 7, "game": "davinci", "started": now - 60, "ended": now - 30, "status": "finished",
           "players": ["Ann", "Bob"], "totals": {"Ann": 11, "Bob": 4}, "winners": ["Ann"]}
    db = sqlite3.connect(path)
    db.execute("INSERT INTO games VALUES ('north', 7, 1, ?, ?)", (old["started"], json.dumps(old)))
    db.commit()
    db.close()
    league = Store(path)
    try:
        (game,) = league.tonight(now)["games"]
        assert (game.table, game.seq, game.winners, game.starter) == ("north", 1, ["Ann"], None)
        assert (game.scored, game.stopped, game.finishing_order, game.members, game.rounds) == (True, False, [], {}, [])
        ann = next(row for row in league.tonight(now)["standings"] if row["name"] == "Ann")
        assert (ann["played"], ann["wins"], ann["davinci"]) == (1, 1, 11)   # its points counted: scored by default
    finally:
        league.close()


def test_a_row_from_before_the_checks_that_they_refuse_is_dropped_at_start(tmp_path):
    """A league that stored "started": 1e18 before this fix 500ed on every page:
    it starts clean now."""
    path = str(tmp_path / "league.db")
    now = time.time()
    Store(path).close()
    db = sqlite3.connect(path)
    db.execute("INSERT INTO games VALUES ('north', 7, 1, 1e18, ?)", (json.dumps(entry(now, started=1e18)),))
    db.execute("INSERT INTO games VALUES ('north', 8, 1, ?, ?)", (now - 60, json.dumps(entry(now, game=8))))
    db.execute("INSERT INTO tables VALUES ('‹img>', 1, NULL, 0)")
    db.commit()
    db.close()
    league = Store(path)
    assert [g.id for g in league.tonight(now)["games"]] == [8]
    assert [t["table"] for t in league.tonight(now)["tables"]] == []
    assert len(league.evenings()) == 1
    league.close()


def test_every_real_game_entry_is_taken():
    """The checks refuse no entry a box makes (the rules' own random play
    checks every summary too: tests/test_rules_fuzz.py, ``contract``)."""
    from referee.testing import Table
    from test_club import davinci_win
    with Table(seed=1) as t:
        t.start("davinci", players=["=HYPERLINK()", "Zoë"])
        davinci_win(t)
        t.box.leave()
        t.start("decrypto")
        now = t.clock.wall()
        entries = t.log()
    assert [(e["game"], e["status"]) for e in entries] == [("decrypto", "playing"), ("davinci", "finished")]
    for e in entries:
        sent = message(now, game=e["id"], seq=3, entry_of=e)
        assert isinstance(messages.decode(topic_of("north"), json.dumps(sent).encode(), now), messages.Kept)


# --- a real league on a real broker -----------------------------------------------------------------

def refused(league: League) -> int:
    return league.api()["health"]["refused"]


def send_valid(league: League, sniffer: Sniffer, seq: int) -> None:
    """A valid row after the bad one: once the league shows it, it has read
    everything before it, and it still takes what it should."""
    sniffer.publish(topic_of("north"), json.dumps(message(time.time(), seq=seq)).encode())
    league.until(lambda: any(g["table"] == "north" and g["seq"] == seq for g in league.api()["games"]),
                 f"north's row {seq}")


def no_500(league: League) -> None:
    days = {g["started"] for g in league.api()["games"]}
    paths = [*ROUTES, *(f"/e/{dt.date.fromtimestamp(evening_start(d))}" for d in days)]
    answers = {path: league.get(path)[0] for path in paths}
    assert set(answers.values()) == {200}, answers


def test_each_fault_published_once_is_refused_and_the_league_takes_the_next(club):
    broker, league, _ = club
    sniffer = Sniffer(broker)
    seq = 1
    send_valid(league, sniffer, seq)
    for n, (repro, make) in enumerate(REPROS.items(), 1):
        table, sent = make(time.time())
        sniffer.publish(topic_of(table), json.dumps(sent).encode())
        seq += 1
        send_valid(league, sniffer, seq)
        assert refused(league) == n, repro
        no_500(league)
    # A box that keeps at it fills no log: one line per table, kind and minute.
    for _ in range(30):
        sniffer.publish(topic_of("north"), json.dumps(message(time.time(), started=1e18)).encode())
    send_valid(league, sniffer, seq + 1)
    said = league.log_path.read_text()
    assert said.count("started 1e+18 is not within") == 1
    assert "Traceback" not in said and "could not take" not in said
    assert league.proc.poll() is None and league.api()["health"]["restarts"] == 0
    assert [g["players"] for g in league.api()["games"]] == [["Ann", "Bob"]]
    sniffer.close()


def test_a_retained_bad_message_is_ignored_on_every_start(club, tmp_path):
    broker, league, _ = club
    sniffer = Sniffer(broker)
    sniffer.client.publish(topic_of("north", "game/7"), json.dumps(message(time.time(), seq=2**63)).encode(),
                           qos=1, retain=True).wait_for_publish(WAIT)
    send_valid(league, sniffer, 1)
    try:
        for seq in (2, 3):                        # and after each start, the next valid row
            league.stop()
            league = League(broker, tmp_path)
            league.until(lambda league=league: league.api()["broker"], "the league back on the broker")
            send_valid(league, sniffer, seq)
            assert refused(league) == 1           # the retained one, once each start
            no_500(league)
        assert league.proc.poll() is None
    finally:
        league.stop()
        sniffer.close()


def peak_mb(proc) -> float:
    """A process's peak resident memory so far (VmHWM), in MB."""
    with open(f"/proc/{proc.pid}/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmHWM:")) / 1024


HUGE = 64 * 1024 * 1024     # one login's retained merge message of 64 MB raised the league from 49 MB to 255


def test_a_retained_message_over_the_size_limit_is_said_once_and_one_far_over_never_read(tmp_path):
    # A broker without the shipped configuration's message_size_limit keeps both.
    broker = Broker(tmp_path)
    broker.start()
    sniffer = Sniffer(broker)
    over = json.dumps(message(time.time(), seq=5)).encode() + b" " * messages.MAX_BYTES    # JSON, a little long
    for topic, payload in ((topic_of("north", "merge/5"), over), (topic_of("south", "merge/6"), b" " * HUGE)):
        sniffer.client.publish(topic, payload, qos=1, retain=True).wait_for_publish(WAIT)
    sniffer.close()
    league = League(broker, tmp_path)
    try:
        league.until(lambda: league.api()["broker"], "the league on the broker")
        sniffer = Sniffer(broker)
        send_valid(league, sniffer, 1)
        sniffer.close()
        # The broker sends its retained messages again when the league is back on it: said once still.
        broker.stop()
        broker.start()
        sniffer = Sniffer(broker)
        send_valid(league, sniffer, 2)
        sniffer.close()
        said = league.log_path.read_text()
        assert said.count("over the limit of 65536") == 1 and str(HUGE) not in said
        assert refused(league) == 1 and league.proc.poll() is None
        assert peak_mb(league.proc) < HUGE / 2**20, "the 64 MB message was read"
    finally:
        league.stop()
        broker.stop()


@pytest.mark.parametrize("club", [True], indirect=True)
def test_the_shipped_broker_configuration_takes_no_message_over_the_leagues_limit(club):
    broker, league, _ = club
    north = Sniffer(broker, login=("north", "north-secret"))
    long = json.dumps(message(time.time(), seq=5)).encode() + b" " * messages.MAX_BYTES
    north.client.publish(topic_of("north"), long, qos=1, retain=True).wait_for_publish(WAIT)
    send_valid(league, north, 1)
    assert refused(league) == 0 and "over the limit" not in league.log_path.read_text()   # stopped at the door
    north.close()


def test_a_fault_taking_one_message_is_logged_and_the_league_listens_on(club):
    """Not a bad message this time but the league's own store failing under
    it (a table gone): the message is lost, said once, and the next taken."""
    broker, league, _ = club
    sniffer = Sniffer(broker)
    send_valid(league, sniffer, 1)
    db = sqlite3.connect(league.proc.args[league.proc.args.index("--database") + 1])
    db.execute("DROP TABLE arrivals")
    db.close()
    sniffer.publish(topic_of("north"), json.dumps(message(time.time(), seq=2)).encode())
    sniffer.publish(topic_of("west", "status"), messages.encode(messages.Status(
        v=1, kind="status", table="west", online=True, at=time.time())))
    league.until(lambda: table_of(league.api(), "west").get("online") is True, "the status after the fault")
    assert "could not take a message on 'referee/testclub/north/event'" in league.log_path.read_text()
    assert [g["seq"] for g in league.api()["games"]] == [1]     # the failed row left nothing behind
    assert league.api()["health"]["refused"] == 1 and league.proc.poll() is None
    sniffer.close()


def test_bad_days_are_404_and_aiohttps_own_400_carries_the_headers(club):
    broker, league, _ = club
    for path in ("/e/0001-01-01", "/api/e/0001-01-01.csv", "/api/e/0001-01-01", "/e/9999-12-31",
                 "/e/2026-02-30", "/api/e/1970-01-01.json"):
        assert league.get(path)[0] == 404, path
    for path in ROUTES:
        conn = http.client.HTTPConnection("127.0.0.1", league.port, timeout=WAIT)
        conn.request("GET", path)
        answer = conn.getresponse()
        answer.read()
        assert answer.status == 200 and SECURITY <= set(answer.headers), path
        assert answer.headers["Cross-Origin-Opener-Policy"] == "same-origin"
        conn.close()
    with socket.create_connection(("127.0.0.1", league.port), timeout=WAIT) as s:
        s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n")
        head = s.recv(65536).decode("latin-1").split("\r\n\r\n")[0].lower()
    assert head.split()[1] == "400", head
    assert all(f"{name.lower()}:" in head for name in SECURITY), head


def test_the_csv_is_the_boxs_kind_and_names_stay_text(club):
    broker, league, _ = club
    sniffer = Sniffer(broker)
    now = time.time()
    names = ["=HYPERLINK()", "+1", "@SUM(A1)", "-2"]
    sniffer.publish(topic_of("north"), json.dumps(message(now, players=names, winners=["+1"], starter="+1", totals={
        "=HYPERLINK()": 4, "+1": 9, "@SUM(A1)": 0, "-2": 1})).encode())
    league.until(lambda: league.api()["games"], "the game")
    status, sheet = league.get("/api/tonight.csv")
    text = sheet.decode("utf-8")
    assert status == 200 and text.startswith("\ufeff")
    rows = [row.split(";") for row in text[1:].split("\r\n") if row]
    assert rows[0] == ["table", "game_id", "game", "status", "started", "player", "total", "winner"]
    assert [(r[5], r[6], r[7]) for r in rows[1:]] == [("'=HYPERLINK()", "4", "0"), ("'+1", "9", "1"),
                                                     ("'@SUM(A1)", "0", "0"), ("'-2", "1", "0")]
    sniffer.close()


# --- the page says how the league is, in each language ----------------------------------------------

@pytest.mark.parametrize("lang", ["en", "cs", "pl", "ru"])
def test_the_page_says_connected_and_how_many_messages_were_refused_tonight(lang, tmp_path):
    now = time.time()
    league = Store(str(tmp_path / "league.db"))
    for _ in range(3):
        league.take(topic_of("north"), json.dumps(message(now, started=1e18)).encode())

    async def page() -> str:
        async with TestClient(TestServer(make_app(LeagueSite(league)))) as client:
            league.link(True)
            answer = await client.get("/")
            assert answer.status == 200
            return await answer.text()

    i18n.use(lang)
    try:
        text = asyncio.run(page())
        said = (i18n._("Connected to the club's broker") + "; " +
                i18n.ngettext("%(count)s message refused tonight", "%(count)s messages refused tonight", 3)
                % {"count": 3})
    finally:
        i18n.use("en")
        league.close()
    assert said in html.unescape(text)
    if lang == "en":
        assert said == "Connected to the club's broker; 3 messages refused tonight"
    else:
        assert "refused tonight" not in said      # translated, not the English


def test_a_flood_of_forged_tables_fills_no_log(tmp_path, caplog):
    """One line per table, kind and minute, and 30 a minute in all: a box
    inventing a table name for each bad message is held back too."""
    now = time.time()
    league = Store(str(tmp_path / "league.db"))
    with caplog.at_level("WARNING", logger="referee.club"):
        for n in range(200):
            table = f"t{n}"
            league.take(topic_of(table), json.dumps(message(now, table=table, started=1e18)).encode())
    assert league.health()["refused"] == 200
    assert len([r for r in caplog.records if "refused a message" in r.getMessage()]) == 30
    league.close()


def test_a_table_name_is_one_whole_topic_level():
    now = time.time()
    for table in ("north\n", "north/x", "north+", "", "n" * 33, "league\u202e"):
        sent = json.dumps(message(now, table=table)).encode()
        with pytest.raises(messages.Refused):
            messages.decode(topic_of(table), sent, now)
    assert messages.decode(topic_of("north-2_B"), json.dumps(message(now, table="north-2_B")).encode(), now)


def test_the_listener_is_started_again_after_a_fault_it_did_not_expect(tmp_path):
    """Whatever escapes the handling of a message (here the page's hook
    failing once) is logged and the listener begins again: the next
    message is taken, and the page says it happened."""
    from test_club import Broker
    from referee.club.league import follow
    from referee.config import parse
    broker = Broker(tmp_path)
    broker.start()
    box = Sniffer(broker)
    league = Store(str(tmp_path / "league.db"))
    failures = []

    def hook() -> None:
        if not failures:
            failures.append(1)
            raise RuntimeError("the page's hook failed")

    league.on_change = hook

    async def evening() -> None:
        stop = asyncio.Event()    # set by a signal in ``referee league``; here the task is cancelled
        config = parse({"club": {"broker": broker.url, "name": CLUB}}, "league")
        listening = asyncio.get_running_loop().create_task(follow(config, league, stop))

        async def until(done, what: str) -> None:
            give_up = time.monotonic() + WAIT
            while not done():
                assert time.monotonic() < give_up and not listening.done(), what
                await asyncio.sleep(0.02)   # the broker is a real process: its answer is polled for

        for n, table in enumerate(("west", "east"), 1):
            await until(lambda: league.connected, "the league on the broker")
            await asyncio.to_thread(box.publish, topic_of(table, "status"), messages.encode(messages.Status(
                v=1, kind="status", table=table, online=True, at=time.time())))
            await until(lambda n=n: [t["table"] for t in league.tonight(time.time())["tables"]] ==
                        ["east", "west"][2 - n:], f"{table}'s status")
        assert league.restarts == 1 and not listening.done()
        listening.cancel()       # as ``referee league`` ends it
        with contextlib.suppress(asyncio.CancelledError):
            await listening

    try:
        asyncio.run(evening())
    finally:
        box.close()
        league.close()
        broker.stop()
