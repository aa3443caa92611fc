"""The pictures of the "How to play" pages (``/how/<game>``): the box's own
screens, drawn by the virtual table from a short scripted game of each
game, in each of the box's four languages.

    python -m referee.tools.how                 # write them into the package
    python -m referee.tools.how --out FOLDER    # write them elsewhere

Each game's script (``play`` in ``referee/tools/how_<game>.py``, a module
of the game's own, as every place that names a game) plays real keys (and
dice) through ``referee.testing.Table`` and takes a picture of a panel at the moments the guide names
(``referee.guide``: a phase's ``Shot``).  The games are made-up examples,
so a team's private screen may show its code: the page says so.
``tests/test_how.py`` draws them again and fails when the pictures kept in
``referee/web/how`` differ from what the screens draw today.
"""
from __future__ import annotations

import argparse
import importlib
import os
from importlib import resources

from PIL import Image

from referee import guide, i18n
from referee.testing import Table

FLASH = 3.0      # seconds: a passing message has gone by then


class Camera:
    """A table whose panels are pictured at the script's moments."""

    def __init__(self, table: Table) -> None:
        self.t = table
        self.pictures: dict[str, Image.Image] = {}

    def shoot(self, name: str, screen: str = "main") -> None:
        self.pictures[name] = self.t.image(screen).copy()

    def held(self, name: str, button: str) -> None:
        """The picture of a team screen while its button is held (a code, a count)."""
        self.t.down(button)
        self.t.advance(0.7)
        self.shoot(name, button)
        self.t.up(button)

    def settle(self) -> None:
        self.t.advance(FLASH)


def setup(c: Camera, digit: str) -> None:
    """The game's setup page, reached from the main menu, then back."""
    c.t.press(digit)
    c.shoot("setup")
    c.t.press("*")


def pictures(game: str, lang: str) -> dict[str, Image.Image]:
    """The pictures of one game's script in one language, by shot name."""
    try:
        with Table(seed=7, lang=lang) as table:
            camera = Camera(table)
            importlib.import_module(f"referee.tools.how_{game}").play(camera)   # the game's own script
            return camera.pictures
    finally:
        i18n.use("en")   # the language is the process's: the next script sets its own


def path(folder: str, game: str, lang: str, shot: str) -> str:
    return os.path.join(folder, game, lang, f"{shot}.png")


def write(folder: str, game: str, lang: str) -> list[str]:
    """Draw one game's pictures in one language into ``folder``; the files written."""
    written = []
    for shot, image in pictures(game, lang).items():
        name = path(folder, game, lang, shot)
        os.makedirs(os.path.dirname(name), exist_ok=True)
        image.convert("1").save(name, optimize=True)
        written.append(name)
    return written


def kept() -> str:
    """The folder the web serves the pictures from, in the package."""
    return str(resources.files("referee.web") / "how")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m referee.tools.how",
                                     description="Draw the How to play pages' screens from scripted games.")
    parser.add_argument("--out", default=kept(), help="the folder to write into (default: the package's)")
    args = parser.parse_args(argv)
    for game in guide.games():
        for lang in i18n.LANGS:
            for name in write(args.out, game, lang):
                print(name)


if __name__ == "__main__":
    main()
