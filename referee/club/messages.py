"""What travels over the broker: topics and payloads, checked on arrival.

Both ends use these types.  The league never trusts a payload: it must be
JSON of at most ``MAX_BYTES`` (and it never reads a packet of more than
``PACKET_BYTES`` whole: the broker drops it for the league), of a version it knows, and of this shape,
every value within its bounds; anything else is refused with one log line.

The bounds are those of what a box can send, so that nothing a login can
publish reaches the league's store or pages unchecked: counts and ids fit
SQLite's signed 64-bit integers; wall-clock times lie within ``PAST``
before now and ``FUTURE`` after (a box whose clock was never set says
1970), a row's game clock between 0 and as much; names are
the box's own, cleaned and refused as the box does (``referee.name_check``),
the players' and Decrypto's members' alike, and every other field that
names someone (winners, totals, the starter, the finishing order, the
rounds' scores, the members' teams) names one of the game's players; table names are one topic level
(``NAME``); totals are a map of the game's players to points within what
the game can score (``totals_range``).  A row's entry is taken as the typed
``Summary``, its defaults filled, and that is what the league keeps.
"""
from __future__ import annotations

import time
from typing import Annotated, Literal

import msgspec

from games.base import NAME_LENGTH, Illegal
from referee import catalogue, name_check

VERSION = 1
MAX_BYTES = 64 * 1024          # a Decrypto game with its clue tape is a few KB
# The largest packet the league takes from the broker (MQTT 5's Maximum
# Packet Size): a payload a little over MAX_BYTES still reaches it, to be
# refused and said; the broker drops a larger one rather than send it.
PACKET_BYTES = 2 * MAX_BYTES
NAME = r"\A[A-Za-z0-9_-]{1,32}\Z"  # a club or table name: one topic level, no wildcards ("$" would let "\n" end it)
PAST = 10 * 366 * 86400.0      # seconds: older than this is a clock that was never set
FUTURE = 86400.0               # a box's clock a little ahead of the league's is no fault
PLAYERS = 16                   # more seats than any game has
ROUNDS = 1000                  # more rounds (or turns) than any evening plays
# Points a player's total may reach in a game whose rules give no bound of
# their own (``totals_range``).
OTHER_POINTS = (-9999, 9999)

Count = Annotated[int, msgspec.Meta(ge=0, le=2**63 - 1)]      # what SQLite's INTEGER holds
Table = Annotated[str, msgspec.Meta(pattern=NAME)]
Player = Annotated[str, msgspec.Meta(min_length=1, max_length=4 * NAME_LENGTH)]
Points = Annotated[int, msgspec.Meta(ge=-(2**31), le=2**31)]


class Status(msgspec.Struct, forbid_unknown_fields=True):
    v: int
    kind: Literal["status"]
    table: Table
    online: bool
    at: float
    game: Count | None = None


class Entry(msgspec.Struct, forbid_unknown_fields=True):
    """A row of a table's score log, as the public page shows it."""
    v: int
    kind: Literal["game", "event"]
    id: Annotated[str, msgspec.Meta(max_length=128)]    # "<table>:<game>:<seq>"
    table: Table
    game: Count
    seq: Count
    at: float
    entry: dict


class Merge(msgspec.Struct, forbid_unknown_fields=True):
    """A box's merge (``referee.merging``): at ``table``, the player ``name``
    is counted as ``into`` since ``at``, until ``undone``.  Its id is the
    box's own, one retained message a merge: an undo is the same merge
    sent again with ``undone`` set."""
    v: int
    kind: Literal["merge"]
    table: Table
    id: Count
    name: Player
    into: Player
    at: float
    undone: float | None = None


class Round(msgspec.Struct):
    """A round (or turn) as the league keeps it: its points by player.  What
    else a game's rounds say stays in the box's own score log."""
    scores: Annotated[dict[Player, Points], msgspec.Meta(max_length=PLAYERS)] = {}


Names = Annotated[list[Player], msgspec.Meta(max_length=PLAYERS)]


class Summary(msgspec.Struct):
    """What the league keeps of a game's score-log entry: every field its
    pages show and its ratings read, each typed and bounded, a missing one
    given its default.  The league stores this, never the JSON as it came
    (a field a box leaves out would otherwise fail every page that reads
    it); the rest of an entry (clues, notes, the letter table...) stays on
    the box."""
    id: Count
    game: Annotated[str, msgspec.Meta(max_length=32)]
    started: float
    status: Literal["playing", "finished", "abandoned"]
    players: Names
    ended: float | None = None
    starter: Player | None = None
    winners: Names = []
    totals: Annotated[dict[Player, Points], msgspec.Meta(max_length=PLAYERS)] = {}
    rounds: Annotated[list[Round], msgspec.Meta(max_length=ROUNDS)] = []
    # Decrypto's players are its teams; these are the people in each, the names it rates.
    members: Annotated[dict[Player, Names], msgspec.Meta(max_length=PLAYERS)] = {}
    finishing_order: Names = []      # Octiles: who came home first, second...
    scored: bool = True              # False: a single Da Vinci game, its 1 and 0 a win, not points
    stopped: bool = False            # Octiles ended from the game menu before its end


class Kept(msgspec.Struct):
    """An ``Entry`` as the league takes it: its entry checked and typed."""
    kind: Literal["game", "event"]
    table: str
    game: int
    seq: int
    at: float
    entry: Summary


class Refused(ValueError):
    """A payload the league will not take; the message says why, in one
    line, and ``kind`` which sort of fault it is (for rate-limited logs)."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


_decoders = {kind: msgspec.json.Decoder(kind) for kind in (Status, Entry, Merge)}


def topic(club: str, table: str, *rest: str) -> str:
    return "/".join(("referee", club, table, *rest))


def encode(message: Status | Entry | Merge | Summary) -> bytes:
    return msgspec.json.encode(message)


def decode(topic_name: str, payload: bytes, now: float | None = None) -> Status | Kept | Merge:
    """The message on ``topic_name``, or ``Refused``: a status or a merge as
    it came, a row with its entry typed and checked (``Kept``)."""
    if len(payload) > MAX_BYTES:
        raise Refused("size", f"{len(payload)} bytes is over the limit of {MAX_BYTES}")
    try:
        head = msgspec.json.decode(payload)
    except msgspec.DecodeError as exc:
        raise Refused("json", f"not JSON: {exc}") from None
    except RecursionError:
        raise Refused("json", "not JSON the league reads: nested too deep") from None
    version = head.get("v") if isinstance(head, dict) else None
    if type(version) is not int or version != VERSION:
        raise Refused("version", f"version {short(version)} is not one this league knows ({VERSION})")
    parts = topic_name.split("/")
    kind = Status if topic_name.endswith("/status") else Merge if parts[3:4] == ["merge"] else Entry
    try:
        message = _decoders[kind].decode(payload)
    except msgspec.ValidationError as exc:
        raise Refused("shape", f"wrong shape: {exc}") from None
    if len(parts) < 4 or parts[2] != message.table:
        raise Refused("table", f"table {message.table!r} published under {short(topic_name)}")
    now = time.time() if now is None else now
    if isinstance(message, Status):
        _when("at", message.at, now)
        return message
    if isinstance(message, Merge):
        merge_checked(message, now)
        if parts[4:] != [str(message.id)]:
            raise Refused("table", f"merge {message.id} published under {short(topic_name)}")
        return message
    # A row's ``at`` is its game's own clock (``referee.store.events``): from 0
    # up, or from the wall clock's value in a database older than it.
    if not 0 <= message.at <= now + FUTURE:
        raise Refused("time", f"at {message.at!r} is no game clock's")
    if message.id != f"{message.table}:{message.game}:{message.seq}":
        raise Refused("table", f"id {short(message.id)} does not name its table, game and row")
    try:
        entry = msgspec.convert(message.entry, Summary)
    except msgspec.ValidationError as exc:
        raise Refused("shape", f"wrong entry: {exc}") from None
    check(entry, message.game, now)
    return Kept(message.kind, message.table, message.game, message.seq, message.at, entry)


def stored(text: str | bytes, game: int, now: float) -> Summary:
    """An entry the league stored, read as one arriving now is: a row that
    no longer passes (written by an older league, or damaged) is ``Refused``."""
    try:
        entry = _stored.decode(text)
    except msgspec.ValidationError as exc:
        raise Refused("shape", f"wrong entry: {exc}") from None
    except (msgspec.DecodeError, RecursionError, TypeError) as exc:
        raise Refused("json", f"not JSON: {exc}") from None
    check(entry, game, now)
    return entry


_stored = msgspec.json.Decoder(Summary)


def check(s: Summary, game: int, now: float) -> None:
    """``Refused`` unless the entry is one a box makes: its game, its times,
    and every name in it as the box keeps names, each where it belongs."""
    if s.id != game:
        raise Refused("shape", f"wrong entry: game {s.id} published as game {game}")
    if s.game not in catalogue.GAMES:
        raise Refused("shape", f"wrong entry: no game called {short(s.game)}")
    _when("started", s.started, now)
    if s.ended is not None:
        _when("ended", s.ended, now)
    for name in s.players:
        _named("player", name)
    if len(set(s.players)) != len(s.players):
        raise Refused("name", "a player is named twice")
    players = set(s.players)
    if not set(s.winners) <= players:
        raise Refused("shape", "wrong entry: a winner who is not a player")
    if s.totals and set(s.totals) != players:
        raise Refused("shape", "wrong entry: totals are not the players'")
    if s.starter is not None and s.starter not in players:
        raise Refused("shape", "wrong entry: a starter who is not a player")
    if not set(s.finishing_order) <= players or len(set(s.finishing_order)) != len(s.finishing_order):
        raise Refused("shape", "wrong entry: a finishing order not of the players, once each")
    if any(not set(r.scores) <= players for r in s.rounds):
        raise Refused("shape", "wrong entry: a round scores someone who is not a player")
    if not set(s.members) <= players:
        raise Refused("shape", "wrong entry: members of a team that is not a player")
    members = [name for team in s.members.values() for name in team]
    for name in members:
        _named("member", name)
    if len({name.casefold() for name in members}) != len(members):    # as games.decrypto refuses them
        raise Refused("name", "a member is named twice")
    lowest, highest = totals_range(s.game)
    odd = next((p for p in s.totals.values() if not lowest <= p <= highest), None)
    if odd is not None:
        raise Refused("points", f"a total of {odd} is outside {s.game}'s {lowest}…{highest}")


def totals_range(game: str) -> tuple[int, int]:
    """The totals a player may reach in ``game``: its rules' ``TOTALS``
    where they bound them exactly (a game whose totals the league adds up
    across tables), else ``OTHER_POINTS``."""
    known = catalogue.GAMES.get(game)
    rules = catalogue.load(known.rules) if known is not None else None
    return getattr(rules, "TOTALS", OTHER_POINTS)


def merge_checked(merge: Merge, now: float) -> None:
    """``Refused`` unless ``merge`` is one a box makes: two names it keeps,
    not one name twice, its times within the league's."""
    _named("merged name", merge.name)
    _named("merged into", merge.into)
    if merge.name.casefold() == merge.into.casefold():      # one player, as the box keys them
        raise Refused("shape", "wrong merge: a name merged into itself")
    _when("at", merge.at, now)
    if merge.undone is not None:
        _when("undone", merge.undone, now)


def _named(what: str, name: str) -> None:
    """``Refused`` unless ``name`` is a name as a box keeps it (``referee.name_check``)."""
    try:
        kept = name_check.check(name)
    except Illegal as exc:
        raise Refused("name", f"{what} {short(name)}: {short(str(exc), 120)}") from None
    if kept != name:
        raise Refused("name", f"{what} {short(name)} is not as a box keeps it ({kept!r})")


def _when(field: str, at: float, now: float) -> None:
    if not now - PAST <= at <= now + FUTURE:      # NaN fails too
        raise Refused("time", f"{field} {at!r} is not within {PAST / 86400:.0f} days before now "
                              f"or {FUTURE / 3600:.0f} h after")


def short(value, most: int = 60) -> str:
    """A value for a log line: quoted, and cut so that a payload cannot fill the log."""
    text = repr(value)
    return text if len(text) <= most else text[:most] + "…"
