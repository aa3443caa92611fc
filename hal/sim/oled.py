"""A simulated SSD1306 on the far side of luma's serial interface.

luma.oled's real ``ssd1306`` driver talks to this object as it would to an
I2C bus: the init sequence, the address windows and the data bytes arrive
here and land in a framebuffer, so the picture read back is what a panel would
show.  ``fail`` makes it behave like a panel whose bus has gone away.
"""
from __future__ import annotations

import errno
from typing import Sequence

from luma.core.error import DeviceNotFoundError
from PIL import Image

from hal.display import FULL_FRAME, PAGES, WIDTH, image_from_pages

# Commands followed by argument bytes; every other command stands alone.
_ARGS = {0x20: 1, 0x21: 2, 0x22: 2, 0x81: 1, 0x8D: 1, 0xA8: 1, 0xD3: 1,
         0xD5: 1, 0xD9: 1, 0xDA: 1, 0xDB: 1}


class SimulatedSSD1306:
    def __init__(self) -> None:
        self.fail = False
        self.frame = bytearray(FULL_FRAME)
        self.on = False
        self.commands = 0
        self.data_bytes = 0
        self._cols = (0, WIDTH - 1)
        self._pages = (0, PAGES - 1)
        self._col, self._page = 0, 0

    def command(self, *cmd: int) -> None:
        if self.fail:
            raise DeviceNotFoundError("I2C device not found on address: 0x3C")
        self.commands += len(cmd)
        i = 0
        while i < len(cmd):
            op, args = cmd[i], cmd[i + 1:i + 1 + _ARGS.get(cmd[i], 0)]
            i += 1 + len(args)
            if op == 0x21:
                self._cols, self._col = (args[0], args[1]), args[0]
            elif op == 0x22:
                self._pages, self._page = (args[0], args[1]), args[0]
            elif op in (0xAE, 0xAF):
                self.on = op == 0xAF

    def data(self, data: Sequence[int]) -> None:
        if self.fail:
            raise OSError(errno.EREMOTEIO, "Remote I/O error")
        self.data_bytes += len(data)
        for byte in data:
            self.frame[self._page * WIDTH + self._col] = byte
            if self._col < self._cols[1]:
                self._col += 1
            else:
                self._col = self._cols[0]
                self._page = self._page + 1 if self._page < self._pages[1] else self._pages[0]

    @property
    def image(self) -> Image.Image:
        return image_from_pages(bytes(self.frame))
