"""Telling systemd how the service is doing: the sd_notify protocol.

systemd/referee.service is ``Type=notify``: systemd calls the box started
only when it says READY=1, and with ``WatchdogSec=`` it restarts a box that
has not said WATCHDOG=1 for that long, so a hung event loop does not leave
the table with frozen screens.  The protocol is one datagram of
``KEY=value`` lines to the socket in ``$NOTIFY_SOCKET``; outside systemd that
variable is unset and every call here does nothing, so ``referee run`` in a
terminal behaves the same.
"""
from __future__ import annotations

import logging
import os
import socket

log = logging.getLogger(__name__)


def notify(*lines: str, env=os.environ) -> bool:
    """Send ``lines`` (e.g. "READY=1", "STATUS=...") to systemd.  True if
    it was told; a failure is logged, never raised: the box works on."""
    address = env.get("NOTIFY_SOCKET")
    if not address:
        return False
    if address.startswith("@"):
        address = "\0" + address[1:]  # a socket in the abstract namespace
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as s:
            s.connect(address)
            s.sendall("\n".join(lines).encode())
    except OSError as exc:
        log.warning("cannot tell systemd %s: %s", lines[0], exc)
        return False
    return True


def watchdog_interval(env=os.environ, pid: int | None = None) -> float | None:
    """Seconds between WATCHDOG=1 messages: half of ``WatchdogSec=``, so one
    late turn of the loop is not yet a restart.  None when systemd is not
    watching this process."""
    usec = env.get("WATCHDOG_USEC")
    if not usec:
        return None
    watched = env.get("WATCHDOG_PID")
    if watched and int(watched) != (pid or os.getpid()):
        return None
    return int(usec) / 2e6


class Watchdog:
    """Says WATCHDOG=1 every ``interval`` seconds through ``clock.call_later``,
    that is from the event loop itself: if the loop hangs, the messages stop
    and systemd restarts the service."""

    def __init__(self, clock, interval: float, send=notify) -> None:
        self._clock = clock
        self.interval = interval
        self._send = send
        self._next = None

    def start(self) -> None:
        self._beat()

    def _beat(self) -> None:
        self._send("WATCHDOG=1")
        self._next = self._clock.call_later(self.interval, self._beat)

    def stop(self) -> None:
        if self._next is not None:
            self._next.cancel()
            self._next = None


async def serve_until_stopped(clock, stop, status: str) -> None:
    """Tell systemd the process is ready (with ``status``), beat the
    watchdog from this loop, and wait for ``stop``; then say "stopping".
    The caller's clean-up follows."""
    notify("READY=1", f"STATUS={status}")
    interval = watchdog_interval()
    watchdog = Watchdog(clock, interval) if interval else None
    if watchdog:
        watchdog.start()
    try:
        await stop.wait()
    finally:
        notify("STOPPING=1")
        if watchdog:
            watchdog.stop()
