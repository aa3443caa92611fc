"""The web server on an open Wi-Fi: what any guest's phone (or laptop) may
cost it, whatever it sends.

- **Headers in time**: aiohttp's keep-alive timer runs from the moment a
  connection opens until a whole request head is in, and again after every
  answer; a connection that drips its headers, or sends nothing, is closed
  after ``HEADER_SECONDS``.  A form's body has ``BODY_SECONDS``
  (``referee.web.app``).  Request lines and header fields are kept short.
- **Connections counted**: at most ``PER_ADDRESS`` open at once from one
  address (one more from it is closed as it opens, before a byte of it is
  read) and ``MOST_CONNECTIONS`` in all.  When all are taken, a newcomer
  takes the place of the oldest connection with no request under way (one
  that has sent nothing yet, or half a request head, or waits between two
  requests): a crowd of guests holding idle connections cannot lock the
  next phone out, and a phone that had one open simply opens another.  When
  every connection is busy with a request, the newcomer takes the place of
  the oldest one busy but unread (its answer waiting on a peer that reads
  nothing, below); when none is, the newcomer waits, unread, for the first
  place that frees (a request answered, a connection closed), with up to
  ``MOST_WAITING`` others and for ``HEADER_SECONDS`` at most; only beyond
  that is it closed.  Those waiting are let in from the address holding
  fewest connections first, then first come: a crowd opening again what
  was closed does not queue a fresh phone behind all of it.  The kernel keeps ``BACKLOG``
  connections not yet accepted (aiohttp's 128 overflowed with a few hundred
  keep-alive phones; the kernel caps it at ``net.core.somaxconn``, 4096 on
  Raspberry Pi OS).  The unit's ``LimitNOFILE=`` is set well above, so the
  process never runs out of descriptors (asyncio's ``accept()`` would then
  spin on the error).
- **Answers a peer does not read**: the kernel keeps at most about
  twice ``SEND_BUFFER`` bytes unsent for a connection (its own buffer grew
  to megabytes each, 365 MB for 511 connections that never read), and the
  connection's own buffer holds one answer at a time (aiohttp waits for it
  to drain before the next), so what a connection leaves unsent is bounded
  by that and the largest answer; a peer that reads nothing of its answer
  for ``HEADER_SECONDS`` (writing paused all that time) is closed.
  Requests sent ahead of their answers (pipelined) are read
  ``MOST_PIPELINED`` at most: one connection with more waiting is closed,
  and its address turned away for ``COOL_SECONDS``.
- **Headers on every answer**: the security headers are set as any answer
  is sent, aiohttp's own 400 for a request it could not parse included.
"""
from __future__ import annotations

import asyncio
import contextlib
import functools
import socket
from collections import Counter
from typing import TypedDict

from aiohttp import web
from aiohttp.http_exceptions import HttpProcessingError
from aiohttp.web_protocol import RequestPayloadError

from referee.web.team_pages import form_fields

HEADER_SECONDS = 10.0
BODY_SECONDS = 10.0        # to send a form's body, once its headers are in
MOST_CONNECTIONS = 512
MOST_WAITING = 256      # newcomers held while every connection is busy with a request
LOOK_SECONDS = 0.05     # while some wait: how often to look for a connection that finished its request
SETTLE_SECONDS = 1.0    # a connection just let in is not the idle one a newcomer displaces
BACKLOG = 2048
PER_ADDRESS = 32        # a phone opens about six; a few phones behind one NAT
LONGEST_LINE = 4096     # request line or header field, bytes
MOST_HEADERS = 48
SEND_BUFFER = 32 * 1024     # SO_SNDBUF of each connection: the kernel keeps about twice that unsent
MOST_PIPELINED = 16         # requests read ahead of their answers (a browser sends one at a time)
COOL_SECONDS = 10.0         # an address that sent more is turned away this long
KEPT_ADDRESSES = 4096       # addresses so remembered at once

class HandlerArgs(TypedDict):
    """aiohttp's own request handler settings, as web.AppRunner takes them."""
    keepalive_timeout: float
    max_line_size: int
    max_field_size: int
    max_headers: int
    lingering_time: float
    handler_cancellation: bool


# For web.AppRunner(**HANDLER_ARGS).
HANDLER_ARGS = HandlerArgs(keepalive_timeout=HEADER_SECONDS, max_line_size=LONGEST_LINE,
                           max_field_size=LONGEST_LINE, max_headers=MOST_HEADERS, lingering_time=1.0,
                           handler_cancellation=True)

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
       "base-uri 'none'; form-action 'self'; frame-ancestors 'none'")


def secure(headers) -> None:
    headers.setdefault("Content-Security-Policy", CSP)
    headers.setdefault("X-Content-Type-Options", "nosniff")
    headers.setdefault("Referrer-Policy", "no-referrer")
    headers.setdefault("X-Frame-Options", "DENY")
    headers.setdefault("Cross-Origin-Opener-Policy", "same-origin")
    headers.setdefault("Cache-Control", "no-cache")


class SecureRequest(web.Request):
    """A request whose every answer carries the security headers.  The app's
    ``on_response_prepare`` only runs for requests that reached a route;
    this hook runs for all, aiohttp's own error answers included."""

    async def _prepare_hook(self, response: web.StreamResponse) -> None:
        secure(response.headers)
        await super()._prepare_hook(response)


def secure_requests(runner: web.AppRunner, app: web.Application) -> None:
    """Make ``runner`` (set up, not yet listening) build ``SecureRequest``s."""
    runner.server.request_factory = functools.partial(app._make_request, _cls=SecureRequest)


class _Counted(asyncio.Protocol):
    """aiohttp's protocol for one connection, opened only within the limits."""

    def __init__(self, guard: Guard, handler) -> None:
        self._guard, self._handler, self._address = guard, handler, None
        self._transport = None
        self._open = False
        self.stalled: float | None = None     # since when its answer waits on a peer that reads nothing
        self._since = 0.0                     # when it was given its place
        self._stall = None

    def connection_made(self, transport) -> None:
        peer = transport.get_extra_info("peername")
        address = peer[0] if isinstance(peer, tuple) else ""
        self._address, self._transport = address, transport
        sock = transport.get_extra_info("socket")
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)
        admitted = self._guard.admit(self)
        if admitted is None:
            transport.abort()
        elif not admitted:
            transport.pause_reading()   # what it sends waits in the kernel meanwhile

    def start(self) -> None:
        """Given a place: aiohttp takes the connection from here."""
        if not self._open and not self._transport.is_closing():
            self._open = True
            self._since = asyncio.get_running_loop().time()
            self._handler.connection_made(self._transport)
            self._transport.resume_reading()

    def connection_lost(self, exc) -> None:
        if self._stall is not None:
            self._stall.cancel()
            self._stall = None
        self._guard.release(self)
        if self._open:
            self._open = False
            self._handler.connection_lost(exc)

    @property
    def address(self) -> str:
        return self._address

    @property
    def idle(self) -> bool:
        """No request under way: nothing or half a head received yet, or
        between two requests.  (aiohttp's handler keeps the request it
        answers, and those whose heads are in, on these two attributes.)"""
        if asyncio.get_running_loop().time() - self._since < SETTLE_SECONDS:
            return False     # let in a moment ago: what it sent while it waited is not read yet
        return getattr(self._handler, "_current_request", None) is None and not getattr(self._handler, "_messages", ())

    def make_room(self) -> None:
        """Closed for a newcomer, or after waiting too long for a place."""
        self._guard.drop(self)
        self._transport.abort()

    def data_received(self, data: bytes) -> None:
        if data.count(b"\r\n\r\n") > MOST_PIPELINED:     # more heads at once than it may send: not parsed
            self._guard.pipelining(self)
            return
        self._handler.data_received(data)
        if len(getattr(self._handler, "_messages", ())) > MOST_PIPELINED:
            self._guard.pipelining(self)

    def eof_received(self):
        return self._handler.eof_received() if self._open else None

    def pause_writing(self) -> None:
        """The peer reads less than it is sent: busy but unread, until
        ``resume_writing``; closed if it reads nothing for ``HEADER_SECONDS``."""
        loop = asyncio.get_running_loop()
        self.stalled = loop.time()
        self._stall = loop.call_later(HEADER_SECONDS, self._unread)
        self._handler.pause_writing()

    def resume_writing(self) -> None:
        if self.stalled is None:
            return
        self.stalled = None
        if self._stall is not None:
            self._stall.cancel()
            self._stall = None
        self._handler.resume_writing()

    def _unread(self) -> None:
        self._stall = None
        if self.stalled is not None:
            self._guard.overfull += 1
            self.make_room()


class Guard:
    def __init__(self, most: int = MOST_CONNECTIONS, per_address: int = PER_ADDRESS,
                 most_waiting: int = MOST_WAITING) -> None:
        self.most, self.per_address, self.most_waiting = most, per_address, most_waiting
        self.open: Counter[str] = Counter()            # connections and newcomers waiting, by address
        self._connections: dict[_Counted, None] = {}   # oldest first
        self._waiting: dict[_Counted, float] = {}      # first come first; when each gives up
        self._look = None
        self.turned_away = 0
        self.made_room = 0
        self.shed = 0           # busy but unread, closed for a newcomer
        self.overfull = 0       # closed over MOST_PIPELINED, or unread too long
        self._cool: dict[str, float] = {}      # an address that pipelined too much -> when it may come again
        self.waited = 0

    @property
    def total(self) -> int:
        return len(self._connections)

    @property
    def waiting(self) -> int:
        return len(self._waiting)

    @property
    def unread(self) -> int:
        """Connections busy but unread: an answer waits on a peer that reads nothing."""
        return sum(c.stalled is not None for c in self._connections)

    def admit(self, connection: _Counted) -> bool | None:
        """True: in; False: waits for a place (``start`` gives it one); None: closed."""
        address = connection.address
        if (self.open[address] >= self.per_address or len(self._waiting) >= self.most_waiting
                or self._cooling(address)):
            self.turned_away += 1
            return None
        self.open[address] += 1
        loop = asyncio.get_running_loop()
        self._waiting[connection] = loop.time() + HEADER_SECONDS
        self._let_in()
        if connection not in self._waiting:
            return True
        self.waited += 1
        if self._look is None:
            self._look = loop.call_later(LOOK_SECONDS, self._look_again)
        return False

    def _let_in(self) -> None:
        """Places to those waiting, first come first, idle connections making
        room, then those busy but unread (both oldest first)."""
        while self._waiting:
            if self.total >= self.most:
                oldest = next((c for c in self._connections if c.idle), None)
                if oldest is not None:
                    self.made_room += 1
                else:
                    oldest = next((c for c in self._connections if c.stalled is not None), None)
                    if oldest is None:
                        return
                    self.shed += 1
                oldest.make_room()
            # The one from the address holding fewest connections first (then
            # first come): a crowd's addresses opening again what was closed
            # must not queue a fresh phone behind all of them.
            newcomer = min(self._waiting, key=lambda c: self.open[c.address])
            del self._waiting[newcomer]
            self._connections[newcomer] = None
            newcomer.start()

    def _look_again(self) -> None:
        self._look = None
        now = asyncio.get_running_loop().time()
        for connection, give_up in list(self._waiting.items()):
            if give_up <= now:
                self.turned_away += 1
                connection.make_room()
        self._let_in()
        if self._waiting:
            self._look = asyncio.get_running_loop().call_later(LOOK_SECONDS, self._look_again)

    def drop(self, connection: _Counted) -> None:
        """Forget ``connection``, in or waiting (idempotent)."""
        if self._connections.pop(connection, False) is None or self._waiting.pop(connection, None) is not None:
            address = connection.address
            self.open[address] -= 1
            if not self.open[address]:
                del self.open[address]

    def pipelining(self, connection: _Counted) -> None:
        """``connection`` sent more requests ahead than the web reads: closed,
        and its address turned away for ``COOL_SECONDS`` (a browser never
        does it; a crowd opening again what was closed would keep the web
        busy parsing)."""
        self.overfull += 1
        if len(self._cool) >= KEPT_ADDRESSES:
            self._cool.pop(next(iter(self._cool)))
        self._cool[connection.address] = asyncio.get_running_loop().time() + COOL_SECONDS
        connection.make_room()

    def _cooling(self, address: str) -> bool:
        until = self._cool.get(address)
        if until is None:
            return False
        if until > asyncio.get_running_loop().time():
            return True
        del self._cool[address]
        return False

    def release(self, connection: _Counted) -> None:
        """``connection`` closed: its place goes to the first waiting."""
        self.drop(connection)
        self._let_in()

    def close(self) -> None:
        """The server stops: nobody waits any longer."""
        if self._look is not None:
            self._look.cancel()
            self._look = None
        for connection in list(self._waiting):
            connection.make_room()


class GuardedSite(web.TCPSite):
    """``web.TCPSite``, each connection admitted by a ``Guard`` first."""

    def __init__(self, runner: web.AppRunner, host: str, port: int, guard: Guard | None = None) -> None:
        super().__init__(runner, host, port, backlog=BACKLOG)
        self.guard = guard or Guard()

    async def start(self) -> None:
        await web.BaseSite.start(self)   # registers the site with the runner
        server = self._runner.server
        self._server = await asyncio.get_running_loop().create_server(
            lambda: _Counted(self.guard, server()), self._host, self._port,
            backlog=self._backlog, reuse_address=self._reuse_address)
        self._bound_port = self._server.sockets[0].getsockname()[1]

    async def stop(self) -> None:
        self.guard.close()
        await super().stop()


async def posted(request: web.Request) -> dict[str, str]:
    """A page's posted form as short strings: 400 for anything that is not
    one, 408 for a body dripped in too slowly to hold a connection."""
    try:
        async with asyncio.timeout(BODY_SECONDS):
            form = await request.post()
    except (ValueError, UnicodeDecodeError, HttpProcessingError, RequestPayloadError):
        raise web.HTTPBadRequest() from None
    except TimeoutError:
        raise web.HTTPRequestTimeout() from None
    fields = form_fields(form)
    if fields is None:
        raise web.HTTPBadRequest()
    return fields
