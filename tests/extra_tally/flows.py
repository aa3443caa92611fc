"""Tally's key flows: ``1`` and ``2`` give a point to a seat; ``#`` starts."""
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

    def screens(self) -> dict[str, Screen]:
        return {"main": Screen("Tally", ("Ann v Bob",), keys=(("#", "Start"),))}


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
        return {"main": Screen("Tally", lines + (("Over",) if rules.is_over(s) else ()))}
