"""Osmišifry's example for How to play: two players, the rulebook's rolls, then its worked
example keyed in at scoring (officer 9, agent 18 - 5 - 5 = 8)."""
from __future__ import annotations

from games.base import Rolled
from referee.tools.how import Camera, setup


def play(c: Camera) -> None:
    t = c.t
    setup(c, "2")
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
