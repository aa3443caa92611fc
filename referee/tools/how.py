"""The pictures of the "How to play" pages (``/how/<game>``): the box's own
screens, drawn by the virtual table from a short scripted game of each
game, in each of the box's four languages.

    python -m referee.tools.how                 # write them into the package
    python -m referee.tools.how --out FOLDER    # write them elsewhere

Each script plays real keys (and dice) through ``referee.testing.Table`` and
takes a picture of a panel at the moments the guide names
(``referee.guide``: a phase's ``Shot``).  The games are made-up examples,
so a team's private screen may show its code: the page says so.
``tests/test_how.py`` draws them again and fails when the pictures kept in
``referee/web/how`` differ from what the screens draw today.
"""
from __future__ import annotations

import argparse
import os
import random
from collections.abc import Callable
from importlib import resources

from PIL import Image

from games.base import Rolled
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


def _setup(c: Camera, digit: str) -> None:
    """The game's setup page, reached from the main menu, then back."""
    c.t.press(digit)
    c.shoot("setup")
    c.t.press("*")


def osmisifry(c: Camera) -> None:
    t = c.t
    _setup(c, "2")
    t.start("osmisifry", players=2)
    c.shoot("roll")
    for faces in ((4, 3), (5, 6), (7, 6), (8, 8), (1, 1), (1, 2)):   # [OS-1] the rulebook's cells first
        t.dice.next(*faces)
        t.press("#")
    c.settle()
    c.shoot("pick")
    t.type("12")
    for _ in range(4):          # four rounds more: enough letters for the worked example's words
        while "#" in dict(t.box.shown["main"].keys) and not t.box.shown["main"].digits:
            assert t.box.act(Rolled("letter", (2, 5)))
        t.type("12")
    c.settle()
    t.type("D")
    c.shoot("end")
    t.type("#")
    c.settle()
    c.shoot("direction")
    t.dice.next(3)
    t.press("#")
    c.settle()
    c.shoot("officers")
    t.press("#")
    t.advance(65)
    c.shoot("decoding")
    t.type("##")
    c.settle()
    t.type("11#9#5#")           # the rulebook's worked example [OS-11] [OS-12]
    c.shoot("scoring")
    t.press("A")
    t.type("0#0#0#B")
    c.settle()
    t.press("D")
    c.shoot("result")


def _codes(t: Table) -> dict[int, str]:
    """Both teams' codes as digits to key: what each encryptor reads on the team's screen."""
    session = t.box.session
    assert session is not None
    return {seat: "".join(map(str, session.state.codes[seat])) for seat in (0, 1)}


def decrypto(c: Camera) -> None:
    t = c.t
    _setup(c, "1")
    t.start("decrypto")
    c.settle()
    c.shoot("clues")
    c.held("code", "team1")
    codes = _codes(t)
    for button in ("team1", "team1", "team2", "team2"):   # [DE-4] each team's button twice: clues written
        t.press(button)
    c.settle()
    c.shoot("decode")
    t.type(codes[0] + "#")
    c.settle()
    c.shoot("reveal")
    t.press("#")
    t.type(codes[1] + "#")
    t.press("#")
    c.settle()
    codes = _codes(t)
    for button in ("team1", "team1", "team2", "team2"):
        t.press(button)
    c.settle()
    c.shoot("intercept")
    t.type(codes[0] + "#")        # Black intercepts White's code [DE-6]
    c.settle()
    c.shoot("intercepted")


def decipher(c: Camera) -> None:
    t = c.t
    _setup(c, "5")
    t.start("decipher", players=["Mirek", "Ania", "Marek"])
    c.settle()
    c.shoot("count", "team1")
    t.type("7#")                  # Mirek keeps 7 pieces in the chamber [DC-3]
    c.settle()
    c.shoot("turn")
    t.type("BA")                  # the rulebook's worked example [DC-10]
    t.type("BBA")
    t.type("A")
    t.type("A")
    c.settle()
    c.shoot("bonus")
    t.type("#A")
    t.type("3B")
    t.type("2B")
    t.type("2")
    c.shoot("guess")
    t.type("A")
    c.settle()
    c.shoot("round")
    t.press("D")
    c.shoot("maker")
    t.press("D")
    c.shoot("seeker")


def davinci(c: Camera) -> None:
    t = c.t
    _setup(c, "4")
    t.start("davinci", players=3)
    c.settle()
    c.shoot("deal")
    t.press("#")
    c.settle()
    c.shoot("draw")
    t.press("2")
    c.shoot("attack")
    t.press("A")
    c.settle()
    c.shoot("hit")
    t.press("#")
    c.settle()
    t.press("3")
    t.press("B")
    c.settle()
    c.shoot("miss")
    c.shoot("rows", "team1")


class _Deck(random.Random):
    """The box's randomness with the deck's first tiles chosen, so that
    every language's pictures show the same game."""

    def shuffle(self, items) -> None:   # type: ignore[override]
        top = ("T01", "T02", "T03")
        items.sort(key=lambda tile: (top.index(tile) if tile in top else len(top), tile))


def octiles(c: Camera) -> None:
    t = c.t
    _setup(c, "3")
    t.box.rng = _Deck(0)
    t.start("octiles", players=2)
    c.settle()
    c.shoot("tile")
    t.type("12")
    c.shoot("space")
    t.press("#")
    c.shoot("turn")
    t.press("#")
    c.settle()
    c.shoot("move")
    t.press("#")
    c.settle()
    c.shoot("next")


SCRIPTS: dict[str, Callable[[Camera], None]] = {
    "decrypto": decrypto, "osmisifry": osmisifry, "octiles": octiles, "davinci": davinci, "decipher": decipher}


def pictures(game: str, lang: str) -> dict[str, Image.Image]:
    """The pictures of one game's script in one language, by shot name."""
    try:
        with Table(seed=7, lang=lang) as table:
            camera = Camera(table)
            SCRIPTS[game](camera)
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
    for game in guide.GAMES:
        for lang in i18n.LANGS:
            for name in write(args.out, game, lang):
                print(name)


if __name__ == "__main__":
    main()
