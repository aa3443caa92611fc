"""Da Vinci Code as the box referees it: rules [DV-1] to [DV-11]."""
import json

import msgspec
import pytest

from games import davinci as dv
from games.base import Countdown, Illegal, TimerExpired, decode, encode
from games.davinci import Attack, Dealt, NextGame, Stop

HIT, MISS = True, False


def play(state, *events, at=100.0):
    """Apply events one second apart, starting at ``at``."""
    for i, event in enumerate(events):
        state = dv.apply(state, event, at + i)
    return state


def start(**options):
    return play(dv.setup({"players": ["Ann", "Ben", "Cid"], **options}), Dealt())


def hits(target, times):
    return (Attack(target, HIT),) * times


def counts(state):
    return [(p.hidden, p.revealed) for p in dv.public(state).players]


# --- [DV-1] deal, [DV-10] pool ------------------------------------------------

@pytest.mark.parametrize(("players", "each"), [(2, 4), (3, 4), (4, 3)])
def test_DV1_deal_sizes(players, each):
    state = dv.setup({"players": players})
    assert dv.deal_size(players) == each
    assert dv.public(state).tiles_each == each
    assert [p.hidden for p in dv.public(state).players] == [each] * players


@pytest.mark.parametrize(("players", "rules", "pool"), [
    (2, "basic", 16), (3, "basic", 12), (4, "basic", 12),
    (2, "extended", 18), (3, "extended", 14), (4, "extended", 14),
])
def test_DV1_DV10_pool_after_the_deal_with_and_without_jokers(players, rules, pool):
    state = dv.setup({"players": players, "rules": rules})
    assert dv.public(state).pool == pool
    assert dv.step(state) == dv.Step("deal", 0)
    # The first turn draws one more.
    assert dv.public(dv.apply(state, Dealt(), 0)).pool == pool - 1


def test_DV2_DV10_the_ordering_reminders_are_shown_at_the_deal():
    basic = dv.public(dv.setup({"players": 2}))
    assert "black stands left of white" in basic.order_rule
    assert basic.joker_rule is None
    assert "joker" in dv.public(dv.setup({"players": 2, "rules": "extended"})).joker_rule


# --- [DV-3] start, [DV-4] a turn ----------------------------------------------

def test_DV3_the_chosen_player_starts_and_play_goes_clockwise():
    state = start(starts=2)
    assert dv.step(state) == dv.Step("attack", 2, (0, 1))
    state = play(state, Attack(0, MISS))
    assert dv.step(state).seat == 0


def test_DV3_the_table_may_name_another_starter_when_the_tiles_are_dealt():
    state = play(dv.setup({"players": ["Ann", "Ben", "Cid"]}), Dealt(starts=1))
    assert dv.step(state).seat == 1
    assert dv.summary(play(state, *hits(2, 4), *hits(0, 4))).rounds[0].starter == "Ben"
    with pytest.raises(Illegal):
        play(dv.setup({"players": 3}), Dealt(starts=3))
    assert decode(json.loads(json.dumps(encode(Dealt(2)))), dv.EVENTS) == Dealt(2)
    assert decode({"type": "Dealt"}, dv.EVENTS) == Dealt()   # games stored before keep replaying


def test_DV4_a_turn_draws_a_tile_and_starts_the_turn_timer():
    state = dv.setup({"players": 2, "turn_timer": 60})
    assert dv.timer(state) is None  # not while the tiles are dealt
    state = dv.apply(state, Dealt(), 500.0)
    assert dv.timer(state) == Countdown.start("turn", 60, 500.0)
    assert state.drawn and dv.public(state).pool == 15
    assert dv.public(state).turns == 1


def test_DV4_the_timer_runs_for_the_whole_turn_and_restarts_for_the_next():
    state = dv.apply(dv.setup({"players": 2, "turn_timer": 30}), Dealt(), 10.0)
    state = dv.apply(state, Attack(1, HIT), 25.0)
    assert dv.timer(state).deadline() == 40.0  # a hit buys no time
    state = dv.apply(state, Stop(), 31.0)
    assert dv.timer(state) == Countdown.start("turn", 30, 31.0)


def test_DV4_no_timer_when_it_is_off():
    state = start()
    assert dv.timer(state) is None
    with pytest.raises(Illegal):
        dv.apply(state, TimerExpired("turn"), 200.0)


# --- [DV-5] hit, [DV-6] miss, [DV-9] time -------------------------------------

def test_DV5_hit_attack_again_then_stop_keeps_the_drawn_tile_hidden():
    state = play(start(), Attack(1, HIT))
    assert counts(state) == [(4, 0), (3, 1), (4, 0)]
    assert dv.step(state) == dv.Step("again", 0, (1, 2))
    state = play(state, Attack(2, HIT))
    assert counts(state) == [(4, 0), (3, 1), (3, 1)]
    assert dv.public(state).hits == 2
    state = play(state, Stop())
    assert counts(state) == [(5, 0), (3, 1), (3, 1)]
    assert dv.step(state) == dv.Step("attack", 1, (0, 2))
    assert state.last == dv.TurnEnd(0, 2, "stop", True)
    assert dv.public(state).pool == 10  # Ann's tile and now Ben's


def test_DV6_miss_turns_the_drawn_tile_up_and_ends_the_turn():
    state = play(start(), Attack(1, MISS))
    assert counts(state) == [(4, 1), (4, 0), (4, 0)]
    assert dv.step(state) == dv.Step("attack", 1, (0, 2))
    assert dv.public(state).last == dv.Ended("Ann", hits=0, how="miss", drew=True)


def test_DV6_a_miss_after_hits_still_ends_the_turn():
    state = play(start(), Attack(1, HIT), Attack(2, MISS))
    assert counts(state) == [(4, 1), (3, 1), (4, 0)]
    assert dv.step(state).seat == 1


def test_DV9_running_out_of_time_is_a_miss():
    state = dv.apply(dv.setup({"players": 3, "turn_timer": 60}), Dealt(), 0.0)
    state = dv.apply(state, Attack(1, HIT), 20.0)
    state = dv.apply(state, TimerExpired("turn"), 60.0)
    assert counts(state) == [(4, 1), (3, 1), (4, 0)]
    assert dv.public(state).last.how == "time"
    assert dv.step(state) == dv.Step("attack", 1, (0, 2))
    assert dv.timer(state) == Countdown.start("turn", 60, 60.0)


# --- [DV-7] empty pool --------------------------------------------------------

def empty_pool_game():
    """Two players play the 16-tile pool empty: each turn hits once and stops."""
    state = start(players=2)
    while state.pool:
        state = play(state, Attack(1 - state.turn, HIT), Stop())
    return state  # the last tile was drawn by the player on turn now


def test_DV7_with_an_empty_pool_nothing_is_drawn_and_a_miss_turns_up_an_own_tile():
    state = empty_pool_game()
    state = play(state, Attack(1 - state.turn, MISS))  # spends the last drawn tile
    seat = state.turn
    assert not state.drawn and dv.public(state).pool == 0
    before = counts(state)[seat]
    state = play(state, Attack(1 - seat, MISS))
    assert counts(state)[seat] == (before[0] - 1, before[1] + 1)
    assert state.last == dv.TurnEnd(seat, 0, "miss", False)


def test_DV7_with_an_empty_pool_stopping_adds_nothing_to_the_row():
    state = empty_pool_game()
    state = play(state, Attack(1 - state.turn, MISS))
    seat = state.turn
    before = counts(state)[seat]
    state = play(state, Attack(1 - seat, HIT), Stop())
    assert counts(state)[seat] == before


def test_DV7_DV8_an_empty_pool_miss_can_put_the_attacker_out():
    # Ann loses all but one hidden tile, the pool runs dry, then Ann misses.
    state = start(players=["Ann", "Ben"])
    state = play(state, Attack(1, MISS))                 # Ann: 4 hidden, 1 up
    state = play(state, *hits(0, 3), Stop())             # Ben: Ann has 1 hidden
    while state.drawn:                                   # both miss until the pool is dry
        state = play(state, Attack(1 - state.turn, MISS))
    assert state.turn == 0 and dv.public(state).pool == 0
    state = play(state, Attack(1, MISS))
    assert dv.public(state).eliminated == [dv.Out("Ann", by=None)]
    assert dv.public(state).winner == "Ben"
    assert dv.is_over(state)


# --- [DV-8] elimination and win -----------------------------------------------

def test_DV8_an_exposed_player_is_out_and_skipped():
    state = play(start(), *hits(1, 4))
    assert dv.public(state).players[1].out
    assert dv.public(state).eliminated == [dv.Out("Ben", by="Ann")]
    assert dv.step(state) == dv.Step("again", 0, (2,))
    state = play(state, Stop())
    assert dv.step(state) == dv.Step("attack", 2, (0,))
    state = play(state, Attack(0, MISS))
    assert dv.step(state).seat == 0  # Ben is passed over
    with pytest.raises(Illegal, match="Ben is out"):
        play(state, Attack(1, HIT))


def test_DV8_the_last_player_with_hidden_tiles_wins():
    state = play(start(players=2), *hits(1, 3))
    assert not dv.is_over(state)
    state = play(state, Attack(1, HIT))
    assert dv.is_over(state)
    assert dv.step(state) == dv.Step("over")
    assert dv.timer(state) is None
    assert dv.summary(state).winners == ["Player 1"]
    with pytest.raises(Illegal, match="over"):
        play(state, Attack(1, HIT))


# --- refused input ------------------------------------------------------------

@pytest.mark.parametrize(("events", "message"), [
    ((Attack(0, HIT),), "Not your own row"),
    ((Attack(3, HIT),), "No such player"),
    ((Stop(),), "Stop needs a hit"),
    ((Attack(1, MISS), Stop()), "Stop needs a hit"),               # stop after a miss
    ((Attack(1, MISS), Attack(2, HIT, by=0)), "Ben's turn"),        # again after a miss
    ((*hits(1, 4), Stop(), Attack(1, HIT)), "Ben is out"),
    ((Dealt(),), "already dealt"),
    ((TimerExpired("turn"),), "No turn timer"),
    ((NextGame(),), "no next game"),
])
def test_DV4_impossible_input_is_refused(events, message):
    state = start()
    *before, last = events
    state = play(state, *before)
    with pytest.raises(Illegal, match=message):
        dv.apply(state, last, 999.0)


def test_DV4_a_target_is_checked_as_soon_as_it_is_named():
    state = play(start(), *hits(1, 4))
    dv.check_attack(state, 2, by=0)  # Cid may be attacked: nothing raised
    for target, by, message in [(0, 0, "Not your own row"), (1, 0, "Ben is out"), (2, 1, "Ann's turn")]:
        with pytest.raises(Illegal, match=message):
            dv.check_attack(state, target, by)


def test_DV4_nothing_happens_before_the_deal():
    state = dv.setup({"players": 2})
    for event in (Attack(1, HIT), Stop()):
        with pytest.raises(Illegal, match="Deal the tiles first"):
            dv.apply(state, event, 0)


@pytest.mark.parametrize("options", [
    {"players": 1}, {"players": 5}, {"players": ["Ann", "Ann"]},
    {"players": 2, "rules": "joker"},
    {"players": 2, "turn_timer": 5}, {"players": 2, "turn_timer": 601}, {"players": 2, "turn_timer": True},
    {"players": 2, "tournament": "yes"},
    {"players": 2, "starts": 2}, {"players": 2, "starts": -1},
    {"players": 2, "colour": "red"},
])
def test_DV_bad_options_are_refused(options):
    with pytest.raises(Illegal):
        dv.setup(options)


# --- [DV-11] tournament -------------------------------------------------------

A, B, C = 0, 1, 2

TOURNAMENT = (
    # Game 1, Ann starts.  Ann 5 hits + Ben finished + win = 13; Ben 4 + Cid = 7.
    Dealt(),
    *hits(B, 2), Stop(),            # Ann
    *hits(C, 4), Stop(),            # Ben finishes Cid, his row grows to 3
    *hits(B, 3),                    # Ann finishes Ben and wins
    # Game 2, Ben starts.  Ben 5 + Cid + win = 13; Cid 4 + Ann = 7.
    NextGame(), Dealt(),
    Attack(A, MISS),                # Ben
    *hits(A, 4), Stop(),            # Cid finishes Ann, his row grows to 5
    *hits(C, 5),                    # Ben wins
    # Game 3, Cid starts.  Ann 4 + Ben = 7; Cid 4 + Ann + win = 12.
    NextGame(), Dealt(),
    Attack(A, MISS),                # Cid
    *hits(B, 4), Attack(C, MISS),   # Ann finishes Ben, then misses
    *hits(A, 4),                    # Cid wins
)


def test_DV11_tournament_points_over_three_games_with_a_shared_win():
    state = play(dv.setup({"players": ["Ann", "Ben", "Cid"], "tournament": True}), *TOURNAMENT)
    log = msgspec.to_builtins(dv.summary(state))
    assert [g["scores"] for g in log["rounds"]] == [
        {"Ann": 13, "Ben": 7, "Cid": 0},
        {"Ann": 0, "Ben": 13, "Cid": 7},
        {"Ann": 7, "Ben": 0, "Cid": 12},
    ]
    assert log["totals"] == {"Ann": 20, "Ben": 20, "Cid": 19}
    assert log["winners"] == ["Ann", "Ben"]
    assert log["status"] == "finished"
    assert [g["starter"] for g in log["rounds"]] == ["Ann", "Ben", "Cid"]
    assert dv.step(state) == dv.Step("over")
    with pytest.raises(Illegal, match="no next game"):
        dv.apply(state, NextGame(), 0)


def test_DV11_standings_after_each_game_and_a_fresh_deal():
    state = play(dv.setup({"players": ["Ann", "Ben", "Cid"], "tournament": True}), *TOURNAMENT[:12])
    assert dv.step(state) == dv.Step("next_game")
    assert dv.public(state).standings == {"Ann": 13, "Ben": 7, "Cid": 0}
    log = msgspec.to_builtins(dv.summary(state))
    assert log["status"] == "playing" and log["winners"] == []
    state = play(state, NextGame())
    assert dv.public(state).game == 2
    assert counts(state) == [(4, 0)] * 3 and dv.public(state).pool == 12
    assert dv.step(state) == dv.Step("deal", B)


def test_DV11_the_next_game_may_be_started_by_a_chosen_player():
    state = play(dv.setup({"players": ["Ann", "Ben", "Cid"], "tournament": True}), *TOURNAMENT[:12])
    assert dv.step(play(state, NextGame(starts=C))) == dv.Step("deal", C)
    with pytest.raises(Illegal):
        play(state, NextGame(starts=3))


def test_DV11_the_game_log_tells_turns_hits_eliminations_and_winner():
    state = play(dv.setup({"players": ["Ann", "Ben", "Cid"], "tournament": True}), *TOURNAMENT)
    first = dv.summary(state).rounds[0]
    assert first.turns == 3
    assert first.hits == {"Ann": 5, "Ben": 4, "Cid": 0}
    assert first.eliminated == [dv.Out("Cid", by="Ben"), dv.Out("Ben", by="Ann")]
    assert first.winner == "Ann"


def test_DV8_a_single_game_is_won_by_its_winner_not_by_points():
    # Ben hits more and finishes Cid, but Ann is the one left standing.
    state = play(start(), *TOURNAMENT[1:12])
    log = msgspec.to_builtins(dv.summary(state))
    assert log["status"] == "finished"
    assert log["rounds"][0]["scores"] == {"Ann": 1, "Ben": 0, "Cid": 0}
    assert log["winners"] == ["Ann"]


# --- the box as a whole -------------------------------------------------------

REPLAYS = [
    ({"players": ["Ann", "Ben", "Cid"], "tournament": True}, TOURNAMENT),
    ({"players": 3, "turn_timer": 45, "rules": "extended"},
     (Dealt(), Attack(1, HIT), Stop(), TimerExpired("turn"),
      Attack(0, HIT), Attack(1, MISS), Attack(2, HIT))),
]


@pytest.mark.parametrize(("options", "events"), REPLAYS)
def test_DV_replaying_the_stored_events_gives_an_equal_state(options, events):
    stored = [json.loads(json.dumps(encode(e))) for e in events]
    first = play(dv.setup(options), *events)
    again = play(dv.setup(options), *(decode(d, dv.EVENTS) for d in stored))
    assert first == again
    assert again != dv.setup(options)


def test_DV_public_view_is_plain_json():
    state = play(dv.setup({"players": 3, "turn_timer": 60}), Dealt(), Attack(1, HIT))
    view = dv.public(state)
    assert msgspec.json.decode(msgspec.json.encode(view), type=dv.Public) == view
    assert view.timer == dv.Timer(seconds=60, left=60, deadline=160.0)
    assert dv.requests(state) == ()
