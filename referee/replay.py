"""A game read from the store: its state after its stored rows, replayed
through its rules.  Both processes read games this way: the box the one on
the table (``referee.session`` adds the writing), the web every game of the
score log.

Each game has its own clock, the *game clock*: the ``at`` its rules see.  It
starts at 0, runs with the monotonic clock while the box runs the game, and
after a restart goes on from where it was last stored (``clock``), so that a
turn timer counts time the table had, and a wall-clock step or a power cut
takes none from it.  An undo sets the game clock back to the moment of the
action it takes back: the turn it lands on has the time it had then.

Every ``SNAPSHOT_EVERY`` rows the state goes to the store with the row that
made it (``referee.snapshot``), and a start replays only the rows after the
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

import importlib
import logging

from games import base
from referee import catalogue, snapshot
from referee.store import UNDO, Snapshot, Store

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

_said: set = set()   # (game, what) already in the journal, so a fallback is said once


def rules(name: str):
    return importlib.import_module(catalogue.get(name).rules)


def effective(rows: list[tuple]) -> list[tuple]:
    """The events that count once the undo rows have taken theirs back.
    ``rows`` are ``(data, at, ...)``: whatever follows ``data`` comes along."""
    return [row[1:] for row in _kept([(0, *row) for row in rows], False)]


_AUTOMATIC = {cls.__name__ for cls in base.AUTOMATIC}


def _kept(rows, floor: bool):
    """``effective`` of ``(seq, data, at)`` rows replayed on top of a
    snapshot; ``floor``: the snapshot has events in effect.  None if an
    undo row reaches below the rows given (into what the snapshot covers)."""
    kept: list = []
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


def _say_once(game: int, what: str, message: str, *args) -> None:
    if (game, what) not in _said:
        _said.add((game, what))
        log.warning(message, *args)


class Replay:
    def __init__(self, store: Store, game: int, name: str, options: dict) -> None:
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
            if self._replay_from(snap, self.store.rows(self.id, after=snap.seq)):
                break
        else:
            self._replay_from(None, self.store.rows(self.id))
        # Snapshots go on from the newest there is, whether it held or not.
        self._snapped = tried[0].seq if tried else 0

    def _replay_from(self, snap: Snapshot | None, rows) -> bool:
        """Replays ``rows`` on ``snap`` (None: on the setup); False, and
        nothing changed, if the snapshot does not hold for them."""
        broken_at, lost = None, 0
        for n, (seq, data, _at) in enumerate(rows):
            if data is None:
                broken_at, lost = seq, len(rows) - n
                rows = rows[:n]
                break
        kept = _kept(rows, snap is not None and snap.depth > 0)
        if kept is None:
            return False
        if snap is None:
            state, depth, clock = self.rules.setup(dict(self.options)), 0, 0.0
        else:
            if not any(data["type"] not in _AUTOMATIC for _seq, data, _at in kept):
                return False
            try:
                state = snapshot.decode(self.store.snapshot_state(self.id, snap.seq))
            except Exception as exc:   # noqa: BLE001  unreadable text, or a damaged card under it
                _say_once(self.id, f"snapshot {snap.seq}", "game %d: the snapshot after row %d cannot be read (%s); "
                          "replaying from an earlier one", self.id, snap.seq, exc)
                return False
            depth, clock = snap.depth, snap.at
        events, last = [], None
        for seq, data, at in kept:
            try:
                event = base.decode(data, self.rules.EVENTS)
                after = self.rules.apply(state, event, at)
            except Exception:   # noqa: BLE001  whatever a damaged row makes the rules do
                broken_at = seq
                lost = self.store.count_rows(self.id, seq)
                break
            if not base.is_automatic(event):
                last = (event, at, state, seq, depth + len(events))
            state = after
            events.append((event, at))
        if snap is not None and last is None:
            return False   # a damaged row hid the player action undo needs
        self.state = state
        self.events = events
        self.depth = depth + len(events)
        self._last = last
        self.broken_at, self.lost = broken_at, lost
        self.replayed = len(rows)
        # Where the game clock stood at the last row (an undo row holds the
        # moment it set the clock back to).
        self.seq = rows[-1][0] if rows else (snap.seq if snap else 0)
        self.clock = rows[-1][2] if rows else clock
        self._catch_up = None
        if last is not None and len(rows) > 2 * SNAPSHOT_EVERY:
            # Rows enough to be worth a snapshot (from before snapshots, or
            # other rules): one just before the last player action holds.
            i = next(i for i in range(len(rows) - 1, -1, -1) if rows[i][0] == last[3])
            if i > 0:
                self._catch_up = (Snapshot(rows[i - 1][0], last[4], rows[i - 1][2], snapshot.fingerprint()),
                                  last[2])
        return True

    def can_undo(self) -> bool:
        return self._last is not None

    def last_action(self) -> tuple[object, object] | None:
        """The last event a player made, and the game's state just before it."""
        return None if self._last is None else (self._last[0], self._last[2])

    def taken_back(self) -> int | None:
        """The row an undo would take back: the last player action's."""
        return None if self._last is None else self._last[3]

