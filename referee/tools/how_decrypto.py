"""Decrypto's example for How to play: round 1 decoded, round 2 intercepted."""
from __future__ import annotations

from referee.testing import Table
from referee.tools.how import Camera, setup


def _codes(t: Table) -> dict[int, str]:
    """Both teams' codes as digits to key: what each encryptor reads on the team's screen."""
    session = t.box.session
    assert session is not None
    return {seat: "".join(map(str, session.state.codes[seat])) for seat in (0, 1)}


def play(c: Camera) -> None:
    t = c.t
    setup(c, "1")
    t.start("decrypto")
    c.settle()
    c.t.type("D*")      # the first page's tip stays until a key: a page away and back, and it is whole
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
