"""Da Vinci Code's example for How to play: a hit, a stop and a miss among three players."""
from __future__ import annotations

from referee.tools.how import Camera, setup


def play(c: Camera) -> None:
    t = c.t
    setup(c, "4")
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
