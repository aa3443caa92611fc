"""A room of screens following the table: ``COUNT`` clients on loopback,
each from an address of its own (``bench.crowd.guest``: a TV, a tablet or
a phone each), holding a live stream of the web and noting what each
message made it show, and when.  They run in a process of their own at the
web's ``Nice=10``, on the same cores as the box and the web, as other
people's screens would share the table's Wi-Fi.

    python -m bench.room KIND URL COUNT

prints ``ready`` once every client shows the table, then, when its stdin
is closed, one line of JSON: for each client the list of its notes, each
beginning with the ``time.monotonic()`` it was made at (the system's clock,
the same in the box and in the bench).  KIND is one of:

``table``    a table view on ``/table/live`` (issue 38): a note per message,
             ``[time, running, left]`` of the countdown it carries (``null``
             for both when none is up)
``tonight``  a phone's Tonight page, ``/``, following ``/live`` as
             ``referee/web/static/live.js`` does: a note per message,
             ``[time, "live", version]``; when the version is not the page's,
             the page is fetched again (one fetch at a time, once more when a
             message came meanwhile) and noted, ``[time, "page", line]``,
             where ``line`` is what the card on top (the game in play) says
             under its title: since when, and what the game is at

The bench side is ``Room``, and ``first_seen`` reads the notes.
"""
from __future__ import annotations

import asyncio
import html
import json
import os
import re
import sys
import time

READY_SECONDS = 90.0     # for every client to show the table, on a loaded machine
LEAVE_SECONDS = 60.0


class Room:
    """``async with Room(kind, url, count) as room``: the room is in and
    shows the table; ``await room.leave()`` sends it home and gives its
    notes."""

    def __init__(self, kind: str, url: str, count: int) -> None:
        self.args = (kind, url, str(count))
        self.process: asyncio.subprocess.Process | None = None

    async def __aenter__(self) -> Room:
        from bench import processes
        self.process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bench.room", *self.args, cwd=processes.ROOT,
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, preexec_fn=_nice)
        try:
            said = await asyncio.wait_for(self.process.stdout.readline(), READY_SECONDS)
            if said.strip() != b"ready":
                raise RuntimeError(f"the room of {self.args[2]} {self.args[0]} screens did not come in")
        except BaseException:
            await self.__aexit__()
            raise
        return self

    async def leave(self) -> list[list]:
        self.process.stdin.close()
        return json.loads(await asyncio.wait_for(self.process.stdout.read(), LEAVE_SECONDS))

    async def __aexit__(self, *exc) -> None:
        if self.process.returncode is None:
            self.process.kill()
        await self.process.wait()


def first_seen(presses: list[dict], heard: list[list], shows, grace: float = 0.0):
    """For every press and every client: ``(press, note)``, the client's
    first note from the press's ``due`` on that ``shows(press, note)``, or
    ``None`` when there is none before the next press's ``due`` (plus
    ``grace`` seconds): the press was missed."""
    for i, press in enumerate(presses):
        later = presses[i + 1]["due"] + grace if i + 1 < len(presses) else float("inf")
        for notes in heard:
            yield press, next((n for n in notes if press["due"] <= n[0] < later and shows(press, n)), None)


def _nice() -> None:
    from bench import processes
    os.nice(processes.WEB_NICE)


# --- the room's own process ----------------------------------------------------------

async def _table_view(session, url: str, notes: list, ready: asyncio.Event) -> None:
    async with session.get(url + "table/live") as stream:
        async for line in stream.content:
            now = time.monotonic()
            if line.startswith(b"data: {"):
                cd = json.loads(line[6:])["countdown"]
                notes.append([now, cd["running"], cd["left"]] if cd else [now, None, None])
                ready.set()


_VERSION = re.compile(rb'<body[^>]*\sdata-version="([^"]*)"')
_LINE = re.compile(rb'<span class="meta">(.*?)</span>', re.S)


async def _phone(session, url: str, notes: list, ready: asyncio.Event) -> None:
    shown = [None]             # the page's version (its <body data-version>)
    wanted = asyncio.Event()

    async def fetch() -> None:
        async with session.get(url, headers={"Accept-Encoding": "gzip"}) as answer:
            page = await answer.read()
        now = time.monotonic()
        version, line = _VERSION.search(page), _LINE.search(page)
        shown[0] = version.group(1).decode() if version else None
        notes.append([now, "page", " ".join(html.unescape(line.group(1).decode()).split()) if line else ""])

    async def follow() -> None:
        # live.js: a message that finds a fetch under way asks for one more
        # after it, never two at once.
        while True:
            await wanted.wait()
            wanted.clear()
            await fetch()

    await fetch()                              # the phone opens the page, then its script the stream
    follower = asyncio.create_task(follow())
    try:
        async with session.get(url + "live", headers={"Accept": "text/event-stream"}) as stream:
            async for line in stream.content:
                now = time.monotonic()
                if line.startswith(b"data: "):
                    version = line[6:].strip().decode()
                    notes.append([now, "live", version])
                    if version != shown[0]:
                        wanted.set()
                    ready.set()
    finally:
        follower.cancel()


KINDS = {"table": _table_view, "tonight": _phone}


async def _room(kind: str, url: str, count: int) -> None:
    import aiohttp

    from bench.crowd import _enough_files, guest
    _enough_files(2 * count)                   # a phone holds its stream and fetches beside it
    heard = [[] for _ in range(count)]
    ready = [asyncio.Event() for _ in range(count)]

    async def client(n: int) -> None:
        connector = aiohttp.TCPConnector(local_addr=(guest(n), 0))
        async with aiohttp.ClientSession(connector=connector, timeout=aiohttp.ClientTimeout(total=None)) as session:
            await KINDS[kind](session, url, heard[n], ready[n])

    tasks = [asyncio.create_task(client(n)) for n in range(count)]
    await asyncio.wait_for(asyncio.gather(*(r.wait() for r in ready)), READY_SECONDS)
    print("ready", flush=True)
    until = asyncio.StreamReader()
    await asyncio.get_running_loop().connect_read_pipe(lambda: asyncio.StreamReaderProtocol(until), sys.stdin)
    await until.read()                         # the bench closes our stdin when its keys are done
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    print(json.dumps(heard), flush=True)


if __name__ == "__main__":
    asyncio.run(_room(sys.argv[1], sys.argv[2], int(sys.argv[3])))
