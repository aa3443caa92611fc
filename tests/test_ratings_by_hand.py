"""Issue 37: ratings checked by hand.

The OpenSkill numbers below were worked out once by hand (a calculator and
the model's equations, not the project's rating code nor the library's),
and are written down with their working, so that a change of the model,
of its defaults, of the library or of how a game's result becomes ranks
shows here as a number that moved.  The games go the public way: a
finished game at the virtual table read from the box's player API, or a
box's payload taken by the league and read from the league's.

The model: OpenSkill's Plackett-Luce (Weng and Lin 2011, Algorithm 4) with
its defaults, mu 25, sigma 25/3, beta 25/6, tau 25/300, kappa 0.0001.  For
every player first sigma² += tau²; each team (a seat is a team of one)
sums its players' mu and sigma²; with c² = Σ_teams (sigma²_team + beta²)
and ranks r (1 best, equal ranks tied), for each team i, summing over the
teams q ranked at or above it (r_q <= r_i):

    p_iq  = exp(mu_i / c) / Σ_{s: r_s >= r_q} exp(mu_s / c)
    A_q   = how many teams share q's rank
    Omega = sigma²_i / c · Σ_q ([q = i] - p_iq) / A_q
    Delta = sigma_i / c · sigma²_i / c² · Σ_q p_iq (1 - p_iq) / A_q

and each player j of team i moves:  mu_j += sigma_j² / sigma²_i · Omega,
sigma_j *= sqrt(max(1 - sigma_j² / sigma²_i · Delta, kappa)).
The conservative value a ladder ranks by is mu - 3 sigma (OpenSkill's
``ordinal``).

Where every team's mu is the same, every exp(mu/c) is the same number, so
each p_iq is 1 over how many teams are ranked at or below q: that is what
makes the sums below fractions.  New players: sigma² = 625/9 + 1/144 =
69.451389 (to six places), beta² = 17.361111.
"""
from __future__ import annotations

import asyncio
import json
import time
from urllib.parse import quote

import pytest
from aiohttp.test_utils import TestClient, TestServer

from referee.club import messages
from referee.club.league import League
from referee.club.league_web import LeagueSite, make_app
from referee.config import Ladder
from referee.testing import Table
from test_ladder import ladder_rows

NOW = time.time()
CLUB = "club"
EXACT = 1e-9          # the written numbers have ten decimals


def by_hand(mu: float, sigma: float) -> dict:
    return {"mu": pytest.approx(mu, abs=EXACT), "sigma": pytest.approx(sigma, abs=EXACT)}


def exactly(value: float):
    return pytest.approx(value, abs=EXACT)


# --- through the league: a box's payload in, the league's player API out --------------------------

def entry(game: str, number: int, players: list[str], winners: list[str], **more) -> tuple[str, bytes]:
    sent = {"id": number, "game": game, "started": NOW - 7200 + number, "ended": NOW - 3600 + number,
            "status": "finished", "players": players, "winners": winners, **more}
    return messages.topic(CLUB, "north", "event"), messages.encode(messages.Entry(
        v=1, kind="game", id=f"north:{number}:1", table="north", game=number, seq=1, at=1.0, entry=sent))


def league_get(payloads, paths: list[str], rules: Ladder | None = None) -> list[str]:
    """The league's answers at ``paths``, once it has taken ``payloads``."""
    league = League(":memory:")
    try:
        for topic, payload in payloads:
            assert league.take(topic, payload) == "taken"

        async def get():
            async with TestClient(TestServer(make_app(LeagueSite(league, ladder=rules)))) as client:
                out = []
                for path in paths:
                    answer = await client.get(path)
                    assert answer.status == 200, path
                    out.append(await answer.text())
                return out
        return asyncio.run(get())
    finally:
        league.close()


def ratings(payloads, game: str, names: list[str]) -> dict[str, dict]:
    """Each name's rating at ``game`` as the league's player API gives it,
    with its all-time ``ordinal`` beside it."""
    files = league_get(payloads, [f"/api/p/{quote(name.casefold(), safe='')}.json" for name in names])
    out = {}
    for name, file in zip(names, files):
        got = json.loads(file)["games"][game]
        [all_time] = [p for p in got["ladders"] if p["season"] is None]
        out[name] = {**got["rating"], "ordinal": all_time["ordinal"]}
    return out


def rated(got: dict) -> dict:
    return {"mu": got["mu"], "sigma": got["sigma"]}


def test_three_players_a_tie_for_second():
    # Decipher, Ala 20 points, Bea and Cyd 10 each: ranks 1, 2, 2.
    # c² = 3 · (69.451389 + 17.361111) = 260.4375, c = 16.138076.
    # sums of exp(25/c) (each the same, E): rank 1: 3E, rank 2: 2E; A = 1, 2, 2.
    # Ala: q = Ala only: p = 1/3; Σ(1 - p) = 2/3, Σ p(1 - p) = 2/9.
    #   Omega = 69.451389 / c · 2/3 = 2.8690486807
    #   Delta = √69.451389 / c · 69.451389 / c² · 2/9 = 0.0306022679
    #   mu 25 + 2.8690486807 = 27.8690486807, sigma √69.451389 · √(1 - Delta)
    #   = 8.333750 · √0.9693977321 = 8.2052433774
    # Bea (Cyd the same): q = Ala: p = 1/3, A 1: -1/3 and 2/9;
    #   q = Bea: p = E/2E = 1/2, A 2: (1 - 1/2)/2 = +1/4 and (1/2 · 1/2)/2 = 1/8;
    #   q = Cyd: p = 1/2, A 2: -1/4 and 1/8.  Σ = -1/3, 17/36.
    #   Omega = 69.451389 / c · -1/3 = -1.4345243404, Delta = 0.0306022679 · (17/36) / (2/9) = 0.0650298192
    #   mu 23.5654756596, sigma 8.333750 · √(1 - 0.0650298192) = 8.0582242228
    # The conservative value mu - 3 sigma: Ala 27.8690486807 - 24.6157301322 = 3.2533185485,
    #   Bea and Cyd 23.5654756596 - 24.1746726684 = -0.6091970088.
    got = ratings([entry("decipher", 1, ["Ala", "Bea", "Cyd"], ["Ala"], totals={"Ala": 20, "Bea": 10, "Cyd": 10})],
                  "decipher", ["Ala", "Bea", "Cyd"])
    assert rated(got["Ala"]) == by_hand(27.8690486807, 8.2052433774)
    assert rated(got["Bea"]) == rated(got["Cyd"]) == by_hand(23.5654756596, 8.0582242228)
    assert {name: got[name]["games"] for name in got} == {"Ala": 1, "Bea": 1, "Cyd": 1}
    assert got["Ala"]["ordinal"] == exactly(3.2533185485)
    assert got["Bea"]["ordinal"] == got["Cyd"]["ordinal"] == exactly(-0.6091970088)


def decrypto(number: int, white: list[str], black: list[str], winner: str) -> tuple[str, bytes]:
    return entry("decrypto", number, ["White", "Black"], [winner], members={"White": white, "Black": black},
                 totals={"White": 2 if winner == "White" else 0, "Black": 2 if winner == "Black" else 0})


def test_decrypto_two_against_two_then_three_against_three():
    # 2 v 2, all new; White (Ada, Ben) beats Black (Cas, Dia).  A team sums
    # its players: mu 50, sigma² 138.902778.  c² = 2 · (138.902778 + 17.361111)
    # = 312.527778, c = 17.678455.  exp(50/c) the same for both: p = 1/2.
    # White: q = White: Σ(1 - p) = 1/2, Σ p(1 - p) = 1/4.
    #   Omega = 138.902778 / c · 1/2 = 3.9285892436; each player gets
    #   69.451389 / 138.902778 = half: mu 25 + 1.9642946218 = 26.9642946218.
    #   Delta = √138.902778 / c · 138.902778 / c² · 1/4 = 0.0740753085;
    #   sigma 8.333750 · √(1 - 1/2 · Delta) = 8.1779626044.
    # Black: q = White: -1/2 and 1/4; q = Black: p = 1, nothing: Omega = -3.9285892436,
    #   mu 23.0357053782, sigma 8.1779626044.
    first = decrypto(1, ["Ada", "Ben"], ["Cas", "Dia"], "White")
    two = ratings([first], "decrypto", ["Ada", "Ben", "Cas", "Dia"])
    assert rated(two["Ada"]) == rated(two["Ben"]) == by_hand(26.9642946218, 8.1779626044)
    assert rated(two["Cas"]) == rated(two["Dia"]) == by_hand(23.0357053782, 8.1779626044)

    # 3 v 3 after it: White (Ada, Cas, Eva new) loses to Black (Ben, Dia, Fin new).
    # Each player's sigma² first takes tau² again: 8.1779626044² + 1/144 = 66.8860168.
    # White's mu: 26.9642946218 + 23.0357053782 + 25 = 75, Black's the same: 75.
    # sigma²: 2 · 66.8860168 + 69.4513889 = 203.2234225 each.
    # c² = 2 · (203.2234225 + 17.3611111) = 441.1690672, c = 21.0040250;
    # again p = 1/2 for both: Black Omega = 203.2234225 / c · 1/2 = 4.8377256803,
    # Delta = √203.2234225 / c · 203.2234225 / c² · 1/4 = 0.0781615331.
    # Each player takes their share sigma_j² / 203.2234225 of Omega and of Delta:
    #   a returning player 66.8860168 / 203.2234225 = 0.3291255:
    #     Ben 26.9642946218 + 1.5922190325 = 28.5565136543, sigma √66.8860168 · √(1 - 0.3291255 · Delta)
    #     = 8.0725074766; Dia 23.0357053782 + 1.5922190325 = 24.6279244107; Ada and Cas lose as much:
    #     25.3720755893 and 21.4434863457.
    #   a new player 69.4513889 / 203.2234225 = 0.3417489: Fin 25 + 1.6532876153 = 26.6532876153,
    #     Eva 23.3467123847, sigma √69.4513889 · √(1 - 0.3417489 · Delta) = 8.2216926307.
    second = decrypto(2, ["Ada", "Cas", "Eva"], ["Ben", "Dia", "Fin"], "Black")
    three = ratings([first, second], "decrypto", ["Ada", "Ben", "Cas", "Dia", "Eva", "Fin"])
    assert rated(three["Ada"]) == by_hand(25.3720755893, 8.0725074766)
    assert rated(three["Cas"]) == by_hand(21.4434863457, 8.0725074766)
    assert rated(three["Ben"]) == by_hand(28.5565136543, 8.0725074766)
    assert rated(three["Dia"]) == by_hand(24.6279244107, 8.0725074766)
    assert rated(three["Eva"]) == by_hand(23.3467123847, 8.2216926307)
    assert rated(three["Fin"]) == by_hand(26.6532876153, 8.2216926307)
    assert three["Ada"]["games"] == 2 and three["Eva"]["games"] == 1


def test_the_provisional_rule_on_the_leagues_ladder_with_the_numbers_by_hand():
    # The two Decrypto games above; mu - 3 sigma from their numbers:
    #   two games: Ben 28.5565136543 - 3 · 8.0725074766 = 4.3389912245, Ada 1.1545531595,
    #     Dia 0.4104019809, Cas -2.7740360841;
    #   one game: Fin 26.6532876153 - 3 · 8.2216926307 = 1.9882097232, Eva -1.3183655074.
    games = [decrypto(1, ["Ada", "Ben"], ["Cas", "Dia"], "White"),
             decrypto(2, ["Ada", "Cas", "Eva"], ["Ben", "Dia", "Fin"], "Black")]
    two_games = [("Ben", 1, 4.3389912245), ("Ada", 2, 1.1545531595), ("Dia", 3, 0.4104019809),
                 ("Cas", 4, -2.7740360841)]
    one_game = [("Fin", None, 1.9882097232), ("Eva", None, -1.3183655074)]

    def shown(rows):
        return [(r["name"], r["place"], r["ordinal"]) for r in rows]

    def expected(rows):
        return [(name, place, exactly(value)) for name, place, value in rows]

    # Ranked from two games, sigma up to 8.25: Fin and Eva are a game short, Fin listed
    # apart though his value is the second best.
    board, page, fin = league_get(games, ["/api/p/ladder/decrypto.json", "/p/ladder/decrypto", "/api/p/fin.json"],
                                  Ladder(provisional_games=2, provisional_sigma=8.25))
    board = json.loads(board)
    assert shown(board["ranked"]) == expected(two_games)
    assert shown(board["provisional"]) == expected(one_game)
    assert [(r["more"], r["provisional"]) for r in board["provisional"]] == [(1, True), (1, True)]
    # The page shows the same values, each to one decimal, the provisional apart with what they lack.
    assert [row[:3] for row in ladder_rows(page)] == [[f"{place}.", name, f"{value:.1f}"]
                                                       for name, place, value in two_games]
    assert [(row[0], row[3]) for row in ladder_rows(page, "provisional")] == [("Fin", "1 more game"),
                                                                             ("Eva", "1 more game")]
    assert json.loads(fin)["games"]["decrypto"]["ladders"][0] == {
        "season": None, "away": False, "place": None, "of": 4, "ordinal": exactly(1.9882097232),
        "provisional": True, "more": 1}

    # One game is enough, but sigma at most 8.1: Fin's and Eva's 8.2216926307 keeps them apart.
    board, page = league_get(games, ["/api/p/ladder/decrypto.json", "/p/ladder/decrypto"],
                             Ladder(provisional_games=1, provisional_sigma=8.1))
    board = json.loads(board)
    assert shown(board["ranked"]) == expected(two_games)
    assert [(r["name"], r["more"]) for r in board["provisional"]] == [("Fin", 0), ("Eva", 0)]
    assert [(row[0], row[3]) for row in ladder_rows(page, "provisional")] == [("Fin", "results not yet sure enough"),
                                                                             ("Eva", "results not yet sure enough")]

    # Neither holds anyone back: six ranked, Fin second.
    board, fin = league_get(games, ["/api/p/ladder/decrypto.json", "/api/p/fin.json"],
                            Ladder(provisional_games=1, provisional_sigma=8.25))
    assert [r["name"] for r in json.loads(board)["ranked"]] == ["Ben", "Fin", "Ada", "Dia", "Eva", "Cas"]
    assert json.loads(board)["provisional"] == []
    assert json.loads(fin)["games"]["decrypto"]["ladders"][0]["place"] == 2


def test_an_octiles_finishing_order():
    # Seats Hal, Ivy, Jo, Gus; all runners home in the order Gus, Ivy, Hal, and Jo not:
    # ranks 3, 2, 4, 1 (the runners home, 2, 2, 1, 2, would tie three: the order decides).
    # c² = 4 · 86.8125 = 347.25, c = 18.634645; exp(25/c) the same (E), so the sum
    # for rank r is (5 - r) E: p at q of rank 1, 2, 3, 4 = 1/4, 1/3, 1/2, 1.
    #   Gus (1): q = Gus: 1 - 1/4 = 3/4; 1/4 · 3/4 = 3/16.
    #   Ivy (2): q = Gus -1/4, 3/16; q = Ivy 1 - 1/3 = 2/3, 2/9: 5/12, 59/144.
    #   Hal (3): -1/4 - 1/3 + 1/2 = -1/12; 3/16 + 2/9 + 1/4 = 95/144.
    #   Jo (4): -1/4 - 1/3 - 1/2 + 0 = -13/12; 95/144 + 0 (at q = Jo p = 1: nothing).
    # Omega = 69.451389 / c · Σ: Gus 2.7952526725, Ivy 1.5529181514, Hal -0.3105836303,
    #   Jo -4.0375871936.  Delta = √69.451389 / c · 69.451389 / c² · Σ:
    #   Gus 0.0167710129, Ivy 0.0366477689, Hal and Jo 0.0590091195.
    # sigma = 8.333750 · √(1 - Delta).
    order = entry("octiles", 1, ["Hal", "Ivy", "Jo", "Gus"], ["Gus"], finishing_order=["Gus", "Ivy", "Hal"],
                  totals={"Hal": 2, "Ivy": 2, "Jo": 1, "Gus": 2})
    got = ratings([order], "octiles", ["Hal", "Ivy", "Jo", "Gus"])
    assert rated(got["Gus"]) == by_hand(27.7952526725, 8.2635717913)
    assert rated(got["Ivy"]) == by_hand(26.5529181514, 8.1796179884)
    assert rated(got["Hal"]) == by_hand(24.6894163697, 8.0841278802)
    assert rated(got["Jo"]) == by_hand(20.9624128064, 8.0841278802)


# --- at the table: a finished tournament in the box's store, the box's player API --------------------

def attack(t: Table, target: int, hit: bool) -> None:
    t.press(str(target))
    t.press("A" if hit else "B")


def test_a_da_vinci_code_tournament_of_three_games_and_the_conservative_value():
    # One game counts, sigma at most 8.1 (see the end).
    with Table(seed=4, config={"ladder": {"provisional_games": 1, "provisional_sigma": 8.1}}) as t:
        t.start("davinci", players=["Ann", "Bob", "Cid"], tournament=True)
        # Game 1, Ann starts and turns up both rows: 8 hits + 2 finished · 3 + 5 = 19 [DV-11].
        t.press("#")
        for target in (2,) * 4 + (3,) * 4:
            attack(t, target, hit=True)
        # Game 2, Bob (the next seat) starts and does the same: 19.
        t.type("##")
        for target in (3,) * 4 + (1,) * 4:
            attack(t, target, hit=True)
        # Game 3: the table names Ann to start, and she wins it too: 19.
        t.press("#")
        t.press("1")
        t.press("#")
        for target in (2,) * 4 + (3,) * 4:
            attack(t, target, hit=True)
        [log] = t.log()
        assert log["status"] == "finished" and log["totals"] == {"Ann": 38, "Bob": 19, "Cid": 0}
        # One result for the tournament, ranks 1, 2, 3 by its points; all new:
        # c = 16.138076 (as three players above), p at q of rank 1, 2, 3 = 1/3, 1/2, 1.
        #   Ann: 2/3, 2/9 -> mu 27.8690486807, sigma 8.2052433774 (the tie's winner's numbers).
        #   Bob: -1/3 + 1/2 = 1/6; 2/9 + 1/4 = 17/36 -> Omega 69.451389 / c / 6 = 0.7172621702,
        #        Delta 0.0650298192: mu 25.7172621702, sigma 8.0582242228.
        #   Cid: -1/3 - 1/2 + 0 = -5/6; 17/36 -> mu 25 - 3.5863108509 = 21.4136891491, sigma 8.0582242228.
        # The conservative value mu - 3 sigma: Ann 27.8690486807 - 24.6157301322 = 3.2533185485,
        # Bob 25.7172621702 - 24.1746726684 = 1.5425895018, Cid 21.4136891491 - 24.1746726684 = -2.7609835193:
        # the order of the points, Cid below zero, where mu alone puts all three above 21.
        expected = {"Ann": (27.8690486807, 8.2052433774, 3.2533185485),
                    "Bob": (25.7172621702, 8.0582242228, 1.5425895018),
                    "Cid": (21.4136891491, 8.0582242228, -2.7609835193)}
        for name, (mu, sigma, conservative) in expected.items():
            status, _headers, body = t.get(f"/api/p/{name.casefold()}.json")
            assert status == 200, name
            got = json.loads(body)["games"]["davinci"]
            assert rated(got["rating"]) == by_hand(mu, sigma) and got["rating"]["games"] == 1
            assert got["ladders"][0]["ordinal"] == exactly(conservative)
        status, _headers, page = t.get("/p/@ann")
        assert status == 200 and "Rating ≈ 28 ± 8, 1 game" in page
        # Ann's sigma, 8.2052433774, is above 8.1: the best value is provisional, Bob and Cid
        # (8.0582242228) rank, as the box's ladder file and page say.
        status, _headers, board = t.get("/api/p/ladder/davinci.json")
        assert status == 200
        board = json.loads(board)
        assert [(r["name"], r["place"], r["ordinal"]) for r in board["ranked"]] == [
            ("Bob", 1, exactly(1.5425895018)), ("Cid", 2, exactly(-2.7609835193))]
        assert [(r["name"], r["ordinal"], r["more"]) for r in board["provisional"]] == [
            ("Ann", exactly(3.2533185485), 0)]
        page = t.get("/p/ladder/davinci")[2]
        assert [row[:3] for row in ladder_rows(page)] == [["1.", "Bob", "1.5"], ["2.", "Cid", "-2.8"]]
        assert [(row[0], row[3]) for row in ladder_rows(page, "provisional")] == [("Ann", "results not yet sure enough")]
        status, _headers, bob = t.get("/api/p/bob.json")
        assert [(p["place"], p["of"]) for p in json.loads(bob)["games"]["davinci"]["ladders"]] == [(1, 2), (1, 2)]
