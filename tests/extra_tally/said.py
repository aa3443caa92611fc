"""Tally's words for a point, which its key flows and the replay both say."""
from __future__ import annotations

from extra_tally.rules import Public
from games.base import Summary
from referee.account import Facts, Side


def describe(event, before) -> str:
    return f"{before.names[event.seat]} scores"


def account(view: Public, summary: Summary) -> Facts:
    """Where a game of Tally stands: each player's points."""
    return Facts(f"Point {sum(view.points) + 1}", "",
                 [Side(name, points=n) for name, n in zip(view.players, view.points)])
