"""One game being played: the game read from the store (``referee.store.replay``)
and the box's writes to it.

``apply`` runs the rules first (an illegal move changes nothing and stores
nothing), then commits the event, and only then takes the new state: what the
screens show has always reached the disk.  An undo sets the game clock back
to the moment of the action it takes back: the turn it lands on has the time
it had then.  Every ``replay.SNAPSHOT_EVERY`` rows the state goes to the
store with the row that made it (``referee.store.snapshot``).
"""
from __future__ import annotations

import dataclasses

from games import base
from referee.clock import Stamp
from referee.store import replay, snapshot
from referee.store.events import UNDO, Snapshot, Store
from referee.store.replay import Replay, rules


class Session(Replay):
    @classmethod
    def new(cls, store: Store, name: str, options: dict, wall: float, stamp: Stamp | None = None) -> Session:
        """``wall``: the label of its start (``stamp``: see ``Store.new_game``)."""
        module = rules(name)
        module.setup(dict(options))  # refuse bad options before anything is stored
        return cls(store, store.new_game(name, options, wall, stamp), name, options)

    def catch_up(self) -> bool:
        """The box's, after a start that replayed many rows: stores a
        snapshot, so that the next start does not (``Unsaved`` if the card
        refuses it).  True if there was one to store."""
        found, self._catch_up = self._catch_up, None
        if found is None:
            return False
        snap = dataclasses.replace(found[0], state=snapshot.encode(found[1]))
        self.store.add_snapshot(self.id, snap)
        self._snapped = max(self._snapped, snap.seq)
        return True

    def apply(self, event, at: float, stamp: Stamp | None = None, view: dict | None = None) -> None:
        """``at``: the game clock; ``stamp``: the wall-clock label;
        ``view``: the page an undo of it lands on (``Store.append``)."""
        state = self.rules.apply(self.state, event, at)
        snap = None
        if self.seq + 1 - self._snapped >= replay.SNAPSHOT_EVERY:
            snap = Snapshot(0, self.depth + 1, at, snapshot.fingerprint(), snapshot.encode(state))
        seq = self.store.append(self.id, base.encode(event), at, stamp, view, snap)
        if snap is not None:
            self._snapped = seq
        if not base.is_automatic(event):
            self._last = (event, at, self.state, seq, self.depth)
        self.state = state
        self.events.append((event, at))
        if len(self.events) > replay.KEPT:
            del self.events[:replay.SNAPSHOT_EVERY]
        self.depth += 1
        self.seq = seq
        self.clock = at

    def undo(self, stamp: Stamp | None = None, view: dict | None = None) -> None:
        """Take back the last player action; the game clock goes back to
        the moment it was taken, so that a running turn timer has what it had
        then ([DV-9] [DE-4] [OS-10] [ruling], see docs/rulings.md).
        ``view``: the page the undo lands on, kept with its row."""
        if self._last is None:
            raise base.Illegal("Nothing to undo.")
        self.store.append(self.id, UNDO, self._last[1], stamp, view)
        self.replay()
