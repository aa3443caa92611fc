"""Phones on the Tonight page follow the table (issue 16: "within a
second"): a real ``referee run`` and ``referee web`` (``bench.processes``),
a game of Da Vinci Code for two in play on the box, and ``PHONES`` phones
on ``/``, each from a loopback address of its own, following ``/live`` as
the page's script does (``bench.room``, kind ``tonight``): on a message of
a version the page does not have, the page is fetched again.

Each measured key changes what the game's card on the Tonight page says:
``B``, Player 1's attack on Player 2 missed, hands the turn to Player 2
with a tile less in the pool; the take-back (``*`` held, then ``#``) gives
it back.  The two alternate, so the pool the card shows goes 15, 14, 15...
The clocks are one: ``time.monotonic()`` is the system's, in the box, in
this process and in the phones' process alike.

- **key → live message**: from the moment the keypad could first have
  known the press (the box's ``took``: its ``due``) to a phone's first
  message on ``/live`` after it.  The keys between two measured ones (the
  digit naming the attacked player, the hold of ``*``) are followed by
  ``GAP`` of quiet, so that the first message after a measured key is its
  own;
- **key → page shows it**: to the moment a phone has read the page fetched
  anew that shows the pool as the key left it (the control socket's
  ``state``): what a player sees change.  A phone that has not shown it
  when the next measured key is pressed, at least ``GAP`` later, missed it.

    python -m bench.live_bench       (or through ``make bench``)
"""
from __future__ import annotations

import asyncio
import json
import re

from bench import processes, room
from hal.keys import HOLD

PHONES = 50                 # the web's crowd figure elsewhere in the bench
KEYS = 100                  # measured: misses and their take-backs, half each
GAP = 1.0                   # seconds of quiet before a measured key, and after the last one
PAGE_P99_MS = 1000          # issue 16: the phone's page follows a key within a second
POOL = re.compile(r"(\d+) tiles? in the pool")


def measure(phones: int = PHONES, keys: int = KEYS) -> dict:
    return asyncio.run(_measure(phones, keys))


async def _measure(phones: int, keys: int) -> dict:
    with processes.temporary() as folder:
        async with processes.Table(folder) as t:
            for key in "4##":                  # Da Vinci Code, two players, the default options; Player 1 starts
                await t.hand.press(key)
            async with room.Room("tonight", t.url, phones) as crowd:
                before = processes.cpu_seconds(t.web.pid)
                presses = await _presses(t, keys)
                web_cpu = processes.cpu_seconds(t.web.pid) - before
                web_rss = processes.memory_mb(t.web.pid, "VmRSS")
                heard = await crowd.leave()
    messages, missed_messages = _lags(presses, heard, lambda key, note: note[1] == "live")
    pages, missed = _lags(presses, heard, _shows)
    return {"phones": phones, "keys": len(presses), "box_nice": t.box_nice,
            **{f"live_{k}": v for k, v in processes.quantiles(messages).items()}, "live_missed": missed_messages,
            **{f"page_{k}": v for k, v in processes.quantiles(pages).items()}, "page_missed": missed,
            "web_rss_mb": web_rss, "web_cpu_per_key_ms": web_cpu * 1000 / max(1, len(presses))}


async def _presses(t: processes.Table, keys: int) -> list[dict]:
    """``keys`` measured presses, a miss and its take-back in turn, each with
    the box's ``took`` and the pool it left."""
    done = []
    while len(done) < keys:
        await t.hand.press("2")                # Player 1 attacks Player 2...
        await asyncio.sleep(GAP)
        done.append(await _measured(t, "B"))   # ... and misses: Player 2 to play, a tile less in the pool
        await _answer(t.hand.ask("down *"))
        await asyncio.sleep(HOLD + 0.1)
        await _answer(t.hand.ask("up *"))      # "Take back: P1 misses P2?"
        await asyncio.sleep(GAP)
        done.append(await _measured(t, "#"))   # yes: Player 1 to play again, the tile back in the pool
    await asyncio.sleep(GAP)                   # the last key has its time too
    return done[:keys]


async def _measured(t: processes.Table, key: str) -> dict:
    await t.hand.press(key)
    took = json.loads(await t.hand.ask("took"))
    return {**took, "pool": json.loads(await t.hand.ask("state"))["state"]["pool"]}


async def _answer(asked) -> None:
    answer = await asked
    if answer != "ok":
        raise RuntimeError(answer)


def _shows(key: dict, note: list) -> bool:
    """A page fetched anew whose card shows the pool as the key left it."""
    found = POOL.search(note[2]) if note[1] == "page" else None
    return found is not None and int(found.group(1)) == key["pool"]


def _lags(presses: list[dict], heard: list[list], shows) -> tuple[list[float], int]:
    lags, missed = [], 0
    for key, seen in room.first_seen(presses, heard, shows):
        if seen is None:
            missed += 1
        else:
            lags.append((seen[0] - key["due"]) * 1000)
    return lags, missed


def rows():
    """The lines ``python -m bench`` prints: (measure, result, target, holds)."""
    r = measure()
    n = r["phones"]
    yield f"Tonight page: key → /live message, {n} phones, median", f"{r['live_median_ms']:.1f} ms", "reported", True
    yield (f"Tonight page: key → /live message, {n} phones, p99", f"{r['live_p99_ms']:.1f} ms "
           f"({r['live_missed']} missed)", "reported", True)
    yield f"Tonight page: key → page shows it, {n} phones, median", f"{r['page_median_ms']:.1f} ms", "reported", True
    yield (f"Tonight page: key → page shows it, {n} phones, p99", f"{r['page_p99_ms']:.1f} ms ({r['page_missed']} missed)",
           f"≤ {PAGE_P99_MS} ms", r["page_p99_ms"] <= PAGE_P99_MS and r["page_missed"] == 0)
    yield f"Tonight page: web CPU per key, {n} phones", f"{r['web_cpu_per_key_ms']:.1f} ms", "reported", True
    yield f"Tonight page: web RSS, {n} phones", f"{r['web_rss_mb']:.1f} MB", "reported", True


if __name__ == "__main__":
    print(json.dumps(measure(), indent=1))
