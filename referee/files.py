"""Small files read from paths anyone with the card in hand may have put
anything at: the configuration, comitup's Wi-Fi state, the hotspot's name.
"""
from __future__ import annotations

import os
import stat


class Unfit(OSError):
    """A file that is there but cannot be what the box expects at its path."""


def read_small(path: str, most: int) -> tuple[bytes, os.stat_result]:
    """A small regular file's bytes and its status, read without ever
    waiting: whatever stands at ``path`` (a FIFO with no writer, a link to
    /dev/zero, a file grown huge) must not hold up the box's event loop,
    which reads some of them between keys.  A FIFO or device, or a file
    longer than ``most`` bytes, raises ``Unfit`` (an OSError)."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise Unfit("not a regular file")
        data = b""
        while len(data) <= most:
            chunk = os.read(fd, most + 1 - len(data))
            if not chunk:
                break
            data += chunk
    finally:
        os.close(fd)
    if len(data) > most:
        raise Unfit(f"longer than {most} bytes")
    return data, st
