"""What a display shows, as a small view model, and how it becomes pixels.

A ``Screen`` is a title, up to four lines of text, an optional big line (a
countdown, dice), an optional QR code, an optional line drawing (a tile), and
the labels of the keys that do something now.  ``render`` draws it 1-bit at
128×64; ``text`` is the same screen as plain text, for tests and the terminal
simulator.

A passing message (``flash``) is drawn on lit lines under the title, in as
many lines as it needs.  It takes rows the screen leaves free first, then
the screen's own lines from the top, then the second row of a key bar of
two; the title, the key bar's first row, the line being typed or the keys'
hints written as a line (``typing``, ``keep``) and the big line (shrunk)
stay, so that a page still says what it is and what to key.  A message
that still has too few rows there (beside a QR code or a drawing, on a
page of four lines kept) is read whole over the page while it shows
(``covered``): the title, the message, the key bar's first row.

The keys a page takes are declared on its screen, by role (see
``referee.box.flows.roles``): the key bar (``keys``), the digits it takes
(``digits``) and keys its lines name (``also``).  The box hands a flow only
the keys its page declares (``Screen.offers``); any other key says what the
page takes and changes nothing.

``text`` is made from what ``render`` draws (``layout``), row for row: a
line the panel does not show (covered by a message, cut, off the panel) is
not in it.

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
         "tall": ("terminus-bold.otb", 28, "fonts-terminus-otb"),
         "mid": ("terminus-bold.otb", 16, "fonts-terminus-otb")}


class FontMissing(RuntimeError):
    pass


def font_file(kind: str) -> str:
    """Where the font of ``kind`` is installed."""
    name, _size, package = FONTS[kind]
    for folder in FONT_DIRS:
        path = os.path.join(folder, name)
        if os.path.exists(path):
            return path
    raise FontMissing(f"font {name} not found: install the Debian package {package} "
                      f"(sudo apt-get install {package})")


@functools.cache
def font(kind: str) -> ImageFont.FreeTypeFont:
    path, size = font_file(kind), FONTS[kind][1]
    if path.endswith(".gz"):
        # FreeType reads a gzipped font by decompressing from the
        # start for every glyph; unpacked in memory it is 40× faster.
        with gzip.open(path) as f:
            return ImageFont.truetype(io.BytesIO(f.read()), size)
    return ImageFont.truetype(path, size)


@dataclass(frozen=True)
class Screen:
    title: str = ""
    lines: tuple[str, ...] = ()
    big: str = ""
    keys: tuple[tuple[str, str], ...] = ()   # (key, label), e.g. ("#", "OK")
    qr: str = ""
    invert_title: bool = True
    flash: str = ""                           # a message over the body
    # The index in ``lines`` of the line being typed, or of the keys' hints
    # where a big line leaves no room for the key bar: a message never takes it.
    typing: int | None = None
    # Other lines that say what to key ("1-17, then #"): a message leaves them too.
    keep: tuple[int, ...] = ()
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
    # The digits the page takes (choose or enter); a page that says none
    # takes none, so that no digit acts where the page does not name it.
    digits: str = ""
    # Keys the page takes that its lines name rather than the key bar
    # ("Roll 2d8: # or ROLL", "A:names B:by phone").
    also: tuple[str, ...] = ()

    def offers(self, key: str) -> bool:
        """Whether a press of ``key`` does something on this page."""
        if key.isdigit():
            return key in self.digits
        return key in self.also or any(k == key for k, _label in self.keys)

    @property
    def text(self) -> str:
        """The screen as the panel draws it, row for row (``layout``)."""
        at = layout(self)
        out = [f"[{at.title}]" if at.title else ""]
        if at.message:
            out.append("! " + " ".join(at.message))
        if self.big and not at.covered:
            out.append(self.big)
        out.extend(at.lines)
        if at.said:
            out.extend(at.said.split("\n"))
        if self.picture and not at.covered:
            out.append(f"[{self.picture[0]}]")
        if self.qr and not at.covered:
            out.append(f"QR {self.qr}")
        out.extend(at.keys)
        return "\n".join(out)


SAID = "»"   # marks the line of what was last done


def said_shown(screen: Screen) -> bool:
    """Whether the line of what was last done has a row of its own: one the
    screen's lines and a passing message leave free, never one of theirs."""
    return bool(layout(screen).said)


def key_line(keys) -> str:
    return " ".join(f"{k}:{label}" for k, label in keys)


def key_rows(keys, cols: int = COLS) -> list[str]:
    """The key bar as drawn: one row, or two where one would cut a label
    (each row whole labels, as many on the first as it holds)."""
    line = key_line(keys)
    if len(line) <= cols or len(keys) < 2:
        return [fit(line, cols)] if keys else []
    first: list = []
    for key in keys:
        if len(key_line([*first, key])) > cols:
            break
        first.append(key)
    first = first or [keys[0]]
    return [fit(key_line(first), cols), fit(key_line(keys[len(first):]), cols)]


@dataclass(frozen=True)
class Layout:
    """Where ``render`` puts a screen's words: what a player can read."""
    left: int                  # pixels the QR code takes at the left
    cols: int                  # characters a line holds right of it
    title: str
    big_font: str              # "big", "tall" or "mid"; "" without a big line
    message: tuple[str, ...]   # the passing message, lit
    lines: tuple[str, ...]     # the screen's own lines, as many as fit
    keys: tuple[str, ...]      # the key bar's rows
    said: str = ""             # the line of what was last done, if it has rows: one or two, "\n" between
    covered: bool = False      # a passing message over the whole page: no big line, QR code or drawing


def layout(screen: Screen) -> Layout:
    left, cols, top = 0, COLS, 0
    if screen.qr:
        # The code takes the whole height it needs; everything else moves
        # to the right of it.
        left = qr_image(screen.qr).width + 4
        cols = (W - left) // 6
    title = fit(screen.title, cols) if screen.title else ""
    if screen.title:
        top = 12
    keys = key_rows(screen.keys, cols)
    if screen.picture:   # the text, a message included, stays left of the drawing
        edge = min(min(stroke[0::2]) for stroke in screen.picture[1:])
        cols = min(cols, (edge - left - 1) // 6)
        bottom = max(max(stroke[1::2]) for stroke in screen.picture[1:])
        if bottom >= H - 1 - 10 * len(keys):   # the key bar is not all under it
            keys = key_rows(screen.keys, cols)
    y, big_font = top, ""
    if screen.big:
        # Beside a message the big line shrinks rather than goes: it may be
        # what is being typed ("45s"), or the time running out.  Over a key
        # bar of two rows it is a little smaller, and with lines as well
        # half as tall, rather than cut a key's label.
        whole = not screen.flash and not screen.mid and font("big").getlength(screen.big) <= W - left
        big_font = "mid" if not whole else "big" if len(keys) < 2 else "tall" if not screen.lines else "mid"
        y += int(font(big_font).size) + 1   # Pillow types a font's size as a float; ours are whole pixels
    room = (H - y - 10 * len(keys)) // 10
    message, lines = body(screen, cols, room)
    if len(keys) > 1 and cut_short(screen, cols, message):
        # A message cut short says nothing: while it shows, a key bar of
        # two rows gives it its second row (a refusal says every key the
        # page takes; the bar is whole again when it goes).
        keys = keys[:1]
        room += 1
        message, lines = body(screen, cols, room)
    if cut_short(screen, cols, message):
        return covered(screen)
    said = ""
    if screen.said and not screen.picture and not screen.qr:
        # Whole or not at all: on one row, or two where the page leaves
        # two free; never cut short (beside a QR code or a drawing there
        # is no room for it).
        rows = wrap(SAID + screen.said, cols)
        if len(rows) <= min(2, room - len(screen.lines) - len(message)) and not rows[-1].endswith("…"):
            said = "\n".join(rows)
    return Layout(left, cols, title, big_font, tuple(message), tuple(lines), tuple(keys), said)


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
    at = layout(screen)
    left, y = at.left, 0
    if screen.qr and not at.covered:
        qr = qr_image(screen.qr)
        # Lit from edge to edge behind the code, so that a tight quiet
        # zone still has light around it.
        draw.rectangle((0, 0, qr.width + 1, H - 1), fill=1)
        image.paste(qr, (1, (H - qr.height) // 2))
    if screen.title and at.title:
        if screen.invert_title:
            draw.rectangle((left, 0, W - 1, 10), fill=1)
        draw.text((left + 1, 1), at.title, font=small, fill=0 if screen.invert_title else 1)
        y = 12
    for stroke in screen.picture[1:] if not at.covered else ():
        draw.line(stroke, fill=1)
    if screen.big and not at.covered:
        big = font(at.big_font)
        width = big.getlength(screen.big)
        draw.text((left + (W - left - width) // 2, y), screen.big, font=big, fill=1)
        y += int(big.size) + 1
    for line in at.message:   # lit, so that it does not read as part of the screen
        draw.rectangle((left, y, W - 1, y + 9), fill=1)
        draw.text((left, y), line, font=small, fill=0)
        y += 10
    for line in at.lines:
        draw.text((left, y), line, font=small, fill=1)
        y += 10
    if at.said:   # on the lowest body rows, apart from the screen's own lines
        rows = at.said.split("\n")
        for i, row in enumerate(rows):
            draw.text((left, H - 1 - 10 * len(at.keys) - 10 * (len(rows) - i)), row, font=small, fill=1)
    if at.keys:
        top = H - 1 - 10 * len(at.keys)
        draw.line((left, top, W - 1, top), fill=1)
        for i, row in enumerate(at.keys):
            draw.text((left, top + 1 + 10 * i), row, font=small, fill=1)
    return image


def covered(screen: Screen) -> Layout:
    """A passing message too long to be read beside its page, over the whole
    of it while it shows: the title, the message on the panel's full width,
    the line being typed if a row is left, the key bar's first row (its
    second, and the bar itself, where the message needs them)."""
    message = wrap(screen.flash)
    keys = key_rows(screen.keys)[:1]
    top = 12 if screen.title else 0
    if len(message) > (H - top - 10 * len(keys)) // 10:
        keys = []
    room = (H - top - 10 * len(keys)) // 10
    if len(message) > room:
        message = message[:room]
        message[-1] = fit(message[-1] + " …")
    typed = screen.lines[screen.typing] if screen.typing is not None and screen.typing < len(screen.lines) else None
    lines = (fit(typed),) if typed is not None and len(message) < room else ()
    return Layout(0, COLS, fit(screen.title) if screen.title else "", "", tuple(message), lines, tuple(keys),
                  covered=True)


def cut_short(screen: Screen, cols: int, message: list[str]) -> bool:
    """Whether ``message``, the rows a page gives its passing message, cut it short."""
    return bool(screen.flash) and message != wrap(screen.flash, cols)


def body(screen: Screen, cols: int, room: int) -> tuple[list[str], list[str]]:
    """The message lines and the screen's own lines drawn under the title
    and the big line, ``room`` in all at most.  A message comes first, in as
    many lines as it needs; it takes the rows the screen leaves free, then
    the screen's own lines from the top down, but never the line being
    typed (``typing``)."""
    lines = [fit(line, cols) for line in screen.lines]
    if not screen.flash:
        return [], lines[:room]
    keep = [i for i in (screen.typing, *screen.keep) if i is not None and i < len(lines)]
    message = wrap(screen.flash, cols)
    while len(keep) > 1 and len(message) > room - len(keep):
        keep.pop()   # a message cut short says nothing: the last hint kept goes first, never the typed line
    allowed = max(1, room - len(keep))
    if len(message) > allowed:
        message = message[:allowed]
        message[-1] = fit(message[-1] + " …", cols)
    drop = len(lines) - (room - len(message))
    gone = set([i for i in range(len(lines)) if i not in keep][:max(0, drop)])
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
