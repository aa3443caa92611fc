"""Decrypto's clue tape over HTTP on the virtual table: the encryptor types
the round's clues on the team page, they stay the team's secret until read
out [DE-5], then every page shows them, and after the reveal the paper
notesheet groups them by keyword position.

The table plays with its real keys: a team button says "our clues are
written" [DE-4], digits and ``#`` guess a code.
"""
from __future__ import annotations

import csv
import io
import re

import pytest

from games import decrypto
from referee.testing import Table
from test_web import Secrets, assert_nothing_secret, form_of, ok, page_text, teams_path


def done(t, team):
    """A team's clues are written: two short presses of its button [DE-4]."""
    t.press(team)
    t.press(team)

WHITE, BLACK = 0, 1
HACKER, TEAM = 0, 1
MEXICO = ("Mexico", "insect", "fear")
PRAGUE = ("Prague", "violin", "ladder")


@pytest.fixture
def t():
    with Table(seed=7, lang="en") as table:
        yield table


def state(t: Table) -> decrypto.State:
    return t.box.session.state


def send(t: Table, team: int, clues, **headers) -> tuple[int, dict, str]:
    """The clue form posted from the team's own page, as its browser sends it."""
    path = teams_path(t, team)
    secret, cookie = form_of(t, path)
    data = {"csrf": secret, **{f"clue{n}": clue for n, clue in enumerate(clues, 1)}}
    sent = {"Cookie": cookie, "Origin": t.web_url().rstrip("/"), "Sec-Fetch-Site": "same-origin", **headers}
    return t.post(path, data, {k: v for k, v in sent.items() if v is not None})


def team_page(t: Table, team: int) -> str:
    return ok(t, teams_path(t, team))


def clues_done(t: Table) -> None:
    """Both encryptors press their team button: guessing begins."""
    for button in ("team1", "team2"):
        done(t, button)


def decode(t: Table, team: int) -> None:
    """The team says its own code, right."""
    t.type("".join(map(str, state(t).codes[team])) + "#")


def sheet_row(number: int, code, clues) -> str:
    """A notesheet row as the pages write it: each clue under its digit."""
    cells = [""] * 4
    for digit, clue in zip(code, clues):
        cells[digit - 1] = clue
    return f'<tr><th scope="row">{number}</th>' + "".join(f"<td>{c}</td>" for c in cells) + "</tr>"


def on_screens(t: Table) -> str:
    return "\n".join(t.screen(name) for name in ("main", "team1", "team2"))


# --- typing ----------------------------------------------------------------------------------------

def test_the_encryptor_types_three_clues_on_the_team_page_and_may_change_them(t):
    t.start("decrypto")
    page = team_page(t, WHITE)
    fields = re.findall(r'<input name="(clue\d)" value="" maxlength="(\d+)" required', page)
    assert fields == [(f"clue{n}", str(decrypto.CLUE_LENGTH)) for n in (1, 2, 3)]
    status, headers, _ = send(t, WHITE, ("Mexico ", " insect", "fear"))
    assert status == 303 and headers["Location"] == teams_path(t, WHITE)
    assert state(t).clues == (MEXICO, ())
    page = team_page(t, WHITE)
    assert [v for v in re.findall(r'<input name="clue\d" value="([^"]*)"', page)] == list(MEXICO)
    assert "Replace clues" in page
    assert send(t, WHITE, ("sombrero", "insect", "fear"))[0] == 303
    assert state(t).clues[WHITE] == ("sombrero", "insect", "fear")


def test_clues_typed_on_a_phone_hand_the_main_display_one_picture(t):
    # No key committed them: the box draws the event once all the same.
    t.start("decrypto")
    main = t.box.devices.displays["main"]
    pictures = main.pictures
    assert send(t, WHITE, MEXICO)[0] == 303
    assert main.pictures - pictures == 1


def test_DE4_clues_typed_on_a_phone_are_undone_at_the_table_like_any_action(t):
    t.start("decrypto")
    assert send(t, WHITE, MEXICO)[0] == 303
    t.hold("*", 1.0)                  # the game menu: undo?
    t.press("#")
    assert state(t).clues == ((), ())
    assert re.findall(r'<input name="clue\d" value="([^"]*)"', team_page(t, WHITE)) == ["", "", ""]


def test_typed_clues_are_on_no_other_page_and_no_screen_of_the_box(t):
    t.start("decrypto")
    send(t, WHITE, MEXICO)
    text = page_text(team_page(t, BLACK)) + page_text(ok(t, f"/g/{t.box.session.id}")) + on_screens(t)
    assert not [clue for clue in MEXICO if clue in text]
    assert 'value="Mexico"' in team_page(t, WHITE)


@pytest.mark.parametrize("forgery", [{"Sec-Fetch-Site": "cross-site"}, {"Origin": "http://evil.example"},
                                     {"Cookie": None}])
def test_clues_from_another_site_are_refused(t, forgery):
    t.start("decrypto")
    status, _, body = send(t, WHITE, MEXICO, **forgery)
    assert status == 403 and "Forbidden" in body
    assert state(t).clues == ((), ())


@pytest.mark.parametrize("clues, said", [
    (("Mexico", "", "fear"), "Clue 2 is empty."),
    (("Mexico", "   ", "fear"), "Clue 2 is empty."),
    (("Mexico", "insect", "f" * 41), "Clue 3 is too long (limit: 40)."),
    (("Mex\r\nico", "insect", "fear"), "Clue 1 holds a control character."),
])
def test_an_empty_or_overlong_clue_is_refused_with_a_message_on_the_page(t, clues, said):
    t.start("decrypto")
    status, _, body = send(t, WHITE, clues)
    assert status == 400
    assert re.search(r'<p class="refused" role="alert">([^<]*)</p>', body).group(1) == said
    assert state(t).clues == ((), ())
    assert "error" not in t.sounds                    # a phone's slip: no beep at the table


def test_DE10_only_the_team_types_clues_and_the_hacker_reads_them(t):
    t.start("decrypto", variant="hacker")
    assert 'name="clue1"' not in team_page(t, HACKER)
    status, _, body = send(t, HACKER, MEXICO)
    assert status == 400 and "The Hacker writes no clues." in page_text(body)
    assert send(t, TEAM, MEXICO)[0] == 303
    done(t, "team2")                                    # the Team is done: its code is guessed
    assert "Team clues: Mexico, insect, fear" in page_text(team_page(t, HACKER))


# --- read out, then revealed ---------------------------------------------------------------------------

def test_DE5_clues_read_out_reach_both_team_pages_and_the_game_page(t):
    t.start("decrypto")
    game = f"/g/{t.box.session.id}"
    send(t, WHITE, MEXICO)
    send(t, BLACK, PRAGUE)
    clues_done(t)                                      # White's code is guessed first: its clues are read
    for page in (team_page(t, WHITE), team_page(t, BLACK), ok(t, game)):
        text = page_text(page)
        assert "White clues: Mexico, insect, fear" in text
        assert not [clue for clue in PRAGUE if clue in text]   # Black's wait for Black's turn
    assert 'name="clue1"' not in team_page(t, WHITE)   # they stand as read
    assert 'name="clue1"' in team_page(t, BLACK)
    assert not [clue for clue in MEXICO if clue in on_screens(t)]   # the box's screens show no clue
    decode(t, WHITE)
    t.press("#")
    assert "Black clues: Prague, violin, ladder" in page_text(ok(t, game))
    assert not [clue for clue in MEXICO + PRAGUE if clue in on_screens(t)]


def test_after_the_reveal_every_page_groups_the_clues_by_keyword_position(t):
    t.start("decrypto")
    send(t, WHITE, MEXICO)
    clues_done(t)
    code = state(t).codes[WHITE]
    decode(t, WHITE)
    row = sheet_row(1, code, MEXICO)
    game = ok(t, f"/g/{t.box.session.id}")
    assert "White: clues by keyword" in page_text(game) and row in game
    black = team_page(t, BLACK)
    assert "White: clues by keyword" in page_text(black) and row in black
    white = team_page(t, WHITE)
    assert "Your clues by keyword" in page_text(white) and row in white
    for n, word in enumerate(state(t).keywords[WHITE], 1):   # the team's own sheet is headed by its words
        assert f'<th scope="col">{n} <span class="word">{word}</span></th>' in white
    assert "\u2011".join(map(str, code)) + " (Mexico, insect, fear): decoded" in page_text(game)   # unbreakable (25.2)


def test_the_notesheet_gathers_every_round_under_its_positions(t):
    t.start("decrypto")
    rows = []
    for number, clues in ((1, MEXICO), (2, ("amigo", "wings", "olive"))):
        send(t, WHITE, clues)
        clues_done(t)
        if number > 1:
            t.type("123#" if state(t).codes[WHITE] != (1, 2, 3) else "124#")   # Black misses
        rows.append(sheet_row(number, state(t).codes[WHITE], clues))
        decode(t, WHITE)
        if number > 1:
            t.type("123#" if state(t).codes[BLACK] != (1, 2, 3) else "124#")
        decode(t, BLACK)
        t.press("#")
    game = ok(t, f"/g/{t.box.session.id}")
    assert "".join(rows) in re.sub(r"\n", "", game)


def test_clue_text_is_escaped_on_every_page(t):
    t.start("decrypto")
    clues = ("<b>sun</b>", 'say "hi"', "rock & roll")
    assert send(t, WHITE, clues)[0] == 303
    assert '<input name="clue1" value="&lt;b&gt;sun&lt;/b&gt;"' in team_page(t, WHITE)
    clues_done(t)
    decode(t, WHITE)
    for page in (team_page(t, BLACK), ok(t, f"/g/{t.box.session.id}")):
        assert "<b>sun</b>" not in page and 'say "hi"' not in page and "rock & roll" not in page
        assert all(clue in page_text(page) for clue in clues)   # read as typed


def test_the_game_csv_has_the_clues_of_each_round(t):
    t.start("decrypto")
    send(t, WHITE, MEXICO)
    clues_done(t)
    code = "-".join(map(str, state(t).codes[WHITE]))
    decode(t, WHITE)
    rows = list(csv.reader(io.StringIO(ok(t, f"/api/g/{t.box.session.id}.csv").removeprefix("\ufeff")), delimiter=";"))
    assert rows[1][0] == "Round 1" and f"White {code} (Mexico, insect, fear): decoded" in rows[1][-1]


# --- secrets -------------------------------------------------------------------------------------------------

def clue_patterns(clues) -> set[str]:
    return {rf"\b{re.escape(clue)}\b" for clue in clues}


def test_nothing_secret_in_anything_public_while_clues_are_written(t):
    """The secrecy scan of the score log, with the typed clues among the
    secrets of the moment: all of them while written, Black's still while
    White's code is guessed."""
    secrets = Secrets()
    t.start("decrypto")
    for team in (WHITE, BLACK):
        secrets.patterns.add(teams_path(t, team).rsplit("/", 1)[1])
    send(t, WHITE, MEXICO)
    send(t, BLACK, PRAGUE)
    secrets.decrypto(state(t))
    secrets.patterns |= clue_patterns(MEXICO + PRAGUE)
    assert_nothing_secret(t, secrets)
    done(t, "team1")                                   # White done, Black's 30 seconds run
    assert_nothing_secret(t, secrets)
    done(t, "team2")
    secrets.patterns -= clue_patterns(MEXICO)          # read out: public now
    assert_nothing_secret(t, secrets)
    assert not [c for c in PRAGUE if re.search(rf"\b{c}\b", team_page(t, WHITE))]
    decode(t, WHITE)
    t.press("#")
    secrets.decrypto(state(t))
    secrets.patterns -= clue_patterns(PRAGUE)
    assert_nothing_secret(t, secrets)
    # The scan would have seen them: they are on the public pages now.
    assert "Black clues: Prague, violin, ladder" in page_text(ok(t, f"/g/{t.box.session.id}"))


# --- issue 17: the team page read at a glance ---------------------------------------------------

def test_clue_boxes_are_labelled_by_the_codes_digit_places_not_the_keyword_numbers(t):
    t.start("decrypto")
    page = team_page(t, WHITE)
    labels = re.findall(r'<label class="clue" for="(clue\d)">([^<]+)</label>', page)
    assert labels == [("clue1", "Clue for the code’s 1st digit →"), ("clue2", "Clue for the code’s 2nd digit →"),
                      ("clue3", "Clue for the code’s 3rd digit →")]
    code = "-".join(map(str, state(t).codes[WHITE]))
    assert code not in page                                   # [DE-3] the digits stay on the team screen


def test_a_refused_clue_post_keeps_what_was_typed(t):
    t.start("decrypto")
    status, _, body = send(t, WHITE, ("Mexico", "   ", "fear"))
    assert status == 400
    assert re.findall(r'<input name="clue\d" value="([^"]*)"', body) == ["Mexico", "   ", "fear"]
    assert state(t).clues[WHITE] == ()


def test_with_javascript_off_a_half_typed_clue_is_not_reloaded_away(t):
    t.start("decrypto")
    page = team_page(t, WHITE)
    assert 'http-equiv="refresh"' not in page                  # the form is open: no self-reload
    assert re.search(r'<noscript><p><a href="/T/[A-Z2-7]{26}">Refresh</a></p></noscript>', page)
    assert 'http-equiv="refresh"' in ok(t, "/")                 # the score log still follows the table
    send(t, WHITE, MEXICO)
    clues_done(t)                                               # guessing: the form is closed
    assert 'name="clue1"' not in team_page(t, WHITE)
    assert 'http-equiv="refresh"' in team_page(t, WHITE)
