"""The replay under a crowd (issue 38): step pages of a 300-action game.

An evening of finished Osmišifry games for five players, each of its 31
creation rounds rolled and picked (341 player actions a game), is written
straight into the store of a virtual table, as the box would have stored
it.  Then, from the web app (the table's, in its loop: the app's own
speed):

- the first step page of a game never opened before, which replays the
  game from its rows and renders it: each game of the evening once, the
  slowest of them;
- 50 clients on loopback (a separate process; each from an address of its
  own, as 50 phones, each asking again at once) opening random step pages
  of one game, the p99 of their answers;
- after every game was opened, how many records the web keeps
  (``referee.web.steps.KEPT_RECORDS``): memory bounded whatever is opened.

    python -m bench.replay_bench       (or through ``make bench``)
"""
from __future__ import annotations

import json
import random
import time

from bench import web_bench
from games import base, osmisifry as osm
from referee.box.session import Session
from referee.testing import Table
from referee.web import replay, steps

CLIENTS = 50
GAMES = 12                # more than the web keeps built, so that the first answers stay cold
TARGET_P99_MS = 50
TARGET_FIRST_MS = 200


def long_game(store, at: float, seed: int) -> int:
    """An Osmišifry game for five, its 31 creation rounds played, then left:
    every letter rolled and picked, each a player action."""
    rng = random.Random(seed)
    session = Session.new(store, "osmisifry", {"players": 5}, at)
    while (now := osm.step(session.state)).kind in ("roll_letter", "pick"):
        at += 5.0
        if now.kind == "roll_letter":
            session.apply(base.Rolled("letter", (rng.randint(1, 8), rng.randint(1, 8))), at)
        else:
            row = osm.public(session.state).rows[session.state.round - 1]
            free = [i for i, taker in enumerate(row.taken) if taker is None]
            session.apply(osm.PickLetter(now.player, rng.choice(free)), at)
    store.end_game(session.id, at + 60)
    return session.id


def run(duration: float = 5.0, clients: int = CLIENTS) -> dict:
    with Table(seed=1) as t:
        games = [long_game(t.box.store, t.clock.wall(), seed) for seed in range(GAMES)]
        t.box.changed()
        actions = len(json.loads(t.get(f"/api/g/{games[0]}/steps.json")[2])["steps"]) - 1
        first = []
        for game in games[1:]:
            start = time.perf_counter()
            status, _h, _page = t.get(f"/g/{game}/step/0")
            first.append((time.perf_counter() - start) * 1000)
            assert status == 200
        kept = _records(t)
        t.get(f"/g/{games[0]}/step/0")       # the crowd's game has been opened: its first step is the row above
        base_url = t.web_url().rstrip("/") + f"/g/{games[0]}/step/"
        every_step = " ".join(f"{base_url}{k}" for k in range(actions + 1))
        crowd = t.loop.run_until_complete(web_bench._load(every_step, clients, duration))
    first.sort()
    return {"actions": actions, "clients": clients, "seconds": duration, "crowd": crowd,
            "first_step_ms": {"median": round(first[len(first) // 2], 1), "max": round(first[-1], 1)},
            "records_kept": kept, "records_most": steps.KEPT_RECORDS, "games_opened": len(games)}


def _records(t: Table) -> int:
    """How many records the table's web app keeps built."""
    return len(t._web.app[replay.REPLAY].records)


def rows():
    """The lines ``python -m bench`` prints: (measure, result, target, holds)."""
    r = run()
    crowd = r["crowd"]
    yield (f"replay step page, {r['actions']}-action game, {r['clients']} clients, p99", f"{crowd['p99_ms']:.0f} ms "
           f"({crowd['rps']:.0f} req/s)", f"≤ {TARGET_P99_MS} ms", crowd["errors"] == 0 and crowd["p99_ms"] <= TARGET_P99_MS)
    yield ("replay, first step of a game never opened, worst", f"{r['first_step_ms']['max']:.0f} ms "
           f"(median {r['first_step_ms']['median']:.0f})", f"≤ {TARGET_FIRST_MS} ms",
           r["first_step_ms"]["max"] <= TARGET_FIRST_MS)
    yield (f"replay records kept after {r['games_opened']} games opened", str(r["records_kept"]),
           f"≤ {r['records_most']}", r["records_kept"] <= r["records_most"])


if __name__ == "__main__":
    print(json.dumps(run(), indent=1))
