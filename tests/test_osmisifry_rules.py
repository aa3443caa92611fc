"""Osmišifry, rule by rule (rules/README.md, section 1)."""
import collections
import importlib.resources
import json
import tomllib

import msgspec
import pytest

from games import osmisifry as osm
from games.base import Countdown, Illegal, Roll, Rolled, TimerExpired, decode, encode


# --- playing helpers --------------------------------------------------------------

def play(state, *events, at=0.0):
    for event in events:
        state = osm.apply(state, event, at)
    return state


def cell_of(state, letter):
    """The roll that gives ``letter`` in this game's table."""
    for r, row in enumerate(osm.public(state).table.rows, 1):
        if letter in row:
            return r, row.index(letter) + 1
    raise AssertionError(f"{letter} is not in the table")


def roll_letters(state, letters):
    for letter in letters:
        state = osm.apply(state, Rolled("letter", cell_of(state, letter)), 0)
    return state


def roll_all(state, log=None):
    """Answer every letter roll the box asks for with the first cell."""
    while osm.step(state).kind == "roll_letter":
        event = Rolled("letter", (1, 1))
        state = osm.apply(state, event, 0)
        if log is not None:
            log.append(event)
    return state


def letter_at(state, index):
    return osm.public(state).rows[state.round - 1].letters[index]


def free(state):
    row = osm.public(state).rows[state.round - 1]
    return [i for i, taker in enumerate(row.taken) if taker is None]


def pick(state, letter):
    """Whoever's turn it is takes ``letter`` from this round's row."""
    row = osm.public(state).rows[state.round - 1]
    index = next(i for i in free(state) if row.letters[i] == letter)
    return osm.apply(state, osm.PickLetter(osm.step(state).player, index), 0)


def finish_round(state, log=None):
    """Roll what is due, then everyone picks the first free letter."""
    state = roll_all(state, log)
    number = state.round
    while osm.step(state).kind == "pick" and state.round == number:
        event = osm.PickLetter(osm.step(state).player, free(state)[0])
        state = osm.apply(state, event, 0)
        if log is not None:
            log.append(event)
    return state


def created(players):
    """A game whose 31 creation rounds are all played."""
    state = osm.setup({"players": players})
    while osm.step(state).kind in ("roll_letter", "pick"):
        state = finish_round(state)
    return state


def decoded(players, direction=1):
    state = play(created(players), Rolled("direction", (direction,)), osm.StartDecoding())
    return play(state, TimerExpired("decoding"))


# --- [OS-1] the letter table ----------------------------------------------------------

def test_OS1_rulebook_setup_rolls_read_T_E_N_H_in_the_czech_table():
    state = osm.setup({"players": 3})
    state = play(state, *(Rolled("letter", roll) for roll in [(4, 3), (5, 6), (7, 6), (8, 8)]))
    assert osm.public(state).rows[0].letters == ["T", "E", "N", "H"]


def test_OS1_czech_is_the_default_table_and_others_can_be_chosen():
    assert osm.setup({}).table == osm.builtin_table("cs")
    for code in ("en", "pl"):
        state = play(osm.setup({"table": code}), Rolled("letter", (2, 3)))
        assert osm.public(state).rows[0].letters == [osm.builtin_table(code).rows[1][2]]
    assert osm.builtin_table("cs") != osm.builtin_table("en") != osm.builtin_table("pl")


def _table_file(code):
    text = (importlib.resources.files("games") / "data" / f"letters-{code}.toml").read_text("utf-8")
    return tomllib.loads(text)


@pytest.mark.parametrize("code", ["cs", "en", "pl"])
def test_OS1_every_letter_count_is_within_one_of_its_frequency_share(code):
    """The documented tolerance: largest-remainder rounding of share × 64
    leaves every count less than 1 away from its quota."""
    data = _table_file(code)
    percent, fold = data["frequency"]["percent"], data["frequency"].get("fold", {})
    # The figures are transcribed as published: they must add up to 100.
    assert sum(percent.values()) == pytest.approx(100, abs=0.2)
    folded = collections.Counter()
    for char, share in percent.items():
        for letter in fold.get(char, char.upper()):
            folded[letter] += share
    counts = collections.Counter("".join(osm.builtin_table(code).rows))
    assert sum(counts.values()) == 64
    for letter in "ABCDEFGHIJKLMNOPQRSTUVWXYZ":
        quota = folded[letter] / sum(folded.values()) * 64
        assert abs(counts[letter] - quota) < 1, (letter, counts[letter], quota)


def test_OS1_czech_counts_fold_accents_and_CH_into_plain_letters():
    fold = _table_file("cs")["frequency"]["fold"]
    assert fold["č"] == "C" and fold["ř"] == "R" and fold["ů"] == "U" and fold["ch"] == "CH"
    assert set(fold.values()) <= set("ACDEINORSTUYZ") | {"CH"}


def table_text(rows, name=None):
    head = "" if name is None else f'name = "{name}"\n'
    lines = "".join(f"  {json.dumps(row, ensure_ascii=False)},\n" for row in rows)
    return f"{head}rows = [\n{lines}]\n"


def good_rows_but(number, row):
    rows = [list("ABCDEFGH")] * 8
    rows[number - 1] = row
    return rows


BAD_TABLES = [
    ("rows = []", "The letter table has 0 rows, not 8."),
    ('name = "x"', "The letter table needs 'rows'"),
    ("rows = [", "The letter table is not valid TOML"),
    (table_text([list("ABCDEFGH")] * 7), "The letter table has 7 rows, not 8."),
    (table_text([list("ABCDEFGH")] * 9), "The letter table has 9 rows, not 8."),
    (table_text(good_rows_but(3, list("ABCDEFG"))), "Row 3 of the letter table has 7 letters, not 8."),
    (table_text(good_rows_but(2, list("ABCDČFGH"))), "Row 2, column 5 of the letter table: 'Č' is not"),
    (table_text(good_rows_but(8, list("ABCDEFGh"))), "Row 8, column 8 of the letter table: 'h' is not"),
    (table_text(good_rows_but(4, ["AB", *"BCDEFGH"])), "Row 4, column 1 of the letter table: 'AB' is not"),
    (table_text(good_rows_but(6, [*"ABCDEFG", 1])), "Row 6, column 8 of the letter table: 1 is not"),
    (table_text(good_rows_but(1, "ABCDEFGH")), "Row 1 of the letter table is not a list"),
]


@pytest.mark.parametrize("text, message", BAD_TABLES)
def test_OS1_bad_table_files_are_refused_naming_the_fault(text, message):
    with pytest.raises(ValueError) as error:
        osm.load_table(text)
    assert message in str(error.value)
    with pytest.raises(Illegal) as refused:
        osm.setup({"players": 2, "table": text})
    assert message in str(refused.value)


def test_OS1_a_loaded_table_is_used_for_the_rolls():
    rows = ["QWERTYUI", "ASDFGHJK", "ZXCVBNMQ", "POIUYTRE", "LKJHGFDS", "MNBVCXZA", "QAZWSXED", "CRFVTGBY"]
    text = "# our printed table\n" + table_text([list(row) for row in rows], name="Ours")
    assert osm.load_table(text) == osm.Table(tuple(rows), "Ours")
    for given in (text, tomllib.loads(text)):
        state = osm.setup({"players": 2, "table": given})
        state = play(state, Rolled("letter", (2, 6)), Rolled("letter", (8, 8)))
        assert osm.public(state).rows[0].letters == ["H", "Y"]


def test_OS1_unknown_table_is_refused():
    with pytest.raises(Illegal, match="cs, en, pl"):
        osm.setup({"players": 2, "table": "de"})


# --- setup options -------------------------------------------------------------------

def test_players_are_two_to_six_named_or_counted():
    assert osm.setup({"players": 4}).players == ("Player 1", "Player 2", "Player 3", "Player 4")
    assert osm.setup({"players": ["Tonda", "Eva"]}).players == ("Tonda", "Eva")
    for bad in (1, 7, ["Eva", "Eva"]):
        with pytest.raises(Illegal):
            osm.setup({"players": bad})
    with pytest.raises(Illegal, match="no option"):
        osm.setup({"players": 2, "rounds": 10})


# --- [OS-3] [OS-4] rolling the offers --------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_OS3_each_offer_row_has_one_letter_more_than_players(players):
    state = osm.setup({"players": players})
    assert osm.requests(state) == (Roll("letter", 2, 8, f"Row 1: letter 1 of {players + 1}"),)
    state = finish_round(state)
    rows = osm.public(state).rows
    assert [len(row.letters) for row in rows[:2]] == [players + 1] * 2
    assert [len(row.rolls) for row in rows[:2]] == [players + 1] * 2


def test_OS4_the_next_row_is_rolled_before_anyone_picks():
    state = osm.setup({"players": 2})
    steps = []
    while osm.step(state).kind == "roll_letter":
        steps.append((osm.step(state).row, osm.step(state).index))
        with pytest.raises(Illegal, match="Roll the rest"):
            osm.apply(state, osm.PickLetter(0, 0), 0)
        state = osm.apply(state, Rolled("letter", (1, 1)), 0)
    # Row 1 at setup, then row 2 at the start of round 1, letter by letter.
    assert steps == [(1, 0), (1, 1), (1, 2), (2, 0), (2, 1), (2, 2)]
    assert osm.step(state) == osm.Step("pick", player=0, row=1)
    state = play(state, osm.PickLetter(0, 0), osm.PickLetter(1, 1))
    assert osm.public(state).round == 2
    assert osm.step(state) == osm.Step("roll_letter", row=3, index=0)


def test_OS4_OS7_rulebook_round_7_and_8_example():
    """3 players, round 7: row 7 is M K O A; they roll A D Z K into row 8;
    Tonda takes O and formed POT, so he draws during round 8 while the others
    take A and K, then picks from D and Z."""
    state = osm.setup({"players": ["Tonda", "Eva", "Jan"]})
    for _ in range(5):
        state = finish_round(state)
    state = roll_letters(state, "MKOA")        # row 7, rolled at the start of round 6
    state = finish_round(state)
    assert osm.public(state).round == 7
    assert osm.step(state) == osm.Step("roll_letter", row=8, index=0)
    state = roll_letters(state, "ADZK")
    rows = osm.public(state).rows
    assert rows[6].letters == list("MKOA") and rows[7].letters == list("ADZK")

    assert osm.step(state) == osm.Step("pick", player=0, row=7)   # Tonda's turn
    state = pick(state, "O")
    state = roll_all(finish_round(state))      # Eva and Jan pick; round 8 rolls row 9
    state = play(state, osm.Drawing(0))        # Tonda draws POT
    assert osm.public(state).order == [1, 2, 0]
    state = pick(pick(state, "A"), "K")
    assert osm.step(state) == osm.Step("pick", player=0, row=8)
    assert sorted(letter_at(state, i) for i in free(state)) == ["D", "Z"]


# --- [OS-5] [OS-6] picking ---------------------------------------------------------------

def test_OS5_players_pick_in_turn_one_letter_each_and_one_is_left_over():
    state = osm.setup({"players": 4})
    state = roll_all(play(state, *(Rolled("letter", (c, c)) for c in range(1, 6))))
    turns = []
    for index in (3, 0, 4, 1):
        turns.append(osm.step(state).player)
        state = play(state, osm.PickLetter(turns[-1], index))
    assert turns == [0, 1, 2, 3]
    row = osm.public(state).rows[0]
    assert row.taken == [1, 3, None, 0, 2]
    letters = row.letters
    assert len(set(letters)) == 5
    assert [(pick["player"], pick["letter"]) for pick in osm.summary(state).rows[0]["picks"]] == [
        ("Player 1", letters[3]), ("Player 2", letters[0]), ("Player 3", letters[4]), ("Player 4", letters[1])]
    assert osm.public(state).round == 2


def test_OS5_taken_letter_wrong_player_and_missing_letter_are_refused():
    state = play(roll_all(osm.setup({"players": ["Tonda", "Eva", "Jan"]})), osm.PickLetter(0, 2))
    with pytest.raises(Illegal, match="already taken"):
        osm.apply(state, osm.PickLetter(1, 2), 0)
    with pytest.raises(Illegal, match="Eva's turn"):
        osm.apply(state, osm.PickLetter(2, 0), 0)
    with pytest.raises(Illegal, match="no such letter"):
        osm.apply(state, osm.PickLetter(1, 4), 0)
    with pytest.raises(Illegal, match="no such player"):
        osm.apply(state, osm.PickLetter(3, 0), 0)
    # Nothing changed: Eva still picks from the same three letters.
    assert osm.step(state) == osm.Step("pick", player=1, row=1)
    assert free(state) == [0, 1, 3]


def test_OS6_the_starting_player_moves_clockwise_every_round():
    state = osm.setup({"players": 3})
    starters = []
    for _ in range(7):
        state = roll_all(state)
        starters.append(osm.step(state).player)
        assert osm.public(state).starter == starters[-1]
        state = finish_round(state)
    assert starters == [0, 1, 2, 0, 1, 2, 0]


def test_OS6_the_table_chooses_who_starts_round_1():
    state = osm.setup({"players": 3, "starts": 2})
    starters = []
    for _ in range(4):
        state = roll_all(state)
        starters.append(osm.step(state).player)
        state = finish_round(state)
    assert starters == [2, 0, 1, 2]
    for bad in (3, -1, "1", True):
        with pytest.raises(Illegal):
            osm.setup({"players": 3, "starts": bad})


# --- [OS-7] drawing ------------------------------------------------------------------------

def test_OS7_a_drawing_player_picks_last():
    state = roll_all(finish_round(finish_round(osm.setup({"players": 4}))))   # round 3: seat 2 starts
    state = play(state, osm.Drawing(2))
    assert osm.public(state).order == [3, 0, 1, 2]
    turns = []
    while osm.public(state).round == 3:
        turns.append(osm.step(state).player)
        state = play(state, osm.PickLetter(turns[-1], free(state)[0]))
    assert turns == [3, 0, 1, 2]


def test_OS7_drawing_lasts_one_round():
    state = roll_all(finish_round(finish_round(osm.setup({"players": 4}))))   # round 3: seat 2 starts
    state = play(state, osm.Drawing(0))
    assert osm.public(state).order == [2, 3, 1, 0]
    state = roll_all(finish_round(state))
    assert osm.public(state).drawing == [] and osm.public(state).order == [3, 0, 1, 2]


def test_OS7_several_drawing_players_keep_clockwise_order_after_the_rest():
    state = roll_all(finish_round(osm.setup({"players": 5})))   # round 2: seat 1 starts
    state = play(state, osm.Drawing(0), osm.Drawing(2))
    assert osm.public(state).order == [1, 3, 4, 2, 0]


def test_OS7_drawing_is_refused_in_round_1_after_picking_or_twice():
    state = roll_all(osm.setup({"players": ["Tonda", "Eva", "Jan"]}))
    with pytest.raises(Illegal, match="round 1"):
        osm.apply(state, osm.Drawing(1), 0)
    state = play(finish_round(state), osm.Drawing(2))
    with pytest.raises(Illegal, match="Jan is already drawing"):
        osm.apply(state, osm.Drawing(2), 0)
    state = play(roll_all(state), osm.PickLetter(1, 0))    # round 2: Eva starts
    with pytest.raises(Illegal, match="Eva has already picked"):
        osm.apply(state, osm.Drawing(1), 0)


# --- [OS-8] end of creation -------------------------------------------------------------------

def test_OS8_creation_ends_after_31_rounds_without_a_row_32():
    state = osm.setup({"players": 2})
    for _ in range(30):
        state = finish_round(state)
    assert osm.public(state).round == 31
    assert osm.step(state).kind == "pick"                 # row 31 was rolled in round 30
    state = finish_round(state)
    assert osm.step(state) == osm.Step("roll_direction")
    assert osm.requests(state) == (Roll("direction", 1, 8, "Direction: 1-4 left, 5-8 right"),)
    summary = msgspec.to_builtins(osm.summary(state))
    assert [row["row"] for row in summary["rows"]] == list(range(1, 32))
    assert all(len(row["picks"]) == 2 for row in summary["rows"])


def test_OS8_the_table_may_end_creation_early():
    state = finish_round(finish_round(osm.setup({"players": 3})))
    state = play(state, osm.EndCreation())
    assert osm.step(state).kind == "roll_direction"
    with pytest.raises(Illegal):
        osm.apply(state, osm.PickLetter(2, 0), 0)
    with pytest.raises(Illegal):
        osm.apply(state, osm.EndCreation(), 0)


# --- [OS-9] direction ------------------------------------------------------------------------------

@pytest.mark.parametrize("roll, side", [(1, "left"), (2, "left"), (3, "left"), (4, "left"),
                                        (5, "right"), (6, "right"), (7, "right"), (8, "right")])
def test_OS9_one_to_four_passes_left_five_to_eight_right(roll, side):
    state = play(osm.setup({"players": 3}), osm.EndCreation(), Rolled("direction", (roll,)))
    assert osm.public(state).direction == osm.Direction(roll, to=side)
    assert osm.step(state) == osm.Step("start_decoding")


@pytest.mark.parametrize("players, roll, officers", [
    (3, 3, [1, 2, 0]),                 # the rulebook's 3: everyone passes to the left
    (3, 6, [2, 0, 1]),
    (6, 1, [1, 2, 3, 4, 5, 0]),
    (6, 8, [5, 0, 1, 2, 3, 4]),
    (2, 4, [1, 0]),
])
def test_OS9_the_receiving_neighbour_is_the_agents_officer(players, roll, officers):
    state = play(osm.setup({"players": players}), osm.EndCreation(), Rolled("direction", (roll,)))
    assert osm.public(state).officers == officers
    for agent, officer in enumerate(officers):
        assert osm.private(state, agent).my_officer == officer
        assert osm.private(state, officer).decodes == agent


def test_OS9_direction_is_one_d8():
    state = play(osm.setup({"players": 3}), osm.EndCreation())
    for bad in [(0,), (9,), (3, 4)]:
        with pytest.raises(Illegal):
            osm.apply(state, Rolled("direction", bad), 0)


# --- [OS-10] decoding time ---------------------------------------------------------------------------

def test_OS10_officers_have_five_minutes():
    state = play(osm.setup({"players": 3}), osm.EndCreation(), Rolled("direction", (2,)))
    assert osm.timer(state) is None
    state = play(state, osm.StartDecoding(), at=1000.0)
    assert osm.timer(state) == Countdown("decoding", 300, 300, 1000.0)
    assert osm.timer(state).deadline() == 1300.0
    assert osm.step(state) == osm.Step("decoding")
    with pytest.raises(Illegal):
        osm.apply(state, osm.Score(0, 1, 1, 0, False), 1100.0)
    state = play(state, TimerExpired("decoding"), at=1300.0)
    assert osm.timer(state) is None
    assert osm.step(state) == osm.Step("score", player=0, officer=1)


def test_OS10_decoding_may_end_early():
    state = play(osm.setup({"players": 2}), osm.EndCreation(), Rolled("direction", (7,)))
    state = play(state, osm.StartDecoding(), at=50.0)
    state = play(state, osm.EndDecoding(), at=170.0)
    assert osm.timer(state) is None and osm.public(state).timer.left == 180.0
    assert osm.step(state).kind == "score"
    with pytest.raises(Illegal):
        osm.apply(state, TimerExpired("decoding"), 350.0)


# --- [OS-11] [OS-12] [OS-13] scoring ------------------------------------------------------------------

def test_OS11_OS12_rulebook_scoring_example():
    """The officer found 9 of the 11 drawn words, 5 cells stayed uncrossed
    and the secret word was destroyed: officer 9, agent 18 − 5 − 5 = 8."""
    state = decoded(["Agent", "Officer"])
    state = play(state, osm.Score(0, drawn=11, found=9, unused=5, destroyed=True))
    assert osm.points(state)["Agent"] == {"agent": 8, "officer": 0, "total": 8}
    assert osm.points(state)["Officer"] == {"agent": 0, "officer": 9, "total": 9}
    assert osm.summary(state).rounds == [osm.Booklet(
        agent="Agent", officer="Officer", drawn=11, found=9, unused=5,
        destroyed=True, scores={"Agent": 8, "Officer": 9})]


@pytest.mark.parametrize("score, message", [
    (osm.Score(0, 3, 4, 0, False), "more words than were drawn"),
    (osm.Score(0, -1, 0, 0, False), "0 or more"),
    (osm.Score(0, 3, 2, -2, False), "0 or more"),
    (osm.Score(0, 3, 2, 32, False), "grid: only 31"),
    (osm.Score(0, 3, 2, 1, "yes"), "yes or no"),
    (osm.Score(5, 3, 2, 1, False), "no such player"),
])
def test_OS11_impossible_scores_are_refused(score, message):
    state = decoded(3)
    with pytest.raises(Illegal, match=message):
        osm.apply(state, score, 0)


def test_OS11_unused_cells_cannot_exceed_the_letters_written_after_an_early_end():
    state = finish_round(finish_round(osm.setup({"players": 2})))
    state = play(state, osm.EndCreation(), Rolled("direction", (1,)), osm.EndDecoding())
    with pytest.raises(Illegal, match="grid: only 2"):
        osm.apply(state, osm.Score(0, 0, 0, 3, False), 0)
    assert osm.points(play(state, osm.Score(0, 0, 0, 2, False)))["Player 1"]["total"] == -2


def test_OS11_each_booklet_is_scored_once():
    state = play(decoded(3), osm.Score(1, 2, 2, 0, False))
    with pytest.raises(Illegal, match="already scored"):
        osm.apply(state, osm.Score(1, 2, 1, 0, False), 0)


def test_OS13_totals_add_both_roles_and_the_best_agent_wins():
    state = decoded(["Ada", "Bob", "Cyr"], direction=5)     # to the right: Ada → Cyr → Bob → Ada
    state = play(state, osm.Score(0, 6, 5, 2, False))      # Ada 8, Cyr 5
    assert osm.step(state) == osm.Step("score", player=1, officer=0)
    assert not osm.is_over(state) and osm.summary(state).winners == []
    state = play(state, osm.Score(2, 5, 3, 4, True))       # Cyr −3, Bob 3
    state = play(state, osm.Score(1, 4, 4, 0, False))      # Bob 8, Ada 4
    assert osm.totals(state) == {"Ada": 12, "Bob": 11, "Cyr": 2}
    assert osm.is_over(state) and osm.step(state) == osm.Step("over")
    summary = msgspec.to_builtins(osm.summary(state))
    assert summary["status"] == "finished" and summary["winners"] == ["Ada"]
    assert summary["direction"]["officers"] == {"Ada": "Cyr", "Bob": "Ada", "Cyr": "Bob"}
    for name in summary["players"]:
        assert sum(r["scores"].get(name, 0) for r in summary["rounds"]) == summary["totals"][name]


def test_OS13_equal_totals_share_the_win():
    state = decoded(["Ada", "Bob"])
    state = play(state, osm.Score(0, 3, 3, 0, False), osm.Score(1, 3, 3, 0, False))
    assert osm.summary(state).winners == ["Ada", "Bob"]
    assert osm.public(state).winners == ["Ada", "Bob"]


# --- replay and views ------------------------------------------------------------------------------

def test_replaying_the_events_gives_an_equal_state():
    players = {"players": ["Tonda", "Eva", "Jan"]}
    log = []
    state = finish_round(osm.setup(players), log)
    log.append(osm.Drawing(1))
    state = play(state, log[-1])
    while osm.step(state).kind in ("roll_letter", "pick"):
        state = finish_round(state, log)
    log += [Rolled("direction", (6,)), osm.StartDecoding(), TimerExpired("decoding"),
            osm.Score(0, 7, 6, 3, False), osm.Score(1, 5, 5, 0, True), osm.Score(2, 8, 2, 9, False)]
    state = play(state, *log[-6:], at=12.5)
    stored = json.loads(json.dumps([encode(event) for event in log]))
    replayed = play(osm.setup(players), *[decode(data, osm.EVENTS) for data in stored], at=12.5)
    assert replayed == state and osm.is_over(replayed)


def test_views_are_plain_json_and_the_service_answers_what_is_asked():
    state = play(osm.setup({"players": 2}), Rolled("letter", (1, 1)))
    assert osm.requests(state) == (Roll("letter", 2, 8, "Row 1: letter 2 of 3"),)
    for view in (osm.public(state), osm.private(state, 1)):
        assert msgspec.json.decode(msgspec.json.encode(view), type=type(view)) == view
    log = msgspec.to_builtins(osm.summary(state))
    assert json.loads(json.dumps(log)) == log
    assert osm.public(state).roll == osm.Rolling(row=1, index=1)
    assert osm.summary(state).status == "playing"
    with pytest.raises(Illegal):
        osm.private(state, 2)
    with pytest.raises(Illegal, match="two d8"):
        osm.apply(state, Rolled("letter", (9, 1)), 0)
    assert osm.requests(decoded(2)) == () and osm.timer(decoded(2)) is None
