"""Da Vinci Code played at the virtual table: key presses in, screens and the
score log out.  Rules [DV-1] to [DV-11]; P1 to P4 are the seats, and a digit
is always that player."""
import pytest
import zxingcpp

from referee.box.screen import COLS, W, qr_image
from referee.testing import Table
from test_power_cut_pages import unclocked


def start(t, **options):
    t.start("davinci", **options)
    t.press("#")  # everyone has their tiles


def attack(t, target, hit):
    t.press(str(target))
    t.press("A" if hit else "B")


def shown(t, name="main"):
    """A screen without the passing message over it and the line of what
    was last done (tested in test_explains.py)."""
    return "\n".join(line for line in t.page(name).splitlines() if not line.startswith("»"))


def lines(t, name="main"):
    return shown(t, name).splitlines()


def flashed(t):
    return [line[2:] for line in t.screen("main").splitlines() if line.startswith("! ")]


def rows(t):
    """The team screens under their title: a row of tiles a player, and how
    the last turn ended when there is room."""
    assert t.screen("team1") == t.screen("team2")
    return lines(t, "team1")[1:]


def undo(t):
    t.hold("*", 1.0)
    t.press("#")


def refused(t, key, message):
    """``key`` changes nothing but the message and the low beep."""
    before = {name: shown(t, name) for name in ("main", "team1")}
    beeps = t.sounds.count("error")
    t.press(key)
    assert flashed(t) == [message]
    assert t.sounds.count("error") == beeps + 1
    assert {name: shown(t, name) for name in ("main", "team1")} == before


def screens(t):
    return {name: shown(t, name) for name in ("main", "team1", "team2")}


def assert_fits(t):
    """Every line of every screen fits the 128×64 panel as it is drawn."""
    for screen in t.box.shown.values():
        width = (W - qr_image(screen.qr).width - 2) // 6 if screen.qr else COLS  # a QR code takes the left
        texts = [screen.title, *screen.lines, " ".join(f"{k}:{label}" for k, label in screen.keys)]
        assert all(len(text) <= width for text in texts), screen.text


# --- setup, [DV-1] deal, [DV-2] order, [DV-10] pool -------------------------

def test_DV3_DV9_DV10_DV11_setup_from_the_main_menu_by_keys(table):
    table.press("4")
    assert lines(table) == ["[Da Vinci Code 1/3]", "1 Players: 2", "2 Rules: basic", "A:names B:by phone",
                            "#:Start C:Help D:More", "*:Back"]
    table.type("11" "555")            # 4 players, P4 starts ...
    assert "5 Starts: P4" in table.screen()
    table.press("1")                  # ... but only two players now: back to P1
    assert "1 Players: 2" in table.screen()
    table.type("DD")
    assert "5 Starts: P1" in table.screen()
    table.type("11" "55" "2" "33" "4")  # 4 players, P3 starts, jokers, 60 s, tournament
    assert lines(table)[2] == "4 Play: 3 games"
    table.press("D")
    assert lines(table)[1] == "5 Starts: P3"
    table.press("C")
    assert "they guess yours." in table.screen()
    table.press("D")
    assert "Out of time: a miss." in table.screen()
    table.type("*#")
    assert lines(table) == ["[Game 1/3: take 3 each]", "Sort low to high,", "black left on a tie.",
                            "Joker anywhere, fixed", "1-4: who starts", "#:P3 starts *:Menu"]
    assert lines(table, "team1")[0] == "[Pool: 14 · game 1/3]"  # 26 tiles, 12 dealt
    table.press("#")
    assert lines(table) == ["[P3: draw a tile]", "1:00", "1,2,4:attack C:Help"]
    assert rows(table) == [" P1 hidden 3, up 0", " P2 hidden 3, up 0", "►P3 hidden 3, up 0", " P4 hidden 3, up 0"]


def test_DV1_DV2_each_player_takes_4_tiles_or_3_when_four_play(table):
    for players, each in ((2, 4), (3, 4), (4, 3)):
        table.start("davinci", players=players)
        assert lines(table) == [f"[Take {each} tiles each]", "Sort low to high,", "black left on a tie.",
                                f"1-{players}: who starts", "#:P1 starts *:Menu"]
        assert rows(table) == [("►" if seat == 1 else " ") + f"P{seat} hidden {each}, up 0"
                               for seat in range(1, players + 1)]
        table.press("*")              # nothing played yet: back to the menu
        assert "1 Decrypto" in table.screen()
    assert [game["status"] for game in table.log()] == ["abandoned"] * 3


@pytest.mark.parametrize(("players", "rules", "pool"), [(2, "basic", 16), (4, "extended", 14)])
def test_DV10_the_pool_counts_24_tiles_or_26_with_jokers_less_what_was_drawn(table, players, rules, pool):
    table.start("davinci", players=players, rules=rules)
    assert ("Joker anywhere, fixed" in table.screen()) == (rules == "extended")
    assert lines(table, "team1")[0] == f"[Pool: {pool}]"
    table.press("#")
    assert lines(table, "team1")[0] == f"[Pool: {pool - 1}]"  # P1 draws
    attack(table, 2, hit=False)
    assert lines(table, "team1")[0] == f"[Pool: {pool - 2}]"  # P2 draws


# --- [DV-4] a turn, [DV-5] hit, [DV-6] miss -------------------------------------

def test_DV5_hit_then_again_then_stop_keeps_the_drawn_tile_hidden(table):
    start(table, players=3)
    assert lines(table) == ["[P1: draw a tile]", "►P1 hidden 4, up 0", " P2 hidden 4, up 0", " P3 hidden 4, up 0",
                            "2,3:attack C:Help"]
    table.press("2")
    assert lines(table) == ["[P1 attacks P2]", "Hit: P2 shows it", "Miss: show drawn tile", "A:Hit B:Miss C:Help",
                            "*:Back"]
    table.press("A")
    assert lines(table) == ["[P1 hit! Again?]", "A: attack again", "#: stop; drawn tile",
                            "joins your row hidden", "2,3:attack #:Stop", "C:Help"]
    assert rows(table) == ["►P1 hidden 4, up 0", " P2 hidden 3, up 1", " P3 hidden 4, up 0"]
    table.press("A")
    assert lines(table)[0] == "[P1 again: whom?]" and lines(table)[-2:] == ["2,3:attack C:Help", "*:Back"]
    attack(table, 3, hit=True)
    attack(table, 2, hit=True)        # a digit alone attacks again too
    table.press("#")
    assert lines(table)[0] == "[P2: draw a tile]"
    assert rows(table) == [" P1 hidden 5, up 0", "►P2 hidden 2, up 2", " P3 hidden 3, up 1", "P1: 3 hits, stopped"]


def test_DV4_DV6_a_miss_turns_the_drawn_tile_up_and_passes_the_turn(table):
    start(table, players=3)
    attack(table, 2, hit=True)
    table.press("2")                  # names P2 again, then thinks better of it
    table.press("*")
    assert lines(table)[0] == "[P1 hit! Again?]"
    table.press("2")
    table.press("3")                  # not here: this page takes A, B or *
    assert lines(table)[0] == "[P1 attacks P2]" and flashed(table) == ["3 does nothing here: A Hit, B Miss, C Help, * Back"]
    table.type("*3")
    assert lines(table)[0] == "[P1 attacks P3]"
    table.press("B")
    assert lines(table)[0] == "[P2: draw a tile]"
    assert rows(table) == [" P1 hidden 4, up 1", "►P2 hidden 3, up 1", " P3 hidden 4, up 0", "P1: 1 hit, 1 miss"]


def test_DV9_running_out_of_time_is_a_miss_with_the_buzzer(table):
    start(table, players=3, turn_timer=30)
    table.press("2")
    assert lines(table) == ["[P1 attacks P2]", "0:30", "A:Hit B:Miss *:Back"]
    table.advance(29.5)
    assert "0:01" in table.screen() and "timeup" not in table.sounds
    table.advance(0.5)
    assert table.sounds[-1] == "timeup" and table.sounds.count("tick") == 5
    assert lines(table) == ["[Time up! P2: draw]", "0:30", "1,3:attack C:Help"]
    assert rows(table) == [" P1 hidden 4, up 1", "►P2 hidden 4, up 0", " P3 hidden 4, up 0", "Time up: P1 missed"]
    # P1's hit, pressed a moment too late, is not credited to P2's turn.
    refused(table, "A", "Player 2's turn now.")
    table.advance(20)
    attack(table, 3, hit=True)
    assert lines(table) == ["[P2 hit! Again?]", "0:10", "1,3:attack #:Stop"]  # a hit buys no time
    table.press("#")
    assert lines(table) == ["[P3: draw a tile]", "0:30", "1,2:attack C:Help"]


def test_DV7_with_an_empty_pool_nothing_is_drawn_and_a_miss_shows_an_own_tile(table):
    start(table, players=4)
    for turn in range(12):            # twelve misses draw the 12 tiles of the pool
        seat = turn % 4 + 1
        attack(table, seat % 4 + 1, hit=False)
    assert lines(table, "team1")[0] == "[Pool: 0]"
    assert lines(table)[0] == "[P1: no tile to draw]"
    table.press("2")
    assert "Miss: show own tile" in table.screen()
    table.press("B")
    assert rows(table) == [" P1 hidden 2, up 4", "►P2 hidden 3, up 3", " P3 hidden 3, up 3", " P4 hidden 3, up 3"]
    table.press("3")
    table.press("A")
    assert lines(table)[1:3] == ["A: attack again", "#: stop"]  # nothing was drawn to keep
    table.press("#")
    assert rows(table)[1] == " P2 hidden 3, up 3"


# --- [DV-8] elimination and win ----------------------------------------------------

def test_DV8_a_player_out_is_skipped_and_the_last_one_with_hidden_tiles_wins(table):
    start(table, players=3)
    for _ in range(4):
        attack(table, 2, hit=True)
    assert rows(table) == ["►P1 hidden 4, up 0", " P2 out", " P3 hidden 4, up 0"]
    table.press("#")
    assert lines(table)[0] == "[P3: draw a tile]" and lines(table)[-1] == "1:attack C:Help"
    refused(table, "2", "Player 2 is out.")
    attack(table, 1, hit=False)
    assert lines(table)[0] == "[P1: draw a tile]" and lines(table)[-1] == "3:attack C:Help"
    for _ in range(4):
        attack(table, 3, hit=True)
    url = table.box.public_url()
    assert shown(table) == f"[P1 wins!]\nScan for\nscores\nQR {url}\n#:Menu"
    assert_fits(table)
    [code] = zxingcpp.read_barcodes(table.image("main").convert("L"))
    assert code.text == url
    assert lines(table, "team1") == ["[P1 won, turns: 3]", "P1 hits: 8", "P2 hits: 0", "P3 hits: 0"]
    [game] = table.log()
    assert game["status"] == "finished" and game["winners"] == ["Player 1"]
    assert game["totals"] == {"Player 1": 1, "Player 2": 0, "Player 3": 0}
    [played] = game["rounds"]
    assert played["turns"] == 3
    assert played["hits"] == {"Player 1": 8, "Player 2": 0, "Player 3": 0}
    assert played["eliminated"] == [{"player": "Player 2", "by": "Player 1"},
                                    {"player": "Player 3", "by": "Player 1"}]
    assert played["winner"] == "Player 1"
    table.press("#")
    assert "1 Decrypto" in table.screen()


def test_DV7_DV8_an_empty_pool_miss_can_put_the_attacker_out(table):
    start(table, players=2)
    for _ in range(3):
        attack(table, 2, hit=True)
    table.press("#")                  # P1 keeps a hidden tile: P2 has one left
    for turn in range(16):            # misses empty the pool
        attack(table, 1 if turn % 2 == 0 else 2, hit=False)
    assert lines(table)[0] == "[P2: no tile to draw]"
    attack(table, 1, hit=False)
    assert lines(table)[0] == "[P1 wins!]"
    assert table.log()[0]["rounds"][0]["eliminated"] == [{"player": "Player 2", "by": None}]


# --- refused input -------------------------------------------------------------

def test_DV4_DV6_impossible_input_is_refused_with_a_message(table):
    start(table, players=3)
    refused(table, "1", "Not your own row.")
    refused(table, "5", "5 does nothing here: 2,3 attack, C Help")
    refused(table, "A", "A does nothing here: 2,3 attack, C Help")
    refused(table, "#", "# does nothing here: 2,3 attack, C Help")
    attack(table, 2, hit=False)
    refused(table, "A", "A miss ends the turn.")  # P1 would go again after the miss
    refused(table, "#", "# does nothing here: 1,3 attack, C Help")
    refused(table, "B", "B does nothing here: 1,3 attack, C Help")
    assert lines(table)[0] == "[P2: draw a tile]"


# --- [DV-11] tournament ------------------------------------------------------------

def test_DV11_three_games_of_points_end_in_a_shared_win(table):
    table.start("davinci", players=3, tournament=True)
    # Game 1, P1 starts: everyone misses once, then P1 turns up both rows.
    # P1: 8 hits + 2 finished × 3 + 5 for the win = 19.
    table.press("#")
    attack(table, 2, hit=False)
    attack(table, 3, hit=False)
    attack(table, 1, hit=False)
    for target in (2,) * 4 + (3,) * 4:
        attack(table, target, hit=True)
    assert lines(table) == ["[Game 1/3: P1 wins]", "P1 19 pts +19", "P2  0 pts +0", "P3  0 pts +0", "#:Next game C:Help"]
    assert lines(table, "team1") == ["[P1 won, turns: 4]", "P1 hits: 8, 19 pts", "P2 hits: 0, 0 pts",
                                     "P3 hits: 0, 0 pts"]
    # Game 2, P2 starts (the next clockwise) and wins in one turn: 19.
    table.type("##")
    for target in (3,) * 4 + (1,) * 4:
        attack(table, target, hit=True)
    assert lines(table)[:4] == ["[Game 2/3: P2 wins]", "P1 19 pts +0", "P2 19 pts +19", "P3  0 pts +0"]
    # Game 3, P3 starts.  P3, P1 and P2 each hit once and stop; then P3
    # finishes P1 (3 left) and P2 (4 left): P3 8 hits + 6 + 5 = 19, P1 1, P2 1.
    table.press("#")
    assert lines(table)[0] == "[Game 3/3: take 4 each]" and lines(table)[-1] == "#:P3 starts C:Help"
    table.press("#")
    for attacker, target in ((3, 1), (1, 2), (2, 1)):
        assert lines(table)[0] == f"[P{attacker}: draw a tile]"
        attack(table, target, hit=True)
        table.press("#")
    for target in (1,) * 3 + (2,) * 4:
        attack(table, target, hit=True)
    # The hand-computed table:   game 1  game 2  game 3  total
    expected = {"Player 1": (19, 0, 1, 20),
                "Player 2": (0, 19, 1, 20),
                "Player 3": (0, 0, 19, 19)}
    assert shown(table) == (f"[P1+P2 win]\nP1 20 pts\nP2 20 pts\nP3 19 pts\nQR {table.box.public_url()}\n#:Menu")
    assert lines(table, "team1") == ["[Tournament]", "P1 19+0+1 = 20", "P2 0+19+1 = 20", "P3 0+0+19 = 19"]
    assert_fits(table)
    [log] = table.log()
    assert log["status"] == "finished"
    assert [r["scores"] for r in log["rounds"]] == [{name: points[g] for name, points in expected.items()}
                                                    for g in range(3)]
    assert log["totals"] == {name: points[3] for name, points in expected.items()}
    assert log["winners"] == ["Player 1", "Player 2"]
    assert [(r["game"], r["starter"], r["turns"], r["winner"]) for r in log["rounds"]] == [
        (1, "Player 1", 4, "Player 1"), (2, "Player 2", 1, "Player 2"), (3, "Player 3", 4, "Player 3")]
    assert log["rounds"][2]["hits"] == {"Player 1": 1, "Player 2": 1, "Player 3": 8}
    assert log["rounds"][2]["eliminated"] == [{"player": "Player 1", "by": "Player 3"},
                                              {"player": "Player 2", "by": "Player 3"}]


def test_DV3_every_game_of_a_tournament_asks_who_starts_the_next_seat_offered(table):
    table.start("davinci", players=3, tournament=True)
    table.press("2")                      # game 1: P2 starts after all
    assert lines(table)[-1] == "#:P2 starts *:Menu"
    table.press("#")
    assert lines(table)[0] == "[P2: draw a tile]"
    for target in (3,) * 4 + (1,) * 4:
        attack(table, target, hit=True)
    table.press("#")                      # game 2: the seat after P2 is offered ...
    assert lines(table)[0] == "[Game 2/3: take 4 each]" and lines(table)[-1] == "#:P3 starts C:Help"
    table.press("1")                      # ... and the table picks P1
    assert lines(table)[-1] == "#:P1 starts C:Help"
    table.advance(1.0)
    table.restart()                       # the pick survives a power cut
    assert lines(table)[-1] == "#:P1 starts C:Help"
    table.press("4")                      # nobody sits at seat 4: nothing changes
    assert lines(table)[-1] == "#:P1 starts C:Help"
    table.press("#")
    assert lines(table)[0] == "[P1: draw a tile]"
    undo(table)                           # undo comes back to the same question
    assert lines(table)[-1] == "#:P1 starts C:Help"
    table.press("#")
    for target in (2,) * 4 + (3,) * 4:
        attack(table, target, hit=True)
    table.type("##")                      # game 3: the seat after P1 offered and taken
    assert lines(table)[0] == "[P2: draw a tile]"
    assert [r["starter"] for r in table.log()[0]["rounds"]] == ["Player 2", "Player 1"]


# --- power cut, undo, the panel's size -------------------------------------------

def test_power_cut_after_every_step_comes_back_to_the_same_screens():
    with Table(seed=3) as t:
        t.start("davinci", players=2, turn_timer=90, tournament=True, rules="extended")
        keys = ["#", "2", "A", "A", "*", "2", "*", "2", "B",  # P1: a hit, again, back and forth, a miss
                "A", "1", "A", "#",                           # P2: refused, then a hit and a stop
                *"2A" * 4,                                    # P1 turns up P2's row: game 1 won
                "#", "#", "1"]                                # game 2 dealt; P2 names P1
        for key in keys:
            t.press(key)
            t.advance(3)
            before = unclocked(t, screens(t))   # a running turn timer: from its last written place
            assert_fits(t)
            t.restart()
            assert unclocked(t, screens(t)) == before, key
        assert lines(t)[0] == "[P2 attacks P1]"
        t.advance(90)                 # the time runs out after the power cut too
        assert lines(t)[0] == "[Time up! P1: draw]" and "timeup" in t.sounds


def test_undo_takes_back_a_hit_a_miss_and_a_stop(table):
    start(table, players=3)
    before_hit = screens(table)
    attack(table, 2, hit=True)
    undo(table)
    assert screens(table) == before_hit
    attack(table, 2, hit=True)
    before_stop = screens(table)
    table.press("#")
    assert lines(table)[0] == "[P2: draw a tile]"
    undo(table)
    assert screens(table) == before_stop
    attack(table, 3, hit=False)
    undo(table)
    assert screens(table) == before_stop
    assert flashed(table) == ["Undone."]


def test_DV9_an_undo_gives_the_turn_back_the_time_it_had(table):
    # P1 hits and stops, P2's 60 s run out, the table takes back P1's stop:
    # P1 is where they were, with the time they had then, not out of time.
    start(table, players=2, turn_timer=60)
    table.advance(10)
    attack(table, 2, hit=True)
    table.advance(5)
    table.press("#")
    table.advance(60)
    assert table.sounds.count("timeup") == 1 and rows(table)[-1] == "Time up: P2 missed"
    undo(table)
    assert lines(table)[:2] == ["[P1 hit! Again?]", "0:45"]
    assert table.sounds.count("timeup") == 1 and "P1 missed" not in table.screen("team1")
    table.advance(20)                 # the turn's clock runs on from there
    assert lines(table)[:2] == ["[P1 hit! Again?]", "0:25"]
    undo(table)                       # the hit too: back to 10 s into the turn
    assert lines(table)[1] == "0:50" and table.sounds.count("timeup") == 1
    assert "Time up" not in table.screen("main") + table.screen("team1")
    table.advance(50)
    assert table.sounds.count("timeup") == 2 and rows(table)[-1] == "Time up: P1 missed"
