"""Live pages: one server-sent event stream, ``/live``, that says "something
changed at the table" and nothing else.

The box tells the web after every change (``referee.channel``, op
``watch``); the web looks at the store's version, and each open stream sends
the new number as soon as the loop comes round; the page (``live.js``)
fetches itself again.  The message carries no game data at all, so no
secret can travel in it, and a phone that missed a few only sees the
newest.

Streams are capped: a new phone is never turned away, the oldest stream is
ended for it instead (its page reconnects, and if that one is old too, the
crowd takes turns).  Browsers reconnect by themselves after a dropped
stream; ``live.js`` also after a refusal, with a growing pause.

The table view's stream (``referee.web.table``) is a ``Hub`` too, whose
``message`` carries the view itself: what only public pages show.
"""
from __future__ import annotations

import asyncio

from aiohttp import web

MOST_LISTENERS = 200
KEEPALIVE_SECONDS = 15.0    # a comment line now and then, so idle Wi-Fi keeps the stream
RETRY_MS = 1000             # how soon a browser reconnects (after a restart of the web)
# A stream that takes nothing for this long while its buffer is full (a
# phone gone from the Wi-Fi without a word) is ended: each stream holds at
# most one message and the transport's buffer, never a queue that grows.
WRITE_SECONDS = 10.0


class Hub:
    """The streams of one site.  With a ``reader`` (referee.web.reader) the
    version is the store's; without one, ``changed`` counts."""

    def __init__(self, reader=None) -> None:
        self.reader = reader
        self.closed = False
        self._wakes: dict[asyncio.Event, bool] = {}   # oldest first; True: told to end
        self._count = 0
        if reader is not None:
            reader.watchers.append(self._wake_all)

    @property
    def version(self) -> int:
        return self.reader.version if self.reader is not None else self._count

    @property
    def listeners(self) -> int:
        return len(self._wakes)

    def changed(self) -> None:
        """The box said something changed: look at the store (which wakes
        every stream if it moved on, whoever looks first)."""
        if self.reader is None:
            self._count += 1
            self._wake_all()
        else:
            self.reader.refresh()

    def _wake_all(self) -> None:
        for wake in self._wakes:
            wake.set()

    wake = _wake_all

    def message(self, version) -> bytes:
        """What a stream is sent for ``version``: here the number alone."""
        return f"data: {version}\n\n".encode()

    keepalive = b": still here\n\n"

    def close(self) -> None:
        """End every stream (the server is stopping)."""
        self.closed = True
        for wake in self._wakes:
            wake.set()

    def _make_room(self) -> None:
        for wake, ending in self._wakes.items():
            if not ending:
                self._wakes[wake] = True
                wake.set()
                return

    async def stream(self, request: web.Request) -> web.StreamResponse:
        if self.closed:
            raise web.HTTPServiceUnavailable()
        if sum(not ending for ending in self._wakes.values()) >= MOST_LISTENERS:
            self._make_room()
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-store",
                                               "X-Accel-Buffering": "no"})
        wake = asyncio.Event()
        self._wakes[wake] = False
        try:
            await response.prepare(request)
            await response.write(f"retry: {RETRY_MS}\n\n".encode())
            sent = None
            while not self.closed and not self._wakes[wake]:
                wake.clear()  # before looking: a change while writing wakes the next wait
                if self.reader is not None:
                    self.reader.refresh()
                if self.version != sent:
                    sent = self.version
                    await _write(response, self.message(sent))
                try:
                    await asyncio.wait_for(wake.wait(), KEEPALIVE_SECONDS)
                except TimeoutError:
                    await _write(response, self.keepalive)
        except (ConnectionError, _Stuck):
            pass  # the phone went away
        finally:
            self._wakes.pop(wake, None)
        return response


class _Stuck(Exception):
    """A stream whose reader took nothing for ``WRITE_SECONDS``."""


async def _write(response: web.StreamResponse, data: bytes) -> None:
    try:
        async with asyncio.timeout(WRITE_SECONDS):
            await response.write(data)
    except TimeoutError:
        raise _Stuck() from None
