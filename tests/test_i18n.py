"""The box in Czech, Polish and Russian.

Every message the screens show has a translation in each catalogue; each
keeps its message's placeholders, draws in the panel's text font, and fits
one line wherever the English does.  At the table the language is chosen
under Settings, and the choice outlives a power cut.
"""
from __future__ import annotations

import functools
import importlib.util
import pathlib
import string

import pytest
from PIL import Image, ImageDraw

from games.base import Illegal
from referee import catalogue, glossary, i18n
from referee.box.screen import COLS, W, font, key_rows, qr_image
from referee.testing import Table


def done(t, team):
    """A team's clues are written: two short presses of its button [DE-4]."""
    t.press(team)
    t.press(team)

SCRIPT = pathlib.Path(__file__).resolve().parent.parent / "scripts" / "catalogues.py"


def _load_script():
    spec = importlib.util.spec_from_file_location("catalogues", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


catalogues = _load_script()
LANGS = catalogues.LANGS

# Labels of the keys on the bar at the bottom of a screen: they share 21
# columns with two or three others, so a translation may be no longer than
# the English, or six letters when the English is shorter.
KEY_LABELS = (
    "Yes", "No", "OK", "Back", "Clear", "Help", "Next", "Codes", "Swap", "QR", "Menu", "Start",
    "More", "more", "End", "End game", "Roll", "Draw", "30s", "1m", "5m", "Go", "Pause", "Pass",
    "Stop", "Hit", "Miss", "attack", "Give up", "Piece", "Wrong", "Right", "NO", "YES",
    "All done", "hold", "code", "press", "done", "Next round", "Next game", "Start 5:00",
)


@functools.cache
def translations(lang: str) -> dict[str, str]:
    """Message id → translation, as the catalogue has them (messages with
    plural forms, which only the web pages use, are checked in
    test_web_i18n.py)."""
    return {m.id: m.string for m in catalogues.load(lang) if m.id and not m.pluralizable}


@functools.cache
def on_panels() -> frozenset[str]:
    """The messages a panel may draw: those used anywhere but in the web
    pages' own code (referee/web/), which only phones show."""
    return frozenset(m for m, places in catalogues.messages().items()
                     if any(not place.startswith("referee/web/") for place in places))


def placeholders(text: str) -> list[tuple[str, str, str]]:
    """The ``{fields}`` of a message with their conversion and format, so
    that ``{option!r}`` and ``{total:>2}`` must come back as they went."""
    return sorted((name, conversion or "", spec or "")
                  for _, name, spec, conversion in string.Formatter().parse(text) if name is not None)


def glyph(ch: str, face) -> bytes:
    image = Image.new("1", (12, 12))
    ImageDraw.Draw(image).text((0, 0), ch, font=face, fill=1)
    return image.tobytes()


# --- the catalogues ---------------------------------------------------------------

@pytest.mark.parametrize("lang", LANGS)
def test_every_message_the_box_shows_is_translated(lang):
    assert catalogues.untranslated(lang) == []


@pytest.mark.parametrize("lang", LANGS)
def test_translations_keep_the_placeholders_of_their_message(lang):
    wrong = {m: t for m, t in translations(lang).items() if placeholders(t) != placeholders(m)}
    assert wrong == {}


@pytest.mark.parametrize("lang", LANGS)
def test_translations_draw_without_missing_glyph_boxes(lang):
    face = font("text")
    notdef = glyph("\ue000", face)  # a private-use character: the font's notdef box
    used = {ch for m, text in translations(lang).items() if m in on_panels() for ch in text if not ch.isspace()}
    assert sorted(ch for ch in used if glyph(ch, face) == notdef) == []


@pytest.mark.parametrize("lang", LANGS)
def test_a_message_of_one_line_stays_one_line_translated(lang):
    # A glossary's word forms are never drawn whole: the help shows its headword.
    forms = {term.words for game in catalogue.GAMES for term in glossary.terms(game)}
    long = {m: t for m, t in translations(lang).items()
            if m in on_panels() and m not in forms and len(m) <= COLS < len(t)}
    assert long == {}


@pytest.mark.parametrize("lang", LANGS)
def test_DE9_the_tie_break_title_says_tie_as_the_result_does_and_fits_the_panel(lang):
    catalog = i18n.catalogue(lang)
    title = catalog.gettext("Tie, int-mis {0}:{1}").format(-2, -2)      # the widest score that ties
    tie = catalog.ngettext("Tie after {n} round.", "Tie after {n} rounds.", 8).split()[0]
    assert title.split()[0].rstrip(",") == tie                          # "Remíza", not "Stav"
    assert round(font("text").getlength(title)) <= W - 2                # the title row, its margin left


@pytest.mark.parametrize("lang", LANGS)
def test_key_labels_stay_about_as_short_as_the_english(lang):
    catalog = translations(lang)
    long = {key: catalog[key] for key in KEY_LABELS if len(catalog[key]) > max(6, len(key))}
    assert long == {}


# --- at the table -------------------------------------------------------------------

@pytest.fixture
def t():
    with Table(seed=7, lang="en") as table:
        yield table
    i18n.use("en")  # the language is the whole process's: leave it as the other tests expect


def shown(t: Table, name: str = "main") -> list[str]:
    """A screen's lines without the passing message over it."""
    return [line for line in t.page(name).splitlines()]


def flashed(t: Table) -> list[str]:
    return [line[2:] for line in t.screen("main").splitlines() if line.startswith("! ")]


def assert_fits(t: Table) -> None:
    """Every line of every panel fits as it is drawn (a QR code takes the left)."""
    for screen in t.box.shown.values():
        width = (W - qr_image(screen.qr).width - 4) // 6 if screen.qr else COLS
        for text in (screen.title, *screen.lines):
            assert len(text) <= width, screen.text
        assert not any(row.endswith("…") for row in key_rows(screen.keys, width)), screen.text   # one row or two, whole


def choose(t: Table, item: str) -> None:
    """Settings (item 8 of the main menu), then a language, then back."""
    t.press("8")
    t.press(item)
    t.press("*")


def test_settings_switch_the_box_to_czech_and_back_and_a_power_cut_keeps_the_choice(t):
    t.press("8")
    assert shown(t) == ["[Language: en 1/2]", "1 English", "2 Čeština", "3 Polski", "4 Русский", "D:► *:Back"]
    t.press("2")
    assert shown(t)[0] == "[Jazyk: cs 1/2]" and shown(t)[-1] == "D:► *:Zpět"
    t.press("D")
    assert shown(t) == ["[Jazyk: cs 2/2]", "5 Sloučit jména", "C:◄ *:Zpět"]
    assert_fits(t)
    t.press("*")
    # The titles of the Czech rulebooks (issue 25 item 10).
    assert shown(t) == ["[Tabletop Referee 1/2]", "1 Decrypto", "2 Osmišifry", "3 Oktilky", "4 Da Vinciho kód", "D:►"]
    t.restart()
    t.press("D")
    assert shown(t) == ["[Tabletop Referee 2/2]", "5 Decipher", "6 Časovač a kostky", "7 Výsledky", "8 Nastavení",
                        "C:◄"]

    t.press("6")
    assert shown(t) == ["[Čas  D:kostky]", "1:00", "#:Běž A:30s B:1m C:5m", "*:Zpět"]
    assert shown(t, "team1") == ["[Časovač]", "1:00"]
    t.press("D")
    assert shown(t) == ["[Hod 2k8]", "–", "A:počet kostek", "B:stěny C:hody", "#:Hoď *:Časovač"]
    t.dice.next(4, 3)
    t.press("#")
    assert shown(t)[1] == "4  3"
    t.press("C")
    assert shown(t) == ["[Poslední hody]", "4+3", "*:Zpět"]
    assert_fits(t)
    t.type("***")                             # dice, timer, and away from the tools
    assert shown(t)[2] == "2 Osmišifry"

    choose(t, "1")
    assert shown(t)[2] == "2 Osmišifry"
    t.press("D")
    assert shown(t)[2:5] == ["6 Table tools", "7 Score log", "8 Settings"]
    t.restart()
    t.press("D")
    assert shown(t)[2:5] == ["6 Table tools", "7 Score log", "8 Settings"]


def test_DV4_DV8_refused_attacks_read_in_czech_with_the_player_named(t):
    choose(t, "2")
    t.start("davinci", players=["Anna", "Boris", "Cyril"])
    t.press("#")
    assert shown(t)[0] == "[Anna: táhni panel]"     # [25.3] the names typed, not H1
    t.press("1")
    assert flashed(t) == ["Ne na vlastní řadu."] and t.sounds[-1] == "error"
    for _ in range(4):                        # Anna turns up all four of Boris's tiles
        t.type("2A")
    assert shown(t, "team1")[2] == " Boris mimo hru"
    t.press("2")
    assert flashed(t) == ["Boris je mimo hru."]
    assert_fits(t)


def test_players_counted_on_the_keys_are_named_in_the_box_language_in_the_score_log(t):
    choose(t, "2")
    t.press("4")                              # Da Vinci Code with the form's 2 players
    t.press("#")
    assert [e["players"] for e in t.log()] == [["Hráč 1", "Hráč 2"]]


@pytest.mark.parametrize("lang, homes", [
    ("pl", ["Zachód   12↓…7↖", "Północ   1←…2↗", "Wschód   6↑…11↘", "Południe 17→…16↙"]),
    ("ru", ["Запад  12↓…7↖", "Север  1←…2↗", "Восток 6↑…11↘", "Юг     17→…16↙"]),
])
def test_OC1_the_start_homes_page_keeps_a_space_between_seat_and_circles(lang, homes):
    with Table(seed=7, lang=lang) as t:
        t.start("octiles", players=2)
        t.type("D1D")         # the map of the spaces, then the start homes
        assert shown(t)[1:5] == homes
        assert_fits(t)
    i18n.use("en")


def test_DE5_a_refused_guess_reads_in_czech_and_the_teams_are_bili_and_cerni(t):
    choose(t, "2")
    t.start("decrypto")
    assert shown(t)[1:3] == ["Bílí: Hráč 1", "Černí: Hráč 1"]
    done(t, "team1")
    done(t, "team2")
    assert shown(t)[0:2] == ["[Kolo 1, kód: Bílí]", "Bílí: dešifrování"]
    t.type("155#")
    assert flashed(t) == ["Tři různé číslice od 1 do 4, prosím."] and t.sounds[-1] == "error"
    assert_fits(t)


@pytest.mark.parametrize("lang, sentence", [
    ("cs", "Nejdřív zachycení: Černí."),
    ("pl", "Najpierw przechwyt: Czarni."),
    ("ru", "Сначала взлом: Чёрные."),
])
def test_DE5_a_refusal_names_the_team_in_the_box_language(lang, sentence):
    # The rules name the sides in English; the sentence and the name are
    # both translated where the box shows them.
    refused = Illegal("{team} intercepts first.", team="Black")
    try:
        i18n.use(lang)
        assert i18n.refusal(refused) == sentence
    finally:
        i18n.use("en")
    assert i18n.refusal(refused) == str(refused) == "Black intercepts first."


@pytest.mark.parametrize("lang", LANGS)
def test_menus_table_tools_setup_forms_and_their_help_fit_the_panel(lang):
    with Table(seed=1, lang=lang) as t:
        for keys in ("", "D", "8", "*6", "D", "C"):
            t.type(keys)
            assert_fits(t)
        t.type("*D*")
        for game in "12345":
            t.press(game)
            for option in "12345":
                for _ in range(10):       # round every choice, on every page of the form
                    t.press(option)
                    assert_fits(t)
            t.press("C")
            for _ in range(4):
                assert_fits(t)
                t.press("D")
            t.type("**")
            assert "1 Decrypto" in t.screen()
