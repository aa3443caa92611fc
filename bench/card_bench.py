"""What a running countdown writes to the card: the real ``referee run``
(``bench.processes.Table``, no web), its table tools' minute started through
the control socket, and the bytes the process wrote to storage
(``write_bytes`` of ``/proc/PID/io``) over ``SECONDS`` of it running, with
the database's own files' growth beside it.  The box writes a row at each
press that moves the countdown and its place every 15 s while it runs
(``referee.box.game_clock.CHECKPOINT_SECONDS``), so the target is a
fifteenth of the note at every second shown that it replaced (9.4 KB/s).

    python -m bench.card_bench       (or through ``make bench``)
"""
from __future__ import annotations

import asyncio
import glob
import os

from bench.processes import Table, temporary

SECONDS = 30.0


def _written(pid: int) -> int:
    with open(f"/proc/{pid}/io") as f:
        return int(next(line for line in f if line.startswith("write_bytes:")).split()[1])


def _size(database: str) -> int:
    return sum(os.path.getsize(p) for p in glob.glob(database + "*"))


async def _measure(seconds: float) -> dict:
    with temporary() as folder:
        async with Table(folder, web=False) as t:
            await t.hand.press("6")              # the table tools: a minute, at rest
            await t.hand.press("#")              # go
            await asyncio.sleep(0.5)             # the go's row is written
            before, size = _written(t.box.pid), _size(t.database)
            await asyncio.sleep(seconds)
            after, grown = _written(t.box.pid), _size(t.database)
            shown = await t.hand.ask("screen main")
    return {"bytes_per_s": (after - before) / seconds, "grown": grown - size, "running": "0:" in shown}


def run(seconds: float = SECONDS) -> dict:
    return asyncio.run(_measure(seconds))


def rows():
    """The lines ``python -m bench`` prints: (measure, result, target, holds)."""
    r = run()
    yield ("card writes while a countdown runs", f"{r['bytes_per_s'] / 1000:.1f} KB/s "
           f"(database files +{r['grown']} B)", "≤ 1 KB/s", r["running"] and r["bytes_per_s"] <= 1000)


if __name__ == "__main__":
    for row in rows():
        print(*row, sep="  |  ")
