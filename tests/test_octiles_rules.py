"""Octiles ("Move Over"): tiles, board, legal moves and the game, by rule tag."""
import dataclasses
import json
import random
import re
from importlib import resources

import msgspec
import pytest

from games import octiles
from games.base import Illegal, Shuffle, Shuffled, decode, encode
from games.octiles import Finished, Pass, Play, Played, Stop

BOARD = octiles.BOARD
BOARD_TEXT = resources.files("games").joinpath("data/octiles-board.txt").read_text(encoding="utf-8")


# --- tiles, derived from the pairings themselves --------------------------------------

def pairings(sides=tuple(range(8))):
    """Every way to join ``sides`` two by two."""
    if not sides:
        yield ()
        return
    first, rest = sides[0], sides[1:]
    for i, other in enumerate(rest):
        for more in pairings(rest[:i] + rest[i + 1:]):
            yield ((first, other),) + more


def normal(pairs):
    return tuple(sorted(tuple(sorted(p)) for p in pairs))


def turned(pairs, r):
    return normal(((a + r) % 8, (b + r) % 8) for a, b in pairs)


def mirrored(pairs):
    return normal(((-a) % 8, (-b) % 8) for a, b in pairs)


def rotation_class(pairs):
    return frozenset(turned(pairs, r) for r in range(8))


def test_OC_tiles_105_pairings_fall_into_18_classes_under_rotation_17_with_reflection():
    every = {normal(p) for p in pairings()}
    assert len(every) == 7 * 5 * 3 * 1 == 105
    by_rotation = {rotation_class(p) for p in every}
    assert len(by_rotation) == 18
    by_rotation_and_reflection = {c | rotation_class(mirrored(next(iter(c)))) for c in by_rotation}
    assert len(by_rotation_and_reflection) == 17


def test_OC_tiles_T01_to_T18_are_exactly_the_18_rotation_classes():
    classes = {rotation_class(p) for p in pairings()}
    tiles = [rotation_class(pairs) for pairs in octiles.TILES.values()]
    assert list(octiles.TILES) == [f"T{n:02}" for n in range(1, 19)]
    assert len(set(tiles)) == 18 and set(tiles) == classes


def test_OC_tiles_T10_is_the_mirror_image_of_T09_and_a_separate_tile():
    t09, t10 = octiles.TILES["T09"], octiles.TILES["T10"]
    assert rotation_class(mirrored(t09)) == rotation_class(t10) != rotation_class(t09)
    mirror_twins = [t for t, p in octiles.TILES.items() if rotation_class(mirrored(p)) != rotation_class(p)]
    assert mirror_twins == ["T09", "T10"]


def test_OC_tiles_orientation_counts_and_smallest_rotations_follow_from_the_pairings():
    for tile, pairs in octiles.TILES.items():
        orientations = octiles.rotations(tile)
        assert len(orientations) == len(rotation_class(pairs))
        for r in range(8):
            smallest = min(q for q in range(8) if turned(pairs, q) == turned(pairs, r))
            assert octiles.canonical(tile, r) == smallest
        assert orientations == tuple(sorted({octiles.canonical(tile, r) for r in range(8)}))
    assert sum(len(octiles.rotations(t)) for t in octiles.TILES) == 105


def test_OC_tile_paths_turn_clockwise_for_the_screen():
    # T07 (0,3)(1,4)(2,5)(6,7) one step clockwise: N-SE becomes NE-S, NW-W becomes N-NW.
    assert octiles.tile_paths("T07", 1) == ((0, 7), (1, 4), (2, 5), (3, 6))
    for tile, pairs in octiles.TILES.items():
        exits = dict(pairs) | {b: a for a, b in pairs}
        for r in range(8):
            paths = octiles.tile_paths(tile, r)
            assert len(paths) == 4 and sorted(s for p in paths for s in p) == list(range(8))
            for a, b in paths:  # entering at k leaves at pair(k - r) + r
                assert b == (exits[(a - r) % 8] + r) % 8


# --- the board file -------------------------------------------------------------------------

def touching(board):
    """Circle name -> how many sides touch it."""
    count = {}
    for link in board.links:
        if link < 0:
            count[board.circles[~link]] = count.get(board.circles[~link], 0) + 1
    return count


def test_board_has_17_spaces_16_stops_and_20_edge_circles():
    assert len(BOARD.spaces) == 17 and len(BOARD.links) == 136
    stops = [c for c in BOARD.circles if BOARD.is_stop(c)]
    assert sorted(stops) == sorted(f"{col}{row}" for col in "BCDE" for row in "2345")
    touches = touching(BOARD)
    assert {c for c in stops if touches[c] == 2} == {"B2", "E2", "B5", "E5"}
    assert {c for c in stops if touches[c] == 3} == {"C2", "E3", "D5", "B4"}
    assert all(touches[c] in (2, 3, 4) for c in stops)
    edge = [c for c in BOARD.circles if not BOARD.is_stop(c)]
    assert len(edge) == 20 and all(touches[c] == 1 for c in edge)
    joints = sum(link >= 0 for link in BOARD.links)
    assert (20, sum(touches[c] for c in stops), joints // 2) == (20, 52, 32)


def test_board_links_are_two_way():
    for slot, link in enumerate(BOARD.links):
        if link >= 0:
            assert link != slot and BOARD.links[link] == slot


def test_board_seats_and_homes_as_in_the_board_document():
    assert BOARD.start_homes("west") == ("A1", "A2", "A3", "A4", "A5")
    assert BOARD.start_homes("north") == ("A6", "B6", "C6", "D6", "E6")
    assert BOARD.start_homes("east") == ("F6", "F5", "F4", "F3", "F2")
    assert BOARD.start_homes("south") == ("F1", "E1", "D1", "C1", "B1")
    assert BOARD.goal_homes("west") == BOARD.start_homes("east")
    assert BOARD.goal_homes("north") == BOARD.start_homes("south")


def test_board_spaces_numbered_row_by_row_from_the_north_west():
    expected = "b5 c5 b4 c4 d4 e4 a3 b3 c3 d3 e3 a2 b2 c2 d2 c1 d1".split()
    assert [octiles.space_name(n) for n in range(1, 18)] == expected
    assert octiles.space_number("c3") == 9 and octiles.space_number("d1") == 17
    with pytest.raises(ValueError):
        octiles.space_name(18)


def with_side(text, space, side, new):
    """The board text with ``space``'s ``side`` leading to ``new``."""
    line = re.search(rf"^{space} .*$", text, re.M).group(0)
    words = line.split()
    words[1 + octiles.SIDES.index(side)] = new
    return text.replace(line, " ".join(words))


def test_board_packaged_file_loads_again_equal():
    again = octiles.load_board(BOARD_TEXT)
    assert (again.spaces, again.circles, again.links) == (BOARD.spaces, BOARD.circles, BOARD.links)


def test_board_with_a_one_way_link_is_refused_naming_the_side():
    with pytest.raises(ValueError, match=r"one-way link: b5\.NE leads to c5\.W, but c5\.W leads to b5\.E"):
        octiles.load_board(with_side(BOARD_TEXT, "b5", "NE", "c5.W"))


def test_board_with_a_dead_end_is_refused_naming_the_side():
    with pytest.raises(ValueError, match=r"dead end: d4\.SW leads nowhere"):
        octiles.load_board(with_side(BOARD_TEXT, "d4", "SW", "-"))
    with pytest.raises(ValueError, match=r"dead end: b5\.W leads to a5, which is not a space"):
        octiles.load_board(with_side(BOARD_TEXT, "b5", "W", "a5.E"))


def test_board_that_changes_under_a_quarter_turn_is_refused():
    # Two-way and well counted still, but no longer the same turned 90 degrees.
    with pytest.raises(ValueError, match=r"quarter turn: b5\.SE leads to B4, so e4\.SW should lead to D5"):
        octiles.load_board(with_side(BOARD_TEXT, "b5", "SE", "B4"))


def test_board_with_a_missing_space_is_refused():
    without_c3 = re.sub(r"^c3 .*\n", "", BOARD_TEXT, flags=re.M)
    with pytest.raises(ValueError, match="16 spaces, not 17"):
        octiles.load_board(without_c3)


# --- legal moves, hand-checked ---------------------------------------------------------------

WEST_START = {c: "west" for c in ("A1", "A2", "A3", "A4", "A5")}


def moves(pos, tile):
    return set(octiles.legal_moves(pos, tile))


def test_OC5_from_the_start_a_straight_tile_leads_only_to_B3():
    # T01 joins opposite sides.  On a2, A2 (SW) runs to B3 (NE); A1 and A3
    # run on into the empty a3 and b2.  On a3, A5 (NW) runs to B3 (SE).
    pos = octiles.position(players=2)
    assert octiles.legal_moves(pos, "T01") == (("a3", 0, "A5", "B3"), ("a2", 0, "A2", "B3"))


def test_OC5_path_runs_over_several_tiles_and_a_printed_segment():
    # A5 -> a3 (T18 turned once joins NW and N) -> printed a3.N-b4.W -> b4 (T06: W-NE) -> C5.
    pos = octiles.position(players=2, tiles={"a3": ("T18", 1)})
    assert ("b4", 0, "A5", "C5") in moves(pos, "T06")


def test_OC5_a_closed_ring_of_paths_without_a_circle_moves_nobody():
    # a3 (T17: N-E), b4 (T11: S-W) and b3 (T13 turned 6: N-W) close a ring
    # over a3.N-b4.W, b4.S-b3.N and b3.W-a3.E.  On b3 that tile leaves C4 one
    # path, to C3; E and S run into empty spaces.
    pos = octiles.position(players=2, tiles={"a3": ("T17", 0), "b4": ("T11", 0)}, runners={"C4": "west"})
    assert octiles.tile_paths("T13", 6) == ((0, 6), (1, 3), (2, 7), (4, 5))
    assert {m for m in moves(pos, "T13") if m[:2] == ("b3", 6)} == {("b3", 6, "C4", "C3")}


def test_OC5_loop_back_over_the_new_tile_is_allowed():
    # From stop B3: into a2 at NE, out at N (T18) to a3.S, out at SE (T17 turned 7) back to B3.
    pos = octiles.position(players=2, tiles={"a3": ("T17", 7)}, runners={"B3": "west"})
    assert ("a2", 0, "B3", "B3") in moves(pos, "T18")


def test_OC4_loop_that_does_not_cross_the_new_tile_is_refused():
    pos = octiles.position(players=2, tiles={"a2": ("T18", 0), "a3": ("T17", 7)}, runners={"B3": "west"})
    found = moves(pos, "T01")
    assert found and not any(m.to_circle == "B3" for m in found)


def test_OC5_one_runner_per_circle_occupied_stop_is_refused():
    # Both start moves of T01 end on B3 (see above): with an East runner there, none is left ...
    assert moves(octiles.position(players=2, runners={**WEST_START, "B3": "east"}), "T01") == set()
    # ... and with West's own fifth runner there, only that runner moves on.
    own = {"A1": "west", "A2": "west", "A3": "west", "A4": "west", "B3": "west"}
    assert moves(octiles.position(players=2, runners=own), "T01") == {("b3", 0, "B3", "C4"), ("b2", 0, "B3", "C2")}


def test_OC6_never_back_into_an_own_start_home():
    # From B3 a straight tile on a2 leads to A2 and on a3 to A5: both West's own start homes.
    pos = octiles.position(players=2, runners={"B3": "west"})
    assert moves(pos, "T01") == {("b3", 0, "B3", "C4"), ("b2", 0, "B3", "C2")}


def test_OC6_never_into_an_opponents_goal():
    # T04 turned 6 joins SW and NW: from B5 over b5 to B6 on the north edge,
    # North's start home and South's goal.
    south = octiles.position(players=4, runners={"B5": "south"}, to_move="south")
    assert ("b5", 6, "B5", "B6") in moves(south, "T04")
    west = octiles.position(players=4, runners={"B5": "west"}, to_move="west")
    assert not any(m.to_circle == "B6" for m in moves(west, "T04"))


def test_OC6_edge_circles_of_an_unused_seat_are_off_limits():
    for seat in ("west", "east"):  # two players: nobody sits North or South
        pos = octiles.position(players=2, runners={"B5": seat}, to_move=seat)
        found = moves(pos, "T04")
        assert found and not any(m.to_circle in BOARD.start_homes("north") for m in found)


def test_OC6_runner_reaches_its_own_goal_home():
    # T04 joins SW and E: from E4 over e4 to F4, an East start home, so West's goal.
    pos = octiles.position(players=2, runners={"E4": "west"})
    assert ("e4", 0, "E4", "F4") in moves(pos, "T04")
    taken = octiles.position(players=2, runners={"E4": "west", "F4": "east"})
    assert ("e4", 0, "E4", "F4") not in moves(taken, "T04")


def test_OC6_runner_in_its_goal_home_never_moves():
    east = octiles.position(players=2, runners={"F4": "east"}, to_move="east")
    assert ("e4", 0, "F4", "E4") in moves(east, "T04")  # F4 is East's start: East leaves it
    west = octiles.position(players=2, runners={"F4": "west", "E5": "west"})
    found = moves(west, "T04")
    assert ("e4", 0, "E5", "F5") in found and not any(m.from_circle == "F4" for m in found)


def test_OC7_with_every_start_home_taken_a_runner_must_leave_one():
    # West's A5 holds an East runner at its goal; West's own fifth runner is on E4.
    runners = {"A1": "west", "A2": "west", "A3": "west", "A4": "west", "E4": "west",
               "A5": "east", "B2": "east", "B4": "east"}
    found = moves(octiles.position(players=2, runners=runners), "T04")
    assert found and all(m.from_circle in BOARD.start_homes("west") for m in found)
    # ... which E4 -> F4 would not do (it is a move once a start home is free)
    freed = octiles.position(players=2, runners={c: s for c, s in runners.items() if c != "A1"})
    assert ("e4", 0, "E4", "F4") in moves(freed, "T04")


def test_OC7_other_moves_are_allowed_when_no_runner_can_leave():
    # Out of A1-A5 every path over a2 or a3 ends on B2, B3, B4 (all taken),
    # an own start home or an empty space: nobody can leave, so E4 -> F4 stands.
    runners = {"A1": "west", "A2": "west", "A3": "west", "A4": "west", "E4": "west",
               "A5": "east", "B2": "east", "B3": "east", "B4": "east"}
    found = moves(octiles.position(players=2, runners=runners), "T04")
    assert ("e4", 0, "E4", "F4") in found
    assert not any(m.from_circle in BOARD.start_homes("west") for m in found)


def test_OC2_a_placed_tile_can_be_exchanged():
    # T18 on a2 leads nowhere useful; T01 replacing it takes A2 to B3.
    pos = octiles.position(players=2, tiles={"a2": ("T18", 0)})
    assert ("a2", 0, "A2", "B3") in moves(pos, "T01")


def test_OC5_symmetric_tile_counted_once_per_orientation():
    pos = octiles.position(players=2)
    found = octiles.legal_moves(pos, "T01")  # T01 looks the same turned any way
    assert all(m.rotation == 0 for m in found) and len(found) == len(set(found))


def test_OC5_path_ends_follow_each_path_of_a_laid_tile():
    # T03 on a2 from the start: N runs into the empty a3, SW to A2; NE-S
    # joins B3 and A1; E and NW (over the printed a2.NW-a3.SW) run into the
    # empty b2 and a3; SE-W joins B2 and A3.
    pos = octiles.position(players=2)
    assert octiles.tile_paths("T03", 0) == ((0, 5), (1, 4), (2, 7), (3, 6))
    assert octiles.path_ends(pos, "T03", "a2", 0) == ((None, "A2"), ("B3", "A1"), (None, None), ("B2", "A3"))
    # a tile lying on the space counts as taken off
    laid = octiles.position(players=2, tiles={"a2": ("T18", 0)})
    assert octiles.path_ends(laid, "T03", "a2", 0) == octiles.path_ends(pos, "T03", "a2", 0)


def test_OC5_OC6_a_placement_without_a_move_says_why():
    state = started(order=deck_with("T06"))
    assert octiles.moves_at(state, "a2", 7) == octiles.moves_at(state, "a2", 15) == (("a2", 7, "A3", "B2"),)
    assert octiles.no_move(state, "a2", 7) is None
    assert octiles.no_move(state, "c3", 0) == octiles.NoMove("None of your runners is on its paths.")
    assert octiles.no_move(state, "a2", 1) == octiles.NoMove("A runner may never go back to its start homes.", "A1", "A3")
    assert octiles.no_move(state, "a2", 6) == octiles.NoMove("That path runs into an empty space.", "A3")


def test_OC7_a_placement_refused_to_keep_a_start_home_free_says_so():
    runners = {"A1": "west", "A2": "west", "A3": "west", "A4": "west", "E4": "west",
               "A5": "east", "B2": "east", "B4": "east"}
    state = at(octiles.position(players=2, runners=runners), "T04")
    assert octiles.no_move(state, "e4", 0) == octiles.NoMove(
        "All your start homes are taken: a runner must leave one.", "E4", "F4")


# --- the game ------------------------------------------------------------------------------

def started(options=None, order=octiles.TILE_IDS):
    state = octiles.setup(options or {})
    return octiles.apply(state, Shuffled("deck", tuple(order)), 0)


def deck_with(*top):
    return tuple(top) + tuple(t for t in octiles.TILE_IDS if t not in top)


def at(pos, hand, mode="referee"):
    """A game whose board is ``pos`` and whose player to move holds ``hand``."""
    options = {"players": len(pos.seats), "runners": pos.runners_per_player, "mode": mode,
               "starts": pos.seats.index(pos.to_move)}
    return dataclasses.replace(started(options, deck_with(hand)), board=pos)


def test_OC1_setup_asks_for_the_shuffled_deck_and_the_first_player_draws():
    state = octiles.setup({"players": 3, "starts": 1})
    assert octiles.requests(state) == (Shuffle("deck", octiles.TILE_IDS),)
    assert octiles.step(state).kind == "shuffle"
    with pytest.raises(Illegal, match="not shuffled"):
        octiles.apply(state, Pass(), 0)
    order = deck_with("T09", "T02")
    state = octiles.apply(state, Shuffled("deck", order), 0)
    assert octiles.requests(state) == ()
    step = octiles.step(state)
    assert (step.kind, step.seat, step.tile) == ("play", 1, "T09")
    view = octiles.public(state)
    assert view.players == ["West", "North", "East"] and view.player == "North"
    assert view.deck == 17 and set(view.pieces.values()) == {"west", "north", "east"}
    north = octiles.private(state, 1)
    # The views name places as the table reads them: a space's number, a circle's arrow name.
    assert north.moves == [(octiles.space_number(m.space), m.rotation, octiles.place(m.from_circle),
                            octiles.place(m.to_circle)) for m in octiles.legal_moves(state.board, "T09")] != []
    assert north.moves[0] == (1, 1, "1←", "1↘")
    assert north.start_homes == ["1←", "1↖", "1↑", "2↑", "2↗"] and octiles.private(state, 0).moves is None


def test_OC1_three_runners_start_on_the_first_homes_of_each_seat():
    view = octiles.public(started({"players": 2, "runners": 3}))
    assert view.pieces == {"12↓": "west", "12↙": "west", "12←": "west",
                              "6↑": "east", "6↗": "east", "6→": "east"}


def test_OC1_runners_stand_on_the_homes_each_player_chose():
    state = started({"players": 3, "runners": 4, "homes": [["A2", "A3", "A4", "A5"], ["A6", "B6", "D6", "E6"],
                                                           ["F6", "F5", "F3", "F2"]]})
    assert octiles.public(state).pieces == {
        "12↙": "west", "12←": "west", "7←": "west", "7↖": "west", "1←": "north", "1↖": "north", "2↑": "north",
        "2↗": "north", "6↑": "east", "6↗": "east", "11→": "east", "11↘": "east"}


@pytest.mark.parametrize("homes, message", [
    ([["A1", "A2", "A3"]], "every player"),
    ([["A1", "A2"], ["F6", "F5", "F4"]], "start home of their own"),
    ([["A1", "A1", "A2"], ["F6", "F5", "F4"]], "start home of their own"),
    ([["A1", "A2", "F6"], ["F6", "F5", "F4"]], "start home of their own"),
    ([["A1", "A2", "B3"], ["F6", "F5", "F4"]], "start home of their own"),
])
def test_OC1_homes_that_are_not_the_players_own_are_refused(homes, message):
    with pytest.raises(Illegal, match=message):
        octiles.setup({"players": 2, "runners": 3, "homes": homes})
    with pytest.raises(Illegal, match="dealer mode"):
        octiles.setup({"players": 2, "runners": 3, "mode": "dealer", "homes": [["A1", "A2", "A3"]] * 2})


def test_OC1_bad_options_are_refused():
    for options in ({"players": 5}, {"players": 1}, {"runners": 2}, {"runners": 6},
                    {"starts": 2}, {"mode": "solo"}, {"colour": "red"}):
        with pytest.raises(Illegal):
            octiles.setup(options)
    with pytest.raises(Illegal):
        octiles.apply(octiles.setup({}), Shuffled("deck", ("T01",) * 18), 0)


def test_OC2_exchanged_tile_goes_to_the_bottom_of_the_deck():
    state = started()  # West draws T01, East T02, West T03 ...
    state = octiles.apply(state, Play("a2", 0, "A2", "B3"), 0)
    state = octiles.apply(state, Play("e4", 0, "F6", "E4"), 0)  # T02 on e4: N to SW
    assert octiles.step(state).tile == "T03"
    assert octiles.exchange(state, "a2") == octiles.Exchange("T01", "deck")
    assert octiles.exchange(state, "c3") is None
    # T03 on a2 instead of T01: A3 (W) runs to B2 (SE); A1 (S) would reach B3, taken.
    assert [m for m in octiles.legal_moves(state.board, "T03") if m.space == "a2"] == [("a2", 0, "A3", "B2")]
    state = octiles.apply(state, Play("a2", 0, "A3", "B2"), 0)
    assert state.deck[-1] == "T01" and octiles.step(state).tile == "T04"
    assert octiles.public(state).tiles["12"] == octiles.Laid(number=12, tile="T03", rotation=0)
    assert octiles.public(state).last.action == "exchanged"


def test_OC3_on_a_full_board_the_removed_tile_is_the_next_players_tile():
    full = {space: (tile, 0) for space, tile in zip(BOARD.spaces, octiles.TILE_IDS[:17])}
    state = at(octiles.position(players=2, tiles=full), "T18")
    state = dataclasses.replace(state, deck=())
    move = octiles.legal_moves(state.board, "T18")[0]
    removed = state.board.tile_on(move.space)[0]
    assert octiles.exchange(state, move.space) == octiles.Exchange(removed, "next")
    state = octiles.apply(state, Play(*move), 0)
    step = octiles.step(state)
    assert (step.seat, step.tile, step.tile_from) == (1, removed, "board")
    assert state.deck == () and state.board.tile_on(move.space)[0] == "T18"


def test_OC4_play_not_over_the_new_tile_is_refused_and_changes_nothing():
    pos = octiles.position(players=2, tiles={"a2": ("T18", 0), "a3": ("T17", 7)}, runners={"B3": "west"})
    state = at(pos, "T01")
    with pytest.raises(Illegal, match="does not lead there"):
        octiles.apply(state, Play("c3", 0, "B3", "B3"), 0)
    assert octiles.step(state).tile == "T01"


def test_OC5_OC6_illegal_plays_are_refused_with_the_reason():
    state = started()
    cases = {Play("a2", 0, "B3", "C4"): "no runner", Play("a2", 0, "A2", "A1"): "start homes",
             Play("a3", 0, "A5", "C4"): "does not lead", Play("z9", 0, "A2", "B3"): "no such space",
             Play("a2", 9, "A2", "B3"): "0 to 7"}
    for play, why in cases.items():
        with pytest.raises(Illegal, match=why):
            octiles.apply(state, play, 0)
    east_home = at(octiles.position(players=2, runners={"B5": "west"}), "T04")
    with pytest.raises(Illegal, match="closed to you"):
        octiles.apply(east_home, Play("b5", 6, "B5", "B6"), 0)


def test_OC7_play_that_keeps_every_start_home_full_is_refused():
    runners = {"A1": "west", "A2": "west", "A3": "west", "A4": "west", "E4": "west",
               "A5": "east", "B2": "east", "B4": "east"}
    state = at(octiles.position(players=2, runners=runners), "T04")
    with pytest.raises(Illegal, match="must leave one"):
        octiles.apply(state, Play("e4", 0, "E4", "F4"), 0)


def test_OC8_a_pass_leaves_the_tile_on_top_for_the_next_player():
    state = octiles.apply(started(), Pass(), 0)
    step = octiles.step(state)
    assert (step.seat, step.tile, step.must_move) == (1, "T01", False)
    assert len(state.deck) == 17 and octiles.summary(state).passes == 1


def test_OC8_once_everyone_passed_a_player_who_can_move_must():
    state = octiles.apply(octiles.apply(started(), Pass(), 0), Pass(), 0)
    assert octiles.step(state).must_move and octiles.public(state).all_passed
    with pytest.raises(Illegal, match="you must"):
        octiles.apply(state, Pass(), 0)
    state = octiles.apply(state, Play("a2", 0, "A2", "B3"), 0)
    assert not octiles.step(state).must_move
    assert octiles.step(octiles.apply(state, Pass(), 0)).must_move is False


def test_OC8_a_tile_nobody_can_use_goes_under_the_deck_and_the_game_goes_on():
    # T01 runs straight: West's A1 goes into the empty a3, East's F6 into the
    # empty e3; all the other runners stand in their goal homes.
    runners = {"F2": "west", "F3": "west", "A1": "west", "A4": "east", "A5": "east", "F6": "east"}
    state = at(octiles.position(players=2, runners_per_player=3, runners=runners), "T01")
    kinds, next_tile = [], state.deck[0]
    for _ in range(4):
        kinds.append(octiles.step(state).kind)
        state = octiles.apply(state, Pass(), 0)
    assert kinds == ["no_move", "no_move", "no_move", "no_move"]
    # [OC-8] [ruling] everyone passed, then a whole round nobody could move
    # with it: under the deck, and the next player draws the next tile.
    step = octiles.step(state)
    assert (step.kind, step.seat, step.tile, step.tile_from) == ("play", 0, next_tile, "deck")
    assert state.deck[-1] == "T01" and len(state.deck) == 17 and not step.must_move
    log = msgspec.to_builtins(octiles.summary(state))
    assert [r["set_aside"] for r in log["rounds"]] == [False, False, False, True]
    assert log["passes"] == 4 and octiles.public(state).last.set_aside


def test_OC8_with_no_other_tile_to_draw_the_table_may_stop():
    # Only a full board leaves the deck empty, and there an exchange nearly
    # always moves someone; the deck is emptied by hand to see the fallback.
    runners = {"F2": "west", "F3": "west", "A1": "west", "A4": "east", "A5": "east", "F6": "east"}
    state = at(octiles.position(players=2, runners_per_player=3, runners=runners), "T01")
    state = dataclasses.replace(state, deck=())
    for _ in range(4):
        state = octiles.apply(state, Pass(), 0)
    assert octiles.step(state).kind == "stuck" and state.hand == "T01"
    state = octiles.apply(state, Stop(), 0)
    assert octiles.is_over(state) and octiles.summary(state).winners == []


def test_OC9_the_first_with_every_runner_home_wins():
    runners = {"F2": "west", "F3": "west", "E4": "west", "A4": "east", "A5": "east", "C5": "east"}
    state = at(octiles.position(players=2, runners_per_player=3, runners=runners), "T04")
    state = octiles.apply(state, Play("e4", 0, "E4", "F4"), 0)
    assert octiles.is_over(state) and octiles.step(state).kind == "over"
    log = msgspec.to_builtins(octiles.summary(state))
    assert log["status"] == "finished" and log["winners"] == ["West"]
    assert log["finishing_order"] == ["West"] and log["totals"] == {"West": 3, "East": 2}
    assert log["rounds"][-1]["scores"] == {"West": 1, "East": 0} and log["rounds"][-1]["finished"]
    with pytest.raises(Illegal, match="over"):
        octiles.apply(state, Pass(), 0)


def test_OC9_the_table_plays_on_and_the_finishing_order_is_kept():
    runners = {"F2": "west", "F3": "west", "E4": "west", "A4": "east", "A5": "east", "B5": "east",
               "C6": "north"}
    pos = octiles.position(players=3, runners_per_player=3, runners=runners)
    state = octiles.apply(at(pos, "T04"), Play("e4", 0, "E4", "F4"), 0)
    assert not octiles.is_over(state) and octiles.public(state).winner == "West"
    assert octiles.step(state).seat == 1
    state = octiles.apply(octiles.apply(state, Pass(), 0), Pass(), 0)
    assert octiles.step(state).seat == 1  # West, finished, is skipped
    state = octiles.apply(state, Stop(), 0)
    log = msgspec.to_builtins(octiles.summary(state))
    assert octiles.is_over(state) and log["winners"] == ["West"] and log["finishing_order"] == ["West"]


def test_OC9_dealer_mode_deals_and_players_declare_who_finished():
    state = started({"players": 3, "mode": "dealer"}, deck_with("T05", "T06", "T07"))
    with pytest.raises(Illegal):
        octiles.apply(state, Play("a2", 0, "A2", "B3"), 0)
    with pytest.raises(Illegal, match="without playing"):
        octiles.apply(state, Finished(0), 0)
    state = octiles.apply(state, Played("c3"), 0)
    state = octiles.apply(state, Played("c3"), 0)  # North exchanges T05
    assert state.deck[-1] == "T05" and octiles.step(state).tile == "T07"
    assert octiles.public(state).tiles["9"] == octiles.Laid(number=9, tile="T06", rotation=None)
    state = octiles.apply(state, Pass(), 0)
    state = octiles.apply(state, Finished(1), 0)
    assert not octiles.is_over(state) and octiles.public(state).winner == "North"
    state = octiles.apply(state, Finished(0), 0)
    log = msgspec.to_builtins(octiles.summary(state))
    assert octiles.is_over(state) and log["finishing_order"] == ["North", "West"]
    assert log["winners"] == ["North"] and log["totals"] == {"West": 5, "North": 5, "East": 0}
    assert (log["turns"], log["tiles_placed"], log["exchanges"], log["passes"]) == (3, 1, 1, 1)


def test_public_view_hides_the_order_of_the_deck():
    state = started(order=deck_with("T05", "T11"))
    text = msgspec.json.encode(octiles.public(state)).decode()
    assert "T05" in text and "T11" not in text
    assert "T11" not in json.dumps(msgspec.to_builtins(octiles.summary(state)))


# --- random play -------------------------------------------------------------------------------

def reference_moves(pos, tile):
    """Legal moves the slow way: place, then walk from every runner."""
    me = pos.to_move
    goal, starts = set(BOARD.goal_homes(me)), set(BOARD.start_homes(me))
    sides_of = {}
    for slot, link in enumerate(BOARD.links):
        if link < 0:
            sides_of.setdefault(BOARD.circles[~link], []).append((BOARD.spaces[slot // 8], slot % 8))
    exits = {}  # (tile, rotation) -> side -> side, from the drawing helper
    for t in octiles.TILE_IDS:
        for r in range(8):
            exits[t, r] = {k: j for a, b in octiles.tile_paths(t, r) for k, j in ((a, b), (b, a))}
    found = set()
    for space in BOARD.spaces:
        for r in range(8):
            tiles = {**pos.placed(), space: (tile, r)}
            for circle, seat in pos.pieces().items():
                if seat != me or circle in goal:
                    continue
                for at_space, side in sides_of[circle]:
                    crossed, end = False, None
                    while at_space in tiles:
                        crossed |= at_space == space
                        side = exits[tiles[at_space]][side]
                        link = BOARD.links[8 * BOARD.spaces.index(at_space) + side]
                        if link < 0:
                            end = BOARD.circles[~link]
                            break
                        at_space, side = BOARD.spaces[link // 8], link % 8
                    if end is None or not crossed:
                        continue
                    if end == circle and BOARD.is_stop(circle) or (
                            end != circle and pos.runner_on(end) is None and (BOARD.is_stop(end) or end in goal)):
                        found.add((space, octiles.canonical(tile, r), circle, end))
    if all(pos.runner_on(c) for c in starts) and any(m[2] in starts for m in found):
        found = {m for m in found if m[2] in starts}
    return found


def check_invariants(state, home_before):
    board = state.board
    assert len(board.tiles) == 17
    on_board = [t for t, _ in board.placed().values()]
    assert sorted(on_board + list(state.deck) + [state.hand]) == sorted(octiles.TILE_IDS)
    pieces = board.pieces()
    for seat in state.seats:
        mine = [c for c, s in pieces.items() if s == seat]
        assert len(mine) == board.runners_per_player  # one runner per circle, none lost
        for c in mine:
            assert BOARD.is_stop(c) or c in BOARD.start_homes(seat) or c in BOARD.goal_homes(seat)
    home = {(c, s) for c, s in pieces.items() if c in BOARD.goal_homes(s)}
    assert home_before <= home  # a runner home stays home
    return home


def test_OC_random_play_keeps_every_invariant_and_replays_equal():
    finished = 0
    for seed in range(18):
        rng = random.Random(seed)
        players = 2 + seed % 3
        options = {"players": players, "runners": 3 + seed % 3, "starts": rng.randrange(players)}
        order = list(octiles.TILE_IDS)
        rng.shuffle(order)
        events = [Shuffled("deck", tuple(order))]
        state = octiles.apply(octiles.setup(options), events[0], 0)
        home = check_invariants(state, set())
        for turn in range(250):
            step = octiles.step(state)
            if step.kind == "over":
                break
            found = octiles.legal_moves(state.board, state.hand)
            if turn % 25 == 0:
                assert set(found) == reference_moves(state.board, state.hand)
            if step.kind == "stuck":
                event = Stop()
            elif found and (step.must_move or rng.random() < 0.9):
                event = Play(*rng.choice(found))
            else:
                event = Pass()
            state = octiles.apply(state, event, 0)
            events.append(event)
            home = check_invariants(state, home)
        finished += bool(state.finishers)
        json.dumps(msgspec.to_builtins([octiles.public(state), octiles.private(state, 0), octiles.summary(state)]))
        replayed = octiles.setup(options)
        for event in events:
            replayed = octiles.apply(replayed, decode(json.loads(json.dumps(encode(event))), octiles.EVENTS), 0)
        assert replayed == state
        log = msgspec.to_builtins(octiles.summary(state))
        turns = [e for e in events if isinstance(e, (Play, Pass))]
        assert log["turns"] == log["tiles_placed"] + log["exchanges"] + log["passes"] == len(turns)
    assert finished  # some games do reach a winner
