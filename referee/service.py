"""The service: the box on a real clock, in one asyncio loop, until stopped.

``Service`` is shared by ``referee run`` (devices from the configuration) and
``referee sim`` (the terminal simulator, which owns the loop itself).
"""
from __future__ import annotations

import asyncio
import logging
import signal
import warnings

from referee.box import Box
from referee.clock import RealClock
from referee.config import Config

log = logging.getLogger("referee")


def quiet_known_warnings() -> None:
    # luma.oled 3.16 on Pillow 13: see pyproject.toml.
    warnings.filterwarnings("ignore", "Image.Image.getdata is deprecated", DeprecationWarning)


class Service:
    def __init__(self, config: Config, clock=None) -> None:
        self.config = config
        self.clock = clock
        self.box: Box | None = None

    async def start(self) -> Box:
        quiet_known_warnings()
        loop = asyncio.get_running_loop()
        self.box = Box(self.config, self.clock or RealClock(loop), loop)
        self.box.start()
        log.info("ready: %d displays, database %s", len(self.box.devices.displays), self.config.database_path)
        return self.box

    def stop(self) -> None:
        if self.box is not None:
            self.box.close()
            self.box = None


async def serve(config: Config) -> None:
    service = Service(config)
    await service.start()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    try:
        await stop.wait()
    finally:
        service.stop()
        log.info("stopped")
