"""Club night: boxes publish to a real Mosquitto, ``referee league`` follows.

Every process here is real: the broker (Debian's mosquitto on a free
loopback port), one ``referee club`` publisher per virtual table, reading
that table's store, and ``referee league`` with its page.  Tests wait on
events (the league's live stream, the sniffer's messages), never on time.
"""
from __future__ import annotations

import datetime as dt
import http.client
import json
import os
import pathlib
import queue
import re
import shutil
import signal
import subprocess
import sys
import threading
import time

import paho.mqtt.client as paho
import pytest

from processes import free_port
from referee.club import messages
from referee.store.scorelog import evening_start
from referee.testing import Table
from test_web import Secrets, decrypto_clues, decrypto_guesses, public_codes, state

MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"
MOSQUITTO_PASSWD = shutil.which("mosquitto_passwd") or "/usr/bin/mosquitto_passwd"
ROOT = pathlib.Path(__file__).resolve().parent.parent
CLUB = "testclub"
WAIT = 20.0   # seconds any one thing may take before the test says what it waited for



def spawn(command: list[str], log) -> subprocess.Popen:
    with open(log, "ab") as out:
        return subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT)


def referee(*args: str, log) -> subprocess.Popen:
    script = os.path.join(os.path.dirname(sys.executable), "referee")
    command = [script] if os.path.exists(script) else [sys.executable, "-m", "referee.cli"]
    return spawn([*command, *args], log)


class Broker:
    """Mosquitto with persistence, as a club would run it: by default open
    to anyone, or with the shipped example's logins and ACL (``secured``)."""

    def __init__(self, folder, secured: bool = False) -> None:
        self.port = free_port()
        self.conf = folder / "mosquitto.conf"
        self.ca = None
        if secured == "tls":
            self.ca = certificates(folder)
            text = (f"listener {self.port} 127.0.0.1\ncertfile {folder}/broker.crt\nkeyfile {folder}/broker.key\n"
                    "allow_anonymous true\n")
        elif secured:
            text = (ROOT / "docs" / "club" / "mosquitto.conf").read_text()
            text = text.replace("listener 1883", f"listener {self.port} 127.0.0.1")
            text = text.replace("/etc/mosquitto/", f"{folder}/")
            acl = (ROOT / "docs" / "club" / "mosquitto.acl").read_text().replace("referee/club/", f"referee/{CLUB}/")
            (folder / "referee.acl").write_text(acl)
            for user in ("league", "north", "south"):
                subprocess.run([MOSQUITTO_PASSWD, "-b", *(["-c"] if user == "league" else []),
                                str(folder / "referee.passwd"), user, f"{user}-secret"], check=True)
        else:
            text = f"listener {self.port} 127.0.0.1\nallow_anonymous true\npersistence true\n" \
                   "autosave_interval 1\nautosave_on_changes true\n"
        self.conf.write_text(text + f"persistence_location {folder}/\nuser root\n")
        self.log = folder / "mosquitto.log"
        self.proc = None
        self.url = f"{'mqtts' if self.ca else 'mqtt'}://127.0.0.1:{self.port}"
        self.login = ("league", "league-secret") if secured is True else None

    def start(self) -> None:
        self.proc = spawn([MOSQUITTO, "-c", str(self.conf)], self.log)
        sniff = Sniffer(self)   # the broker is up once a client gets in
        sniff.close()

    def stop(self, sig=signal.SIGTERM) -> None:
        self.proc.send_signal(sig)
        self.proc.wait(WAIT)


def certificates(folder) -> str:
    """A club's own CA and the broker's certificate signed by it (openssl)."""
    def openssl(*args: str) -> None:
        subprocess.run(["openssl", *args], cwd=folder, check=True, capture_output=True)
    openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.crt", "-days", "2",
            "-subj", "/CN=club CA")
    openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", "broker.key", "-out", "broker.csr",
            "-subj", "/CN=127.0.0.1")
    (folder / "san.ext").write_text("subjectAltName=IP:127.0.0.1\n")
    openssl("x509", "-req", "-in", "broker.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial",
            "-out", "broker.crt", "-days", "2", "-extfile", "san.ext")
    return str(folder / "ca.crt")


class Sniffer:
    """Every message on the club's topics, as any subscriber gets them."""

    def __init__(self, broker: Broker, topic: str = f"referee/{CLUB}/#", login=None) -> None:
        self.messages: queue.Queue = queue.Queue()
        self.seen: list[tuple[str, bytes]] = []
        self.client = paho.Client(paho.CallbackAPIVersion.VERSION2)
        if login or broker.login:
            self.client.username_pw_set(*(login or broker.login))
        if broker.ca:
            self.client.tls_set(ca_certs=broker.ca)
        connected = threading.Event()
        refused = []

        def on_connect(client, userdata, flags, reason, properties):
            if reason.is_failure:     # a wrong password is answered, and the client never gets in
                refused.append(reason)
            else:
                client.subscribe(topic, qos=1)
            connected.set()

        self.client.on_connect = on_connect
        self.client.on_message = lambda c, u, msg: self.messages.put((msg.topic, msg.payload))
        deadline = dt.datetime.now() + dt.timedelta(seconds=WAIT)
        while True:
            try:
                self.client.connect("127.0.0.1", broker.port)
                break
            except ConnectionRefusedError:
                if dt.datetime.now() > deadline:
                    raise
                connected.wait(0.02)   # the broker is still starting
        self.client.loop_start()
        if not connected.wait(WAIT) or refused:
            self.close()
            raise AssertionError(f"the sniffer never got in: {refused}")

    def until(self, done, what: str) -> None:
        while not done():
            try:
                self.seen.append(self.messages.get(timeout=WAIT))
            except queue.Empty:
                raise AssertionError(f"no message for {WAIT} s while waiting for {what}") from None

    def publish(self, topic: str, payload: bytes) -> None:
        self.client.publish(topic, payload, qos=1).wait_for_publish(WAIT)

    def close(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()


class League:
    def __init__(self, broker: Broker, folder) -> None:
        self.port = free_port()
        self.log_path = folder / "league.log"
        config = folder / "league.toml"
        login = f'username = "{broker.login[0]}"\npassword = "{broker.login[1]}"\n' if broker.login else ""
        ca = f'ca = "{broker.ca}"\n' if broker.ca else ""
        config.write_text(f'[club]\nbroker = "{broker.url}"\nname = "{CLUB}"\n{login}{ca}')
        self.proc = referee("league", "--config", str(config), "--database", str(folder / "league.db"),
                            "--listen", f"127.0.0.1:{self.port}", log=self.log_path)

    def get(self, path: str) -> tuple[int, bytes]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=WAIT)
        try:
            conn.request("GET", path)
            answer = conn.getresponse()
            return answer.status, answer.read()
        finally:
            conn.close()

    def api(self, path: str = "/api/tonight"):
        return json.loads(self.get(path)[1])

    def until(self, done, what: str) -> None:
        """Waits on the league's own live stream: every change it takes."""
        deadline = dt.datetime.now() + dt.timedelta(seconds=2 * WAIT)
        while True:
            conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=WAIT)
            try:
                conn.request("GET", "/live")
                stream = conn.getresponse()
                break
            except ConnectionRefusedError:
                if dt.datetime.now() > deadline:
                    raise
                threading.Event().wait(0.02)  # the league is still starting
        try:
            while not done():
                if dt.datetime.now() > deadline:
                    raise AssertionError(f"waited {2 * WAIT} s for {what}; the league has {self.api()}")
                line = stream.fp.readline()
                if not line:
                    raise AssertionError(f"the league's stream ended while waiting for {what}")
        except TimeoutError:
            raise AssertionError(f"the league took nothing new for {WAIT} s while waiting for {what}") from None
        finally:
            conn.close()

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGTERM)
        self.proc.wait(WAIT)


class Box:
    """A virtual table and its publisher process."""

    def __init__(self, name: str, broker: Broker, folder, seed: int, trust: bool = True) -> None:
        self.name = name
        self.table = Table(seed=seed)
        self.config = folder / f"{name}.toml"
        login = f'username = "{name}"\npassword = "{name}-secret"\n' if broker.login else ""
        login += f'ca = "{broker.ca}"\n' if broker.ca and trust else ""
        self.config.write_text(f'database = "{self.table.database}"\n'
                               f'[club]\nbroker = "{broker.url}"\nname = "{CLUB}"\ntable = "{name}"\n{login}')
        self.log = folder / f"{name}.log"
        self.proc = None
        self.start()

    def start(self) -> None:
        self.proc = referee("club", "--config", str(self.config), log=self.log)

    def stop(self, sig=signal.SIGTERM) -> None:
        self.proc.send_signal(sig)
        self.proc.wait(WAIT)

    def rows(self) -> list[tuple[int, int]]:
        db = self.table.box.store._db
        return [tuple(r) for r in db.execute("SELECT game, seq FROM events ORDER BY game, seq")]

    def close(self) -> None:
        if self.proc.poll() is None:
            self.stop()
        self.table.close()


@pytest.fixture
def club(tmp_path, request):
    broker = Broker(tmp_path, secured=getattr(request, "param", False))
    broker.start()
    made: list = []

    def box(name: str, seed: int = 1, trust: bool = True) -> Box:
        made.append(Box(name, broker, tmp_path, seed, trust))
        return made[-1]

    league = League(broker, tmp_path)
    league.until(lambda: league.api()["broker"], "the league on the broker")
    try:
        yield broker, league, box
    finally:
        for b in made:
            b.close()
        league.stop()
        if broker.proc.poll() is None:
            broker.stop()


def davinci_win(t: Table, winner_first: bool = True) -> None:
    """A two-player game of Da Vinci Code: the starter hits all four tiles."""
    t.press("#")
    for _ in range(4):
        t.press("2")
        t.press("A")


def day_of(t: Table) -> dt.date:
    return dt.date.fromtimestamp(evening_start(t.clock.wall()))


def table_of(tonight: dict, name: str) -> dict:
    return next((row for row in tonight["tables"] if row["table"] == name), {})


# --- the evening -------------------------------------------------------------------------------

def test_club_three_boxes_a_league_a_broker_restart_and_a_box_offline(club):
    broker, league, box = club
    ann, cid, eve = box("north", 1), box("south", 2), box("east", 3)
    ann.table.start("davinci", players=["Ann", "Bob"])
    cid.table.start("davinci", players=["Cid", "Dan"])
    eve.table.start("davinci", players=["Eve", "Fay"])
    league.until(lambda: all(table_of(league.api(), b.name).get("game") == "davinci" for b in (ann, cid, eve)),
                 "three tables playing Da Vinci Code")

    davinci_win(ann.table)
    day = day_of(ann.table)
    league.until(lambda: league.api(f"/api/e/{day}")["standings"][:1] == [  # a single game: a win, no points [DV-8]
        {"name": "Ann", "played": 1, "wins": 1, "davinci": 0}], "Ann's win")

    # The broker goes down mid-evening; the south table plays on and wins.
    broker.stop(signal.SIGKILL)
    davinci_win(cid.table)
    broker.start()
    league.until(lambda: any(g["winners"] == ["Cid"] for g in league.api(f"/api/e/{day}")["games"]),
                 "the south table's game, after the broker came back")

    # The east box is off the network for ten minutes of play.
    eve.stop(signal.SIGKILL)
    eve.table.advance(300)
    eve.table.press("#")
    eve.table.advance(300)
    for _ in range(4):
        eve.table.press("2")
        eve.table.press("A")
    eve.start()
    league.until(lambda: any(g["winners"] == ["Eve"] for g in league.api(f"/api/e/{day}")["games"]),
                 "the east table's game, after it came back")

    standings = league.api(f"/api/e/{day}")["standings"]
    assert [(s["name"], s["wins"]) for s in standings] == [
        ("Ann", 1), ("Cid", 1), ("Eve", 1), ("Bob", 0), ("Dan", 0), ("Fay", 0)]
    # Each box's rows reached the league once each, in the order they were
    # made (seq 0: "a game has begun", sent while nothing is played yet).
    for b in (ann, cid, eve):
        assert [(g, s) for g, s in _arrivals(league, b.name) if s] == b.rows()


def _arrivals(league: League, table: str):
    import sqlite3
    db = sqlite3.connect(league.proc.args[league.proc.args.index("--database") + 1])
    try:
        return [tuple(r) for r in db.execute("SELECT game, seq FROM arrivals WHERE tbl = ? ORDER BY rowid", (table,))]
    finally:
        db.close()


def test_club_status_is_retained_and_the_will_says_offline(club):
    broker, league, box = club
    north = box("north")
    league.until(lambda: table_of(league.api(), "north").get("online") is True, "north online")
    north.stop(signal.SIGKILL)    # no goodbye: the broker sends the will
    league.until(lambda: table_of(league.api(), "north").get("online") is False, "north's last will")
    north.start()
    league.until(lambda: table_of(league.api(), "north").get("online") is True, "north back")


# --- a league that trusts nothing ------------------------------------------------------------

def test_club_league_drops_duplicates_and_refuses_malformed_and_oversized_payloads(club, tmp_path):
    broker, league, box = club
    north = box("north")
    sniffer = Sniffer(broker)
    north.table.start("davinci", players=["Ann", "Bob"])
    davinci_win(north.table)
    sniffer.until(lambda: any(b'"winners":["Ann"]' in p for _, p in sniffer.seen), "Ann's win published")
    day = day_of(north.table)
    league.until(lambda: league.api(f"/api/e/{day}")["games"][:1] and
                 league.api(f"/api/e/{day}")["games"][0]["winners"] == ["Ann"], "the league has the game")
    before = league.api(f"/api/e/{day}")

    events = [(t, p) for t, p in sniffer.seen if t.endswith("/event")]
    first_topic, first = events[0]
    sniffer.publish(first_topic, first)                       # an old row again: dropped
    sniffer.publish(events[-1][0], events[-1][1])             # the newest again: dropped
    forged = json.loads(first)
    sniffer.publish(first_topic, b"{not json")
    sniffer.publish(first_topic, json.dumps({**forged, "v": 99}).encode())
    sniffer.publish(first_topic, json.dumps({**forged, "entry": {"game": "davinci"}}).encode())
    sniffer.publish("referee/testclub/south/event", first)    # north's row under another table's name
    sniffer.publish(first_topic, b'{"v":1,"pad":"' + b"x" * messages.MAX_BYTES + b'"}')
    # A status after them all: once the league shows it, it has read the rest.
    sniffer.publish("referee/testclub/west/status", messages.encode(messages.Status(
        v=1, kind="status", table="west", online=True, at=time.time())))
    league.until(lambda: table_of(league.api(), "west").get("online") is True, "the marker status")

    assert league.api(f"/api/e/{day}") == before
    assert _arrivals(league, "north") == north.rows()
    assert league.proc.poll() is None
    said = league.log_path.read_text()
    for reason in ("not JSON", "version 99", "wrong entry", "published under", "over the limit"):
        assert reason in said
    sniffer.close()


def test_club_publishes_nothing_secret(club):
    """Every byte a box sends over a Decrypto game, mid-round included, is
    scanned like the public pages are."""
    broker, league, box = club
    sniffer = Sniffer(broker)
    north = box("north")
    t = north.table
    t.start("decrypto")
    decrypto_clues(t)
    decrypto_guesses(t)          # round 1 revealed; round 2's codes now drawn and secret
    secrets = Secrets()
    secrets.decrypto(state(t))
    assert secrets.words and secrets.codes
    rows = len(north.rows())
    sniffer.until(lambda: sum(p.count(b'"kind":"event"') for _, p in sniffer.seen) >= rows, "every row published")
    shown = public_codes(t)
    leaks = [found for _, payload in sniffer.seen if (found := secrets.found_in(payload.decode(), shown))]
    assert not leaks
    sniffer.close()


# --- the page --------------------------------------------------------------------------------

def test_club_league_page_shows_tables_standings_and_files(club):
    broker, league, box = club
    north = box("north")
    north.table.start("davinci", players=["Ann", "<b>Bob</b>"])
    league.until(lambda: table_of(league.api(), "north").get("game") == "davinci", "north playing")
    status, page = league.get("/")
    assert status == 200
    assert b"north" in page and b"Da Vinci Code" in page
    davinci_win(north.table)
    day = day_of(north.table)
    league.until(lambda: league.api(f"/api/e/{day}")["standings"], "a finished game")
    status, page = league.get(f"/e/{day}")
    assert status == 200 and b"Ann" in page and b"&lt;b&gt;Bob&lt;/b&gt;" in page and b"<b>Bob" not in page
    status, sheet = league.get(f"/api/e/{day}.csv")
    assert status == 200
    text = sheet.decode("utf-8")
    assert text.startswith("\ufeff")                 # as the box's own files: the mark, ";"
    rows = text[1:].splitlines()
    assert rows[0] == "table;game_id;game;status;started;player;total;winner"
    assert rows[1].startswith("north;1;davinci;finished;") and rows[1].endswith(";Ann;1;1")
    assert league.get("/e/2999-99-99")[0] == 404


# --- the box's own screen ----------------------------------------------------------------------

def scanned(t: Table) -> list[str]:
    import zxingcpp
    from PIL import Image
    image = t.image("main").convert("L")
    return [code.text for code in zxingcpp.read_barcodes(image.resize((image.width * 4, image.height * 4),
                                                                       Image.NEAREST))]


def test_club_score_log_screen_offers_the_leagues_qr_code():
    with Table(config={"club": {"league_url": "http://10.0.0.5:8090/"}}) as t:
        t.press("7")                                   # Score log
        assert scanned(t) == [t.box.public_url()]
        assert "D:►" in t.screen()
        t.press("D")
        assert scanned(t) == ["http://10.0.0.5:8090/"] and "[League]" in t.screen()
        t.press("D")
        assert scanned(t) == [t.box.public_url() + "TABLE"]   # the table view's, then round again
        t.press("D")
        assert scanned(t) == [t.box.public_url()]
    with Table() as t:                                 # no club: no page for it
        t.press("7")
        t.press("D")
        t.press("D")
        assert scanned(t) == [t.box.public_url()] and "League" not in t.screen()


def test_club_config_names_what_is_wrong():
    from referee.config import ConfigError, parse
    good = parse({"club": {"broker": "mqtts://broker.club:8883", "table": "north"}})
    assert good.club.address() == ("broker.club", 8883, True)
    assert parse({}).club.broker == ""                 # no club: nothing published
    for club, said in [({"broker": "http://x", "table": "a"}, "club.broker: 'http://x' is not mqtt://"),
                       ({"broker": "mqtt://x:99999", "table": "a"}, "club.broker"),
                       ({"broker": "mqtt://x", "table": "a/b"}, "club.table: 'a/b': use 1-32 letters"),
                       ({"name": "#"}, "club.name: '#'"),
                       ({"ca": "/nonexistent.pem"}, "club.ca: /nonexistent.pem: no such file")]:
        with pytest.raises(ConfigError, match=re.escape(said)):
            parse({"club": club})


def test_club_unit_is_accepted_and_sandboxed(tmp_path):
    from test_pi import ROOT, systemd_analyze
    unit = ROOT / "systemd" / "referee-club.service"
    text = unit.read_text().replace("ExecStart=/opt/referee/venv/bin/referee", f"ExecStart={sys.executable} -m referee.cli")
    (tmp_path / unit.name).write_text(text)
    done = subprocess.run([systemd_analyze(), "verify", str(tmp_path / unit.name)], capture_output=True, text=True)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    done = subprocess.run([systemd_analyze(), "security", "--offline=yes", str(unit)], capture_output=True, text=True)
    score = re.search(r"Overall exposure level for referee-club\.service: ([0-9.]+)", done.stdout)
    assert score and float(score.group(1)) <= 2.0, done.stdout


@pytest.mark.parametrize("club, said", [("", "[club] has no broker: nothing to publish to"),
                                        ('broker = "mqtt://x"', "[club] has no table: name this box's table")])
def test_club_publisher_without_a_broker_or_table_says_so_and_exits_2(tmp_path, club, said):
    config = tmp_path / "config.toml"
    config.write_text(f'database = "x.db"\n[club]\n{club}\n')
    done = subprocess.run([sys.executable, "-m", "referee.cli", "club", "--config", str(config)],
                          capture_output=True, text=True, timeout=WAIT)
    assert done.returncode == 2
    assert said in done.stderr


@pytest.mark.parametrize("club", [True], indirect=True)
def test_club_example_acl_lets_each_box_publish_only_under_its_own_table(club):
    broker, league, box = club
    north = box("north")
    north.table.start("davinci", players=["Ann", "Bob"])
    league.until(lambda: table_of(league.api(), "north").get("game") == "davinci", "north, logged in, playing")
    # North's login trying to speak for the south table, and a stranger: neither gets through.
    rogue = Sniffer(broker, login=("north", "north-secret"))
    rogue.publish(f"referee/{CLUB}/south/status", messages.encode(messages.Status(
        v=1, kind="status", table="south", online=True, at=time.time())))
    with pytest.raises(AssertionError, match="never got in"):
        Sniffer(broker, login=("north", "wrong"))
    # The league's own login writes nothing, not even as a table called "league" (issue 27).
    reader = Sniffer(broker, login=("league", "league-secret"))
    reader.publish(f"referee/{CLUB}/league/status", messages.encode(messages.Status(
        v=1, kind="status", table="league", online=True, at=time.time())))
    # North again after that: once the league has it, it has seen the forgeries too.
    north.table.press("#")
    league.until(lambda: league.api()["games"] and league.api()["games"][0]["rounds"] == [] and
                 _arrivals(league, "north")[-1:] == north.rows()[-1:], "north's next row")
    assert table_of(league.api(), "south") == {} and table_of(league.api(), "league") == {}
    assert league.api()["health"]["refused"] == 0      # stopped by the broker, never sent on
    reader.close()
    rogue.close()


def test_the_score_log_screen_writes_the_address_whole():
    with Table(config={"web": {"public_url": "http://192.168.100.123:8080/"}}) as t:
        t.press("7")
        assert t.box.shown["main"].lines == ("192.168.", "100.123", ":8080/")
        assert scanned(t) == ["http://192.168.100.123:8080/"]
    with Table(config={"web": {"public_url": "http://box.lan/"}}) as t:    # room for the prompt too
        t.press("7")
        assert t.box.shown["main"].lines == ("Scan for", "tonight's", "scores", "box.lan/")


@pytest.mark.parametrize("club", ["tls"], indirect=True)
def test_club_over_tls_with_the_clubs_own_ca(club):
    broker, league, box = club
    north = box("north")
    stranger = box("south", trust=False)     # no [club] ca: the system's CAs do not know the club's
    north.table.start("davinci", players=["Ann", "Bob"])
    stranger.table.start("davinci", players=["Cid", "Dan"])
    league.until(lambda: table_of(league.api(), "north").get("game") == "davinci", "north over TLS")
    assert table_of(league.api(), "south") == {}
    said, give_up = "", dt.datetime.now() + dt.timedelta(seconds=WAIT)
    while "certificate verify failed" not in said:   # the publisher says why, once
        said = stranger.log.read_text() if stranger.log.exists() else ""
        assert stranger.proc.poll() is None and dt.datetime.now() < give_up, said
        threading.Event().wait(0.05)   # its log is a file: looked at again a moment later


# --- players across the club's tables (issue 28) -------------------------------------------------

def league_player(league: League, who: str) -> dict | None:
    status, body = league.get(f"/api/p/{who}.json")
    return json.loads(body) if status == 200 else None


def test_the_league_rates_a_name_met_at_two_tables_as_one_player(club):
    from referee.web.players import model
    broker, league, box = club
    north, south = box("north", 1), box("south", 2)
    north.table.start("davinci", players=["Ann", "<b>Bob</b>"])
    davinci_win(north.table)
    south.table.start("davinci", players=["ann", "Cid"])
    davinci_win(south.table)
    league.until(lambda: (league_player(league, "ann") or {}).get("played") == 2, "Ann's two tables")
    first = model().rate([[model().rating()], [model().rating()]], ranks=[1, 2])
    second = model().rate([[first[0][0]], [model().rating()]], ranks=[1, 2])
    ann = league_player(league, "ann")
    assert ann["games"]["davinci"]["rating"]["mu"] == pytest.approx(second[0][0].mu)
    assert ann["games"]["davinci"]["rating"]["games"] == 2
    assert {a["name"] for a in ann["against"]} == {"<b>Bob</b>", "Cid"}
    status, page = league.get("/p/@ann")
    assert status == 200
    assert "north" in page.decode() and "south" in page.decode()
    assert "&lt;b&gt;Bob&lt;/b&gt;" in page.decode() and "<b>Bob" not in page.decode()
    status, everyone = league.get("/p/?by=name")
    assert status == 200 and everyone.decode().count('href="/p/') >= 3
    assert league.get("/p/nobody")[0] == 404 and league.get("/p/?by=nonsense")[0] == 400
    status, evening = league.get(f"/e/{day_of(north.table)}")
    assert b'href="/p/@ann">Ann<' in evening and b'href="/p/@cid">Cid<' in evening   # the standings lead there


def test_the_league_keeps_its_results_counts_late_games_in_order_and_speaks_its_language(tmp_path):
    """The league's web app, fed as its listener is fed: a game that reaches
    it late is rated in the order the games ended; its results outlive a
    restart; its pages speak the league's language with its headers."""
    import asyncio

    from aiohttp.test_utils import TestClient, TestServer

    from referee import i18n
    from referee.club.league import League as Store
    from referee.club.league_web import LeagueSite, make_app
    from referee.store.scorelog import as_json, game_entry
    from referee.web.players import model

    def entries(t: Table, table: str) -> list[tuple[str, bytes]]:
        store = t.box.store
        return [(messages.topic(CLUB, table, "event"), messages.encode(messages.Entry(
            v=1, kind="game", id=f"{table}:{row.id}:1", table=table, game=row.id, seq=1, at=0.0,
            entry=as_json(game_entry(store, row)))))
            for row in reversed(store.games())]

    with Table(seed=1) as early, Table(seed=2) as late:
        late.clock.advance(3600)                    # its game ends an hour after the other's
        early.start("davinci", players=["Ann", "Bob"])
        davinci_win(early)
        late.start("davinci", players=["Bob", "Ann"])
        davinci_win(late)
        path = str(tmp_path / "league.db")
        league = Store(path)
        for topic, payload in entries(late, "south") + entries(early, "north"):   # the earlier game last
            assert league.take(topic, payload) == "taken"
        first = model().rate([[model().rating()], [model().rating()]], ranks=[1, 2])      # Ann beats Bob
        second = model().rate([[first[1][0]], [first[0][0]]], ranks=[1, 2])          # then Bob beats Ann
        assert league.players.ratings[("davinci", "bob")].mu == pytest.approx(second[0][0].mu)
        league.close()
        league = Store(path)                         # a restart: the results are in the league's file
        assert league.players.ratings[("davinci", "ann")].mu == pytest.approx(second[1][0].mu)

        async def pages():
            i18n.use("cs")
            server = TestServer(make_app(LeagueSite(league)))
            async with TestClient(server) as client:
                answer = await client.get("/p/@ann")
                return answer.status, answer.headers, await answer.text()
        try:
            status, headers, page = asyncio.run(pages())
        finally:
            i18n.use("en")
            league.close()
        assert status == 200 and "Content-Security-Policy" in headers and headers["X-Frame-Options"] == "DENY"
        assert "Poslední hry" in page and "Vzájemné zápasy" in page     # in the league's language


def test_club_outbox_waits_for_a_box_that_has_made_no_store_yet(tmp_path):
    # The publisher may start before the box has written its store: until
    # the file appears there is nothing to send, and then it is read.
    from referee.club.outbox import Outbox

    store = str(tmp_path / "referee.db")
    outbox = Outbox(store, str(tmp_path / "club.db"))
    try:
        assert (outbox.changed(), outbox.current(), outbox.pending(), outbox.merges()) == (False, None, [], [])
        assert outbox.entries(1) == []
        with Table(config={"database": store}) as t:
            t.start("decrypto")
            assert outbox.changed()
            assert outbox.current() == t.box.store.setting("current") is not None
            assert outbox.pending() == [outbox.current()]
    finally:
        outbox.close()
