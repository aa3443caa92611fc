"""``referee club``: the table's public score log, out to the club's broker.

Its own process beside the box (which has no network), reading the store
as an outbox (``referee.club.outbox``).  Every row goes out with QoS 1 and
the cursor moves only once the broker has acknowledged it; the session is
persistent (``clean_session=False``) and the client id fixed, so a broker or
Wi-Fi that was away for an hour gets the hour, in order, when it is back.
The table's status is retained, with a last will that says "offline".
The box's merges of two names go out after its games, each retained on
``merge/<id>`` when made and again when taken back, so that the league
joins the two names at every table (``referee.club.joins``).
"""
from __future__ import annotations

import asyncio
import logging
import ssl
import time
from typing import Any

import aiomqtt
import msgspec
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from referee.club import messages as m
from referee.club.outbox import Outbox
from referee.config import Config
from referee.store import scorelog

log = logging.getLogger("referee.club")
POLL_SECONDS = 0.05          # how often the store is looked at (one pragma)
BACKOFF = (0.5, 10.0)        # seconds between tries while the broker is away: first, most
SESSION_SECONDS = 0xFFFFFFFF  # MQTT 5: a session kept until the client comes back, however long


def tls_context(ca: str) -> ssl.SSLContext:
    return ssl.create_default_context(cafile=ca or None)


def client(config: Config, identifier: str, will: aiomqtt.Will | None = None,
           most_bytes: int = 0) -> aiomqtt.Client:
    """A client for the club's broker with a persistent session.  With
    ``most_bytes`` it speaks MQTT 5 and tells the broker the largest packet
    it takes (Maximum Packet Size): the broker drops a larger message for
    this client rather than send it, so none is ever read whole."""
    club = config.club
    host, port, tls = club.address()
    login: dict[str, Any] = dict(identifier=identifier, will=will, username=club.username or None,
                                 password=club.password or None,
                                 tls_context=tls_context(club.ca) if tls else None, keepalive=15, timeout=10)
    if not most_bytes:
        return aiomqtt.Client(host, port, clean_session=False, **login)
    connect = Properties(PacketTypes.CONNECT)
    connect.MaximumPacketSize = most_bytes
    connect.SessionExpiryInterval = SESSION_SECONDS     # MQTT 5's clean_session=False: the session outlives a visit
    return aiomqtt.Client(host, port, protocol=aiomqtt.ProtocolVersion.V5, clean_start=False, properties=connect,
                          **login)


async def keep_connected(config: Config, identifier: str, session, stop: asyncio.Event, faults,
                         will=None, lost=lambda: None, most_bytes: int = 0) -> None:
    """Run ``session(client)`` on the broker until ``stop``, connecting again
    (sooner, then less often) whenever the broker or the network goes."""
    delay = BACKOFF[0]
    while not stop.is_set():
        try:
            async with client(config, identifier, will() if will else None, most_bytes) as mqtt:
                delay = BACKOFF[0]
                await session(mqtt)
        except aiomqtt.MqttError as exc:
            lost()
            faults("broker", "%s: broker %s: %s", identifier, config.club.broker, exc)
            try:
                await asyncio.wait_for(stop.wait(), delay)
            except TimeoutError:
                pass
            delay = min(delay * 2, BACKOFF[1])


class Faults:
    """A fault that repeats (a broker down all evening) is logged once a
    minute with how often it happened, not once a try; and at most
    ``LINES`` a minute of all kinds together, so that a flood of ever new
    kinds (forged table names) cannot fill the log either: what is held
    back is counted into its kind's next line."""

    KINDS = 1024   # kinds remembered; past that they are forgotten, not kept
    LINES = 30

    def __init__(self, every: float = 60.0) -> None:
        self.every = every
        self._last: dict[str, float] = {}
        self._count: dict[str, int] = {}
        self._window, self._lines = -every, 0

    def __call__(self, kind: str, message: str, *args) -> None:
        now = time.monotonic()
        if kind not in self._count and len(self._count) >= self.KINDS:
            self._last.clear()
            self._count.clear()
        self._count[kind] = self._count.get(kind, 0) + 1
        if now - self._last.get(kind, -self.every) < self.every:
            return
        if now - self._window >= self.every:
            self._window, self._lines = now, 0
        if self._lines >= self.LINES:
            return
        self._lines += 1
        count, self._count[kind] = self._count[kind], 0
        self._last[kind] = now
        log.warning(message + (" (%d times in the last minute)" if count > 1 else ""),
                    *args, *((count,) if count > 1 else ()), extra={"counted": True})


class Publisher:
    def __init__(self, config: Config, outbox: Outbox | None = None) -> None:
        self.config = config
        self.club = config.club
        self.outbox = outbox or Outbox(config.database_path)
        self.faults = Faults()
        self.published = 0

    def _topic(self, *rest: str) -> str:
        return m.topic(self.club.name, self.club.table, *rest)

    def _status(self, online: bool, game: int | None = None) -> bytes:
        return m.encode(m.Status(v=m.VERSION, kind="status", table=self.club.table, online=online,
                                 at=time.time(), game=game))

    async def run(self, stop: asyncio.Event) -> None:
        """Publish until ``stop`` is set; then say "offline" and leave."""
        async def session(mqtt: aiomqtt.Client) -> None:
            log.info("club: publishing table %s to %s", self.club.table, self.club.broker)
            await self._serve(mqtt, stop)
            await mqtt.publish(self._topic("status"), self._status(False), qos=1, retain=True)

        def will() -> aiomqtt.Will:
            return aiomqtt.Will(self._topic("status"), self._status(False), qos=1, retain=True)

        await keep_connected(self.config, f"referee-{self.club.name}-{self.club.table}", session, stop,
                             self.faults, will=will)

    async def _serve(self, mqtt: aiomqtt.Client, stop: asyncio.Event) -> None:
        shown = object()
        self.outbox.changed()
        while not stop.is_set():
            current = self.outbox.current()
            if current != shown:
                await mqtt.publish(self._topic("status"), self._status(True, current), qos=1, retain=True)
                shown = current
            for game in self.outbox.pending():
                await self._send(mqtt, game)
            for merge in self.outbox.merges():
                await self._send_merge(mqtt, merge)
            while not stop.is_set() and not self.outbox.changed():
                await asyncio.sleep(POLL_SECONDS)

    async def _send(self, mqtt: aiomqtt.Client, game: int) -> None:
        try:
            entries = self.outbox.entries(game)
        except Exception as exc:  # noqa: BLE001  a row the rules cannot replay: the game waits, the others go on
            self.faults(f"game {game}", "club: game %d cannot be read: %s", game, exc)
            return
        message = None
        for seq, at, entry in entries:
            message = m.Entry(v=m.VERSION, kind="event", id=f"{self.club.table}:{game}:{seq}",
                              table=self.club.table, game=game, seq=seq, at=at, entry=scorelog.as_json(entry))
            await mqtt.publish(self._topic("event"), m.encode(message), qos=1)
            self.outbox.mark(game, seq, entry.ended is not None)
            self.published += 1
        if message is not None:
            retained = msgspec.structs.replace(message, kind="game")
            await mqtt.publish(self._topic("game", str(game)), m.encode(retained), qos=1, retain=True)


    async def _send_merge(self, mqtt: aiomqtt.Client, merge: dict) -> None:
        message = m.Merge(v=m.VERSION, kind="merge", table=self.club.table, id=merge["id"], name=merge["name"],
                          into=merge["into"], at=merge["at"], undone=merge["undone"])
        await mqtt.publish(self._topic("merge", str(merge["id"])), m.encode(message), qos=1, retain=True)
        self.outbox.mark_merge(merge)
        self.published += 1


async def serve(config: Config) -> None:
    """``referee club``: until SIGTERM or SIGINT."""
    import signal
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    publisher = Publisher(config)
    try:
        await publisher.run(stop)
    finally:
        publisher.outbox.close()
        log.info("club: stopped")
