"""Issue 15 item 5: a start replays only the rows after the newest snapshot
that holds, and gives the very game a replay from the first row gives.

The states of every game survive ``referee.store.snapshot`` at every move of the
random play in test_rules_fuzz.py; here the snapshots are used, at the
virtual table, with one taken every few rows (``SNAPSHOT_EVERY`` made small)
so that a short game crosses many of them: restarts, undo across a
snapshot, damaged and foreign snapshots, damaged rows after one.
"""
from __future__ import annotations

import logging
import random
import sqlite3

import pytest

from games import base
from referee.box.session import Session
from referee.store import replay as replay_module
from referee.store import snapshot
from referee.store.replay import effective
from referee.testing import Table
from test_power_cut_pages import unclocked
from players import Hand

EVERY = 4


@pytest.fixture
def table(monkeypatch):
    monkeypatch.setattr(replay_module, "SNAPSHOT_EVERY", EVERY)
    monkeypatch.setattr(replay_module, "_said", set())
    with Table(seed=7, lang="en", config={"dice": {"driver": "software"}}) as t:
        yield t


def whole(t: Table):
    """The game on the box, replayed from its first row without snapshots."""
    s = t.box.session
    state = s.rules.setup(dict(s.options))
    for data, at in effective(t.box.store.events(s.id)):
        state = s.rules.apply(state, base.decode(data, s.rules.EVENTS), at)
    return state


def shown(t: Table) -> dict[str, str]:
    """Every screen, without the passing message over the main one."""
    # A message takes the row of the line of what was last done: both left out.
    return {name: "\n".join(line for line in t.page(name).splitlines() if not line.startswith("»"))
            for name in ("main", "team1", "team2")}


def sql(t: Table, statement: str, *args) -> list[tuple]:
    db = sqlite3.connect(t.database)
    try:
        with db:
            return db.execute(statement, args).fetchall()
    finally:
        db.close()


def rows(t: Table) -> int:
    return sql(t, "SELECT COUNT(*) FROM events WHERE game = ?", t.box.session.id)[0][0]


def undo(t: Table) -> None:
    t.hold("*", 1.0)
    t.press("#")


def dice_page(t: Table, rolls: int) -> None:
    t.press("6")
    t.press("D")
    for _ in range(rolls):
        t.press("#")


def test_item5_a_restart_replays_only_the_rows_after_a_snapshot_and_shows_the_same(table):
    dice_page(table, 30)
    table.press("B")                       # d10: a row of another kind
    for _ in range(7):
        table.press("#")
    before, state = shown(table), table.box.session.state
    table.restart()
    s = table.box.session
    assert s.state == state == whole(table)
    assert shown(table) == before
    assert s.replayed <= 2 * EVERY < rows(table)
    assert len(sql(table, "SELECT seq FROM snapshots WHERE game = ?", s.id)) == rows(table) // EVERY
    # Without its snapshots the box comes back on the same screens too.
    sql(table, "DELETE FROM snapshots")
    table.restart()
    assert table.box.session.state == state and shown(table) == before
    assert table.box.session.replayed == rows(table)


def test_item5_undo_across_a_snapshot_takes_back_exactly_what_it_did_before(table):
    dice_page(table, 2 * EVERY)            # rows 1..8 are the rolls; snapshots after 4 and 8
    rolls = table.box.session.state.rolls
    for n in range(1, EVERY + 3):          # back over the snapshot after row 8 and that after row 4
        undo(table)
        assert table.box.session.state.rolls == rolls[n:], n
        assert table.box.session.state == whole(table)
        table.restart()
        assert table.box.session.state.rolls == rolls[n:], n
    table.press("#")                       # and on from there, over new snapshots
    table.press("#")
    undo(table)
    state = table.box.session.state
    assert state == whole(table) and len(state.rolls) == 2 * EVERY - (EVERY + 2) + 1
    table.restart()
    assert table.box.session.state == state
    table.hold("*", 1.0)
    assert "roll" in table.screen()        # the undo question names the roll it takes back


@pytest.mark.parametrize("game", ["davinci", "decipher", "osmisifry"])
def test_item5_random_play_with_undo_and_power_cuts_stays_the_game_replayed_whole(table, game):
    hand = Hand(random.Random(1515))       # mostly the keys a screen offers
    table.start(game, players=3)
    from_snapshots = 0
    for n in range(200):
        if hand.rng.random() < 0.08:
            undo(table)
        else:
            table.press(hand.offered(table.screen()) if hand.rng.random() < 0.9 else hand.rng.choice(hand.PAD))
        if table.box.helper.up:
            table.press("*")               # the help in play changes nothing of the game: put away
        if table.box.session is None:      # the hand left the game (ended it): a new one
            table.start(game, players=3)
        assert table.box.session.state == whole(table), n
        if n % 20 == 19:
            if table.screen().startswith(("[End this game?", "[Undo?", "[Game menu")):
                table.press("*")           # the game menu over the game is not for power cuts (item 6)
            before, state = unclocked(table, shown(table)), table.box.session.state
            table.restart()
            assert table.box.session.state == state, n
            assert unclocked(table, shown(table)) == before, n
            from_snapshots += table.box.session.replayed < rows(table)
    assert from_snapshots >= 3


def test_item5_a_snapshot_that_cannot_be_read_is_passed_over_and_said_once(table, caplog):
    dice_page(table, 3 * EVERY + 1)
    state = table.box.session.state
    sql(table, "UPDATE snapshots SET state = '{\"@\": \"os.system\"}'")
    with caplog.at_level(logging.WARNING, "referee.box.session"):
        table.restart()
        table.restart()
    assert table.box.session.state == state
    said = [r.getMessage() for r in caplog.records if "cannot be read" in r.getMessage()]
    assert len(said) == len(set(said)) == replay_module.TRIES, said   # each tried said once


def test_item5_snapshots_of_other_rules_are_not_used(table, caplog, monkeypatch):
    dice_page(table, 3 * EVERY + 1)
    state = table.box.session.state
    monkeypatch.setattr(snapshot, "fingerprint", lambda: "other rules")
    with caplog.at_level(logging.WARNING, "referee.box.session"):
        table.restart()
        table.restart()
    assert table.box.session.state == state
    assert sum("other rules" in r.getMessage() for r in caplog.records) == 1


def test_item5_a_damaged_row_after_a_snapshot_is_still_set_aside(table):
    dice_page(table, 2 * EVERY + 2)        # snapshots after rows 4 and 8; rows 9 and 10 on top
    rolls = table.box.session.state.rolls
    game = table.box.session.id
    sql(table, "UPDATE events SET data = CAST(X'ff00' AS BLOB) WHERE game = ? AND seq = 9", game)
    table.restart()
    assert table.box.session.state.rolls == rolls[2:]
    assert "2 events could not be read" in table.screen()
    assert sql(table, "SELECT MAX(seq) FROM events WHERE game = ?", game) == [(8,)]
    table.press("#")                       # the game goes on, and its next snapshot is right
    table.restart()
    assert table.box.session.state == whole(table)


def test_item5_rows_set_aside_take_their_snapshots_with_them(table):
    dice_page(table, 2 * EVERY + 1)
    game = table.box.session.id
    table.box.store.set_aside(game, EVERY + 1)
    assert sql(table, "SELECT seq FROM snapshots WHERE game = ?", game) == [(EVERY,)]


def test_item5_a_game_from_before_snapshots_gets_one_at_its_first_start(table, monkeypatch):
    monkeypatch.setattr(replay_module, "SNAPSHOT_EVERY", 1000)
    dice_page(table, 30)
    state = table.box.session.state
    assert sql(table, "SELECT COUNT(*) FROM snapshots") == [(0,)]
    monkeypatch.setattr(replay_module, "SNAPSHOT_EVERY", EVERY)
    table.restart()                        # replays 30 rows and keeps a snapshot
    assert table.box.session.replayed == rows(table)
    table.restart()
    assert table.box.session.state == state and table.box.session.replayed <= 2
    undo(table)
    assert table.box.session.state == whole(table) and table.box.session.state.rolls[:9] == state.rolls[1:]


def test_item5_the_web_reads_the_game_from_its_snapshots(table):
    dice_page(table, 3 * EVERY)
    reader = Session(table.box.store, table.box.session.id, "tools", {})
    assert reader.state == table.box.session.state and reader.replayed <= 2 * EVERY
    status, _, text = table.get("/api/evening")
    assert status == 200
