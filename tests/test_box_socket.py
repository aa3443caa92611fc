"""Issue 27, the box's socket (``referee.channel``, served by
``referee.box.channel_end`` on ``referee.box.linesock``): what a local client of the
same user can cost a real ``referee run``, whatever it sends or withholds,
and the made-up page addresses the web no longer hands on.  Issue 24 item 3:
the one line server behind both of the box's sockets."""
from __future__ import annotations

import asyncio
import contextlib
import json
import os
import secrets
import socket
import subprocess
import sys
import urllib.parse

import aiohttp
import pytest

from referee import channel
from referee.web import names_page
from referee.box import linesock, sim_control
from referee.testing import Table as VirtualTable
from test_web_split import Table, start_decrypto, table  # noqa: F401  the fixture

MIB = 1024 * 1024
NO_GAME = {"game": None, "said": "", "phase": "", "outcome": False, "staged": False, "countdown": None}   # the table view's part of a watch, at the menus


def box_socket(t: Table) -> socket.socket:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.connect(channel.socket_path(t.db))
    sock.settimeout(10)
    return sock


def answer(sock: socket.socket) -> dict | None:
    """The next line the box sends, None if it hung up first."""
    got = b""
    while not got.endswith(b"\n"):
        try:
            part = sock.recv(4096)
        except ConnectionResetError:
            part = b""
        if not part:
            return None
        got += part
    return json.loads(got)


def ask(sock: socket.socket, line: bytes) -> dict | None:
    sock.sendall(line + b"\n")
    return answer(sock)


def memory(pid: int) -> dict[str, int]:
    """The process's resident set now and at its peak, in bytes."""
    with open(f"/proc/{pid}/status") as f:
        fields = dict(line.split(":", 1) for line in f)
    return {name: int(fields[name].split()[0]) * 1024 for name in ("VmRSS", "VmHWM")}


def stream(sock: socket.socket, data: bytes, total: int) -> int:
    """Sends ``data`` over and over up to ``total`` bytes, until the box
    hangs up; the bytes it took."""
    sent = 0
    sock.settimeout(10)
    try:
        while sent < total:
            sent += sock.send(data)
    except (BrokenPipeError, ConnectionResetError):
        pass
    return sent


def names_path(t: Table) -> str:
    assert t.press("B") == ["ok"]    # the setup form's names page, as a QR code
    [qr] = [line[3:] for line in t.screen().splitlines() if line.startswith("QR ")]
    return urllib.parse.urlsplit(qr).path


def test_a_stream_after_watch_or_without_end_of_line_costs_the_box_no_memory(table):
    t = table
    with box_socket(t) as warm:
        assert ask(warm, b'{"op":"ping"}') == {"ok": True}
    before = memory(t.box.pid)
    # Before: after a watch the box read everything until the connection
    # ended (38 -> 456 MiB after 400 MiB sent).
    with box_socket(t) as watcher:
        assert ask(watcher, b'{"op":"watch"}') == {"ok": True, "names": None, "merges": None, "table": NO_GAME}
        taken = stream(watcher, b"x" * 65536, 400 * MIB)
        assert taken < 400 * MIB                                   # it hung up on the stream ...
        assert answer(watcher) == {"error": "a listening connection takes no requests"}
    with box_socket(t) as endless:
        stream(endless, b"{" * 65536, 400 * MIB)                   # one line, never ended
        assert answer(endless) == {"error": "line too long"}
    with box_socket(t) as deaf:                                    # requests, their answers never read
        deaf.setblocking(False)
        sent = 0
        with contextlib.suppress(BlockingIOError):
            while sent < 400 * MIB:
                sent += deaf.send(b'{"op":"ping"}\n' * 4096)
        assert sent < 400 * MIB                                    # the box stopped reading
        mid = memory(t.box.pid)
        assert mid["VmRSS"] - before["VmRSS"] <= 5 * MIB, (before, mid)
    after = memory(t.box.pid)
    assert after["VmHWM"] - before["VmHWM"] <= 5 * MIB, (before, after)
    assert after["VmRSS"] - before["VmRSS"] <= 5 * MIB, (before, after)
    with box_socket(t) as again:
        assert ask(again, b'{"op":"ping"}') == {"ok": True}


MALFORMED = [
    (b'{"op":[]}', "not a request: Expected `str` - at `$.op`"),
    (b'{"op":{}}', "not a request: Expected `str` - at `$.op`"),
    (b'{"op":"team","token":"' + b"A" * 26 + b'","event":' + b"[" * 30_000 + b"]" * 30_000 + b"}",
     "not a request: Expected `object`, got `array` - at `$.event`"),
    (b'{"op":"team","token":"' + b"A" * 26 + b'","event":{"a":' + b"[" * 30_000 + b"]" * 30_000 + b"}}",
     "nested too deep"),
    (b"[" * 30_000 + b"]" * 30_000, "not a request: Expected `object`, got `array`"),
    (b'{"op":"ping"', "not a JSON object"),
    (b"\xff\xfe", "not a JSON object"),
    (b"", "not a JSON object"),
    (b'"ping"', "not a request: Expected `object`, got `str`"),
    (b'{"op":"nope"}', "unknown op 'nope'"),
    (b'{"op":"team","token":"A"}', "not a request: Object missing required field `event`"),
    (b'{"op":"team","token":7,"event":{}}', "not a request: Expected `str`, got `int` - at `$.token`"),
    (b'{"op":"names.submit","token":"A","fields":{"n1":7}}',
     "not a request: Expected `str`, got `int` - at `$.fields[...]`"),
    (b'{"op":"names.view","token":"' + b"A" * 65 + b'"}',
     "not a request: Expected `str` of length <= 64 - at `$.token`"),
    (b'{"op":"team","token":"' + b"A" * 26 + b'","event":{"type":"Clues","team":[]}}', "no such page"),
]


def test_every_malformed_request_is_answered_with_an_error_and_the_connection_stays(table):
    # Before: {"op":[]}, {"op":{}} and JSON nested 50 000 deep closed the
    # connection with a TypeError traceback in the box's journal.
    t = table
    logged = t.log_size("box.log")
    with box_socket(t) as sock:
        for line, why in MALFORMED:
            assert ask(sock, line) == {"error": why}, line[:40]
            assert ask(sock, b'{"op": "ping"}') == {"ok": True}              # still in step
        assert ask(sock, b'{"op":"watch"}') == {"ok": True, "names": None, "merges": None, "table": NO_GAME}
    with box_socket(t) as sock:                       # 50 000 deep is longer than a line may be
        assert ask(sock, b'{"op":"team","event":' + b"[" * 50_000 + b"]" * 50_000 + b"}") == \
            {"error": "line too long"}
        assert answer(sock) is None                   # and out of step: the connection ends
    assert t.log_size("box.log") == logged                                    # no traceback


HOLDER = """
import socket, sys
held = [socket.socket(socket.AF_UNIX) for _ in range(int(sys.argv[2]))]
for sock in held:
    sock.connect(sys.argv[1])
print("held", flush=True)
sys.stdin.read()
"""


def test_idle_connections_do_not_lock_the_web_out(table):
    # Before: 32 idle connections took every place (ping reset, GET /N/… 503,
    # still 12 s later).
    t = table
    assert t.press("1") == ["ok"]                      # Decrypto's setup form
    path = names_path(t)
    held = [box_socket(t) for _ in range(40)]
    holders = []
    try:
        # This process has its share; the 17th on is turned away at once.
        assert answer(held[channel.PER_PROCESS]) == answer(held[-1]) == {"error": "too many connections"}
        for _ in range(3):
            assert t.get(path)[0] == 200                 # the web asks the box as before
        # Other processes take every place left: the web's questions take
        # the places of the greediest.
        for _ in range(channel.MOST_CONNECTIONS // channel.PER_PROCESS):
            holder = subprocess.Popen([sys.executable, "-c", HOLDER, channel.socket_path(t.db),
                                       str(channel.PER_PROCESS)], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
            holders.append(holder)
            assert holder.stdout.readline() == b"held\n"
        for _ in range(3):
            assert t.get(path)[0] == 200
        assert t.press("*", "#") == ["ok", "ok"]         # the game starts: the page is gone
        assert "Round 1" in t.screen()
        assert t.get(path)[0] == 404
    finally:
        for sock in held:
            sock.close()
        for holder in holders:
            holder.stdin.close()
            holder.wait(10)
            holder.stdout.close()
    with box_socket(t) as sock:
        assert ask(sock, b'{"op":"ping"}') == {"ok": True}


def test_made_up_page_addresses_are_refused_by_the_web(table):
    t = table
    assert t.press("1") == ["ok"]
    path = names_path(t)
    for _ in range(100):
        token = secrets.token_hex(13).upper()[:26].translate(str.maketrans("018", "ABC"))
        assert t.get(f"/N/{token}")[0] == 404
        assert t.get(f"/T/{token}")[0] == 404
    assert t.get(path)[0] == 200
    assert t.get(path.lower().replace("/n/", "/N/"))[0] == 200


def test_made_up_page_addresses_never_reach_the_box():
    """Counted at the box's end of the channel: a made-up address costs it
    nothing at all."""
    with VirtualTable(seed=3, lang="en") as t:
        t.web_url()
        seen: list[bytes] = []
        answer_line = t._channel.answer
        t._channel.server.handle = lambda line, connection: (seen.append(line), channel.line(
            answer_line(line, connection)))[1]
        t.press("1")
        t.press("B")
        [qr] = [line[3:] for line in t.screen().splitlines() if line.startswith("QR ")]
        path = urllib.parse.urlsplit(qr).path
        made_up = [secrets.token_hex(13).upper().translate(str.maketrans("0189", "ABCD")) for _ in range(50)]

        async def crowd():
            # Within the web's places for one address (referee.web.guard.PER_ADDRESS).
            async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=16)) as http:
                async def one(token):
                    async with http.get(t.web_url() + "N/" + token) as r:
                        return r.status
                return await asyncio.gather(*(one(token) for token in made_up))

        assert set(t.loop.run_until_complete(crowd())) == {404}
        assert not [line for line in seen if any(token.encode() in line for token in made_up)]
        assert t.get(path)[0] == 200
        # The web knew which page was open from the box's change notices.
        assert not [line for line in seen if b"names" in line and b"view" not in line]
        assert t._web.app[names_page.OPEN_PAGE].asked == 0


# --- the line server both sockets share (issue 24 item 3) ---------------------------------------

def test_the_line_server_closes_idle_connections_and_keeps_listeners(tmp_path):
    async def scene():
        path = str(tmp_path / "s.sock")
        (tmp_path / "s.sock").touch()
        with pytest.raises(FileExistsError):                   # not a socket: not ours to remove
            await linesock.LineServer(path, None, None, longest=64, most=4, per_peer=4, idle=1).start()
        os.unlink(path)
        stale = socket.socket(socket.AF_UNIX)
        stale.bind(path)                                       # a socket left by a box that lost its power
        stale.close()

        def handle(line, connection):
            if line == b"listen":
                connection.listen()
            return b"ok " + line

        server = linesock.LineServer(path, handle, lambda why: b"error " + why.encode(),
                                     longest=64, most=4, per_peer=4, idle=0.05)
        await server.start()
        assert oct(os.stat(path).st_mode & 0o777) == "0o600"
        idle_r, idle_w = await asyncio.open_unix_connection(path)
        listen_r, listen_w = await asyncio.open_unix_connection(path)
        listen_w.write(b"listen\n")
        assert await listen_r.readline() == b"ok listen\n"
        assert await idle_r.read() == b""                      # closed for its silence
        assert len(server.connections) == 1
        for connection in server.connections:
            connection.send(b"notice")
        assert await listen_r.readline() == b"notice\n"        # the listener waits without limit
        long_r, long_w = await asyncio.open_unix_connection(path)
        long_w.write(b"y" * 200 + b"\n")
        assert await long_r.read() == b"error line too long\n"
        server.close()
        assert await listen_r.read() == b""
        assert not os.path.exists(path)
        for writer in (idle_w, listen_w, long_w):
            writer.close()
            await writer.wait_closed()

    asyncio.run(scene())


def test_the_remote_hand_answers_in_its_own_words(tmp_path):
    control = tmp_path / "hand.sock"
    with VirtualTable(seed=1, lang="en") as t:
        hand = t.loop.run_until_complete(sim_control.serve(t.box, str(control)))

        async def talk():
            reader, writer = await asyncio.open_unix_connection(str(control))
            writer.write(b"ready\nnope\n" + b"z" * 2000 + b"\n")
            got = [await reader.readline() for _ in range(3)]
            writer.close()
            return got

        try:
            assert isinstance(hand.server, linesock.LineServer)
            assert isinstance(t._channel.server, linesock.LineServer)
            assert oct(os.stat(control).st_mode & 0o777) == "0o600"
            assert t.loop.run_until_complete(talk()) == [b"ok\n", b"error unknown command 'nope'\n",
                                                         b"error line too long\n"]
        finally:
            hand.close()


def test_while_the_web_is_not_told_of_changes_a_crowd_of_addresses_shares_one_question():
    from referee.web.names_page import OpenPage

    class Restarting:
        """The box's end as the web sees it while its watch is down."""
        watching, names, asked = False, None, 0

        async def ask(self, op):
            self.asked += 1
            return {"token": "A" * 26}

    async def scene():
        box = Restarting()
        page = OpenPage(box)
        assert set(await asyncio.gather(*(page.is_open("B" * 26) for _ in range(20)))) == {False}
        assert box.asked == 1
        assert await page.is_open("a" * 26) and box.asked == 1      # the page it knows: no question
        box.watching, box.names = True, "C" * 26
        assert await page.is_open("C" * 26) and not await page.is_open("A" * 26)
        assert box.asked == 1

    asyncio.run(scene())
