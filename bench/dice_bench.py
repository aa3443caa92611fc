"""How long a roll takes from ``await dice.roll(2, 8)`` to its values: the
real host driver talking to the simulated module (the firmware's own code)
over a pty, compared with the time its bytes would need on the wire at
115200 baud (10 bits a byte: start, 8 data, stop).  Target: at most 2x.

The simulator's rolling animation is set to zero time here, so what is
measured is the driver, the pty and the firmware's protocol handling; on the
table the module adds its 600 ms animation on purpose.

Beside it, how soon the driver finds the module again once it is plugged
back in (firmware/README.md: "within two seconds of it coming back"): from
the moment the simulated module's pty is made anew and its firmware boots
to the driver's status "online", ``PLUGS`` times.

    python -m bench.dice_bench       (or through ``make bench``)
"""
from __future__ import annotations

import asyncio
import json
import logging
import math
import statistics
import time

from firmware import protocol
from hal.dice_serial import BAUD, SerialDice
from hal.sim.dice_module import SimulatedDiceModule

WARM_UP = 10
TARGET_RATIO = 2.0
PLUGS = 10
FOUND_S = 2.0


def run(n: int = 200, plugs: int = PLUGS) -> dict:
    times = asyncio.run(_round_trips(n))
    found = sorted(asyncio.run(_found_again(plugs)))
    # The id in the middle of the run stands for the typical line length.
    id = WARM_UP + n // 2
    wire_bytes = len(protocol.roll(id, 2, 8)) + len(protocol.result(id, [8, 8]))
    wire_ms = wire_bytes * 10 / BAUD * 1000
    median = statistics.median(times)
    return {
        "n": n,
        "median_ms": round(median, 3),
        "p99_ms": round(sorted(times)[math.ceil(0.99 * n) - 1], 3),
        "wire_ms": round(wire_ms, 3),
        "ratio": round(median / wire_ms, 2),
        "target_ratio": TARGET_RATIO,
        "found_median_s": round(found[len(found) // 2], 3),
        "found_max_s": round(found[-1], 3),
    }


def rows():
    """The lines ``python -m bench`` prints: (measure, result, target, holds)."""
    r = run()
    target = f"≤ {r['target_ratio']:g}× wire ({r['wire_ms']:.2f} ms)"
    yield "dice roll round trip, median", f"{r['median_ms']:.2f} ms ({r['ratio']:.2f}×)", target, r["ratio"] <= TARGET_RATIO
    yield "dice roll round trip, p99", f"{r['p99_ms']:.2f} ms", "reported", True
    yield "dice module found again after plug-in, median", f"{r['found_median_s']:.2f} s", "reported", True
    yield (f"dice module found again after plug-in, max of {PLUGS}", f"{r['found_max_s']:.2f} s", f"≤ {FOUND_S:g} s",
           r["found_max_s"] <= FOUND_S)


async def _round_trips(n: int) -> list[float]:
    with SimulatedDiceModule(animation_ms=0) as sim:
        dice = SerialDice(sim.port)
        online = asyncio.Event()
        dice.on_status = lambda status: status == "online" and online.set()
        dice.start(asyncio.get_running_loop())
        try:
            await asyncio.wait_for(online.wait(), 5)
            times = []
            for i in range(WARM_UP + n):
                start = time.perf_counter()
                roll = await dice.roll(2, 8)
                elapsed = (time.perf_counter() - start) * 1000
                if roll.source != "module":
                    raise RuntimeError("the simulated module stopped answering")
                if i >= WARM_UP:
                    times.append(elapsed)
            return times
        finally:
            dice.close()


async def _found_again(plugs: int) -> list[float]:
    """Seconds from plugging the module back in to the driver's "online"."""
    # Each unplugging is logged as a lost port, as it should be: not in the table.
    driver = logging.getLogger("hal.dice_serial")
    level = driver.level
    driver.setLevel(logging.ERROR)
    with SimulatedDiceModule(animation_ms=0) as sim:
        dice = SerialDice(sim.port)
        statuses = asyncio.Queue()
        dice.on_status = statuses.put_nowait
        dice.start(asyncio.get_running_loop())
        try:
            await _status(statuses, "online")
            times = []
            for _ in range(plugs):
                await asyncio.to_thread(sim.unplug)
                await _status(statuses, "offline")
                start = time.perf_counter()
                # In a thread: the driver's news reaches the loop while the
                # module boots.
                await asyncio.to_thread(sim.plug_in)
                await _status(statuses, "online")
                times.append(time.perf_counter() - start)
            return times
        finally:
            dice.close()
            driver.setLevel(level)


async def _status(statuses: asyncio.Queue, wanted: str) -> None:
    """Until the driver says ``wanted`` (30 s at most between two of its words)."""
    status = None
    while status != wanted:
        status = await asyncio.wait_for(statuses.get(), 30)


if __name__ == "__main__":
    print(json.dumps(run(), indent=2))
