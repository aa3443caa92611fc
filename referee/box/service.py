"""The service: the box on a real clock, in one asyncio loop, until stopped.

``Service`` is shared by ``referee run`` (devices from the configuration) and
``referee sim`` (the terminal simulator, which owns the loop itself).  The
box listens on one socket only, ``referee.channel``'s (its end in
``referee.box.channel_end``), for the web process
(``referee web``, its own service); it imports neither aiohttp nor Jinja2.
With ``[sim] control`` set and a simulated keypad it also serves the remote
hand of ``referee.box.sim_control``.
"""
from __future__ import annotations

import asyncio
import logging
import os
import signal
import warnings

from referee import channel
from referee.box import channel_end
from referee.box.card import trouble
from referee.box.coordinator import Box
from referee.box.screen import COLS
from referee.clock import RealClock, keep_phone_time
from referee.config import Config, ConfigError
from referee.i18n import _
from referee.notify import notify, serve_until_stopped

log = logging.getLogger("referee")


def quiet_known_warnings() -> None:
    # luma.oled 3.16 on Pillow 13: see pyproject.toml.
    warnings.filterwarnings("ignore", "Image.Image.getdata is deprecated", DeprecationWarning)


class Service:
    def __init__(self, config: Config, clock=None, refused: ConfigError | None = None) -> None:
        self.config = config
        self.clock = clock
        self.refused = refused   # what the configuration file had that was left at its default
        self.box: Box | None = None
        self.channel = None  # referee.box.channel_end.BoxChannel, the web's way to the box
        self.sim_control = None   # referee.box.sim_control.SimControl, with [sim] control

    def start_box(self) -> Box:
        """The box itself: store, devices, first screens.  From here on the
        table can play; the web page follows a moment later."""
        quiet_known_warnings()
        loop = asyncio.get_running_loop()
        clock = self.clock or RealClock(loop)
        self.box = box = Box(self.config, clock, loop)
        keep_phone_time(clock, box.store.setting("phone_clock"))   # re-dated by the start's look at the clock
        if self.refused is not None:
            box.card.notices.extend(config_notices(self.refused))
        box.start()
        return box

    async def start(self) -> Box:
        box = self.start_box()
        self.channel = await self._serve_channel()
        self.sim_control = await self._serve_sim_control()
        log.info("ready: %d displays, database %s", len(box.devices.displays), self.config.database_path)
        return box

    async def _serve_channel(self):
        path = channel.socket_path(self.config.database_path)
        try:
            return await channel_end.serve_box(self.box, path)
        except OSError as exc:
            # Better a box that referees without its web page than none.
            log.error("channel: cannot listen on %s: %s (the web cannot reach the box)", path, exc.strerror or exc)
            return None

    async def _serve_sim_control(self):
        path = self.config.sim.control
        if not path:
            return None
        if self.config.keypad.driver != "sim":
            log.warning("sim.control: the keypad is real, so no control socket is served")
            return None
        from referee.box import sim_control   # lazy: a box without [sim] control never loads it
        try:
            return await sim_control.serve(self.box, path)
        except OSError as exc:
            log.error("sim.control: cannot listen on %s: %s", path, exc.strerror or exc)
            return None

    async def aclose(self) -> None:
        if self.channel is not None:
            channel, self.channel = self.channel, None
            await channel.aclose()
        self.stop()

    def stop(self) -> None:
        for name in ("sim_control", "channel"):
            server = getattr(self, name)
            if server is not None:
                server.close()
                setattr(self, name, None)
        if self.box is not None:
            self.box.close()
            self.box = None


def config_notices(refused: ConfigError) -> list[str]:
    """The main screen's lines for a configuration's mistakes: the line of
    the first, and the file to mend, in the three rows a message has on the
    panel (the phones' pages and ``referee check-config`` say every mistake
    in full)."""
    first = refused.problems[0]
    said = _("Config error: line %(line)s") % {"line": first.line} if first.line \
        else _("Config error: %(problem)s") % {"problem": first.key or first.text}
    folder, name = os.path.split(refused.path)
    # A path longer than a row is cut at the row's end: broken after its folder, it is read whole.
    return [said, refused.path if len(refused.path) <= COLS else f"{folder}/ {name}"]


def status(box: Box) -> str:
    """systemd's status line: READY means the table can play, even when the
    card takes nothing; the status says so."""
    displays = box.devices.displays.values()
    said = f"ready: {sum(d.online for d in displays)} of {len(displays)} displays answering"
    return f"{said}; {trouble(box.card.fault)}" if box.card.fault else said


async def serve(config: Config, clock=None, refused: ConfigError | None = None) -> None:
    """``referee run``: the box until SIGTERM or SIGINT, telling systemd
    (see referee.notify) when it is ready, that its loop still turns, and
    when it stops; ``refused``: the configuration's mistakes, said on the
    main screen at start."""
    service = Service(config, clock, refused)
    box = await service.start()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    # Ready only now: the store is open, the keypad wired, every display tried.
    box.card.on_change = lambda: notify(f"STATUS={status(box)}")
    try:
        await serve_until_stopped(box.clock, stop, status(box))
    finally:
        await service.aclose()
        log.info("stopped")
