"""A game read from the store: its state after its stored rows, replayed
through its rules.  Both processes read games this way: the box the one on
the table (``referee.box.session`` adds the writing), the web every game of the
score log.

Each game has its own clock, the *game clock*: the ``at`` its rules see.  It
starts at 0, runs with the monotonic clock while the box runs the game, and
after a restart goes on from where it was last stored (``clock``), so that a
turn timer counts time the table had, and a wall-clock step or a power cut
takes none from it.  An undo sets the game clock back to the moment of the
action it takes back: the turn it lands on has the time it had then.

Every ``SNAPSHOT_EVERY`` rows the state goes to the store with the row that
made it (``referee.store.snapshot``), and a start replays only the rows after the
newest snapshot that still holds: so a start costs the same after two
hundred thousand rolls of the dice as after ten.  A snapshot holds when

- it was made by the same rules (an update replays the game whole once);
- no undo row after it takes back an event it covers (an undo reaches
  below it only by popping every event after it, which the replay sees);
- the rows after it hold a player action, so that undo, which takes back
  the last one, has it at hand;
- its state can be read.

Otherwise the next older one is tried, up to ``TRIES``, and then the rows
from the first: replay from the start is always right, only slower.  A
snapshot stands for the rows it covers: a row under it that is damaged
later costs nothing, and one after it is set aside as before.
"""
from __future__ import annotations

import array
import collections
import dataclasses
import importlib
import logging
from collections.abc import Iterable
from typing import Any, cast

from games import base
from referee import catalogue
from referee.store import snapshot
from referee.store.events import UNDO, Snapshot, Store

log = logging.getLogger(__name__)

# Rows between two snapshots.  A start replays at most about twice this
# (the rows after the newest snapshot, or after the one before it when
# those hold no player action to undo): some hundreds of rows, a few
# milliseconds.  A snapshot costs one encoding of the state (tens of
# microseconds) and 1 to 18 KB (Decrypto's word pool is the most) per
# SNAPSHOT_EVERY rows of some 100 bytes each, in the transaction of the row
# that made it; most games end before their first.
SNAPSHOT_EVERY = 200
TRIES = 3       # snapshots tried, newest first, before replaying from the first row
KEPT = 2 * SNAPSHOT_EVERY   # events kept in ``events`` in play

_said: set[tuple[int, str]] = set()   # (game, what) already in the journal, so a fallback is said once


def rules(name: str) -> base.Rules:
    """The rules module of game ``name`` (tests/test_catalogue.py holds
    each to the protocol)."""
    return cast(base.Rules, importlib.import_module(catalogue.get(name).rules))


def effective(rows: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    """The events that count once the undo rows have taken theirs back.
    ``rows`` are ``(data, at, ...)``: whatever follows ``data`` comes along."""
    return [row[1:] for row in _kept([(0, *row) for row in rows], False) or ()]


_AUTOMATIC = {cls.__name__ for cls in base.AUTOMATIC}


def _kept(rows: Iterable[tuple[Any, ...]], floor: bool) -> list[tuple[Any, ...]] | None:
    """``effective`` of ``(seq, data, at)`` rows replayed on top of a
    snapshot; ``floor``: the snapshot has events in effect.  None if an
    undo row reaches below the rows given (into what the snapshot covers)."""
    kept: list[tuple[Any, ...]] = []
    for row in rows:
        if row[1] == UNDO:
            while kept and kept[-1][1]["type"] in _AUTOMATIC:
                kept.pop()
            if kept:
                kept.pop()
            elif floor:
                return None
        else:
            kept.append(row)
    return kept


@dataclasses.dataclass
class _Plan:
    """What a replay's first pass learns from the rows' types alone."""
    kept: array.array[int]     # the seqs of the events in effect, in order
    acts: bool                 # whether one of them is a player action
    rows: int                  # rows read, up to the first unreadable one
    last: tuple[int, float] | None   # (seq, at) of the last of those rows
    unreadable: int | None     # the seq of the first row that is not an event

    @classmethod
    def of(cls, kinds: Iterable[tuple[int, object, float]], floor: bool) -> _Plan | None:
        """``kinds``: ``(seq, type, at)`` rows, ``type`` None where the row
        is not an event.  As ``_kept``, None if an undo row reaches below
        them into what a snapshot with events (``floor``) covers."""
        seqs, automatic = array.array("q"), bytearray()
        rows, unreadable = 0, None
        last: tuple[int, float] | None = None
        for seq, kind, at in kinds:
            if not isinstance(kind, str):
                unreadable = seq
                break
            rows, last = rows + 1, (seq, at)
            if kind == UNDO["type"]:
                while automatic and automatic[-1]:
                    seqs.pop()
                    automatic.pop()
                if seqs:
                    seqs.pop()
                    automatic.pop()
                elif floor:
                    return None
            else:
                seqs.append(seq)
                automatic.append(kind in _AUTOMATIC)
        return cls(seqs, 0 in automatic, rows, last, unreadable)


def _say_once(game: int, what: str, message: str, *args: object) -> None:
    if (game, what) not in _said:
        _said.add((game, what))
        log.warning(message, *args)


class Replay:
    def __init__(self, store: Store, game: int, name: str, options: dict[str, Any]) -> None:
        self.store = store
        self.id = game
        self.name = name
        self.options = options
        self.rules = rules(name)
        self.replay()

    def replay(self) -> None:
        """The state from the stored rows, from the newest snapshot that
        holds.  A row that cannot be read or that the rules refuse (a
        damaged card) ends the replay there: ``broken_at`` is its ``seq``
        and ``lost`` how many rows are left out; the game stands as it was
        just before it.

        ``state`` is the game now, ``seq`` its last row, ``clock`` the game
        clock there, ``depth`` how many events are in effect, ``events`` the
        last of them (all since the snapshot replayed from, at most
        ``KEPT`` in play) and ``replayed`` how many rows the replay read."""
        fingerprint = snapshot.fingerprint()
        tried = self.store.snapshots(self.id, fingerprint, TRIES)
        if not tried and self.store.has_snapshots(self.id):
            _say_once(self.id, "rules", "game %d: its snapshots were made by other rules; replaying it whole",
                      self.id)
        for snap in tried:
            if self._replay_from(snap):
                break
        else:
            self._replay_from(None)
        # Snapshots go on from the newest there is, whether it held or not.
        self._snapped = tried[0].seq if tried else 0

    def _replay_from(self, snap: Snapshot | None, end: int | None = None) -> bool:
        """Replays the rows after ``snap`` (None: from the setup) up to row
        ``end`` (None: all); False, and nothing changed, if the snapshot
        does not hold for them.

        Two passes over the rows, streamed, so that a game of any length
        costs the memory of a few rows: the first reads each row's type
        alone (SQLite's JSON functions, no event is decoded) to find which
        rows the undo rows take back; the second decodes and applies the
        rest."""
        after = snap.seq if snap else 0
        plan = _Plan.of(self.store.kinds(self.id, after, end), snap is not None and snap.depth > 0)
        if plan is None:
            return False
        broken_at = end if end is not None else plan.unreadable
        lost = self.store.count_rows(self.id, broken_at) if broken_at is not None else 0
        if snap is None:
            state, depth, clock = self.rules.setup(dict(self.options)), 0, 0.0
        else:
            if not plan.acts:
                return False
            try:
                text = self.store.snapshot_state(self.id, snap.seq)
                if text is None:
                    raise LookupError("its row is gone")
                state = snapshot.decode(text)
            except Exception as exc:   # noqa: BLE001  unreadable text, or a damaged card under it
                _say_once(self.id, f"snapshot {snap.seq}", "game %d: the snapshot after row %d cannot be read (%s); "
                          "replaying from an earlier one", self.id, snap.seq, exc)
                return False
            depth, clock = snap.depth, snap.at
        events: collections.deque[tuple[object, float]] = collections.deque(maxlen=KEPT)
        applied, last, before, catch_up = 0, None, None, None
        kept = iter(plan.kept)
        due = next(kept, None)
        for seq, data, at in self.store.stream(self.id, after, broken_at):
            if data is None:   # bytes SQLite's JSON reading let pass: the rows end here
                return self._replay_from(snap, seq)
            if seq == due:
                due = next(kept, None)
                try:
                    event = base.decode(data, self.rules.EVENTS)
                    after_it = self.rules.apply(state, event, at)
                except Exception:   # noqa: BLE001  whatever a damaged row makes the rules do
                    broken_at, lost = seq, self.store.count_rows(self.id, seq)
                    break
                if not base.is_automatic(event):
                    last = (event, at, state, seq, depth + applied)
                    catch_up = before
                state = after_it
                events.append((event, at))
                applied += 1
            before = (seq, at)
        if snap is not None and last is None:
            return False   # a damaged row hid the player action undo needs
        self.state = state
        self.events = list(events)
        self.depth = depth + applied
        self._last = last
        self.broken_at, self.lost = broken_at, lost
        self.replayed = plan.rows
        # Where the game clock stood at the last row (an undo row holds the
        # moment it set the clock back to).
        self.seq = plan.last[0] if plan.last else (snap.seq if snap else 0)
        self.clock = plan.last[1] if plan.last else clock
        self._catch_up = None
        if last is not None and catch_up is not None and plan.rows > 2 * SNAPSHOT_EVERY:
            # Rows enough to be worth a snapshot (from before snapshots, or
            # other rules): one just before the last player action holds.
            self._catch_up = (Snapshot(catch_up[0], last[4], catch_up[1], snapshot.fingerprint()), last[2])
        return True

    def can_undo(self) -> bool:
        return self._last is not None

    def last_action(self) -> tuple[object, object] | None:
        """The last event a player made, and the game's state just before it."""
        return None if self._last is None else (self._last[0], self._last[2])

    def taken_back(self) -> int | None:
        """The row an undo would take back: the last player action's."""
        return None if self._last is None else self._last[3]

