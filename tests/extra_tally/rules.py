"""Tally's rules: pure, like every game's (``games.base.Rules``).

In its team variant the two seats are teams, ``options["members"]`` the
people in each (``[["Ann", "Cy"], ["Bob", "Di"]]``), as Decrypto's are: the
score log keeps them beside the teams, and the players' pages and the
league rate the people, not the teams."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from games.base import Countdown, Illegal, Round, Summary, View, clean_name, player_names, winners

NAME = "tally"
GOAL = 3


@dataclass(frozen=True)
class Point:
    seat: int


EVENTS: tuple[type, ...] = (Point,)


@dataclass(frozen=True)
class State:
    names: tuple[str, ...]
    scored: tuple[int, ...] = ()   # the seat of each point, in order
    members: tuple[tuple[str, ...], ...] = ()   # the team variant: who plays in each seat's team


def setup(options: dict) -> State:
    return State(player_names(dict(options), 2, 2), members=_members(options.get("members", ())))


def _members(given) -> tuple[tuple[str, ...], ...]:
    if not given:
        return ()
    if not isinstance(given, (list, tuple)) or len(given) != 2 or not all(isinstance(t, (list, tuple)) and t for t in given):
        raise Illegal("Name the people of both teams.")
    members = tuple(tuple(clean_name(name) for name in team) for team in given)
    flat = [name.casefold() for team in members for name in team]
    if len(set(flat)) != len(flat):
        raise Illegal("Two players have the same name.")
    return members


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


class Public(View, frozen=True, kw_only=True):
    """Each seat's points; in the team variant the people of each team."""
    players: list[str]
    points: list[int]
    over: bool
    members: list[list[str]] = []


def public(state: State) -> Public:
    return Public(players=list(state.names), points=list(points(state)), over=is_over(state),
                  members=[list(team) for team in state.members])


def private(state: State, seat: int) -> Public:
    return public(state)


class PointLog(Round, kw_only=True):
    """A point of the score log: its number, scoring its side."""
    point: int


def summary(state: State) -> Summary:
    totals = dict(zip(state.names, points(state)))
    return Summary(status="finished" if is_over(state) else "playing", players=list(state.names),
                   rounds=[PointLog(point=n, scores={state.names[seat]: 1}) for n, seat in enumerate(state.scored, 1)],
                   totals=totals, winners=winners(totals) if is_over(state) else [],
                   members={name: list(team) for name, team in zip(state.names, state.members)} if state.members else {})
