"""Osmišifry at the table: keys, screens, dice, the decoding time and the
score log, through the virtual table (rules/README.md, section 1)."""
import dataclasses

import pytest

from games import osmisifry as osm
from games.base import Rolled
from referee.box.screen import COLS, H, W, key_line, key_rows, qr_image
from test_power_cut_pages import unclocked


# --- playing through the keys ---------------------------------------------------------

def main(t):
    """The main screen without the line of what was last done (tested in
    test_explains.py)."""
    return "\n".join(line for line in t.screen("main").splitlines() if not line.startswith("»"))


def unflashed(t, name="main"):
    """The screen as it is without the passing message (and so with the
    line of what was last done, whose row a message may take)."""
    return dataclasses.replace(t.box.shown[name], flash="").text


def assert_fits(t):
    """Every panel's text fits its 21 columns and the lines the panel has
    room for (a flash is left out: it goes again)."""
    for name, screen in t.box.shown.items():
        cols = (W - qr_image(screen.qr).width - 2) // 6 if screen.qr else COLS
        top = 12 + (33 if screen.big else 0)
        bar = key_rows(screen.keys, cols)   # one row, or two where one would cut a label
        room = (H - top - 10 * len(bar)) // 10
        assert len(screen.big) <= 7, (name, screen.big)
        assert all(len(text) <= cols for text in (screen.title, *screen.lines, *bar)), (name, screen)
        assert len(key_line(screen.keys)) <= 2 * cols and not any(row.endswith("…") for row in bar), (name, screen)
        assert len(screen.lines) <= room, (name, screen)


def screens(t):
    return {name: t.screen(name) for name in ("main", "team1", "team2")}


def picker(t):
    """Whose pick the main screen asks for."""
    return next(line.split(" picks: ")[0] for line in main(t).splitlines() if " picks: " in line)


def roll(t, *faces):
    t.dice.next(*faces)
    t.press("#")


def rolled(t):
    """A letter roll where the faces do not matter: handed to the box as the
    dice module's answer arrives, without the trip over its serial line
    that ``roll`` takes (and the tests about the dice make)."""
    assert t.box.act(Rolled("letter", (1, 1)))


def roll_rows(t):
    """Roll whatever letters the box asks for."""
    while osm.step(t.box.session.state).kind == "roll_letter":
        rolled(t)


def play_round(t, keys):
    roll_rows(t)
    t.type(keys)


def undo(t):
    t.hold("*", 1.0)
    t.press("#")


def to_direction(t, players=3):
    t.start("osmisifry", players=players)
    t.type("D#")
    assert "[Pass the booklets]" in main(t)


def to_scoring(t, players=2, rounds=0, direction=1):
    t.start("osmisifry", players=players)
    for _ in range(rounds):
        play_round(t, "".join(str(i) for i in range(1, players + 1)))
    t.type("D#")
    roll(t, direction)
    t.type("###")        # the five minutes start; all officers done? yes


def table_rows(t):
    """The result table, all pages, as {name: "agent+officer=total"}."""
    while "[Scores" in main(t):      # round to the first page, the winners'
        t.press("D")
    t.press("D")
    rows = {}
    while "[Scores" in main(t):
        for line in main(t).splitlines()[2:-1]:
            name, sums = line.rsplit(None, 1)
            rows[name.strip()] = sums
        t.press("D")
    return rows


# --- setup ----------------------------------------------------------------------------

def test_setup_menu_players_and_letter_table_through_keys(table):
    table.press("2")
    # [OS-1] the table of the box's language first
    assert "[Osmišifry 1/2]" in main(table) and "1 Players: 2" in main(table) and "2 Letters: English" in main(table)
    table.press("C")
    assert "officer" in main(table)                        # what the game is for, then the keys
    table.press("D")
    assert "B+digit: player draws" in main(table)
    table.press("*")
    table.type("11")     # 2 → 3 → 4 players
    table.type("22")     # English → Polish → Czech
    table.press("2")     # → English
    assert "1 Players: 4" in main(table) and "2 Letters: English" in main(table)
    table.press("#")
    assert "[Round 1/31]" in main(table)
    assert "Row 1: _ _ _ _ _" in main(table)      # [OS-3] four players: five letters
    roll(table, 2, 3)
    assert f"= {osm.builtin_table('en').letter(2, 3)}" in main(table)
    assert osm.builtin_table("en").letter(2, 3) != osm.builtin_table("cs").letter(2, 3)
    assert table.log()[0]["players"] == ["Player 1", "Player 2", "Player 3", "Player 4"]


# --- [OS-1] [OS-3] [OS-4] rolling the offers ------------------------------------------

def test_OS1_rulebook_rolls_4_3_T_5_6_E_7_6_N_8_8_H_show_on_the_screen(table):
    table.start("osmisifry", players=3)
    for faces, letter in [((4, 3), "T"), ((5, 6), "E"), ((7, 6), "N"), ((8, 8), "H")]:
        roll(table, *faces)
        # The last roll: on its own line while the row played is rolled, on
        # the line of what was last done while the next row is (item 25.5).
        shown = table.screen("main")
        assert f"Last roll {faces[0]}+{faces[1]} = {letter}" in shown or f"»roll {faces[0]}+{faces[1]} → {letter}" in shown
    assert "Row 2: _ _ _ _" in main(table)           # row 1 done, row 2 next
    assert "TENH" in table.screen("team1") and "TENH" in table.screen("team2")


def test_OS1_the_dice_modules_ROLL_button_rolls_the_letter(table):
    table.start("osmisifry", players=3)
    table.dice.next(4, 3)
    table.dice.roll_button()
    assert "Last roll 4+3 = T" in main(table) and "Row 1: T _ _ _" in main(table)


def test_OS3_every_offer_row_has_players_plus_one_letters(table):
    for players in range(2, 7):
        table.start("osmisifry", players=players)
        rolls = 0
        while "Roll 2d8" in main(table):
            rolled(table)
            rolls += 1
        assert rolls == 2 * (players + 1)                 # row 1, then row 2 ahead
        row = " ".join(f"{i}D" for i in range(1, players + 2))
        assert row in main(table) and f"Player 1 picks: 1-{players + 1}" in main(table)
        assert "Next: " + " ".join("D" * (players + 1)) in main(table)
        assert "D" * (players + 1) in table.screen("team1")
        assert_fits(table)
        table.hold("*", 1.0)                              # the game menu: end this game
        table.type("D#")


def test_OS4_row_k_plus_1_is_rolled_before_anyone_picks_from_row_k(table):
    table.start("osmisifry", players=2)
    for faces in [(4, 3), (5, 6), (7, 6)]:
        roll(table, *faces)
    assert "Row 2: _ _ _" in main(table)
    table.press("1")
    assert "! Roll the rest of the letters first." in main(table)
    assert "Row 2: _ _ _" in unflashed(table)
    for faces in [(8, 8), (1, 1), (1, 2)]:
        roll(table, *faces)
    assert "1T 2E 3N" in main(table) and "Next: H D R" in main(table)
    table.type("12")
    # Round 2 opens by rolling row 3; row 2 waits until it is done.
    assert "[Round 2/31]" in main(table) and "Row 3: _ _ _" in main(table)
    assert "HDR" in table.screen("team1")
    table.press("1")
    assert "! Roll the rest of the letters first." in main(table)
    roll_rows(table)
    assert "1H 2D 3R" in unflashed(table)


# --- [OS-5] [OS-6] [OS-7] picking -----------------------------------------------------

def test_OS5_picked_letters_are_struck_out_and_one_is_left_over(table):
    table.start("osmisifry", players=3)
    for faces in [(4, 3), (5, 6), (7, 6), (8, 8)]:
        roll(table, *faces)
    roll_rows(table)
    assert "1T 2E 3N 4H" in main(table) and "Player 1 picks: 1-4" in main(table)
    table.press("2")
    assert "1T 2· 3N 4H" in main(table) and "Player 2 picks: 1-4" in main(table)
    assert "T·NH" in table.screen("team1") and "Player 2 picks" in table.screen("team2")
    table.press("2")
    assert "! That letter is already taken." in main(table) and "Player 2 picks" in main(table)
    table.press("4")
    table.press("1")
    assert "[Round 2/31]" in main(table)
    picks = table.log()[0]["rows"][0]["picks"]
    assert [(p["player"], p["letter"]) for p in picks] == [("Player 1", "E"), ("Player 2", "H"), ("Player 3", "T")]


def test_OS6_the_starting_player_moves_clockwise_every_round(table):
    table.start("osmisifry", players=3)
    starters = []
    for _ in range(4):
        roll_rows(table)
        starters.append(picker(table))
        table.type("123")
    assert starters == ["Player 1", "Player 2", "Player 3", "Player 1"]


def test_OS6_the_first_picker_is_a_setup_choice_the_next_seat_a_key_away(table):
    table.press("2")
    table.press("D")
    assert "3 Starts: Player 1" in main(table)
    table.type("1" "33")                 # 3 players; Player 2, then Player 3 starts
    assert "3 Starts: Player 3" in main(table)
    table.press("3")                     # nobody sits at seat 4: back to Player 1
    assert "3 Starts: Player 1" in main(table)
    table.type("33" "1" "1" "1")         # Player 3 again; 4, 5, then 6 players keep it
    assert "1 Players: 6" in main(table)
    table.press("D")
    assert "3 Starts: Player 3" in main(table)
    table.type("1" "1")                  # 2 players: Player 3 has no seat any more
    assert "1 Players: 3" in main(table)
    table.press("D")
    assert "3 Starts: Player 1" in main(table)
    table.type("33#")
    starters = []
    for _ in range(3):
        roll_rows(table)
        starters.append(picker(table))
        table.type("123")
    assert starters == ["Player 3", "Player 1", "Player 2"]


def test_OS6_the_player_whose_turn_it_is_picks_with_the_letter_digit(table):
    table.start("osmisifry", players=3)
    play_round(table, "123")
    roll_rows(table)                                   # round 2: Player 2 starts
    assert "Player 2 picks: 1-4" in main(table)
    table.type("43")
    assert "1D 2D 3· 4·" in main(table) and "Player 1 picks: 1-4" in main(table)


def test_OS7_a_drawing_player_picks_last_from_what_is_left(table):
    table.start("osmisifry", players=4)
    roll_rows(table)
    assert "B:Draw" not in main(table)                 # nobody draws in round 1
    table.press("B")                                 # B says why at once, opening no picker (25.5)
    assert "! Nobody draws in round 1." in main(table) and "Who is drawing?" not in main(table)
    table.type("2" "1234")
    play_round(table, "1234")
    roll_rows(table)                                   # round 3: Player 3 starts
    assert "Player 3 picks" in main(table) and "B:Draw C:Help D:End" in main(table)
    table.press("B")
    assert "[Who is drawing?]" in main(table)
    assert_fits(table)
    assert "1 Player 1 2 Player 2" in main(table) and "3 Player 3 4 Player 4" in main(table)
    table.press("3")
    assert "Picks last: Player 3" in main(table) and "Player 4 picks: 1-5" in main(table)
    table.type("B1")
    assert "Picks last: 1, 3" in main(table)               # two names do not fit: seats
    assert_fits(table)
    turns = []
    for key in "1234":
        turns.append(picker(table))
        table.press(key)
    # The two drawing players keep their clockwise order from the starter.
    assert turns == ["Player 4", "Player 2", "Player 3", "Player 1"]
    picks = table.log()[0]["rows"][2]["picks"]
    assert [p["player"] for p in picks[-2:]] == ["Player 3", "Player 1"]


def test_OS7_a_player_who_has_picked_cannot_be_marked_drawing(table):
    table.start("osmisifry", players=3)
    play_round(table, "123")
    roll_rows(table)                                   # round 2: Player 2 starts
    table.press("1")
    table.type("B2")
    assert "! Player 2 has already picked this round." in main(table)
    table.type("B*")
    assert "Player 3 picks" in main(table) and "Picks last" not in main(table)


# --- [OS-8] end of creation -----------------------------------------------------------

def test_OS8_creation_ends_by_itself_after_round_31(table):
    table.start("osmisifry", players=2)
    for number in range(1, 32):
        roll_rows(table)
        assert f"[Round {number}/31]" in main(table)
        assert ("Last round!" in main(table)) == (number == 31)
        table.type("12")
    assert "[Pass the booklets]" in main(table)
    assert len(table.log()[0]["rows"]) == 31


def test_OS8_the_table_may_end_creation_early_confirmed_with_hash(table):
    table.start("osmisifry", players=3)
    play_round(table, "123")
    roll_rows(table)
    before = main(table)
    table.press("D")
    assert "[End creation now?]" in main(table) and "#:Yes C:Help *:No" in main(table)
    table.press("*")
    assert main(table) == before
    table.type("D#")
    assert "[Pass the booklets]" in main(table) and "1-4: to the left" in main(table)


# --- [OS-9] direction -----------------------------------------------------------------

@pytest.mark.parametrize("players, left, right", [
    (3, ("1→2 2→3 3→1",), ("1→3 2→1 3→2",)),
    (6, ("1→2 2→3 3→4 4→5 5→6", "6→1"), ("1→6 2→1 3→2 4→3 5→4", "6→5")),
])
def test_OS9_direction_1_to_4_passes_left_5_to_8_right_with_the_officers_shown(table, players, left, right):
    to_direction(table, players)
    for face in range(1, 9):
        roll(table, face)
        side, pairs = ("left", left) if face <= 4 else ("right", right)
        lines = unflashed(table).splitlines()
        assert lines[0] == f"[{face}: pass to the {side}]"
        assert lines[1] == "Booklet → officer:" and tuple(lines[2:2 + len(pairs)]) == pairs
        assert all(pair in table.screen(team) for team in ("team1", "team2") for pair in pairs)
        assert table.log()[0]["direction"]["pass"] == side
        assert_fits(table)
        undo(table)
        assert "[Pass the booklets]" in main(table)


def test_OS9_the_direction_comes_from_the_modules_ROLL_button_too(table):
    to_direction(table, 4)
    # The module runs on its own thread: a finger on ROLL comes after the
    # box has armed it for one d8.
    table._wait(lambda: "ARM 1d8" in table.box.devices.dice_module.received)
    table.dice.next(7)
    table.dice.roll_button()
    assert "[7: pass to the right]" in main(table)
    assert table.log()[0]["direction"]["officers"] == {
        "Player 1": "Player 4", "Player 2": "Player 1", "Player 3": "Player 2", "Player 4": "Player 3"}


# --- [OS-10] decoding time ------------------------------------------------------------

def test_OS10_five_minutes_on_every_screen_warning_ticks_and_time_up(table):
    to_direction(table, 3)
    roll(table, 2)
    assert "#:Start 5:00" in main(table)
    table.press("#")
    assert all("5:00" in table.screen(name) for name in ("main", "team1", "team2"))
    assert "[Decoding]" in table.screen("team1")
    table.advance(269.5)
    assert all("0:31" in table.screen(name) for name in ("main", "team1", "team2"))
    assert "tick" not in table.sounds
    table.advance(1)
    assert table.sounds == ["tick"] and "0:30" in main(table)
    table.advance(29)
    assert "0:01" in table.screen("team2") and "timeup" not in table.sounds
    table.advance(0.5)
    assert table.sounds == ["tick"] * 30 + ["timeup"]
    # Pens down: the first booklet is scored.
    assert "[Player 1 → Player 2]" in main(table) and "Pictures drawn: _" in main(table)


def test_OS10_all_officers_done_early_after_a_confirmation(table):
    to_direction(table, 2)
    roll(table, 5)
    table.press("#")
    table.advance(10)
    table.press("#")
    assert "[All officers done?]" in main(table) and "4:50" in main(table)
    table.press("*")
    assert "[Decoding]" in main(table)
    table.type("##")
    assert "[Player 1 → Player 2]" in main(table)
    table.advance(300)
    assert "timeup" not in table.sounds and "tick" not in table.sounds


# --- [OS-11] [OS-12] [OS-13] scoring --------------------------------------------------

def test_OS11_OS12_worked_example_found_9_of_11_unused_5_destroyed_gives_officer_9_agent_8(table):
    to_scoring(table, players=2, rounds=5, direction=1)    # Player 2 decodes Player 1
    assert "[Player 1 → Player 2]" in main(table)
    table.type("11#")
    table.type("9#")
    table.type("5#")
    assert "Pictures drawn: 11" in main(table) and "Found and named: 9" in main(table)
    assert "Unused letters: 5" in main(table) and "A:Yes B:No" in main(table)
    table.press("A")                                       # the secret word is destroyed
    entry = table.log()[0]["rounds"][0]
    assert entry["scores"] == {"Player 1": 8, "Player 2": 9}
    assert "[Player 2 → Player 1]" in main(table)
    table.type("0#0#0#B")
    assert table_rows(table) == {"Player 1": "8+0=8", "Player 2": "0+9=9"}


def test_OS11_typing_clearing_and_going_back_a_question(table):
    to_scoring(table, players=2, rounds=2)
    table.type("12")
    assert "Pictures drawn: 12_" in main(table) and "*:Clear" in main(table)
    table.press("3")                                       # two digits are enough
    table.press("*")
    assert "Pictures drawn: _" in main(table)
    table.type("4#3#")
    assert "Found and named: 3" in main(table) and "Unused letters: _" in main(table)
    table.press("*")                                       # back to the found words
    assert "Found and named: _" in main(table) and "*:Back" in main(table)
    table.type("5#0#")
    table.press("B")
    assert "! An officer cannot find more words than were drawn." in main(table)
    assert "[Player 1 → Player 2]" in main(table) and table.log()[0]["rounds"] == []
    table.type("**")                                       # back to the found words
    table.type("4#3#")
    table.press("B")
    assert "! Letters written in Player 1's grid: only 2." in main(table)
    table.type("*2#B")
    assert table.log()[0]["rounds"][0]["scores"] == {"Player 1": 6, "Player 2": 4}


def test_OS13_equal_totals_share_the_win_and_six_players_page_the_table(table):
    to_scoring(table, players=6)
    table.type("0#0#0#B" * 6)
    names = [f"Player {n}" for n in range(1, 7)]
    assert main(table).splitlines()[:5] == ["[Game over]", "Shared win", "Player 1", "+5 more", "Total 0"]
    assert "Shared win:" in table.screen("team1") and "Player 6" in table.screen("team2")
    assert_fits(table)
    table.press("D")
    assert "[Scores 1/2]" in main(table)
    assert_fits(table)
    table.press("D")
    assert "[Scores 2/2]" in main(table) and "Player 6" in main(table)
    assert_fits(table)
    assert table_rows(table) == dict.fromkeys(names, "0+0=0")
    assert table.log()[0]["winners"] == names


# --- a whole game ---------------------------------------------------------------------

SHORT_GAME = [
    # (what happens, keys or dice faces)
    ("roll", (4, 3)), ("roll", (5, 6)), ("roll", (7, 6)), ("roll", (8, 8)),   # row 1: T E N H
    ("roll", (1, 1)), ("roll", (1, 2)), ("roll", (2, 5)), ("roll", (3, 3)),   # row 2: D R T O
    ("keys", "2"), ("keys", "4"), ("keys", "1"),                             # E, H, T
    ("roll", (4, 1)), ("roll", (4, 4)), ("roll", (6, 1)), ("roll", (5, 1)),   # row 3: P A O L
    ("keys", "B"), ("keys", "1"),                                            # Player 1 drew a word
    ("keys", "4"), ("keys", "2"), ("keys", "1"),                             # Player 2 O, 3 R, 1 D
    ("roll", (6, 2)), ("roll", (6, 3)), ("roll", (2, 2)), ("roll", (7, 5)),   # row 4: S E E R
    ("keys", "3"), ("keys", "1"), ("keys", "2"),                             # Player 3 O, 1 P, 2 A
    ("keys", "D"), ("keys", "#"),                                            # the table agrees to stop
    ("roll", (6,)),                                                          # to the right
    ("keys", "#"), ("wait", 30), ("keys", "#"), ("keys", "#"),               # decoding, done early
    *(("keys", key) for key in "3#2#0#B"),                                   # Player 1's booklet
    *(("keys", key) for key in "2#2#1#A"),                                   # Player 2's
    *(("keys", key) for key in "4#1#1#B"),                                   # Player 3's
]


def run(t, what, *args):
    if what == "roll":
        for faces in args:
            roll(t, *faces)
    elif what == "wait":
        t.advance(*args)
    else:
        t.type(*args)


def test_a_whole_short_game_ended_early_through_scoring_and_the_score_log(table):
    table.start("osmisifry", players=3)
    for step in SHORT_GAME:
        run(table, *step)
        assert "! " not in main(table), (step, main(table))
        assert_fits(table)
    assert "[Game over]" in main(table) and "Best agent" in main(table)
    assert "QR HTTP://" in main(table)
    # Player 1: agent 2·2 − 0 = 4, officer of Player 2's booklet: 2 → 6
    # Player 2: agent 2·2 − 1 − 5 = −2, officer of Player 3's booklet: 1 → −1
    # Player 3: agent 2·1 − 1 = 1, officer of Player 1's booklet: 2 → 3
    assert table_rows(table) == {"Player 1": "4+2=6", "Player 2": "-2+1=-1", "Player 3": "1+2=3"}
    [game] = table.log()
    assert game["game"] == "osmisifry" and game["status"] == "finished"
    assert [(row["rolls"], row["letters"]) for row in game["rows"]] == [
        ([[4, 3], [5, 6], [7, 6], [8, 8]], ["T", "E", "N", "H"]),
        ([[1, 1], [1, 2], [2, 5], [3, 3]], ["D", "R", "T", "O"]),
        ([[4, 1], [4, 4], [6, 1], [5, 1]], ["P", "A", "O", "L"]),
        ([[6, 2], [6, 3], [2, 2], [7, 5]], ["S", "E", "E", "R"]),
    ]
    assert [p["player"] for p in game["rows"][1]["picks"]] == ["Player 2", "Player 3", "Player 1"]
    assert game["direction"] == {"roll": 6, "pass": "right", "officers": {
        "Player 1": "Player 3", "Player 2": "Player 1", "Player 3": "Player 2"}}
    assert [r["scores"] for r in game["rounds"]] == [
        {"Player 1": 4, "Player 3": 2}, {"Player 2": -2, "Player 1": 2}, {"Player 3": 1, "Player 2": 1}]
    assert game["points"] == {"Player 1": {"agent": 4, "officer": 2, "total": 6},
                              "Player 2": {"agent": -2, "officer": 1, "total": -1},
                              "Player 3": {"agent": 1, "officer": 2, "total": 3}}
    assert game["totals"] == {"Player 1": 6, "Player 2": -1, "Player 3": 3}
    assert game["winners"] == ["Player 1"]
    table.press("#")
    assert "[Tabletop Referee" in main(table)


POWER_CUT_GAME = [
    # Every step the box asks for, and every question or half-typed answer.
    ("roll", (1, 1)),                                         # row 1 half rolled
    ("roll", (1, 2), (1, 3), (2, 1), (2, 2), (2, 3)),          # rows 1 and 2: Player 1 picks
    ("keys", "1"), ("keys", "2"),                             # round 2 rolls row 3
    ("roll", (3, 1), (3, 2), (3, 3)),
    ("keys", "B"), ("keys", "2"),                             # Player 2 draws
    ("keys", "13"),                                           # round 3 rolls row 4
    ("keys", "D"), ("keys", "#"),                             # creation ends by agreement
    ("roll", (3,)),                                           # to the left
    ("keys", "#"), ("wait", 20), ("keys", "#"), ("keys", "#"),   # the five minutes, done early
    ("keys", "2"), ("keys", "#1#0#"), ("keys", "B"),          # Player 1's booklet
    ("keys", "1#1#0#A"),                                      # Player 2's: the game is over
]


def test_power_cut_after_every_step_of_a_short_game_resumes_on_the_same_screens(table):
    table.start("osmisifry", players=2)
    for step in POWER_CUT_GAME:
        run(table, *step)
        table.advance(1)     # the box keeps what is on screen a moment after a key
        before = unclocked(table, screens(table))   # the five minutes: from their last written place
        table.restart()
        assert unclocked(table, screens(table)) == before, step
    assert "[Game over]" in main(table)
    [game] = table.log()
    assert game["status"] == "finished" and game["totals"] == {"Player 1": 3, "Player 2": -2}


def test_power_cut_during_the_five_minutes_keeps_the_time(table):
    to_direction(table, 3)
    roll(table, 1)
    table.press("#")
    table.advance(20)            # its place written at 0:15, not since
    table.box.close()
    table.clock.advance(280)     # the box is dark for most of the five minutes: not counted
    table.restart()
    assert all("4:45" in table.screen(name) for name in ("main", "team1", "team2"))
    table.advance(285)
    assert table.sounds[-1] == "timeup" and "[Player 1 → Player 2]" in main(table)


# --- undo -----------------------------------------------------------------------------

def test_undo_takes_back_a_roll_a_pick_a_drawing_mark_and_a_score(table):
    table.start("osmisifry", players=3)
    roll(table, 4, 3)
    undo(table)
    assert "Row 1: _ _ _ _" in main(table) and "Last roll" not in main(table)
    play_round(table, "123")
    roll_rows(table)
    table.press("2")
    before = unflashed(table)
    table.press("3")
    undo(table)
    assert unflashed(table) == before and "Player 3 picks" in main(table)
    table.type("B3")
    undo(table)
    assert unflashed(table) == before
    table.type("D#")
    roll(table, 2)
    table.type("###")
    table.type("1#")
    before = unflashed(table)
    table.type("1#0#B")
    assert "[Player 2 → Player 3]" in main(table)
    undo(table)
    # The booklet of Player 1 is open again, its answers to be given anew.
    assert "[Player 1 → Player 2]" in main(table) and "Pictures drawn: _" in main(table)
    assert table.log()[0]["rounds"] == []
    table.type("1#")
    assert unflashed(table) == before


def test_undo_of_the_start_stops_the_five_minutes(table):
    to_direction(table, 2)
    roll(table, 3)
    before = unflashed(table)
    table.press("#")
    table.advance(10)
    undo(table)
    table.advance(3)                                 # "Undone." has gone: the last action's line is back
    assert unflashed(table) == before
    table.advance(400)
    assert "timeup" not in table.sounds
    assert "[3: pass to the left]" in main(table)


def test_an_undone_early_end_gives_back_the_time_left(table):
    # The table ends the five minutes early, argues for two minutes, and
    # takes it back: the drawers have the 4:30 they had, not a time-up.
    to_direction(table, 2)
    roll(table, 3)
    table.press("#")
    table.advance(30)
    table.type("##")                 # end the decoding now? yes
    assert "timeup" not in table.sounds
    table.advance(120)
    undo(table)
    assert "4:30" in main(table) and "timeup" not in table.sounds
    table.advance(269)
    assert "0:01" in main(table)
    table.advance(1)
    assert table.sounds[-1] == "timeup"
