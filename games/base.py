"""What every game module is, and the few pieces the five games share.

A game module (``games/decrypto.py`` and friends) is pure: no I/O, no clock,
no randomness, no threads.  What it provides at module level is the
``Rules`` protocol below; ``referee.catalogue`` names each game's module and
a test holds every one of them to it.

Everything random or timed comes back as an event, so a game is replayed
exactly from its event list, and undo is "replay all but the last action".
"""
from __future__ import annotations

import dataclasses
import math
import typing
import unicodedata
from dataclasses import dataclass
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Callable, Literal, TypeGuard

import msgspec


@typing.runtime_checkable
class Rules(typing.Protocol):
    """A game's rules, as a module provides them (a module satisfies a
    protocol by its names, as a class does)."""

    NAME: str
    """The short name used by the service ("decrypto")."""
    EVENTS: tuple[type, ...]
    """The event classes it accepts (frozen dataclasses)."""

    def setup(self, options: dict[str, Any]) -> Any:
        """The start state; bad options raise ``Illegal``."""

    def apply(self, state: Any, event: Any, at: float) -> Any:
        """The next state; a move the rules forbid raises ``Illegal`` and
        changes nothing.  ``at`` is the game clock's second when the event
        was recorded (a clock of the game's own, never the wall clock),
        passed in as data so that timers replay exactly."""

    def requests(self, state: Any) -> tuple[Request, ...]:
        """What the service must do now: ``Pick``, ``Shuffle`` or ``Roll``
        (answered with ``Picked``, ``Shuffled``, ``Rolled``)."""

    def timer(self, state: Any) -> Countdown | None:
        """The countdown running now; the service answers its end with
        ``TimerExpired(name)``."""

    def public(self, state: Any) -> View:
        """What anyone may see: the public screen, the web; the game's own
        kind of ``View``."""

    def private(self, state: Any, seat: int) -> View:
        """What one team or player may see, their secrets included: the
        game's own kind of ``View``, usually its public one with the seat's
        fields added.  A page shows all of it (a secret for one player
        alone at a team's table stays out of it)."""

    def summary(self, state: Any) -> Summary:
        """The score log entry (only what was revealed): a ``Summary``, or
        the game's own kind of it."""

    def is_over(self, state: Any) -> bool:
        """Whether the game has ended."""


class View(msgspec.Struct, frozen=True, kw_only=True):
    """A game's view of its state, public or one seat's: the rules make it
    (``Rules.public``, ``Rules.private``), the screens, pages and words of
    the game read its fields.  A game's own kinds of it, in its module,
    name those fields; they are data (numbers, strings, lists, dicts and
    views), so ``msgspec.to_builtins`` makes JSON of any of them."""


V = typing.TypeVar("V", bound=View)


def widened(view: View, kind: type[V], **fields: Any) -> V:
    """``view`` as the larger kind of view ``kind`` (its subclass: a
    private view that adds a seat's fields to the public one), with
    ``fields`` for what it adds."""
    return kind(**msgspec.structs.asdict(view), **fields)


class Round(msgspec.Struct, kw_only=True, omit_defaults=True):
    """A round (or turn) of a score log: the points it gave, by player.  A
    game's own kind of it, in the game's module, says what happened in it;
    pages of any game read only this."""
    scores: dict[str, int]


class Summary(msgspec.Struct, kw_only=True, omit_defaults=True):
    """A game's score log, only what was revealed: what every game's says,
    and (with their defaults, left out of the JSON) what a few games add
    and pages of any game read.  A game with more to say subclasses it in
    its own module; the service reads and writes it through msgspec, so an
    entry written before a field existed still loads with its default."""
    status: Literal["playing", "finished"]
    players: list[str]
    rounds: Sequence[Round]            # a round (or turn) each: the game's own kind of ``Round``
    totals: dict[str, int]
    winners: list[str]
    starter: str | None = None         # who started, where the table chose
    scored: bool = True                # False: the totals are a win and a loss, no points (Da Vinci's single game)
    stopped: bool = False              # the table ended it from the game menu before its end
    members: dict[str, list[str]] = {}  # teams as players: the people in each
    goals: dict[str, int] = {}         # sides racing to goals of their own: each one's
    finishing_order: list[str] = []    # who came home first, second...
    variant: str | None = None         # the rules' variant, where the game has some
    notes: dict[str, list[dict[str, Any]]] = {}  # what each side wrote down, row by row (Decrypto's clue sheets)


class Illegal(Exception):
    """A move the rules do not allow, in a short English sentence for the
    players.  Names and numbers go in as fields, not into the sentence, so
    that the sentence stays one message id for the translations::

        raise Illegal("{player} is out.", player=name)

    ``str(exc)`` is the English; ``exc.message`` and ``exc.fields`` are
    what the service translates."""

    def __init__(self, message: str, **fields: object) -> None:
        super().__init__(message.format(**fields) if fields else message)
        self.message = message
        self.fields = fields


def N_(message: str) -> str:
    """Marks a sentence the screens show, for the translations; the rules
    keep it in English."""
    return message


# --- events the service produces --------------------------------------------

@dataclass(frozen=True)
class Picked:
    """Answer to ``Pick``: ``value`` is one of the request's ``options``."""
    purpose: str
    value: Any


@dataclass(frozen=True)
class Shuffled:
    """Answer to ``Shuffle``: ``order`` is the request's items, shuffled."""
    purpose: str
    order: tuple[Any, ...]   # the items the game asked to shuffle, of its own kinds


@dataclass(frozen=True)
class Rolled:
    """Answer to ``Roll``: the faces, in die order.  ``source`` is
    ``"module"`` for the dice module and ``"software"`` for the fallback."""
    purpose: str
    values: tuple[int, ...]
    source: str = "module"


@dataclass(frozen=True)
class TimerExpired:
    name: str


SERVICE_EVENTS = (Picked, Shuffled, Rolled, TimerExpired)

# Events the box makes on its own.  Undo takes back the last event that is
# *not* one of these, together with the automatic ones that followed it.
# ``Rolled`` is not automatic: a player pressed ROLL for it.
AUTOMATIC = (Picked, Shuffled, TimerExpired)


# --- requests a game makes of the service ------------------------------------

@dataclass(frozen=True)
class Pick:
    """Choose one of ``options`` uniformly at random."""
    purpose: str
    options: tuple[Any, ...]   # of the game's own kinds, as Picked.value


@dataclass(frozen=True)
class Shuffle:
    purpose: str
    items: tuple[Any, ...]


@dataclass(frozen=True)
class Roll:
    """Roll ``count`` dice of ``sides``.  Waits for a player to roll (the
    module's button or ``#``); ``prompt`` says what the roll is for."""
    purpose: str
    count: int
    sides: int
    prompt: str = ""


# What ``requests`` may ask of the service.
Request = Pick | Shuffle | Roll


# --- time ---------------------------------------------------------------------

@dataclass(frozen=True)
class Countdown:
    """A countdown as data.  While running, ``started_at`` is the game-clock
    second it was (re)started and ``left`` the seconds left at that moment;
    paused, ``started_at`` is None and ``left`` is what remains."""
    name: str
    seconds: float
    left: float
    started_at: float | None = None

    @classmethod
    def start(cls, name: str, seconds: float, at: float) -> Countdown:
        return cls(name, seconds, seconds, at)

    @property
    def running(self) -> bool:
        return self.started_at is not None

    def remaining(self, now: float) -> float:
        if self.started_at is None:
            return self.left
        return max(0.0, self.left - (now - self.started_at))

    def deadline(self) -> float | None:
        return None if self.started_at is None else self.started_at + self.left

    def pause(self, at: float) -> Countdown:
        return dataclasses.replace(self, left=self.remaining(at), started_at=None)

    def resume(self, at: float) -> Countdown:
        return dataclasses.replace(self, started_at=at)


# Game-clock sums leave float noise: 1.0000000002 s left reads as 0:01.
SLACK = 1e-6


def clock_text(seconds: float) -> str:
    """A countdown as players read it, on the panels and the table view:
    whole seconds, rounded up, M:SS."""
    whole = max(0, math.ceil(seconds - SLACK))
    return f"{whole // 60}:{whole % 60:02d}"


# --- shared rule pieces ---------------------------------------------------------

def next_seat(seat: int, count: int, skip: typing.Container[int] = (), step: int = 1) -> int:
    """The next seat clockwise (``step=-1``: anticlockwise), passing over the
    seats in ``skip``.  Seats are 0-based."""
    for _ in range(count):
        seat = (seat + step) % count
        if seat not in skip:
            return seat
    raise Illegal("Nobody is left to play.")


def winners(totals: Mapping[str, float]) -> list[str]:
    """Names with the highest total; equal totals share the win."""
    if not totals:
        return []
    best = max(totals.values())
    return [name for name, points in totals.items() if points == best]


def is_whole(value: object) -> TypeGuard[int]:
    """An int from the options or an event, and not a bool (True is 1)."""
    return isinstance(value, int) and not isinstance(value, bool)


def bump(counts: tuple[int, ...], seat: int, delta: int) -> tuple[int, ...]:
    """A per-seat tally with one seat's count changed."""
    return counts[:seat] + (counts[seat] + delta,) + counts[seat + 1:]


NAME_LENGTH = 12   # what fits beside a score on a 21-column panel line


def player_names(options: dict[str, Any], low: int, high: int, default: str = "Player {n}") -> tuple[str, ...]:
    """Seat names from ``options["players"]``: a count or a list of names.

    A name is cleaned the way a table means it (Unicode composed, spaces
    trimmed and single), an empty one is the seat's default, and two names
    that differ only in case are the same player."""
    given = options.get("players", low)
    if is_whole(given):
        names = tuple(default.format(n=n) for n in range(1, given + 1))
    elif not isinstance(given, (list, tuple)):
        raise Illegal("Say how many players, or list their names.")
    else:
        names = tuple(clean_name(n) or default.format(n=i) for i, n in enumerate(given, 1))
    if not low <= len(names) <= high:
        raise Illegal("Players in this game: {low} to {high}.", low=low, high=high)
    if len({n.casefold() for n in names}) != len(names):
        raise Illegal("Two players have the same name.")
    return names


def clean_name(name: object) -> str:
    """A typed name as the score log keeps it, or ``Illegal`` saying why not:
    composed (NFC), whitespace trimmed and single, at most ``NAME_LENGTH``
    characters, no control or invisible characters."""
    if not isinstance(name, str):
        raise Illegal("A name is text.")
    name = " ".join(unicodedata.normalize("NFC", name).split())
    if len(name) > NAME_LENGTH:
        raise Illegal("A name is too long (limit: {n}).", n=NAME_LENGTH)
    # Combining marks left after composing, controls, format characters
    # (zero-width, bidi overrides) and unassigned code points would draw as
    # nothing or reorder the line on the panels and the pages.
    odd = next((c for c in name if unicodedata.category(c)[0] in "MC"), None)
    if odd is not None:
        raise Illegal("A name cannot hold the character U+{code}.", code=f"{ord(odd):04X}")
    return name


# --- events as data (the store keeps them as JSON) --------------------------------

def walk(value: object, write: Callable[[Any, Any], Any]) -> Any:
    """``value``, a tree of dataclasses, tuples, lists, sets and dicts, as
    ``write`` makes each of its nodes into data, from the leaves up.
    ``write(node, parts)`` is given the data already made of the node's
    parts: a dataclass's as a dict by field name; a tuple's, list's or
    set's as a list in their order; a dict's as a list of [key, value]
    pairs in its order; anything else has none (None)."""
    parts: dict[str, Any] | list[Any] | None
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        parts = {f.name: walk(getattr(value, f.name), write) for f in dataclasses.fields(value)}
    elif isinstance(value, dict):
        parts = [[walk(k, write), walk(v, write)] for k, v in value.items()]
    elif isinstance(value, (tuple, list, set, frozenset)):
        parts = [walk(v, write) for v in value]
    else:
        parts = None
    return write(value, parts)


def as_data(value: object) -> Any:
    """A value of the games as JSON data: dataclasses as objects of their
    fields, tuples and lists as lists, sets as lists in a fixed order, dict
    keys as strings, anything JSON has no kind for as its ``repr``.  Two
    states (one replayed elsewhere from the same events) give the same data
    exactly when they are equal."""
    return walk(value, _plain)


def _plain(value: object, parts: dict[str, Any] | list[Any] | None) -> Any:
    if parts is None:
        return value if value is None or isinstance(value, (bool, int, float, str)) else repr(value)
    if isinstance(value, (set, frozenset)):
        return sorted(parts, key=repr)
    if isinstance(value, dict):
        return {str(key): part[1] for key, part in zip(value, parts)}
    return parts


def encode(event: object) -> dict[str, Any]:
    """An event as a JSON-ready dict: its class name under "type"."""
    return {"type": type(event).__name__, **as_data(event)}


def decode(data: dict[str, Any], classes: Iterable[type]) -> Any:
    """The event ``encode`` gave ``data`` for; lists come back as tuples,
    since events only ever hold tuples."""
    by_name = {c.__name__: c for c in (*classes, *SERVICE_EVENTS)}
    data = dict(data)
    try:
        cls = by_name[data.pop("type")]
    except KeyError as exc:
        raise ValueError(f"unknown event type {exc}") from None
    return cls(**{k: _frozen(v) for k, v in data.items()})


def _frozen(value: object) -> object:
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    if isinstance(value, dict):
        return {k: _frozen(v) for k, v in value.items()}
    return value


def is_automatic(event: object) -> bool:
    return isinstance(event, AUTOMATIC)
