"""Club night under load: 20 boxes into one Mosquitto, one league.

Everything real but the tables themselves (virtual tables, on the manual
clock, so a key costs no waiting): the broker, a ``referee club`` process
per box, ``referee league``.  The load generator runs on the same cores.
"""
from __future__ import annotations

import asyncio
import datetime as dt
import http.client
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time

from bench.foundation import _quantile, press_timings
from referee.store.scorelog import evening_start
from referee.testing import Table

BOXES = 20
KEYS = 200
CLIENTS = 50
LOAD_SECONDS = 3.0


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _referee(*args: str, log: str) -> subprocess.Popen:
    script = os.path.join(os.path.dirname(sys.executable), "referee")
    with open(log, "ab") as out:
        return subprocess.Popen([script, *args], stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)


class _Club:
    def __init__(self, folder: str) -> None:
        self.folder = folder
        self.port = _free_port()
        conf = os.path.join(folder, "mosquitto.conf")
        with open(conf, "w") as f:
            f.write(f"listener {self.port} 127.0.0.1\nallow_anonymous true\nuser root\n")
        with open(os.path.join(folder, "mosquitto.log"), "ab") as out:
            self.broker = subprocess.Popen([shutil.which("mosquitto") or "/usr/sbin/mosquitto", "-c", conf],
                                           stdout=out, stderr=subprocess.STDOUT)
        self.url = f"mqtt://127.0.0.1:{self.port}"
        self.web = _free_port()
        self.day = None
        self.procs = [_referee("league", "--broker", self.url, "--club", "bench",
                               "--database", os.path.join(folder, "league.db"),
                               "--listen", f"127.0.0.1:{self.web}", log=os.path.join(folder, "league.log"))]

    def publisher(self, table: Table, name: str) -> subprocess.Popen:
        config = os.path.join(self.folder, f"{name}.toml")
        with open(config, "w") as f:
            f.write(f'database = "{table.database}"\n[club]\nbroker = "{self.url}"\nname = "bench"\ntable = "{name}"\n')
        proc = _referee("club", "--config", config, log=os.path.join(self.folder, f"{name}.log"))
        self.procs.append(proc)
        return proc

    def get(self, path: str) -> bytes:
        conn = http.client.HTTPConnection("127.0.0.1", self.web, timeout=30)
        try:
            conn.request("GET", path)
            return conn.getresponse().read()
        finally:
            conn.close()

    def seq(self, name: str, game: int) -> int:
        """The row of ``game`` the league has from table ``name`` (the
        tables' manual clocks are months back: their evening, not tonight)."""
        games = json.loads(self.get(f"/api/e/{self.day}"))["games"]
        return max((g["seq"] for g in games if g["table"] == name and g["id"] == game), default=-1)

    def wait(self, done, limit: float = 30.0) -> None:
        """Until ``done()``, waking on each change the league takes."""
        end = time.monotonic() + limit
        while True:
            try:
                conn = http.client.HTTPConnection("127.0.0.1", self.web, timeout=limit)
                conn.request("GET", "/live")
                stream = conn.getresponse()
                break
            except ConnectionRefusedError:
                if time.monotonic() > end:
                    raise
                time.sleep(0.05)   # the league is starting
        try:
            while not done():
                if time.monotonic() > end:
                    raise TimeoutError("the league did not catch up")
                stream.fp.readline()
        finally:
            conn.close()

    def close(self) -> None:
        for proc in self.procs:
            proc.send_signal(signal.SIGTERM)
        for proc in self.procs:
            proc.wait(10)
        self.broker.terminate()
        self.broker.wait(10)


def _rows(t: Table) -> int:
    return t.box.store._db.execute("SELECT COALESCE(MAX(seq), 0) FROM events WHERE game = ?",
                                   (t.box.session.id,)).fetchone()[0]


def evening() -> dict:
    with tempfile.TemporaryDirectory(prefix="club-bench-") as folder:
        club = _Club(folder)
        tables = [Table(seed=n, config={"dice": {"driver": "software"}}) for n in range(BOXES)]
        try:
            names = [f"t{n:02d}" for n in range(BOXES)]
            club.day = dt.date.fromtimestamp(evening_start(tables[0].clock.wall()))
            club.wait(lambda: json.loads(club.get("/api/tonight"))["broker"])
            for t, name in zip(tables, names):
                club.publisher(t, name)
                t.start("davinci", players=[f"A{name}", f"B{name}"])
                t.press("#")
            club.wait(lambda: all(club.seq(n, 1) >= 1 for n in names))
            delays = []
            for i in range(KEYS):
                t, name = tables[i % BOXES], names[i % BOXES]
                if t.box.session.rules.is_over(t.box.session.state):
                    t.press("#")
                    t.start("davinci", players=[f"A{name}", f"B{name}"])
                    t.press("#")
                t.press("2")
                start = time.perf_counter()
                t.press("A")                       # a hit: one row, committed
                game, want = t.box.session.id, _rows(t)
                club.wait(lambda name=name, game=game, want=want: club.seq(name, game) >= want)
                delays.append((time.perf_counter() - start) * 1000)
            rps = asyncio.run(_load(club.web))
            return {"median_ms": statistics.median(delays), "p99_ms": _quantile(delays, 0.99), "rps": rps}
        finally:
            for t in tables:
                t.close()
            club.close()


async def _load(port: int) -> float:
    # Each client a phone of its own address, as at a club: the league's
    # page, like the box's, holds at most guard.PER_ADDRESS connections from
    # one address, and 50 from one would be a machine refused, not a crowd.
    import aiohttp
    from bench.crowd import guest
    done = 0
    end = time.monotonic() + LOAD_SECONDS

    async def client(n):
        nonlocal done
        async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(guest(n), 0))) as session:
            while time.monotonic() < end:
                async with session.get(f"http://127.0.0.1:{port}/") as answer:
                    await answer.read()
                    done += answer.status == 200

    await asyncio.gather(*(client(n) for n in range(CLIENTS)))
    return done / LOAD_SECONDS


def key_to_frame_with_club(presses: int = 500) -> dict:
    """The standard key → frame measure on one box, without and with its
    publisher following its store (and publishing a row between presses)."""
    result = {}
    with tempfile.TemporaryDirectory(prefix="club-bench-") as folder:
        club = _Club(folder)
        try:
            for on in (False, True):
                with Table(seed=1, config={"dice": {"driver": "software"}}) as t:
                    if on:
                        club.publisher(t, "frame")
                    t.press("6")
                    samples = press_timings(t, presses)
                    result["on" if on else "off"] = _quantile(samples, 0.99)
        finally:
            club.close()
    return result


def rows():
    e = evening()
    yield f"club: key → league page, {BOXES} boxes, median", f"{e['median_ms']:.1f} ms", "reported", True
    yield f"club: key → league page, {BOXES} boxes, p99", f"{e['p99_ms']:.1f} ms", "≤ 200 ms", e["p99_ms"] <= 200
    yield f"club: league page, {CLIENTS} clients", f"{e['rps']:.0f} req/s", "≥ 500 req/s", e["rps"] >= 500
    k = key_to_frame_with_club()
    yield "club: key → frame p99, club off", f"{k['off']:.2f} ms", "reported", True
    yield "club: key → frame p99, club on", f"{k['on']:.2f} ms", "unchanged (≤ off + 1 ms)", k["on"] <= k["off"] + 1
