"""A finished game step by step, as the table saw it: the record the replay
pages (``referee.web.replay``) and ``/api/g/N/steps.json`` are made of.

Step 0 is the setup; each further step is one player action that stands at
the end of the game, with the events the box added after it (a code drawn,
a timer run out) and the state they left.  An action the table keyed and
then took back (holding ``*``) is no step: it is kept beside the step it
followed, with whatever was keyed after it before the undo, so the record
stays honest and the steps are the game as it was played.

The states come from the stored rows replayed through the game's rules, as
``referee.store.replay`` does for the score log, from the first row (a
snapshot would hide the states between).  A record is built once per game
and kept (``Records``): a finished game's rows do not change, and a game
that goes on (an undo of its last action reopens it) has a new last row,
so a new key.

``steps.json`` is the record as data (``File``), documented in
``docs/steps-json.md``: the options, and each step's action and added
events as the store keeps them, so that anyone can play the game again
through its rules module and get every state the pages show.
"""
from __future__ import annotations

import collections
import dataclasses

import msgspec

from games import base
from referee import said
from referee.account import Account
from referee.i18n import speaking
from referee.store.events import UNDO, GameRow, Store
from referee.store.replay import rules as rules_of

FORMAT = 1
KEPT_RECORDS = 8     # games kept built; a record of 341 steps is some 400 KB of shared states


@dataclasses.dataclass
class Tried:
    """An action keyed and later taken back, with what followed it."""
    seq: int
    at: float
    event: object
    before: object                # the state it was keyed in (its words read it)
    added: list = dataclasses.field(default_factory=list)   # (event, at): what the box added after it
    tried: list[Tried] = dataclasses.field(default_factory=list)   # taken back in turn, after it


@dataclasses.dataclass
class Step:
    number: int                   # 0: the setup
    seq: int                      # its row in the store (0: none)
    at: float                     # the game clock when it was keyed
    event: object | None          # the player action (None: the setup)
    before: object | None         # the state it was keyed in
    state: object                 # the state after it and after what the box added
    added: list = dataclasses.field(default_factory=list)
    tried: list[Tried] = dataclasses.field(default_factory=list)   # keyed after it, then taken back


@dataclasses.dataclass
class Record:
    game: GameRow
    rules: base.Rules
    steps: list[Step]
    broken_at: int | None         # a row the rules could not take: the record ends before it
    memo: dict = dataclasses.field(default_factory=dict)   # what the pages work out once per record

    @property
    def name(self) -> str:
        return self.game.name

    def said(self, step: Step | Tried) -> str:
        """The step's action in the words of the box's ``»`` line."""
        if step.event is None:
            return ""
        return said.describe(self.name, step.event, step.before)


def build(store: Store, game: GameRow) -> Record:
    """The record of ``game`` from its stored rows: undo rows take back the
    last player action with what the box added after it, as
    ``referee.store.replay`` counts them."""
    rules = rules_of(game.name)
    setup = rules.setup(dict(game.options))
    steps = [Step(0, 0, 0.0, None, None, setup)]
    broken_at = None
    for seq, data, at in store.stream(game.id):
        if data is None:
            broken_at = seq
            break
        if data == UNDO:
            top = steps[-1]
            if top.number == 0:
                # An undo with no action to take back clears what the box
                # added since the setup, as the store's replay does.
                top.state, top.added = setup, []
                continue
            steps.pop()
            steps[-1].tried.append(Tried(top.seq, top.at, top.event, top.before, top.added, top.tried))
            continue
        try:
            event = base.decode(data, rules.EVENTS)
            top = steps[-1]
            after = rules.apply(top.state, event, at)
        except Exception:   # noqa: BLE001  a damaged row: the record stops there, as the score log does
            broken_at = seq
            break
        if base.is_automatic(event):
            top.state = after
            top.added.append((event, at))
        else:
            steps.append(Step(len(steps), seq, at, event, top.state, after))
    return Record(game, rules, steps, broken_at)


class RecentlyUsed:
    """The most recently used of some things, at most ``most`` of them:
    memory stays bounded whatever is asked for."""

    def __init__(self, most: int) -> None:
        self.most = most
        self._kept: collections.OrderedDict = collections.OrderedDict()

    def get(self, key):
        found = self._kept.get(key)
        if found is not None:
            self._kept.move_to_end(key)
        return found

    def put(self, key, value) -> None:
        self._kept[key] = value
        while len(self._kept) > self.most:
            self._kept.popitem(last=False)

    def __len__(self) -> int:
        return len(self._kept)


class Records(RecentlyUsed):
    """Records built once and kept, at most ``KEPT_RECORDS``."""

    def __init__(self, most: int = KEPT_RECORDS) -> None:
        super().__init__(most)

    @staticmethod
    def key(store: Store, game: GameRow) -> tuple:
        """What a record is built from: a game that goes on has a new last row."""
        return game.id, game.ended, store.last_seq(game.id)

    def record(self, store: Store, game: GameRow) -> Record:
        key = self.key(store, game)
        record = self.get(key)
        if record is None:
            record = build(store, game)
            self.put(key, record)
        return record


# --- steps.json ----------------------------------------------------------------------------

class Event(msgspec.Struct):
    """An event as the store keeps it, with the game clock it was applied at."""
    at: float
    event: dict


class TakenBack(msgspec.Struct):
    """An action keyed and then taken back by an undo: no step of the game."""
    said: str
    action: Event
    added: list[Event]
    taken_back: list[TakenBack]


class FileStep(msgspec.Struct):
    step: int
    said: str                      # the box's words for it, in English ("" for the setup)
    action: Event | None           # None: the setup
    added: list[Event]             # what the box added after it, in order
    taken_back: list[TakenBack]    # keyed after it, then taken back, in order
    account: Account | None = None  # what the public screen told the table after it (``referee.account``)


class File(msgspec.Struct):
    format: int
    id: int
    game: str
    options: dict
    status: str
    started: float
    ended: float | None
    complete: bool                 # False: a damaged row ends the record early
    steps: list[FileStep]


def _events(added) -> list[Event]:
    return [Event(at, base.encode(event)) for event, at in added]


@speaking("en")
def to_file(record: Record, status: str, account=None) -> File:
    """The record as ``steps.json`` has it; the words in English, as every
    file of the box.  ``account(record, number)`` gives each step's
    account (``referee.web.replay.account``)."""
    def taken(t: Tried) -> TakenBack:
        return TakenBack(record.said(t), Event(t.at, base.encode(t.event)), _events(t.added),
                         [taken(x) for x in t.tried])
    steps = [FileStep(s.number, record.said(s), None if s.event is None else Event(s.at, base.encode(s.event)),
                      _events(s.added), [taken(t) for t in s.tried],
                      account(record, s.number) if account is not None else None) for s in record.steps]
    g = record.game
    return File(FORMAT, g.id, g.name, g.options, status, g.started, g.ended, record.broken_at is None, steps)

