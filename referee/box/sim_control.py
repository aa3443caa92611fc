"""The simulator's control socket, ``[sim] control``: a hand at the table from
another process, one line a command, on a Unix socket.

With ``[sim] control = "/some/path"`` and a simulated keypad, the service
listens on that socket in its own loop, so that another process can press
keys and read the screens of a box it did not start itself: the power-cut
soak (tests/test_soak.py) drives a real ``referee run`` this way and kills
it.  It is the simulated twin of a hand at the table, like the simulated
pins it acts on: keys go down and up on the mock pins and travel through the
same scanner, debounce and key flows as every other key, so nothing in the
box behaves differently because someone presses them from afar.

One command a line, one answer a line, in UTF-8::

    ready           ok                 the box is up and takes keys
    press KEY       ok                 down, 50 ms on the real clock and until the
                                       keypad has it down, up; answered once the
                                       box has taken the key (its page saved)
                                       and done what it set off (a roll)
    down KEY        ok                 the key goes down (and stays down)
    up KEY          ok                 the key goes up; answered as ``press``
    screen NAME     "[Title]\\n..."     the text mirror of display NAME
                                       ("main", "team1", "team2"), one JSON string
    state           {"game": ...}      the game the box is on: its ``game`` id,
                                       ``name``, rules ``state`` (``base.as_data``),
                                       the page up (``view``, what a power cut
                                       keeps) and ``overlay`` (the game menu held
                                       up by holding ``*``), one JSON object;
                                       ``game`` is null at the menus, where
                                       ``setup`` names the game whose setup
                                       form is up, if one is
    clock SECONDS   ok                 the box's wall clock steps by SECONDS (may be
                                       negative), as NTP steps it at boot; the
                                       machine's own clock is not touched
    took            {"keys": N, ...}   a stopwatch on the way from key to screen
                                       (bench/): "keys", the key events the box
                                       has taken; "due", when the keypad could
                                       first have known the last one (its
                                       debounce or hold time over); "drawn", when
                                       the displays were last handed pictures:
                                       seconds on the box's monotonic clock;
                                       "cpu", the CPU seconds its loop spent
                                       handling keys (their pictures drawn),
                                       this hand's own share left out

KEY is a keypad key (``0``-``9``, ``A``-``D``, ``*``, ``#``) or a team
button (``team1``, ``team2``).  Whatever goes wrong is answered
``error <why>``: an unknown command or key, or a key the box did not take
within ``TAKE_SECONDS`` (one let go sooner than the debounce lets through),
a line longer than ``LONGEST_LINE`` (which also ends the connection).  The
socket is made for its owner alone (mode 0600): it presses keys; it is
served by ``referee.box.linesock``, within its limits.
"""
from __future__ import annotations

import asyncio
import json
import logging
import math
import time

from games import base
from referee.box.linesock import Connection, LineServer

log = logging.getLogger(__name__)

PRESS_SECONDS = 0.05   # how long ``press`` holds a key down, like a finger
TAKE_SECONDS = 10.0    # how long an answer waits for the box to take a key (generous: a loaded machine)
POLL_SECONDS = 0.002
LONGEST_LINE = 1024
MOST_CONNECTIONS = 8
# A test or a bench holds its hand for as long as it runs, and may think
# for a while between two keys.
IDLE_SECONDS = 600.0


class SimControl:
    """The control socket of one box; ``serve`` makes and starts it."""

    def __init__(self, box, path: str) -> None:
        self.box = box
        self.path = path
        self.server = LineServer(path, self._handle, lambda why: f"error {why}".encode(), longest=LONGEST_LINE,
                                 most=MOST_CONNECTIONS, per_peer=MOST_CONNECTIONS, idle=IDLE_SECONDS)

    async def start(self) -> None:
        await self.server.start()
        log.info("sim control listening on %s", self.path)

    def close(self) -> None:
        self.server.close()

    async def _handle(self, line: bytes, connection: Connection) -> bytes:
        return (await self.answer(line.decode("utf-8", "replace"))).encode()

    async def answer(self, line: str) -> str:
        """The answer to one command line."""
        if not self.server.serving:
            return "error the box is stopping"
        match line.split():
            case ["ready"]:
                return "ok"
            case ["press", key]:
                return await self._press(key)
            case ["down", key]:
                return self._set(key, True) or "ok"
            case ["up", key]:
                return await self._release(key)
            case ["screen", name]:
                shown = self.box.shown.get(name)
                if shown is None:
                    return f"error no display {name!r}"
                return json.dumps(shown.text, ensure_ascii=False)
            case ["took"]:
                return json.dumps({"keys": self.box.key_count, "due": self.box.last_key.due if self.box.last_key else 0.0,
                                   "drawn": self.box.drawn_at, "cpu": self.box.key_cpu})
            case ["state"]:
                return json.dumps(self._state(), ensure_ascii=False)
            case ["clock", seconds]:
                try:
                    step = float(seconds)
                except ValueError:
                    step = math.nan
                if not math.isfinite(step):
                    return f"error not a number of seconds: {seconds!r}"
                self.box.clock.step_wall(step)
                return "ok"
            case []:
                return "error empty line"
            case [("ready" | "state" | "took") as word, *_]:
                return f"error {word} takes no word"
            case [("press" | "down" | "up" | "screen" | "clock") as word, *_]:
                return f"error {word} takes one word"
            case [word, *_]:
                return f"error unknown command {word!r}"
        # Every list of words matches a case above; mypy cannot count them.
        raise AssertionError(line)

    async def _press(self, key: str) -> str:
        refused = self._set(key, True)
        if refused:
            return refused
        await asyncio.sleep(PRESS_SECONDS)
        # The keypad scans on its own thread: on a machine short of CPU it
        # may not have had its turn yet, and a hand lets go once it is felt.
        give_up = time.monotonic() + TAKE_SECONDS
        while key not in self.box.devices.keys.held() and time.monotonic() < give_up:
            await asyncio.sleep(POLL_SECONDS)
        return await self._release(key)

    async def _release(self, key: str) -> str:
        refused = self._set(key, False)
        if refused:
            return refused
        give_up = time.monotonic() + TAKE_SECONDS
        # Taken on the way down, or when let go if a hold means something.
        while not self.box.devices.keys.taken(key):
            if time.monotonic() > give_up:
                return f"error the box did not take {key}"
            await asyncio.sleep(POLL_SECONDS)
        await self.box.idle()   # a roll the key set off has landed
        return "ok"

    def _state(self) -> dict:
        box, session = self.box, self.box.session
        if not box.in_game:
            # At the menus (the table tools' countdown may run on behind them).
            flow = box.flow
            setup = flow.game if flow is not None and flow.remembered else None
            return {"game": None, "name": None, "state": None, "view": None, "overlay": None, "setup": setup}
        return {"game": session.id, "name": session.name, "state": base.as_data(session.state),
                "view": box.flow.view(), "overlay": box.overlay, "setup": None}

    def _set(self, key: str, down: bool) -> str | None:
        """Moves the key; an error answer if there is no such key."""
        try:
            self.box.devices.pins.set(key, down)
        except ValueError:
            return f"error no key {key!r}"
        return None




async def serve(box, path: str) -> SimControl:
    """Start the control socket for ``box`` on the Unix socket ``path``."""
    control = SimControl(box, path)
    await control.start()
    return control
