"""``referee web``: the web process, on its own beside the box.

It reads the box's store (read-only), is told of changes and hands team
pages' forms to the box over ``referee.channel``, and serves the phones on
``config.web``.  The box may start before or after it, stop and come back:
the pages are served from the store meanwhile, and the channel reconnects.
"""
from __future__ import annotations

import asyncio
import logging
import os
import signal

from referee import channel
from referee.clock import RealClock, keep_phone_time
from referee.config import Config, ConfigError
from referee.notify import serve_until_stopped
from referee.web.app import serve
from referee.web.phone_clock import PhoneClock
from referee.web.reader import Reader

log = logging.getLogger("referee.web")
WAIT_SECONDS = 0.2   # between looks for the box
BOX_SECONDS = 10.0   # how long to wait for the box before serving its database without it


async def _box_answers(client: channel.Client) -> bool:
    try:
        return (await client.ask("ping")).get("ok") is True
    except channel.ChannelError:
        return False


async def run(config: Config, refused: ConfigError | None = None) -> None:
    """Serve until SIGTERM or SIGINT; ``refused``: the configuration's
    mistakes, said at the top of every page."""
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    database = config.database_path
    client = channel.Client(channel.socket_path(database))
    # The store is opened once the box has made it: once it answers, or,
    # with no box, once the file has been there a while (a box that died
    # in its start must not find the web holding a half-made database).
    waited = 0.0
    while not (os.path.exists(database) and (waited >= BOX_SECONDS or await _box_answers(client))):
        if waited == 0.0:
            log.info("waiting for the box and %s", database)
        try:
            await asyncio.wait_for(stop.wait(), WAIT_SECONDS)
            return
        except TimeoutError:
            waited += WAIT_SECONDS
    reader = Reader(database, RealClock(loop), config.lang)
    keep_phone_time(reader.clock, reader.store.setting("phone_clock"))
    server = await serve(reader, client, config.web.host, config.web.port, config.ladder,
                         PhoneClock(reader.clock, client))
    if refused is not None:
        server.site.env.globals["config_error"] = {
            "problems": [(p.line, str(p._replace(line=None))) for p in refused.problems], "path": refused.path}
    log.info("serving the score log on %s port %d", config.web.host or "*", server.port)
    try:
        await serve_until_stopped(reader.clock, stop, f"serving on port {server.port}")
    finally:
        await server.stop()
        reader.close()
        log.info("stopped")
