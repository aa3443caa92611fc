"""The table view under a room of screens (issue 38): a real ``referee run``
and ``referee web`` (``bench.processes``), the table tools on the box, and
``VIEWS`` table views open on ``/table/live``, each from a loopback address
of its own (a room of TVs and tablets: ``bench.room``), in a process of
their own at the web's ``Nice=10``, on the same two cores.

Each measured key is ``#`` on the tools' timer, which starts and pauses the
countdown in turn: every press changes the view.  The clocks are one:
``time.monotonic()`` is the system's, in the box, in this process and in
the views' process alike.

- **key → view changed**: from the moment the keypad could first have
  known the press (the box's ``took``: its ``due``) to the moment a view
  has read the message that shows the countdown running or paused as the
  key left it, for every view and every key;
- **the view's countdown against the box's**: each message gives a running
  countdown's seconds left; the moment it reaches zero on the view is the
  message's arrival plus those seconds.  On the box it is the moment the
  key started it (its frame: the countdown starts as the key is handled)
  plus the seconds it had left then (the control socket's ``state``).  The
  difference, for every view and every start;
- **key → frame at the box**: the ``took`` (``drawn - due``) of keys that
  write nothing (a digit typed on the timer, then ``*`` to clear it, after
  each ``#``), in blocks with no view open and with the views open, in
  turn.  A ``#`` commits an event and waits for the card's sync, whose
  time is the disk's, not the box's: it came and went by ten milliseconds
  between blocks and hid what the views cost.

    python -m bench.table_bench       (or through ``make bench``)
"""
from __future__ import annotations

import asyncio
import json

from bench import processes, room

VIEWS = 100
KEYS = 120                  # in all, with the views open; as many again with none
ROUNDS = 3                  # blocks of each, in turn
GAP = 0.25                  # seconds between two presses
VIEW_P99_MS = 250
COUNTDOWN_S = 0.5


def measure(views: int = VIEWS, keys: int = KEYS) -> dict:
    return asyncio.run(_measure(views, keys))


async def _measure(views: int, keys: int) -> dict:
    """Blocks of presses with no view open and with the views open, in turn
    (``ROUNDS`` of each), so that the machine's other load, which comes and
    goes, falls on both alike."""
    alone, watched, heard, web_cpu = [], [], [], 0.0
    with processes.temporary() as folder:
        async with processes.Table(folder) as t:
            await t.hand.press("6")                    # the table tools: a minute, not started
            for _ in range(ROUNDS):
                alone += _split(await _presses(t, keys // ROUNDS))
                async with room.Room("table", t.url, views) as screens:
                    before = processes.cpu_seconds(t.web.pid)
                    block = await _presses(t, keys // ROUNDS)
                    web_cpu += processes.cpu_seconds(t.web.pid) - before
                    web_rss = processes.memory_mb(t.web.pid, "VmRSS")
                    heard.append((block, await screens.leave()))   # the room goes home
                watched += _split(block)
    found = [_views([p for p in block if not p["quiet"]], screens) for block, screens in heard]
    lags = [lag for f in found for lag in f["lags"]]
    errors = sorted(e for f in found for e in f["errors"])
    q = processes.quantiles(lags)
    return {"alone": _frames(alone), "watched": _frames(watched), "views": views,
            "keys": sum(not p["quiet"] for p in watched),
            "view_median_ms": q["median_ms"], "view_p99_ms": q["p99_ms"], "missed": sum(f["missed"] for f in found),
            "countdown_max_s": errors[-1] if errors else float("nan"),
            "countdown_p99_s": errors[int(0.99 * (len(errors) - 1))] if errors else float("nan"),
            "web_rss_mb": web_rss, "web_cpu_per_key_ms": web_cpu * 1000 / max(1, len(watched))}


async def _presses(t: processes.Table, keys: int) -> list[dict]:
    """``keys`` presses of # (go, pause, go...), each with the box's took and
    the countdown it left, and after each a digit and ``*`` (typed, then
    cleared: nothing written), each with its took (``quiet``)."""
    done = []
    for _ in range(keys):
        await t.hand.press("#")
        took = json.loads(await t.hand.ask("took"))
        cd = json.loads(await t.hand.ask("state"))["state"]["countdown"]
        done.append({**took, "running": cd["started_at"] is not None, "left": cd["left"], "quiet": False})
        for key in ("5", "*"):
            await asyncio.sleep(GAP / 3)
            await t.hand.press(key)
            done.append({**json.loads(await t.hand.ask("took")), "quiet": True})
        await asyncio.sleep(GAP / 3)
    return done


def _split(presses: list[dict]) -> list[dict]:
    """Each press with the box's CPU it took (its loop inside ``Box.on_key``,
    the notice to the web included), the first of a block left out."""
    return [{**p, "cpu_key": p["cpu"] - before["cpu"]} for before, p in zip(presses, presses[1:])]


def _frames(presses: list[dict]) -> dict:
    """Key → frame of the keys that write nothing, and the box's own CPU
    per key (every key)."""
    cpu = sum(p["cpu_key"] for p in presses) * 1000 / max(1, len(presses))
    quiet = [(p["drawn"] - p["due"]) * 1000 for p in presses if p["quiet"]]
    return {**processes.quantiles(quiet), "cpu_ms": cpu}


def _views(presses: list[dict], heard: list[list]) -> dict:
    """For every key and every view: how long until it showed the key's
    countdown, and how far its countdown's end was from the box's."""
    lags, errors, missed = [], [], 0
    for key, seen in room.first_seen(presses, heard, lambda key, note: note[1] == key["running"], grace=1.0):
        if seen is None:
            missed += 1
            continue
        lags.append((seen[0] - key["due"]) * 1000)
        if key["running"]:
            errors.append(abs((seen[0] + seen[2]) - (key["drawn"] + key["left"])))
    return {"lags": lags, "errors": errors, "missed": missed}


def rows():
    """The lines ``python -m bench`` prints: (measure, result, target, holds)."""
    r = measure()
    n = r["views"]
    yield (f"table view: key → view changed, {n} views, median", f"{r['view_median_ms']:.1f} ms", "reported", True)
    yield (f"table view: key → view changed, {n} views, p99", f"{r['view_p99_ms']:.1f} ms ({r['missed']} missed)",
           f"≤ {VIEW_P99_MS} ms", r["view_p99_ms"] <= VIEW_P99_MS and r["missed"] == 0)
    yield (f"table view: countdown against the box's, {n} views, max", f"{r['countdown_max_s'] * 1000:.0f} ms",
           f"≤ {COUNTDOWN_S * 1000:.0f} ms", r["countdown_max_s"] <= COUNTDOWN_S)
    quiet = "table view: key → frame p99 (keys that write nothing)"
    yield f"{quiet}, no view", f"{r['alone']['p99_ms']:.2f} ms", "reported", True
    yield (f"{quiet}, {n} views", f"{r['watched']['p99_ms']:.2f} ms", "unchanged (≤ none + 1 ms)",
           r["watched"]["p99_ms"] <= r["alone"]["p99_ms"] + 1)
    yield ("table view: box CPU per key, no view / with views", f"{r['alone']['cpu_ms']:.2f} / "
           f"{r['watched']['cpu_ms']:.2f} ms", "reported", True)
    yield f"table view: web CPU per key, {n} views", f"{r['web_cpu_per_key_ms']:.1f} ms", "reported", True
    yield f"table view: web RSS, {n} views", f"{r['web_rss_mb']:.1f} MB", "reported", True


if __name__ == "__main__":
    print(json.dumps(measure(), indent=1))
