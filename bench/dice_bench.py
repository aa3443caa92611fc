"""How long a roll takes from ``await dice.roll(2, 8)`` to its values: the
real host driver talking to the simulated module (the firmware's own code)
over a pty, compared with the time its bytes would need on the wire at
115200 baud (10 bits a byte: start, 8 data, stop).  Target: at most 2x.

The simulator's rolling animation is set to zero time here, so what is
measured is the driver, the pty and the firmware's protocol handling; on the
table the module adds its 600 ms animation on purpose.

    python -m bench.dice_bench       (or through ``make bench``)
"""
from __future__ import annotations

import asyncio
import json
import math
import statistics
import time

from firmware import protocol
from hal.dice_serial import BAUD, SerialDice
from hal.sim.dice_module import SimulatedDiceModule

WARM_UP = 10
TARGET_RATIO = 2.0


def run(n: int = 200) -> dict:
    times = asyncio.run(_round_trips(n))
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
    }


def rows():
    """The lines ``python -m bench`` prints: (measure, result, target, holds)."""
    r = run()
    target = f"≤ {r['target_ratio']:g}× wire ({r['wire_ms']:.2f} ms)"
    yield "dice roll round trip, median", f"{r['median_ms']:.2f} ms ({r['ratio']:.2f}×)", target, r["ratio"] <= TARGET_RATIO
    yield "dice roll round trip, p99", f"{r['p99_ms']:.2f} ms", "reported", True


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


if __name__ == "__main__":
    print(json.dumps(run(), indent=2))
