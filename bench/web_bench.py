"""The score log under a crowd: 50 phones at once asking for ``/`` and
``/api/evening`` of an evening of five games, answered by the web app (the
virtual table's, in its loop: the app's own speed), side by side with the
same bytes saved to files and served by ``python -m http.server``.  The
real box and web processes under hostile crowds are ``bench.crowd_bench``.

Both servers get the same load from one separate process: 50 clients on
loopback, each from an address of its own (as 50 phones; the web limits
connections per address), each asking again as soon as it has its answer,
for ``duration`` seconds a path.  The clients ask for gzip, as phones do;
the web keeps each answer rendered and compressed until the next change at
the table, while ``http.server`` sends its file as it is and closes the
connection.  Apart, the first answer after a change, which renders the
page anew: what each key press costs the web app.

    python -m bench.web_bench       (or through ``make bench``)
"""
from __future__ import annotations

import asyncio
import json
import os
import random
import socket
import subprocess
import sys
import tempfile
import time

from games import base, davinci, decipher, decrypto
from referee.box.session import Session
from referee.testing import Table

CLIENTS = 50
PATHS = ("/", "/api/evening")
TARGET_RPS = 500     # issue targets for the box's own pages under 50 clients
TARGET_P99_MS = 50
TARGET_RATIO = 0.5   # the box's live pages at least half as fast as static files
# Pages follow a key press within 1 s on the Pi, several times slower than a
# laptop: rendering anew must take a small part of that here.
FIRST_ANSWER_MS = 100

# Runs in its own process: the load, then one line of JSON on stdout.
# The addresses are one argument, separated by spaces: each request asks
# for one of them at random (bench.replay_bench asks for many steps).
LOAD = r"""
import asyncio, json, math, random, sys, time
import aiohttp

async def main(urls, clients, seconds):
    latencies, errors = [], 0
    end = time.perf_counter() + seconds
    urls = urls.split()

    async def client(n):
        nonlocal errors
        rng = random.Random(n)
        # Each client a phone of its own, with an address of its own.
        connector = aiohttp.TCPConnector(local_addr=(f"127.0.{1 + n // 250}.{1 + n % 250}", 0))
        async with aiohttp.ClientSession(connector=connector, headers={"Accept-Encoding": "gzip"}) as session:
            while (start := time.perf_counter()) < end:
                try:
                    async with session.get(rng.choice(urls)) as response:
                        await response.read()
                        ok = response.status == 200
                except aiohttp.ClientError:
                    ok = False
                if ok:
                    latencies.append(time.perf_counter() - start)
                else:
                    errors += 1

    began = time.perf_counter()
    await asyncio.gather(*(client(n) for n in range(clients)))
    took = time.perf_counter() - began
    latencies.sort()
    p99 = latencies[math.ceil(0.99 * len(latencies)) - 1] if latencies else float("nan")
    print(json.dumps({"requests": len(latencies), "errors": errors,
                      "rps": round(len(latencies) / took, 1), "p99_ms": round(p99 * 1000, 2)}))

asyncio.run(main(sys.argv[1], int(sys.argv[2]), float(sys.argv[3])))
"""


def run(duration: float = 5.0, clients: int = CLIENTS) -> dict:
    """Requests a second and p99 latency for each path, from the box and
    from ``http.server``, and the box's share of the static server's rate."""
    with Table(seed=1) as t, tempfile.TemporaryDirectory(prefix="web-bench-") as folder:
        _an_evening(t)
        base_url = t.web_url().rstrip("/")
        box, fresh = {}, {}
        for path in PATHS:
            _save(folder, path, t.get(path)[2])
            fresh[path] = _first_answer_ms(t, path)
            box[path] = t.loop.run_until_complete(_load(base_url + path, clients, duration))
        port = _free_port()
        # -u: its "Serving HTTP on …" line, printed once it listens, arrives at once.
        static = subprocess.Popen([sys.executable, "-u", "-m", "http.server", str(port), "--bind", "127.0.0.1",
                                   "--directory", folder], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        try:
            if not static.stdout.readline().startswith("Serving HTTP"):
                raise RuntimeError("http.server did not start")
            files = {path: asyncio.run(_load(f"http://127.0.0.1:{port}{path}", clients, duration)) for path in PATHS}
        finally:
            static.terminate()
            static.wait(10)
    return {
        "clients": clients,
        "seconds_per_path": duration,
        "box": box,
        "http.server": files,
        "ratio": {path: round(box[path]["rps"] / files[path]["rps"], 2) for path in PATHS},
        "first_answer_after_a_change_ms": fresh,
    }


def rows():
    """The lines ``python -m bench`` prints: (measure, result, target, holds)."""
    r = run()
    for path in PATHS:
        mine, files = r["box"][path], r["http.server"][path]
        yield (f"web {path}, {r['clients']} clients", f"{mine['rps']:.0f} req/s",
               f"≥ {TARGET_RPS} req/s", mine["errors"] == 0 and mine["rps"] >= TARGET_RPS)
        yield (f"web {path}, p99", f"{mine['p99_ms']:.0f} ms", f"≤ {TARGET_P99_MS} ms", mine["p99_ms"] <= TARGET_P99_MS)
        yield (f"web {path} vs http.server", f"{r['ratio'][path]:.2f}× ({files['rps']:.0f} req/s)",
               f"≥ {TARGET_RATIO:g}×", r["ratio"][path] >= TARGET_RATIO)
        yield (f"web {path}, first answer after a key", f"{r['first_answer_after_a_change_ms'][path]:.1f} ms",
               f"≤ {FIRST_ANSWER_MS} ms", r["first_answer_after_a_change_ms"][path] <= FIRST_ANSWER_MS)


def _first_answer_ms(t: Table, path: str, times: int = 20) -> float:
    """The median time of the first answer after a change at the table,
    which renders the page anew: what a key press costs the web."""
    took = []
    for n in range(times):
        t.box.store.set_setting("bench", n)   # a change committed at the table, as any move
        t.box.changed()
        start = time.perf_counter()
        t.get(path)
        took.append(time.perf_counter() - start)
    return round(sorted(took)[times // 2] * 1000, 2)


async def _load(url: str, clients: int, seconds: float) -> dict:
    # The load runs in another process; meanwhile this loop serves it.
    process = await asyncio.create_subprocess_exec(sys.executable, "-c", LOAD, url, str(clients), str(seconds),
                                                   stdout=asyncio.subprocess.PIPE)
    out, _ = await process.communicate()
    return json.loads(out)


def _save(folder: str, path: str, text: str) -> None:
    name = os.path.join(folder, "index.html" if path == "/" else path.lstrip("/"))
    os.makedirs(os.path.dirname(name), exist_ok=True)
    with open(name, "w", encoding="utf-8") as f:
        f.write(text)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _an_evening(t: Table) -> None:
    """Five games straight into the store, as the box would have stored them."""
    _an_evening_in(t.box.store, t.clock.wall())


def _an_evening_in(store, at: float) -> None:
    rng = random.Random(1)

    def play(name: str, options: dict, moves) -> None:
        session = Session.new(store, name, options, at)
        for move in moves:
            _answer(session, rng, at)
            session.apply(move(session.state) if callable(move) else move, at)
        _answer(session, rng, at)
        store.end_game(session.id, at + 1800)

    def guesses(miss: set):
        def move(s):
            now = decrypto.step(s)
            code = s.codes[now.of_team]
            right = now.kind == "decode" and now.team not in miss
            return decrypto.Guess(now.team, code if right else next(c for c in decrypto.CODES if c != code))
        return [move] * 4

    for players in (["Ann", "Bob", "Cy"], ["Ann", "Bob", "Cy", "Dan"]):
        n = len(players)
        plan = [e for maker in range(n)
                for e in (decipher.No(), decipher.Yes(), decipher.Guess((maker + 1) % n, True), decipher.NextRound())]
        play("decipher", {"players": players}, plan[:-1])
    play("davinci", {"players": ["Ann", "Bob"]}, [davinci.Dealt(), *[davinci.Attack(1, True)] * 4])
    clues = [decrypto.CluesDone(0), decrypto.CluesDone(1)]
    play("decrypto", {}, clues + guesses(set())[:2] + clues + guesses({1}) + clues + guesses({1}))
    play("davinci", {"players": ["Eva", "Finn", "Gus"], "tournament": True}, [davinci.Dealt()])


def _answer(session: Session, rng: random.Random, at: float) -> None:
    """Draw what the rules ask for, as the box does."""
    while todo := [r for r in session.rules.requests(session.state) if not isinstance(r, base.Roll)]:
        request = todo[0]
        if isinstance(request, base.Pick):
            session.apply(base.Picked(request.purpose, rng.choice(request.options)), at)
        else:
            order = list(request.items)
            rng.shuffle(order)
            session.apply(base.Shuffled(request.purpose, tuple(order)), at)


if __name__ == "__main__":
    print(json.dumps(run(), indent=1))
