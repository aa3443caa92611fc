"""A hostile crowd on loopback, in a process of its own: what guests on an
open Wi-Fi could do to the web page, bounded in count and time.

    python -m bench.crowd KIND URL SECONDS [COUNT] [--guests] [--no-probe]

prints one line of JSON when done.  The crowd comes from one address, one
machine on the Wi-Fi, unless ``--guests``: then each of its clients or
connections comes from an address of its own (127.1.x.y), as many phones
would, each within the web's limit per address.  KIND is one of:

``pages``    COUNT clients (64) asking for every page with a new random
             query string each time, as fast as they are answered
``idle``     COUNT connections (1000) opened and held without a byte sent
``sse``      COUNT ``/live`` streams (300) opened and held
``slow``     COUNT connections (200) dripping a request head a byte a second
``garbage``  COUNT clients (16) sending requests no parser accepts
``pipelined`` COUNT connections (600) from 20 addresses (127.0.0.10-29),
             each sending 100 ``GET /api/g/1/steps.json`` at once with a
             2 KB receive window, and reading nothing
``addresses`` the same from 253 addresses (127.0.0.2-254), COUNT (1012)
             connections in all; the fresh phone then asks from 127.0.0.1

Beside each, a fresh client asks for ``/`` on a new connection every 50 ms,
from another address (127.0.0.2: another phone, not one more of the
crowd's connections): ``fresh_ms`` is its p50/p99/max, ``fresh_failed`` how
often it got no 200.  With ``--no-probe`` it is left to the caller, so that
the crowd's own busy loop does not delay the phone's answers as it reads
them (``bench.crowd_bench`` asks from a process of its own).

The crowd raises its own limit of open files to what it holds.
"""
from __future__ import annotations

import asyncio
import json
import random
import resource
import sys
import time
import urllib.parse

import aiohttp

PAGES = ("/", "/e/", "/api/evening", "/api/evenings", "/api/evening.csv", "/g/1", "/g/2", "/api/g/1",
         "/static/style.css")
# Issue 38: replay steps and records of finished games; the box does none of this work.
PAGES += ("/g/1/step/0", "/g/3/step/5", "/g/4/step/9?reveal=1", "/api/g/4/steps.json")
DEFAULT = {"pages": 64, "idle": 1000, "sse": 300, "slow": 200, "garbage": 16, "pipelined": 600, "addresses": 1012}
PIPELINED = b"GET /api/g/1/steps.json HTTP/1.1\r\nHost: x\r\n\r\n" * 100
PROBE_EVERY = 0.05
PROBE_ADDRESS = "127.0.0.2"
PROBE_SOURCES = {"addresses": "127.0.0.1"}   # the 253 addresses flood takes 127.0.0.2 too


def guest(n: int) -> str:
    """The address of the crowd's ``n``-th guest (loopback: 127/8 is all ours)."""
    return f"127.1.{n // 250}.{1 + n % 250}"


async def _pages(url, count, end, tally, guests=False):
    async def client(rng, n):
        connector = aiohttp.TCPConnector(local_addr=(guest(n), 0)) if guests else shared
        async with aiohttp.ClientSession(connector=connector, connector_owner=guests,
                                         timeout=aiohttp.ClientTimeout(total=10)) as session:
            while time.monotonic() < end:
                path = rng.choice(PAGES) + f"?r={rng.getrandbits(64):x}"
                try:
                    async with session.get(url.rstrip("/") + path) as r:
                        await r.read()
                        tally[r.status] = tally.get(r.status, 0) + 1
                except (aiohttp.ClientError, TimeoutError, OSError):
                    tally["error"] = tally.get("error", 0) + 1
    shared = aiohttp.TCPConnector(limit=count, force_close=False)
    try:
        await asyncio.gather(*(client(random.Random(n), n) for n in range(count)))
    finally:
        await shared.close()


async def _hold(url, count, end, tally, head: bytes = b"", drip: bool = False, guests=False):
    host, port = _address(url)
    held = []
    for n in range(count):
        try:
            reader, writer = await asyncio.open_connection(host, port, local_addr=(guest(n), 0) if guests else None)
        except OSError:
            tally["refused"] = tally.get("refused", 0) + 1
            continue
        if head:
            writer.write(head)
        held.append((reader, writer))
    tally["opened"] = len(held)

    async def keep(reader, writer):
        line = b"X-Drip: a\r\n"
        sent = 0
        while time.monotonic() < end:
            if drip:
                writer.write(line[sent % len(line):sent % len(line) + 1])
                sent += 1
            try:
                data = await asyncio.wait_for(reader.read(65536), 1.0)
            except TimeoutError:
                continue
            except OSError:
                data = b""
            if not data:
                tally["closed by server"] = tally.get("closed by server", 0) + 1
                return
        tally["still open"] = tally.get("still open", 0) + 1

    await asyncio.gather(*(keep(r, w) for r, w in held))
    for _, writer in held:
        writer.close()


async def _pipelined(url, count, end, tally, addresses):
    """Connections that ask for a hundred answers at once and read none, a
    connection closed by the server opened again, until ``end``."""
    import socket
    host, port = _address(url)
    loop = asyncio.get_running_loop()

    async def one(n):
        while time.monotonic() < end:
            sock = socket.socket()
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
            sock.setblocking(False)
            try:
                sock.bind((addresses[n % len(addresses)], 0))
                await loop.sock_connect(sock, (host, port))
                await loop.sock_sendall(sock, PIPELINED)
                tally["sent"] = tally.get("sent", 0) + 1
                while time.monotonic() < end:       # held, unread, until the server lets go of it
                    await asyncio.sleep(0.5)
                    if sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR) or _gone(sock):
                        tally["closed by server"] = tally.get("closed by server", 0) + 1
                        break
            except OSError:
                tally["refused"] = tally.get("refused", 0) + 1
                await asyncio.sleep(0.1)
            finally:
                sock.close()
    await asyncio.gather(*(one(n) for n in range(count)))


def _gone(sock) -> bool:
    """Whether the server closed ``sock`` (looked at without reading its answers)."""
    import select
    import socket
    try:
        select.select([sock], [], [], 0)
        return sock.recv(1, socket.MSG_PEEK) == b""
    except BlockingIOError:
        return False
    except OSError:
        return True


async def _garbage(url, count, end, tally):
    host, port = _address(url)

    async def client(rng):
        while time.monotonic() < end:
            try:
                reader, writer = await asyncio.open_connection(host, port)
                writer.write(rng.choice([b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03" * 4,
                                         b"GET / HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n",
                                         b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\n\r\n",
                                         b"POST /T/AAAAAAAAAAAAAAAAAAAAAAAAAA HTTP/1.1\r\nContent-Length: -1\r\n\r\n"]))
                await asyncio.wait_for(reader.read(65536), 2.0)
                writer.close()
                tally["sent"] = tally.get("sent", 0) + 1
            except (OSError, TimeoutError):
                tally["error"] = tally.get("error", 0) + 1
    await asyncio.gather(*(client(random.Random(n)) for n in range(count)))


async def _probe(url, end, samples, failed, source=PROBE_ADDRESS):
    while time.monotonic() < end:
        start = time.perf_counter()
        try:
            connector = aiohttp.TCPConnector(local_addr=(source, 0))
            async with aiohttp.ClientSession(connector=connector, timeout=aiohttp.ClientTimeout(total=5)) as session:
                async with session.get(url) as r:
                    await r.read()
                    ok = r.status == 200
        except (aiohttp.ClientError, TimeoutError, OSError):
            ok = False
        samples.append((time.perf_counter() - start) * 1000)
        failed[0] += not ok
        await asyncio.sleep(PROBE_EVERY)


def _address(url):
    parts = urllib.parse.urlsplit(url)
    return parts.hostname, parts.port


def _quantiles(samples):
    if not samples:
        return {}
    samples = sorted(samples)
    return {"p50": round(samples[len(samples) // 2], 1), "p99": round(samples[int(0.99 * (len(samples) - 1))], 1),
            "max": round(samples[-1], 1), "n": len(samples)}


async def crowd(kind: str, url: str, seconds: float, count: int | None = None, guests: bool = False,
                probe: bool = True) -> dict:
    count = count or DEFAULT[kind]
    _enough_files(count)
    end = time.monotonic() + seconds
    tally: dict = {}
    samples, failed = [], [0]
    load = {"pages": lambda: _pages(url, count, end, tally, guests),
            "idle": lambda: _hold(url, count, end, tally, guests=guests),
            "sse": lambda: _hold(url, count, end, tally,
                                 f"GET /live HTTP/1.1\r\nHost: {_address(url)[0]}\r\nAccept: text/event-stream\r\n\r\n"
                                 .encode(), guests=guests),
            "slow": lambda: _hold(url, count, end, tally, b"GET / HTTP/1.1\r\n", drip=True, guests=guests),
            "garbage": lambda: _garbage(url, count, end, tally),
            "pipelined": lambda: _pipelined(url, count, end, tally, [f"127.0.0.{10 + n}" for n in range(20)]),
            "addresses": lambda: _pipelined(url, count, end, tally, [f"127.0.0.{n}" for n in range(2, 255)])}[kind]
    started = asyncio.get_running_loop().create_task(load())
    if probe:
        await asyncio.sleep(min(1.0, seconds / 4))   # the crowd arrives first
        await _probe(url, end, samples, failed, PROBE_SOURCES.get(kind, PROBE_ADDRESS))
    await started
    return {"kind": kind, "count": count, "guests": guests, "tally": tally, "fresh_ms": _quantiles(samples),
            "fresh_failed": failed[0] if probe else None}


async def probe(url: str, seconds: float, source: str = PROBE_ADDRESS) -> dict:
    """The fresh phone alone, for ``seconds``."""
    samples, failed = [], [0]
    await _probe(url, time.monotonic() + seconds, samples, failed, source)
    return {"fresh_ms": _quantiles(samples), "fresh_failed": failed[0]}


def _enough_files(count: int) -> None:
    # A socket is a file: hold ``count`` of them and a few more.
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = count + 64
    if soft != resource.RLIM_INFINITY and soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want if hard == resource.RLIM_INFINITY else min(want, hard), hard))


if __name__ == "__main__":
    flags = {a for a in sys.argv[1:] if a.startswith("--")}
    kind, url, seconds, *rest = [a for a in sys.argv[1:] if not a.startswith("--")]
    print(json.dumps(asyncio.run(crowd(kind, url, float(seconds), int(rest[0]) if rest else None,
                                       guests="--guests" in flags, probe="--no-probe" not in flags))), flush=True)
