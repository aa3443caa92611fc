"""The 128×64 monochrome displays, driven through luma.oled.

luma's ``display(image)`` always sends the whole 1 KiB frame, so a display
here keeps what the panel shows and sends only the columns that changed, page
by page (a page is 8 pixel rows, one byte per column).  A panel that stops
answering is marked offline and retried with backoff; when it answers again
it is initialised afresh and gets the whole picture.  The service never stops
for a display.

luma turns the picture for a panel mounted sideways or upside down
(``rotate``) inside ``display()``, which this driver does not call, so the
turn is made here, before the picture becomes pages.
"""
from __future__ import annotations

import logging
from typing import Any, Callable, Iterator

from luma.core.error import DeviceNotFoundError, DevicePermissionError
from PIL import Image

from hal.timing import Timer

log = logging.getLogger(__name__)

WIDTH, HEIGHT = 128, 64
PAGES = HEIGHT // 8
FULL_FRAME = WIDTH * PAGES
RETRY = (0.25, 0.5, 1.0, 2.0)  # seconds between attempts; the last repeats
# luma's ``rotate``: quarter turns clockwise of the picture on the panel.
# Rotations 1 and 3 stand the panel on its side: the picture is 64x128.
TURNS = {1: Image.Transpose.ROTATE_270, 2: Image.Transpose.ROTATE_180, 3: Image.Transpose.ROTATE_90}
UNTURN = {1: Image.Transpose.ROTATE_90, 2: Image.Transpose.ROTATE_180, 3: Image.Transpose.ROTATE_270}


def pages(image: Image.Image) -> bytes:
    """The controller's byte layout of a 1-bit image: page p, column x is byte
    ``p * 128 + x``, bit b of it the pixel at row ``8p + b``."""
    # Turned a quarter clockwise, image row x holds column x bottom-up in 8
    # bytes, most significant bit first: byte 7 - p is page p with its top
    # pixel in the least significant bit, as the controller wants.
    side = image.convert("1").transpose(Image.Transpose.ROTATE_270)
    raw = side.tobytes()  # column x, page p at raw[x * 8 + (7 - p)]
    return b"".join(raw[7 - p::8] for p in range(PAGES))


def image_from_pages(buf: bytes) -> Image.Image:
    """The inverse of ``pages``: what a panel holding ``buf`` shows."""
    raw = bytearray(FULL_FRAME)
    for p in range(PAGES):
        raw[7 - p::8] = buf[p * WIDTH:(p + 1) * WIDTH]
    side = Image.frombytes("1", (HEIGHT, WIDTH), bytes(raw))
    return side.transpose(Image.Transpose.ROTATE_90)


def changed_runs(old: bytes | None, new: bytes) -> Iterator[tuple[int, int, int]]:
    """(page, first column, last column) for each page that differs."""
    for p in range(PAGES):
        a, b = p * WIDTH, (p + 1) * WIDTH
        if old is not None and old[a:b] == new[a:b]:
            continue
        first, last = 0, WIDTH - 1
        if old is not None:
            while old[a + first] == new[a + first]:
                first += 1
            while old[a + last] == new[a + last]:
                last -= 1
        yield p, first, last


class Display:
    """One panel.  ``make()`` builds the luma device (which sends the
    controller's init sequence); ``schedule(delay, fn)`` is the service
    clock's ``call_later``."""

    def __init__(self, name: str, make: Callable[[], Any], schedule: Callable[[float, Callable[[], None]], Timer],
                 controller: str = "ssd1306", rotate: int = 0):
        if rotate not in range(4):
            raise ValueError(f"rotate is 0, 1, 2 or 3 quarter turns, not {rotate!r}")
        self.name = name
        self.rotate = rotate
        self._make = make
        self._schedule = schedule
        self._controller = controller
        self._device: Any = None   # luma's device, which has no types
        self._shown: bytes | None = None   # what the panel holds, if known
        self._wanted: bytes | None = None  # what it should hold
        self._retry: Timer | None = None
        self._attempt = 0
        self.online = False
        self.bytes_sent = 0
        self.pictures = 0   # pictures handed to ``show`` (the box hands one a frame)
        self.on_change: Callable[[str, bool], None] | None = None
        self._connect()

    @property
    def size(self) -> tuple[int, int]:
        """The picture's size: 128x64, or 64x128 on a panel on its side."""
        return (WIDTH, HEIGHT) if self.rotate % 2 == 0 else (HEIGHT, WIDTH)

    def show(self, image: Image.Image) -> None:
        if image.size != self.size:
            raise ValueError(f"display {self.name} shows {self.size[0]}x{self.size[1]} pictures, "
                             f"not {image.size[0]}x{image.size[1]}")
        self.pictures += 1
        if self.rotate:
            image = image.transpose(TURNS[self.rotate])
        self._wanted = pages(image)
        if self.online:
            self._flush()

    @property
    def image(self) -> Image.Image:
        """What the panel should show now (the picture sent or still owed),
        the way up it was given to ``show``."""
        image = image_from_pages(self._wanted or bytes(FULL_FRAME))
        return image.transpose(UNTURN[self.rotate]) if self.rotate else image

    def _flush(self) -> None:
        wanted = self._wanted
        if wanted is None:
            return
        try:
            for page, first, last in changed_runs(self._shown, wanted):
                self._write(wanted, page, first, last)
            self._shown = wanted
        except (DeviceNotFoundError, OSError) as exc:
            self._went_offline(exc)

    def _write(self, wanted: bytes, page: int, first: int, last: int) -> None:
        data = list(wanted[page * WIDTH + first:page * WIDTH + last + 1])
        if self._controller == "sh1106":
            # SH1106 has 132 columns, the visible 128 start at column 2, and
            # it knows only page addressing.
            col = first + 2
            self._device.command(0xB0 | page, col & 0x0F, 0x10 | col >> 4)
        else:
            self._device.command(0x21, first, last, 0x22, page, page)
        self._device.data(data)
        self.bytes_sent += len(data)

    def _connect(self) -> None:
        self._retry = None
        try:
            self._device = self._make()
        except (DeviceNotFoundError, DevicePermissionError, OSError) as exc:
            self._went_offline(exc)
            return
        # luma's constructor has just cleared the panel.
        self._shown = bytes(FULL_FRAME)
        self._attempt = 0
        self._set_online(True)
        if self._wanted is not None:
            self._flush()

    def _went_offline(self, exc: Exception) -> None:
        if self.online:
            log.warning("display %s stopped answering (%s); retrying", self.name, exc)
        self._shown = None
        self._set_online(False)
        if self._retry is None:
            delay = RETRY[min(self._attempt, len(RETRY) - 1)]
            self._attempt += 1
            self._retry = self._schedule(delay, self._connect)

    def _set_online(self, online: bool) -> None:
        if online != self.online:
            self.online = online
            if online:
                log.info("display %s is answering", self.name)
            if self.on_change:
                self.on_change(self.name, online)

    def close(self) -> None:
        if self._retry is not None:
            self._retry.cancel()
            self._retry = None
