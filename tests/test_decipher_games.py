"""Whole games of Decipher played on the keys and checked by hand against the
rulebook (issue 20): who makes the word, who seeks, what each screen shows
and to whom, how every kind of round is scored, the end and the score log.

Screen 1 (``team1``) is the word maker's; screen 2 (``team2``) is public like
main.  The scores each test expects were worked out from [DC-10] by hand, not
read off the box."""
import re

from test_decipher_table import flashed, peek, rows, shown, undo
from test_web import ok, page_text


def public_screens(t) -> str:
    """Everything the seekers can read: main and screen 2."""
    return t.screen("main") + "\n" + t.screen("team2")


def no_count_in_sight(t, count: int) -> None:
    """[DC-3] The maker's piece count never reaches a screen the seekers see."""
    assert not re.search(rf"\b{count}\b", public_screens(t)), public_screens(t)


def round_table(t) -> list[str]:
    """The round's points, name by name, as the first page of the round table."""
    return rows(t)[1:-1]


def test_DC2_DC4_DC5_DC6_DC7_DC8_DC9_DC10_DC11_three_players_every_kind_of_round(table):
    t = table
    t.start("decipher", players=["Mirek", "Ania", "Marek"])

    # Round 1 is the rulebook's worked example [DC-10]: Mirek makes PANDA.
    # [DC-3] He types the chamber's 7 pieces: screen 1 shows them, main dots.
    t.type("7")
    assert shown(t, "team1").splitlines()[:2] == ["[Maker: Mirek]", "7"]
    assert "Pieces: ●●" in t.screen() and "7" not in public_screens(t)
    t.press("#")
    # [DC-4] Ania, left of Mirek, seeks first; the maker cannot guess.
    assert rows(t)[:4] == ["[1/3 Maker: Mirek]", "Turn: Ania", "NO: 0 Pieces: set", "Guess: 2 Ania 3 Marek"]
    t.press("1")
    assert flashed(t) == ["The maker can't guess"]
    # [DC-3] The undo question is on main: it names the count, never its number.
    t.hold("*", 1.0)
    assert shown(t).splitlines()[1:3] == ["Take back:", "the piece count?"]
    no_count_in_sight(t, 7)
    t.press("*")
    # [DC-5] A NO: a token for Mirek and Ania tries again.
    t.press("B")
    assert "Turn: Ania" in t.screen() and "NO: 1" in t.screen()
    t.type("A")                      # 6 left
    assert "Turn: Marek" in t.screen()
    t.type("BBA")                    # 5 left, NO: 3
    t.type("A")                      # Ania: 4 left
    assert "pieces left inside" in peek(t) and "\n4\n" in peek(t)
    no_count_in_sight(t, 4)
    # [DC-6] Marek's YES leaves 3: the box itself announces bonus mode.
    t.type("A")
    assert flashed(t) == ["Bonus mode: 3 pieces"] and t.sounds[-1] == "warning"
    assert rows(t)[1:4] == ["Turn: Ania", "NO: 3 Bonus: ●●●", "Bonus mode: 3 left"]
    assert "#:Piece" in t.screen() and "B:NO" not in t.screen()
    # [DC-7] Ania asks for a piece: one bonus token goes to Mirek.
    t.type("#A")
    assert "Bonus: ●●○" in t.screen() and "Turn: Marek" in t.screen()
    # [DC-8] Marek, then Ania guess wrong; Ania guesses right: the round ends.
    t.type("3B2B2A")
    assert round_table(t) == ["Mirek +8", "Ania +10", "Marek +2"]
    assert rows(t)[0] == "[1/3 Ania solved it]"
    assert shown(t, "team1") == "[Decipher]\nNext maker: Ania"
    t.press("#")

    # Round 2 [DC-2]: Ania, left of Mirek, makes the word; [DC-4] Marek, left
    # of Ania, seeks first.  She types no count: the box cannot announce
    # bonus mode and her screen says so.
    assert rows(t)[0] == "[2/3 Maker: Ania]"
    t.press("#")
    assert rows(t)[1] == "Turn: Marek" and "Pieces: —" in t.screen()
    assert "announce bonus mode yourself" in peek(t).replace("\n", " ")
    t.type("A")                      # Marek's piece fits
    t.type("BBA")                    # Mirek: two NOs
    assert rows(t)[1:3] == ["Turn: Marek", "NO: 2 Pieces: —"]
    # [DC-8] Marek fails three times on his own turn: out, Mirek takes over.
    t.type("3B3B3B")
    assert flashed(t) == ["Marek is out"]
    assert rows(t)[1] == "Turn: Mirek" and rows(t)[3] == "Guess: 1 Mirek"
    t.press("3")
    assert flashed(t) == ["Marek: no tokens left"]
    t.type("A")                      # Mirek's turn passes over Marek to Mirek again
    assert rows(t)[1] == "Turn: Mirek"
    # [DC-9] Mirek spends his last token: every token is spent, the round ends.
    t.type("1B1B1B")
    assert rows(t)[0] == "[2/3 All tokens spent]"
    # [DC-10] Ania: 2 NO + 6 guess tokens + 5 for the unsolved word.
    assert round_table(t) == ["Mirek +0", "Ania +13", "Marek +0"]
    t.press("D")
    assert rows(t)[:5] == ["[Mirek: 0 points]", "NO tokens 0×1 = 0", "Bonus tokens 0×2 = 0",
                           "Guess tokens 0×1 = 0", "Solution 0×5 = 0"]
    t.press("D")
    assert rows(t)[:5] == ["[Ania: 13 points]", "NO tokens 2×1 = 2", "Bonus tokens 0×2 = 0",
                           "Guess tokens 6×1 = 6", "Solution 1×5 = 5"]
    t.press("#")

    # Round 3: Marek makes it, Mirek seeks first, no count.
    assert rows(t)[0] == "[3/3 Maker: Marek]"
    t.type("#AA")                    # Mirek, Ania: both pieces fit
    # [DC-6] Marek sees 3 pieces left and announces bonus mode himself: no sound.
    sounds = len(t.sounds)
    t.type("D2")
    assert flashed(t) == ["Bonus mode: 3 pieces"] and t.sounds[sounds:] == []
    assert rows(t)[1:4] == ["Turn: Mirek", "NO: 0 Bonus: ●●●", "Bonus mode: 3 left"]
    t.type("#A")                     # [DC-7] Mirek's bonus piece
    assert rows(t)[1:4] == ["Turn: Ania", "NO: 0 Bonus: ●●○", "Bonus mode: 2 left"]
    t.type("2B")                     # Ania guesses wrong
    # [DC-9] Nobody wants to guess any more: the maker keeps the solution.
    t.type("D3")
    assert "Marek takes the solution token." in " ".join(rows(t))
    t.press("#")
    # [DC-11] That was the last round: the game is over.
    assert shown(t).splitlines()[:4] == ["[Game over]", "Winner:", "Ania", "25 points"]
    assert f"QR {t.box.public_url()}" in t.screen()
    assert shown(t, "team2") == "[Winner:]\nAnia\n25 points"
    assert shown(t, "team1") == "[Decipher]\nGame over."
    t.press("D")
    # Mirek 8 + 0 + 3, Ania 10 + 13 + 2, Marek 2 + 0 + 8.
    assert rows(t)[:4] == ["[Totals]", "Ania 25", "Mirek 11", "Marek 10"]
    t.press("D")
    assert rows(t)[:4] == ["[3/3 Nobody solved it]", "Mirek +3", "Ania +2", "Marek +8"]
    t.press("D")
    t.press("D")
    t.press("D")
    assert rows(t)[:5] == ["[Marek: 8 points]", "NO tokens 0×1 = 0", "Bonus tokens 1×2 = 2",
                           "Guess tokens 1×1 = 1", "Solution 1×5 = 5"]

    [game] = t.log()
    assert game["status"] == "finished" and game["winners"] == ["Ania"]
    assert game["totals"] == {"Mirek": 11, "Ania": 25, "Marek": 10}
    assert [(r["maker"], r["ended"], r["solver"]) for r in game["rounds"]] == [
        ("Mirek", "solved", "Ania"), ("Ania", "tokens", None), ("Marek", "given_up", None)]
    assert [r["scores"] for r in game["rounds"]] == [
        {"Mirek": 8, "Ania": 10, "Marek": 2}, {"Mirek": 0, "Ania": 13, "Marek": 0},
        {"Mirek": 3, "Ania": 2, "Marek": 8}]
    page = page_text(ok(t, f"/g/{game['id']}"))
    assert "★ Ania wins" in page
    for line in ("Mirek made the word, solved by Ania; NO tokens 3, bonus pieces 1",
                 "Ania made the word, not solved: guess tokens spent; NO tokens 2, bonus pieces 0",
                 "Marek made the word, given up; NO tokens 0, bonus pieces 1", "Total 11 25 10"):
        assert line in page
    t.press("#")
    assert "Tabletop Referee" in t.screen()


def test_DC1_DC2_DC6_DC7_DC11_two_players_three_letters_four_rounds_end_level(table):
    t = table
    t.start("decipher", players=["Ola", "Piotr"], length=3)
    # Round 1: Ola makes a word of three one-piece letters.  [DC-1] A count
    # below the word's letters is refused.
    t.type("2#")
    assert flashed(t) == [] and "Not taken: the count is 3 to 48." in " ".join(t.screen("team1").splitlines())
    # [DC-6] 3 pieces: bonus mode from the start, announced by the box.
    t.type("3#")
    assert flashed(t) == ["Bonus mode: 3 pieces"] and t.sounds[-1] == "warning"
    assert rows(t)[:5] == ["[1/4 Maker: Ola]", "Turn: Piotr", "NO: 0 Bonus: ●●●", "Bonus mode: 3 left",
                           "Guess: 2 Piotr"]
    t.press("A")
    assert flashed(t)[-1] == "A does nothing here: 1,2, # Piece, C Help, D More"
    t.type("#A")                     # [DC-7] a bonus token to Ola; the piece fits
    # [DC-4] With one seeker the turn comes back to Piotr.
    assert rows(t)[1:3] == ["Turn: Piotr", "NO: 0 Bonus: ●●○"]
    t.type("#BA")                    # the second: one NO, then it fits
    t.type("2A")                     # Piotr reads the word
    # [DC-10] Piotr: 5 + the last bonus token 2 + 2 guess tokens; Ola: 1 NO,
    # 2 bonus tokens, Piotr's guess token.
    assert round_table(t) == ["Ola +6", "Piotr +9"]
    t.press("#")

    # Round 2 [DC-2]: Piotr makes a word of 5 pieces; Ola seeks.
    assert rows(t)[0] == "[2/4 Maker: Piotr]"
    t.type("5#AA")                   # two pieces fit: 3 left
    assert flashed(t) == ["Bonus mode: 3 pieces"]
    t.type("#A#A#A")                 # three bonus pieces, all to Piotr
    # Every piece is out: only guessing is left.
    assert rows(t)[1:4] == ["All pieces are out.", "NO: 0 Bonus: ○○○", "Guess: 1 Ola"]
    assert "#:Give up" in t.screen()
    t.type("1A")
    assert round_table(t) == ["Ola +7", "Piotr +7"]   # Ola 5 + 2 tokens; Piotr 3 bonus + 1
    t.press("#")

    # Round 3: Ola again [DC-2]; Piotr fails three times.
    assert rows(t)[0] == "[3/4 Maker: Ola]"
    t.type("#2B2B2B")
    assert rows(t)[0] == "[3/4 All tokens spent]"
    assert round_table(t) == ["Ola +8", "Piotr +0"]
    t.press("#")

    # Round 4: Piotr; one NO, Ola fails once and gives up.
    assert rows(t)[0] == "[4/4 Maker: Piotr]"
    t.type("#B1BD3#")
    # Ola 6 + 7 + 8 + 2, Piotr 9 + 7 + 0 + 7: level at 23, a shared win [DC-11].
    assert shown(t).splitlines()[:5] == ["[Game over]", "Winners:", "Ola", "Piotr", "23 points"]
    assert shown(t, "team2") == "[Winners:]\nOla, Piotr\n23 points"
    [game] = t.log()
    assert [r["maker"] for r in game["rounds"]] == ["Ola", "Piotr", "Ola", "Piotr"]
    assert game["totals"] == {"Ola": 23, "Piotr": 23} and game["winners"] == ["Ola", "Piotr"]


def test_DC2_DC3_DC6_DC7_DC10_four_players_six_letters_set_up_on_the_keys(table):
    t = table
    t.press("5")
    t.type("1")                      # 4 players
    t.type("2")                      # 6 letters
    t.type("33")                     # the first word maker: Player 3 [DC-2]
    assert rows(t)[1] == "3 Starts: Player 3"
    t.press("D")
    assert rows(t)[1:3] == ["1 Players: 4", "2 Letters: 6"]
    t.press("C")
    assert "Player 3→4→1→2" in t.screen()
    t.press("D")                     # [DC-10] the digest's ruling, on the help's next page
    assert " ".join(rows(t)[1:4]) == "Ruling: every seeker starts each round with 3 guess tokens."
    t.press("D")
    assert "Words of 6 letters" in t.screen()
    t.type("*#")
    assert rows(t)[:3] == ["[1/4 Maker: Player 3]", "Turn: Player 4", "Word: 6 letters"]
    t.type("9#")
    # [DC-4] the seekers from the maker's left: 4, 1, 2.
    assert rows(t)[1] == "Turn: Player 4" and rows(t)[3] == "To guess, press 1/2/4"
    t.type("A")                      # 8 left
    t.type("A")                      # 7 left: the maker finds one piece too many
    # [DC-3] A correction after the first YES counts the pieces left to
    # place, and is asked again on screen 1 only.
    t.type("D1")
    t.type("6#")
    assert shown(t, "team1").splitlines()[:3] == ["[Correct the count?]", "Now: 6 left to place", "Was 7."]
    assert rows(t)[1:3] == ["Pieces: ●●", "Maker: confirm on 1"]
    no_count_in_sight(t, 6)
    t.press("#")
    assert "\n6\n" in peek(t)
    t.type("AAA")                    # Players 2, 4, 1: 3 left, bonus mode
    assert flashed(t) == ["Bonus mode: 3 pieces"]
    assert rows(t)[1] == "Turn: Player 2"
    t.type("#BA")                    # Player 2's bonus piece: a NO, then it fits
    t.type("4A")                     # Player 4 reads it
    # Player 4: 5 + 2 bonus tokens left + 2 tokens; Player 3: 1 NO, 1 bonus, 1 token.
    assert round_table(t) == ["Player 1 +3", "Player 2 +3", "Player 3 +4", "Player 4 +11"]
    t.press("#")
    for number, maker in ((2, 4), (3, 1), (4, 2)):   # [DC-2] left, round by round
        assert rows(t)[0] == f"[{number}/4 Maker: Player {maker}]"
        assert shown(t, "team1").splitlines()[0] == f"[Maker: Player {maker}]"
        t.type("#D3#")               # nobody guesses: 5 for the maker, 3 each
        if number < 4:
            t.press("#")
    assert shown(t).splitlines()[:4] == ["[Game over]", "Winner:", "Player 4", "22 points"]
    t.press("D")
    assert rows(t)[1:5] == ["Player 4 22", "Player 1 14", "Player 2 14", "Player 3 13"]
    [game] = t.log()
    assert game["winners"] == ["Player 4"] and game["starter"] == "Player 3"
    assert game["rounds"][0]["items"]["Player 3"] == {"no": 1, "bonus": 1, "guess": 1, "solution": 0}


def test_DC3_undoing_a_corrected_count_never_shows_it_on_main(table):
    t = table
    t.start("decipher", players=3)
    t.type("12#A")
    t.type("D1")
    t.type("8##")
    t.hold("*", 1.0)
    assert shown(t).splitlines()[1:3] == ["Take back:", "the piece count?"]
    no_count_in_sight(t, 8)
    t.press("#")
    assert "\n11\n" in peek(t)       # the count before the correction
    no_count_in_sight(t, 11)
    undo(t)
    assert "Turn: Player 2" in t.page()
