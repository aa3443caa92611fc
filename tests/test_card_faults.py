"""Issue 15 item 3 at the virtual table: a card that refuses writes.

Nothing is acknowledged that is not on disk: a key whose event the card
will not take is refused on the main screen with the error sound, the view
stays where it was, the stored events are what they were, the journal says
so once (then at most once a minute, with a count), and the next key after
the fault clears is saved, without a restart.  The faults are SQLite's own
(``Table.card_fault``): SQLITE_FULL from a database that may not grow,
SQLITE_READONLY.  tests/test_card_process.py does the same to a real
``referee run`` on a full file system and a read-only mount.
"""
from __future__ import annotations

import logging
import sqlite3

import pytest

from referee.box.card import LOG_EVERY
from referee.store.events import Store, Unsaved
from referee.testing import Table

FULL = "Cannot save: card full"
READ_ONLY = "Cannot save: card is read-only"


def stored(t) -> list[tuple]:
    """The events on disk, read from outside as the web would."""
    con = sqlite3.connect(f"file:{t.database}?mode=ro", uri=True)
    try:
        return con.execute("SELECT game, seq, data FROM events ORDER BY game, seq").fetchall()
    finally:
        con.close()


def journal(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "referee.store"]


def dice(t) -> str:
    """The dice shown, without a passing message."""
    return [line for line in t.screen().splitlines() if not line.startswith("! ")][1]


@pytest.fixture
def rolling():
    """The table tools' dice, each # a roll stored as an event."""
    with Table(seed=3) as t:
        t.start("tools")
        t.press("D")
        yield t


def roll_until_full(t) -> int:
    """Rolls until the card refuses one; how many went in first."""
    for n in range(400):
        t.press("#")
        if FULL in t.screen():
            return n
    raise AssertionError("a database that may not grow took 400 rolls")


def test_a_full_card_refuses_the_roll_on_screen_and_changes_nothing(rolling, caplog):
    t = rolling
    caplog.set_level(logging.WARNING, "referee.store")
    t.card_fault("full")
    took = roll_until_full(t)
    assert t.sounds[-1] == "error"
    assert took > 0   # what fitted in the pages went in
    on_disk, shown, events = stored(t), dice(t), len(t.box.session.events)
    # Refused again and again: the same dice, the same rows, the error sound every time.
    for _ in range(20):
        sounds = len(t.sounds)
        t.press("#")
        assert FULL in t.screen() and dice(t) == shown
        assert t.sounds[sounds:] == ["error"]
    assert stored(t) == on_disk and len(t.box.session.events) == events
    # 21 refusals, one line in the journal.
    lines = journal(caplog)
    assert len(lines) == 1 and "cannot save" in lines[0] and "full" in lines[0], lines


def test_the_journal_says_a_lasting_fault_once_a_minute_with_a_count(rolling, caplog):
    t = rolling
    caplog.set_level(logging.WARNING, "referee.store")
    t.card_fault("full")
    roll_until_full(t)
    for _ in range(9):
        t.press("#")
    t.advance(LOG_EVERY)
    t.press("#")
    lines = journal(caplog)
    assert len(lines) == 2 and lines[1].endswith("(10 writes refused)"), lines


def test_scoring_resumes_by_itself_once_the_card_takes_writes(rolling, caplog):
    t = rolling
    caplog.set_level(logging.WARNING, "referee.store")
    t.card_fault("full")
    roll_until_full(t)
    for _ in range(4):
        t.press("#")
    before, events, sounds = stored(t), len(t.box.session.events), len(t.sounds)
    t.card_fault(None)
    t.press("#")
    # Taken: one more row on disk, and the line that said otherwise is gone at once.
    assert len(stored(t)) == len(before) + 1 and len(t.box.session.events) == events + 1
    assert FULL not in t.screen() and "error" not in t.sounds[sounds:]
    assert journal(caplog)[-1] == "database: saving again (4 more writes were refused)"
    # And what was acknowledged survives a power cut.
    acknowledged = stored(t)
    t.restart()
    assert stored(t) == acknowledged
    assert len(t.box.session.events) == events + 1


def test_a_read_only_card_refuses_the_key_and_the_page_stays():
    with Table(seed=4) as t:
        t.start("davinci", players=2)
        first = t.screen()
        assert first.startswith("[Take 4 tiles"), first
        on_disk = stored(t)
        t.card_fault("read-only")
        t.press("#")
        assert READ_ONLY in t.screen() and t.sounds[-1] == "error"
        # The message covers the rows it takes on the panel (two, the hint's
        # first); the rest of the page is as it was, title and keys included.
        page = first.splitlines()
        rest = t.screen().replace(f"! {READ_ONLY}\n", "").splitlines()
        assert rest == [line for line in page if line in rest] and len(rest) == len(page) - 2
        assert rest[0] == page[0] and rest[-2:] == page[-3:-2] + page[-1:] == ["1-2: who starts", page[-1]]
        assert stored(t) == on_disk
        t.card_fault(None)
        t.press("#")
        assert not t.screen().startswith("[Take 4 tiles") and READ_ONLY not in t.screen()
        assert len(stored(t)) > len(on_disk)


def test_a_game_the_card_cannot_start_is_not_started():
    with Table(seed=5) as t:
        t.card_fault("read-only")
        t.type("5#")   # Decipher, as set up
        assert READ_ONLY in t.screen() and t.sounds[-1] == "error"
        assert t.log() == [] and t.box.session is None
        t.card_fault(None)
        t.press("#")
        assert t.screen().startswith("[1/3 Maker:")        # the round's first page
        [game] = t.log()
        assert game["game"] == "decipher"


def test_the_webs_reading_store_says_it_is_read_only_and_refuses_a_write():
    """The web's view of the record (``Store.open_read_only``) is a store
    the card code can ask, like the box's own fallback, whether it writes."""
    with Table(seed=6) as t:
        t.start("tools")
        reading = Store.open_read_only(t.database)
        try:
            assert reading.read_only
            assert [row.name for row in reading.games()] == ["tools"]
            with pytest.raises(Unsaved) as refused:
                reading.set_setting("language", "cs")
            assert refused.value.reason == "read-only"
        finally:
            reading.close()
        assert not t.box.store.read_only
