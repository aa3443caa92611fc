"""The time of the first phone, for a box the network does not set.

A Pi has no clock battery: at a house without internet it boots at its last
saved time and an evening is dated into last week's.  While ``timedatectl``
says the clock is not synchronised, the web reads the ``Date`` header of the
requests it is sent; the first one the box believes (``referee.clock``'s
``phone_step``: never before the newest time the box saved) sets the box's
clock and this web's, and the box re-dates tonight's games as for any step
of its clock (``referee.box.channel_end.phone_clock``).
"""
from __future__ import annotations

import asyncio
import email.utils

from referee import channel
from referee.clock import synchronised


class PhoneClock:
    def __init__(self, clock, client: channel.Client) -> None:
        self.clock = clock
        self.client = client
        self.settled = False   # the clock is set, by the network or a phone: nothing more to hear
        self._asking = False

    async def hear(self, date: str | None) -> None:
        """A request's ``Date`` header (None: it had none)."""
        if self.settled or self._asking or not date:
            return
        try:
            phone = email.utils.parsedate_to_datetime(date).timestamp()
        except (TypeError, ValueError, IndexError, OverflowError):
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
            # A phone the box did not believe leaves the question to the next.
            self.settled = bool(answer.get("ok")) or answer.get("why") in ("taken", "synchronised")
        finally:
            self._asking = False
