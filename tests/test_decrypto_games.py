"""Whole games of Decrypto played with the keys and the team buttons and
checked by hand against the rulebook (issue 20): who encrypts, who guesses
first, the sand timer on and off, the tokens of every code, the end of the
game and its tie-breaks, the Hacker variant, what each team's screen and
phone page show and never show, and the score log."""
from __future__ import annotations

import pytest

from referee.testing import Table
from test_decrypto_clues import send, sheet_row, team_page
from test_decrypto_table import BIG_CODE, Game, dashed, done, main, other, peek
from test_web import ok, page_text

WHITE, BLACK = 0, 1
HACKER, TEAM = 0, 1


@pytest.fixture
def t():
    with Table(seed=11, lang="en") as table:
        yield table


def keywords(t: Table, seat: int) -> list[str]:
    return list(t.box.session.state.keywords[seat])


def secrets_stay_home(t: Table, codes: dict[int, str]) -> None:
    """[DE-3] A team's screen shows its own keywords and never the other
    team's; no unrevealed code is on main or on the other team's screen,
    even while the code's own button is held."""
    state = t.box.session.state
    for seat, button in ((WHITE, "team1"), (BLACK, "team2")):
        rival = "team2" if button == "team1" else "team1"
        for word in state.keywords[seat]:
            assert word not in t.screen(rival) and word not in t.screen("main")
        if seat in codes:
            t.down(button)
            t.advance(0.7)
            assert dashed(codes[seat]) in t.screen(button)
            assert dashed(codes[seat]) not in t.screen(rival) + t.screen("main")
            assert not BIG_CODE.search(t.screen(rival))
            t.up(button)


def test_DE1_DE2_DE4_DE5_DE6_DE7_DE8_two_teams_with_the_sand_timer_black_intercepts_twice(t):
    g = Game(t)
    assert main(t).splitlines()[:4] == ["[Round 1: encryptors]", "White: Player 1", "Black: Player 1",
                                        "A: swap  B: phone QR"]
    assert t.screen("team1").splitlines()[1:5] == [f"{n} {w}" for n, w in enumerate(keywords(t, WHITE), 1)]
    assert t.screen("team2").splitlines()[1:5] == [f"{n} {w}" for n, w in enumerate(keywords(t, BLACK), 1)]
    first = g.codes()
    secrets_stay_home(t, first)
    # The phones: White's encryptor types the clues on the team page.
    assert send(t, WHITE, ("Mexico", "insect", "fear"))[0] == 303
    assert "Mexico" not in page_text(team_page(t, BLACK))
    # [DE-4] One press only asks; the second within 2 s turns the sand timer.
    t.press("team1")
    assert t.screen("team1").splitlines()[0] == "[Done? Press again]" and "0:30" not in main(t)
    t.press("team1")
    assert main(t).splitlines()[:2] == ["[Black: finish clues!]", "0:30"]
    assert "0:30" in t.screen("team2") and "press:done" in t.screen("team2")
    t.advance(30)
    # Black ran out of sand: only what is written counts, guessing begins.
    assert t.sounds[-1] == "timeup"
    # [DE-7] Round 1: nobody intercepts; [DE-5] White's code first.
    assert main(t).splitlines()[:5] == ["[Round 1: White code]", "White decodes.", "3 digits 1-4, then #",
                                        "> _-_-_", "Time up: stop writing"]
    # Read aloud, White's clues reach Black's page.
    assert "White clues: Mexico, insect, fear" in page_text(team_page(t, BLACK))
    g.guess(first[WHITE])
    assert main(t).splitlines()[:3] == [f"[Round 1: White {dashed(first[WHITE])}]",
                                        f"White: {dashed(first[WHITE])} right", "No tokens."]
    t.press("#")
    assert main(t).splitlines()[:2] == ["[Round 1: Black code]", "Black decodes."]
    g.guess(other(first[BLACK]))
    # [DE-6] A wrong decode: a miscommunication token.
    assert "Black miscommunicates" in main(t)
    t.press("#")

    # Round 2 [DE-2]: each team's second player encrypts; [DE-8] new codes.
    assert main(t).splitlines()[1:5] == ["White: Player 2", "Black: Player 2", "White: int 0, mis 0",
                                         "Black: int 0, mis 1"]
    second = g.codes()
    assert all(second[seat] != first[seat] for seat in (WHITE, BLACK))
    secrets_stay_home(t, second)
    done(t, "team2")
    assert main(t).splitlines()[0] == "[White: finish clues!]"
    heard = len(t.sounds)
    t.advance(12)
    done(t, "team1")                         # in time: the sand is put away
    t.advance(30)
    assert "timeup" not in t.sounds[heard:]
    # [DE-5] The opponents intercept first, then the team decodes.
    assert main(t).splitlines()[:2] == ["[Round 2: White code]", "Black intercepts."]
    g.guess(second[WHITE])
    assert main(t).splitlines()[1:3] == ["Black intercepts:", dashed(second[WHITE])]   # said, not judged
    t.press("#")
    assert main(t).splitlines()[:3] == ["[Round 2: White code]", "White decodes.",
                                        f"Black said {dashed(second[WHITE])}"]
    g.guess(second[WHITE])
    assert main(t).splitlines()[3] == "Black intercepts!"     # [DE-6] no reward for White's right decode
    t.press("#")
    g.guess(other(second[BLACK]))
    g.guess(second[BLACK])
    assert "No tokens." in main(t)                           # [DE-6] no penalty for a missed interception
    t.press("#")
    assert "White: int 0, mis 0" in main(t) and "Black: int 1, mis 1" in main(t)

    # Round 3: back to each team's first player; Black intercepts again.
    assert main(t).splitlines()[1:3] == ["White: Player 1", "Black: Player 1"]
    third = g.codes()
    g.clues()
    g.guess(third[WHITE])
    g.guess(third[WHITE])
    # [DE-8] The game is decided only after both codes: Black's is still played.
    assert "Black intercepts!" in main(t)
    t.press("#")
    assert main(t).splitlines()[:2] == ["[Round 3: Black code]", "White intercepts."]
    g.guess(other(third[BLACK]))
    g.guess(third[BLACK])
    t.press("#")
    # [DE-1] Two interceptions win.
    assert main(t).splitlines()[:3] == ["[Black wins!]", "Black intercepted", "twice."]
    assert t.screen("team1").splitlines()[0] == "[Black wins!]" == t.screen("team2").splitlines()[0]
    assert "hold:code" not in t.screen("team1") + t.screen("team2")
    t.press("D")
    assert f"QR {t.box.public_url()}" in t.screen()
    [game] = t.log()
    assert game["status"] == "finished" and game["winners"] == ["Black"] and game["reason"] == "interceptions"
    assert game["totals"] == {"White": 0, "Black": 1}      # Black: 2 interceptions, 1 miscommunication
    assert [r["encryptors"] for r in game["rounds"]] == [{"White": 1, "Black": 1}, {"White": 2, "Black": 2},
                                                         {"White": 1, "Black": 1}]
    # After the reveal Black's page keeps White's round-1 clues under their keyword numbers.
    sheet = team_page(t, BLACK)
    assert "Mexico" in page_text(sheet)


def test_DE2_DE4_named_players_without_the_sand_timer_and_own_cards_white_miscommunicates_twice(t):
    g = Game(t, members=[["Alice", "Bob", "Carol"], ["Dan", "Eve", "Finn", "Gus"]], keywords="cards",
             timer=False)
    # [DE-2] Named in the order they sit, the encryptors are named as they rotate.
    assert main(t).splitlines()[1:3] == ["White: Alice", "Black: Dan"]
    assert "Your own keyword cards. Alice encrypts." in " ".join(t.screen("team1").splitlines()[1:])
    t.down("team1")
    t.advance(0.7)
    assert "Alice only!" in t.screen("team1")
    t.up("team1")
    assert "encryptor: Alice" in page_text(team_page(t, WHITE))
    codes = g.codes()
    done(t, "team1")
    assert main(t).splitlines()[1:3] == ["White: Alice done", "Black: Dan"]
    # [DE-4] No sand timer: Black writes as long as it takes.
    t.advance(300)
    assert t.box.remaining() is None and "timeup" not in t.sounds and "finish clues" not in main(t)
    done(t, "team2")
    g.guess(other(codes[WHITE]))             # White decodes wrong
    t.press("#")
    g.guess(codes[BLACK])
    t.press("#")
    assert "White: int 0, mis 1" in main(t) and "Black: int 0, mis 0" in main(t)
    for number, white, black in ((2, "Bob", "Eve"), (3, "Carol", "Finn")):
        assert main(t).splitlines()[:3] == [f"[Round {number}: encryptors]", f"White: {white}", f"Black: {black}"]
        g.round()
    assert main(t).splitlines()[1:3] == ["White: Alice", "Black: Gus"]
    g.round(miscommunicated=(WHITE,))
    # [DE-1] Two miscommunications lose.
    assert main(t).splitlines()[:3] == ["[Black wins!]", "White miscommunicated", "twice."]
    [game] = t.log()
    assert game["reason"] == "miscommunications" and game["winners"] == ["Black"]
    assert game["members"] == {"White": ["Alice", "Bob", "Carol"], "Black": ["Dan", "Eve", "Finn", "Gus"]}
    assert game["totals"] == {"White": -2, "Black": 0}


def test_DE9_nothing_decided_after_eight_rounds_the_score_breaks_the_tie(t):
    g = Game(t)
    g.round()
    g.round(intercepted=(BLACK,))            # White intercepts Black's code
    for _ in range(3, 8):
        g.round()
    assert main(t).splitlines()[0] == "[Round 8: encryptors]"
    g.round(miscommunicated=(BLACK,))
    # [DE-9] Nobody won or lost after round 8: a tie, White 1 against Black -1.
    assert main(t).splitlines()[:3] == ["[White wins!]", "Tie after 8 rounds.", "Score 1:-1."]
    [game] = t.log()
    assert (game["reason"], game["tie"], game["winners"]) == ("score", "round_limit", ["White"])
    assert game["totals"] == {"White": 1, "Black": -1} and len(game["rounds"]) == 8
    page = page_text(ok(t, f"/g/{game['id']}"))
    # The page says the end in the box's words, and the tie-break's rule beside it.
    assert "★ White wins Tie after 8 rounds. Score 1:-1." in page
    assert "goes to interceptions minus miscommunications, then to keywords guessed" in page


def test_DE9_both_second_interceptions_in_one_round_level_score_and_keywords_share_the_win(t):
    g = Game(t)
    g.round()
    g.round(intercepted=(WHITE, BLACK))
    g.round(intercepted=(WHITE, BLACK))
    # [DE-9] Both got their 2nd interception in round 3: a tie at 2:2, so
    # each team guesses the other's keywords and types how many were right.
    assert main(t).splitlines()[:5] == ["[Tie, int-mis 2:2]", "Keywords of the other", "team guessed right:",
                                        "> White: _", "Black: _"]
    t.type("3#")
    assert main(t).splitlines()[3:5] == ["White: 3", "> Black: _"]
    t.type("3#")
    assert main(t).splitlines()[:2] == ["[Both teams win!]", "Tie: both at 2"]
    [game] = t.log()
    assert (game["reason"], game["tie"]) == ("shared", "both_interceptions")
    assert game["winners"] == ["White", "Black"] and game["keywords_guessed"] == {"White": 3, "Black": 3}
    page = page_text(ok(t, f"/g/{game['id']}"))
    assert "★ White and Black share the win Tie: both at 2 interceptions. Score 2:2. Keywords 3:3." in page


def test_DE10_hacker_game_set_up_on_the_keys_the_hacker_wins_in_round_3(t):
    t.press("1")
    for _ in range(9):
        t.press("1")
    # [DE-10] One encryptor has nobody to wait for: no sand timer to choose.
    assert main(t).splitlines()[1:3] == ["1 Hacker alone v 2", "Hacker wins on 2 int."]
    t.press("D")
    assert main(t).splitlines()[1] == "2 Keywords: English"
    t.press("#")
    assert main(t).splitlines()[:4] == ["[Round 1: encryptors]", "Team: Player 1", "Hacker tokens: 0 of 2",
                                        "Round 1 of 5"]
    assert t.screen("team1").splitlines()[0] == "[Hacker, round 1/5]"
    codes = {TEAM: peek(t, TEAM)}
    for word in keywords(t, TEAM):
        assert word not in t.screen("team1") + t.screen("main")
    done(t, "team2")
    assert t.box.remaining() is None
    # [DE-7] The Hacker does not intercept in round 1.
    assert main(t).splitlines()[:2] == ["[Round 1: Team code]", "Team decodes."]
    t.type(codes[TEAM] + "#")
    t.press("#")
    # Round 2 [DE-2]: the Team's second player; the Hacker intercepts.
    assert main(t).splitlines()[1] == "Team: Player 2"
    codes = {TEAM: peek(t, TEAM)}
    done(t, "team2")
    assert main(t).splitlines()[:2] == ["[Round 2: Team code]", "Hacker intercepts."]
    t.type(codes[TEAM] + "#" + codes[TEAM] + "#")
    assert "Hacker intercepts!" in main(t)
    t.press("#")
    assert "Tokens: 1 of 2" in t.screen("team1")
    # Round 3: the Team decodes wrong: no miscommunication, the Hacker's 2nd token.
    codes = {TEAM: peek(t, TEAM)}
    done(t, "team2")
    t.type(other(codes[TEAM]) + "#" + other(codes[TEAM]) + "#")
    assert "Team fails: Hacker +1" in main(t)
    t.press("#")
    assert main(t).splitlines()[:3] == ["[Hacker wins!]", "Hacker intercepted", "twice."]
    [game] = t.log()
    # The log says what decided it: the Hacker's race to 2 against the
    # Team's to 5 rounds [DE-10].
    assert game["reason"] == "interceptions" and game["winners"] == ["Hacker"]
    assert game["goals"] == {"Hacker": 2, "Team": 5}
    assert game["totals"] == {"Hacker": 2, "Team": 2}
    assert [r["scores"] for r in game["rounds"]] == [{"Hacker": 0, "Team": 1}, {"Hacker": 1, "Team": 1},
                                                     {"Hacker": 1, "Team": 0}]
    # The score sheet: no miscommunication for the Team, the Hacker's token instead.
    page = page_text(ok(t, f"/g/{game['id']}"))
    wrong = dashed(other(codes[TEAM]))
    code, wrong = dashed(codes[TEAM]).replace("-", "\u2011"), wrong.replace("-", "\u2011")   # codes never break (25.2)
    assert f"Team {code}: decoded wrong ({wrong}): Hacker +1, intercept missed ({wrong})" in page
    assert "miscommunication" not in page.replace("Miscommunications", "")
    # Each side's total beside its goal: 2 of 2 interceptions beat 2 of 5 rounds.
    assert "Total 2/2 2/5" in page
    assert "★ Hacker 2/2 Team 2/5" in page_text(ok(t, "/"))


def test_DE11_typed_clues_the_box_can_read_keep_the_clue_rules(t):
    g = Game(t)
    white = keywords(t, WHITE)
    # [DE-11] Never a keyword as a clue, whatever its case.
    status, _, body = send(t, WHITE, (white[1].upper(), "insect", "fear"))
    assert status == 400 and "Clue 1 is one of your keywords." in page_text(body)
    status, _, body = send(t, WHITE, ("Mexico", "insect", " mexico "))
    assert status == 400 and "Clue 3 repeats clue 1." in page_text(body)
    assert send(t, WHITE, ("Mexico", "insect", "fear"))[0] == 303
    # Black's words are Black's own business: White's clue may be one of them.
    assert send(t, BLACK, (keywords(t, WHITE)[0] + " cake", "Prague", "violin"))[0] == 303
    g.round()
    # [DE-11] No clue twice a game: White's Mexico of round 1 is spent ...
    status, _, body = send(t, WHITE, ("amigo", "MEXICO", "olive"))
    assert status == 400 and "Clue 2 was given in round 1." in page_text(body)
    # ... for White only: Black may say it.
    assert send(t, BLACK, ("Mexico", "ladder", "fork"))[0] == 303
    assert send(t, WHITE, ("amigo", "wings", "olive"))[0] == 303
    g.round()
    [game] = t.log()
    assert game["rounds"][1]["clues"] == {"White": ["amigo", "wings", "olive"], "Black": ["Mexico", "ladder", "fork"]}


def test_DE5_DE6_rulebook_example_bob_sends_4_2_1_then_amigo_gives_the_4_away_at_the_table():
    # The rulebook's example: White's keywords are 1 black, 2 dragonfly,
    # 3 cocktail, 4 sombrero, on the table's own cards; Bob encrypts first
    # and draws 4-2-1 (this seed deals it).
    with Table(seed=104, lang="en") as t:
        Game(t, members=[["Bob", "Alice", "Carol"], ["Dan", "Eve"]], keywords="cards")
        assert main(t).splitlines()[1] == "White: Bob"
        t.down("team1")
        t.advance(0.7)
        assert t.screen("team1").splitlines()[1:3] == ["4-2-1", "Bob only!"]
        t.up("team1")
        black_code = peek(t, BLACK)
        # Bob's clues Mexico, insect, fear, typed on White's page.
        assert send(t, WHITE, ("Mexico", "insect", "fear"))[0] == 303
        done(t, "team1")
        done(t, "team2")
        # Mexico → 4 sombrero, insect → 2 dragonfly, fear → 1 black: White says 4-2-1.
        t.type("421#")
        assert main(t).splitlines()[:4] == ["[Round 1: White 4-2-1]", "White: 4-2-1 right", "No tokens.",
                                            "#:Next C:Help D:Codes"]
        t.type(black_code + "##")
        # From now on Black's page knows that 4 goes with Mexico.
        black = team_page(t, BLACK)
        assert sheet_row(1, (4, 2, 1), ("Mexico", "insect", "fear")) in black
        # Round 2: Alice draws 4-3-2 and says "amigo" for sombrero; Black
        # links amigo to Mexico and intercepts.
        assert main(t).splitlines()[1] == "White: Alice"
        assert peek(t, WHITE) == "432"
        assert send(t, WHITE, ("amigo", "martini", "wings"))[0] == 303
        done(t, "team1")
        done(t, "team2")
        t.type("432#432#")
        assert main(t).splitlines()[:5] == ["[Round 2: White 4-3-2]", "Black: 4-3-2 right", "White: 4-3-2 right",
                                            "Black intercepts!", "#:Next C:Help D:Codes"]
        black = team_page(t, BLACK)
        assert sheet_row(2, (4, 3, 2), ("amigo", "martini", "wings")) in black
        assert t.log()[0]["rounds"][1]["tokens"]["Black"] == {"interceptions": 1, "miscommunications": 0}
