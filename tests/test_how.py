"""How to play, on every phone: ``/how/<game>`` for the five games in the
box's four languages, its pictures the box's own screens drawn again from
scripted games (``referee.tools.how``), reached from the box's Help by a QR
code to the phase on screen, from the score log and the table view."""
from __future__ import annotations

import html
import re

import aiohttp
import pytest
import zxingcpp
from PIL import Image, ImageChops

from referee import glossary, guide, i18n
from referee.testing import Table
from referee.tools import how
from test_phone_widths import BROKEN, LANGS
from test_web_browser import axe, browser, path_of, serious_findings  # noqa: F401

SECTIONS = ("goal", "table", "round", "keys", "scoring", "words")
# The rulebooks' worked examples, as the pages write them.
EXAMPLES = {"osmisifry": ("Officer: 9", "18 - 5 - 5 = 8"), "decipher": ("5 + 2×2 + 1 = 10", "3 + 2 + 3 = 8")}


def text_of(body: str) -> str:
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", body)))


@pytest.fixture(scope="module", params=i18n.LANGS)
def table_speaking(request):
    with Table(seed=7, lang=request.param) as table:
        yield table, request.param


@pytest.fixture
def speaking(table_speaking):
    """One table a language for the module; its language set again for each
    test, since every test ends in English (conftest's ``english_after``)."""
    table, lang = table_speaking
    i18n.use(lang)
    return table, lang


@pytest.mark.parametrize("game", guide.games())
def test_how_to_play_teaches_the_goal_the_round_the_keys_the_scoring_and_the_words(speaking, game):
    t, lang = speaking
    status, _headers, body = t.get(f"/how/{game}")
    assert status == 200
    assert f'<html lang="{lang}">' in body and "<script" not in body
    told = guide.of(game)
    ids = set(re.findall(r'id="([a-z]+)"', body))
    assert set(SECTIONS) | {phase.id for phase in told.phases} <= ids
    text = text_of(body)
    with i18n.speaking(lang):
        assert i18n._(told.goal) in text
        for phase in told.phases:
            assert all(i18n._(key) in text for key in phase.keys)
        for word, means in glossary.defined(game):    # the glossary the box's Help ends on, word for word
            assert word in text and means in text
        for line in told.example:
            assert i18n._(line) in text
    for number in EXAMPLES.get(game, ()):
        assert number.split(": ")[-1] in text
    pictures = re.findall(r'<img src="([^"]+)"', body)
    assert len(pictures) == sum(len(phase.shots) for phase in told.phases)
    for src in pictures:
        assert src.startswith(f"/how/{game}/{lang}/") and "?v=" in src
        status, kind, png = fetch(t, src)
        assert status == 200 and kind == "image/png" and png.startswith(b"\x89PNG")


def fetch(t: Table, path: str) -> tuple[int, str, bytes]:
    """A GET of bytes (``Table.get`` reads text): status, type and body."""
    async def get():
        async with aiohttp.ClientSession() as session, session.get(t.web_url() + path.lstrip("/")) as r:
            return r.status, r.content_type, await r.read()
    return t.loop.run_until_complete(get())


def test_how_to_play_lists_the_games_and_an_unknown_game_is_not_found(table):
    status, _h, body = table.get("/how/")
    assert status == 200 and all(f'href="/how/{game}"' in body for game in guide.games())
    assert table.get("/how/chess")[0] == 404
    assert fetch(table, "/how/osmisifry/en/nothing.png")[0] == 404
    assert table.get("/HOW/OSMISIFRY/NOPHASE")[0] == 404


def test_the_score_log_and_the_game_pages_link_how_to_play_and_the_table_view_names_it_between_games(table):
    assert 'href="/how/"' in table.get("/")[2]
    between = table.get("/table")[2]
    assert "then /how/" in text_of(between) and "<a " not in between   # text on a TV: nothing to press
    table.start("osmisifry", players=2)
    [entry] = table.log()
    assert 'href="/how/osmisifry"' in table.get(f"/g/{entry['id']}")[2]
    assert "/how/" not in table.get("/table")[2]          # in a game, the game


def read_qr(t: Table) -> str:
    [code] = zxingcpp.read_barcodes(t.image("main").convert("L"))   # the panel's pixels, as a phone's camera
    return code.text


def test_the_setup_helps_last_page_is_a_qr_code_to_the_games_how_to_play(table):
    table.press("2")             # Osmišifry's setup
    table.press("C")
    for _ in range(40):
        if table.box.shown["main"].qr:
            break
        table.press("D")
    assert "[Rules]" in table.screen() and "Scan to see how to play" in " ".join(table.screen().split())
    url = read_qr(table)
    assert url == "HTTP://127.0.0.1:8080/HOW/OSMISIFRY/SETUP"
    status, headers, _ = table.get(path_of(url))
    assert status == 302 and headers["Location"] == "/how/osmisifry#setup"


def test_decryptos_help_in_play_points_at_the_phase_on_screen(table):
    table.start("decrypto")
    table.press("C")
    table.press("C")             # from the first page back round to the last
    assert path_of(read_qr(table)) == "/HOW/DECRYPTO/CLUES"
    assert table.get("/HOW/DECRYPTO/CLUES")[1]["Location"] == "/how/decrypto#clues"


@pytest.mark.parametrize("lang", i18n.LANGS)
@pytest.mark.parametrize("game", guide.games())
def test_the_how_to_play_screens_kept_are_those_the_box_draws_today(game, lang, tmp_path):
    """``make how`` draws them again: run it when this fails."""
    drawn = how.pictures(game, lang)
    told = guide.of(game)
    assert set(drawn) == {shot.name for phase in told.phases for shot in phase.shots}
    kept = {name: how.path(how.kept(), game, lang, name) for name in drawn}
    for name, image in drawn.items():
        with Image.open(kept[name]) as png:
            assert png.size == image.size
            assert ImageChops.difference(png.convert("1"), image.convert("1")).getbbox() is None, \
                f"{kept[name]} is out of date: make how"


def test_the_private_screens_shown_are_said_to_be_an_example(table):
    for game in guide.games():
        told = guide.of(game)
        privately = any(shot.screen != "main" for phase in told.phases for shot in phase.shots)
        body = table.get(f"/how/{game}")[2]
        assert "made-up example game" in body
        if privately and told.private:
            assert "only that team sees it" in text_of(body)


@pytest.fixture
def t():
    with Table(seed=7, lang="en") as table:
        yield table


@pytest.fixture
def phone(t, browser):  # noqa: F811
    browser.table = t
    yield browser
    errors = browser.errors
    browser.end_test()
    assert not errors


@pytest.mark.parametrize("lang", LANGS)
def test_how_to_play_reads_at_320_px_without_sideways_scroll_or_a_broken_word(t, phone, lang):  # noqa: F811
    t.type("8" + LANGS[lang] + "*")          # Settings: the box's language
    found = {}
    page = phone.open("/how/", width=320)
    for game in guide.games():
        phone.call(page.goto(t.web_url() + f"how/{game}"))
        assert phone.call(page.evaluate("document.documentElement.lang")) == lang
        scroll = phone.call(page.evaluate("document.documentElement.scrollWidth"))
        broken = phone.call(page.evaluate(BROKEN))
        pictures = phone.call(page.evaluate("[...document.images].every(i => i.complete && i.naturalWidth === 128)"))
        if scroll > 320 or broken or not pictures:
            found[game] = (scroll, broken, pictures)
    i18n.use("en")
    assert found == {}


@pytest.mark.parametrize("width", (320, 1280))
def test_how_to_play_in_chromium_is_axe_clean(t, phone, axe, width):  # noqa: F811
    found = {}
    page = phone.open("/how/", width=width)
    for game in guide.games():
        phone.call(page.goto(t.web_url() + f"how/{game}"))
        assert phone.call(page.evaluate("document.documentElement.scrollWidth")) <= width
        found[game] = serious_findings(phone, page, axe)
        phone.shot(page, f"how-{game}-{width}")
    assert found == {game: [] for game in guide.games()}


@pytest.mark.parametrize(("public", "path", "page"), [
    ("http://referee.local:8080", "/HOW/OSMISIFRY/SETUP", "/how/osmisifry#setup"),
    ("https://games.example-club.org.uk/referee-box", "/REFEREE-BOX/HOW/OSMISIFRY", "/how/osmisifry")])
def test_a_long_public_address_leaves_the_phase_out_of_the_helps_qr_code(public, path, page):
    with Table(seed=7, config={"web": {"public_url": public}}) as t:
        t.press("2")
        t.press("C")
        for _ in range(40):
            if t.box.shown["main"].qr:
                break
            t.press("D")
        assert path_of(read_qr(t)) == path
        assert t.get(path.removeprefix("/REFEREE-BOX"))[1]["Location"] == page   # here the web is at the root
