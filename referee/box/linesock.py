"""A line server on a Unix socket: the box's two listeners share it (the
web's channel, ``referee.box.channel_end``, and the control socket,
``referee.box.sim_control``).

What one local client can cost the box, whatever it sends or withholds:

- **Its owner's alone**: the socket is bound under umask 0177, so there is
  no moment when others may connect.  A socket left at the path by a box
  that lost its power is removed; anything else there is not ours to remove.
- **Lines capped**: a request is one line of at most ``longest`` bytes.  A
  longer one is answered with an error and the connection ends (it is out of
  step); the reader holds at most twice ``longest`` of it meanwhile.
- **Idle connections closed**: one that sends no whole line for ``idle``
  seconds, or reads no answer for as long, is closed.  A connection that
  has turned listener (``Connection.listen``: the web's change notices)
  waits without limit but may send nothing more; whatever it sends ends it,
  and notices it does not read are not piled up (``Connection.send``).
- **Places shared by process**: connections are counted by the peer's
  process (``SO_PEERCRED``): at most ``per_peer`` from one, ``most`` in all.
  When all are taken, a newcomer from a process that holds fewer than
  another takes the place of that other's oldest connection, so no client
  of the same user can lock another (the web) out by holding places.

``handle(line, connection)`` answers one request line (without its end of
line) with the answer line (bytes, without its end of line), plain or
awaited; ``refuse(why)`` makes the error line the protocol says for a
request it cannot take.
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import stat
import struct
from collections import Counter
from typing import Awaitable, Callable

log = logging.getLogger(__name__)

Handler = Callable[[bytes, "Connection"], "bytes | Awaitable[bytes]"]


class Connection:
    """One client's connection, as its handler sees it."""

    def __init__(self, server: LineServer, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                 peer: int) -> None:
        self.server, self.reader, self.writer, self.peer = server, reader, writer, peer
        self.listening = False

    def listen(self) -> None:
        """From the answer to this request on, the connection only carries
        what the box sends (``send``), for as long as the client stays."""
        self.listening = True

    def send(self, line: bytes) -> None:
        """A line to a listener, never waited for: one that has not read the
        last ``longest`` bytes sent is closed rather than let them pile up."""
        transport = self.writer.transport
        if transport.is_closing() or transport.get_write_buffer_size() > self.server.longest:
            self.close()
        else:
            self.writer.write(line + b"\n")

    def close(self) -> None:
        self.server._forget(self)
        self.writer.close()


class LineServer:
    def __init__(self, path: str, handle: Handler, refuse: Callable[[str], bytes], *, longest: int,
                 most: int, per_peer: int, idle: float) -> None:
        self.path = path
        self.handle, self.refuse = handle, refuse
        self.longest, self.most, self.per_peer, self.idle = longest, most, per_peer, idle
        self.connections: dict[Connection, None] = {}   # oldest first
        self.held: Counter[int] = Counter()             # connections by peer process
        self.turned_away = 0
        self._server: asyncio.AbstractServer | None = None

    async def start(self) -> None:
        _clear_stale(self.path)
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        mask = os.umask(0o177)
        try:
            sock.bind(self.path)
        except OSError:
            sock.close()
            raise
        finally:
            os.umask(mask)
        self._server = await asyncio.start_unix_server(self._serve, sock=sock, limit=self.longest)

    @property
    def serving(self) -> bool:
        return self._server is not None

    def close(self) -> None:
        if self._server is None:
            return
        self._server.close()
        self._server = None
        for connection in list(self.connections):
            connection.close()
        with contextlib.suppress(OSError):
            if stat.S_ISSOCK(os.lstat(self.path).st_mode):
                os.unlink(self.path)

    async def aclose(self) -> None:
        """``close``, and wait until every connection has closed."""
        writers = [c.writer for c in self.connections]
        self.close()
        for writer in writers:
            with contextlib.suppress(OSError):
                await writer.wait_closed()

    # --- places ------------------------------------------------------------------

    def _admit(self, peer: int) -> bool:
        if self.held[peer] >= self.per_peer:
            return False
        if len(self.connections) < self.most:
            return True
        # Full: the process holding the most gives up its oldest place (one
        # that asks rather than listens, if it has one), if it holds more
        # than the newcomer's would then.
        greediest, count = self.held.most_common(1)[0]
        if count <= self.held[peer] + 1:
            return False
        theirs = [c for c in self.connections if c.peer == greediest]
        next((c for c in theirs if not c.listening), theirs[0]).close()
        return True

    def _forget(self, connection: Connection) -> None:
        if self.connections.pop(connection, False) is None:
            self.held[connection.peer] -= 1
            if not self.held[connection.peer]:
                del self.held[connection.peer]

    # --- one connection ----------------------------------------------------------

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        peer = _peer(writer)
        if not self._admit(peer):
            self.turned_away += 1
            writer.write(self.refuse("too many connections") + b"\n")
            writer.close()
            return
        connection = Connection(self, reader, writer, peer)
        self.connections[connection] = None
        self.held[peer] += 1
        try:
            while connection in self.connections:
                if connection.listening:
                    await self._listener(connection)
                    break
                try:
                    async with asyncio.timeout(self.idle):
                        line = await reader.readline()
                except ValueError:
                    writer.write(self.refuse("line too long") + b"\n")
                    break
                if not line.endswith(b"\n"):
                    break   # the client hung up (a last line cut short is no request)
                answer = await self._answer(line[:-1], connection)
                if connection not in self.connections:
                    break
                writer.write(answer + b"\n")
                async with asyncio.timeout(self.idle):
                    await writer.drain()
        except (TimeoutError, ConnectionError):
            pass   # idle too long, or gone
        finally:
            connection.close()

    async def _answer(self, line: bytes, connection: Connection) -> bytes:
        try:
            answer = self.handle(line, connection)
            return answer if isinstance(answer, bytes) else await answer
        except Exception as exc:
            log.exception("%s: a request failed", os.path.basename(self.path))
            return self.refuse(type(exc).__name__)

    async def _listener(self, connection: Connection) -> None:
        # Read only to notice the client leave; a request now is out of step.
        if await connection.reader.read(self.longest):
            connection.writer.write(self.refuse("a listening connection takes no requests") + b"\n")


def _peer(writer: asyncio.StreamWriter) -> int:
    """The connecting process's id (0 where the system does not say)."""
    sock = writer.get_extra_info("socket")
    try:
        pid, _uid, _gid = struct.unpack("3i", sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED,
                                                              struct.calcsize("3i")))
    except (AttributeError, OSError):
        return 0
    return pid


def _clear_stale(path: str) -> None:
    # A socket left by a box that lost its power goes; anything else at that
    # path is not ours to remove.
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return
    if not stat.S_ISSOCK(mode):
        raise FileExistsError(f"{path} exists and is not a socket")
    os.unlink(path)
