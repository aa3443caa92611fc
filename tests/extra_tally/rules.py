"""Tally's rules: pure, like every game's (``games.base.Rules``)."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from games.base import Countdown, Illegal, Summary, player_names, winners

NAME = "tally"
GOAL = 3


@dataclass(frozen=True)
class Point:
    seat: int


EVENTS = (Point,)


@dataclass(frozen=True)
class State:
    names: tuple[str, ...]
    scored: tuple[int, ...] = ()   # the seat of each point, in order


def setup(options: dict) -> State:
    return State(player_names(dict(options), 2, 2))


def points(state: State) -> tuple[int, ...]:
    return tuple(state.scored.count(seat) for seat in range(len(state.names)))


def is_over(state: State) -> bool:
    return max(points(state)) >= GOAL


def apply(state: State, event, at: float) -> State:
    if not isinstance(event, Point) or event.seat not in range(len(state.names)):
        raise Illegal("That does not fit now.")
    if is_over(state):
        raise Illegal("The game is over.")
    return dataclasses.replace(state, scored=state.scored + (event.seat,))


def requests(state: State) -> tuple:
    return ()


def timer(state: State) -> Countdown | None:
    return None


def public(state: State) -> dict:
    return {"players": list(state.names), "points": list(points(state)), "over": is_over(state)}


def private(state: State, seat: int) -> dict:
    return public(state)


def summary(state: State) -> Summary:
    totals = dict(zip(state.names, points(state)))
    return Summary(status="finished" if is_over(state) else "playing", players=list(state.names),
                   rounds=[{"point": n, "scores": {state.names[seat]: 1}} for n, seat in enumerate(state.scored, 1)],
                   totals=totals, winners=winners(totals) if is_over(state) else [])
