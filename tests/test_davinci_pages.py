"""Da Vinci Code on the box's team screens and the phones shows what the box
knows: how many tiles each player has hidden and face up (never which), hits
in words, and points only where the rules give points — a tournament's
[DV-11], not a single game's win [DV-8]."""
import html
import re

import pytest

from referee.testing import Table


def text(body: str) -> str:
    body = re.sub(r"<(script|style)\b.*?</\1>|<[^>]+>", " ", body, flags=re.S)
    return " ".join(html.unescape(body).split())


def page(t: Table, path: str) -> str:
    status, _headers, body = t.get(path)
    assert status == 200, (path, status)
    return text(body)


def attack(t: Table, target: int, hit: bool) -> None:
    t.press(str(target))
    t.press("A" if hit else "B")


@pytest.fixture
def t():
    with Table(seed=7, lang="en") as table:
        yield table


def team_rows(t: Table) -> list[str]:
    return [line for line in t.page("team1").splitlines()[1:] if not line.startswith("»")]


def test_DV5_team_screens_count_hidden_and_face_up_tiles_and_say_hits_in_words(t):
    t.start("davinci", players=3)
    t.press("#")
    attack(t, 2, hit=True)
    attack(t, 3, hit=False)
    # No row of tiles drawn left to right: the box never hears which tile a hit turned.
    assert team_rows(t) == [" P1 hidden 4, up 1", "►P2 hidden 3, up 1", " P3 hidden 4, up 0", "P1: 1 hit, 1 miss"]
    attack(t, 3, hit=False)
    assert team_rows(t)[-1] == "P2 missed"


def test_DV5_long_names_fall_back_to_counted_signs_on_every_row(t):
    t.start("davinci", players=["Maximilian", "Bo"])
    t.press("#")
    assert team_rows(t) == ["►1 Maximil… ■4 □0", " 2 Bo ■4 □0"]


def test_DV8_a_single_game_shows_no_points_on_the_phones_while_played_or_after(t):
    t.start("davinci", players=["Ann", "Bob"])
    game = t.log()[-1]["id"]
    t.press("#")
    for _ in range(3):
        attack(t, 2, hit=True)
    card = page(t, "/")
    assert "Ann 0" not in card and "Bob 0" not in card
    sheet = page(t, f"/g/{game}")
    assert "No rounds scored yet" not in sheet
    assert "One game, no points: the last player with hidden tiles wins." in sheet
    attack(t, 2, hit=True)            # Bob's last tile: Ann wins
    card, sheet = page(t, "/"), page(t, f"/g/{game}")
    assert "★ Ann Bob" in card and "Ann 1" not in card
    assert "Game 1 : Ann started; Ann won after 1 turn" in sheet and "Total" not in sheet
    assert "Points:" not in page(t, "/p/@ann")    # a win is no points to average


def test_DV11_a_tournament_scores_points_after_each_game(t):
    t.start("davinci", players=["Ann", "Bob"], tournament=True)
    game = t.log()[-1]["id"]
    t.press("#")
    assert "No game finished yet: tournament points come at the end of each game." in page(t, f"/g/{game}")
    for _ in range(3):
        attack(t, 2, hit=True)
    assert re.search(r"Ann \d+ Bob \d+", page(t, "/"))
