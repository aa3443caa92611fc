"""Tally's key flows: ``1`` and ``2`` give a point to a seat; ``#`` starts
a game of two players, ``0`` one of two teams (its team variant)."""
from __future__ import annotations

from extra_tally import rules
from extra_tally.said import describe  # noqa: F401  (the catalogue's hook)
from referee.box.flows import Flow
from referee.box.screen import Screen


def setup(box) -> Flow:
    return _Setup(box)


class _Setup(Flow):
    def key(self, key: str, kind: str) -> None:
        if kind == "press" and key == "#":
            self.box.start_game(rules.NAME, {"players": ["Ann", "Bob"]})
        elif kind == "press" and key == "0":
            self.box.start_game(rules.NAME, TEAMS)

    def screens(self) -> dict[str, Screen]:
        return {"main": Screen("Tally", ("Ann v Bob",), keys=(("#", "Start"), ("0", "Teams")), digits="0")}


# The team variant's game: two teams of two.
TEAMS = {"players": ["Reds", "Blues"], "members": [["Ann", "Cy"], ["Bob", "Di"]]}


class Play(Flow):
    def __init__(self, box, session) -> None:
        super().__init__(box)
        self.session = session

    def key(self, key: str, kind: str) -> None:
        if kind == "press" and key in "12":
            self.box.act(rules.Point(int(key) - 1))

    def screens(self) -> dict[str, Screen]:
        s = self.session.state
        lines = tuple(f"{name} {n}" for name, n in zip(s.names, rules.points(s)))
        over = rules.is_over(s)
        # A digit gives its seat a point: the page takes 1 and 2 until the end.
        return {"main": Screen("Tally", lines + (("Over",) if over else ()), digits="" if over else "12")}
