"""Decrypto at the virtual table: keys, the three screens, the clue timer,
power cuts and undo, played the way a table plays it [DE-1]..[DE-11]."""
from __future__ import annotations

import json
import re

import pytest

from games import decrypto
from games.base import clock_text
from referee.testing import Table


def done(t, team):
    """A team's clues are written: two short presses of its button [DE-4]."""
    t.press(team)
    t.press(team)

SEATS = ("team1", "team2")
WHITE, BLACK = 0, 1
HACKER, TEAM = 0, 1
BIG_CODE = re.compile(r"^(\d)-(\d)-(\d)$", re.M)


def peek(t: Table, seat: int) -> str:
    """The code on the team's screen while its button is held, as "321":
    what the encryptor reads."""
    button = SEATS[seat]
    t.down(button)
    t.advance(0.7)
    shown = t.screen(button)
    t.up(button)
    found = BIG_CODE.search(shown)
    assert found, shown
    return "".join(found.groups())


def dashed(code: str) -> str:
    return "-".join(code)


def digits(code: str) -> list[int]:
    """A code as the score log lists it."""
    return [int(d) for d in code]


def other(code: str) -> str:
    """A code that is not ``code``."""
    return "123" if code != "123" else "124"


def main(t: Table) -> str:
    """The main screen without the passing message and the line of what
    was last done (tested in test_explains.py)."""
    return "\n".join(line for line in t.page("main").splitlines() if not line.startswith("»"))


def screens(t: Table) -> dict[str, str]:
    return {"main": main(t), "team1": t.screen("team1"), "team2": t.screen("team2")}


def hidden_seats(t: Table) -> list[int]:
    """The teams whose code is drawn and not revealed yet."""
    state = t.box.session.state
    if state.tie is not None or decrypto.is_over(state):
        return []
    return [seat for seat in state.coding
            if state.codes[seat] is not None and all(x.team != seat for x in state.reveals)]


def hidden_codes(t: Table) -> dict[int, str]:
    """Every code not revealed yet, read as its encryptor reads it."""
    return {seat: peek(t, seat) for seat in hidden_seats(t)}


def undo(t: Table) -> None:
    t.hold("*", 1.0)
    assert "Undo?" in t.screen()
    t.press("#")
    assert "! Undone." in t.screen()


class Game:
    """A game played through keys and team buttons only."""

    def __init__(self, t: Table, **options) -> None:
        t.start("decrypto", **options)
        self.t = t
        self.coding = (TEAM,) if options.get("variant") == "hacker" else (WHITE, BLACK)

    @property
    def round_number(self) -> int:
        return int(re.search(r"round (\d)", self.t.screen(SEATS[self.coding[0]])).group(1))

    def codes(self) -> dict[int, str]:
        return {seat: peek(self.t, seat) for seat in self.coding}

    def clues(self) -> None:
        for seat in self.coding:
            done(self.t, SEATS[seat])

    def guess(self, code: str) -> None:
        self.t.type(code + "#")

    def round(self, intercepted=(), miscommunicated=()) -> dict[int, str]:
        """One round: the codes of the seats in ``intercepted`` are
        intercepted, those in ``miscommunicated`` decoded wrong.  The next
        guess's first digit moves on from a reveal; after the last, ``#``."""
        codes = self.codes()
        intercepting = self.round_number > 1
        self.clues()
        for seat in self.coding:
            code = codes[seat]
            if intercepting:
                self.guess(code if seat in intercepted else other(code))
            self.guess(other(code) if seat in miscommunicated else code)
        self.t.press("#")
        return codes


@pytest.fixture
def t():
    with Table(seed=7, lang="en") as table:
        yield table


# --- setup ------------------------------------------------------------------------------

def test_DE11_setup_from_the_main_menu_then_the_clue_rules_in_play(t):
    t.press("1")
    assert "1 White 2 v 2 Black" in t.screen() and "2 Keywords: English" in t.screen()
    t.press("C")
    assert "Help 1/19" in t.screen()   # the rules, the keys, the game's words, then How to play's QR code
    t.press("D")
    assert "Help 2/19" in t.screen()
    t.press("*")
    t.press("1")                     # 3 v 2
    t.press("2")                     # Czech words
    assert "1 White 3 v 2 Black" in t.screen() and "2 Keywords: Czech" in t.screen()
    t.press("#")
    options = t.box.session.options
    assert set(options) <= set(decrypto.OPTIONS)
    assert {k: v for k, v in options.items() if k != "exclude"} == {
        "variant": "teams", "keywords": "box", "sizes": (3, 2), "lang": "cs", "timer": True}
    czech = set(decrypto.words("cs"))
    for button in SEATS:
        words = [line.split(" ", 1)[1] for line in t.screen(button).splitlines()[1:5]]
        assert len(words) == 4 and set(words) <= czech
    # [DE-11] While the clues are written: the phase and its keys, then the
    # clue rules, a page at a time, from C during the game.
    t.press("C")
    pages = [main(t)]
    count = int(re.search(r"\[Help 1/(\d+)\]", pages[0]).group(1))   # then the page's words [issue 43]
    for _ in range(count - 1):
        t.press("D")
        pages.append(main(t))
    for line in decrypto.CLUE_RULES:
        assert sum(line in page for page in pages) == 1, line
    assert "[Rules]" in pages[-1] and "QR HTTP://" in pages[-1]   # the last page: How to play, on a phone
    assert sum("Hold *: undo, menu" in page for page in pages) == 1   # with the page's keys, once
    t.press("D")
    assert main(t) == pages[0]
    t.press("*")
    assert "Round 1: encryptors" in t.screen()


def test_setup_defaults_to_the_box_language_and_offers_the_hacker_and_own_cards():
    with Table(seed=1, lang="pl") as t:
        t.press("1")
        assert "2 Słowa: polskie" in t.screen()        # the box speaks Polish
        for _ in range(9):
            t.press("1")
        assert "1 Haker sam na 2" in t.screen()
        t.press("2")
        t.press("2")
        assert "2 Słowa: własne karty" in t.screen()
        t.press("#")
        assert t.box.session.options == {"variant": "hacker", "keywords": "cards"}
        # The first page's hint covers the encryptor's row until the first key: the page beneath it.
        assert "Drużyna: Gracz 1" in t.page() and "A:" not in t.screen()
        assert "Własne karty słów" in t.screen("team2") and "Haker" in t.screen("team1")


def test_DE3_a_code_shows_only_on_its_team_screen_while_the_button_is_held(t):
    Game(t)
    t.down("team1")
    assert not BIG_CODE.search(t.screen("team1"))       # not yet a hold
    t.advance(0.7)
    white = "".join(BIG_CODE.search(t.screen("team1")).groups())
    assert "Player 1 only!" in t.screen("team1")
    assert "White: Player 1\nBlack: Player 1" in t.screen("main")   # the default name as every page writes it
    assert dashed(white) not in t.screen("main") + t.screen("team2")
    t.up("team1")
    assert dashed(white) not in t.screen("team1") and "hold:code" in t.screen("team1")
    assert "White: Player 1 done" not in t.screen()     # a hold is not "done"
    done(t, "team1")
    done(t, "team2")
    t.type("123#")
    assert f"Round 1: White {dashed(white)}" in t.screen()   # the code the encryptor saw
    assert "hold:code" not in t.screen("team1")
    t.down("team1")
    t.advance(0.7)
    assert not BIG_CODE.search(t.screen("team1"))       # revealed: nothing left to peek at
    t.up("team1")


def test_DE4_first_team_done_gives_the_other_exactly_30_seconds(t):
    Game(t)
    done(t, "team2")
    for screen in ("main", "team1", "team2"):
        assert "0:30" in t.screen(screen)
    assert "White: finish clues!" in t.screen()
    assert "press:done" in t.screen("team1") and "press:done" not in t.screen("team2")
    t.advance(29.999)
    assert "0:01" in t.screen() and "0:01" in t.screen("team1")
    assert "timeup" not in t.sounds
    t.advance(0.001)
    assert t.sounds == ["tick"] * 5 + ["timeup"]
    assert "Time up: stop writing" in t.screen() and "White decodes." in t.screen()
    assert "0:00" not in t.screen("team1")
    done(t, "team1")                                  # too late
    assert "! The clues are already in." in t.screen()


def test_DE4_the_table_may_play_without_the_sand_timer(t):
    t.press("1")
    t.press("D")
    assert "3 Timer: 30 s" in t.screen()
    t.press("3")
    assert "3 Timer: off" in t.screen()
    t.press("#")
    assert t.box.session.options["timer"] is False
    done(t, "team1")
    assert "White: Player 1 done" in main(t) and "Black: Player 1" in main(t)
    assert t.box.remaining() is None and "0:30" not in t.screen("team2")
    t.advance(120)                    # no sand: Black writes as long as it takes
    assert "timeup" not in t.sounds and "Round 1: encryptors" in main(t)
    assert "press:done" in t.screen("team2")
    done(t, "team2")
    assert main(t).splitlines()[:2] == ["[Round 1: White code]", "White decodes."]


def test_DE4_a_peek_let_go_too_soon_never_ends_the_writing(t):
    Game(t)
    t.press("team1")                  # the encryptor meant to peek and let go at once
    assert t.box.session.state.clues_done == (False, False)
    assert t.screen("team1").splitlines()[0] == "[Done? Press again]"
    assert "press:done wait:no" in t.screen("team1") and "0:30" not in t.screen("team2")
    assert "White: Player 1 done" not in main(t)
    t.advance(2.0)                    # not pressed again: the question goes
    assert t.screen("team1").splitlines()[0] == "[White, round 1]"
    t.press("team1")
    t.advance(0.3)
    t.down("team1")                   # a peek in between: held, so no second press
    t.advance(0.7)
    assert BIG_CODE.search(t.screen("team1"))
    t.up("team1")
    assert t.box.session.state.clues_done == (False, False)
    t.advance(0.2)
    t.press("team1")                  # the second short press within 2 s: done
    assert t.box.session.state.clues_done == (True, False)
    assert "Black: finish clues!" in main(t) and "0:30" in t.screen("team2")
    assert "Done?" not in t.screen("team1") and "press:done" not in t.screen("team1")


def test_DE4_DE5_DE6_DE7_two_rounds_on_screen_and_in_the_log(t):
    g = Game(t)
    t.press("D")
    assert "No code revealed yet." in t.screen()
    t.press("*")
    first = g.codes()
    done(t, "team1")
    t.advance(5)
    done(t, "team2")                # [DE-4] both done in time: no alarm
    t.advance(60)
    assert "timeup" not in t.sounds and "tick" not in t.sounds
    # [DE-7] Round 1: no interception, each team decodes its own code.
    assert main(t).splitlines()[:2] == ["[Round 1: White code]", "White decodes."]
    assert "Time up" not in t.screen()
    g.guess(first[WHITE])
    t.press("#")
    assert main(t).splitlines()[:2] == ["[Round 1: Black code]", "Black decodes."]
    g.guess(first[BLACK])
    t.press("#")
    t.press("D")                    # the codes revealed so far
    assert f"[Round 1: White {dashed(first[WHITE])}]" in t.screen()
    t.press("D")
    assert f"[Round 1: Black {dashed(first[BLACK])}]" in t.screen()
    t.press("*")
    codes = g.codes()
    g.clues()
    # [DE-5] From round 2 the opponents intercept first, then the team decodes.
    assert main(t).splitlines()[:2] == ["[Round 2: White code]", "Black intercepts."]
    g.guess(codes[WHITE])
    # The interception has its page, as a decode has its result: said, not judged.
    assert main(t).splitlines()[:5] == ["[Round 2: White code]", "Black intercepts:", dashed(codes[WHITE]),
                                        "Now White decodes its", "own code."]
    t.press("#")
    assert main(t).splitlines()[:3] == [
        "[Round 2: White code]", "White decodes.", f"Black said {dashed(codes[WHITE])}"]
    g.guess(other(codes[WHITE]))
    # [DE-6] Black's interception and White's miscommunication on one code.
    assert main(t).splitlines()[:5] == [
        f"[Round 2: White {dashed(codes[WHITE])}]",
        f"Black: {dashed(codes[WHITE])} right",
        f"White: {dashed(other(codes[WHITE]))} wrong",
        "Black intercepts!",
        "White miscommunicates",
    ]
    assert t.log()[0]["rounds"][1]["codes"] == {"White": digits(codes[WHITE])}   # Black's is secret
    t.press("#")
    assert main(t).splitlines()[:2] == ["[Round 2: Black code]", "White intercepts."]
    g.guess(other(codes[BLACK]))
    t.press("#")
    assert main(t).splitlines()[:3] == [
        "[Round 2: Black code]", "Black decodes.", f"White said {dashed(other(codes[BLACK]))}"]
    g.guess(codes[BLACK])
    assert "No tokens." in t.screen()         # a missed interception costs nothing
    t.press("#")
    # Each team's tokens beside its name (25.2).
    assert "White: int 0, mis 1" in t.screen() and "Black: int 1, mis 0" in t.screen()
    entry = t.log()[0]
    assert entry["status"] == "playing" and entry["players"] == ["White", "Black"]
    assert entry["rounds"] == [{
        "round": 1, "encryptors": {"White": 1, "Black": 1},
        "codes": {"White": digits(first[WHITE]), "Black": digits(first[BLACK])},
        "guesses": {"White": {"intercept": None, "decode": digits(first[WHITE])},
                    "Black": {"intercept": None, "decode": digits(first[BLACK])}},
        "tokens": {"White": {"interceptions": 0, "miscommunications": 0},
                   "Black": {"interceptions": 0, "miscommunications": 0}},
        "scores": {"White": 0, "Black": 0},
    }, {
        "round": 2, "encryptors": {"White": 2, "Black": 2},
        "codes": {"White": digits(codes[WHITE]), "Black": digits(codes[BLACK])},
        "guesses": {"White": {"intercept": digits(codes[WHITE]), "decode": digits(other(codes[WHITE]))},
                    "Black": {"intercept": digits(other(codes[BLACK])), "decode": digits(codes[BLACK])}},
        "tokens": {"White": {"interceptions": 0, "miscommunications": 1},
                   "Black": {"interceptions": 1, "miscommunications": 0}},
        "scores": {"White": -1, "Black": 1},
    }]
    assert entry["totals"] == {"White": -1, "Black": 1} and entry["winners"] == []


def white_intercepts_twice(g: Game) -> None:
    """A game to its end: White intercepts Black's code in rounds 2 and 3 [DE-1]."""
    g.round()
    g.round(intercepted={BLACK})
    g.round(intercepted={BLACK})


def test_DE1_two_interceptions_win(t):
    g = Game(t)
    g.round()
    g.round(intercepted={BLACK})
    assert "Round 3: encryptors" in t.screen()
    g.round(intercepted={BLACK})
    assert main(t).splitlines()[:3] == ["[White wins!]", "White intercepted", "twice."]
    assert t.log()[0]["winners"] == ["White"] and t.log()[0]["status"] == "finished"


def test_DE9_two_interceptions_against_two_miscommunications_is_a_plain_win(t):
    g = Game(t)
    g.round(miscommunicated={BLACK})
    g.round(intercepted={BLACK})
    g.round(intercepted={BLACK}, miscommunicated={BLACK})
    assert main(t).splitlines()[:2] == ["[White wins!]", "White intercepted"]
    assert t.log()[0]["winners"] == ["White"] and "tie" not in t.log()[0]   # no tie to tell


def test_DE9_both_second_interceptions_in_one_round_score_decides(t):
    g = Game(t)
    g.round(miscommunicated={WHITE})
    g.round(intercepted={WHITE, BLACK})
    g.round(intercepted={WHITE, BLACK})
    assert main(t).splitlines() == ["[Black wins!]", "Tie: both at 2", "interceptions.", "Score 1:2.",
                                    "C:◄ D:► #:Menu"]
    assert t.log()[0]["winners"] == ["Black"] and t.log()[0]["tie"] == "both_interceptions"


def test_DE9_both_second_miscommunications_in_one_round_keywords_decide(t):
    g = Game(t)
    g.round(miscommunicated={WHITE, BLACK})
    g.round(miscommunicated={WHITE, BLACK})
    assert "[Tie, int-mis -2:-2]" in t.screen() and "> White: _" in t.screen()
    t.type("5#")
    assert "! Count 0 to 4 keywords." in t.screen() and "> White: _" in t.screen()
    t.type("3#")
    assert "White: 3" in t.screen() and "> Black: _" in t.screen()
    t.type("1#")
    assert main(t).splitlines()[:5] == [
        "[White wins!]", "Tie: both at 2", "miscommunications.", "Score -2:-2.", "Keywords 3:1."]
    entry = t.log()[0]
    assert entry["winners"] == ["White"] and entry["keywords_guessed"] == {"White": 3, "Black": 1}


def test_DE9_a_team_with_two_of_each_token_and_equal_counts_share_the_win(t):
    g = Game(t)
    g.round(miscommunicated={WHITE})
    g.round(intercepted={BLACK})
    g.round(intercepted={BLACK}, miscommunicated={WHITE})
    assert "[Tie, int-mis 0:0]" in t.screen()
    t.type("2#")
    t.type("2#")
    assert main(t).splitlines()[:5] == ["[Both teams win!]", "Tie: White has 2 of", "each token.",
                                        "Score 0:0.", "Keywords 2:2."]
    assert t.log()[0]["winners"] == ["White", "Black"]


def test_DE2_DE8_DE9_eight_rounds_rotate_encryptors_and_draw_fresh_codes_then_tie(t):
    g = Game(t, sizes=(3, 2))
    drawn, encryptors = [], []
    for n in range(8):
        assert "wins!" not in t.screen()
        encryptors.append(re.findall(r"(White|Black): Player (\d)", main(t)))
        drawn.append(g.round(intercepted={BLACK} if n == 1 else ()))
    assert main(t).splitlines()[:3] == ["[White wins!]", "Tie after 8 rounds.", "Score 1:0."]
    # [DE-2] Three Whites and two Blacks take turns.
    assert [[(team, int(n)) for team, n in pairs] for pairs in encryptors] == [
        [("White", w), ("Black", b)] for w, b in ((1, 1), (2, 2), (3, 1), (1, 2), (2, 1), (3, 2), (1, 1), (2, 2))]
    assert [r["encryptors"] for r in t.log()[0]["rounds"]][:3] == [
        {"White": 1, "Black": 1}, {"White": 2, "Black": 2}, {"White": 3, "Black": 1}]
    # [DE-8] No team draws the code it had the round before.
    for before, after in zip(drawn, drawn[1:]):
        assert before[WHITE] != after[WHITE] and before[BLACK] != after[BLACK]


def test_DE10_hacker_intercepts_from_round_two_and_scores_failed_decodes(t):
    g = Game(t, variant="hacker")
    code = peek(t, TEAM)
    done(t, "team1")
    assert "! The Hacker writes no clues." in t.screen()
    done(t, "team2")
    assert "Team decodes." in t.screen() and "0:" not in t.screen()    # no clue timer
    g.guess(other(code))
    assert "Team fails: Hacker +1" in t.screen()
    t.press("#")
    assert "Round 2: encryptors" in t.screen() and "Hacker tokens: 1 of 2" in t.screen()
    assert "Tokens: 1 of 2" in t.screen("team1")
    code = peek(t, TEAM)
    done(t, "team2")
    assert main(t).splitlines()[:2] == ["[Round 2: Team code]", "Hacker intercepts."]
    g.guess(code)
    g.guess(code)
    assert "Hacker intercepts!" in t.screen()
    t.press("#")
    assert main(t).splitlines()[:2] == ["[Hacker wins!]", "Hacker intercepted"]
    assert t.log()[0]["winners"] == ["Hacker"]


def test_DE10_the_team_wins_after_five_rounds(t):
    g = Game(t, variant="hacker")
    g.round(miscommunicated={TEAM})
    for _ in range(4):
        g.round()
    assert main(t).splitlines()[:3] == ["[Team wins!]", "The Team held out for", "5 rounds."]
    # [DE-10] the log shows the race that decided it: not "Hacker 1, Team 0, winner Team"
    [game] = t.log()
    assert len(game["rounds"]) == 5 and game["totals"] == {"Hacker": 1, "Team": 5}
    assert game["winners"] == ["Team"] and game["reason"] == "rounds"
    assert game["goals"] == {"Hacker": 2, "Team": 5}
    assert [r["scores"] for r in game["rounds"]][:2] == [{"Hacker": 1, "Team": 1}, {"Hacker": 0, "Team": 1}]
    status, _, page = t.get(f"/g/{game['id']}")
    assert status == 200 and "The Team held out for 5 rounds." in page   # as the box's result page says it
    status, _, evening = t.get("/")
    assert re.search(r'winner.*Team</span> <span class="pts">5/5<', evening)   # the total beside its goal


# --- the box's side of it ------------------------------------------------------------------

def test_DE5_invalid_guesses_are_refused_and_nothing_is_recorded(t):
    g = Game(t)
    g.round()
    g.clues()
    before, log = main(t), t.log()
    for typed in ("125", "121", "12", "", "052"):
        t.type(typed + "#")
        assert "! Three different digits from 1 to 4, please." in t.screen() and t.sounds[-1] == "error"
        assert main(t) == before and t.log() == log
    t.type("1234")                  # a fourth digit does not fit
    assert "> 1-2-3" in t.screen() and t.sounds[-1] == "error"
    t.press("*")
    assert "> _-_-_" in t.screen()


def test_a_team_swaps_one_dealt_keyword_before_the_first_clues(t):
    Game(t)
    white = t.screen("team1")
    black = t.screen("team2").splitlines()
    t.press("A")
    assert main(t).splitlines()[:3] == ["[Who swaps a keyword?]", "1 White", "2 Black"]
    t.press("2")
    assert "[Black swaps a word]" in t.screen() and "[Swap which? 1-4]" in t.screen("team2")
    t.press("3")
    assert "! Black swapped word 3." in t.screen()
    new = t.screen("team2").splitlines()
    assert new[3].startswith("3 ") and new[3] != black[3]
    assert new[:3] + new[4:] == black[:3] + black[4:] and t.screen("team1") == white
    assert new[3][2:] not in t.screen() + t.screen("team1")
    t.press("A")                        # only White may still swap: straight to its word
    assert "[White swaps a word]" in t.screen()
    t.press("*")
    done(t, "team1")                    # the first clues are done: too late
    assert "A:" not in t.screen()
    before = screens(t)
    t.press("A")
    assert screens(t) == before


def test_DE1_two_miscommunications_lose_and_the_end_pages_through_result_qr_and_codes(t):
    g = Game(t)
    first = g.round(miscommunicated={BLACK})
    second = g.round(miscommunicated={BLACK})
    assert main(t).splitlines()[:3] == ["[White wins!]", "Black miscommunicated", "twice."]
    assert t.log()[0]["winners"] == ["White"] and t.log()[0]["totals"] == {"White": 0, "Black": -2}
    assert "done" in t.sounds
    assert "[White wins!]" in t.screen("team1") and "[White wins!]" in t.screen("team2")
    t.press("D")
    assert f"QR {t.box.public_url()}" in t.screen() and "Scan for" in t.screen()
    pages = []
    for _ in range(4):
        t.press("D")
        pages.append(main(t).splitlines()[0])
    assert pages == [f"[Round 1: White {dashed(first[WHITE])}]", f"[Round 1: Black {dashed(first[BLACK])}]",
                     f"[Round 2: White {dashed(second[WHITE])}]", f"[Round 2: Black {dashed(second[BLACK])}]"]
    t.press("D")
    assert "[White wins!]" in t.screen()
    t.press("C")
    assert pages[-1] in t.screen()
    t.press("#")
    assert "1 Decrypto" in t.screen()


# --- secrecy, power cuts, undo ----------------------------------------------------------------

def test_secrets_never_reach_main_the_other_team_or_the_log(t):
    """A whole seeded game: after every action, no keyword is anywhere but on
    its own team's screen, and no code shows before it is revealed."""
    g = Game(t)
    checked = []

    def check():
        state = t.box.session.state
        entry = t.log()[0]
        log = json.dumps(entry, ensure_ascii=False)
        said = {tuple(code) for r in entry["rounds"] for code in r["codes"].values()}
        said |= {tuple(guess[k]) for r in entry["rounds"] for guess in r["guesses"].values()
                 for k in ("intercept", "decode") if guess[k]}
        said.add(state.intercept)                   # an interception announced aloud
        for word in state.dealt:
            assert not re.search(rf"\b{re.escape(word)}\b", t.screen("main") + log, re.I), word
        for seat in (WHITE, BLACK):
            for word in set(state.dealt) - set(state.keywords[seat]):
                assert not re.search(rf"\b{re.escape(word)}\b", t.screen(SEATS[seat]), re.I), word
            code = state.codes[seat]
            if code in said or decrypto.is_over(state) or any(x.team == seat for x in state.reveals):
                continue
            shown = dashed("".join(map(str, code)))
            assert shown not in t.screen("main") + t.screen("team1") + t.screen("team2")
            checked.append(shown)

    check()
    t.type("A12")                                  # Black swaps its 2nd word
    check()
    while not decrypto.is_over(t.box.session.state):
        intercepting = g.round_number > 1
        wrong = g.round_number > 1                 # White miscommunicates from round 2
        codes = g.codes()
        check()
        for seat in g.coding:
            done(t, SEATS[seat])
            check()
        for seat in g.coding:
            if intercepting:
                g.guess(other(codes[seat]))
                check()
            g.guess(other(codes[seat]) if wrong and seat == WHITE else codes[seat])
            check()
            t.press("#")
            check()
        t.press("D")                                # the score pages too
        check()
        t.press("*")
    assert len(checked) > 20


def test_power_cut_after_every_step_resumes_with_the_same_code(t):
    g = Game(t)
    drawn = {}      # (round, seat): the code as first read

    def cut():
        since_press = t.box.remaining()
        t.advance(3)                    # the passing message fades; the page is saved
        number = t.box.session.state.round
        for seat in hidden_seats(t):
            if (number, seat) not in drawn:
                drawn[number, seat] = peek(t, seat)
        before = screens(t)
        if since_press is not None and t.box.remaining() is not None:
            # A running countdown writes nothing while it runs: it comes back
            # from the last press that moved it, the seconds since then again.
            ran = clock_text(t.box.remaining())
            before = {name: text.replace(ran, clock_text(since_press)) for name, text in before.items()}
        t.restart()
        assert screens(t) == before
        for seat, code in hidden_codes(t).items():
            assert drawn[number, seat] == code

    cut()
    t.press("A")
    cut()
    t.press("1")
    cut()
    t.press("4")                        # White swaps its 4th word
    cut()
    # Round 1: the timer runs out on Black; both teams miscommunicate.
    codes = g.codes()
    done(t, "team1")
    cut()
    assert "Black: finish clues!" in t.screen() and "0:2" in t.screen()
    t.advance(30)
    cut()
    for seat in (WHITE, BLACK):
        g.guess(other(codes[seat]))
        cut()
        t.press("#")
        cut()
    # Round 2: both done in time, interceptions typed across a cut, then a tie.
    codes = g.codes()
    done(t, "team2")
    done(t, "team1")
    cut()
    for seat in (WHITE, BLACK):
        t.type(other(codes[seat])[:2])
        cut()
        t.type(other(codes[seat])[2] + "#")
        cut()
        g.guess(other(codes[seat]))
        cut()
        t.press("#")
        cut()
    assert "> White: _" in t.screen()
    t.type("3#")
    cut()
    t.type("3#")
    assert "Both teams win!" in t.screen()
    cut()
    t.press("D")                        # the score log's QR code
    cut()
    t.press("#")
    assert "1 Decrypto" in t.screen() and t.log()[0]["winners"] == ["White", "Black"]


def test_undo_takes_back_every_kind_of_step(t):
    g = Game(t)

    def undone(act):
        """``act`` changes the screens; undo brings them and the secret codes
        back; acting again shows the same."""
        t.advance(3)
        before, codes = screens(t), hidden_codes(t)
        act()
        after = screens(t)
        assert after != before
        undo(t)
        t.advance(3)
        assert screens(t) == before and hidden_codes(t) == codes
        act()
        assert screens(t) == after

    undone(lambda: t.type("A12"))                              # a keyword swap
    codes = g.codes()
    undone(lambda: done(t, "team1"))                           # clues done: the timer starts
    undo(t)
    t.advance(40)                                              # no timer left behind
    assert "Round 1: encryptors" in t.screen() and "timeup" not in t.sounds
    g.clues()
    undone(lambda: g.guess(other(codes[WHITE])))               # a decode
    t.press("#")
    undone(lambda: g.guess(other(codes[BLACK])))               # a decode that ends the round
    t.press("#")
    codes = g.codes()
    g.clues()
    undone(lambda: g.guess(other(codes[WHITE])))               # an interception
    g.guess(other(codes[WHITE]))
    t.press("#")
    g.guess(other(codes[BLACK]))
    t.press("#")                                               # the interception read
    undone(lambda: g.guess(other(codes[BLACK])))               # the decode that makes a tie
    t.press("#")
    undone(lambda: t.type("2#"))                               # a keyword count
    undone(lambda: t.type("1#"))                               # the count that ends the game
    assert "[White wins!]" in t.screen()


def test_each_team_scans_its_own_page_from_its_own_screen(t):
    import zxingcpp
    t.start("decrypto")
    t.press("B")
    urls = []
    for button in SEATS:
        found = [r.text for r in zxingcpp.read_barcodes(t.image(button).convert("L"))]
        assert len(found) == 1 and "/T/" in found[0]
        urls.append(found[0])
        assert found[0] not in t.screen("main")
    assert urls[0] != urls[1]
    assert "QR" not in t.screen("main")
    t.press("*")
    assert "encryptors" in t.screen("main")
    status, _headers, body = t.get(urls[1].split("8080", 1)[1])
    assert status == 200


def test_DE4_an_undone_done_gives_back_the_clue_time_left(t):
    # Black is done, White is done 10 s later; a minute of talk, then the
    # table takes back White's done: White has its 20 s again.
    Game(t)
    done(t, "team2")
    t.advance(10)
    done(t, "team1")
    t.advance(60)
    undo(t)
    assert "0:20" in t.screen() and "White: finish clues!" in t.screen()
    assert "timeup" not in t.sounds
    t.advance(19.5)
    assert "timeup" not in t.sounds
    t.advance(0.6)
    assert t.sounds[-1] == "timeup"
