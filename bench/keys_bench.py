"""Keys lost while the event loop is stuck.

The box on the real clock (its keypad scanned on its own thread) with the
table tools up.  Each round a callback holds the event loop for 500 ms, as a
slow page render or disk write would, and meanwhile fingers (another
thread) press six keys, team button included, 40 ms down and 40 ms apart
at real timings.  Counted: presses that never reached ``Box.on_key``, and
presses that reached it out of the order they were made.
"""
from __future__ import annotations

import asyncio
import os
import sys
import tempfile
import threading
import time

from referee.box.coordinator import Box
from referee.clock import RealClock
from referee.config import parse

STALL = 0.5
PRESS = 0.04
GAP = 0.04
KEYS = ("1", "2", "team1", "3", "4", "*")   # digits type seconds, * clears them
ROUNDS = 20


def keys_under_stall(rounds: int = ROUNDS) -> dict:
    return asyncio.run(_run(rounds))


async def _run(rounds: int) -> dict:
    loop = asyncio.get_running_loop()
    with tempfile.TemporaryDirectory(prefix="keys-bench-") as folder:
        box = Box(parse({"database": os.path.join(folder, "r.db"), "dice": {"driver": "software"}}),
                  RealClock(loop), loop)
        box.start()
        box.start_game("tools")
        heard, pressed = [], []
        forward = box.on_key
        box.devices.keys.on_key = lambda event: (heard.append((event.key, event.kind)), forward(event))
        pins = box.devices.pins

        def stall(begun: threading.Event) -> None:
            begun.set()
            time.sleep(STALL)           # the loop is stuck here

        def fingers() -> None:
            begun = threading.Event()
            loop.call_soon_threadsafe(stall, begun)
            begun.wait()
            for key in KEYS:
                pins.set(key, True)
                time.sleep(PRESS)
                pins.set(key, False)
                time.sleep(GAP)
                pressed.append(key)

        try:
            for _ in range(rounds):
                await loop.run_in_executor(None, fingers)
                give_up = time.monotonic() + 2.0
                while len(heard) < len(pressed) and time.monotonic() < give_up:
                    await asyncio.sleep(0.01)
        finally:
            box.close()
    taken = [key for key, kind in heard if kind == "press"]
    in_order = _common(pressed, taken)
    return {"pressed": len(pressed), "lost": len(pressed) - len(taken),
            "out_of_order": len(taken) - in_order, "stall_s": STALL, "press_s": PRESS}


def _common(a: list, b: list) -> int:
    """The length of the longest common subsequence: keys taken in order."""
    row = [0] * (len(b) + 1)
    for x in a:
        prev = 0
        for j, y in enumerate(b):
            prev, row[j + 1] = row[j + 1], prev + 1 if x == y else max(row[j + 1], row[j])
    return row[-1]


def rows():
    r = keys_under_stall()
    yield (f"keys lost, {PRESS * 1000:.0f} ms presses in {STALL * 1000:.0f} ms loop stalls",
           f"{r['lost']} of {r['pressed']}", "0", r["lost"] == 0)
    yield "keys out of order, same", f"{r['out_of_order']}", "0", r["out_of_order"] == 0


if __name__ == "__main__":
    import json
    json.dump(keys_under_stall(), sys.stdout)
    print()
