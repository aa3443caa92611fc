"""Issue 16 item 3 (and issue 17's headers): the web page on an open Wi-Fi,
on the virtual table.  The floods themselves, on real processes, are in
test_web_split.py.
"""
from __future__ import annotations

import asyncio
import logging
import re
import socket
import urllib.parse

import aiohttp

import pytest

from referee.logs import WINDOW_SECONDS, Repeats
from referee.testing import Table
from referee.web import guard, live


@pytest.fixture
def t():
    with Table(seed=7, lang="en") as table:
        yield table


async def two_live_streams(session, url: str) -> list:
    """Two phones following ``/live``, each past its first message: they
    hold two places for as long as they are open."""
    streams = []
    for _ in range(2):
        streams.append(await session.get(url + "live"))
        while not (await streams[-1].content.readline()).startswith(b"data:"):
            pass
    return streams


def raw(t: Table, request: bytes) -> bytes:
    """``request`` sent as it is on a connection of its own; the answer."""
    address = urllib.parse.urlsplit(t.web_url())

    async def send():
        reader, writer = await asyncio.open_connection(address.hostname, address.port)
        writer.write(request)
        answer = await asyncio.wait_for(reader.read(), 5)
        writer.close()
        return answer
    return t.loop.run_until_complete(send())


@pytest.mark.parametrize("request_bytes", [
    b"GET / HTTP/1.1\r\nHost: x\r\nNo colon here\r\n\r\n",            # aiohttp's own 400
    b"GET /" + b"a" * (guard.LONGEST_LINE + 10) + b" HTTP/1.1\r\nHost: x\r\n\r\n",
    b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n",           # TLS at the plain port
], ids=["bad header", "long line", "tls"])
def test_even_answers_to_requests_no_route_saw_carry_the_security_headers(t, request_bytes):
    answer = raw(t, request_bytes)
    head = answer.split(b"\r\n\r\n", 1)[0].decode("latin-1")
    assert head.startswith("HTTP/1.") and head.split()[1] == "400"
    for header in ("Content-Security-Policy: default-src 'self'", "X-Content-Type-Options: nosniff",
                   "Referrer-Policy: no-referrer", "X-Frame-Options: DENY"):
        assert header in head, head


def test_a_page_is_rendered_once_per_change_whatever_the_query_string(t):
    t.start("decipher", players=["Ann", "Bob"])
    t.web_url()
    site = t._web.site
    tags = {t.get(f"/?r={n}")[1]["ETag"] for n in range(50)}
    assert len(tags) == 1 and len(site._cache) == 1            # one rendering for fifty addresses
    assert t.get("/e/?before=2000-01-02")[0] == 200 and len(site._cache) == 2   # a read parameter counts
    t.box.store.set_setting("test-change", 1)                  # a change at the table...
    t.get("/?r=new")
    assert len(site._cache) == 1                                # ...and the kept pages go


def test_a_new_phone_ends_the_oldest_stream_when_the_streams_are_full(t, monkeypatch):
    monkeypatch.setattr(live, "MOST_LISTENERS", 2)
    url = t.web_url() + "live"

    async def run():
        async with aiohttp.ClientSession() as session:
            streams = []
            for _ in range(3):
                r = await session.get(url)
                assert r.status == 200
                while not (await r.content.readline()).startswith(b"data:"):
                    pass
                streams.append(r)
            # The oldest was ended for the newest; the other two stay open.
            rest = await asyncio.wait_for(streams[0].content.read(), 5)
            assert streams[0].content.at_eof() and b"data:" not in rest
            assert t._web.site.hub.listeners == 2
            for r in streams:
                r.close()
    t.loop.run_until_complete(run())


def test_with_every_place_taken_by_idle_guests_a_new_phone_is_served_and_busy_ones_are_kept(t):
    """Guests holding connections open without a request (from addresses
    of their own, each within its limit) fill every place: the next phone
    takes the place of the oldest of them.  Connections busy with a request
    (here live streams) are never the ones closed."""
    url = t.web_url()
    address = urllib.parse.urlsplit(url)
    t._web.guard.most = 6

    async def run():
        async with aiohttp.ClientSession() as session:
            stream = await session.get(url + "live")
            while not (await stream.content.readline()).startswith(b"data:"):
                pass
            guests = [await asyncio.open_connection(address.hostname, address.port, local_addr=(f"127.1.0.{n}", 0))
                      for n in range(1, 6)]
            await asyncio.sleep(0.05)
            assert t._web.guard.total == 6
            phones = []
            for n in range(3):                     # three phones, one after another, keeping their connection
                phones.append(aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(f"127.0.0.{2 + n}", 0))))
                async with phones[-1].get(url) as r:
                    assert r.status == 200
            # The three oldest guests made room, oldest first; the stream stays.
            for n, (reader, writer) in enumerate(guests):
                if n < 3:
                    assert await asyncio.wait_for(reader.read(), 5) == b""
                else:
                    with pytest.raises(TimeoutError):
                        await asyncio.wait_for(reader.read(1), 0.1)
                writer.close()
            assert not stream.content.at_eof()
            stream.close()
            for phone in phones:
                await phone.close()
    t.loop.run_until_complete(run())
    assert t._web.guard.made_room == 3


def test_a_new_phone_waits_for_a_place_when_every_connection_is_busy(t):
    """Issue 27: with every place busy with a request (here live streams), a
    newcomer's first request is not refused: it waits, unread, for the
    first place that frees.  Only beyond the waiting line is one closed."""
    url = t.web_url()
    address = urllib.parse.urlsplit(url)
    t._web.guard.most, t._web.guard.most_waiting = 2, 1

    async def run():
        async with aiohttp.ClientSession() as session:
            streams = await two_live_streams(session, url)
            reader, writer = await asyncio.open_connection(address.hostname, address.port)
            writer.write(b"GET /api/evenings HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            answer = asyncio.ensure_future(reader.read())
            while t._web.guard.waiting == 0:
                await asyncio.sleep(0.01)
            # One more while one waits: beyond the line, closed as it opens.
            _, late = await asyncio.open_connection(address.hostname, address.port, local_addr=("127.0.0.3", 0))
            assert not answer.done()
            streams[0].close()                                    # a place frees
            assert (await asyncio.wait_for(answer, 5)).startswith(b"HTTP/1.1 200")
            writer.close()
            late.close()
            assert not streams[1].content.at_eof()
            streams[1].close()
    t.loop.run_until_complete(run())
    assert t._web.guard.waited == 1 and t._web.guard.turned_away == 1 and t._web.guard.made_room == 0


def unread_reader(host: str, port: int, source: str):
    """A connection that reads nothing: a 2 KB receive window, never emptied."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
    sock.bind((source, 0))
    sock.connect((host, port))
    return sock


def pipelined(path: str, count: int) -> bytes:
    return f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode() * count


def closed(sock: socket.socket, seconds: float = 5.0) -> bool:
    """Whether the web closed ``sock``: whatever it had sent read, then its end."""
    sock.settimeout(seconds)
    try:
        while sock.recv(65536):
            pass
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False
    return True


def test_with_every_place_busy_answering_peers_that_read_nothing_a_new_phone_takes_the_oldest_ones_place(t):
    url = t.web_url()
    address = urllib.parse.urlsplit(url)
    web = t._web.guard
    web.most = 3
    # Each asks for the style sheet (13 KB) 16 times at once, then reads nothing.
    readers = [unread_reader(address.hostname, address.port, f"127.0.0.{10 + n}") for n in range(3)]
    for sock in readers:
        sock.sendall(pipelined("/static/style.css", guard.MOST_PIPELINED))

    async def run():
        while web.unread < 3:
            await asyncio.sleep(0.01)
        async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=("127.0.0.2", 0))) as phone:
            async with phone.get(url) as r:
                assert r.status == 200
    t.loop.run_until_complete(run())
    assert (web.shed, web.made_room, web.waited) == (1, 0, 0)     # in at once, in the place of the first
    assert closed(readers[0]) and not closed(readers[1], 0.2) and not closed(readers[2], 0.2)
    for sock in readers:
        sock.close()


def test_those_waiting_for_a_place_are_let_in_from_the_quietest_address_first(t):
    """With every place busy, a crowd's address queues three newcomers
    before a phone's one: the first place that frees is the phone's."""
    url = t.web_url()
    address = urllib.parse.urlsplit(url)
    web = t._web.guard
    web.most = 2

    async def run():
        async with aiohttp.ClientSession() as session:
            streams = await two_live_streams(session, url)
            crowd = [await asyncio.open_connection(address.hostname, address.port, local_addr=("127.0.0.50", 0))
                     for _ in range(3)]
            for _reader, writer in crowd:
                writer.write(b"GET /api/evenings HTTP/1.1\r\nHost: x\r\n\r\n")
            reader, writer = await asyncio.open_connection(address.hostname, address.port,
                                                           local_addr=("127.0.0.2", 0))
            writer.write(b"GET /api/evenings HTTP/1.1\r\nHost: x\r\n\r\n")
            while web.waiting < 4:
                await asyncio.sleep(0.01)
            streams[0].close()                                    # one place frees
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)
            assert head.startswith(b"HTTP/1.1 200") and web.waiting == 3      # the crowd's three still wait
            for _reader, other in [*crowd, (reader, writer)]:
                other.close()
            streams[1].close()
    t.loop.run_until_complete(run())


def test_a_connection_with_more_requests_read_ahead_than_the_web_takes_is_closed(t):
    address = urllib.parse.urlsplit(t.web_url())
    web = t._web.guard
    greedy = socket.create_connection((address.hostname, address.port))
    greedy.sendall(pipelined("/static/style.css", 100))
    fair = socket.create_connection((address.hostname, address.port))
    fair.sendall(pipelined("/api/evenings", guard.MOST_PIPELINED))

    async def run():
        reader = asyncio.ensure_future(asyncio.to_thread(closed, greedy))
        answers = b""
        fair.setblocking(False)
        while answers.count(b"HTTP/1.1 200") < guard.MOST_PIPELINED:
            try:
                answers += fair.recv(65536)
            except BlockingIOError:
                await asyncio.sleep(0.01)
        return await reader
    assert t.loop.run_until_complete(run())
    assert web.overfull == 1
    greedy.close()
    fair.close()


def test_a_fault_repeated_in_a_loop_is_logged_once_a_minute_with_its_count():
    now = [0.0]
    kept = []
    handler = logging.Handler()
    handler.emit = lambda record: kept.append(handler.format(record))
    handler.addFilter(Repeats(clock=lambda: now[0]))
    logger = logging.getLogger("test.repeats")
    logger.addHandler(handler)
    logger.propagate = False
    try:
        for n in range(100_000):
            # asyncio's message for accept() out of descriptors: the socket below changes.
            logger.error("socket.accept() out of system resource\nsocket: <fd=%d>" % (n % 1000))
            logger.warning("web: %s failed", f"/g/{n}")
            now[0] += 0.001          # 100 000 in 100 s
        assert len(kept) == 4       # each kind at 0 s and again at 60 s
        counts = [int(n) for n in re.findall(r"\(and (\d+) more like it in the minute before\)", kept[2] + kept[3])]
        assert len(counts) == 2 and all(59_990 <= n <= 60_001 for n in counts), kept
    finally:
        logger.removeHandler(handler)
    assert WINDOW_SECONDS == 60
