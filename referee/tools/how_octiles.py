"""Octiles' example for How to play: West's first turn on space 12, the deck's first tiles chosen."""
from __future__ import annotations

import random

from referee.tools.how import Camera, setup


class _Deck(random.Random):
    """The box's randomness with the deck's first tiles chosen, so that
    every language's pictures show the same game."""

    def shuffle(self, items) -> None:   # type: ignore[override]
        top = ("T01", "T02", "T03")
        items.sort(key=lambda tile: (top.index(tile) if tile in top else len(top), tile))


def play(c: Camera) -> None:
    t = c.t
    setup(c, "3")
    t.box.rng = _Deck(0)
    t.start("octiles", players=2)
    c.settle()
    c.t.type("D*")      # the first page's tip stays until a key: a page away and back, and it is whole
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
