"""Decipher (Słowotwórcy) as the box referees it: rules [DC-1] to [DC-11]."""
import json

import msgspec
import pytest

from games import decipher as dc
from games.base import Illegal, decode, encode
from games.decipher import BonusMode, GiveUp, Guess, NextRound, No, PieceRequested, Pieces, Yes

RIGHT, WRONG = True, False
MIREK, ANIA, MAREK = 0, 1, 2


def play(state, *events):
    for i, event in enumerate(events):
        state = dc.apply(state, event, 100.0 + i)
    return state


def game(players=("Mirek", "Ania", "Marek"), **options):
    return dc.setup({"players": list(players), **options})


def wrong(seeker, times):
    return (Guess(seeker, WRONG),) * times


# --- the worked example -------------------------------------------------------

# Mirek makes PANDA (7 pieces, say); Ania sits left of him and seeks first.
PANDA_PIECES = (
    No(), Yes(),         # Ania
    No(), No(), Yes(),   # Marek
    Yes(),               # Ania
    Yes(),               # Marek: three pieces left
)
PANDA_END = (
    PieceRequested(), Yes(),                                  # Ania takes a bonus token
    Guess(MAREK, WRONG), Guess(ANIA, WRONG), Guess(ANIA, RIGHT),
)


@pytest.mark.parametrize("events", [
    (Pieces(7), *PANDA_PIECES, *PANDA_END),          # the box announces bonus mode
    (*PANDA_PIECES, BonusMode(), *PANDA_END),        # Mirek announces it
], ids=["count entered", "count kept"])
def test_DC10_worked_example_panda(events):
    state = play(game(), *events)
    table = dc.summary(state).rounds[0]
    assert table.scores == {"Ania": 10, "Marek": 2, "Mirek": 8}
    assert table.items == {
        "Mirek": dc.Items(no=3, bonus=1, guess=3, solution=0),
        "Ania": dc.Items(no=0, bonus=2, guess=1, solution=1),
        "Marek": dc.Items(no=0, bonus=0, guess=2, solution=0),
    }
    assert table.maker == "Mirek" and table.solver == "Ania"
    assert table.no_tokens == 3 and table.bonus_taken == 1
    assert table.guesses == {"Ania": 2, "Marek": 1}
    assert dc.step(state) == dc.Step("scored", MIREK)


# --- [DC-4] to [DC-7] turns ---------------------------------------------------

def test_DC4_the_first_seeker_sits_left_of_the_maker_then_clockwise():
    state = game(first_maker=1)
    assert dc.step(state).seeker == MAREK
    state = play(state, Yes())
    assert dc.step(state).seeker == MIREK
    state = play(state, Yes())
    assert dc.step(state).seeker == MAREK


def test_DC5_no_adds_a_no_token_and_the_same_seeker_tries_again():
    state = play(game(), No(), No())
    assert dc.public(state).no_tokens == 2
    assert dc.step(state).seeker == ANIA
    state = play(state, Yes())
    assert dc.step(state).seeker == MAREK
    assert dc.public(state).placed == 1


def test_DC5_the_maker_scores_every_NO_past_the_20_tokens_in_the_box():
    # [ruling] the box does not stop at 20: the table uses anything as the 21st
    state = play(game(), Pieces(5), *[No()] * 21, Yes(), GiveUp())
    table = dc.public(state).table
    assert table.items["Mirek"].no == 21


def test_DC6_bonus_mode_starts_by_itself_at_exactly_three_pieces_left():
    state = play(game(), Pieces(6), Yes(), Yes())
    assert not dc.public(state).bonus_mode  # four left
    assert dc.step(state).kind == "place"
    state = play(state, No(), Yes())
    assert dc.public(state).bonus_mode  # three left
    assert dc.step(state) == dc.Step("request", MIREK, MAREK, (ANIA, MAREK))


def test_DC6_a_three_piece_word_is_in_bonus_mode_from_the_start():
    state = play(game(length=3), Pieces(3))
    assert dc.public(state).bonus_mode
    assert dc.step(state).kind == "request"


def test_DC6_without_a_count_the_maker_announces_bonus_mode_between_turns():
    state = play(game(), Yes())
    assert dc.step(state).bonus_call
    assert not dc.public(play(state, Yes())).bonus_mode  # the box cannot know
    state = play(state, BonusMode())
    assert dc.public(state).bonus_mode
    assert dc.step(state).kind == "request"


def test_DC7_each_bonus_piece_hands_a_bonus_token_to_the_maker():
    state = play(game(length=4), Pieces(4), Yes())
    state = play(state, PieceRequested())
    assert dc.public(state).bonus_tokens == 2
    assert dc.step(state) == dc.Step("place", MIREK, MAREK, (ANIA, MAREK))
    state = play(state, No(), Yes())
    assert dc.step(state) == dc.Step("request", MIREK, ANIA, (ANIA, MAREK))


def test_DC7_bonus_tokens_cannot_go_below_zero():
    state = play(game(), BonusMode(), *(PieceRequested(), Yes()) * 3)
    assert dc.public(state).bonus_tokens == 0
    assert dc.step(state).kind == "guess"
    for event in (PieceRequested(), Yes(), No()):
        with pytest.raises(Illegal):
            dc.apply(state, event, 0)
    assert dc.public(play(state, GiveUp())).table.items["Mirek"].bonus == 3


# --- [DC-8] guessing ----------------------------------------------------------

def four():
    return game(players=("Mirek", "Ania", "Marek", "Olga"))


def test_DC8_a_seeker_is_out_after_the_third_wrong_guess_and_skipped():
    state = play(four(), No(), *wrong(ANIA, 2))
    assert dc.step(state).seeker == ANIA  # still in, still on turn
    state = play(state, Guess(ANIA, WRONG))
    assert dc.public(state).players[ANIA].out
    assert dc.step(state).seeker == MAREK  # takes over Ania's piece
    assert dc.step(state).guessers == (MAREK, 3)
    state = play(state, Yes(), Yes())
    assert dc.step(state).seeker == MAREK  # Olga, then past Ania and Mirek
    with pytest.raises(Illegal, match="Ania has no guess tokens left"):
        play(state, Guess(ANIA, RIGHT))


def test_DC8_a_seeker_out_off_turn_leaves_the_turn_alone():
    state = play(four(), *wrong(MAREK, 3))
    assert dc.step(state).seeker == ANIA
    state = play(state, Yes())
    assert dc.step(state).seeker == 3


def test_DC8_the_maker_does_not_guess():
    with pytest.raises(Illegal, match="maker"):
        play(game(), Guess(MIREK, RIGHT))


# --- [DC-9] and [DC-10] round end ---------------------------------------------

def test_DC9_the_round_ends_when_all_guess_tokens_are_spent():
    state = play(game(), No(), *wrong(ANIA, 3), *wrong(MAREK, 2))
    assert dc.step(state).kind == "place"
    state = play(state, Guess(MAREK, WRONG))
    table = dc.summary(state).rounds[0]
    assert table.ended == "tokens" and table.solver is None
    # Mirek: 1 NO + 6 guess tokens + the solution token.
    assert table.scores == {"Mirek": 12, "Ania": 0, "Marek": 0}


def test_DC10_the_maker_takes_the_solution_token_when_nobody_solves():
    state = play(game(), Pieces(5), No(), Yes(), Yes(), Guess(ANIA, WRONG), GiveUp())
    table = dc.public(state).table
    assert table.ended == "given_up"
    assert table.items["Mirek"] == dc.Items(no=1, bonus=0, guess=1, solution=1)
    assert table.scores == {"Mirek": 7, "Ania": 2, "Marek": 3}


def test_DC10_a_solver_before_bonus_mode_gets_all_three_bonus_tokens():
    state = play(game(), Yes(), Guess(MAREK, RIGHT))
    assert dc.public(state).table.scores == {"Mirek": 1, "Ania": 3, "Marek": 13}


def test_DC9_nothing_is_played_on_after_the_round_ends():
    state = play(game(), GiveUp())
    for event in (Yes(), No(), Guess(ANIA, RIGHT), GiveUp(), Pieces(5), BonusMode()):
        with pytest.raises(Illegal, match="round is over"):
            dc.apply(state, event, 0)


# --- [DC-2] and [DC-11] the game ----------------------------------------------

def test_DC2_every_player_makes_one_word_rotating_left():
    state = game(first_maker=2)
    makers = []
    while not dc.is_over(state):
        makers.append(dc.public(state).maker)
        state = play(state, GiveUp())
        if not dc.is_over(state):
            state = play(state, NextRound())
    assert makers == ["Marek", "Mirek", "Ania"]


def test_DC2_two_players_make_two_words_each():
    state = game(players=("Ania", "Marek"))
    assert dc.public(state).rounds == 4
    makers = []
    for _ in range(3):
        makers.append(dc.public(state).maker)
        state = play(state, GiveUp(), NextRound())
    makers.append(dc.public(state).maker)
    state = play(state, GiveUp())
    assert makers == ["Ania", "Marek", "Ania", "Marek"]
    assert dc.is_over(state) and dc.step(state).kind == "over"
    assert len(dc.summary(state).rounds) == 4
    with pytest.raises(Illegal, match="game is over"):
        play(state, NextRound())


def test_DC2_a_new_round_starts_fresh():
    state = play(game(), Pieces(6), No(), Yes(), Guess(MAREK, WRONG), GiveUp())
    with pytest.raises(Illegal, match="not over"):
        play(game(), NextRound())
    state = play(state, NextRound())
    view = dc.public(state)
    assert view.maker == "Ania" and view.seeker == "Marek"
    assert (view.no_tokens, view.bonus_tokens, view.placed, view.received) == (0, 3, 0, 0)
    assert [p.guess_tokens for p in view.players] == [3, 0, 3]
    assert dc.private(state, ANIA).pieces is None


def test_DC11_totals_and_a_shared_win():
    state = play(
        game(),
        Guess(ANIA, RIGHT), NextRound(),       # Mirek makes:  Mirek 1, Ania 13, Marek 3
        Guess(MAREK, RIGHT), NextRound(),      # Ania makes:   Mirek 3, Ania 1, Marek 13
        No(), No(), Yes(), BonusMode(),        # Marek makes:  Mirek 3, Ania 9, Marek 7
        PieceRequested(), Yes(), PieceRequested(), Yes(), Guess(ANIA, RIGHT),
    )
    log = msgspec.to_builtins(dc.summary(state))
    assert [r["scores"] for r in log["rounds"]] == [
        {"Mirek": 1, "Ania": 13, "Marek": 3},
        {"Mirek": 3, "Ania": 1, "Marek": 13},
        {"Mirek": 3, "Ania": 9, "Marek": 7},
    ]
    assert log["totals"] == {"Mirek": 7, "Ania": 23, "Marek": 23}
    assert log["winners"] == ["Ania", "Marek"]
    assert log["status"] == "finished"


def test_DC11_no_winner_is_named_before_the_last_round():
    log = dc.summary(play(game(), Guess(ANIA, RIGHT)))
    assert log.status == "playing" and log.winners == []
    assert log.totals == {"Mirek": 1, "Ania": 13, "Marek": 3}


# --- [DC-3] the piece count is a secret ---------------------------------------

def test_DC3_the_piece_count_is_shown_to_the_maker_only():
    events = (No(), Yes(), Guess(MAREK, WRONG), Yes())
    seen = [play(game(), Pieces(count), *events) for count in (9, 14)]
    assert dc.public(seen[0]) == dc.public(seen[1])
    assert dc.summary(seen[0]) == dc.summary(seen[1])
    assert dc.private(seen[0], ANIA) == dc.private(seen[1], ANIA)
    assert dc.private(seen[0], MIREK).pieces == 7
    assert dc.private(seen[1], MIREK).pieces == 12
    over = [play(state, GiveUp()) for state in seen]
    assert dc.summary(over[0]) == dc.summary(over[1])
    assert dc.public(over[0]) == dc.public(over[1])


def test_DC3_the_count_may_be_corrected_until_bonus_mode():
    state = play(game(), Pieces(9), No(), Pieces(8), Yes())
    assert dc.private(state, MIREK).pieces == 7
    assert dc.step(state).correct and not dc.step(state).pieces
    # After the first YES the count is of the pieces still to place.
    state = play(state, Pieces(5))
    assert dc.private(state, MIREK).pieces == 5 and not state.bonus
    state = play(state, Yes(), Pieces(3))       # corrected down to three: bonus mode
    assert state.bonus and not state.holding and not dc.step(state).correct
    with pytest.raises(Illegal, match="already started"):
        play(state, Pieces(6))


@pytest.mark.parametrize("count", [2, 48])
def test_DC3_a_corrected_count_keeps_within_what_can_be_left(count):
    state = play(game(), Pieces(9), Yes())
    with pytest.raises(Illegal, match="Pieces left to place: 3 to 47"):
        play(state, Pieces(count))


def test_DC3_a_count_first_given_after_the_first_yes_takes_over_bonus_mode():
    state = play(game(), Yes(), Pieces(4))
    assert not dc.step(state).bonus_call
    state = play(state, Yes())
    assert state.bonus and state.pieces == 3


@pytest.mark.parametrize(("events", "message"), [
    ((Pieces(4),), "pieces from 5 to 48"),
    ((Pieces(49),), "pieces from 5 to 48"),
    ((Pieces(6), BonusMode()), "announces bonus mode itself"),
    ((No(), BonusMode()), "between turns"),
    ((BonusMode(), BonusMode()), "already started"),
    ((BonusMode(), Pieces(6)), "already started"),
    ((PieceRequested(),), "only in bonus mode"),
    ((BonusMode(), Yes()), "asks for a piece first"),
    ((BonusMode(), PieceRequested(), PieceRequested()), "piece in hand first"),
    ((Guess(5, RIGHT),), "no such player"),
])
def test_DC_impossible_input_is_refused(events, message):
    *before, last = events
    state = play(game(), *before)
    with pytest.raises(Illegal, match=message):
        dc.apply(state, last, 0)


@pytest.mark.parametrize("options", [
    {"players": 1}, {"players": 5},
    {"players": 3, "length": 2}, {"players": 3, "length": 7}, {"players": 3, "length": "5"},
    {"players": 3, "first_maker": 3}, {"players": 3, "first_maker": True},
    {"players": 3, "timer": 60},
])
def test_DC1_bad_options_are_refused(options):
    with pytest.raises(Illegal):
        dc.setup(options)


# --- the box as a whole -------------------------------------------------------

def test_DC_replaying_the_stored_events_gives_an_equal_state():
    events = (Pieces(7), *PANDA_PIECES, *PANDA_END,
              NextRound(), No(), *wrong(MAREK, 3), GiveUp(), NextRound())
    stored = [json.loads(json.dumps(encode(e))) for e in events]
    first = play(game(), *events)
    again = play(game(), *(decode(d, dc.EVENTS) for d in stored))
    assert first == again
    assert dc.public(again).round == 3


def test_DC_views_are_plain_json_and_need_nothing_from_the_service():
    state = play(game(), Pieces(7), *PANDA_PIECES)
    for view in (dc.public(state), dc.private(state, MIREK)):
        assert msgspec.json.decode(msgspec.json.encode(view), type=type(view)) == view
    log = msgspec.to_builtins(dc.summary(state))
    assert json.loads(json.dumps(log)) == log
    assert dc.requests(state) == () and dc.timer(state) is None
