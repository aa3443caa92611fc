"""Issue 37: who leads, rivals and seasons on the players' pages.

The ladders rank by OpenSkill's conservative value (mu - 3 sigma), each
player's mu and sigma worked out here with the model's equations by hand
(tests/test_players.py's ``by_hand``, which no project code shares), then
read back from the pages a phone opens: the ranked list, the provisional
players apart below it, a season's ladder beside the all-time one.
"""
from __future__ import annotations

import re

import pytest

import test_decrypto_table as de
from referee.config import ConfigError, parse
from referee.testing import Table
from test_players import NEW, by_hand, page, text
from test_merges import marek_wins_against

PANDA = ["Mirek", "Ania", "Marek"]
DAY = 24 * 3600


def four_games(t: Table) -> None:
    """Marek beats Ania and Mirek three times; then Zoe, new, beats them once."""
    for _ in range(3):
        marek_wins_against(t, PANDA)
    marek_wins_against(t, ["Mirek", "Ania", "Zoe"])


def four_games_by_hand() -> dict[str, tuple[float, float]]:
    """The same games through the equations: (mu, sigma) of each player.
    Marek 32.763 ± 7.924, Ania 25.994 ± 7.356, Zoe 27.810 ± 8.177, Mirek
    14.130 ± 7.432: Zoe's mu is above Ania's, her mu - 3 sigma (3.279)
    below Ania's (3.927)."""
    r = dict.fromkeys(["Mirek", "Ania", "Marek", "Zoe"], NEW)
    for seats in [PANDA] * 3 + [["Mirek", "Ania", "Zoe"]]:
        rated = by_hand([[r[name]] for name in seats], [3, 2, 1])
        for name, [after] in zip(seats, rated):
            r[name] = after
    return r


def ladder_rows(html: str, section: str = "ranked") -> list[list[str]]:
    """The rows of a ladder's table, each cell's text, the small line under
    a cell's value (a rating's mu and sigma) as a cell of its own."""
    tables = re.findall(r'<table class="sheet ladder( provisional)?">(.*?)</table>', html, re.S)
    for provisional, body in tables:
        if bool(provisional) == (section == "provisional"):
            return [[text(part) for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)
                     for part in c.replace("</small>", "").split("<small>")]
                    for row in re.findall(r"<tr>(.*?)</tr>", body.split("<tbody>")[1], re.S)]
    return []


def folded(html: str) -> str:
    """What a page keeps under "How is this worked out?" (its <details>)."""
    return "".join(re.findall(r"<details.*?</details>", html, re.S))


def unfolded(html: str) -> str:
    return re.sub(r"<details.*?</details>", "", html, flags=re.S)


@pytest.mark.parametrize("lang", ["en", "cs", "pl", "ru"])
def test_the_ladder_and_a_players_page_say_the_rank_in_plain_words_and_fold_the_formula(lang):
    from referee import i18n
    with Table(seed=7, lang=lang, config={"ladder": {"provisional_games": 3, "provisional_sigma": 7.9}}) as t:
        four_games(t)
        pages = {"ladder": page(t, "/p/ladder/decipher"), "player": page(t, "/p/@zoe")}
        asked = i18n._("How is this worked out?")
        for where, html in pages.items():
            plain, fold = text(unfolded(html)), text(folded(html))
            assert "μ" not in plain and "σ" not in plain, (where, plain)
            assert f"<summary>{asked}</summary>" in html, where
            assert "μ − 3σ" in fold or where == "player", (where, fold)
        # The one sentence, and the wait in plain words.
        assert i18n.ngettext(
            "Ranked by a careful estimate of skill that firms up as you play: a high place needs good results "
            "and enough games to be sure of them. New players are listed apart until they have {n} game.",
            "Ranked by a careful estimate of skill that firms up as you play: a high place needs good results "
            "and enough games to be sure of them. New players are listed apart until they have {n} games.",
            3).format(n=3) in text(pages["ladder"])
        assert i18n._("results not yet sure enough") in text(pages["ladder"])    # Marek: sigma 7.924, over 7.9


def test_an_empty_statistic_says_when_it_will_have_someone(table):
    t = table
    marek_wins_against(t, PANDA)                                  # Marek has beaten both, lost to nobody
    for members in ([["Marek", "Cyril"], ["Dana", "Ema"]], [["Marek", "Dana"], ["Cyril", "Ema"]]):
        g = de.Game(t, members=members)
        de.white_intercepts_twice(g)
        t.press("#")
    said = text(page(t, "/p/@marek"))
    assert "Most losses to no loss yet" in said
    # Two games with Cyril, two with Dana: no partner of three games yet.
    assert "Best partner after 3 games together and a win" in said
    assert "Most wins over" in said and "no win yet" not in said


def test_the_ladder_ranks_by_mu_minus_three_sigma_so_a_newcomers_one_win_does_not_lead():
    hand = four_games_by_hand()
    ordinal = {name: mu - 3 * sigma for name, (mu, sigma) in hand.items()}
    assert {name: (round(mu, 3), round(sigma, 3)) for name, (mu, sigma) in hand.items()} == {
        "Marek": (32.763, 7.924), "Ania": (25.994, 7.356), "Zoe": (27.810, 8.177), "Mirek": (14.130, 7.432)}
    assert hand["Zoe"][0] > hand["Ania"][0] and ordinal["Zoe"] < ordinal["Ania"]   # the case this test is for
    with Table(seed=7, config={"ladder": {"provisional_games": 1, "provisional_sigma": 25}}) as t:
        four_games(t)
        html = page(t, "/p/ladder/decipher")
    rows = ladder_rows(html)
    assert [row[1] for row in rows] == ["Marek", "Ania", "Zoe", "Mirek"]        # by mu: Marek, Zoe, Ania
    for _, name, shown, rating, _games in rows:
        mu, sigma = hand[name]
        assert (shown, rating) == (f"{ordinal[name]:.1f}", f"{mu:.1f} ± {sigma:.1f}"), name
    assert [row[0] for row in rows] == ["1.", "2.", "3.", "4."]
    assert "The ladder ranks by μ − 3σ (OpenSkill" in text(folded(html))
    assert ladder_rows(html, "provisional") == []


@pytest.mark.parametrize("sigma, marek", [(8.0, "1."), (7.9, "results not yet sure enough")])
def test_provisional_players_are_listed_apart_below_the_ranked_ones(sigma, marek):
    hand = four_games_by_hand()     # Marek's sigma is 7.924: over 7.9, under 8
    with Table(seed=7, config={"ladder": {"provisional_games": 3, "provisional_sigma": sigma}}) as t:
        four_games(t)
        html = page(t, "/p/ladder/decipher")
        zoe, ania = text(page(t, "/p/@zoe")), text(page(t, "/p/@ania"))
    ranked, provisional = ladder_rows(html), ladder_rows(html, "provisional")
    said = {row[0]: row[3] for row in provisional}
    assert said["Zoe"] == "2 more games"                                      # one game of three
    assert f"{hand['Zoe'][0]:.1f} ± {hand['Zoe'][1]:.1f}" == next(r[1] for r in provisional if r[0] == "Zoe")
    assert html.index("Provisional") > html.index(ranked[-1][1])               # below the ranked list
    if marek == "1.":
        assert [r[1] for r in ranked] == ["Marek", "Ania", "Mirek"] and list(said) == ["Zoe"]
        assert "Decipher: All-time 2. of 3" in ania
    else:
        assert [r[1] for r in ranked] == ["Ania", "Mirek"] and said["Marek"] == marek
        assert "Decipher: All-time 1. of 2" in ania
    assert "Decipher: All-time provisional: 2 more games" in zoe
    assert "New players are listed apart until they have 3 games." in text(html)
    assert "fewer than 3 games since a whole season away, or while σ is above " + f"{sigma:g}" in text(folded(html))


def test_a_player_away_a_whole_season_leaves_the_ladder_and_comes_back_provisional():
    with Table(seed=7, config={"ladder": {"provisional_games": 2, "provisional_sigma": 25}}) as t:
        for _ in range(2):
            marek_wins_against(t, PANDA)                                         # September
        september = page(t, "/p/ladder/decipher")
        assert [r[1] for r in ladder_rows(september)] == ["Marek", "Ania", "Mirek"]
        t.restart(off=45 * DAY)                                               # nobody plays in October
        gone = page(t, "/p/ladder/decipher")
        assert ladder_rows(gone) == [] and ladder_rows(gone, "provisional") == []
        assert "3 players away for a whole season are left off until they play again." in text(gone)
        assert "away for a whole season: off the ladder until the next game" in text(page(t, "/p/@mirek"))
        marek_wins_against(t, ["Zoe", "Ania", "Marek"])                          # November: two come back
        back = page(t, "/p/ladder/decipher")
        assert ladder_rows(back) == []
        assert {r[0]: r[3] for r in ladder_rows(back, "provisional")} == {
            "Marek": "1 more game", "Ania": "1 more game", "Zoe": "1 more game"}
        assert "1 player away for a whole season is left off until they play again." in text(back)
        # The season's ladders: September's as it ended, November's without Mirek.
        assert ladder_rows(page(t, "/p/ladder/decipher/2026-09")) == ladder_rows(september)
        november = page(t, "/p/ladder/decipher/2026-11")
        assert "November 2026: the players who played in it, each at the rating their last game of it left." in (
            text(november)) and "Mirek" not in text(november)
        assert 'href="/p/ladder/decipher/2026-09">September 2026</a>' in back    # every season linked
        assert "October 2026" not in back                                    # nobody played then
        marek_wins_against(t, ["Zoe", "Ania", "Marek"])
        again = page(t, "/p/ladder/decipher")
        t.restart()                                                          # counted from players.db
        after = page(t, "/p/ladder/decipher")
        assert (ladder_rows(after), ladder_rows(after, "provisional")) == (ladder_rows(again),
                                                                           ladder_rows(again, "provisional"))
        for nowhere in ("/p/ladder/decipher/2026-13", "/p/ladder/decipher/9999-12", "/p/ladder/chess"):
            assert t.get(nowhere)[0] == 404, nowhere
    assert [r[1] for r in ladder_rows(again)] == ["Marek", "Ania", "Zoe"] and "Mirek" not in text(again)


def test_a_clubs_own_seasons_from_config_toml():
    seasons = [{"name": "Autumn", "start": "2026-09-01", "end": "2026-11-30"},
               {"name": "<b>Winter</b>", "start": "2026-12-01", "end": "2027-02-28"}]
    with Table(seed=7, config={"ladder": {"provisional_games": 1, "provisional_sigma": 25, "seasons": seasons}}) as t:
        marek_wins_against(t, PANDA)
        t.restart(off=80 * DAY)                            # December: Winter
        marek_wins_against(t, ["Zoe", "Ania", "Marek"])
        autumn, winter = page(t, "/p/ladder/decipher/2026-09-01"), page(t, "/p/ladder/decipher/2026-12-01")
        assert t.get("/p/ladder/decipher/2026-09")[0] == 404            # no months when the club has seasons
        marek = text(page(t, "/p/@marek"))
    assert [r[1] for r in ladder_rows(autumn)] == ["Marek", "Ania", "Mirek"]
    assert {r[1] for r in ladder_rows(winter)} == {"Marek", "Ania", "Zoe"}
    assert "&lt;b&gt;Winter&lt;/b&gt;" in winter and "<b>Winter" not in winter
    assert re.search(r"Decipher: All-time 1\. of 4 · &lt;b&gt;Winter&lt;/b&gt; 1\. of 3", marek), marek


@pytest.mark.parametrize("ladder, said", [
    ({"provisional_games": 0}, "ladder.provisional_games: 0 is outside 1-100"),
    ({"provisional_sigma": 1}, "ladder.provisional_sigma: 1 is outside 2-25"),
    ({"provisonal_games": 3}, "ladder.provisonal_games: unknown key; did you mean `provisional_games`?"),
    ({"seasons": [{"name": "A", "start": "2026-03-01", "end": "2026-02-01"}]},
     "ladder.seasons[0].end: 2026-02-01 is before the season's start, 2026-03-01"),
    ({"seasons": [{"name": "A", "start": "2026-03-01", "end": "2026-05-31"},
                  {"name": "B", "start": "2026-05-01", "end": "2026-08-31"}]},
     "ladder.seasons[1]: 'B' (2026-05-01 to 2026-08-31) overlaps 'A' (2026-03-01 to 2026-05-31)"),
    ({"seasons": [{"name": "A", "start": "2026-03-01", "end": "2026-05-31"},
                  {"name": "a", "start": "2026-06-01", "end": "2026-08-31"}]},
     "ladder.seasons[1].name: 'a' is already seasons[0]'s name"),
    ({"seasons": [{"name": "A", "start": "March", "end": "2026-05-31"}]}, "ladder.seasons[0].start: "),
    ({"seasons": [{"name": "A", "start": "2026-03-01", "end": "9999-12-31"}]},
     "ladder.seasons[0].end: 9999-12-31: a season is in the years 2000-9000"),
])
def test_a_mistake_in_the_ladders_config_is_said_with_its_key(ladder, said):
    with pytest.raises(ConfigError) as found:
        parse({"ladder": ladder})
    assert str(found.value).startswith("config.toml: " + said), str(found.value)


def test_a_players_page_names_rivals_the_best_partner_and_time_played(table):
    t = table
    for _ in range(2):
        marek_wins_against(t, ["Mirek", "Ania", "<b>Bob</b>"])                # Bob beats Ania twice
    marek_wins_against(t, ["<b>Bob</b>", "Ania", "Mirek"])                   # ... then Mirek beats her
    decrypto = []
    for members in ([["Ania", "Cyril"], ["Dana", "Ema"]], [["Ania", "Cyril"], ["Dana", "Ema"]],
                    [["Ania", "Dana"], ["Cyril", "Ema"]], [["Ania", "Cyril"], ["Ema", "Dana"]]):
        g = de.Game(t, members=members)
        t.advance(1200)                                                   # twenty minutes of play
        de.white_intercepts_twice(g)
        decrypto.append(max(entry["id"] for entry in t.log()))
        t.press("#")
    ania = page(t, "/p/@ania")
    said = text(ania)
    games = {entry["id"]: entry for entry in t.log()}
    assert "Most games against Ema , 4 games" in said                      # Dana was once her partner
    assert "Most losses to &lt;b&gt;Bob&lt;/b&gt; , 2 games" in said and "<b>Bob</b>" not in ania
    assert "Most wins over Ema , 4 games" in said
    # Cyril won 3 of 3 with her: the best share of at least three games (Dana: 1 of 1).
    assert "Best partner Cyril , won 3 of 3 games together (100 %)" in said
    minutes = round(sum(games[g]["ended"] - games[g]["started"] for g in games
                        if "Ania" in str(games[g])) / 60)
    assert minutes >= 80
    assert f"Time played {minutes // 60} h {minutes % 60:02d} min in 7 games" in said
    # Each links to the games, the latest first.
    ema = re.search(r"<dt>Most games against</dt>\s*<dd>(.*?)</dd>", ania, re.S)[1]
    assert re.findall(r'href="/g/(\d+)"', ema) == [str(g) for g in decrypto[::-1]]
    assert 'href="/p/@ema"' in ema


def test_time_played_is_counted_again_from_a_players_db_kept_before_results_had_a_start(table):
    import json
    import sqlite3

    from referee.store import snapshot
    t = table
    marek_wins_against(t, PANDA)
    t.advance(1800)
    t.start("decipher", players=PANDA)
    t.advance(1200)
    for keys in ("#3A#", "#D4", "*3A#", "#2A"):
        t.type(keys)
    t.press("#")
    played = text(page(t, "/p/@ania"))

    def as_before(database):
        # players.db as the web wrote it before: results without the start,
        # counted with the rules alone.
        with sqlite3.connect(database.replace("referee.db", "players.db")) as db:
            for game, result in db.execute("SELECT game, result FROM results").fetchall():
                kept = json.loads(result)
                del kept["started"]
                db.execute("UPDATE results SET result = ? WHERE game = ?", (json.dumps(kept), game))
            db.execute("UPDATE meta SET value = ? WHERE key = 'rules'", (snapshot.fingerprint(),))
    t.restart(as_before)
    assert "Time played 0 h 20 min in 2 games" in played
    assert "Time played 0 h 20 min in 2 games" in text(page(t, "/p/@ania"))


def test_two_names_merged_are_one_player_on_the_ladder():
    from test_merges import merge_page, post
    with Table(seed=7, config={"ladder": {"provisional_games": 1, "provisional_sigma": 25}}) as t:
        marek_wins_against(t, PANDA)
        marek_wins_against(t, ["Mirek", "Ania K.", "Marek"])
        assert [r[1] for r in ladder_rows(page(t, "/p/ladder/decipher"))] == ["Marek", "Ania", "Ania K.", "Mirek"]
        path = merge_page(t)
        assert post(t, path, {"from": "ania k.", "into": "ania", "merge": "1"})[0] == 303
        rows = ladder_rows(page(t, "/p/ladder/decipher"))
    assert [(r[1], r[4]) for r in rows] == [("Marek", "2"), ("Ania", "2"), ("Mirek", "2")]


def test_the_players_pages_are_kept_through_a_games_moves_and_made_again_at_its_end(table):
    t = table
    marek_wins_against(t, PANDA)
    paths = ("/p/@ania", "/p/ladder/decipher", "/api/p/ladder/decipher.json", "/p/")
    tags = {path: t.get(path)[1]["ETag"] for path in paths}
    t.start("decipher", players=PANDA)
    for keys in ("#3A#", "#D4", "*3A#"):                      # every move a change of the store...
        t.type(keys)
        for path in paths:                                   # ...but not of the players' pages
            assert t.get(path, {"If-None-Match": tags[path]})[0] == 304, (keys, path)
    t.type("#2A")                                            # the game ends: counted
    for path in paths:
        status, headers, _body = t.get(path, {"If-None-Match": tags[path]})
        assert status == 200 and headers["ETag"] != tags[path], path
    assert "2 games" in text(page(t, "/p/@ania"))


def rival_links(html: str, label: str) -> list[tuple[str, str]]:
    """The games linked beside a rival on a player's page: (address, text)."""
    row = re.search(rf"<dt>{label}</dt>\s*<dd>(.*?)</dd>", html, re.S)[1]
    return re.findall(r'<a href="(/[ge]/[^"]+)">([^<]+)</a>', row)


def test_a_rivals_games_of_one_evening_are_told_apart_by_their_start(table):
    t = table
    marek_wins_against(t, PANDA)
    t.advance(1500)
    marek_wins_against(t, PANDA)                          # the same evening, 25 minutes on
    t.restart(off=DAY)
    marek_wins_against(t, PANDA)                          # the next evening: alone on its day
    links = rival_links(page(t, "/p/@ania"), "Most games against")
    labels = [label for _href, label in links]
    assert len(links) == 3 and len(set(labels)) == 3, labels
    # "22 Sept 2026", then "21 Sept 2026 14:38" and "21 Sept 2026 14:13"
    latest, *same_evening = labels
    assert not re.search(r"\d:\d\d", latest), latest
    [(day, later), (day_too, earlier)] = [re.fullmatch(r"(.+ 2026) (\d\d?:\d\d)", label).groups()
                                          for label in same_evening]
    assert day == day_too != latest and later > earlier


def test_the_leagues_rivals_games_at_two_tables_at_once_say_their_table():
    from referee.club.league import League
    from test_league_merges import fed, game, pages
    league = League(":memory:")
    try:
        fed(league, game("north", 1, ["Ann", "Bob"]), game("south", 1, ["Ann", "Bob"]))    # begun at one minute
        ann, = pages(league, "/p/@ann")
    finally:
        league.close()
    labels = [label for _href, label in rival_links(ann, "Most games against")]
    assert len(set(labels)) == 2 and [label.rsplit(" · ", 1)[1] for label in labels] == ["south", "north"], labels
