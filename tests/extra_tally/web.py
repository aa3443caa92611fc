"""Tally on the score-log pages."""
from __future__ import annotations


def details(i: int, r: dict) -> tuple[str, str]:
    return f"Point {r['point']}", "scored by " + ", ".join(r["scores"])


def now(view: dict) -> list[str]:
    return [" ".join(f"{name} {n}" for name, n in zip(view["players"], view["points"]))]


def replay_step(view: dict) -> tuple[int, str, list[tuple[str, str]]]:
    playing = sum(view["points"]) + 1     # the point being played
    return playing, f"Point {playing}", [(name, str(n)) for name, n in zip(view["players"], view["points"])]
