"""The web under floods of requests nobody reads (issue 45): a real
``referee run`` and ``referee web`` (``bench.processes``, the web at its
unit's ``Nice=10``) on an evening of five games; for ``SECONDS`` a crowd
(``bench.crowd``, at ``Nice=10`` on the same cores) of

- **pipelining**: 600 connections from 20 addresses (127.0.0.10-29), each
  sending 100 ``GET /api/g/1/steps.json`` at once with a 2 KB receive
  window and reading nothing, opened again when closed; once it held 511
  of the web's places and 365 MB of send queue, and a fresh phone waited
  2-7.9 s for ``/``;
- **253 addresses**: the same from 1012 connections over 127.0.0.2-254,
  four an address, so that the limit per address stops none of them.

Meanwhile a fresh phone asks for ``/`` on a new connection every 50 ms from
an address of its own (``bench.crowd.probe``, in this process): its p99 and
how often it got no 200.  Loopback only: 127.0.0.0/8 is the only target.
"""
from __future__ import annotations

import asyncio
import json
import os
import sys

from bench import crowd, processes
from bench.crowd_bench import _an_evening, _nice
from bench.processes import memory_mb

SECONDS = 8.0
ARRIVE = 2.0
FLOODS = {"pipelined": ("600 connections pipelining 100 requests, 20 addresses", 600),
          "addresses": ("1012 connections pipelining, 253 addresses", 1012)}
FRESH_P99_MS = 500


async def _during(t: processes.Table, kind: str, count: int) -> dict:
    load = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bench.crowd", kind, t.url, str(SECONDS), str(count), "--no-probe",
        stdout=asyncio.subprocess.PIPE, preexec_fn=_nice, cwd=processes.ROOT)
    try:
        await asyncio.sleep(ARRIVE)
        fresh = await crowd.probe(t.url, SECONDS - ARRIVE - 0.5, crowd.PROBE_SOURCES.get(kind, crowd.PROBE_ADDRESS))
        report = json.loads((await load.communicate())[0] or b"{}")
    finally:
        if load.returncode is None:
            load.kill()
            await load.wait()
    return {**fresh, "tally": report.get("tally"), "web_rss_mb": memory_mb(t.web.pid, "VmRSS")}


async def _measure() -> dict:
    found = {}
    with processes.temporary() as folder:
        _an_evening(os.path.join(folder, "referee.db"))
        async with processes.Table(folder) as t:
            for kind, (_label, count) in FLOODS.items():
                found[kind] = await _during(t, kind, count)
            found["web_rss_peak_mb"] = memory_mb(t.web.pid)
    return found


def measure() -> dict:
    return asyncio.run(_measure())


def rows():
    r = measure()
    for kind, (label, _count) in FLOODS.items():
        k = r[kind]
        fresh = k["fresh_ms"].get("p99", float("nan"))
        yield (f"a fresh phone's GET /, {label}, p99", f"{fresh:.0f} ms ({k['fresh_failed']} failed)",
               f"≤ {FRESH_P99_MS} ms, none failed", fresh <= FRESH_P99_MS and k["fresh_failed"] == 0)
        yield f"web RSS, {label}", f"{k['web_rss_mb']:.1f} MB", "reported", True
    yield "web peak RSS, the floods", f"{r['web_rss_peak_mb']:.1f} MB", "reported", True


if __name__ == "__main__":
    print(json.dumps(measure(), indent=1))
