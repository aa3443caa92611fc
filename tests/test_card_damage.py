"""Issue 27, the card: damage that the checks of the file's structure do not
see, or that Python's sqlite3 reports without an SQLite error code.

- A byte flipped in the ``events`` table's CREATE text: Python refuses the
  column type it reads back as not UTF-8 ("Could not decode to UTF-8"),
  with no SQLite code, and the box used to open the card read-only for
  good.  It is damage: set aside and salvaged like any other.
- A byte flipped inside one row of a finished game (its row in ``games``,
  or one of its events): the file is sound, so it opens as it is, and the
  game, or the rest of its moves, was missing from every page without a
  word.  The main screen now says what could not be read.
- The web keeps reading the database file it opened: after the box set a
  damaged file aside and made a new one, the pages showed the old file for
  good.  They follow the new one.
"""
from __future__ import annotations

import re
import sqlite3
from pathlib import Path

from processes import until
from referee.testing import Table
from test_web_split import Table as Processes


def _flip(path: str, at: int, byte: int | None = None) -> None:
    with open(path, "r+b") as f:
        f.seek(at)
        old = f.read(1)[0]
        f.seek(at)
        f.write(bytes((old ^ 0x5A if byte is None else byte,)))


def _flipped(data: bytes, at: int, byte: int | None = None) -> bytes:
    return data[:at] + bytes((data[at] ^ 0x5A if byte is None else byte,)) + data[at + 1:]


def _checkpointed(path: str) -> bytes:
    """The file with every committed row in it (the log folded in)."""
    db = sqlite3.connect(path)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    return Path(path).read_bytes()


def _where(data: bytes, needle: bytes) -> int:
    assert data.count(needle) == 1, needle
    return data.index(needle)


def _break_the_events_schema(path: str) -> None:
    data = _checkpointed(path)
    at = data.index(b"INTEGER", _where(data, b"CREATE TABLE events"))
    _flip(path, at + 2, 0xFF)   # 'IN\xffEGER': read back, it is not UTF-8


def _decipher(t: Table) -> None:
    t.start("decipher", players=2)
    for round_ in range(4):
        t.type("#D3#")
        if round_ < 3:
            t.press("#")
    t.press("#")            # "#:Menu" on the result


def _davinci(t: Table) -> None:
    t.start("davinci", players=2)
    t.press("#")
    for _ in range(4):
        t.type("2A")


def flat(text: str) -> str:
    return " ".join(text.split())


def test_a_byte_flipped_in_the_events_schema_is_repaired_not_read_only_for_good():
    with Table(seed=5) as t:
        _decipher(t)
        t.restart(meanwhile=_break_the_events_schema)
        assert t.box.card.fault is None                      # it takes writes ...
        assert "Database repaired: nothing lost" in flat(t.screen())
        assert [g.name for g in t.box.store.games()] == ["decipher"]
        t.start("tools")
        t.type("D#")                                         # ... and a roll of the dice is saved
        assert t.box.store.events(t.box.session.id)
        assert list(Path(t.database).parent.glob("referee.db.damaged-*"))


def test_a_row_damaged_in_a_finished_game_is_said_on_the_main_screen():
    # The rows' bytes as a flipped bit leaves them, written in place by SQLite
    # itself so that the file's structure stays sound, as it does on a card.
    def damage(path: str) -> None:
        with sqlite3.connect(path) as db:
            name, = db.execute("SELECT CAST(name AS BLOB) FROM games WHERE id = 1").fetchone()
            db.execute("UPDATE games SET name = CAST(? AS TEXT) WHERE id = 1", (_flipped(name, 0),))
            data, = db.execute("SELECT CAST(data AS BLOB) FROM events WHERE game = 2 AND seq = 3").fetchone()
            db.execute("UPDATE events SET data = CAST(? AS TEXT) WHERE game = 2 AND seq = 3",
                       (_flipped(data, len(data) // 2, 0xFF),))   # no longer UTF-8
        db.close()

    with Table(seed=5) as t:
        _decipher(t)
        _davinci(t)
        t.hold("*", 1.0)
        t.type("D#")                                                  # ended from the game menu
        moves = len(t.box.store.events(2))
        t.start("tools")                                              # the game on the box, untouched
        t.restart(meanwhile=damage)
        said = flat(t.screen())
        assert "1 game could not be read" in said, said
        assert re.search(rf"Da Vinci Code \d\d:\d\d: {moves - 2} events could not be read", said), said
        assert t.box.card.fault is None and t.box.session.name == "tools"
        # Cut short beside the timer's big line, it is a page of its own,
        # drawn whole; the key that takes it down starts no countdown.
        assert "…" not in said and "#:OK" in said, said
        t.press("#")
        after = flat(t.screen())
        assert "could not be read" not in after and "[Timer" in after and "#:Go" in after, after
        t.advance(5.0)
        assert flat(t.screen()) == after   # nothing counts down


def test_the_damage_is_said_in_czech_with_its_plural():
    def damage(path: str) -> None:
        with sqlite3.connect(path) as db:
            db.execute("UPDATE games SET name = 'decipjer' WHERE id = 1")
        db.close()

    with Table(seed=5, lang="cs") as t:
        _decipher(t)
        t.restart(meanwhile=damage)
        assert "1 hra se nedala přečíst" in flat(t.screen())


def test_after_the_box_repairs_the_card_the_web_reads_the_new_file(tmp_path):
    p = Processes(tmp_path)
    try:
        # Da Vinci Code as set up; P1 attacks P2, hits, and stops: P2's turn.
        assert p.press("4", "#", "#", "2", "A", "#") == ["ok"] * 6
        until(lambda: to_play(p) == "Player 2", what="the web seeing P2's turn")
        p.box.terminate()
        p.box.wait(10)
        _break_the_events_schema(p.db)                                 # while the power is off
        p.box = p._spawn("run", "box.log")                           # the box sets the file aside, makes a new one
        until(p._connect, what="the box's start after the damage")
        assert "Database repaired" in p.screen()
        assert list(tmp_path.glob("referee.db.damaged-*"))
        assert p.press("1", "B") == ["ok"] * 2                         # P2 attacks P1 and misses: in the new file
        # The web, running all along, follows the new file within 2 s, not
        # the set-aside one, where it stays P2's turn for good.
        until(lambda: to_play(p) == "Player 1", seconds=2.0, what="the web reading the repaired database")
    finally:
        p.close()


def to_play(p: Processes) -> str | None:
    status, _, body = p.get("/g/1")
    found = re.search(r"(Player \d) to play", body)
    return found and found.group(1)


def test_a_real_box_says_what_of_a_finished_game_could_not_be_read(tmp_path):
    p = Processes(tmp_path)
    try:
        # A game of Da Vinci Code on the card: P1 attacks, hits and stops.
        assert p.press("4", "#", "#", "2", "A", "#") == ["ok"] * 6
        p.box.terminate()
        p.box.wait(10)
        # While the power is off the game is over (no longer the one on the
        # box) and a byte of its row is damaged in place.
        with sqlite3.connect(p.db) as db:
            db.execute("UPDATE games SET ended = 1.0, name = CAST(? AS TEXT) WHERE id = 1", (b"davinc\xff",))
            db.execute("UPDATE settings SET value = 'null' WHERE key = 'current'")
        db.close()
        p.box = p._spawn("run", "box.log")
        until(p._connect, what="the box's start")
        until(lambda: "1 game could not be read" in " ".join(p.screen().split()), seconds=10,
              what="the main screen saying so")
    finally:
        p.close()


def test_a_game_whose_row_turns_unreadable_during_play_can_still_be_ended():
    # Leaving, an undo and a game's end read the game's row again: one that
    # can no longer be read ended the key in an error, and the table was
    # held on "End this game?".
    with Table(seed=5) as t:
        _davinci(t)
        game = t.box.session.id
        with sqlite3.connect(t.database) as db:
            name, = db.execute("SELECT CAST(name AS BLOB) FROM games WHERE id = ?", (game,)).fetchone()
            db.execute("UPDATE games SET name = CAST(? AS TEXT) WHERE id = ?", (_flipped(name, 0, 0xFF), game))
        db.close()
        assert t.box.store.game(game) is None                         # the row no longer reads
        t.hold("*", 1.0)
        t.type("D#")                                                  # ended from the game menu
        assert t.screen().startswith("[Tabletop Referee"), t.screen()
        with sqlite3.connect(t.database) as db:
            ended, = db.execute("SELECT ended FROM games WHERE id = ?", (game,)).fetchone()
        db.close()
        assert ended is not None                                      # marked finished all the same
