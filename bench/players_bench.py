"""Players' history on years of data (issue 28): a store with five years of
weekly evenings, six games an evening, four named players a game out of a
club of sixteen (1 560 games), the web's ledger counted once, then

- a player's page (with their rivals and places on the ladders) and a
  game's ladder (issue 37) from a real ``referee web`` under 50 clients:
  p99 of each; and what working each out anew costs, in this process;
- one more finished game: the web's CPU to take it in (its replay and its
  rating update), the ledger's ``update`` alone;
- a merge of two names (issue 28's one person, one name): every game
  counted again, the web's CPU.

    python -m bench.players_bench      (or through ``make bench``)
"""
from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time

from bench.start_bench import _command, _config
from bench.web_bench import _load
from games import decipher
from referee.box.session import Session
from referee.store.events import Store
from referee.web.players import Ledger, model

EVENINGS = 260
GAMES = 6
CLUB = ["Ania", "Bartek", "Cyril", "Dana", "Ema", "Filip", "Greta", "Hugo",
        "Ivana", "Jakub", "Klára", "Lukáš", "Marta", "Nikola", "Olga", "Petr"]
CLIENTS = 50
P99_MS = 50.0
UPDATE_MS = 5.0
WEEK = 7 * 24 * 3600


def _plan(n: int, rng: random.Random) -> list:
    """A Decipher game for ``n`` players: each maker's word is guessed by
    someone, the winner by chance of the seats."""
    moves = []
    for maker in range(n):
        solver = rng.choice([s for s in range(n) if s != maker])
        moves += [decipher.No(), decipher.Yes(), decipher.Guess(solver, True), decipher.NextRound()]
    return moves[:-1]


def play(store: Store, rng: random.Random, at: float) -> int:
    players = rng.sample(CLUB, 4)
    session = Session.new(store, "decipher", {"players": players}, at)
    for move in _plan(4, rng):
        session.apply(move, at)
    store.end_game(session.id, at + 1800)
    return session.id


def build(path: str, evenings: int = EVENINGS) -> None:
    store = Store(path)
    rng = random.Random(28)
    start = time.time() - evenings * WEEK
    for evening in range(evenings):
        for game in range(GAMES):
            play(store, rng, start + evening * WEEK + game * 2400)
    store.close()


def run(evenings: int = EVENINGS) -> dict:
    with tempfile.TemporaryDirectory(prefix="referee-players-") as folder:
        database = os.path.join(folder, "referee.db")
        build(database, evenings)
        ledger = Ledger.beside(database)
        store = Store.open_read_only(database)
        began = time.perf_counter()
        ledger.update(store)
        first = time.perf_counter() - began
        store.close()
        # One more game ends: what taking it in costs the web, in CPU time.
        writer = Store(database)
        play(writer, random.Random(1), time.time())
        writer.close()
        store = Store.open_read_only(database)
        began = time.process_time()
        made = ledger.update(store)
        update_ms = (time.process_time() - began) * 1000
        teams = [[model().rating()] for _ in range(4)]
        began = time.process_time()
        for _ in range(100):
            model().rate(teams, ranks=[1, 2, 2, 4])     # the rating update alone
        rate_ms = (time.process_time() - began) * 10
        store.close()
        writer = Store(database)
        writer.add_merge("bartek", "ania", time.time())     # as the box writes it for the merge page
        writer.close()
        store = Store.open_read_only(database)
        began = time.process_time()
        ledger.update(store)
        merge_s = time.process_time() - began
        merged = ledger.ratings.get(("decipher", "bartek")) is None
        store.close()
        anew = _anew(ledger)
        ledger.close()
        config = _config(folder, database)
        with open(config) as f:
            port = int(f.read().split("port = ")[1].split()[0])
        child = subprocess.Popen(_command("web", "--config", config), stdin=subprocess.DEVNULL,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            url = f"http://127.0.0.1:{port}/p/@ania"      # the page's own address, not a redirect to it
            load = asyncio.run(_ready_then_load(url))
            ladder = asyncio.run(_load(f"http://127.0.0.1:{port}/p/ladder/decipher", CLIENTS, 5.0))
        finally:
            child.send_signal(signal.SIGTERM)
            child.wait(30)
    return {"games": evenings * GAMES + 1, "first_count_s": first, "made": made, "update_ms": update_ms,
            "rate_ms": rate_ms, "merge_s": merge_s, "merged": merged, "page": load, "ladder": ladder, **anew}


def _anew(ledger: Ledger) -> dict:
    """Milliseconds to work out a ladder, and a player's rivals and places,
    from the counted ledger (what a page costs the first time after a game
    ends), the best of five."""
    import datetime as dt

    from referee.config import Ladder
    from referee.web.player_pages import ladder_page, places, rivals_view
    today, rules = dt.date.today(), Ladder()
    who = ledger.who("Cyril")
    timed = {}
    for name, work in (("ladder_ms", lambda: ladder_page(ledger, "decipher", rules, today, None)),
                       ("rivals_ms", lambda: (places(ledger, who, rules, today),
                                              rivals_view(ledger, who, lambda r: f"/g/{r.game}")))):
        best = float("inf")
        for _ in range(5):
            began = time.perf_counter()
            work()
            best = min(best, time.perf_counter() - began)
        timed[name] = best * 1000
    board = ladder_page(ledger, "decipher", rules, today, None)
    timed["ranked"] = len(board["ranked"])
    return timed


async def _ready_then_load(url: str) -> dict:
    give_up = time.monotonic() + 60
    while True:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-c", f"import urllib.request; urllib.request.urlopen({url!r}, timeout=60).read()",
            stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL)
        if await process.wait() == 0:
            break
        if time.monotonic() > give_up:
            raise RuntimeError("the web did not answer")
        await asyncio.sleep(0.05)
    return await _load(url, CLIENTS, 5.0)


def rows():
    """The lines ``python -m bench`` prints: (measure, result, target, holds)."""
    r = run()
    yield (f"players: first count of {r['games'] - 1} games (once, kept)", f"{r['first_count_s']:.1f} s",
           "reported", True)
    page = r["page"]
    yield (f"player page with rivals, {CLIENTS} clients, 5 years of games: p99", f"{page['p99_ms']:.1f} ms",
           f"≤ {P99_MS:g} ms", page["errors"] == 0 and page["p99_ms"] <= P99_MS)
    ladder = r["ladder"]
    yield (f"a game's ladder, {CLIENTS} clients, 5 years of games: p99", f"{ladder['p99_ms']:.1f} ms",
           f"≤ {P99_MS:g} ms", ladder["errors"] == 0 and ladder["p99_ms"] <= P99_MS and r["ranked"] > 0)
    yield "… the ladder worked out anew (after a game ends)", f"{r['ladder_ms']:.1f} ms", "reported", True
    yield "… a player's rivals and places worked out anew", f"{r['rivals_ms']:.1f} ms", "reported", True
    yield ("a finished game taken in by the web (replay + rating), CPU", f"{r['update_ms']:.1f} ms",
           f"≤ {UPDATE_MS:g} ms", r["made"] == 1 and r["update_ms"] <= UPDATE_MS)
    yield "… of which the rating update alone", f"{r['rate_ms']:.2f} ms", "reported", True
    yield ("a merge of two names: every game counted again, CPU", f"{r['merge_s']:.2f} s", "reported",
           r["merged"])


if __name__ == "__main__":
    print(json.dumps(run(int(sys.argv[1]) if len(sys.argv) > 1 else EVENINGS), indent=2))
