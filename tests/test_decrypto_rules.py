"""Decrypto's rules [DE-1]..[DE-11], at the level of the game module."""
from __future__ import annotations

import json
import random
import unicodedata
from importlib import resources
from types import MappingProxyType
from typing import Mapping

import msgspec
import pytest

from games import base
from games import decrypto as d
from games.base import Illegal, Pick, Picked, Shuffle, Shuffled, TimerExpired
from games.decrypto import Clues, CluesDone, Guess, KeywordsGuessed, Step, SwapKeyword

WHITE, BLACK = 0, 1
HACKER, TEAM = 0, 1


def c(digits: str) -> tuple[int, ...]:
    """A code as the table says it: "421" is 4, 2, 1."""
    return tuple(int(x) for x in digits)


def other_than(code: str) -> str:
    """Some code that is not ``code``."""
    return "123" if code != "123" else "124"


class Game:
    """A game driven by hand; every event goes through ``apply``."""

    def __init__(self, **options) -> None:
        options.setdefault("keywords", "cards")
        self.options = options
        self.state = d.setup(options)
        self.events: list[tuple[object, float]] = []
        self.at = 1000.0

    def __call__(self, event, at: float | None = None) -> None:
        at = self.at if at is None else at
        self.state = d.apply(self.state, event, at)
        self.events.append((event, at))

    @property
    def step(self) -> Step:
        return d.step(self.state)

    def draw(self, codes: dict[int, str]) -> None:
        for team, code in codes.items():
            self(Picked(f"code:{team}", c(code)))

    def clues(self) -> None:
        for team in self.state.coding:
            self(CluesDone(team))

    def play_round(self, codes: dict[int, str], decode: Mapping[int, str] = MappingProxyType({}),
                   intercept: Mapping[int, str] = MappingProxyType({})) -> None:
        """One round.  ``codes``, ``decode`` and ``intercept`` are keyed by
        whose code it is; a team decodes right and the rival intercepts
        wrong unless told otherwise."""
        self.draw(codes)
        self.clues()
        for team, code in codes.items():
            if self.state.round > 1:
                self(Guess(self.step.team, c(intercept.get(team, other_than(code)))))
            self(Guess(team, c(decode.get(team, code))))


def tokens(state) -> tuple[list[int], list[int]]:
    view = d.public(state)
    return view.interceptions, view.miscommunications


def quiet_rounds(g: Game, count: int) -> None:
    """Rounds where nothing happens: all decoded, nothing intercepted."""
    for _ in range(count):
        g.play_round({t: ("432", "431")[g.state.round % 2] for t in g.state.coding})


# --- setup -------------------------------------------------------------------------------

def test_setup_defaults_deal_keywords_and_draw_both_codes():
    state = d.setup({})
    view = d.public(state)
    assert (view.variant, view.sizes, view.deal, view.lang) == ("teams", [2, 2], "box", "en")
    assert view.teams == ["White", "Black"] and view.round == 1
    shuffle, *picks = d.requests(state)
    assert shuffle == Shuffle("keywords", d.words("en"))
    assert [p.purpose for p in picks] == ["code:0", "code:1"]
    assert d.step(state).kind == "deal" and d.timer(state) is None and not d.is_over(state)


@pytest.mark.parametrize("options", [
    {"variant": "duel"},
    {"sizes": (1, 2)},
    {"sizes": (2, 5)},
    {"sizes": (2, 2, 2)},
    {"sizes": ("2", "2")},
    {"variant": "hacker", "sizes": (2, 2)},
    {"keywords": "memory"},
    {"lang": "de"},
    {"exclude": (1, 2)},
    {"players": 4},
])
def test_bad_options_are_refused_in_a_sentence(options):
    with pytest.raises(Illegal) as refused:
        d.setup(options)
    assert str(refused.value).endswith(".")


def test_options_read_back_from_json_lists_are_accepted():
    state = d.setup(json.loads(json.dumps({"sizes": (3, 4), "exclude": ("anchor",)})))
    assert state.sizes == (3, 4) and "anchor" not in state.pool


def test_cards_mode_deals_nothing_and_asks_only_for_codes():
    g = Game(keywords="cards")
    assert [r.purpose for r in d.requests(g.state)] == ["code:0", "code:1"]
    g.draw({WHITE: "123", BLACK: "432"})
    assert d.private(g.state, WHITE).keywords == [] and g.step == Step("clues", waiting=(0, 1))
    with pytest.raises(Illegal, match="own keyword cards"):
        g(SwapKeyword(WHITE, 1))


# --- keywords ----------------------------------------------------------------------------

def dealt_game(**options) -> Game:
    g = Game(keywords="box", **options)
    (shuffle,) = [r for r in d.requests(g.state) if isinstance(r, Shuffle)]
    g(Shuffled("keywords", tuple(reversed(shuffle.items))))
    return g


def test_keywords_white_takes_the_first_four_black_the_next_four():
    g = dealt_game()
    order = tuple(reversed(d.words("en")))
    assert d.private(g.state, WHITE).keywords == list(order[0:4])
    assert d.private(g.state, BLACK).keywords == list(order[4:8])
    assert g.state.dealt == order[:8]


def test_keywords_a_shuffle_must_be_of_the_offered_words():
    g = Game(keywords="box")
    words = list(d.words("en"))
    with pytest.raises(Illegal):
        g(Shuffled("keywords", tuple(words[1:] + ["anchor"])))
    with pytest.raises(Illegal):
        g(Shuffled("cards", tuple(words)))
    assert g.state.order is None


def test_keywords_dealt_earlier_tonight_are_left_out():
    first = dealt_game(lang="cs")
    second = Game(keywords="box", lang="cs", exclude=first.state.dealt)
    assert not set(first.state.dealt) & set(second.state.pool)
    assert len(second.state.pool) == len(d.words("cs")) - 8


def test_keywords_start_over_from_the_whole_list_when_too_few_remain():
    words = d.words("pl")
    nine_left = Game(keywords="box", lang="pl", exclude=words[:-9])
    assert nine_left.state.pool == words
    ten_left = Game(keywords="box", lang="pl", exclude=words[:-10])
    assert ten_left.state.pool == words[-10:]
    five_left = Game(keywords="box", lang="pl", variant="hacker", exclude=words[:-5])
    assert five_left.state.pool == words[-5:]


def test_keywords_swap_takes_the_next_unused_word_once_per_team():
    g = dealt_game()
    order = g.state.order
    g(SwapKeyword(BLACK, 2))
    assert d.private(g.state, BLACK).keywords == [order[4], order[8], order[6], order[7]]
    g(SwapKeyword(WHITE, 4))
    assert d.private(g.state, WHITE).keywords == [*order[0:3], order[9]]
    assert g.state.dealt == order[:10] and d.public(g.state).swapped == [True, True]
    with pytest.raises(Illegal, match="one keyword at most"):
        g(SwapKeyword(WHITE, 1))


def test_keywords_swap_only_before_the_first_clues_are_done():
    g = dealt_game()
    g.draw({WHITE: "123", BLACK: "124"})
    assert d.can_swap(g.state, WHITE)
    g(CluesDone(BLACK))
    assert not d.can_swap(g.state, WHITE)
    with pytest.raises(Illegal, match="before the first clues"):
        g(SwapKeyword(WHITE, 1))


@pytest.mark.parametrize("position", [0, 5, "1"])
def test_keywords_swap_needs_a_position_from_1_to_4(position):
    g = dealt_game()
    with pytest.raises(Illegal, match="from 1 to 4"):
        g(SwapKeyword(WHITE, position))
    assert not g.state.swapped[WHITE]


def test_keywords_swap_waits_for_the_deal():
    g = Game(keywords="box")
    with pytest.raises(Illegal, match="not dealt"):
        g(SwapKeyword(WHITE, 1))


# --- [DE-1] goal ----------------------------------------------------------------------------

def test_DE1_second_interception_wins():
    g = Game()
    quiet_rounds(g, 1)
    g.play_round({WHITE: "123", BLACK: "341"}, intercept={BLACK: "341"})
    assert not d.is_over(g.state) and tokens(g.state)[0] == [1, 0]
    g.play_round({WHITE: "124", BLACK: "342"}, intercept={BLACK: "342"})
    assert d.is_over(g.state) and g.step == Step("over")
    assert d.public(g.state).result == d.Result((WHITE,), d.Reason.INTERCEPTIONS, tie=None)
    assert d.summary(g.state).winners == ["White"]


def test_DE1_second_miscommunication_loses():
    g = Game()
    g.play_round({WHITE: "123", BLACK: "341"}, decode={WHITE: "132"})
    g.play_round({WHITE: "124", BLACK: "342"}, decode={WHITE: "421"})
    assert d.public(g.state).result == d.Result((BLACK,), d.Reason.MISCOMMUNICATIONS, tie=None)
    assert d.summary(g.state).status == "finished"


# --- [DE-2] encryptor ------------------------------------------------------------------------

def test_DE2_encryptor_rotates_through_each_team():
    g = Game(sizes=(2, 3))
    seen = []
    for _ in range(4):
        seen.append(d.public(g.state).encryptors)
        quiet_rounds(g, 1)
    assert seen == [[1, 1], [2, 2], [1, 3], [2, 1]]
    assert [r.encryptors for r in d.summary(g.state).rounds][2] == {"White": 1, "Black": 3}


# --- [DE-3] codes -----------------------------------------------------------------------------

def test_DE3_the_deck_is_all_24_codes_of_three_distinct_digits():
    picks = [r for r in d.requests(Game().state) if isinstance(r, Pick)]
    for pick in picks:
        assert len(pick.options) == len(set(pick.options)) == 24
        assert all(len(code) == 3 == len(set(code)) and set(code) <= {1, 2, 3, 4} for code in pick.options)


def test_DE3_a_team_sees_its_own_keywords_only_and_the_code_stays_with_the_encryptor():
    g = dealt_game()
    g.draw({WHITE: "421", BLACK: "123"})
    white, black = d.private(g.state, WHITE), d.private(g.state, BLACK)
    assert g.state.codes == (c("421"), c("123"))
    assert set(white.keywords).isdisjoint(black.keywords)
    assert white.encryptor == 1
    # The code is for the encryptor alone, on the team's screen on demand:
    # no view holds it, not even the team's own (its page shows all of it).
    for view in (white, black, d.public(g.state)):
        assert b"[4,2,1]" not in msgspec.json.encode(view) and b"[1,2,3]" not in msgspec.json.encode(view)
    with pytest.raises(Illegal):
        d.private(g.state, 2)


def test_DE3_a_code_outside_the_deck_is_refused():
    g = Game()
    for bad in [(1, 1, 2), (1, 2, 5), "123"]:
        with pytest.raises(Illegal):
            g(Picked("code:0", bad))
    with pytest.raises(Illegal):
        g(Picked("code:7", (1, 2, 3)))
    assert g.state.codes == (None, None)


# --- [DE-4] clues and timer -----------------------------------------------------------------

def test_DE4_first_encryptor_done_starts_the_30_second_timer():
    g = Game()
    g.draw({WHITE: "123", BLACK: "234"})
    assert g.step == Step("clues", waiting=(0, 1)) and d.timer(g.state) is None
    g(CluesDone(BLACK), at=50.0)
    assert d.timer(g.state) == base.Countdown.start("clues", 30, 50.0)
    assert g.step == Step("clues", waiting=(0,))
    assert d.public(g.state).clues_deadline == 80.0


def test_DE4_second_encryptor_in_time_ends_the_timer_and_guessing_begins():
    g = Game()
    g.draw({WHITE: "123", BLACK: "234"})
    g(CluesDone(WHITE), at=50.0)
    g(CluesDone(BLACK), at=71.5)
    assert d.timer(g.state) is None
    assert g.step == Step("decode", team=WHITE, of_team=WHITE)
    with pytest.raises(Illegal):
        g(TimerExpired("clues"))


def test_DE4_time_up_stops_the_late_encryptor_and_guessing_begins():
    g = Game()
    g.draw({WHITE: "123", BLACK: "234"})
    g(CluesDone(WHITE), at=50.0)
    g(TimerExpired("clues"), at=80.0)
    assert d.timer(g.state) is None and d.public(g.state).clues_done == [True, False]
    assert g.step.kind == "decode"
    with pytest.raises(Illegal, match="already in"):
        g(CluesDone(BLACK))


def test_DE4_without_the_sand_timer_the_clues_are_in_when_both_are_done():
    g = Game(timer=False)
    g.draw({WHITE: "123", BLACK: "234"})
    g(CluesDone(BLACK), at=50.0)
    assert d.timer(g.state) is None and g.step == Step("clues", waiting=(0,))
    assert d.public(g.state).timer is False and d.public(g.state).clues_deadline is None
    g(CluesDone(WHITE), at=500.0)
    assert g.step == Step("decode", team=WHITE, of_team=WHITE)
    with pytest.raises(Illegal, match="true or false"):
        d.setup({"timer": "yes"})


def test_DE4_clues_wait_for_the_codes_and_are_done_once():
    g = Game()
    with pytest.raises(Illegal, match="not drawn"):
        g(CluesDone(WHITE))
    g.draw({WHITE: "123", BLACK: "234"})
    g(CluesDone(WHITE))
    with pytest.raises(Illegal, match="already done"):
        g(CluesDone(WHITE))
    with pytest.raises(Illegal, match="still being written"):
        g(Guess(WHITE, c("123")))


# --- [DE-5] order of a round ----------------------------------------------------------------

def test_DE5_white_code_then_black_interception_before_decoding():
    g = Game()
    quiet_rounds(g, 1)
    g.draw({WHITE: "314", BLACK: "241"})
    g.clues()
    steps = []
    for team, guess in [(BLACK, "314"), (WHITE, "314"), (WHITE, "123"), (BLACK, "241")]:
        steps.append(g.step)
        g(Guess(team, c(guess)))
    assert steps == [Step("intercept", team=BLACK, of_team=WHITE), Step("decode", team=WHITE, of_team=WHITE),
                     Step("intercept", team=WHITE, of_team=BLACK), Step("decode", team=BLACK, of_team=BLACK)]
    assert d.summary(g.state).rounds[1].codes == {"White": [3, 1, 4], "Black": [2, 4, 1]}


def test_DE5_a_guess_out_of_turn_is_refused():
    g = Game()
    quiet_rounds(g, 1)
    g.draw({WHITE: "314", BLACK: "241"})
    g.clues()
    with pytest.raises(Illegal, match="Black intercepts first"):
        g(Guess(WHITE, c("314")))
    g(Guess(BLACK, c("123")))
    with pytest.raises(Illegal, match="Now White decodes"):
        g(Guess(BLACK, c("314")))
    assert d.public(g.state).intercept == [1, 2, 3]


def test_DE5_the_reveal_shows_code_and_both_guesses():
    g = Game()
    quiet_rounds(g, 1)
    g.draw({WHITE: "314", BLACK: "241"})
    g.clues()
    g(Guess(BLACK, c("314")))
    g(Guess(WHITE, c("134")))
    assert d.public(g.state).last == d.Reveal(WHITE, code=c("314"), intercept=c("314"), decode=c("134"),
                                              intercepted=True, miscommunicated=True)


# --- [DE-6] tokens -----------------------------------------------------------------------------

def test_DE6_interception_and_miscommunication_on_one_code():
    g = Game()
    quiet_rounds(g, 1)
    g.play_round({WHITE: "314", BLACK: "241"}, intercept={WHITE: "314"}, decode={WHITE: "143"})
    assert tokens(g.state) == ([0, 1], [1, 0])
    assert d.summary(g.state).rounds[1].scores == {"White": -1, "Black": 1}


def test_DE6_no_penalty_for_a_failed_interception_no_reward_for_a_right_decode():
    g = Game()
    quiet_rounds(g, 1)
    g.play_round({WHITE: "314", BLACK: "241"}, intercept={WHITE: "321", BLACK: "124"})
    assert tokens(g.state) == ([0, 0], [0, 0])


def test_DE6_an_interception_needs_the_digits_in_the_right_order():
    g = Game()
    quiet_rounds(g, 1)
    g.play_round({WHITE: "314", BLACK: "241"}, intercept={WHITE: "413", BLACK: "241"})
    assert tokens(g.state) == ([1, 0], [0, 0])


# --- [DE-7] round 1 ---------------------------------------------------------------------------

def test_DE7_nobody_intercepts_in_round_1():
    g = Game()
    g.draw({WHITE: "123", BLACK: "234"})
    g.clues()
    assert g.step == Step("decode", team=WHITE, of_team=WHITE)
    with pytest.raises(Illegal, match="Nobody intercepts in round 1"):
        g(Guess(BLACK, c("123")))
    g(Guess(WHITE, c("123")))
    assert g.step == Step("decode", team=BLACK, of_team=BLACK)
    g(Guess(BLACK, c("234")))
    assert d.summary(g.state).rounds[0].guesses["White"].intercept is None


# --- [DE-8] end of round ----------------------------------------------------------------------

def test_DE8_the_next_draw_leaves_out_the_previous_code():
    g = Game()
    g.play_round({WHITE: "421", BLACK: "123"})
    picks = {p.purpose: p.options for p in d.requests(g.state)}
    assert len(picks["code:0"]) == len(picks["code:1"]) == 23
    assert c("421") not in picks["code:0"] and c("123") in picks["code:0"]
    assert c("123") not in picks["code:1"] and c("421") in picks["code:1"]
    with pytest.raises(Illegal, match="not in the deck"):
        g(Picked("code:0", c("421")))


def test_DE8_never_the_same_code_twice_in_a_row_over_many_seeded_games():
    rounds_seen = 0
    for seed in range(150):
        _, states = random_game(seed, keywords="cards", variant=("teams", "hacker")[seed % 5 == 0])
        codes = [r.codes for r in d.summary(states[-1]).rounds]
        for before, after in zip(codes, codes[1:]):
            rounds_seen += 1
            assert all(before[team] != after[team] for team in after)
    assert rounds_seen > 300


def test_DE8_the_game_is_decided_only_after_both_codes():
    g = Game()
    quiet_rounds(g, 1)
    g.play_round({WHITE: "124", BLACK: "342"}, intercept={WHITE: "124"})
    g.draw({WHITE: "123", BLACK: "341"})
    g.clues()
    g(Guess(BLACK, c("123")))
    g(Guess(WHITE, c("123")))
    assert tokens(g.state)[0] == [0, 2] and not d.is_over(g.state)
    assert g.step == Step("intercept", team=WHITE, of_team=BLACK)
    g(Guess(WHITE, c("124")))
    g(Guess(BLACK, c("341")))
    assert d.summary(g.state).winners == ["Black"]


# --- [DE-9] ties ------------------------------------------------------------------------------

def test_DE9_two_interceptions_against_two_miscommunications_is_a_plain_win():
    g = Game()
    quiet_rounds(g, 1)
    g.play_round({WHITE: "124", BLACK: "342"}, intercept={BLACK: "342"}, decode={BLACK: "324"})
    g.play_round({WHITE: "123", BLACK: "341"}, intercept={BLACK: "341"}, decode={BLACK: "314"})
    assert tokens(g.state) == ([2, 0], [0, 2])
    assert g.state.result == d.Result((WHITE,), "interceptions")
    assert d.summary(g.state).winners == ["White"]


def test_DE9_tie_when_a_team_holds_two_of_each_token_broken_by_score():
    g = Game()
    quiet_rounds(g, 1)
    g.play_round({WHITE: "124", BLACK: "342"}, intercept={BLACK: "342"}, decode={WHITE: "421"})
    g.play_round({WHITE: "123", BLACK: "341"}, intercept={BLACK: "341", WHITE: "123"}, decode={WHITE: "321"})
    assert tokens(g.state) == ([2, 1], [2, 0])
    assert g.state.result == d.Result((BLACK,), "score", "both_tokens")
    assert d.summary(g.state).winners == ["Black"] and d.summary(g.state).tie == "both_tokens"


def test_DE9_tie_when_both_get_their_second_miscommunication_in_one_round():
    g = Game()
    g.play_round({WHITE: "124", BLACK: "342"}, decode={WHITE: "421", BLACK: "243"})
    g.play_round({WHITE: "123", BLACK: "341"}, intercept={WHITE: "123"}, decode={WHITE: "321", BLACK: "143"})
    assert tokens(g.state) == ([0, 1], [2, 2])
    assert g.state.result == d.Result((BLACK,), "score", "both_miscommunications")


def test_DE9_tie_when_both_get_their_second_interception_in_one_round():
    g = Game()
    quiet_rounds(g, 1)
    both = {WHITE: "124", BLACK: "342"}
    g.play_round(both, intercept=both, decode={BLACK: "243"})
    assert tokens(g.state) == ([1, 1], [0, 1])
    both = {WHITE: "123", BLACK: "341"}
    g.play_round(both, intercept=both)
    assert g.state.result == d.Result((WHITE,), "score", "both_interceptions")


def test_DE9_tie_after_eight_rounds_broken_by_the_keywords_guessed():
    g = Game()
    quiet_rounds(g, 7)
    assert g.state.round == 8 and not d.is_over(g.state)
    quiet_rounds(g, 1)
    assert not d.is_over(g.state) and d.requests(g.state) == ()
    assert g.step == Step("tiebreak", waiting=(0, 1)) and d.public(g.state).tie == "round_limit"
    g(KeywordsGuessed(BLACK, 3))
    assert g.step == Step("tiebreak", waiting=(0,))
    g(KeywordsGuessed(WHITE, 1))
    assert g.state.result == d.Result((BLACK,), "keywords", "round_limit")
    assert d.summary(g.state).keywords_guessed == {"White": 1, "Black": 3}
    assert d.summary(g.state).winners == ["Black"]


def test_DE9_tie_still_equal_after_the_keywords_is_a_shared_win():
    g = Game()
    quiet_rounds(g, 1)
    both = {WHITE: "124", BLACK: "342"}
    g.play_round(both, intercept=both)
    g.play_round({WHITE: "123", BLACK: "341"}, intercept={WHITE: "123", BLACK: "341"})
    assert g.step.kind == "tiebreak"
    g(KeywordsGuessed(WHITE, 2))
    g(KeywordsGuessed(BLACK, 2))
    assert g.state.result == d.Result((WHITE, BLACK), "shared", "both_interceptions")
    assert d.summary(g.state).winners == ["White", "Black"]


def test_DE9_keyword_counts_are_0_to_4_once_each_and_only_in_a_tie():
    g = Game()
    with pytest.raises(Illegal, match="break a tie"):
        g(KeywordsGuessed(WHITE, 2))
    quiet_rounds(g, 8)
    for bad in (-1, 5, "2"):
        with pytest.raises(Illegal, match="0 to 4"):
            g(KeywordsGuessed(WHITE, bad))
    g(KeywordsGuessed(WHITE, 4))
    with pytest.raises(Illegal, match="given its count"):
        g(KeywordsGuessed(WHITE, 3))
    assert g.state.keywords_guessed == (4, None)


def test_DE9_a_win_in_round_8_is_no_tie():
    g = Game()
    g.play_round({WHITE: "124", BLACK: "342"}, decode={BLACK: "243"})
    quiet_rounds(g, 6)
    g.play_round({WHITE: "123", BLACK: "341"}, decode={BLACK: "143"})
    assert g.state.round == 8 and g.state.result == d.Result((WHITE,), "miscommunications")


# --- [DE-10] three players -----------------------------------------------------------------------

def test_DE10_one_code_per_round_and_the_hacker_intercepts_from_round_2():
    g = Game(variant="hacker")
    assert [r.purpose for r in d.requests(g.state)] == ["code:1"]
    assert d.public(g.state).teams == ["Hacker", "Team"] and d.public(g.state).encryptors == [None, 1]
    g.draw({TEAM: "123"})
    assert g.step == Step("clues", waiting=(1,))
    with pytest.raises(Illegal, match="Hacker writes no clues"):
        g(CluesDone(HACKER))
    g(CluesDone(TEAM))
    assert d.timer(g.state) is None
    assert g.step == Step("decode", team=TEAM, of_team=TEAM)
    g(Guess(TEAM, c("123")))
    assert g.state.round == 2 and d.public(g.state).encryptors == [None, 2]
    g.draw({TEAM: "234"})
    g.clues()
    assert g.step == Step("intercept", team=HACKER, of_team=TEAM)


def test_DE10_a_failed_decode_is_the_hackers_interception_not_a_miscommunication():
    g = Game(variant="hacker")
    g.play_round({TEAM: "123"}, decode={TEAM: "132"})
    assert tokens(g.state) == ([1, 0], [0, 0])
    assert d.summary(g.state).totals == {"Hacker": 1, "Team": 1}   # [DE-10] the Team held round 1


def test_DE10_the_hacker_wins_with_two_interceptions_by_round_5():
    g = Game(variant="hacker")
    quiet_rounds(g, 3)
    g.play_round({TEAM: "341"}, intercept={TEAM: "341"})
    assert not d.is_over(g.state)
    g.play_round({TEAM: "342"}, decode={TEAM: "324"})
    assert g.state.round == 5 and g.state.result == d.Result((HACKER,), "interceptions")
    assert d.summary(g.state).winners == ["Hacker"]


def test_DE10_the_team_wins_when_round_5_ends_without_two_interceptions():
    g = Game(variant="hacker")
    quiet_rounds(g, 4)
    g.play_round({TEAM: "341"}, intercept={TEAM: "341"})
    assert g.state.result == d.Result((TEAM,), "rounds")
    assert d.summary(g.state).winners == ["Team"] and len(d.summary(g.state).rounds) == 5


def test_DE10_interception_and_failed_decode_on_one_code_are_two_tokens():
    g = Game(variant="hacker")
    quiet_rounds(g, 1)
    g.play_round({TEAM: "341"}, intercept={TEAM: "341"}, decode={TEAM: "314"})
    assert tokens(g.state) == ([2, 0], [0, 0]) and d.summary(g.state).winners == ["Hacker"]


def test_DE10_the_hacker_has_no_keywords_and_the_team_swaps_once():
    g = dealt_game(variant="hacker")
    assert d.private(g.state, HACKER).keywords == [] and g.state.codes[HACKER] is None
    assert d.private(g.state, TEAM).keywords == list(g.state.order[:4])
    with pytest.raises(Illegal, match="Hacker has no keywords"):
        g(SwapKeyword(HACKER, 1))
    g(SwapKeyword(TEAM, 3))
    assert d.private(g.state, TEAM).keywords[2] == g.state.order[4]


# --- [DE-11] clue rules -------------------------------------------------------------------------

def test_DE11_the_clue_rules_fit_the_help_screen():
    assert len(d.CLUE_RULES) >= 8
    assert all(0 < len(line) <= 21 for line in d.CLUE_RULES)
    text = " ".join(d.CLUE_RULES).lower()
    for rule in ("meaning", "spelling", "letter", "position", "sound", "public", "write", "twice", "keyword",
                 "translation"):
        assert rule in text


# --- the rulebook's example -----------------------------------------------------------------------

def test_rulebook_example_bob_sends_4_2_1_and_white_decodes_it():
    # White's keywords: 1 black, 2 dragonfly, 3 cocktail, 4 sombrero; Bob's clues
    # Mexico, insect, fear point at 4, 2, 1.  Nobody intercepts in round 1.
    g = Game(keywords="cards")
    g.draw({WHITE: "421", BLACK: "132"})
    g.clues()
    g(Guess(WHITE, c("421")))
    assert d.public(g.state).last.code == c("421")
    assert tokens(g.state) == ([0, 0], [0, 0])
    # Later "amigo" points at sombrero again: Black knows that 4 goes with Mexico.
    g(Guess(BLACK, c("132")))
    g.play_round({WHITE: "423", BLACK: "214"}, intercept={WHITE: "423"})
    assert tokens(g.state) == ([0, 1], [0, 0])


# --- the clue tape: clues typed on the team page -------------------------------------------------

MEXICO = ("Mexico", "insect", "fear")   # Bob's clues in the rulebook's example
AMIGO = ("amigo", "wings", "olive")


def typing_game() -> Game:
    g = Game()
    g.draw({WHITE: "421", BLACK: "132"})
    return g


def shown_anywhere(state, clues) -> set[str]:
    """Those of ``clues`` that public() or summary() shows."""
    seen = strings(msgspec.to_builtins([d.public(state), d.summary(state)]))
    return set(clues) & seen


def test_rulebook_example_bobs_typed_clues_go_under_keywords_4_2_1():
    # Mexico for 4 sombrero, insect for 2 dragonfly, fear for 1 black.
    g = typing_game()
    g(Clues(WHITE, MEXICO))
    g.clues()
    assert d.public(g.state).clues[WHITE] == list(MEXICO)     # read out, in order
    assert d.public(g.state).notes[WHITE] == []               # where they go is not known yet
    g(Guess(WHITE, c("421")))
    sheet = [{"round": 1, "clues": ["fear", "insect", None, "Mexico"]}]
    assert msgspec.to_builtins(d.public(g.state).notes[WHITE]) == sheet
    # Later "amigo" lands under 4 beside Mexico: Black can tell 4 was sent again.
    g(Guess(BLACK, c("132")))
    g.draw({WHITE: "423", BLACK: "214"})
    g(Clues(WHITE, AMIGO))
    g.clues()
    g(Guess(BLACK, c("123")))
    g(Guess(WHITE, c("423")))
    rows = [*sheet, {"round": 2, "clues": [None, "wings", "olive", "amigo"]}]
    assert msgspec.to_builtins(d.public(g.state).notes[WHITE]) == rows
    assert [row[3] for _, row in d.notesheet(g.state, WHITE)] == ["Mexico", "amigo"]
    assert d.summary(g.state).notes == {"White": rows, "Black": []}


def test_typed_clues_are_the_teams_secret_until_read_out():
    g = typing_game()
    g(Clues(WHITE, MEXICO))
    g(Clues(BLACK, AMIGO))
    assert d.private(g.state, WHITE).own_clues == list(MEXICO)
    assert d.private(g.state, BLACK).own_clues == list(AMIGO)
    assert not set(MEXICO) & strings(msgspec.to_builtins(d.private(g.state, BLACK)))
    assert not set(AMIGO) & strings(msgspec.to_builtins(d.private(g.state, WHITE)))
    assert not shown_anywhere(g.state, MEXICO + AMIGO)
    assert d.public(g.state).typed == [True, True]            # that they are typed is no secret
    assert d.summary(g.state).rounds == []


def test_DE5_clues_are_read_out_when_their_code_is_guessed_white_then_black():
    g = Game()
    quiet_rounds(g, 1)
    g.draw({WHITE: "314", BLACK: "241"})
    g(Clues(WHITE, MEXICO))
    g(Clues(BLACK, AMIGO))
    g(CluesDone(WHITE))
    assert not shown_anywhere(g.state, MEXICO + AMIGO)           # still writing
    g(CluesDone(BLACK))
    assert g.step == Step("intercept", team=BLACK, of_team=WHITE)
    assert d.clues_read(g.state, WHITE) and not d.clues_read(g.state, BLACK)
    assert d.public(g.state).clues == [list(MEXICO), None]
    assert shown_anywhere(g.state, MEXICO + AMIGO) == set(MEXICO)
    assert d.summary(g.state).rounds[-1] == d.RoundLog(
        round=2, encryptors={"White": 2, "Black": 2}, codes={}, guesses={},
        tokens={"White": d.Tokens(0, 0), "Black": d.Tokens(0, 0)},
        scores={"White": 0, "Black": 0}, clues={"White": list(MEXICO)})
    g(Guess(BLACK, c("123")))
    g(Guess(WHITE, c("314")))
    assert g.step == Step("intercept", team=WHITE, of_team=BLACK)
    assert d.public(g.state).clues == [list(MEXICO), list(AMIGO)]
    assert d.summary(g.state).rounds[-1].clues == {"White": list(MEXICO), "Black": list(AMIGO)}
    g(Guess(WHITE, c("123")))
    g(Guess(BLACK, c("241")))
    assert d.public(g.state).history[-1].clues == [list(MEXICO), list(AMIGO)]
    assert d.public(g.state).clues == [None, None] and d.public(g.state).typed == [False, False]
    assert d.public(g.state).notes[BLACK] == [d.NoteRow(2, ["olive", "amigo", None, "wings"])]


def test_typed_clues_are_trimmed_and_typing_again_replaces_them_until_read():
    g = typing_game()
    g(Clues(WHITE, ("  Mexico ", "insect\u00a0", "\tfear")))
    assert g.state.clues[WHITE] == MEXICO
    g(Clues(WHITE, ("sombrero", "insect", "fear")))
    g.clues()
    assert d.public(g.state).clues[WHITE] == ["sombrero", "insect", "fear"]
    # [DE-5] Read out, they stand; Black's are not read yet and may still change.
    assert not d.can_type_clues(g.state, WHITE) and d.can_type_clues(g.state, BLACK)
    with pytest.raises(Illegal, match="read out"):
        g(Clues(WHITE, MEXICO))
    g(Clues(BLACK, AMIGO))
    g(Clues(BLACK, ("amigo", "wings", "oil")))
    g(Guess(WHITE, c("421")))
    with pytest.raises(Illegal, match="read out"):
        g(Clues(BLACK, AMIGO))
    assert d.public(g.state).clues[BLACK] == ["amigo", "wings", "oil"]


@pytest.mark.parametrize("clues, said", [
    (("", "insect", "fear"), "Clue 1 is empty."),
    (("Mexico", " \u3000 ", "fear"), "Clue 2 is empty."),
    (("Mexico", "insect", "x" * 41), "Clue 3 is too long (limit: 40)."),
    (("Mex\nico", "insect", "fear"), "Clue 1 holds a control character."),
    (("Mexico", "in\tsect", "fear"), "Clue 2 holds a control character."),
    (("Mexico", "insect", "\u202eraef"), "Clue 3 holds a control character."),
    (("Mexico", "in\u2028sect", "fear"), "Clue 2 holds a control character."),
    (("Mexico", "insect"), "Type three clues, one for each digit."),
    (("Mexico", "insect", "fear", "sun"), "Type three clues, one for each digit."),
    ("Mexico", "Type three clues, one for each digit."),
    ((421, "insect", "fear"), "Clue 1 is not text."),
])
def test_a_clue_that_is_empty_too_long_or_not_one_line_is_refused(clues, said):
    g = typing_game()
    g(Clues(WHITE, MEXICO))
    before = g.state
    with pytest.raises(Illegal) as refused:
        g(Clues(WHITE, clues))
    assert str(refused.value) == said
    assert g.state == before


def test_a_clue_is_counted_in_characters_as_they_are_seen():
    g = typing_game()
    g(Clues(WHITE, ("x" * 40, "e\u0301" * 40, "🌮 taco")))          # 40 accented e, typed as e + accent
    assert g.state.clues[WHITE][1] == "\u00e9" * 40


def test_clues_wait_for_the_code_and_the_hacker_types_none():
    g = Game()
    with pytest.raises(Illegal, match="not drawn"):
        g(Clues(WHITE, MEXICO))
    g = Game(variant="hacker")
    g.draw({TEAM: "421"})
    with pytest.raises(Illegal, match="Hacker writes no clues"):
        g(Clues(HACKER, MEXICO))
    with pytest.raises(Illegal, match="no such team"):
        g(Clues(2, MEXICO))
    g(Clues(TEAM, MEXICO))
    g.clues()
    assert d.public(g.state).clues == [None, list(MEXICO)]


def test_no_clues_once_the_game_is_decided_or_in_a_tie_break():
    g = Game()
    quiet_rounds(g, 7)
    g.play_round({WHITE: "124", BLACK: "341"})
    assert g.step.kind == "tiebreak"
    assert not d.can_type_clues(g.state, WHITE)
    with pytest.raises(Illegal, match="all guessed"):
        g(Clues(WHITE, MEXICO))
    g(KeywordsGuessed(WHITE, 1))
    g(KeywordsGuessed(BLACK, 3))
    with pytest.raises(Illegal, match="over"):
        g(Clues(WHITE, MEXICO))
    assert not d.can_type_clues(g.state, BLACK)


def test_untyped_clues_leave_the_sheet_as_it_was():
    g = typing_game()
    g(Clues(BLACK, AMIGO))
    g.clues()
    g(Guess(WHITE, c("421")))
    g(Guess(BLACK, c("132")))
    log = msgspec.to_builtins(d.summary(g.state))
    assert log["rounds"][0]["clues"] == {"Black": list(AMIGO)}
    assert log["notes"] == {"White": [], "Black": [{"round": 1, "clues": ["amigo", "olive", "wings", None]}]}
    quiet_rounds(g, 1)
    assert "clues" not in msgspec.to_builtins(d.summary(g.state).rounds[1])


def test_typed_clues_replay_from_the_stored_events():
    g = typing_game()
    g(Clues(WHITE, (" Mexico", "insect", "fear")))
    g(Clues(WHITE, MEXICO))
    g(Clues(BLACK, AMIGO))
    g.clues()
    g(Guess(WHITE, c("421")))
    stored = json.loads(json.dumps([(base.encode(e), at) for e, at in g.events]))
    again = replay(g.options, [(base.decode(data, d.EVENTS), at) for data, at in stored])
    assert again == g.state
    assert d.public(again).notes[WHITE] == [d.NoteRow(1, ["fear", "insect", None, "Mexico"])]


# --- guesses ----------------------------------------------------------------------------------------

# A phone's JSON may hold lists where digits belong: refused like any other.
@pytest.mark.parametrize("code", [(1, 1, 2), (0, 1, 2), (1, 2, 5), (1, 2), (1, 2, 3, 4), "123", (1.0, 2, 3),
                                  (True, 2, 3), None, 123, [[1], [2], [3]]])
def test_an_invalid_code_is_refused_and_nothing_is_recorded(code):
    g = Game()
    quiet_rounds(g, 1)
    g.draw({WHITE: "314", BLACK: "241"})
    g.clues()
    for team in (BLACK, WHITE):  # the interception, then the decode
        shown = d.public(g.state)
        with pytest.raises(Illegal) as refused:
            g(Guess(team, code))
        assert str(refused.value) == "Three different digits from 1 to 4, please."
        assert d.public(g.state) == shown
        g(Guess(team, c("314")))
    assert tokens(g.state) == ([0, 1], [0, 0])


def test_a_guess_for_no_team_or_after_the_end_is_refused():
    g = Game()
    g.draw({WHITE: "314", BLACK: "241"})
    g.clues()
    with pytest.raises(Illegal, match="no such team"):
        g(Guess(2, c("314")))
    g = Game()
    g.play_round({WHITE: "123", BLACK: "341"}, decode={WHITE: "132"})
    g.play_round({WHITE: "124", BLACK: "342"}, decode={WHITE: "421"})
    with pytest.raises(Illegal, match="over"):
        g(Guess(WHITE, c("123")))


# --- whole games -------------------------------------------------------------------------------------

def random_game(seed: int, **options):
    """A whole game with every random choice from ``random.Random(seed)``,
    the way the service answers requests and players act."""
    rng = random.Random(seed)
    state = d.setup(options)
    events, states = [], [state]
    at = 0.0
    while not d.is_over(state):
        todo = d.requests(state)
        now = d.step(state)
        if todo:
            r = todo[0]
            event = (Picked(r.purpose, rng.choice(r.options)) if isinstance(r, Pick)
                     else Shuffled(r.purpose, tuple(rng.sample(r.items, len(r.items)))))
        elif now.kind == "clues":
            swappers = [t for t in state.coding if d.can_swap(state, t)]
            if swappers and rng.random() < 0.3:
                event = SwapKeyword(rng.choice(swappers), rng.randint(1, 4))
            elif d.timer(state) is not None and rng.random() < 0.3:
                event = TimerExpired("clues")
            else:
                event = CluesDone(rng.choice(now.waiting))
        elif now.kind in ("intercept", "decode"):
            right = state.codes[now.of_team]
            odds = 0.3 if now.kind == "intercept" else 0.8
            event = Guess(now.team, right if rng.random() < odds else rng.choice(d.CODES))
        else:
            event = KeywordsGuessed(rng.choice(now.waiting), rng.randint(0, 4))
        at += rng.uniform(0.5, 20)
        state = d.apply(state, event, at)
        events.append((event, at))
        states.append(state)
    return events, states


def replay(options: dict, events) -> d.State:
    state = d.setup(options)
    for event, at in events:
        state = d.apply(state, event, at)
    return state


SEEDED = [(seed, {"variant": "hacker" if seed % 4 == 3 else "teams", "lang": d.LANGS[seed % 4],
                  "sizes": (1, 2) if seed % 4 == 3 else (2 + seed % 3, 4 - seed % 3)})
          for seed in range(24)]


def strings(value) -> set[str]:
    """Every key and string value in a JSON document."""
    if isinstance(value, dict):
        return set(value) | set().union(*map(strings, value.values()))
    if isinstance(value, list):
        return set().union(*map(strings, value))
    return {value} if isinstance(value, str) else set()


@pytest.mark.parametrize("seed, options", SEEDED[:8])
def test_no_keyword_ever_reaches_the_public_view_or_the_score_log(seed, options):
    _, states = random_game(seed, **options)
    secret = set(d.words(options["lang"]))
    assert states[-1].dealt
    for state in states:
        for view in (d.public(state), d.summary(state)):
            assert not strings(msgspec.to_builtins(view)) & secret


@pytest.mark.parametrize("seed, options", SEEDED[8:])
def test_no_unrevealed_code_changes_the_public_view_or_the_score_log(seed, options):
    """Each prefix of a game is played again with a different draw for every
    code not yet revealed: what anyone may see must stay the same."""
    options = {**options, "keywords": "cards"}
    events, states = random_game(seed, **options)
    rng = random.Random(seed)
    checked = 0
    for k, state in enumerate(states):
        view = d.public(state)
        revealed = {r.team for r in view.reveals}
        hidden = [t for t in state.coding if state.codes[t] is not None and t not in revealed]
        if not hidden or d.step(state).kind in ("tiebreak", "over"):
            continue
        changed = list(events[:k])
        for team in hidden:
            i = max(i for i, (e, _) in enumerate(changed)
                    if isinstance(e, Picked) and e.purpose == f"code:{team}")
            (pick,) = [p for p in d.requests(states[i]) if p.purpose == f"code:{team}"]
            other = rng.choice([code for code in pick.options if code != changed[i][0].value])
            changed[i] = (Picked(pick.purpose, other), changed[i][1])
        twin = replay(options, changed)
        assert all(twin.codes[t] != state.codes[t] for t in hidden)
        assert d.public(twin) == view and d.summary(twin) == d.summary(state)
        checked += 1
    assert checked > 0


@pytest.mark.parametrize("seed, options", SEEDED[:6])
def test_replaying_the_stored_events_gives_an_equal_state(seed, options):
    events, states = random_game(seed, keywords="box", **options)
    stored = json.loads(json.dumps([(base.encode(e), at) for e, at in events]))
    again = [(base.decode(data, d.EVENTS), at) for data, at in stored]
    assert replay(options, again) == states[-1]
    assert replay(options, events[:len(events) // 2]) == states[len(events) // 2]


@pytest.mark.parametrize("seed, options", SEEDED[:12])
def test_score_log_rounds_add_up_to_the_totals_and_winners_are_named(seed, options):
    _, states = random_game(seed, **options)
    log = json.loads(json.dumps(msgspec.to_builtins(d.summary(states[-1]))))
    names = log["players"]
    assert log["status"] == "finished" and log["winners"] and set(log["winners"]) <= set(names)
    assert {n: sum(r["scores"][n] for r in log["rounds"]) for n in names} == log["totals"]
    assert [r["round"] for r in log["rounds"]] == list(range(1, len(log["rounds"]) + 1))
    view = d.public(states[-1])
    if options.get("variant") == "hacker":
        # [DE-10] the race: the Hacker's interceptions, the rounds the Team held out
        held = len(log["rounds"]) - (view.interceptions[HACKER] >= 2)
        assert log["totals"] == {"Hacker": view.interceptions[HACKER], "Team": held}
        assert log["goals"] == {"Hacker": 2, "Team": 5}
        winner = "Hacker" if log["totals"]["Hacker"] >= 2 else "Team"
        assert log["winners"] == [winner] and log["totals"][winner] == log["goals"][winner]
    else:
        assert log["totals"] == dict(zip(names, (i - m for i, m in zip(view.interceptions,
                                                                        view.miscommunications))))


def test_the_score_log_shows_a_round_only_as_far_as_it_is_revealed():
    g = Game()
    g.draw({WHITE: "421", BLACK: "132"})
    g.clues()
    assert d.summary(g.state).rounds == []
    g(Guess(WHITE, c("412")))
    (entry,) = d.summary(g.state).rounds
    assert entry.codes == {"White": [4, 2, 1]}
    assert entry.tokens["White"] == d.Tokens(interceptions=0, miscommunications=1)
    assert d.summary(g.state).totals == {"White": -1, "Black": 0}
    assert d.summary(g.state).status == "playing" and d.summary(g.state).winners == []


# --- word lists ---------------------------------------------------------------------------------------

LETTERS = {
    "en": set("abcdefghijklmnopqrstuvwxyz"),
    "cs": set("abcdefghijklmnopqrstuvwxyzáčďéěíňóřšťúůýž"),
    "pl": set("abcdefghijklmnopqrstuvwxyząćęłńóśźż"),
    "ru": set("абвгдеёжзийклмнопрстуфхцчшщъыьэюя"),
}
ONLY = {"cs": set("čďěňřšťůý"), "pl": set("ąćęłńśźż")}


def raw_lines(lang: str) -> list[str]:
    text = resources.files("games").joinpath(f"data/words-{lang}.txt").read_text(encoding="utf-8")
    assert text.endswith("\n") and unicodedata.normalize("NFC", text) == text
    return text[:-1].split("\n")


@pytest.mark.parametrize("lang", d.LANGS)
def test_word_list_has_300_distinct_short_words_one_per_line(lang):
    lines = raw_lines(lang)
    assert len(lines) >= 300 and len(set(lines)) == len(lines)
    assert list(d.words(lang)) == lines
    assert all(1 <= len(word) <= 12 and word == word.strip() for word in lines)
    assert all(len(f"1 {word}") <= 21 for word in lines)


@pytest.mark.parametrize("lang", d.LANGS)
def test_word_list_is_lower_case_in_its_own_script(lang):
    for word in raw_lines(lang):
        assert set(word) <= LETTERS[lang], word
    others = set().union(*(ONLY[x] for x in ONLY if x != lang))
    assert not any(set(w) & others for w in raw_lines(lang))
    if lang in ONLY:
        assert sum(bool(set(w) & ONLY[lang]) for w in raw_lines(lang)) >= 60


def test_cyrillic_only_in_the_russian_list():
    def cyrillic(ch: str) -> bool:
        return "CYRILLIC" in unicodedata.name(ch)
    for lang in ("en", "cs", "pl"):
        assert not any(cyrillic(ch) for w in raw_lines(lang) for ch in w)
    assert all(cyrillic(ch) for w in raw_lines("ru") for ch in w)
