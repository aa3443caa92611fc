"""The time of the first phone, for a box the network does not set.

A Pi has no clock battery: at a house without internet it boots at its last
saved time and an evening is dated into last week's.  While ``timedatectl``
says the clock is not synchronised, the phones' pages carry a small script
(static/phone-clock.js) that posts the phone's own clock once as the page
loads (``PATH``: milliseconds since 1970, digits only); a request's ``Date``
header, which some programs send and browsers never do, counts the same.
The first time the box believes (``referee.clock``'s ``phone_step``: never
before the newest time the box saved, never past 2100) sets the box's clock
and this web's, and the box re-dates tonight's games as for any step of its
clock (``referee.box.channel_end.phone_clock``).  From then on, and on a box
the network sets, pages carry no script and the times sent change nothing.

A page works the same without the script: it is only the way a phone's
clock reaches the box.
"""
from __future__ import annotations

import asyncio
import email.utils
import re

from referee import channel
from referee.clock import LATEST_WALL, synchronised

PATH = "/clock"
SCRIPT = "phone-clock.js"
LONGEST_BODY = 16          # bytes: milliseconds until 2100 are 13 digits
LOOK_SECONDS = 60.0        # while phones are asked: how often timedatectl is asked again
_DIGITS = re.compile(rb"[0-9]{1,16}")


def posted_time(body: bytes) -> float | None:
    """A posted body's time in seconds since 1970, or None when it is not a
    phone's clock in whole milliseconds up to 2100."""
    if not _DIGITS.fullmatch(body):
        return None
    wall = int(body) / 1000
    return wall if 0 < wall <= LATEST_WALL else None


class PhoneClock:
    def __init__(self, clock, client: channel.Client, taken=None) -> None:
        """``taken``: the store's setting ``phone_clock`` (a phone set the
        clock in this boot already: nothing more to hear)."""
        self.clock = clock
        self.client = client
        # The clock is set, by the network or a phone: nothing more to hear.
        self.settled = isinstance(taken, dict) and taken.get("boot") == clock.boot
        self.unset = False          # timedatectl said the clock is not set: pages ask the phones
        self._looked: float | None = None
        self._look: asyncio.Task | None = None
        self._asking = False

    async def look(self) -> None:
        """Ask timedatectl whether the network sets the clock."""
        self._looked = self.clock.monotonic()
        if self.settled:
            return
        if await asyncio.to_thread(synchronised):
            self.settled = True
        else:
            self.unset = True

    def wanted(self) -> bool:
        """Whether pages carry the script that sends the phone's time: while
        the clock is not set.  Looked at again every ``LOOK_SECONDS`` (the
        network may come), on a task of its own: a page never waits."""
        if self.settled:
            return False
        since = self._looked
        if (since is None or self.clock.monotonic() - since >= LOOK_SECONDS) and self._look is None:
            self._looked = self.clock.monotonic()
            self._look = asyncio.get_running_loop().create_task(self._look_again())
        return self.unset

    async def _look_again(self) -> None:
        try:
            await self.look()
        finally:
            self._look = None

    async def close(self) -> None:
        if self._look is not None:
            self._look.cancel()
            await asyncio.gather(self._look, return_exceptions=True)

    async def hear(self, date: str | None) -> None:
        """A request's ``Date`` header (None: it had none)."""
        if self.settled or self._asking or not date:
            return
        try:
            phone = email.utils.parsedate_to_datetime(date).timestamp()
        except (TypeError, ValueError, IndexError, OverflowError):
            return
        await self.heard(phone)

    async def heard(self, phone: float) -> None:
        """A phone's time, in seconds since 1970: handed to the box while
        the clock is not set; a time the box does not believe leaves the
        question to the next phone."""
        if self.settled or self._asking:
            return
        self._asking = True
        try:
            if await asyncio.to_thread(synchronised):
                self.settled = True
                return
            try:
                answer = await self.client.ask("clock.phone", wall=phone)
            except channel.ChannelError:
                return   # the box is away: the next phone's time is asked again
            if answer.get("ok"):
                self.clock.from_phone(phone - self.clock.monotonic())
            self.settled = bool(answer.get("ok")) or answer.get("why") in ("taken", "synchronised")
        finally:
            self._asking = False
