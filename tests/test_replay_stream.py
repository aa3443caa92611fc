"""Issue 27: a replay from the first row (the first start after an update of
the rules, or a database from before snapshots) streams the rows instead of
holding them: on a 512 MB Pi a game of 200 000 rolls held 255 MB.  The bench
(``bench/start_bench.py``) measures the real process; this checks the
memory that the replay itself takes, with Python's own accounting."""
from __future__ import annotations

import json
import random
import sqlite3
import tracemalloc

from games import base
from referee.box.session import Session
from referee.store.events import UNDO, Store

ROLLS = 20_000


def build(path: str, rolls: int) -> int:
    """The table tools with ``rolls`` rolls of the dice and no snapshot,
    written as the box writes them."""
    store = Store(path)
    game = store.new_game("tools", {}, 0.0)
    store.close()
    rng = random.Random(27)
    rows = [(game, seq, seq * 0.2, json.dumps(base.encode(base.Rolled("dice", (rng.randint(1, 8), rng.randint(1, 8)),
                                                                        "module"))))
            for seq in range(1, rolls + 1)]
    with sqlite3.connect(path) as db:
        db.executemany("INSERT INTO events (game, seq, at, data) VALUES (?, ?, ?, ?)", rows)
    db.close()
    return game


def test_a_replay_from_the_first_row_holds_a_few_rows_not_the_game(tmp_path):
    path = str(tmp_path / "referee.db")
    game = build(path, ROLLS)   # as after an update of the rules: no snapshot to start from
    store = Store(path)
    whole = [data for _seq, data, _at in store.rows(game)]
    tracemalloc.start()
    try:
        session = Session(store, game, "tools", {})
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert session.replayed == session.depth == ROLLS
    assert session.state.rolls == tuple(base.decode(data, session.rules.EVENTS) for data in whole[:-11:-1])
    # 20 000 decoded rows take some 20 MB; the replay keeps the last few hundred events.
    assert peak < 2_000_000, peak
    store.close()


def test_the_streamed_replay_takes_undone_rows_back_as_before(tmp_path):
    path = str(tmp_path / "referee.db")
    game = build(path, 600)
    store = Store(path)
    for _ in range(3):
        store.append(game, UNDO, 999.0)
    session = Session(store, game, "tools", {})
    assert session.depth == 597 and session.replayed == 603
    assert len(session.events) <= 2 * 200 and session.can_undo()
    store.close()
