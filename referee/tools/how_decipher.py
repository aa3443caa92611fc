"""Decipher's example for How to play: the rulebook's worked example, PANDA, on the keys."""
from __future__ import annotations

from referee.tools.how import Camera, setup


def play(c: Camera) -> None:
    t = c.t
    setup(c, "5")
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
