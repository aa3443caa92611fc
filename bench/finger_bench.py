"""Finger down → frame: how soon the screen answers a key.

The box on the real clock (its keypad scanned on its own thread, simulated
pins and panels), the table tools up.  A finger (another thread) presses
``D``, which turns the main screen between the timer and the dice, 80 to
150 ms down and 80 to 150 ms apart, at real timings.  Timed: from the
moment the key goes down on the pin to the new picture sent to the main
panel's controller.  ``D`` has no hold meaning there, so it acts once its
press is debounced; ``*`` in a game and the team buttons still act when let
go (the reported row, measured as if every key had a hold meaning).

Beside it, the panel bus time of that frame: the bytes the driver sent for
it (commands and data) × 9 bits (8 and the acknowledge) at 400 kHz, the I2C
fast mode the panels run at, so that finger → light on a real box is the
sum.
"""
from __future__ import annotations

import asyncio
import os
import random
import statistics
import sys
import tempfile
import time

from hal.keys import LAYOUT, TEAMS
from referee.box.coordinator import Box
from referee.clock import RealClock
from referee.config import parse

PRESSES = 200
DOWN = (0.08, 0.15)      # seconds a finger stays down
APART = (0.08, 0.15)     # seconds between presses
I2C_HZ = 400_000


def finger_to_frame(presses: int = PRESSES, on_release: bool = False, seed: int = 25) -> dict:
    return asyncio.run(_run(presses, on_release, random.Random(seed)))


async def _run(presses: int, on_release: bool, rng: random.Random) -> dict:
    loop = asyncio.get_running_loop()
    with tempfile.TemporaryDirectory(prefix="finger-bench-") as folder:
        box = Box(parse({"database": os.path.join(folder, "r.db"), "dice": {"driver": "software"}}),
                  RealClock(loop), loop)
        box.start()
        box.start_game("tools")
        if on_release:   # today's keys before issue 25: every key waits to be let go
            box.holds = lambda: frozenset([*"".join(LAYOUT), *TEAMS])
        box.render()
        display, panel = box.devices.displays["main"], box.devices.panels["main"]
        frames: list[tuple[float, int]] = []     # (when sent, bytes)
        show = display.show

        def timed_show(image) -> None:
            before = panel.commands + panel.data_bytes
            show(image)
            sent = panel.commands + panel.data_bytes - before
            if sent:
                frames.append((time.monotonic(), sent))

        display.show = timed_show
        downs: list[float] = []
        pins = box.devices.pins

        def finger() -> None:
            for _ in range(presses):
                downs.append(time.monotonic())
                pins.set("D", True)
                time.sleep(rng.uniform(*DOWN))
                pins.set("D", False)
                time.sleep(rng.uniform(*APART))

        try:
            await loop.run_in_executor(None, finger)
            give_up = time.monotonic() + 2.0
            while len(frames) < presses and time.monotonic() < give_up:
                await asyncio.sleep(0.01)
        finally:
            box.close()
    waits, sizes = [], []
    for i, down in enumerate(downs):
        following = downs[i + 1] if i + 1 < len(downs) else float("inf")
        frame = next(((at, size) for at, size in frames if down <= at < following + 0.2), None)
        if frame is not None:
            waits.append((frame[0] - down) * 1000)
            sizes.append(frame[1])
    waits.sort()
    bus_ms = statistics.median(sizes) * 9 / I2C_HZ * 1000 if sizes else float("nan")
    return {"presses": presses, "answered": len(waits), "median_ms": statistics.median(waits),
            "p99_ms": waits[min(len(waits) - 1, int(0.99 * len(waits)))], "max_ms": waits[-1],
            "frame_bytes": statistics.median(sizes), "bus_ms": bus_ms}


def rows():
    r = finger_to_frame()
    bus = f"+ bus {r['bus_ms']:.1f} ms ({r['frame_bytes']:.0f} B)"
    ok = r["answered"] == r["presses"]
    yield (f"finger down → frame, median, 80-150 ms presses; {bus}", f"{r['median_ms']:.1f} ms",
           "≤ 25 ms", ok and r["median_ms"] <= 25)
    yield "finger down → frame, p99, same", f"{r['p99_ms']:.1f} ms", "≤ 40 ms", ok and r["p99_ms"] <= 40
    late = finger_to_frame(50, on_release=True)
    yield ("… a key with a hold meaning (acts when let go), median", f"{late['median_ms']:.1f} ms", "reported",
           True)


if __name__ == "__main__":
    import json
    json.dump({"on_press": finger_to_frame(), "on_release": finger_to_frame(50, on_release=True)}, sys.stdout)
    print()
