"""What a display shows, as a small view model, and how it becomes pixels.

A ``Screen`` is a title, up to four lines of text, an optional big line (a
countdown, dice), an optional QR code, an optional line drawing (a tile), and
the labels of the keys that do something now.  ``render`` draws it 1-bit at
128×64; ``text`` is the same screen as plain text, for tests and the terminal
simulator.

A passing message (``flash``) is drawn on lit lines under the title, in as
many lines as it needs.  It takes rows the screen leaves free first, then the
screen's own lines from the top; the line being typed (``typing``) and the
big line (shrunk) always stay.

Fonts: misc-fixed 6x10 for text (21 characters a line) and Terminus Bold for
big lines; both cover Czech, Polish and Russian.  They come from Debian's
``xfonts-base`` and ``fonts-terminus-otb``.
"""
from __future__ import annotations

import functools
import gzip
import io
import os
from dataclasses import dataclass

import qrcode
from PIL import Image, ImageDraw, ImageFont

W, H = 128, 64
COLS = 21          # text characters per line
LINES = 4          # body lines under the title
FONT_DIRS = ("/usr/share/fonts/X11/misc", "/usr/share/fonts/opentype/terminus",
             "/usr/local/share/fonts", os.path.expanduser("~/.local/share/fonts"))
FONTS = {"text": ("6x10.pcf.gz", 10, "xfonts-base"),
         "big": ("terminus-bold.otb", 32, "fonts-terminus-otb"),
         "mid": ("terminus-bold.otb", 16, "fonts-terminus-otb")}


class FontMissing(RuntimeError):
    pass


@functools.cache
def font(kind: str) -> ImageFont.FreeTypeFont:
    name, size, package = FONTS[kind]
    for folder in FONT_DIRS:
        path = os.path.join(folder, name)
        if os.path.exists(path):
            if path.endswith(".gz"):
                # FreeType reads a gzipped font by decompressing from the
                # start for every glyph; unpacked in memory it is 40× faster.
                with gzip.open(path) as f:
                    return ImageFont.truetype(io.BytesIO(f.read()), size)
            return ImageFont.truetype(path, size)
    raise FontMissing(f"font {name} not found: install the Debian package {package} "
                      f"(sudo apt-get install {package})")


@dataclass(frozen=True)
class Screen:
    title: str = ""
    lines: tuple[str, ...] = ()
    big: str = ""
    keys: tuple[tuple[str, str], ...] = ()   # (key, label), e.g. ("#", "OK")
    qr: str = ""
    invert_title: bool = True
    flash: str = ""                           # a message over the body
    # The index in ``lines`` of the line being typed: a message never takes it.
    typing: int | None = None
    # A line drawing in panel pixels: its name for the text mirror, then
    # strokes, each a flat x0, y0, x1, y1, ... of points joined by lines.
    picture: tuple = ()
    # The big line at half height, so that two lines fit under it (key
    # hints a bar of 21 columns cannot hold).
    mid: bool = False
    # What was last done in the game, and by whom ("Ania takes I"): the
    # box sets it on the public screen, drawn on the lowest body row when
    # the screen leaves that row free, so that a wrong key is seen.
    said: str = ""

    @property
    def text(self) -> str:
        out = [f"[{self.title}]" if self.title else ""]
        if self.flash:
            out.append(f"! {self.flash}")
        if self.big:
            out.append(self.big)
        out.extend(self.lines)
        if said_shown(self):
            out.append(fit(SAID + self.said))
        if self.picture:
            out.append(f"[{self.picture[0]}]")
        if self.qr:
            out.append(f"QR {self.qr}")
        if self.keys:
            out.append(key_line(self.keys))
        return "\n".join(out)


SAID = "»"   # marks the line of what was last done


def rows(screen: Screen) -> int:
    """The body rows under the title and the big line, above the key bar."""
    top = 12 if screen.title else 0
    if screen.big:
        whole = not screen.flash and not screen.mid and font("big").getlength(screen.big) <= W - _left(screen)
        top += (font("big") if whole else font("mid")).size + 1
    return (H - top - (10 if screen.keys else 0)) // 10


def _left(screen: Screen) -> int:
    return qr_image(screen.qr).width + 4 if screen.qr else 0


def said_shown(screen: Screen) -> bool:
    """Whether the line of what was last done has a row of its own: one the
    screen's lines and a passing message leave free, never one of theirs."""
    if not screen.said or screen.picture:
        return False
    cols = COLS if not screen.qr else (W - _left(screen)) // 6
    message = len(wrap(screen.flash, cols)) if screen.flash else 0
    return len(screen.lines) + message < rows(screen)


def key_line(keys) -> str:
    return " ".join(f"{k}:{label}" for k, label in keys)


def fit(text: str, width: int = COLS) -> str:
    return text if len(text) <= width else text[:width - 1] + "…"


def wrap(text: str, width: int = COLS) -> list[str]:
    """Words to lines of at most ``width`` characters."""
    lines: list[str] = []
    for para in text.split("\n"):
        line = ""
        for word in para.split():
            if line and len(line) + 1 + len(word) > width:
                lines.append(line)
                line = word
            else:
                line = f"{line} {word}" if line else word
        lines.append(fit(line, width))
    return lines


@functools.lru_cache(maxsize=64)
def render(screen: Screen) -> Image.Image:
    image = Image.new("1", (W, H), 0)
    draw = ImageDraw.Draw(image)
    small = font("text")
    left, cols, top = 0, COLS, 0
    if screen.qr:
        # The code takes the whole height it needs; everything else moves
        # to the right of it.
        qr = qr_image(screen.qr)
        # Lit from edge to edge behind the code, so that a tight quiet
        # zone still has light around it.
        draw.rectangle((0, 0, qr.width + 1, H - 1), fill=1)
        image.paste(qr, (1, (H - qr.height) // 2))
        left = qr.width + 4
        cols = (W - left) // 6
    if screen.title:
        if screen.invert_title:
            draw.rectangle((left, 0, W - 1, 10), fill=1)
        draw.text((left + 1, 1), fit(screen.title, cols), font=small, fill=0 if screen.invert_title else 1)
        top = 12
    for stroke in screen.picture[1:]:
        draw.line(stroke, fill=1)
    y = top
    if screen.big:
        # Beside a message the big line shrinks rather than goes: it may be
        # what is being typed ("45s"), or the time running out.
        whole = not screen.flash and not screen.mid and font("big").getlength(screen.big) <= W - left
        big = font("big") if whole else font("mid")
        width = big.getlength(screen.big)
        draw.text((left + (W - left - width) // 2, y), screen.big, font=big, fill=1)
        y += big.size + 1
    room = (H - y - (10 if screen.keys else 0)) // 10
    if screen.picture:   # the text, a message included, stays left of the drawing
        edge = min(min(stroke[0::2]) for stroke in screen.picture[1:])
        cols = min(cols, (edge - left - 1) // 6)
    message, lines = body(screen, cols, room)
    for line in message:   # lit, so that it does not read as part of the screen
        draw.rectangle((left, y, W - 1, y + 9), fill=1)
        draw.text((left, y), line, font=small, fill=0)
        y += 10
    for line in lines:
        draw.text((left, y), line, font=small, fill=1)
        y += 10
    if said_shown(screen):   # on the lowest body row, apart from the screen's own lines
        bottom = H - (11 if screen.keys else 0) - 10
        draw.text((left, bottom), fit(SAID + screen.said, cols), font=small, fill=1)
    if screen.keys:
        draw.line((left, H - 11, W - 1, H - 11), fill=1)
        draw.text((left, H - 10), fit(key_line(screen.keys), cols), font=small, fill=1)
    return image


def body(screen: Screen, cols: int, room: int) -> tuple[list[str], list[str]]:
    """The message lines and the screen's own lines drawn under the title
    and the big line, ``room`` in all at most.  A message comes first, in as
    many lines as it needs; it takes the rows the screen leaves free, then
    the screen's own lines from the top down, but never the line being
    typed (``typing``)."""
    lines = [fit(line, cols) for line in screen.lines]
    if not screen.flash:
        return [], lines[:room]
    keep = screen.typing if screen.typing is not None and screen.typing < len(lines) else None
    message = wrap(screen.flash, cols)
    allowed = max(1, room - (keep is not None))
    if len(message) > allowed:
        message = message[:allowed]
        message[-1] = fit(message[-1] + " …", cols)
    drop = len(lines) - (room - len(message))
    gone = set([i for i in range(len(lines)) if i != keep][:max(0, drop)])
    return message, [line for i, line in enumerate(lines) if i not in gone][:room - len(message)]


@functools.lru_cache(maxsize=16)
def qr_image(url: str) -> Image.Image:
    """Dark modules on a lit panel, 2 px a module, the smallest version that
    holds the URL.  The quiet zone is 3 modules where the height allows and
    never under 1: a team page's 128-bit address needs version 3, which fits
    the 64-px panel only with a 1-module zone."""
    code = qrcode.QRCode(version=None, box_size=1, border=0,
                         error_correction=qrcode.constants.ERROR_CORRECT_M)
    code.add_data(url)
    code.make(fit=True)
    matrix = code.get_matrix()  # True = dark
    modules = len(matrix)
    border = min(3, (H // 2 - modules) // 2)
    if border < 1:
        raise ValueError(f"URL too long for a QR code on this screen: {url}")
    size = modules + 2 * border
    img = Image.new("1", (size, size), 1)
    for y, row in enumerate(matrix):
        for x, dark in enumerate(row):
            if dark:
                img.putpixel((x + border, y + border), 0)
    return img.resize((size * 2, size * 2), Image.Resampling.NEAREST)
