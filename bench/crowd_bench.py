"""The table under a crowd at the web page (issue 16): the box as
``referee run`` and the web as ``referee web``, two processes as the
systemd units run them (``bench.processes``), an evening of five games in
the score log, the table tools on the box's screens.

Keys are pressed through the box's control socket, onto the simulated pins the
keypad is scanned from, one ``D`` (which flips the tools between two pages)
every 20 ms after the last one's frame.  Key → frame is the time from the
moment the keypad could first have known a press (its release debounced)
to the pictures handed to the displays, both read on the box's clock where
they happen; a key is lost if no new picture follows within a second.

First the box alone, then while each crowd works on the web for
``SECONDS``: 50 friendly clients asking for ``/``, then issue 16's three,
(a) 64 clients asking for every page with new random query strings, (b)
1000 idle connections held, (c) 300 live streams held (``bench.crowd``;
every client or connection from a loopback address of its own, a crowd of
guests each within the web's limit per address).  The crowd runs on the
same cores as the box and the web, at ``Nice=10`` like the web.  Meanwhile
a fresh phone (``bench.crowd.probe``, in this process, not in the crowd's
busy one) asks for ``/`` on a new connection every 50 ms from yet another
address.  Then a countdown on all three screens.

CPU time is read per thread (``/proc/PID/task/TID/schedstat``), which the
machine's other load does not change, and nothing is subtracted from it,
so no figure can come out below zero:

- **per key, with the control socket**: every thread of the box process over
  the presses, divided by the keys: the key's handling and pictures, the
  scan thread, the hand's own share (reading its socket, polling every
  2 ms until the box has taken the key, answering), which a finger does
  not cost, and whatever the box did meanwhile: an upper bound;
- **per key, without it**: the loop thread's CPU inside ``Box.on_key``
  (the flows, the rules, the store, the pictures drawn and handed to the
  panels), which the box counts itself (the hand's ``took``);
- **per timer tick**: the loop thread over ``TICKS`` ticks of a countdown
  redrawing all three screens, divided by the ticks (the loop's own idle
  housekeeping over that time included);
- **idle**: the loop thread, and all threads, per second with nothing
  happening, reported on its own.

    python -m bench.crowd_bench       (or through ``make bench``)
"""
from __future__ import annotations

import asyncio
import json
import os
import sys
import time

from bench import crowd, processes
from bench.processes import cpu_split, memory_mb

SECONDS = 8.0               # each crowd
ARRIVE = 2.0                # the crowd is there before the first key
QUIET_KEYS = 100
CROWDS = {"friendly": 50, "pages": 64, "idle": 1000, "sse": 300}
LABELS = {"friendly": "50 clients asking for /", "pages": "64 clients, random query strings",
          "idle": "1000 idle connections", "sse": "300 live streams"}
KEY_P99_MS = 10
FRESH_P99_MS = 100          # a phone arriving during (b) and (c)
BOX_RSS_MB = 40
PI_SLOWER = 8               # a Raspberry Pi Zero 2 W core against one of these
KEYS_PER_SECOND = 5         # a quick hand on the keypad
TICKS = 20                  # of a 30-second countdown
IDLE_SECONDS = 4.0

# The friendly crowd: clients asking for / as fast as answered, each from
# an address of its own (each a phone), in a process of its own.
FRIENDLY = r"""
import asyncio, sys, time
import aiohttp

async def main(url, clients, seconds):
    end = time.monotonic() + seconds

    async def client(n):
        connector = aiohttp.TCPConnector(local_addr=(f"127.0.{1 + n // 250}.{1 + n % 250}", 0))
        async with aiohttp.ClientSession(connector=connector) as session:
            while time.monotonic() < end:
                try:
                    async with session.get(url) as response:
                        await response.read()
                except aiohttp.ClientError:
                    pass
    await asyncio.gather(*(client(n) for n in range(clients)))
    print("{}")

asyncio.run(main(sys.argv[1], int(sys.argv[2]), float(sys.argv[3])))
"""


def measure(seconds: float = SECONDS) -> dict:
    return asyncio.run(_measure(seconds))


async def _measure(seconds: float) -> dict:
    with processes.temporary() as folder:
        _an_evening(os.path.join(folder, "referee.db"))
        async with processes.Table(folder) as t:
            found = {"box_rss_ready_mb": memory_mb(t.box.pid), "box_nice": t.box_nice}
            await t.hand.press("6")         # the table tools
            found["quiet"] = await _idle(t.box.pid)
            found["alone"] = await _keys(t, QUIET_KEYS)
            for kind, count in CROWDS.items():
                found[kind] = await _during(t, kind, count, seconds)
            found["tick"] = await _ticks(t)
            found["box_rss_peak_mb"] = memory_mb(t.box.pid)
            found["web_rss_peak_mb"] = memory_mb(t.web.pid)
    return found


async def _idle(pid: int, seconds: float = IDLE_SECONDS) -> dict:
    """The box's CPU seconds per second with nothing happening: its loop
    thread's, and all its threads'."""
    before, start = cpu_split(pid), time.monotonic()
    await asyncio.sleep(seconds)
    (loop, other), took = cpu_split(pid), time.monotonic() - start
    return {"loop_share": (loop - before[0]) / took, "share": (loop + other - sum(before)) / took}


async def _keys(t: processes.Table, presses: int, load=None) -> dict:
    """``presses`` timed presses (or as many as fit while ``load`` runs)."""
    samples, lost = [], 0
    before, told = cpu_split(t.box.pid), json.loads(await t.hand.ask("took"))
    while len(samples) + lost < presses and (load is None or load.returncode is None):
        took = await t.hand.timed_press("D")
        if took is None:
            lost += 1
        else:
            samples.append(took)
        await asyncio.sleep(0.02)
    after, now = cpu_split(t.box.pid), json.loads(await t.hand.ask("took"))
    keys = max(1, now["keys"] - told["keys"])     # each press is two key events: down and up
    n = max(1, len(samples) + lost)
    loop, other = ((b - a) * 1000 / n for a, b in zip(before, after))
    return {"presses": len(samples) + lost, "lost": lost, **processes.quantiles(samples),
            "cpu_per_key_ms": loop + other, "cpu_loop_ms": loop, "cpu_threads_ms": other,
            "cpu_box_per_key_ms": (now["cpu"] - told["cpu"]) * 1000 / n, "key_events": keys}


async def _during(t: processes.Table, kind: str, count: int, seconds: float) -> dict:
    if kind == "friendly":
        command = ["-c", FRIENDLY, t.url, str(count), str(seconds)]
    else:
        command = ["-m", "bench.crowd", kind, t.url, str(seconds), str(count), "--guests", "--no-probe"]
    load = await asyncio.create_subprocess_exec(sys.executable, *command, stdout=asyncio.subprocess.PIPE,
                                                preexec_fn=_nice, cwd=processes.ROOT)
    try:
        arrive = min(ARRIVE, seconds / 4)
        await asyncio.sleep(arrive)
        phone = asyncio.get_running_loop().create_task(crowd.probe(t.url, seconds - arrive - 0.5))
        found = await _keys(t, 10 ** 6, load)
        report = json.loads((await load.communicate())[0] or b"{}")
        fresh = await phone
    finally:
        if load.returncode is None:
            load.kill()
            await load.wait()
    return {**found, **fresh, "tally": report.get("tally"), "web_rss_mb": memory_mb(t.web.pid, "VmRSS")}


async def _ticks(t: processes.Table, ticks: int = TICKS) -> dict:
    """The box's loop thread's CPU per tick of a running countdown (one
    tick a second, redrawing all three screens), over ``ticks`` ticks."""
    while not json.loads(await t.hand.ask("screen main")).startswith("[Timer"):
        await t.hand.press("D")  # D flips between the dice and the timer
    await t.hand.press("A")     # 30 seconds
    await t.hand.press("#")     # and go
    await asyncio.sleep(1.2)
    first = json.loads(await t.hand.ask("took"))["drawn"]
    before = cpu_split(t.box.pid)
    await asyncio.sleep(ticks)
    after = cpu_split(t.box.pid)
    last = json.loads(await t.hand.ask("took"))["drawn"]
    counted = max(1, round(last - first))
    loop, other = ((b - a) * 1000 / counted for a, b in zip(before, after))
    return {"ticks": counted, "cpu_per_tick_ms": loop, "cpu_threads_per_tick_ms": other}


def _nice() -> None:
    os.nice(processes.WEB_NICE)


def _an_evening(database: str) -> None:
    from bench.web_bench import _an_evening_in
    from referee.store.events import Store
    store = Store(database)
    try:
        _an_evening_in(store, time.time() - 4 * 3600)
    finally:
        store.close()


def rows():
    """The lines ``python -m bench`` prints: (measure, result, target, holds)."""
    r = measure()
    for kind in ("alone", *CROWDS):
        k = r[kind]
        label = "box alone" if kind == "alone" else LABELS[kind]
        yield f"keys lost, {label}", f"{k['lost']} of {k['presses']}", "0", k["lost"] == 0
        yield f"key → frame, {label}, median", f"{k['median_ms']:.2f} ms", "reported", True
        yield f"key → frame, {label}, p99", f"{k['p99_ms']:.2f} ms", f"≤ {KEY_P99_MS} ms", k["p99_ms"] <= KEY_P99_MS
        if kind in ("pages", "idle", "sse"):
            fresh = k["fresh_ms"].get("p99", float("nan"))
            strict = kind != "pages"
            yield (f"a fresh phone's GET /, {label}, p99", f"{fresh:.0f} ms ({k['fresh_failed']} failed)",
                   f"≤ {FRESH_P99_MS} ms" if strict else "reported",
                   not strict or (fresh <= FRESH_P99_MS and k["fresh_failed"] == 0))
        if kind != "alone":
            yield f"web RSS, {label}", f"{k['web_rss_mb']:.1f} MB", "reported", True
    a, tick, idle = r["alone"], r["tick"], r["quiet"]
    key_share = PI_SLOWER * a["cpu_per_key_ms"] * KEYS_PER_SECOND / 1000
    tick_share = PI_SLOWER * tick["cpu_per_tick_ms"] / 1000
    yield ("box CPU per key press, with the control socket", f"{a['cpu_per_key_ms']:.2f} ms", "reported", True)
    yield (f"  on a Pi Zero 2 W, {KEYS_PER_SECOND} keys/s", f"{key_share:.1%} of a core", "×8, reported", True)
    yield ("box CPU per key press, the box's own (no hand)", f"{a['cpu_box_per_key_ms']:.2f} ms", "reported",
           True)
    yield (f"box CPU per timer tick (3 screens), loop thread, {tick['ticks']} ticks",
           f"{tick['cpu_per_tick_ms']:.2f} ms", "reported", True)
    yield ("  on a Pi Zero 2 W, a countdown", f"{tick_share:.1%} of a core", "×8, reported", True)
    yield ("box CPU idle, loop thread / all threads", f"{idle['loop_share']:.2%} / {idle['share']:.2%} of a core",
           "reported", True)
    yield ("box RSS at ready (referee run)", f"{r['box_rss_ready_mb']:.1f} MB", f"≤ {BOX_RSS_MB} MB",
           r["box_rss_ready_mb"] <= BOX_RSS_MB)
    yield ("box peak RSS, after all the above", f"{r['box_rss_peak_mb']:.1f} MB", f"≤ {BOX_RSS_MB} MB",
           r["box_rss_peak_mb"] <= BOX_RSS_MB)
    yield ("web peak RSS (referee web)", f"{r['web_rss_peak_mb']:.1f} MB", "reported", True)


if __name__ == "__main__":
    print(json.dumps(measure(), indent=1))
