"""Issue 27, the web's places: a fresh phone is answered when hundreds of
keep-alive phones are connected, and when every place is busy with a
request.  A real ``referee run`` and ``referee web``."""
from __future__ import annotations

import asyncio
import json
import signal
import subprocess
import sys

import aiohttp

from processes import until
from referee.web import guard
from test_box_socket import names_path
from test_web_split import ROOT, WEB_NICE, table  # noqa: F401  the fixture


def test_the_web_listens_with_a_backlog_for_a_crowd(table):
    # Before: aiohttp's 128; with 740 keep-alive phones the kernel counted
    # 2 623 listen overflows and a fresh phone waited 2 s or was refused.
    t = table
    listening = subprocess.run(["ss", "-ltnH", f"sport = :{t.port}"], capture_output=True, text=True,
                               check=True).stdout.split()
    assert listening[0] == "LISTEN" and int(listening[2]) == guard.BACKLOG
    crowd = subprocess.run([sys.executable, "-m", "bench.crowd", "idle", t.url, "3", "740", "--guests"],
                           cwd=ROOT, capture_output=True, text=True, preexec_fn=WEB_NICE, check=True)
    report = json.loads(crowd.stdout)
    assert report["fresh_failed"] == 0, report


def test_a_newcomers_first_request_gets_a_place_when_every_place_is_busy(table):
    # Before: with all 512 places busy with a request, a newcomer was closed
    # as it opened.  Here each of the crowd's requests waits on the box,
    # which is stopped: the names page asks it what to show.
    t = table
    assert t.press("1") == ["ok"]
    path = names_path(t)
    fds = t.open_fds(t.web)
    guests = guard.MOST_CONNECTIONS // guard.PER_ADDRESS

    async def scene():
        sessions = [aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(f"127.1.0.{1 + n}", 0),
                                                                         limit=guard.PER_ADDRESS),
                                          timeout=aiohttp.ClientTimeout(total=30)) for n in range(guests)]

        async def busy(session):
            async with session.get(t.url + path.lstrip("/")) as r:
                return r.status

        t.box.send_signal(signal.SIGSTOP)
        try:
            crowd = [asyncio.ensure_future(busy(s)) for s in sessions for _ in range(guard.PER_ADDRESS)]
            while t.open_fds(t.web) < fds + guard.MOST_CONNECTIONS:
                await asyncio.sleep(0.02)
            async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=("127.0.0.2", 0)),
                                             timeout=aiohttp.ClientTimeout(total=30)) as phone:
                async with phone.get(t.url + "api/evening") as r:
                    fresh = r.status
            return fresh, await asyncio.gather(*crowd)
        finally:
            t.box.send_signal(signal.SIGCONT)
            for s in sessions:
                await s.close()

    fresh, crowd = asyncio.run(scene())
    assert fresh == 200
    assert set(crowd) == {503}                  # every one of them had its place, and waited for the box
    until(lambda: t.get(path)[0] == 200, what="the box answering again")
