"""Tally on the score-log pages."""
from __future__ import annotations

from extra_tally.rules import PointLog, Public


def details(i: int, r: PointLog) -> tuple[str, str]:
    return f"Point {r.point}", "scored by " + ", ".join(r.scores)


def now(view: Public) -> list[str]:
    return [" ".join(f"{name} {n}" for name, n in zip(view.players, view.points))]


def replay_step(view: Public) -> tuple[int, str, list[tuple[str, str]]]:
    """The point being played, and each seat's points; a team with the
    people in it (the team variant)."""
    playing = sum(view.points) + 1
    members = view.members or [[]] * len(view.players)
    return playing, f"Point {playing}", [(f"{name} ({', '.join(team)})" if team else name, str(n))
                                         for name, team, n in zip(view.players, members, view.points)]
