"""The league under a flood of merges: 10 000 chained merges (``nN`` into
``nN+1``, a thousand from each of ten tables, the most the league keeps of
one) published to a real Mosquitto (500 at once, as fast as the league
takes them: the broker would drop those past its queue), taken in by a real ``referee league``
while a phone keeps asking for its page, then a game of the first name of
the chain and one merge more.  Before merges were judged one message at a
time, 400 such merges took two minutes to take in, the page waited up to
4.8 s meanwhile, and each game after them took 1.2-1.6 s.
"""
from __future__ import annotations

import http.client
import json
import os
import statistics
import sys
import tempfile
import threading
import time

import paho.mqtt.client as paho

from bench.club_bench import _Club
from bench.foundation import _quantile
from referee.club import messages

MERGES = 10_000
TABLES = 10
BATCH = 500      # published at once, then waited for: Mosquitto queues at most 1000 for a client, and drops the rest
CLUB = "bench"


def _merge(n: int, now: float) -> tuple[str, bytes]:
    table = f"t{min(TABLES - 1, (n - 1) * TABLES // MERGES):02d}"
    return messages.topic(CLUB, table, "merge", str(n)), messages.encode(messages.Merge(
        v=1, kind="merge", table=table, id=n, name=f"n{n}", into=f"n{n + 1}", at=now - 600))


def _game(now: float) -> tuple[str, bytes]:
    entry = {"id": 1, "game": "davinci", "started": now - 300, "ended": now - 60, "status": "finished",
             "players": ["n1", "Bob"], "winners": ["n1"], "totals": {"n1": 1, "Bob": 0}, "scored": False}
    return messages.topic(CLUB, "t00", "event"), messages.encode(messages.Entry(
        v=1, kind="event", id="t00:1:1", table="t00", game=1, seq=1, at=5.0, entry=entry))


def _taken(club: _Club) -> int:
    return json.loads(club.get("/api/tonight"))["health"]["since_start"]["taken"]


def _cpu_seconds(pid: int) -> float:
    """A process's CPU time so far (user and system), which other load on the machine does not change."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _status(club: _Club, path: str) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", club.web, timeout=30)
    try:
        conn.request("GET", path)
        answer = conn.getresponse()
        answer.read()
        return answer.status
    finally:
        conn.close()


def _until(done, every: float = 0.1, limit: float = 300.0) -> None:
    """Looks every ``every`` s (the league's whole JSON at each look: not at each change)."""
    end = time.monotonic() + limit
    while not done():
        if time.monotonic() > end:
            raise TimeoutError("the league did not catch up")
        time.sleep(every)


def flood() -> dict:
    with tempfile.TemporaryDirectory(prefix="league-bench-") as folder:
        club = _Club(folder)
        sender = paho.Client(paho.CallbackAPIVersion.VERSION2)
        try:
            club.wait(lambda: json.loads(club.get("/api/tonight"))["broker"])
            sender.connect("127.0.0.1", club.port)
            sender.loop_start()
            now = time.time()
            pages: list[float] = []
            done = threading.Event()

            def phone() -> None:      # one phone asking for tonight's page again and again
                while not done.is_set():
                    start = time.perf_counter()
                    conn = http.client.HTTPConnection("127.0.0.1", club.web, timeout=60)
                    conn.request("GET", "/")
                    conn.getresponse().read()
                    conn.close()
                    pages.append((time.perf_counter() - start) * 1000)

            asker = threading.Thread(target=phone)
            cpu = _cpu_seconds(club.procs[0].pid)
            start = time.perf_counter()
            asker.start()
            for first in range(1, MERGES + 1, BATCH):
                last = min(first + BATCH, MERGES + 1)
                sent = [sender.publish(*_merge(n, now), qos=1) for n in range(first, last)]
                for info in sent:
                    info.wait_for_publish(60)
                _until(lambda last=last: _taken(club) >= last - 1, every=0.5)
            take_in = time.perf_counter() - start
            cpu = _cpu_seconds(club.procs[0].pid) - cpu
            done.set()
            asker.join()
            start = time.perf_counter()
            sender.publish(*_game(now), qos=1)
            club.wait(lambda: _status(club, f"/api/p/n{MERGES + 1}.json") == 200, limit=60)   # n1 counts as the end
            game_ms = (time.perf_counter() - start) * 1000
            start = time.perf_counter()
            sender.publish(*_merge(MERGES + 1, now), qos=1)     # past t09's thousand: refused, said
            _until(lambda: json.loads(club.get("/api/tonight"))["health"]["since_start"]["refused"] >= 1)
            shown = json.loads(club.get("/api/tonight"))["merges"]
            joined = sum(j["joined"] for j in shown)
            return {"take_in_s": take_in, "take_in_cpu_s": cpu, "page_p99_ms": _quantile(pages, 0.99), "page_max_ms": max(pages),
                    "page_median_ms": statistics.median(pages), "pages": len(pages), "game_ms": game_ms,
                    "joined": joined}
        except Exception:
            with open(os.path.join(folder, "league.log")) as said:     # what the league said, for whoever reads
                print(said.read()[-4000:], file=sys.stderr)
            raise
        finally:
            sender.loop_stop()
            sender.disconnect()
            club.close()


def rows():
    f = flood()
    yield (f"league: {MERGES} chained merges taken in", f"{f['take_in_s']:.1f} s",
           "≤ 60 s", f["take_in_s"] <= 60 and f["joined"] == MERGES)
    yield ("league: … its CPU for the take-in, its pages included", f"{f['take_in_cpu_s']:.1f} s", "reported", True)
    yield (f"league: its page meanwhile, p99 ({f['pages']} asked)", f"{f['page_p99_ms']:.0f} ms",
           "≤ 1000 ms", f["page_p99_ms"] <= 1000)
    yield "league: … its page meanwhile, median / max", \
        f"{f['page_median_ms']:.0f} / {f['page_max_ms']:.0f} ms", "reported", True
    yield f"league: a game after {MERGES} merges, taken", f"{f['game_ms']:.0f} ms", "≤ 200 ms", f["game_ms"] <= 200


if __name__ == "__main__":
    print(json.dumps(flood(), indent=2))
