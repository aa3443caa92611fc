"""The box's sense of time: the game clock, the countdown's ticks and
expiry, and the re-dating of this boot's labels once the wall clock steps.

The rules count in the game's own clock (see ``referee.box.session``): it runs
on the monotonic clock from the moment it was last set, to the row a game
was resumed or undone to.  Each press that starts, pauses or ends a
countdown is a row of the game, which holds the game clock; while it runs,
its place is written every ``CHECKPOINT_SECONDS``, and a power cut resumes
from the later of the two.  Each write costs the card about 10 KB (SQLite's
log and ext4's journal): at every second shown that was 10 KB a second,
and with none at all a cut gave the table back the whole countdown since
its press (Osmišifry's five minutes).  The wall
clock only labels rows for people (``WallLabels``); NTP may step it by
hours after boot, and then the labels this boot wrote are re-dated so that
the evening still reads in order.
"""
from __future__ import annotations

import logging
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, NamedTuple, Protocol

from games import base
from referee.box.flows import SLACK
from referee.clock import STEP_SECONDS, WallLabels

if TYPE_CHECKING:
    from referee.box.session import Session
    from referee.store.events import Store

log = logging.getLogger(__name__)
# How often an idle box looks whether the wall clock has stepped (NTP).
WALL_CHECK_SECONDS = 10.0
# How often a running countdown's place is written: the most of it a power
# cut can give back, and a fifteenth of the writes of one a second.
CHECKPOINT_SECONDS = 15.0


class Mark(NamedTuple):
    """The game clock as last set: ``at`` game seconds at monotonic ``mono``."""
    at: float
    mono: float


class Cancellable(Protocol):
    """A timer a clock's ``call_later`` gave: asyncio's, or the manual clock's."""
    def cancel(self) -> None: ...


@dataclass
class Running:
    """The countdown the box is timing: ``deadline`` on the game clock, the
    handle of its expiry and of the next redraw of its seconds."""
    name: str
    deadline: float
    expiry: Cancellable
    tick: Cancellable | None = None

    def cancel(self) -> None:
        for handle in (self.expiry, self.tick):
            if handle is not None:
                handle.cancel()


def _moved(mark, labels: WallLabels) -> bool:
    """The labels of this boot were written with another offset."""
    return mark[0] != labels.boot or abs(mark[1] - labels.offset) >= STEP_SECONDS


class Hooks(NamedTuple):
    """What the game clock reads of its box and tells it."""
    store: Callable[[], Store]       # the store now (a card reopened replaces it)
    session: Callable[[], Session | None]   # the game being timed
    warn: Callable[[], float]        # seconds the countdown ticks aloud at its end (the flow's)
    act: Callable[[object], bool]    # hand the rules an event (the expiry)
    sound: Callable[[str], None]
    render: Callable[[], None]       # the seconds shown changed


class GameClock:
    """Time for one box, through ``hooks``; ``on_redate`` runs once labels
    were re-dated."""

    def __init__(self, clock, labels: WallLabels, hooks: Hooks, on_redate: Callable[[], None]) -> None:
        self.hooks = hooks
        self.clock = clock
        self.labels = labels
        self._on_redate = on_redate
        self._mark = Mark(0.0, self.clock.monotonic())
        self._running: Running | None = None
        self._noted = 0.0   # the game clock when the running countdown's place was last written
        self._wall_check: Cancellable | None = None

    # --- the game clock -------------------------------------------------------

    def now(self) -> float:
        """The game clock now: see ``referee.box.session``."""
        return self._mark.at + (self.clock.monotonic() - self._mark.mono)

    def set(self, at: float) -> None:
        self._mark = Mark(at, self.clock.monotonic())

    def stored(self, session: Session) -> float:
        """Where a resumed game's clock stands: its last row's clock, or the
        place a running countdown wrote after it (one written before a later
        row or an undo is stale)."""
        store = self.hooks.store()
        mark = store.setting("clock") or {}
        if (mark.get("game") == session.id and mark.get("seq") == store.last_seq(session.id)
                and mark.get("at", 0) > session.clock):
            return mark["at"]
        return session.clock

    def _checkpoint(self) -> None:
        store, session = self.hooks.store(), self.hooks.session()
        assert session is not None   # a countdown runs only in a game
        game = session.id
        self._noted = self.now()
        store.set_setting("clock", {"game": game, "seq": store.last_seq(game), "at": self._noted})

    # --- the countdown --------------------------------------------------------

    def sync(self, cd: base.Countdown | None) -> None:
        """Time the running countdown ``cd`` (None: none runs)."""
        deadline = cd.deadline() if cd is not None else None   # None unless it runs
        key = (cd.name, deadline) if cd is not None and deadline is not None else None
        if self._running is not None and (self._running.name, self._running.deadline) == key:
            return
        self.cancel()
        if cd is None or deadline is None:
            return
        expiry = self.clock.call_later(deadline - self.now(), self._expire, cd.name)
        self._running = Running(cd.name, deadline, expiry)
        self._noted = self.now()   # the row that started it holds the clock
        self._schedule_tick()

    def _schedule_tick(self) -> None:
        # Redraw each time the whole seconds shown change (``clock_text``
        # rounds up, ignoring float noise below SLACK).
        running = self._running
        assert running is not None   # called only while a countdown is timed
        left = running.deadline - self.now()
        whole = math.ceil(left - SLACK)
        running.tick = self.clock.call_later(max(left - (whole - 1), SLACK), self._tick)

    def _tick(self) -> None:
        if self._running is None:
            return
        left = self._running.deadline - self.now()
        if 0.5 < left <= self.hooks.warn() + 0.5:
            self.hooks.sound("tick")
        if self.now() - self._noted >= CHECKPOINT_SECONDS - SLACK:
            self._checkpoint()
        self.hooks.render()
        if left > 1.0:
            self._schedule_tick()

    def _expire(self, name: str) -> None:
        self.cancel()
        if self.hooks.act(base.TimerExpired(name)):
            self.hooks.sound("timeup")

    def cancel(self) -> None:
        """Stop timing the countdown (it is timed anew by the next ``sync``)."""
        if self._running is not None:
            self._running.cancel()
            self._running = None

    # --- the wall clock ---------------------------------------------------------

    def check_wall(self, start: bool = False) -> None:
        """Re-date this boot's labels once the wall clock has stepped (NTP
        at boot); at start, also when it stepped while the box was down."""
        store, labels = self.hooks.store(), self.labels
        mark = [labels.boot, labels.offset]
        if start and store.setting("wall") is None:
            store.set_setting("wall", mark)   # a new database: nothing to re-date
        elif labels.check() or start and _moved(store.setting("wall"), labels):
            log.info("wall clock set: the labels of this boot are re-dated")
            mark = [labels.boot, labels.offset]
            store.redate(*mark)
            store.set_setting("wall", mark)
            self._on_redate()

    def watch_wall(self) -> None:
        """Check the wall clock now and every ``WALL_CHECK_SECONDS``."""
        self.check_wall()
        self._wall_check = self.clock.call_later(WALL_CHECK_SECONDS, self.watch_wall)

    def close(self) -> None:
        if self._wall_check is not None:
            self._wall_check.cancel()
        self.cancel()
