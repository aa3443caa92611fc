"""Issue 15: the box always starts.

A real ``referee run`` (started as the power-cut soak starts it, driven by
the control socket ``referee.box.sim_control``) is killed with SIGKILL on every kind of
page of every mode, and between some of the kills the database is damaged
from outside the way a card or a bug could leave it.  After each start the
box must be up: it answers, shows a screen, takes a key, and says on the
main screen what it could not restore; it never exits.

Pages: the setup form and its help (they come back as they were), the first
page of play, a page further in (a key or two played), the game menu held up
by holding ``*`` (undo), and the game-over page (a game played to its end), a
page turned there, and the menu chosen from it.
Faults: a saved page that makes no sense to its flow, an event row that is
not UTF-8, an event the rules refuse, a game row that cannot be read, the
current game gone, a flipped byte in the middle of the file, a flipped byte
in the write-ahead log (the game in play must come back whole).
"""
from __future__ import annotations

import json
import sqlite3
import time

import pytest

from test_soak import Machine

pytestmark = pytest.mark.soak

MODES = {"decrypto": "1", "osmisifry": "2", "octiles": "3", "davinci": "4", "decipher": "5", "tools": "6"}
MENU = "[Tabletop Referee"
SECONDS = 10.0


class Box:
    """One real box, killed and started again on the same database."""

    def __init__(self, m: Machine) -> None:
        self.m = m
        self.starts = 0
        self.outcomes: list[tuple[str, str, str]] = []   # (page, fault, what came back)

    def start(self) -> str:
        self.m.start(console=False)
        self.m.connect()
        assert self.m.ask("ready") == "ok"
        self.starts += 1
        return self.m.screen()

    def press(self, key: str) -> str:
        self.m.ask(f"press {key}")
        return self.m.screen()

    def hold_star(self) -> str:
        self.m.ask("down *")
        give_up = time.monotonic() + SECONDS
        while not (screen := self.m.screen()).startswith(("[Game menu", "[Undo?")):
            assert time.monotonic() < give_up, screen
        return screen

    def cut(self, page: str, fault: str = "", damage=None) -> str:
        """Kill, damage the database if asked, start: the screen it came back on."""
        self.m.kill()
        self.m.reap()
        if damage is not None:
            damage(self.m.db)
        screen = self.start()
        title = screen.split("\n")[0]
        # Up and answering: it takes a key and still shows a screen.
        self.m.ask("press 0")
        assert self.m.screen().startswith("[")
        came = "menu" if screen.startswith(MENU) else "game"
        notice = [line[2:] for line in screen.split("\n") if line.startswith("! ")]
        self.outcomes.append((page, fault or "-", f"{came} {title} {notice[0] if notice else ''}".strip()))
        return screen


def _write(db: str, *statements: tuple) -> None:
    con = sqlite3.connect(db, isolation_level=None)
    try:
        for sql, *args in statements:
            con.execute(sql, args)
    finally:
        con.close()


def _current(db: str) -> int:
    con = sqlite3.connect(db)
    try:
        return json.loads(con.execute("SELECT value FROM settings WHERE key = 'current'").fetchone()[0])
    finally:
        con.close()


def nonsense_page(db):
    # Every attribute the flow saved, set to something it never holds.
    con = sqlite3.connect(db)
    ui = json.loads(con.execute("SELECT value FROM settings WHERE key = 'ui'").fetchone()[0])
    con.close()
    ui["view"] = {name: {"nonsense": [None]} for name in ui["view"]} or {"page": -7}
    _write(db, ("UPDATE settings SET value = ? WHERE key = 'ui'", json.dumps(ui)))


def not_utf8_event(db):
    game = _current(db)
    _write(db, ("INSERT INTO events (game, seq, at, data) SELECT ?, COALESCE(MAX(seq), 0) + 1, 0, "
                "CAST(? AS TEXT) FROM events WHERE game = ?", game, b'{"type": "\xff\xfe"}', game))


def refused_event(db):
    game = _current(db)
    _write(db, ("INSERT INTO events (game, seq, at, data) SELECT ?, COALESCE(MAX(seq), 0) + 1, 0, ? "
                "FROM events WHERE game = ?", game, '{"type": "NoSuchEvent", "x": 1}', game))


def unreadable_game(db):
    _write(db, ("UPDATE games SET options = CAST(? AS TEXT) WHERE id = ?", b"\xff{", _current(db)))


def game_gone(db):
    _write(db, ("UPDATE settings SET value = '987654' WHERE key = 'current'",))


def flipped_byte(db):
    with sqlite3.connect(db) as con:
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    with open(db, "r+b") as f:
        size = f.seek(0, 2)
        for at in (size // 3, size // 2, 2 * size // 3):   # inside the tables' pages
            f.seek(at)
            byte = f.read(1)
            f.seek(at)
            f.write(bytes((byte[0] ^ 0x5A,)))


def flipped_log_byte(db):
    # In the first frame of the write-ahead log, which the game in play was
    # written to since the last start: SQLite would drop every frame after it.
    with open(db + "-wal", "r+b") as f:
        f.seek(32 + 24 + 1000)
        byte = f.read(1)
        f.seek(32 + 24 + 1000)
        f.write(bytes((byte[0] ^ 0x5A,)))


@pytest.mark.parametrize("mode", MODES)
def test_item2_the_box_comes_back_on_every_page_of_every_mode_and_from_every_fault(tmp_path, mode):
    key = MODES[mode]
    with Machine(tmp_path) as m:
        box = Box(m)
        assert box.start().startswith(MENU)

        if mode != "tools":   # the table tools have no setup form
            # The setup form and its help come back as they were; a saved
            # form that makes no sense gives way to the main menu.
            form = box.press(key)
            assert box.cut("setup") == form
            shown = box.press("C")
            assert shown.startswith("[Help") and box.cut("setup help") == shown
            screen = box.cut("setup help", "nonsense saved page", nonsense_page)
            assert screen.startswith(MENU) and "Could not restore the page" in screen

        # Play, and a page or two further.
        first = box.press(key)
        if mode != "tools":
            first = box.press("#")
        if first.startswith("[Take 4 tiles"):   # Da Vinci Code: the tiles are dealt first
            first = box.press("#")
        assert not first.startswith(MENU), first
        assert box.cut("play").split("\n")[0] == first.split("\n")[0]
        box.press("C")
        assert not box.cut("play help").startswith(MENU)
        box.hold_star()
        assert not box.cut("game menu (undo)").startswith(MENU)
        box.press("1")
        box.press("#")
        assert not box.cut("further in").startswith(MENU)

        # Faults, each on the game in play.
        assert not box.cut("further in", "nonsense saved page", nonsense_page).startswith(MENU)
        screen = box.cut("further in", "event row not UTF-8", not_utf8_event)
        assert "1 event could not be read" in " ".join(screen.split())
        assert box.m.read("SELECT COUNT(*) FROM set_aside") == [(1,)]
        screen = box.cut("further in", "event the rules refuse", refused_event)
        assert "1 event could not be read" in " ".join(screen.split()) and not screen.startswith(MENU)
        screen = box.cut("further in", "game row unreadable", unreadable_game)
        assert screen.startswith(MENU) and "Could not resume the game" in screen

        box.press(key)
        box.press("#")   # the tools: the timer runs
        screen = box.cut("play", "current game gone", game_gone)
        assert screen.startswith(MENU) and "Could not resume the game" in screen

        box.press(key)
        box.press("#")
        box.cut("play", "flipped bytes", flipped_byte)
        box.hold_star()
        box.press("D")
        assert box.press("#").startswith(MENU)   # the game ended from its menu
        box.press(key)
        box.press("#")   # a new game in play (or the tools' timer running), all of it in the log
        playing = m.read("SELECT seq, data FROM events WHERE game = ? ORDER BY seq", _current(m.db))
        screen = box.cut("play", "flipped byte in the log", flipped_log_byte)
        # Salvaged (an earlier fault left a game row that cannot be read: it is counted) and whole.
        assert not screen.startswith(MENU) and "Database repaired" in screen, screen
        after = m.read("SELECT seq, data FROM events WHERE game = ? ORDER BY seq", _current(m.db))
        assert after[:len(playing)] == playing   # (a timer may have fired before the kill)
        with open(m.log) as f:
            log = f.read()
    assert "Traceback" not in log, log[-3000:]
    print(f"\n{mode}: {box.starts} starts")
    for page, fault, came in box.outcomes:
        print(f"  {page:18} {fault:24} -> {came}")


# --- the game-over page --------------------------------------------------------
#
# A game is played to its end at the virtual table, the quick ways the
# games' own table tests play them (the dice, the deck and the codes are the
# table's to set or read there); its database is then the real box's.  The
# real box must come back on the game-over page, on a page turned there,
# and, once the players chose the menu, on the main menu.

def _davinci(t):
    t.start("davinci", players=2)
    t.press("#")
    for _ in range(4):
        t.type("2A")   # four hits on Player 2's four tiles


def _decipher(t):
    t.start("decipher", players=2)
    for round_ in range(4):
        t.type("#D3#")   # nobody guesses: the round ends
        if round_ < 3:
            t.press("#")


def _osmisifry(t):
    import test_osmisifry_table as osm
    osm.to_scoring(t, players=2)
    t.type("0#0#0#B" * 2)


def _octiles(t):
    import test_octiles_table as oc
    oc.start(t, *(tile for tile, _seat, _move in oc.WINNING), players=2, runners=3)
    oc.play_to_the_win(t)


def _decrypto(t):
    import test_decrypto_table as de
    de.white_intercepts_twice(de.Game(t))


def _tools(t):
    # The table tools have no end of their own: the game menu ends them.
    t.start("tools")
    t.press("#")
    t.hold("*", 1.0)
    t.type("D#")


GAME_OVER = {   # mode: (played to its end, its first line there, a key that turns a page there)
    "davinci": (_davinci, "[P1 wins!]", None),
    "decipher": (_decipher, "[Game over]", "D"),
    "osmisifry": (_osmisifry, "[Game over]", "D"),
    "octiles": (_octiles, "[West won!]", None),
    "decrypto": (_decrypto, "[White wins!]", "D"),
    "tools": (_tools, MENU, None),
}


def _same(screen: str) -> str:
    """A screen as it comes back: without a passing message, and with the QR
    code's address, which is the box's own."""
    return "\n".join("QR" if line.startswith("QR ") else line
                     for line in screen.split("\n") if not line.startswith("! "))


@pytest.mark.parametrize("mode", GAME_OVER)
def test_item6_the_box_comes_back_on_the_game_over_page_of_every_mode(tmp_path, mode):
    from referee.testing import Table
    play, title, turn = GAME_OVER[mode]
    with Table(seed=7) as t:
        play(t)
        over = t.screen()
        assert over.startswith(title), over
        with sqlite3.connect(t.database) as played, sqlite3.connect(tmp_path / "referee.db") as copy:
            played.backup(copy)
        played.close()
        copy.close()
    with Machine(tmp_path) as m:
        box = Box(m)
        assert _same(box.start()) == _same(over)
        assert _same(box.cut("game over")) == _same(over)
        if turn is not None:
            turned = box.press(turn)
            assert turned != over
            assert _same(box.cut("game over, a page on")) == _same(turned)
        if mode != "tools":
            assert box.press("#").startswith(MENU)   # "#:Menu": the players are done with it
            assert box.cut("game over, then the menu").startswith(MENU)
        with open(m.log) as f:
            log = f.read()
    assert "Traceback" not in log, log[-3000:]
    print(f"\n{mode}:")
    for page, fault, came in box.outcomes:
        print(f"  {page:26} {fault:4} -> {came}")
