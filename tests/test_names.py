"""Issue 17: players' names are safe everywhere they go: cleaned, short
enough for the panels, unique, drawable by the panel font, and in the box's
language when nobody typed any."""
import pytest

from games import base
from referee.testing import Table


def flashed(t):
    return [line[2:] for line in t.screen("main").splitlines() if line.startswith("! ")]


def test_names_are_trimmed_composed_and_kept_in_unicode(table):
    table.start("osmisifry", players=["  Z\u030cofie ", "Bartoloměj", "Игорь  Лев", "Łucja"])
    assert table.log()[0]["players"] == ["Žofie", "Bartoloměj", "Игорь Лев", "Łucja"]
    assert "Žofie picks" in table.screen() or "Roll 2d8" in table.screen()


@pytest.mark.parametrize(("names", "message"), [
    (["Bartolomějovec", "Eva"], "A name is too long (limit: 12)."),
    (["Eva", " eva"], "Two players have the same name."),
    (["Li 中", "Eva"], "The screens cannot show 中 in Li 中."),
    (["Eva 🎲", "Ann"], "The screens cannot show 🎲 in Eva 🎲."),
    (["Ann\u202e", "Eva"], "A name cannot hold the character U+202E."),
    (["A\u200bnn", "Eva"], "A name cannot hold the character U+200B."),
])
def test_a_name_the_panels_cannot_show_is_refused_clearly(table, names, message):
    table.start("davinci", players=names)
    assert flashed(table) == [message]
    assert table.log() == []                  # no game began
    assert "1 Decrypto" in table.page()


def test_twelve_characters_fit_and_every_game_takes_them(table):
    names = ["Bartoloměj12", "Ёлкина-Палка"]
    assert all(len(n) == base.NAME_LENGTH for n in names)
    for game in ("osmisifry", "davinci", "decipher", "octiles"):
        table.start(game, players=names)
        assert table.log()[-1]["players"] == names, game
        table.box.leave()


def test_a_refusal_in_czech_names_the_character():
    with Table(seed=7, lang="cs") as t:
        t.start("decipher", players=["Li 中", "Eva"])
        assert flashed(t) == ["Displeje neumí zobrazit 中 ve jménu Li 中."]


@pytest.mark.parametrize(("lang", "first"), [("cs", "Hráč 1"), ("pl", "Gracz 1"), ("ru", "Игрок 1")])
@pytest.mark.parametrize("menu", ["2", "4", "5"])   # Osmišifry, Da Vinci Code, Decipher
def test_seats_counted_on_the_keys_are_named_in_the_box_language(lang, first, menu):
    with Table(seed=7, lang=lang) as t:
        t.type(menu + "#")
        assert t.log()[0]["players"][0] == first


# --- tonight's roster on the keypad ---------------------------------------------------

def lines(t, name="main"):
    return [line for line in t.page(name).splitlines()]


def test_tonights_names_are_offered_at_the_next_setup_and_hash_takes_the_same_players(table):
    table.start("osmisifry", players=["Žofie", "Bob", "Игорь"])
    table.box.leave()
    table.press("5")                                   # Decipher's setup
    table.press("A")
    assert lines(table) == ["[Tonight's players]", "1 Žofie", "2 Bob", "3 Игорь", "#:As last game *:Back"]
    table.press("#")                                   # the same players as last game
    assert lines(table, "team1") == ["[Players]", "1 Žofie", "2 Bob", "3 Игорь"]
    assert "1 Players: 3" in table.screen()
    table.press("#")
    assert table.log()[0]["players"] == ["Žofie", "Bob", "Игорь"]


def test_digits_pick_from_tonights_roster_in_seat_order(table):
    table.start("osmisifry", players=["Žofie", "Bob", "Игорь"])
    table.box.leave()
    table.start("davinci", players=["Eva", "Bob"])
    table.box.leave()
    table.press("4")                                   # Da Vinci Code's setup
    table.press("A")
    assert lines(table)[1:5] == ["1 Eva", "2 Bob", "3 Žofie", "4 Игорь"]
    table.type("42")
    assert lines(table)[1:5] == ["1 Eva", "2 Bob →2", "3 Žofie", "4 Игорь →1"]
    table.type("3" "3")                                # picked, then dropped again
    assert lines(table)[-1] == "#:OK *:Back"
    table.press("#")
    assert lines(table, "team1") == ["[Players]", "1 Игорь", "2 Bob"]
    table.type("1")                                    # three players now: the third keeps its default
    assert lines(table, "team1") == ["[Players]", "1 Игорь", "2 Bob", "3 Player 3"]
    table.type("#" "#")                                # start; everyone has the tiles
    assert table.log()[0]["players"] == ["Игорь", "Bob", "Player 3"]


def test_the_keypad_alone_still_starts_with_default_names(table):
    table.press("5")
    table.press("A")
    assert "No names typed" in table.screen()
    table.type("*#")
    assert table.log()[0]["players"] == ["Player 1", "Player 2", "Player 3"]


def test_too_many_names_for_the_game_are_refused_on_the_keypad(table):
    table.start("osmisifry", players=["A1", "B2", "C3", "D4", "E5"])
    table.box.leave()
    table.press("4")
    table.type("A#")
    assert flashed(table) == ["Players in this game: 2 to 4."]
    assert lines(table)[0] == "[Tonight's players]"


def test_hash_brings_back_the_same_decrypto_teams(table):
    table.start("decrypto", members=[["Ann", "Bob"], ["Cy", "Dana", "Eva"]])
    table.box.leave()
    table.press("1")                                   # Decrypto's setup again
    table.type("A#")
    assert lines(table, "team1") == ["[White]", "Ann", "Bob"]
    assert lines(table, "team2") == ["[Black]", "Cy", "Dana", "Eva"]
    assert "1 White 2 v 3 Black" in table.screen()
    table.press("#")
    assert table.log()[0]["members"] == {"White": ["Ann", "Bob"], "Black": ["Cy", "Dana", "Eva"]}


def test_the_panels_font_coverage_held_as_data_matches_the_font():
    # The web checks names against referee/panel_font.py, not the font: the
    # table must say exactly what the font draws (scripts/panel_font.py
    # writes it anew when the font changes).  Made with this very font and
    # layout, the table is checked where it could be wrong, at the pixels of
    # each range's ends and of the characters just outside them; made with
    # others, against the pixels of every code point.
    import importlib.util
    import pathlib
    from referee import panel_font
    path = pathlib.Path(__file__).resolve().parent.parent / "scripts" / "panel_font.py"
    spec = importlib.util.spec_from_file_location("panel_font_script", path)
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    written = (path.parent.parent / "referee" / "panel_font.py").read_text(encoding="utf-8")
    if script.drawn_by() != panel_font.DRAWN_BY:
        assert script.ranges() == list(panel_font.RANGES), "run scripts/panel_font.py"
        return
    assert script.module(list(panel_font.RANGES), panel_font.DRAWN_BY) == written
    missing = script.drawn(script.MISSING)

    def draws(code: int) -> bool:
        try:
            return script.drawn(chr(code)) != missing
        except RuntimeError:
            return False
    ends = {code for first, last in panel_font.RANGES for code in (first, last)}
    outside = {code for first, last in panel_font.RANGES for code in (first - 1, last + 1)
               if 0x21 <= code < 0x110000 and code not in script.SURROGATES} - ends
    assert {hex(code) for code in ends if not draws(code)} == set()
    assert {hex(code) for code in outside if draws(code)} == set()


def test_nobody_named_tonight_the_roster_says_how_and_B_opens_the_phone_page(table):
    table.press("5")
    table.press("A")
    screen = table.screen()
    assert "No names typed tonight yet. B: type them on a phone." in " ".join(screen.splitlines())
    assert screen.splitlines()[-1] == "B:Phone *:Back"
    table.press("B")
    assert table.screen().startswith("[Names]") and "QR " in table.screen()
