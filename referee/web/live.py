"""Live pages: one server-sent event stream, ``/live``, that says "something
changed at the table" and nothing else.

Every change the box makes bumps ``Hub.version``; each open stream sends the
new number as soon as the loop comes round, and the page (``live.js``)
fetches itself again.  The message carries no game data at all, so no
secret can travel in it, and a phone that missed a few only sees the
newest.
"""
from __future__ import annotations

import asyncio

from aiohttp import web

MOST_LISTENERS = 200
KEEPALIVE_SECONDS = 15.0    # a comment line now and then, so idle Wi-Fi keeps the stream
RETRY_MS = 1000             # how soon a browser reconnects (after a restart of the box)


class Hub:
    def __init__(self) -> None:
        self.version = 0
        self.closed = False
        self._wakes: set[asyncio.Event] = set()

    @property
    def listeners(self) -> int:
        return len(self._wakes)

    def changed(self) -> None:
        """The box calls this after every change (``Box.watch``)."""
        self.version += 1
        for wake in self._wakes:
            wake.set()

    def close(self) -> None:
        """End every stream (the server is stopping)."""
        self.closed = True
        for wake in self._wakes:
            wake.set()

    async def stream(self, request: web.Request) -> web.StreamResponse:
        if self.closed or len(self._wakes) >= MOST_LISTENERS:
            raise web.HTTPServiceUnavailable()
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-store",
                                               "X-Accel-Buffering": "no"})
        wake = asyncio.Event()
        self._wakes.add(wake)
        try:
            await response.prepare(request)
            await response.write(f"retry: {RETRY_MS}\n\n".encode())
            sent = None
            while not self.closed:
                wake.clear()  # before looking: a change while writing wakes the next wait
                if self.version != sent:
                    sent = self.version
                    await response.write(f"data: {sent}\n\n".encode())
                try:
                    await asyncio.wait_for(wake.wait(), KEEPALIVE_SECONDS)
                except TimeoutError:
                    await response.write(b": still here\n\n")
        except ConnectionError:
            pass  # the phone went away
        finally:
            self._wakes.discard(wake)
        return response
