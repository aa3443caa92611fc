"""Table tools: a stand-alone countdown and dice, for any game on the table.

Options: none.  The timer starts at 1 minute and the dice at 2d8; both are
changed from the keypad.  Rolls come from the dice module (or the software
fallback) like every other roll, and the last ten are kept.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

import msgspec

from games.base import Countdown, Summary, Illegal, Roll, Rolled, TimerExpired, View

NAME = "tools"
PRESETS = (30, 60, 300)
MAX_SECONDS = 99 * 60 + 59
HISTORY = 10


@dataclass(frozen=True)
class SetTimer:
    seconds: int


@dataclass(frozen=True)
class StartTimer:
    """Start, go on after a pause, or start over once time is up."""


@dataclass(frozen=True)
class PauseTimer:
    """Hold the countdown where it is."""


@dataclass(frozen=True)
class ResetTimer:
    """Back to the time set."""


@dataclass(frozen=True)
class SetDice:
    count: int
    sides: int


@dataclass(frozen=True)
class Close:
    """Leave the table tools."""


EVENTS: tuple[type, ...] = (SetTimer, StartTimer, PauseTimer, ResetTimer, SetDice, Close)


@dataclass(frozen=True)
class State:
    countdown: Countdown = Countdown("tools", 60, 60)
    expired: bool = False
    count: int = 2
    sides: int = 8
    rolls: tuple[Rolled, ...] = ()
    closed: bool = False


def setup(options: dict[str, Any] | None = None) -> State:
    if options:
        raise Illegal("Table tools take no options.")
    return State()


def apply(state: State, event: object, at: float) -> State:
    cd = state.countdown
    match event:
        case SetTimer(seconds):
            if not 1 <= seconds <= MAX_SECONDS:
                raise Illegal("A timer runs from 1 second to 99:59.")
            return dataclasses.replace(state, countdown=Countdown("tools", seconds, seconds), expired=False)
        case StartTimer():
            if cd.running:
                raise Illegal("The timer is already running.")
            if state.expired or cd.left <= 0:
                cd = Countdown("tools", cd.seconds, cd.seconds)
            return dataclasses.replace(state, countdown=cd.resume(at), expired=False)
        case PauseTimer():
            if not cd.running:
                raise Illegal("The timer is not running.")
            return dataclasses.replace(state, countdown=cd.pause(at))
        case ResetTimer():
            return dataclasses.replace(state, countdown=Countdown("tools", cd.seconds, cd.seconds), expired=False)
        case TimerExpired("tools") if cd.running:
            return dataclasses.replace(state, countdown=dataclasses.replace(cd, left=0, started_at=None), expired=True)
        case SetDice(count, sides):
            if not (1 <= count <= 4 and 2 <= sides <= 20):
                raise Illegal("Roll 1 to 4 dice of 2 to 20 sides.")
            return dataclasses.replace(state, count=count, sides=sides)
        case Rolled("dice", values) if all(1 <= v <= state.sides for v in values):
            return dataclasses.replace(state, rolls=(event, *state.rolls)[:HISTORY])
        case Close():
            return dataclasses.replace(state, closed=True, countdown=cd.pause(at))
    raise Illegal("That does not fit now.")


def requests(state: State) -> tuple[Roll, ...]:
    return () if state.closed else (Roll("dice", state.count, state.sides),)


def timer(state: State) -> Countdown | None:
    return state.countdown if state.countdown.running else None


class Timer(msgspec.Struct, frozen=True):
    seconds: float
    left: float
    running: bool
    expired: bool


class Public(View, frozen=True, kw_only=True):
    """The tools as the table sees them: the timer, the dice and the last rolls."""
    timer: Timer
    dice: str                  # "2d6"
    rolls: list[list[int]]     # the latest first


def public(state: State) -> Public:
    cd = state.countdown
    return Public(timer=Timer(cd.seconds, cd.left, cd.running, state.expired),
                  dice=f"{state.count}d{state.sides}", rolls=[list(r.values) for r in state.rolls])


def private(state: State, seat: object) -> Public:
    return public(state)


def summary(state: State) -> Summary:
    return Summary(status="finished" if state.closed else "playing", players=[], rounds=[], totals={}, winners=[])


def is_over(state: State) -> bool:
    return state.closed
