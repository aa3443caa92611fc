"""The box's own figures: key press to frame, bytes on the display bus,
cold start, memory."""
from __future__ import annotations

import statistics
import subprocess
import sys
import time

from referee.testing import Table

FULL = 1024  # bytes in a whole 128×64 frame


def _quantile(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def press_timings(t: Table, presses: int, between=lambda: None) -> list[float]:
    """Milliseconds of work from the down edge of "D" on the mock pin to the
    new picture handed to the main display's driver (the table tools must
    be up: "D" flips between two pages, and acts once debounced, on the way
    down).  The debounce itself passes on the manual clock: what is timed
    is the scans, the key flow, the rules, the store and the rendering.
    ``between`` runs before each press."""
    main = t.box.devices.displays["main"]
    handed = []
    show = main.show
    main.show = lambda image: (show(image), handed.append(time.perf_counter()))
    samples = []
    for _ in range(presses):
        between()
        handed.clear()
        start = time.perf_counter()
        t.down("D")
        t.advance(0.05)
        samples.append((handed[-1] - start) * 1000)
        t.up("D")
    return samples


def key_to_frame(presses: int = 1000) -> dict:
    """Key press to frame on an idle box: scanning, debounce, flow, rules,
    render."""
    with Table(seed=1, config={"dice": {"driver": "software"}}) as t:
        t.press("6")
        samples = press_timings(t, presses)
        return {"median_ms": statistics.median(samples), "p99_ms": _quantile(samples, 0.99), "presses": presses}


def frames_per_key(keys_a_game: int = 150) -> dict:
    """Pictures handed to the main display per key that changes its
    screen, over seeded walks of every game's pages, untaught and then
    taught (keys the page shows, now and then another: a refusal changes
    the screen too); and of those, the keys that committed an event."""
    import random

    from referee import catalogue
    frames = {"changed": [], "committed": []}
    with Table(seed=1, config={"dice": {"driver": "software"}}) as t:
        handed, keying, changed = [], [False], [False]
        main = t.box.devices.displays["main"]
        show = main.show
        # Only the frames of the key's own handling, and of the roll it asked
        # for: not a message's or a countdown's timer that fell in its 50 ms.
        main.show = lambda image: (show(image), keying[0] and handed.append(1))

        def counted(fn):
            def handling(*args):
                keying[0], before = True, t.box.shown.get("main")
                try:
                    return fn(*args)
                finally:
                    keying[0] = False
                    changed[0] = changed[0] or t.box.shown.get("main") != before
            return handling
        t.box.devices.keys.on_key = counted(t.box.devices.keys.on_key)
        t.box._rolled = counted(t.box._rolled)
        rng = random.Random(1)
        for teach, game in ((teach, game) for teach in (False, True) for game in catalogue.on_menu()):
            t.start(game.name, teach=teach)
            for _ in range(keys_a_game):
                shown = t.box.shown["main"]
                offered = [k for k, _label in shown.keys if len(k) == 1] or list("#*")
                key = rng.choice(offered) if rng.random() < 0.8 else rng.choice("0123456789ABCD*#")
                seq = t.box.session.seq if t.box.session is not None else None
                handed.clear()
                changed[0] = False
                t.press(key)
                if changed[0]:   # by the key itself, not a timer inside its 50 ms
                    frames["changed"].append(len(handed))
                    if t.box.session is not None and t.box.session.seq != seq:
                        frames["committed"].append(len(handed))
            t.box.leave()
    return {name: statistics.mean(counts) for name, counts in frames.items()} | \
        {"keys": len(frames["changed"]), "most": max(frames["changed"])}


def bus_bytes() -> dict:
    """Bytes sent to each panel (commands and data) per key press and per
    countdown tick, against a whole frame."""
    with Table(seed=1, config={"dice": {"driver": "software"}}) as t:
        panels = t.box.devices.panels

        def sent():
            return {n: p.commands + p.data_bytes for n, p in panels.items()}

        t.press("6")
        before = sent()
        for _ in range(100):
            t.press("D")
        after = sent()
        per_key = {n: (after[n] - before[n]) / 100 for n in panels}
        t.press("5")  # typing 5 seconds and back: main only
        t.press("*")
        t.press("C")  # 5 minutes
        t.press("#")
        t.advance(0.5)
        before = sent()
        t.advance(100)
        after = sent()
        per_tick = {n: (after[n] - before[n]) / 100 for n in panels}
        return {"per_key": per_key, "per_tick": per_tick, "full_frame": FULL}


# The child says "box" once players can play and "web" once the page is up;
# the parent times those lines from the moment it started the child (the
# process's own start time in /proc is only good to the second).
READY_SCRIPT = r"""
import asyncio, os, resource, socket, sys, tempfile, warnings
from referee.box.service import Service
from referee.config import parse
async def main():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    d = tempfile.mkdtemp()
    service = Service(parse({"database": os.path.join(d, "r.db"), "dice": {"driver": "software"},
                             "web": {"port": port}}))
    await service.start()
    print("box", flush=True)
    # The web is a process of its own (referee web): ready once it answers.
    with open(os.path.join(d, "config.toml"), "w") as f:
        f.write(f'database = "{os.path.join(d, "r.db")}"\n[web]\nport = {port}\n')
    web = await asyncio.create_subprocess_exec(sys.executable, "-m", "referee.cli", "web", "--config",
                                               os.path.join(d, "config.toml"), stderr=asyncio.subprocess.DEVNULL)
    while True:
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            await asyncio.sleep(0.01)
            continue
        writer.close()
        break
    print("web", flush=True)
    web.terminate()
    await web.wait()
    await service.aclose()
    print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, flush=True)
asyncio.run(main())
"""

RSS_SCRIPT = r"""
import resource
from referee.testing import Table
with Table(seed=1, config={"dice": {"driver": "software"}}) as t:
    t.press("6")
    for i in range(2000):
        t.press("D")
    t.press("A"); t.press("#"); t.advance(600)
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def cold_start(runs: int = 5) -> dict:
    readies, webs, rss = [], [], []
    for _ in range(runs):
        began = time.perf_counter()
        child = subprocess.Popen([sys.executable, "-c", READY_SCRIPT], stdout=subprocess.PIPE, text=True)
        assert child.stdout.readline().strip() == "box"
        readies.append(time.perf_counter() - began)
        assert child.stdout.readline().strip() == "web"
        webs.append(time.perf_counter() - began)
        rss.append(int(child.stdout.readline()) / 1024)
        child.wait(10)
    out = subprocess.run([sys.executable, "-c", RSS_SCRIPT], capture_output=True, text=True, check=True)
    return {"ready_s": statistics.median(readies), "web_s": statistics.median(webs), "rss_ready_mb": max(rss),
            "rss_after_2000_keys_mb": int(out.stdout.split()[-1]) / 1024}
