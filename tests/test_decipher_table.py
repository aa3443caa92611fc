"""Decipher played at the virtual table: key presses in, screens and the score
log out.  Rules [DC-1] to [DC-11]; screen 1 is the word maker's."""
import pytest
import zxingcpp

from every_page import message_rows
from referee import i18n
from referee.box.screen import layout, wrap
from referee.testing import Table

PANDA = ["Mirek", "Ania", "Marek"]


def shown(t, name="main"):
    """A screen without the passing message over it and the line of what
    was last done (tested in test_explains.py)."""
    return "\n".join(line for line in t.page(name).splitlines() if not line.startswith("»"))


def rows(t):
    """The screen's lines with the columns' padding squeezed to one space."""
    return [" ".join(line.split()) for line in shown(t).splitlines()]


def flashed(t):
    return [line[2:] for line in t.screen("main").splitlines() if line.startswith("! ")]


def said(t):
    """Screen 1's lines under its title, as one sentence."""
    return " ".join(t.screen("team1").splitlines()[1:])


def peek(t):
    """What screen 1 shows while button 1 is held."""
    t.down("team1")
    t.advance(0.7)
    seen = t.screen("team1")
    t.up("team1")
    return seen


def undo(t):
    t.hold("*", 1.0)
    t.press("#")


def sheet(t, pages):
    """The round table's pages, turned with D from the one shown."""
    seen = []
    for _ in range(pages):
        seen.append(shown(t))
        t.press("D")
    return seen


# --- setup ----------------------------------------------------------------------

def test_DC1_DC2_setup_through_the_keys_shows_the_round_plan(table):
    table.press("5")
    assert "1 Players: 3" in table.screen() and "2 Letters: 5" in table.screen()
    table.type("1")       # 4 players
    table.type("22")      # 5 → 6 → 3 letters
    assert "1 Players: 4" in table.screen() and "2 Letters: 3" in table.screen()
    table.press("C")
    assert shown(table).splitlines()[1:4] == ["Players: 4, rounds: 4", "Makers, moving left:", "Player 1→2→3→4"]
    table.press("D")                  # [DC-10] the ruling, a page of its own
    table.press("D")
    assert shown(table).splitlines()[1] == "Words of 3 letters"
    table.press("*")
    table.press("#")
    assert shown(table).splitlines()[:3] == ["[1/4 Maker: Player 1]", "Turn: Player 2", "Word: 3 letters"]
    [game] = table.log()
    assert game["game"] == "decipher" and game["status"] == "playing"
    assert game["players"] == ["Player 1", "Player 2", "Player 3", "Player 4"]


def test_DC2_the_first_word_maker_is_a_setup_choice(table):
    table.press("5")
    table.press("D")                     # the form's second page, after Teach was added
    assert "3 Starts: Player 1" in table.screen()
    table.type("333")                    # three players: 2, 3, then past the last seat
    assert "3 Starts: Player 1" in table.screen()
    table.type("33")
    assert "3 Starts: Player 3" in table.screen()
    table.press("C")
    assert "Player 3→1→2" in table.screen()
    table.type("*#")
    assert shown(table).splitlines()[:2] == ["[1/3 Maker: Player 3]", "Turn: Player 1"]
    assert table.box.session.state.maker == 2


# --- the worked example ---------------------------------------------------------

def test_DC10_worked_example_panda_played_on_the_keys(table):
    table.start("decipher", players=PANDA)
    table.type("7#")                  # Mirek: 7 pieces in the chamber
    # Before bonus mode its tokens are all there: the pieces share their line, under a key bar of two rows
    assert shown(table) == ("[1/3 Maker: Mirek]\nTurn: Ania\nNO: 0  Pieces: set\n"
                            "Guess: 2 Ania 3 Marek\nA:YES B:NO C:Help\nD:More")
    table.type("BA")                  # Ania: NO, YES
    table.type("BBA")                 # Marek: NO, NO, YES
    table.type("A")                   # Ania
    assert "Turn: Marek" in table.screen() and "NO: 3" in table.screen()
    table.type("A")                   # Marek: three pieces left
    assert flashed(table) == ["Bonus mode: 3 pieces"]
    assert "Turn: Ania" in table.page() and "Bonus mode: 3 left" in table.screen()
    table.type("#A")                  # Ania asks for a piece: a bonus token to Mirek
    assert "Bonus: ●●○" in table.screen() and "Turn: Marek" in table.screen()
    table.type("3B")                  # Marek guesses wrong
    table.type("2")
    assert "Tokens: ●●●" in table.screen()
    table.type("B")                   # Ania guesses wrong
    table.type("2A")                  # Ania guesses right
    assert sheet(table, 5) == [
        "[1/3 Ania solved it]\nMirek              +8\nAnia              +10\nMarek              +2\n"
        "#:Next round C:◄ D:►",
        "[Mirek: 8 points]\nNO tokens    3×1 =  3\nBonus tokens 1×2 =  2\nGuess tokens 3×1 =  3\n"
        "Solution     0×5 =  0\n#:Next round C:◄ D:►",
        "[Ania: 10 points]\nNO tokens    0×1 =  0\nBonus tokens 2×2 =  4\nGuess tokens 1×1 =  1\n"
        "Solution     1×5 =  5\n#:Next round C:◄ D:►",
        "[Marek: 2 points]\nNO tokens    0×1 =  0\nBonus tokens 0×2 =  0\nGuess tokens 2×1 =  2\n"
        "Solution     0×5 =  0\n#:Next round C:◄ D:►",
        "[Totals]\nAnia               10\nMirek               8\nMarek               2\n#:Next round C:◄ D:►",
    ]
    assert "Ania solved it" in table.screen()   # D from the totals: back to the start
    table.press("C")
    assert "[Totals]" in table.screen()
    [game] = table.log()
    assert game["rounds"] == [{
        "round": 1, "maker": "Mirek", "no_tokens": 3, "bonus_taken": 1,
        "guesses": {"Ania": 2, "Marek": 1}, "solver": "Ania", "ended": "solved",
        "items": {"Mirek": {"no": 3, "bonus": 1, "guess": 3, "solution": 0},
                  "Ania": {"no": 0, "bonus": 2, "guess": 1, "solution": 1},
                  "Marek": {"no": 0, "bonus": 0, "guess": 2, "solution": 0}},
        "scores": {"Mirek": 8, "Ania": 10, "Marek": 2},
    }]
    assert game["totals"] == {"Mirek": 8, "Ania": 10, "Marek": 2} and game["winners"] == []
    assert "Next maker: Ania" in table.screen("team1")
    table.press("#")
    assert shown(table).splitlines()[:2] == ["[2/3 Maker: Ania]", "Turn: Marek"]


# --- [DC-3] the piece count -----------------------------------------------------------

def test_DC3_the_maker_types_the_count_for_screen_1_only(table):
    table.start("decipher", players=3)
    table.press("1")
    one = shown(table)
    table.press("2")
    assert shown(table) == one        # main: the same two dots for any count
    assert "Pieces: ●●\nMaker: use screen 1" in one and "12" not in one
    assert "12\npieces in the chamber" in table.screen("team1")
    table.press("*")
    assert "Pieces in chamber?" in table.screen() and "12" not in table.screen("team1")
    table.type("4#")                  # too few for five letters: said on screen 1 alone
    assert flashed(table) == [] and said(table) == "Not taken: the count is 5 to 48. Type it again."
    assert table.sounds[-1] == "error" and "Pieces in chamber?" in table.screen()
    table.type("9#")
    assert "Pieces: set" in table.screen()
    assert "Hold button 1" in table.screen("team1") and "9" not in table.screen("team1")
    assert "9\npieces left inside" in peek(table)
    table.type("ABA")
    assert "7\npieces left inside" in peek(table)
    assert "7" not in table.screen("team1")   # hidden again on release


def test_DC3_a_refused_count_tells_main_nothing_of_the_number_typed(table):
    table.start("decipher", players=PANDA)
    seen = []
    for count in ("4", "49"):         # too few for five letters, too many for the box
        table.type(count + "#")
        seen.append([table.screen(name) for name in ("main", "team1", "team2")])
        assert count not in seen[-1][0] and count not in seen[-1][2]
    assert seen[0] == seen[1]         # the same screens, whichever way it was wrong
    assert flashed(table) == [] and "Not taken: the count is 5 to 48." in said(table)
    table.type("9")                   # the next key takes the words off screen 1
    assert "Not taken" not in table.screen("team1") and table.screen("team1").splitlines()[1] == "9"


def test_DC3_the_maker_corrects_the_count_after_the_first_yes_on_screen_1_only(table):
    table.start("decipher", players=PANDA)
    table.type("9#A")                 # 9 pieces, one placed: 8 left
    table.press("D")
    assert "1 Pieces (maker)" in table.screen()
    table.press("1")
    assert "[Correct the count]" in table.screen() and "pieces left to place" in table.screen("team1")
    table.type("5")
    first = shown(table)
    table.press("1")                  # 51: the main screen does not change
    assert shown(table) == first and "51" not in first and "Pieces: ●●" in first
    table.type("*5#")
    asked = shown(table)
    assert "Maker: confirm on 1" in asked and "#:Yes C:Help *:No" in asked and "5" not in asked
    assert shown(table, "team1").splitlines()[:3] == ["[Correct the count?]", "Now: 5 left to place", "Was 8."]
    assert "5" not in table.screen("team2")
    table.press("#")
    assert "Turn: Marek" in table.screen() and "5\npieces left inside" in peek(table)
    table.type("A")                   # 4 left
    table.type("D1")
    table.type("2#")                  # too few: bonus mode starts at 3, which screen 1 alone says
    assert flashed(table) == [] and said(table) == "Not taken: the count is 3 to 46. Type it again."
    assert "Maker: confirm on 1" not in table.screen()
    table.type("*D1")
    table.type("3#")
    table.press("*")                  # not sure after all: the count stays
    assert "Was 4." not in table.screen("team1")
    table.press("#")
    table.press("#")
    assert flashed(table) == ["Bonus mode: 3 pieces"] and "Bonus mode: 3 left" in table.screen()
    table.press("D")
    assert "1 Pieces (maker)" in table.screen()   # the menu's numbers stay put, but
    table.press("1")                              # no correcting in bonus mode
    assert flashed(table) == ["Bonus mode: the count is the bonus tokens."] and "[More]" in table.screen()
    assert table.log()[0]["rounds"] == []


def test_DC3_the_count_never_reaches_main_nor_the_score_log():
    def play(count):
        with Table(seed=7) as t:
            t.start("decipher", players=PANDA)
            seen = []
            for keys in (count, "#", "B", "A", "D", "*", "A", "3B", "A", "A", "#", "2B", "D3#", "D", "D"):
                t.type(keys)
                seen.append((t.screen("main"), t.screen("team2")))
                if keys == "2B":
                    secret = peek(t)
            log = [{k: v for k, v in game.items() if k not in ("started", "ended")} for game in t.log()]
            return seen, log, secret

    nine, fourteen = play("9"), play("14")
    assert "5\npieces left inside" in nine[2] and "10\npieces left inside" in fourteen[2]
    assert nine[0] == fourteen[0]
    assert nine[1] == fourteen[1]
    assert "Nobody solved it" in nine[0][-3][0]


# --- [DC-4] to [DC-7] turns and bonus mode ------------------------------------------------

def test_DC6_the_box_starts_bonus_mode_at_exactly_three_pieces_left(table):
    table.start("decipher", players=3)
    table.type("6#")
    table.type("A")
    table.type("BA")
    assert "Pieces: set" in table.screen() and "A:YES B:NO C:Help\nD:More" in table.screen()
    assert "4\npieces left inside" in peek(table)
    assert "warning" not in table.sounds
    table.type("A")                   # three left
    assert flashed(table) == ["Bonus mode: 3 pieces"]
    assert table.sounds[-1] == "warning"
    assert "Bonus mode: 3 left" in table.screen() and "#:Piece C:Help D:More" in table.screen()
    assert "3\npieces left inside" in peek(table)
    table.press("A")                  # no piece in hand yet
    assert flashed(table) == ["A does nothing here: 1-3, # Piece, C Help, D More"]
    table.press("#")
    assert "Bonus: ●●○" in table.screen() and "A:YES B:NO C:Help\nD:More" in table.screen()
    assert "2\npieces left inside" in peek(table)


def test_DC6_without_a_count_the_maker_announces_bonus_mode(table):
    table.start("decipher", players=3)
    table.press("#")
    assert "NO: 0  Pieces: —" in table.screen()
    assert "No piece count" in peek(table)
    table.type("B")                   # a NO: bonus mode waits for the turn to end
    table.press("D")
    assert "2 Bonus mode (maker)" in table.screen()   # numbered as always: the rules say why not now
    table.press("2")
    assert flashed(table) == ["Bonus mode starts between turns, before the next piece is tried."]
    table.type("*A")
    table.press("D")
    assert "2 Bonus mode (maker)" in table.screen()
    table.press("2")
    assert "Bonus mode: 3 left" in table.screen() and "Turn: Player 3" in table.page()
    assert "warning" not in table.sounds  # the maker said it, the box does not


def test_DC7_bonus_tokens_cannot_go_below_zero(table):
    table.start("decipher", players=3)
    table.type("#AD2")
    table.type("#A")
    table.type("#A")
    table.press("#")
    assert "Bonus: ○○○" in table.screen()
    table.press("#")                  # a fourth piece?
    # the whole message, which the key bar's two rows leave two lines of the panel
    assert table.box.shown["main"].flash == "# does nothing here: 1-3, A YES, B NO, C Help, D More"
    table.press("A")
    assert "Bonus: ○○○" in table.screen() and "All pieces are out." in table.screen()
    assert "Piece" not in table.screen() and "#:Give up C:Help\nD:More" in table.screen()
    table.press("B")
    assert table.box.shown["main"].flash == "B does nothing here: 1-3, # Give up, C Help, D More"
    table.type("##D")
    assert "Bonus tokens 3×2 =  6" in table.screen()


# --- [DC-8] guessing ------------------------------------------------------------------

def test_DC8_a_seeker_is_out_after_the_third_wrong_guess_and_skipped(table):
    table.start("decipher", players=4)
    table.type("#B")
    table.type("2B2B")
    assert "Turn: Player 2" in table.screen()
    table.press("2")
    assert "[Player 2 guesses]\nTokens: ●○○" in table.screen()
    table.press("*")                  # called off: no token spent
    assert "Turn: Player 2" in table.screen()
    table.type("2B")
    assert flashed(table) == ["Player 2 is out"]
    assert "Turn: Player 3" in table.page() and "To guess, press 3/4" in table.screen()
    table.press("2")
    assert flashed(table) == ["Player 2: no tokens left"] and table.sounds[-1] == "error"
    table.press("1")
    assert flashed(table) == ["The maker can't guess"]
    table.press("A")
    assert "Turn: Player 4" in table.screen()
    table.press("A")
    assert "Turn: Player 3" in table.screen()  # past Player 2 and the maker
    assert table.log()[0]["rounds"] == []      # the round goes on


# --- [DC-9] and [DC-10] the end of a round ---------------------------------------------

def test_DC9_the_round_ends_when_all_guess_tokens_are_spent(table):
    table.start("decipher", players=3)
    table.type("#B")
    table.type("2B2B2B3B3B")
    assert "Turn: Player 3" in table.screen()
    table.type("3B")
    assert rows(table)[:4] == ["[1/3 All tokens spent]", "Player 1 +12", "Player 2 +0", "Player 3 +0"]
    assert table.log()[0]["rounds"][0]["ended"] == "tokens"


def test_DC9_DC10_nobody_guesses_any_more_and_the_maker_takes_five(table):
    table.start("decipher", players=3)
    table.type("#A2B")
    table.type("D3")
    assert shown(table) == ("[End the round?]\nNobody guesses any\nmore: Player 1 takes\n"
                            "the solution token.\n#:End C:Help *:Back")
    table.press("*")
    assert "Turn: Player 3" in table.screen()
    table.type("D3#")
    assert rows(table)[:2] == ["[1/3 Nobody solved it]", "Player 1 +6"]
    table.press("D")
    assert shown(table).splitlines()[1:5] == [
        "NO tokens    0×1 =  0", "Bonus tokens 0×2 =  0", "Guess tokens 1×1 =  1", "Solution     1×5 =  5"]
    [game] = table.log()
    assert game["rounds"][0]["solver"] is None and game["rounds"][0]["ended"] == "given_up"
    assert game["rounds"][0]["scores"] == {"Player 1": 6, "Player 2": 2, "Player 3": 3}


# --- [DC-2] and [DC-11] the game ---------------------------------------------------------

def test_DC2_two_players_play_four_rounds_and_DC11_a_tie_shares_the_win(table):
    table.press("5")
    table.type("11")                  # 3 → 4 → 2 players
    table.press("C")
    assert "Players: 2, rounds: 4" in table.screen() and "Player 1→2→1→2" in table.screen()
    table.type("*#")
    for number, maker in ((1, 1), (2, 2), (3, 1), (4, 2)):
        assert f"[{number}/4 Maker: Player {maker}]" in shown(table)
        table.type("#D3#")            # nobody guesses: the maker 5, the seeker 3
        if number < 4:
            assert f"Player {maker} +5" in rows(table)
            table.press("#")
    assert shown(table) == (f"[Game over]\nWinners:\nPlayer 1\nPlayer 2\n16 points\n"
                            f"QR {table.box.public_url()}\n#:Menu D:►")
    [code] = zxingcpp.read_barcodes(table.image("main").convert("L"))
    assert code.text == table.box.public_url()
    [game] = table.log()
    assert game["status"] == "finished"
    assert [r["maker"] for r in game["rounds"]] == ["Player 1", "Player 2", "Player 1", "Player 2"]
    assert game["totals"] == {"Player 1": 16, "Player 2": 16}
    assert game["winners"] == ["Player 1", "Player 2"]
    table.press("D")
    assert rows(table)[:3] == ["[Totals]", "Player 1 16", "Player 2 16"]
    table.press("D")                  # then the last round's table
    assert rows(table)[:3] == ["[4/4 Nobody solved it]", "Player 1 +3", "Player 2 +5"]
    table.press("#")
    assert "Tabletop Referee" in table.screen()


def test_DC11_a_four_way_tie_names_every_winner_and_the_points(table):
    table.start("decipher", players=["Mirek", "Ania", "Marek", "Bartoloměj"])
    for number in range(1, 5):
        table.type("#D3#")            # nobody guesses: 5 for the maker, 3 for each seeker
        if number < 4:
            table.press("#")
    assert shown(table).splitlines()[:5] == ["[Game over]", "Winners:", "Mirek", "+3 more", "14 points"]
    assert shown(table, "team2").splitlines() == ["[Winners:]", "Mirek, Ania, Marek,", "Bartoloměj",
                                                  "14 points"]
    assert "Round" not in table.screen("team2") and "Maker" not in table.screen("team2")
    assert table.log()[0]["winners"] == ["Mirek", "Ania", "Marek", "Bartoloměj"]


def test_DC11_one_winner_and_the_scores_so_far(table):
    table.start("decipher", players=PANDA)
    table.type("#3A#")                # Marek solves Mirek's word at once
    table.type("#D4")
    assert rows(table) == ["[Scores]", "Marek 13", "Ania 3", "Mirek 1", "C:Help *:Back"]
    table.type("*3A#")                # Marek solves Ania's word
    table.type("#2A")                 # Ania solves Marek's
    assert shown(table).splitlines()[:4] == ["[Game over]", "Winner:", "Marek", "27 points"]
    table.press("D")
    assert rows(table)[1:4] == ["Marek 27", "Ania 17", "Mirek 7"]
    assert table.log()[0]["winners"] == ["Marek"]


# --- power cuts and undo -------------------------------------------------------------------

# A two-player game of three-letter words through every screen the game has,
# one player's action (or one look at a page) a step.
SCRIPT = (
    "1", "4#",                  # round 1: the maker types 4 (main: dots), starts
    "BA",                       # NO, YES: three pieces left, bonus mode
    "D", "4", "*#",             # more, the scores; back, a bonus piece
    "2", "B", "A2A",            # the guess page, a wrong guess; YES, a right one
    "D", "#",                   # a player's tokens on the round table; next round
    "#D", "2", "#A#A#A",        # round 2 without a count: the maker calls bonus mode
    "#", "#", "##2B",           # nobody guesses any more; round 3
)


def test_power_cut_after_every_step_comes_back_to_the_same_screens(table):
    table.start("decipher", players=2, length=3)
    for keys in SCRIPT:
        table.type(keys)
        table.advance(1.0)
        before = [shown(table, name) for name in ("main", "team1", "team2")]
        table.restart()
        assert [shown(table, name) for name in ("main", "team1", "team2")] == before, keys
    assert rows(table)[:3] == ["[3/4 Maker: Player 1]", "Turn: Player 2", "NO: 0 Pieces: —"]
    assert [r["ended"] for r in table.log()[0]["rounds"]] == ["solved", "given_up"]
    table.press("2")
    assert "Tokens: ●●○" in table.screen()


def test_undo_takes_back_the_last_action(table):
    table.start("decipher", players=3)
    table.type("9#")
    undo(table)                       # the count: asked again, nothing typed
    assert flashed(table) == ["Undone."] and "Pieces in chamber?" in table.screen()
    table.press("#")                  # this time without it
    assert "Pieces: —" in table.screen()
    table.press("B")
    assert "NO: 1" in table.screen()
    undo(table)
    assert "NO: 0" in table.page() and "Turn: Player 2" in table.screen()
    table.type("2B")
    undo(table)                       # the wrong guess
    table.press("2")
    assert "Tokens: ●●●" in table.screen()
    table.press("A")                  # right: the round table
    assert "Player 2 solved" in table.screen()   # "it" is past the title's 21 columns
    undo(table)
    assert "Turn: Player 2" in table.page() and table.log()[0]["rounds"] == []
    table.type("2A#")                 # solved again, and on to round 2
    assert "[2/3 Maker: Player 2]" in table.screen()
    undo(table)
    assert "[1/3 Player 2 solved" in table.screen()


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_a_refusal_on_the_turn_page_is_drawn_whole_beside_its_key_bar_of_two_rows(lang):
    """The turn page's bar takes two rows (A, B, Help, More); a refusal
    there, which says every key the page takes, is read whole on the
    panel: the bar's second row is the message's while it shows."""
    with Table(seed=7, lang=lang) as t:
        t.start("decipher", players=PANDA)
        t.press("#")                                   # the round starts: the turn page
        bar = layout(t.box.shown["main"]).keys
        t.press("#")                                   # a key the page does not take
        page = t.box.shown["main"]
        said = wrap(page.flash)
        assert len(bar) == 2 and len(said) == 3
        assert message_rows(t) == len(said) and list(layout(page).message) == said
        assert layout(page).keys == bar[:1] and i18n._("Turn: {name}").format(name="Ania") in t.screen()
        t.advance(5)                                   # gone: the bar whole again
        assert layout(t.box.shown["main"]).keys == bar
