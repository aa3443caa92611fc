"""A start with a long game: a real ``referee run`` on a database holding
a game of 200 000 events (what a dice module flooding its button once
made), from exec to the box telling systemd it is ready, and its peak
memory; then the web process (``referee web``) answering ``/api/evening``
on that database (the table tools are not a game of the score log, so the
page lists them not; what it costs is that it reads past them).

The game is the table tools with 200 000 rolls, written straight into the
store as the box writes them, snapshots included (``referee.box.session``):
the rolls are played through the rules once to make them.  "Without
snapshots" is the same database with them deleted: the first start after an
update of the rules, which replays the game whole (and leaves a snapshot
for the next start).

    python -m bench.start_bench       (or through ``make bench``)
"""
from __future__ import annotations

import json
import os
import random
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

from games import base, tools
from referee.store import replay, snapshot
from referee.store.events import Store

EVENTS = 200_000
RUNS = 3
TARGET_S = 1.0
TARGET_MB = 60.0
READY_SECONDS = 120.0


def build(path: str, events: int = EVENTS, seed: int = 15) -> int:
    """A database whose current game is the table tools with ``events``
    rolls, a roll every 0.2 s of game clock; returns the game's id."""
    rng = random.Random(seed)
    store = Store(path)
    game = store.new_game("tools", {}, time.time())
    store.set_setting("current", game)
    store.close()
    state = tools.setup({})
    rows, snaps = [], []
    fingerprint = snapshot.fingerprint()
    for seq in range(1, events + 1):
        event = base.Rolled("dice", (rng.randint(1, 8), rng.randint(1, 8)), "module")
        at = seq * 0.2
        state = tools.apply(state, event, at)
        rows.append((game, seq, at, json.dumps(base.encode(event)), time.time()))
        if seq % replay.SNAPSHOT_EVERY == 0:
            snaps.append((game, seq, seq, at, fingerprint, snapshot.encode(state)))
    db = sqlite3.connect(path)
    with db:
        db.executemany("INSERT INTO events (game, seq, at, data, wall) VALUES (?, ?, ?, ?, ?)", rows)
        db.executemany("INSERT INTO snapshots (game, seq, depth, at, rules, state) VALUES (?, ?, ?, ?, ?, ?)", snaps)
    db.close()
    return game


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _peak_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmHWM")


def _config(folder: str, database: str) -> str:
    path = os.path.join(folder, "config.toml")
    with open(path, "w") as f:
        f.write(f'database = "{database}"\nlang = "en"\n[dice]\ndriver = "software"\n'
                f'[web]\nhost = "127.0.0.1"\nport = {_port()}\n')
    return path


def _command(*args: str) -> list[str]:
    return [sys.executable, "-m", "referee.cli", *args]


def start(folder: str, config: str) -> dict:
    """One ``referee run``: seconds from exec to READY=1, peak RSS then."""
    address = os.path.join(folder, "notify.sock")
    if os.path.exists(address):
        os.unlink(address)
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as listener:
        listener.bind(address)
        listener.settimeout(READY_SECONDS)
        env = {**os.environ, "NOTIFY_SOCKET": address}
        began = time.perf_counter()
        child = subprocess.Popen(_command("run", "--config", config), env=env,
                                 stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            while b"READY=1" not in listener.recv(4096):
                pass
            ready = time.perf_counter() - began
            peak = _peak_mb(child.pid)
        finally:
            child.send_signal(signal.SIGTERM)
            child.wait(30)
    return {"ready_s": ready, "rss_mb": peak}


def evening(config: str) -> dict:
    """``referee web`` on the database: the first ``/api/evening`` (which
    reads the long game), and the web process's peak RSS after it."""
    with open(config) as f:
        port = int(f.read().split("port = ")[1].split()[0])
    child = subprocess.Popen(_command("web", "--config", config), stdin=subprocess.DEVNULL,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        give_up = time.monotonic() + READY_SECONDS
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), 0.5).close()
                break
            except OSError:
                if time.monotonic() > give_up:
                    raise RuntimeError("the web did not come up") from None
                time.sleep(0.02)
        began = time.perf_counter()
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/evening", timeout=READY_SECONDS) as answer:
            games = json.loads(answer.read())
        took = time.perf_counter() - began
        peak = _peak_mb(child.pid)
    finally:
        child.send_signal(signal.SIGTERM)
        child.wait(30)
    if not isinstance(games, list):
        raise RuntimeError(f"/api/evening answered {games!r:.80}")
    return {"api_evening_ms": took * 1000, "web_rss_mb": peak}


def run(events: int = EVENTS) -> dict:
    with tempfile.TemporaryDirectory(prefix="referee-start-") as folder:
        # The same start on a new database: what the imports and devices
        # cost on this machine now, beside which the game's share shows.
        empty = os.path.join(folder, "empty.db")
        config = _config(folder, empty)
        bare = statistics.median(start(folder, config)["ready_s"] for _ in range(RUNS))
        database = os.path.join(folder, "referee.db")
        began = time.perf_counter()
        build(database, events)
        built = time.perf_counter() - began
        config = _config(folder, database)
        starts = [start(folder, config) for _ in range(RUNS)]
        web = evening(config)
        db = sqlite3.connect(database)
        with db:
            db.execute("DELETE FROM snapshots")
        db.close()
        whole = start(folder, config)   # replays it whole, leaves a snapshot
        after = start(folder, config)   # and the next start uses it
    return {"events": events, "build_s": built, "empty_ready_s": bare,
            "ready_s": statistics.median(s["ready_s"] for s in starts), "rss_mb": max(s["rss_mb"] for s in starts),
            "whole_ready_s": whole["ready_s"], "whole_rss_mb": whole["rss_mb"],
            "next_ready_s": after["ready_s"], **web}


def rows():
    """The lines ``python -m bench`` prints: (measure, result, target, holds)."""
    r = run()
    yield "start, 200 000-event game: exec → ready", f"{r['ready_s']:.2f} s", f"≤ {TARGET_S:g} s", r["ready_s"] <= TARGET_S
    yield "… the same start, new database", f"{r['empty_ready_s']:.2f} s", "reported", True
    yield "start, 200 000-event game: peak RSS", f"{r['rss_mb']:.1f} MB", f"≤ {TARGET_MB:g} MB", r["rss_mb"] <= TARGET_MB
    # A replay from the first row streams the rows (referee.box.session): its
    # memory is a start's, whatever the game's length.
    yield "… without snapshots (rules updated)", f"{r['whole_ready_s']:.2f} s", "reported", True
    yield "… without snapshots: peak RSS", f"{r['whole_rss_mb']:.1f} MB", f"≤ {TARGET_MB:g} MB", \
        r["whole_rss_mb"] <= TARGET_MB
    yield "… the start after that", f"{r['next_ready_s']:.2f} s", f"≤ {TARGET_S:g} s", r["next_ready_s"] <= TARGET_S
    yield "/api/evening on that game (web process)", f"{r['api_evening_ms']:.0f} ms, {r['web_rss_mb']:.0f} MB", "reported", True


if __name__ == "__main__":
    print(json.dumps(run(int(sys.argv[1]) if len(sys.argv) > 1 else EVENTS), indent=2))
