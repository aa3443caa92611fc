"""The score log in a real browser at phone size: Debian's chromium, driven
by Playwright from a thread of its own while the test runs the virtual
table's loop, so the web app answers while the browser waits and nothing
waits on a clock.  Screenshots go to ``test-artifacts/``.
"""
from __future__ import annotations

import asyncio
import pathlib
import threading
import time
import urllib.parse

import pytest
from playwright.async_api import async_playwright

from games import decipher
from referee import channel, web
from referee.web import teams
from test_web import SCRIPT, Done, decrypto_clues, decrypto_game, decrypto_guesses, state, t  # noqa: F401

pytestmark = pytest.mark.browser

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
PHONE = {"width": 360, "height": 740}
ARTIFACTS = pathlib.Path(__file__).resolve().parent.parent / "test-artifacts"


class Browser:
    """Chromium in a thread of its own, on a loop of its own.  The test's
    thread meanwhile runs the table's loop until the browser is done, so the
    box serves whatever the browser asks for; nothing polls, nothing sleeps."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name="chromium", daemon=True)
        self.thread.start()
        self.table = None
        self.errors: list[str] = []
        self.call(self._launch())

    async def _launch(self) -> None:
        self.playwright = await async_playwright().start()
        self.chromium = await self.playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)

    def call(self, coro, seconds: float = 10.0):
        """Run ``coro`` on the browser's loop and wait for it on the table's."""
        done = asyncio.run_coroutine_threadsafe(coro, self.loop)
        if self.table is None:
            return done.result(seconds)
        async def meanwhile():
            return await asyncio.wait_for(asyncio.wrap_future(done), seconds)
        return self.table.loop.run_until_complete(meanwhile())

    def open(self, path: str, dark: bool = False, javascript: bool = True, refuse_live: int = 0):
        """A phone opening ``path``; the first ``refuse_live`` live streams
        it asks for are answered 503, as a crowded web page would."""
        url = self.table.web_url() + path.lstrip("/")
        self.refused = 0

        async def refuse(route):
            if self.refused < refuse_live:
                self.refused += 1
                await route.fulfill(status=503, body="busy")
            else:
                await route.continue_()

        async def go():
            context = await self.chromium.new_context(
                viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True,
                java_script_enabled=javascript, color_scheme="dark" if dark else "light")
            page = await context.new_page()
            if refuse_live:
                await page.route("**/live", refuse)
            page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
            page.on("pageerror", lambda e: self.errors.append(str(e)))
            await page.goto(url)
            return page
        return self.call(go())

    def shot(self, page, name: str) -> None:
        ARTIFACTS.mkdir(exist_ok=True)
        self.call(page.screenshot(path=str(ARTIFACTS / f"web-{name}.png"), full_page=True))

    def text(self, page) -> str:
        return self.call(page.inner_text("main"))

    async def _end(self) -> None:
        for context in self.chromium.contexts:
            await context.close()

    def end_test(self) -> None:
        self.call(self._end())
        self.table = None
        self.errors = []

    def close(self) -> None:
        async def stop():
            await self.chromium.close()
            await self.playwright.stop()
        self.call(stop())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        self.loop.close()


@pytest.fixture(scope="module")
def browser():
    b = Browser()
    yield b
    b.close()


@pytest.fixture
def phone(t, browser):  # noqa: F811
    browser.table = t
    yield browser
    errors = browser.errors
    browser.end_test()
    assert not errors   # no script error, no refused resource, no CSP report


def path_of(url: str) -> str:
    return urllib.parse.urlsplit(url).path


def test_tonight_on_a_phone_follows_a_key_press_within_a_second(t, phone):  # noqa: F811
    decrypto_game(t)
    t.box.leave()
    t.start("decipher", players=["Ann", "Bob", "Cy"])
    page = phone.open("/")
    phone.call(page.wait_for_selector(".live:not([hidden])", timeout=5000))   # the stream is open
    assert "Ann\n0\nBob\n0" in phone.text(page)
    phone.shot(page, "tonight")
    SCRIPT.append(decipher.Guess(1, True))
    pressed = time.monotonic()
    t.press("#")                                   # Bob has the word: round 1 is scored
    bob = t.log()[0]["totals"]["Bob"]
    phone.call(page.wait_for_function(
        "text => document.querySelector('main').innerText.includes(text)", arg=f"Bob\n{bob}", timeout=1000))
    assert time.monotonic() - pressed < 1.0
    assert "Round 1 of 3 scored" in phone.text(page)
    phone.shot(page, "tonight-after-key")


def test_16_a_page_whose_stream_was_refused_tries_again_and_follows_the_table(t, phone):  # noqa: F811
    t.start("decipher", players=["Ann", "Bob"])
    page = phone.open("/", refuse_live=2)
    # Refused twice (after about 1 s, then 2 s), then the stream opens.
    phone.call(page.wait_for_selector(".live:not([hidden])", timeout=8000), seconds=10)
    assert phone.refused == 2
    phone.errors = [e for e in phone.errors if "503" not in e]   # the browser reports each refusal
    SCRIPT.append(decipher.Guess(1, True))
    t.press("#")
    bob = t.log()[0]["totals"]["Bob"]
    phone.call(page.wait_for_function(
        "text => document.querySelector('main').innerText.includes(text)", arg=f"Bob\n{bob}", timeout=2000))


def test_the_game_page_on_a_phone_light_and_dark(t, phone):  # noqa: F811
    decrypto_game(t)
    game = t.box.session.id
    backgrounds = []
    for dark in (False, True):
        page = phone.open(f"/g/{game}", dark=dark)
        assert "White wins" in phone.text(page)
        assert phone.call(page.locator("svg.chart polyline").count()) == 2
        width = phone.call(page.evaluate("document.documentElement.scrollWidth"))
        assert width <= PHONE["width"]              # nothing runs off a 360 px screen
        backgrounds.append(phone.call(page.evaluate("getComputedStyle(document.body).backgroundColor")))
        phone.shot(page, "game-dark" if dark else "game")
    assert backgrounds[0] != backgrounds[1]


def test_pages_read_without_javascript(t, phone):  # noqa: F811
    decrypto_game(t)
    t.box.leave()
    t.start("decipher", players=["Ann", "Bob"])
    page = phone.open("/", javascript=False)
    text = phone.call(page.inner_text("body"))
    assert "Decipher" in text and "Decrypto" in text and "Refresh" in text
    assert phone.call(page.locator(".live").is_hidden())
    phone.shot(page, "tonight-nojs")


def test_a_team_page_on_a_phone_shows_its_keywords_and_takes_its_own_form(t, phone, monkeypatch):  # noqa: F811
    monkeypatch.setitem(teams.ACTIONS, "decrypto", Done())
    monkeypatch.setitem(channel.PHONE_EVENTS, "decrypto", frozenset({"CluesDone"}))
    t.start("decrypto")
    decrypto_clues(t)
    decrypto_guesses(t)
    path = path_of(web.team_url(t.box, 0))
    page = phone.open(path)
    text = phone.text(page)
    for word in state(t).keywords[0]:
        assert word.upper() in text                # in capitals, like the cards
    phone.shot(page, "team")
    # a form on the page, as a game's team template will have it, sent by the browser itself
    secret = t.box.store.team_page(t.box.session.id, 0).csrf

    async def send():
        async with page.expect_navigation() as landed:
            await page.evaluate("""secret => {
                const form = document.createElement("form");
                form.method = "post";
                form.innerHTML = '<input type="hidden" name="csrf"><input type="hidden" name="do" value="done">';
                form.elements.csrf.value = secret;
                document.body.append(form);
                form.submit();
            }""", secret)
        return await landed.value

    answer = phone.call(send())
    assert answer.status == 200 and answer.request.redirected_from.method == "POST"
    assert state(t).clues_done == (True, False)


def test_a_form_on_another_site_cannot_post_to_a_team_page(t, phone, monkeypatch):  # noqa: F811
    monkeypatch.setitem(teams.ACTIONS, "decrypto", Done())
    monkeypatch.setitem(channel.PHONE_EVENTS, "decrypto", frozenset({"CluesDone"}))
    t.start("decrypto")
    url = t.web_url().rstrip("/") + path_of(web.team_url(t.box, 0))
    phone.open(path_of(url))                        # the team's cookie is in this browser
    secret = t.box.store.team_page(t.box.session.id, 0).csrf
    # Some other page, even one that knew the address and the form secret.
    other = phone.call(phone.chromium.contexts[0].new_page())
    phone.call(other.set_content(f"""<form method="post" action="{url}">
        <input type="hidden" name="csrf" value="{secret}"><input type="hidden" name="do" value="done">
        <button>Win a prize</button></form>"""))
    phone.call(other.click("button"))
    phone.call(other.wait_for_url(url))
    assert phone.call(other.title()).startswith("Forbidden")
    assert state(t).clues_done == (False, False)
    phone.errors.clear()   # the browser reports the 403 on its console: that is the point


@pytest.fixture
def at_the_table(table, browser):
    """The browser beside a table playing with its real key flows."""
    browser.table = table
    yield browser
    errors = browser.errors
    browser.end_test()
    assert not errors


def test_DE5_clues_typed_on_a_phone_reach_the_other_team_once_read_out(table, at_the_table):
    t, phone = table, at_the_table
    t.start("decrypto")
    white = phone.open(path_of(web.team_url(t.box, 0)))
    black = phone.open(path_of(web.team_url(t.box, 1)))
    phone.call(black.wait_for_selector(".live:not([hidden])", timeout=5000))
    clues = ("Mexico", "insect", "fear")

    async def type_clues():
        for n, clue in enumerate(clues, 1):
            await white.fill(f'input[name="clue{n}"]', clue)
        async with white.expect_navigation():
            await white.click("form.clues button")

    phone.call(type_clues())                       # White's encryptor, at phone size
    assert t.box.session.state.clues[0] == clues
    assert phone.call(white.input_value('input[name="clue1"]')) == "Mexico"
    assert phone.call(white.evaluate("document.documentElement.scrollWidth")) <= PHONE["width"]
    phone.shot(white, "team-clues")
    assert "Mexico" not in phone.text(black)
    phone.call(black.fill('input[name="clue1"]', "Pra"))   # Black's encryptor is still typing
    t.press("team1")
    t.press("team2")                               # both done: White's code is guessed, its clues read out
    phone.call(black.wait_for_function(
        "text => document.querySelector('main').innerText.includes(text)",
        arg="White clues: Mexico, insect, fear", timeout=2000))
    # the page came again under Black's encryptor's thumbs: what was typed stays
    assert phone.call(black.input_value('input[name="clue1"]')) == "Pra"
    assert phone.call(black.evaluate("document.activeElement.name")) == "clue1"
    phone.shot(black, "team-clues-read")
