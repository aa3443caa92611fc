"""What the tests against real ``referee run`` / ``referee web`` processes
share: a free port to give them, and a poll with a deadline (the only
real waiting the suite does, since a real process keeps real time)."""
from __future__ import annotations

import socket
import time


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def until(done, seconds: float = 30.0, what: str = "it"):
    """Poll ``done()`` until it gives something true, which is returned;
    fails the test after ``seconds``."""
    give_up = time.monotonic() + seconds
    while True:
        value = done()
        if value:
            return value
        if time.monotonic() > give_up:
            raise AssertionError(f"{what} did not happen in {seconds} s")
        time.sleep(0.02)
