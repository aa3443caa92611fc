"""Issue 28: every player's history and rating, on every phone.

Ratings are OpenSkill's Plackett-Luce model.  The updates are checked
against the model's equations worked out here by hand (Weng and Lin 2011,
Algorithm 4, with OpenSkill's additive dynamics ``tau``), then through
games played to their end at the virtual table and read back from the
phones' pages and files.
"""
from __future__ import annotations

import csv
import io
import json
import math
import re
from urllib.parse import quote

import pytest

import test_decrypto_table as de
from referee.testing import Table
from referee.web.players import model

PANDA = ["Mirek", "Ania", "Marek"]    # as tests/test_decipher_table.py plays them


# --- the equations, by hand ----------------------------------------------------------------------

def by_hand(teams: list[list[tuple[float, float]]], ranks: list[int],
            beta: float = 25 / 6, tau: float = 25 / 300, kappa: float = 0.0001) -> list[list[tuple[float, float]]]:
    """Plackett-Luce's update of ``(mu, sigma)`` players in teams ranked
    ``ranks`` (1 best, equal ranks tied)."""
    teams = [[(mu, math.sqrt(sigma ** 2 + tau ** 2)) for mu, sigma in team] for team in teams]
    team_mu = [sum(mu for mu, _s in team) for team in teams]
    team_var = [sum(s ** 2 for _m, s in team) for team in teams]
    c = math.sqrt(sum(v + beta ** 2 for v in team_var))
    k = range(len(teams))
    sum_q = [sum(math.exp(team_mu[s] / c) for s in k if ranks[s] >= ranks[q]) for q in k]
    a = [sum(1 for s in k if ranks[s] == ranks[q]) for q in k]
    out = []
    for i in k:
        omega = delta = 0.0
        for q in k:
            if ranks[q] > ranks[i]:
                continue
            share = math.exp(team_mu[i] / c) / sum_q[q]
            delta += share * (1 - share) / a[q]
            omega += ((1 - share) if q == i else -share) / a[q]
        omega *= team_var[i] / c
        delta *= team_var[i] / c ** 2 * (math.sqrt(team_var[i]) / c)
        out.append([(mu + s ** 2 / team_var[i] * omega,
                     s * math.sqrt(max(1 - s ** 2 / team_var[i] * delta, kappa))) for mu, s in teams[i]])
    return out


def library(teams, ranks):
    rated = model().rate([[model().rating(mu=mu, sigma=s) for mu, s in team] for team in teams], ranks=ranks)
    return [[(p.mu, p.sigma) for p in team] for team in rated]


NEW = (25.0, 25 / 3)
CASES = {
    "two players": ([[NEW], [NEW]], [1, 2]),
    "a tie": ([[NEW], [(28.0, 5.0)]], [1, 1]),
    "Decrypto, teams of 2 and 3": ([[NEW, (30.0, 4.0)], [NEW, NEW, (20.0, 6.0)]], [2, 1]),
    "Decipher, four players, two sharing second": ([[NEW], [(27.0, 7.0)], [NEW], [(22.0, 3.0)]], [1, 2, 2, 4]),
}


@pytest.mark.parametrize("case", CASES)
def test_openskill_updates_match_the_equations_by_hand(case):
    teams, ranks = CASES[case]
    for mine, theirs in zip(by_hand(teams, ranks), library(teams, ranks)):
        for (mu, sigma), (mu2, sigma2) in zip(mine, theirs):
            assert mu == pytest.approx(mu2, abs=1e-9) and sigma == pytest.approx(sigma2, abs=1e-9)


def test_two_newcomers_by_hand_in_numbers():
    # sigma² + tau² = 69.4514, beta² = 17.3611, c = √(2·86.8125) = 13.1767;
    # the winner's share of its own sum is 1/2: mu moves by 69.4514/13.1767/2.
    [[(winner, _)], [(loser, _)]] = library([[NEW], [NEW]], [1, 2])
    assert winner == pytest.approx(27.6354, abs=1e-4) and loser == pytest.approx(22.3646, abs=1e-4)


# --- games at the table, read on the phones --------------------------------------------------------

def decipher_marek_wins(t: Table) -> None:
    """Marek 27, Ania 17, Mirek 7 (tests/test_decipher_table.py's game)."""
    t.start("decipher", players=PANDA)
    t.type("#3A#")
    t.type("#D4")
    t.type("*3A#")
    t.type("#2A")
    t.press("#")            # "#:Menu" on the result


def decipher_tie(t: Table, players) -> None:
    t.start("decipher", players=players)
    for number in range(1, 5):
        t.type("#D3#")      # nobody guesses: every player the same points
        if number < 4:
            t.press("#")
    t.press("#")


def page(t: Table, path: str) -> str:
    status, _, body = t.get(path)
    assert status == 200, (path, status)
    return body


def text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def player(t: Table, name: str) -> dict:
    return json.loads(page(t, f"/api/p/{quote(name.casefold())}.json"))


def test_a_decisive_game_rates_each_player_by_rank(table):
    t = table
    decipher_marek_wins(t)
    expected = library([[NEW], [NEW], [NEW]], [3, 2, 1])          # seats: Mirek, Ania, Marek
    for seat, name in enumerate(PANDA):
        got = player(t, name)["games"]["decipher"]["rating"]
        assert (got["mu"], got["sigma"]) == pytest.approx(expected[seat][0]) and got["games"] == 1
    marek = text(page(t, "/p/@marek"))
    assert "Marek 1 game · 1 won · 100 %" in marek
    assert "Points: best 27, average 27" in marek   # the numbers after a colon: no plural to agree (25.10)
    assert f"Rating ≈ {round(expected[2][0][0])} ± 8, 1 game" in marek
    assert "Ania 1 1 0 0" in marek and "Mirek 1 1 0 0" in marek        # head to head: Marek placed better
    assert f"won · 27 · ▲ {expected[2][0][0] - 25:.1f}" in marek
    mirek = text(page(t, "/p/@mirek"))
    assert f"3. of 3 · 7 · ▼ {25 - expected[0][0][0]:.1f}" in mirek


def test_names_on_tonight_and_game_pages_lead_to_the_players(table):
    t = table
    decipher_marek_wins(t)
    evening = page(t, "/")
    for name in PANDA:
        assert f'href="/p/@{name.casefold()}"' in evening
    game = page(t, f"/g/{t.log()[0]['id']}")
    assert 'href="/p/@marek"' in game
    everyone = text(page(t, "/p/"))
    assert "1 game counted" in everyone
    assert re.search(r"Marek 1 1 100 % Ania 1 0 0 % Mirek 1 0 0 %", everyone), everyone
    by_name = text(page(t, "/p/?by=name"))
    assert by_name.index("Ania") < by_name.index("Marek") < by_name.index("Mirek")
    assert t.get("/p/?by=nonsense")[0] == 400
    assert t.get("/p/nobody")[0] == 404


def test_games_that_do_not_count_are_left_out_and_said(table):
    t = table
    decipher_marek_wins(t)                                  # counts
    decipher_tie(t, 2)                                      # no names
    decipher_tie(t, ["Ania", ""])                           # one named player
    t.start("decipher", players=["Ania", "Marek"])
    t.type("#3A#")
    t.hold("*", 1.0)
    t.type("D#")                                            # ended early from the game menu
    assert text(page(t, "/p/")).count("1 game counted") == 1
    ania = text(page(t, "/p/@ania"))
    assert "1 game · 0 won" in ania
    assert "2 more games with this name do not count" in ania
    assert player(t, "Ania")["games"]["decipher"]["rating"]["games"] == 1


def test_a_tie_shares_the_first_place(table):
    t = table
    decipher_tie(t, ["Alexandrina", "Bartholomew", "Christopher", "Maximiliane"])
    expected = library([[NEW]] * 4, [1, 1, 1, 1])
    got = player(t, "Bartholomew")
    assert got["won"] == 1 and got["results"][0]["place"] == 1
    assert got["games"]["decipher"]["rating"]["mu"] == pytest.approx(expected[1][0][0])


def test_decrypto_rates_team_against_team(table):
    t = table
    white, black = ["Ania", "Bartek"], ["Cyril", "Dana", "Ema"]
    de.white_intercepts_twice(de.Game(t, members=[white, black]))
    t.press("#")
    expected = library([[NEW, NEW], [NEW, NEW, NEW]], [1, 2])
    for name in white:
        assert player(t, name)["games"]["decrypto"]["rating"]["mu"] == pytest.approx(expected[0][0][0])
        assert player(t, name)["won"] == 1
    for name in black:
        assert player(t, name)["games"]["decrypto"]["rating"]["mu"] == pytest.approx(expected[1][0][0])
    ema = player(t, "Ema")
    assert ema["games"]["decrypto"]["points"] == []           # Decrypto has tokens, not points
    assert {a["name"]: a["behind"] for a in ema["against"]} == {"Ania": 1, "Bartek": 1}


def ratings(t: Table) -> dict:
    return {name: player(t, name)["games"]["decipher"]["rating"] for name in ("Ania", "Marek", "Mirek")}


def test_ratings_do_not_depend_on_when_pages_are_opened_and_survive_a_restart():
    with Table(seed=3) as often, Table(seed=3) as once:
        for _ in range(3):
            decipher_marek_wins(often)
            ratings(often)                                  # a phone looks after every game
            decipher_marek_wins(once)
        assert ratings(often) == ratings(once)
        before = ratings(once)
        once.restart()                                      # the web starts again: nothing is counted twice
        assert ratings(once) == before and before["Marek"]["games"] == 3


def test_a_game_taken_back_after_its_end_is_counted_again_as_it_ends(table):
    t = table
    decipher_marek_wins(t)
    t.start("decipher", players=PANDA)
    t.type("#3A#")
    t.type("#D4")
    t.type("*3A#")
    t.type("#2A")                                           # Marek wins the second game too ...
    assert player(t, "Marek")["games"]["decipher"]["rating"]["games"] == 2
    t.hold("*", 1.0)
    t.press("#")                                            # ... the last move is taken back
    assert player(t, "Marek")["games"]["decipher"]["rating"]["games"] == 1


def test_a_players_csv_is_the_box_csv(table):
    t = table
    decipher_marek_wins(t)
    t.start("decipher", players=["=SUM(A1)", "Ania K."])
    assert t.box.session.name == "decipher"
    for number in range(1, 5):
        t.type("#D3#")
        if number < 4:
            t.press("#")
    assert t.get("/p/@ania%20k.")[0] == 200
    status, headers, body = t.get("/api/p/ania.csv")
    assert status == 200 and body.startswith("\ufeff") and "attachment" in headers["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(body.removeprefix("\ufeff")), delimiter=";"))
    assert rows[0][:4] == ["game_id", "game", "ended", "place"] and len(rows) == 2
    assert [r[5] for r in rows[1:]] == [""]
    opponent = next(a for a in player(t, "Ania K.")["against"] if a["name"].startswith("="))
    assert opponent["name"] == "=SUM(A1)"       # the page and the JSON keep the name as typed


# --- issue 33 item 4: addresses no browser rewrites ------------------------------------------------

def test_a_name_of_dots_has_a_page_whose_link_stays_its_own(table):
    from urllib.parse import urljoin, urlsplit
    t = table
    t.start("decipher", players=[".", "..", "Ann"])        # tests/test_decipher_table.py's game: Ann wins
    t.type("#3A#")
    t.type("#D4")
    t.type("*3A#")
    t.type("#2A")
    t.press("#")
    evening = page(t, "/")
    for name in (".", "..", "Ann"):
        [link] = re.findall(rf'href="([^"]*)">{re.escape(name)}</a>', evening)
        # Where a browser goes from the link (RFC 3986's dot segments, as
        # urljoin removes them): the player's own page, not "/" or "/p/".
        address = urlsplit(urljoin(t.web_url(), link)).path
        assert re.search(r"<h1>(.*?)</h1>", page(t, address))[1] == name, (name, link, address)
    assert "Ann 1 1 100 %" in text(page(t, "/p/")) and 'href="/p/@.."' in page(t, "/p/")


def test_any_spelling_of_a_players_address_leads_to_the_players_page(table):
    t = table
    decipher_marek_wins(t)
    for asked in ("/p/MAREK", "/p/marek", "/p/@Marek", "/p/%40MAREK"):
        status, headers, _body = t.get(asked)
        assert (status, headers["Location"]) == (301, "/p/@marek"), asked
    assert (t.get("/api/p/MAREK.json")[0], t.get("/api/p/MAREK.json")[1]["Location"]) == (301, "/api/p/marek.json")
    assert t.get("/p/@nobody")[0] == 404 and t.get("/p/NOBODY")[0] == 404


def test_a_players_page_names_the_players_whose_names_look_the_same(table):
    from test_merges import marek_wins_against
    t = table
    marek_wins_against(t, ["0la", "Ola", "Marek"])        # a zero and an O: two players, one look
    said = "Not to be confused with another player whose name looks the same:"
    ola, zero = page(t, "/p/@ola"), page(t, "/p/@0la")
    assert f"{said} 0la" in text(ola) and 'href="/p/@0la">0la</a>' in ola
    assert f"{said} Ola" in text(zero) and 'href="/p/@ola">Ola</a>' in zero
    assert said not in text(page(t, "/p/@marek"))


def test_a_name_whose_casefold_holds_a_combining_dot_keeps_its_page(table):
    from test_merges import marek_wins_against
    t = table
    marek_wins_against(t, ["İpek", "Ola", "Marek"])      # "İ" casefolds to "i" and a combining dot
    [link] = re.findall(r'href="([^"]*)">İpek</a>', page(t, "/"))
    assert re.search(r"<h1>(.*?)</h1>", page(t, link))[1] == "İpek"
    assert t.get("/p/İPEK")[1]["Location"] == link


def test_an_unnamed_seat_still_takes_a_place_and_head_to_head_is_explained(table):
    t = table
    t.start("decipher", players=["Mirek", "Player 2", "Marek"])   # the middle seat left unnamed
    t.type("#3A#")
    t.type("#D4")
    t.type("*3A#")
    t.type("#2A")
    t.press("#")
    mirek = text(page(t, "/p/@mirek"))
    assert "3. of 3" in mirek and "of 2" not in mirek
    assert "Against Games Ahead Behind Tied" in mirek
    assert "Ahead, behind, tied: how Mirek placed against each player in the games both played." in mirek


def test_all_players_with_nothing_counted_says_why_once():
    with Table(seed=7) as t:
        said = text(page(t, "/p/"))
    assert "No counted games yet." in said
    assert said.count("played to its end") == 1
