"""The score log on the phones speaks the box's language.

A Czech table sees Czech screens and Czech phone pages: the evening, every
game page, the list of evenings, a team's page with its clue form, the
error pages, dates written the Czech way.  Choosing another language under
Settings turns the pages that are open too.  What scripts and other apps
read (the JSON API, the CSV and JSON files, the BG Stats link) stays
English and the same whatever the table speaks.
"""
from __future__ import annotations

import datetime as dt
import functools
import html
import json
import re

import pytest

from referee import i18n
from referee.box import flows
from referee.testing import Table
from referee.web import history, sheets
from test_i18n import catalogues
from games import octiles
from test_web import (SCRIPT, Stream, act, current_id, davinci_game, decipher_game, decrypto_clues, decrypto_game,
                      decrypto_guesses, form_of, octiles_turns, ok, osmisifry_game, page_text, stand_in, teams_path)
from test_web_browser import browser, phone  # noqa: F401

LANGS = ("cs", "pl", "ru")


@pytest.fixture
def t(request, monkeypatch):
    """A table speaking Czech (or the language a test passes), its games
    played by the events the tests name (as in test_web)."""
    monkeypatch.setattr(flows, "module", stand_in)
    SCRIPT.clear()
    try:
        with Table(seed=7, lang=getattr(request, "param", "cs")) as table:
            yield table
    finally:
        i18n.use("en")  # the language is the whole process's: leave it as the other tests expect


def choose(t: Table, item: str) -> None:
    """Settings (item 8 of the main menu), then a language, then back."""
    t.press("8")
    t.press(item)
    t.press("*")


def lang_of(body: str) -> str:
    return re.search(r'<html lang="([^"]*)">', body).group(1)


def readable(body: str) -> str:
    """What a reader or a screen reader meets: the text, and the words in
    titles and labels."""
    labels = re.findall(r'\s(?:title|aria-label)="([^"]*)"', body)
    return " ".join([page_text(body), *(html.unescape(label) for label in labels)])


def evening(t: Table) -> dict[str, int]:
    """Every game once, two of them left unfinished; the last, Decrypto,
    won and still on the box.  Game ids by name."""
    ids = {}
    davinci_game(t)
    ids["davinci"] = current_id(t)
    t.box.leave()
    osmisifry_game(t)
    ids["osmisifry"] = current_id(t)
    t.box.leave()
    t.start("octiles", players=2)
    octiles_turns(t, 30)                       # more rows than a phone shows
    ids["octiles"] = current_id(t)
    t.box.leave()
    decipher_game(t)
    ids["decipher"] = current_id(t)
    t.box.leave()
    decrypto_game(t)
    ids["decrypto"] = current_id(t)
    return ids


# --- no English left ------------------------------------------------------------------------

@functools.cache
def english_left(lang: str) -> tuple[tuple[str, re.Pattern], ...]:
    """For every message of the web pages, the English pieces of it (its
    text between placeholders and tags) that its translation does not
    keep, each as a pattern of a whole word or phrase."""
    catalog = catalogues.load(lang)
    found = []
    for message, places in catalogues.messages().items():
        if not any(place.startswith("referee/web/") for place in places):
            continue
        translated = catalog.get(message).string
        translated = " ".join(translated) if isinstance(translated, tuple) else translated
        for english in message if isinstance(message, tuple) else (message,):
            for piece in re.split(r"%\(\w+\)[sd]|\{[^}]*\}|<[^>]+>", english):
                piece = piece.strip(" ,;:·")
                if len(piece) >= 3 and re.search(r"[A-Za-z]", piece) and piece not in translated:
                    found.append((piece, re.compile(rf"(?<!\w){re.escape(piece)}(?!\w)")))
    return tuple(found)


@pytest.mark.parametrize("t", LANGS, indirect=True)
def test_every_page_speaks_the_box_language_with_no_english_left(t):
    lang = i18n.lang
    ids = evening(t)
    pages = {"team page of a finished game": ok(t, teams_path(t, 0))}
    t.box.leave()
    t.start("decrypto", lang=lang)                   # the next game: clues being written
    pages["team page with its clue form"] = ok(t, teams_path(t, 1))
    pages["evening"] = ok(t, "/")
    pages["evenings"] = ok(t, "/e/")
    for name, game in ids.items():
        pages[name] = ok(t, f"/g/{game}")
        pages[f"{name}, step by step"] = ok(t, f"/g/{game}/step/1")      # issue 38: the replay
    pages["decrypto, a side's step"] = ok(t, f"/g/{ids['decrypto']}/step/1?side=white")
    status, _, pages["a replay of the game on"] = t.get(f"/g/{current_id(t)}/step/0")
    assert status == 409
    status, _, pages["404"] = t.get("/nothing-here")
    assert status == 404
    for name, body in pages.items():
        assert lang_of(body) == lang, name
        text = readable(body)
        left = [piece for piece, pattern in english_left(lang) if pattern.search(text)]
        assert left == [], name


# --- in Czech -----------------------------------------------------------------------------------

def test_the_evening_reads_in_czech(t):
    davinci_game(t)
    t.box.leave()
    decrypto_game(t)
    t.box.leave()
    decipher_game(t)
    text = page_text(ok(t, "/"))
    assert text.startswith("Dnešní večer · Tabletop Referee Dnešní večer")
    assert "Decipher Hraje se od " in text and "· Kolo 3 z 3 · slovo tvoří Cy" in text
    assert "Decrypto Dohráno" in text and "★ Bílí 0 zachycení, 0 nedorozumění Černí 0 zachycení, 2 nedorozumění" in text   # the sides as the screens name them, their tokens (25.2)
    assert "Da Vinciho kód Dohráno" in text and "necelá minuta" in text
    assert text.endswith("Obnovit Všechny večery Jak hrát CSV JSON")


def test_a_game_page_reads_in_czech(t):
    ids = evening(t)
    text = page_text(ok(t, f"/g/{ids['decrypto']}"))
    assert "← Dnešní večer" in text
    assert "★ Vítězí Bílí Černí: dvě nedorozumění." in text
    assert "Kolo 1" in text and "Bílí 3‑2‑1: dešifrováno; Černí 2‑3‑1: nedorozumění (1‑2‑3)" in text
    assert "Celkem 0 0 0 2" in text and "Uložit do BG Stats" in text      # Bílí, then Černí: Zach. Ned.
    text = page_text(ok(t, f"/g/{ids['davinci']}"))
    assert "Začíná Ann; vítězí Ann po 1 tahu; mimo hru: Bob (útok: Ann)" in text
    body = ok(t, f"/g/{ids['octiles']}")
    assert re.search(r'aria-label="Průběžný součet: Západ -?\d+, Východ -?\d+"', body)   # seats as on the screens
    assert "Ukončena předčasně: nikdo nevyhrál" in page_text(body)   # the account's words, as the replay's


def test_a_long_sheet_says_in_czech_how_many_rows_it_leaves_out(t, monkeypatch):
    monkeypatch.setattr(sheets, "LONG_SHEET", 1)
    t.start("octiles", mode="dealer")
    act(t, octiles.Pass(), octiles.Pass())         # two turns without points
    text = page_text(ok(t, f"/g/{current_id(t)}"))
    assert "2 řádky bez bodů tu nejsou: v CSV jsou všechny." in text


def test_the_list_of_evenings_counts_games_the_czech_way(t):
    said = []
    for _ in range(5):
        davinci_game(t)
        t.box.leave()
        said.append(re.search(r"Dnešní večer (\d+ \w+):", page_text(ok(t, "/e/"))).group(1))
    assert said == ["1 hra", "2 hry", "3 hry", "4 hry", "5 her"]
    assert page_text(ok(t, "/e/")).startswith("Večery · Tabletop Referee ← Dnešní večer Večery")


def test_the_date_is_written_the_way_each_language_writes_it():
    day = dt.date(2026, 11, 22)
    written = {}
    try:
        for lang in ("en", *LANGS):
            i18n.use(lang)
            written[lang] = sheets.long_date(day)
    finally:
        i18n.use("en")
    assert written == {"en": "Sunday, 22 November 2026", "cs": "neděle 22. listopadu 2026",
                       "pl": "niedziela, 22 listopada 2026", "ru": "воскресенье, 22 ноября 2026\u202fг."}


CZECH_DAYS = ("pondělí", "úterý", "středa", "čtvrtek", "pátek", "sobota", "neděle")
CZECH_MONTHS = ("ledna", "února", "března", "dubna", "května", "června", "července", "srpna", "září", "října",
                "listopadu", "prosince")


def test_the_pages_date_the_evening_in_czech_and_keep_clock_times(t):
    davinci_game(t)
    day = history.evening_of(t.clock.wall())
    czech = f"{CZECH_DAYS[day.weekday()]} {day.day}. {CZECH_MONTHS[day.month - 1]} {day.year}"
    assert f"Dnešní večer {czech} živě" in page_text(ok(t, "/"))
    text = page_text(ok(t, f"/g/{current_id(t)}"))
    assert re.search(rf"{czech} · \d\d:\d\d–\d\d:\d\d · necelá minuta", text)


def test_a_decrypto_team_page_and_its_clue_form_speak_czech(t):
    t.start("decrypto", lang="cs")
    path = teams_path(t, 0)
    body = ok(t, path)
    assert lang_of(body) == "cs"
    text = page_text(body)
    assert "Decrypto · stránka vašeho týmu živě Bílí Kolo 1 z 8" in text
    assert "Vaše nápovědy Šifrante, napiš tři nápovědy v pořadí kódu." in text
    assert '<label class="clue" for="clue1">Nápověda k 1. číslici kódu →</label>' in body
    assert "<button>Uložit nápovědy</button>" in body
    assert "Žetony Tým Zachycení Nedorozumění Bílí 0 0 Černí 0 0" in text
    assert text.endswith("Tahle stránka je jen pro váš tým: soupeřům ji neukazujte.")

    secret, cookie = form_of(t, path)
    headers = {"Cookie": cookie, "Origin": t.web_url().rstrip("/"), "Sec-Fetch-Site": "same-origin"}
    status, _, body = t.post(path, {"csrf": secret, "clue1": "", "clue2": "Praha", "clue3": "housle"}, headers)
    assert status == 400 and "Prázdná nápověda 1." in page_text(body)    # the rules' refusal, in Czech
    status, _, _ = t.post(path, {"csrf": secret, "clue1": "Mexiko", "clue2": "hmyz", "clue3": "strach"}, headers)
    assert status == 303
    text = page_text(ok(t, path))
    assert "Změnit nápovědy Uloženo; měnit je můžeš, dokud nezazní." in text


def test_after_the_reveal_the_team_page_says_in_czech_how_codes_went(t):
    t.start("decrypto", lang="cs")
    decrypto_clues(t)
    decrypto_guesses(t, miscommunicate={0})
    text = page_text(ok(t, teams_path(t, 0)))
    assert re.search(r"Vaše dosavadní kódy Kolo 1 \d-\d-\d nedorozumění", text)
    assert "Černí: nápovědy podle klíčových slov" in text


def test_error_pages_speak_czech_but_the_api_keeps_its_english_errors(t):
    status, _, body = t.get("/nothing-here")
    assert status == 404 and lang_of(body) == "cs"
    assert page_text(body) == "Nenalezeno · Tabletop Referee Nenalezeno 404: tady nic není. Dnešní výsledky"
    status, _, body = t.get("/e/?before=yesterday")
    assert status == 400 and "Chybný požadavek" in page_text(body)
    status, _, body = t.get("/api/g/424242")
    assert status == 404 and json.loads(body) == {"error": "Not Found"}


# --- a language chosen at the table -------------------------------------------------------------

@pytest.mark.parametrize("t", ["en"], indirect=True)
def test_choosing_czech_under_settings_turns_the_open_pages_czech(t):
    davinci_game(t)
    game = current_id(t)
    t.box.leave()
    english = ok(t, "/")
    assert lang_of(english) == "en" and page_text(english).startswith("Tonight")
    assert "Ann wins" in page_text(ok(t, f"/g/{game}"))
    stream = Stream(t)
    try:
        first = stream.message()
        choose(t, "2")                             # Čeština
        version = stream.message()                 # the open pages hear of it at once
        assert int(version) > int(first)
        czech = ok(t, "/")                         # not the English page kept since the last game
        assert lang_of(czech) == "cs" and f'data-version="{version}"' in czech
        assert page_text(czech).startswith("Dnešní večer")
        assert "Vítězí Ann" in page_text(ok(t, f"/g/{game}"))
        assert "1 hra: Da Vinciho kód" in page_text(ok(t, "/e/"))
        choose(t, "1")                             # and back to English
        assert int(stream.message()) > int(version)
        again = ok(t, "/")
        assert lang_of(again) == "en" and page_text(again) == page_text(english)
    finally:
        stream.close()


# What the score log says of each game, newest first, whatever the table speaks.
STATUSES = ["playing", "finished", "abandoned", "abandoned", "finished", "finished"]


@pytest.mark.parametrize("t", ["en"], indirect=True)
def test_the_api_the_files_and_the_bgstats_link_stay_english_in_every_language(t):
    ids = evening(t)
    t.box.leave()
    t.start("decrypto")                              # one being played too
    paths = ["/api/evening", "/api/evening.csv", "/api/evening.json", "/api/evenings",
             *(f"/api/g/{game}" for game in ids.values()), *(f"/api/g/{game}.csv" for game in ids.values()),
             *(f"/api/g/{game}/steps.json" for game in ids.values())]       # issue 38: a game's record

    def answers() -> dict[str, str]:
        return {path: ok(t, path) for path in paths}

    def bgstats() -> str:
        return re.search(r'href="(https://app\.bgstatsapp\.com/[^"]*)"', ok(t, f"/g/{ids['davinci']}")).group(1)

    english, link = answers(), bgstats()
    assert json.loads(english["/api/evening"]) == t.log()
    assert [e["status"] for e in t.log()] == STATUSES
    assert english[f"/api/g/{ids['decrypto']}.csv"].splitlines()[0] == "\ufeffround;White;Black;details"
    assert english[f"/api/g/{ids['decrypto']}.csv"].splitlines()[-1] == "total;0;-2;White wins"
    for lang in LANGS:
        i18n.use(lang)
        t.box.store.set_setting("lang", lang)   # as the Settings menu does
        assert lang_of(ok(t, "/")) == lang
        assert answers() == english, lang
        assert bgstats() == link, lang


# --- on a phone ------------------------------------------------------------------------------------

@pytest.mark.browser
@pytest.mark.parametrize("t", ["en"], indirect=True)
def test_a_page_open_on_a_phone_turns_czech_when_the_table_does(t, phone):  # noqa: F811
    davinci_game(t)
    t.box.leave()
    page = phone.open("/")
    phone.call(page.wait_for_selector(".live:not([hidden])", timeout=5000))   # the stream is open
    choose(t, "2")
    phone.call(page.wait_for_function(
        """() => document.documentElement.lang === "cs"
                 && document.querySelector("h1").textContent === "Dnešní večer"
                 && document.querySelector("footer").textContent.includes("Všechny večery")
                 && document.querySelector("main").textContent.includes("Dohráno")""", timeout=9000))
    assert phone.call(page.title()) == "Dnešní večer · Tabletop Referee"
    assert phone.call(page.locator(".live").is_visible())                    # still following the table
    phone.shot(page, "tonight-czech")


# --- the catalogues ----------------------------------------------------------------------------------

def percent_fields(text: str) -> list[str]:
    return sorted(re.findall(r"%\((\w+)\)[sd]", text))


def brace_fields(text: str) -> list[str]:
    return sorted(re.findall(r"\{(\w+)(?:[!:][^}]*)?\}", text))


@pytest.mark.parametrize("lang", LANGS)
def test_translations_of_the_pages_keep_their_placeholders_in_every_plural_form(lang):
    """Templates name their fields as Jinja does, ``%(name)s``; messages
    counted with ngettext have a form per plural of the language, and each
    keeps the fields of the English."""
    wrong = {}
    catalog = catalogues.load(lang)
    for message in catalog:
        if not message.id:
            continue
        english = message.id if isinstance(message.id, tuple) else (message.id,)
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        if message.pluralizable and len(forms) != catalog.num_plurals:
            wrong[english[0]] = forms
        for form in forms:
            if (percent_fields(form), brace_fields(form)) != (percent_fields(english[-1]), brace_fields(english[-1])):
                wrong[english[0]] = form
    assert wrong == {}


def test_the_pages_take_the_plural_forms_of_each_language():
    counted = {}
    try:
        for lang in LANGS:
            i18n.use(lang)
            counted[lang] = [i18n.ngettext("{n} tile in the pool", "{n} tiles in the pool", n).format(n=n)
                             for n in (1, 2, 5, 21, 22)]
    finally:
        i18n.use("en")
    assert counted == {
        "cs": ["1 panel v zásobě", "2 panely v zásobě", "5 panelů v zásobě", "21 panelů v zásobě",
               "22 panelů v zásobě"],
        "pl": ["1 płytka w puli", "2 płytki w puli", "5 płytek w puli", "21 płytek w puli", "22 płytki w puli"],
        "ru": ["1 плитка в запасе", "2 плитки в запасе", "5 плиток в запасе", "21 плитка в запасе",
               "22 плитки в запасе"],
    }
