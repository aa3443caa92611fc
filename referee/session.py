"""One game being played: its rules module, its state, its events in the store.

``apply`` runs the rules first (an illegal move changes nothing and stores
nothing), then commits the event, and only then takes the new state: what the
screens show has always reached the disk.

Each game has its own clock, the *game clock*: the ``at`` its rules see.  It
starts at 0, runs with the monotonic clock while the box runs the game, and
after a restart goes on from where it was last stored (``clock``), so that a
turn timer counts time the table had, and a wall-clock step or a power cut
takes none from it.  An undo sets the game clock back to the moment of the
action it takes back: the turn it lands on has the time it had then.
"""
from __future__ import annotations

import importlib

from games import base
from referee.store import UNDO, Store

GAMES = ("tools", "decrypto", "osmisifry", "octiles", "davinci", "decipher")


def rules(name: str):
    if name not in GAMES:
        raise ValueError(f"no game called {name!r}")
    return importlib.import_module(f"games.{name}")


def effective(rows: list[tuple]) -> list[tuple]:
    """The events that count once the undo rows have taken theirs back.
    ``rows`` are ``(data, at, ...)``: whatever follows ``data`` comes along."""
    kept: list[tuple] = []
    for row in rows:
        if row[0] == UNDO:
            while kept and kept[-1][0]["type"] in _AUTOMATIC:
                kept.pop()
            if kept:
                kept.pop()
        else:
            kept.append(row)
    return kept


_AUTOMATIC = {cls.__name__ for cls in base.AUTOMATIC}


class Session:
    def __init__(self, store: Store, game: int, name: str, options: dict) -> None:
        self.store = store
        self.id = game
        self.name = name
        self.options = options
        self.rules = rules(name)
        self.replay()

    @classmethod
    def new(cls, store: Store, name: str, options: dict, wall: float, stamp=None) -> Session:
        """``wall``: the label of its start (``stamp``: see ``Store.new_game``)."""
        module = rules(name)
        module.setup(dict(options))  # refuse bad options before anything is stored
        return cls(store, store.new_game(name, options, wall, stamp), name, options)

    def replay(self) -> None:
        """The state from the stored rows.  A row that cannot be read or
        that the rules refuse (a damaged card) ends the replay there:
        ``broken_at`` is its ``seq`` and ``lost`` how many rows are left out;
        the game stands as it was just before it."""
        state = self.rules.setup(dict(self.options))
        self.events = []
        rows = self.store.rows(self.id)
        self.broken_at, self.lost = None, 0
        for n, (seq, data, _at) in enumerate(rows):
            if data is None:
                self.broken_at, self.lost = seq, len(rows) - n
                rows = rows[:n]
                break
        self.seqs = []   # each event's row, beside ``events``
        for data, at, seq in effective([(data, at, seq) for seq, data, at in rows]):
            try:
                event = base.decode(data, self.rules.EVENTS)
                after = self.rules.apply(state, event, at)
            except Exception:   # noqa: BLE001  whatever a damaged row makes the rules do
                self.broken_at = seq
                self.lost = sum(1 for row, _d, _a in self.store.rows(self.id) if row >= self.broken_at)
                break
            state = after
            self.events.append((event, at))
            self.seqs.append(seq)
        self.state = state
        # Where the game clock stood at the last row (an undo row holds the
        # moment it set the clock back to).
        self.clock = rows[-1][2] if rows else 0.0

    def apply(self, event, at: float, stamp=None, view: dict | None = None) -> None:
        """``at``: the game clock; ``stamp``: the wall-clock label;
        ``view``: the page an undo of it lands on (``Store.append``)."""
        state = self.rules.apply(self.state, event, at)
        seq = self.store.append(self.id, base.encode(event), at, stamp, view)
        self.state = state
        self.events.append((event, at))
        self.seqs.append(seq)
        self.clock = at

    def can_undo(self) -> bool:
        return any(not base.is_automatic(e) for e, _ in self.events)

    def taken_back(self) -> int | None:
        """The row an undo would take back: the last player action's."""
        return next((seq for (e, _at), seq in zip(reversed(self.events), reversed(self.seqs))
                     if not base.is_automatic(e)), None)

    def undo(self, stamp=None, view: dict | None = None) -> None:
        """Take back the last player action; the game clock goes back to
        the moment it was taken, so that a running turn timer has what it had
        then ([DV-9] [DE-4] [OS-10] [ruling], see docs/rulings.md).
        ``view``: the page the undo lands on, kept with its row."""
        taken = next((at for e, at in reversed(self.events) if not base.is_automatic(e)), None)
        if taken is None:
            raise base.Illegal("Nothing to undo.")
        self.store.append(self.id, UNDO, taken, stamp, view)
        self.replay()
