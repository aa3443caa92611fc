"""The score log in a real browser at phone size: Debian's chromium, driven
by Playwright from a thread of its own while the test runs the virtual
table's loop, so the web app answers while the browser waits and nothing
waits on a clock.  Screenshots of the pages, for a person to look over, go
where ``PHONE_SHOTS`` names when it is set (a picture costs the browser more
than the checks on its page, so a run takes none unless asked).
"""
from __future__ import annotations

import asyncio
import csv
import dataclasses
import os
import io
import json
import pathlib
import subprocess
import threading
import time
import urllib.parse

import pytest
import zxingcpp
from playwright.async_api import async_playwright

from games import davinci, decipher, decrypto
from referee import catalogue, setup_names, team_links
from referee.web import decrypto as web_decrypto
from test_web import SCRIPT, Done, act, decrypto_clues, decrypto_game, decrypto_guesses, state, t  # noqa: F401


def done(t, team):
    """A team's clues are written: two short presses of its button [DE-4]."""
    t.press(team)
    t.press(team)

pytestmark = pytest.mark.browser

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
PHONE = {"width": 360, "height": 740}
ROOT = pathlib.Path(__file__).resolve().parent.parent
SHOTS = os.environ.get("PHONE_SHOTS", "")   # where pictures go, when asked for
AXE = ROOT / "build/npm/node_modules/axe-core/axe.min.js"   # the Makefile's $(AXE)


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

    def open(self, path: str, dark: bool = False, javascript: bool = True, refuse_live: int = 0,
             width: int = PHONE["width"]):
        """A phone ``width`` px wide opening ``path``; the first
        ``refuse_live`` live streams it asks for are answered 503, as a
        crowded web page would."""
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
                viewport={**PHONE, "width": width}, device_scale_factor=2, is_mobile=True, has_touch=True,
                java_script_enabled=javascript, color_scheme="dark" if dark else "light")
            page = await context.new_page()
            if refuse_live:
                await page.route("**/live", refuse)
            page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
            page.on("pageerror", lambda e: self.errors.append(str(e)))
            await page.goto(url)
            return page
        return self.call(go())

    def shot(self, page, name: str, full_page: bool = True) -> None:
        if SHOTS:
            self.call(page.screenshot(path=os.path.join(SHOTS, f"{name}.png"), full_page=full_page))

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


def test_tonight_on_a_phone_follows_a_key_press_without_a_reload(t, phone):  # noqa: F811
    """The page takes the change from its live stream and swaps it in: the
    same page, never loaded again.  How soon, with fifty phones on it, is
    bench/live_bench.py's row (key → page shows it); the wait here is only
    a bound on a machine however slow."""
    decrypto_game(t)
    t.box.leave()
    t.start("decipher", players=["Ann", "Bob", "Cy"])
    page = phone.open("/")
    phone.call(page.wait_for_selector(".live:not([hidden])", timeout=5000))   # the stream is open
    assert "Ann\n0\nBob\n0" in phone.text(page)
    phone.call(page.evaluate("window.before = true"))   # gone if the page were loaded again
    phone.shot(page, "tonight")
    SCRIPT.append(decipher.Guess(1, True))
    t.press("#")                                   # Bob has the word: round 1 is scored
    bob = t.log()[0]["totals"]["Bob"]
    phone.call(page.wait_for_function(
        "text => document.querySelector('main').innerText.includes(text)", arg=f"Bob\n{bob}", timeout=10000),
        seconds=12)
    assert "Round 1 of 3: scored" in phone.text(page)
    assert phone.call(page.evaluate("window.before === true"))
    phone.shot(page, "tonight-after-key")


def test_a_page_whose_stream_was_refused_tries_again_and_follows_the_table(t, phone):  # noqa: F811
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
        "text => document.querySelector('main').innerText.includes(text)", arg=f"Bob\n{bob}", timeout=9000))


def test_the_game_page_on_a_phone_light_and_dark(t, phone):  # noqa: F811
    decrypto_game(t)
    game = t.box.session.id
    backgrounds = []
    for dark in (False, True):
        page = phone.open(f"/g/{game}", dark=dark)
        assert "White wins" in phone.text(page)
        assert phone.call(page.locator("svg.chart polyline").count()) == 4   # tokens: two kinds a team
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
    monkeypatch.setattr(web_decrypto, "team_form", Done())
    monkeypatch.setitem(catalogue.GAMES, "decrypto", dataclasses.replace(catalogue.get("decrypto"),
                                                                   phone_events=frozenset({"CluesDone"})))
    t.start("decrypto")
    decrypto_clues(t)
    decrypto_guesses(t)
    path = path_of(team_links.team_url(t.box, 0))
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
    monkeypatch.setattr(web_decrypto, "team_form", Done())
    monkeypatch.setitem(catalogue.GAMES, "decrypto", dataclasses.replace(catalogue.get("decrypto"),
                                                                   phone_events=frozenset({"CluesDone"})))
    t.start("decrypto")
    url = t.web_url().rstrip("/") + path_of(team_links.team_url(t.box, 0))
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
    white = phone.open(path_of(team_links.team_url(t.box, 0)))
    black = phone.open(path_of(team_links.team_url(t.box, 1)))
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
    done(t, "team1")
    done(t, "team2")                               # both done: White's code is guessed, its clues read out
    phone.call(black.wait_for_function(
        "text => document.querySelector('main').innerText.includes(text)",
        arg="White clues: Mexico, insect, fear", timeout=9000))
    # the page came again under Black's encryptor's thumbs: what was typed stays
    assert phone.call(black.input_value('input[name="clue1"]')) == "Pra"
    assert phone.call(black.evaluate("document.activeElement.name")) == "clue1"
    phone.shot(black, "team-clues-read")


# --- issue 17: names typed on a phone at setup -----------------------------------------------------

@pytest.fixture(scope="module")
def axe() -> pathlib.Path:
    """axe-core from the npm registry, fetched into the project as ``make
    test`` does when it is missing."""
    if not AXE.exists():
        subprocess.run(["make", "--no-print-directory", str(AXE.relative_to(ROOT))], cwd=ROOT, check=True)
    return AXE


def serious_findings(phone, page, axe_js: pathlib.Path) -> list[str]:
    """What axe-core finds serious or critical on ``page``, one line each."""
    # Evaluated by the browser's own protocol, not as a page script: the
    # pages' Content-Security-Policy stays as strict as phones get it.
    phone.call(page.evaluate("source => { (0, eval)(source); }", axe_js.read_text()))
    found = phone.call(page.evaluate("async () => (await axe.run()).violations"), seconds=30)
    return [f"{v['id']}: {v['help']} ({len(v['nodes'])})" for v in found if v["impact"] in ("serious", "critical")]


def serious_light_and_dark(phone, page, axe_js: pathlib.Path) -> dict[str, list[str]]:
    """``serious_findings`` on ``page`` in the light colour scheme, then in
    the dark, the one page switched between them: the dark scheme changes
    the pages' colours alone, never their layout, so what a check measures
    of the layout holds in both and is measured once."""
    found, backgrounds = {}, set()
    for scheme in ("light", "dark"):
        phone.call(page.emulate_media(color_scheme=scheme))
        backgrounds.add(phone.call(page.evaluate("getComputedStyle(document.body).backgroundColor")))
        found[scheme] = serious_findings(phone, page, axe_js)
    assert len(backgrounds) == 2, "the page did not change its colours with the scheme"
    return found


NOTHING_SERIOUS = {"light": [], "dark": []}


def test_the_table_names_its_seats_on_a_phone_from_the_setups_qr_code(table, at_the_table, axe):
    t, phone = table, at_the_table
    t.start("osmisifry", players=["Žofie", "Bob"])    # an earlier game tonight: the page offers its names
    t.box.leave()
    t.press("4")                                      # Da Vinci Code's setup form
    t.press("B")
    [qr] = zxingcpp.read_barcodes(t.image("main").convert("L"))   # the box's own screen, as a phone sees it
    page = phone.open(path_of(qr.text))
    assert phone.call(page.evaluate("document.documentElement.scrollWidth")) <= PHONE["width"]
    assert serious_findings(phone, page, axe) == []

    async def fill():
        await page.fill("#n1", "Игорь")
        await page.fill("#n2", "Žofie")
        await page.fill("#n3", "Łucja & Ola")
        async with page.expect_navigation():
            await page.press("#n3", "Enter")           # Enter saves; it moves nobody

    async def up():
        async with page.expect_navigation():
            await page.click('button[name="up"][value="n3"]')   # Łucja to seat 2
        assert await page.input_value("#n2") == "Łucja & Ola"

    phone.call(fill())
    assert t.screen("team1").splitlines() == ["[Players]", "1 Игорь", "2 Žofie", "3 Łucja & Ola"]
    phone.call(up())
    phone.shot(page, "names")
    assert t.screen("team1").splitlines() == ["[Players]", "1 Игорь", "2 Łucja & Ola", "3 Žofie"]
    dark = phone.open(path_of(qr.text), dark=True)
    assert phone.call(dark.input_value("#n1")) == "Игорь"
    assert serious_findings(phone, dark, axe) == []
    phone.shot(dark, "names-dark")
    t.type("*" "#" "#")                               # back from the QR code, start, tiles taken
    assert phone.call(page.reload()).status == 404    # the game started: the address is dead
    phone.errors.remove("Failed to load resource: the server responded with a status of 404 (Not Found)")
    for target in (1, 1, 1, 1, 2, 2, 2, 2):           # Игорь turns up both other rows
        assert t.box.act(davinci.Attack(target, True))
    assert t.log()[0]["winners"] == ["Игорь"]
    game = t.box.session.id
    log = phone.open("/")
    assert "Łucja & Ola" in phone.text(log)
    sheet = phone.open(f"/g/{game}")
    link = phone.call(sheet.get_attribute('a[href^="https://app.bgstatsapp.com/"]', "href"))
    play = json.loads(urllib.parse.unquote(link.split("data=", 1)[1]))
    assert [(p["name"], p["startPlayer"], p["winner"]) for p in play["players"]] == [
        ("Игорь", True, True), ("Łucja & Ola", False, False), ("Žofie", False, False)]
    assert serious_findings(phone, sheet, axe) == []
    body = t.get(f"/api/g/{game}.csv")[2]
    assert next(csv.reader(io.StringIO(body.lstrip("\ufeff")), delimiter=";"))[1:4] == ["Игорь", "Łucja & Ola", "Žofie"]


SEATS = """() => [...document.querySelectorAll('.seats li')].map(li => {
  const field = li.querySelector('input').getBoundingClientRect();
  const swap = li.querySelector('button[name=swap]').getBoundingClientRect();
  return [Math.round(field.left), Math.round(field.width), swap.top >= field.bottom, Math.round(swap.left)];
})"""


def test_the_names_page_lays_every_seat_out_alike_at_390_px(table, at_the_table):
    t, phone = table, at_the_table
    t.press("1")                                      # Decrypto's setup form
    t.press("B")
    [qr] = zxingcpp.read_barcodes(t.image("main").convert("L"))
    page = phone.open(path_of(qr.text), width=390)
    seats = phone.call(page.evaluate(SEATS))
    # Seat 1, with no ↑, has its field and its "To Black" where seats 2-4 have theirs.
    assert len(seats) == 8 and all(seat == seats[0] for seat in seats) and seats[0][2] is True
    assert phone.call(page.evaluate("document.documentElement.scrollWidth")) <= 390
    phone.shot(page, "names-teams-390")


def on_the_box(t, phone, text: str, before, name: str = "main", seconds: float = 5.0):
    """Let the table play on (its loop, and its clock a preview gap at a
    time) until ``text`` is on the screen ``name``, whose picture was
    ``before`` (bytes); its picture then."""
    end = time.monotonic() + seconds
    while text not in t.screen(name):
        assert time.monotonic() < end, f"{text!r} never reached the box's {name} screen: {t.screen(name)}"
        phone.call(asyncio.sleep(0.05))              # the browser waits; the table's loop runs
        t.advance(setup_names.PREVIEW_GAP)
    assert t.image(name).tobytes() != before            # drawn on the panel, not only in the mirror
    return t.image(name)


def test_names_reach_the_box_while_typed_before_they_are_saved(table, at_the_table):
    t, phone = table, at_the_table
    t.press("4")                                      # Da Vinci Code's setup form
    t.press("B")
    [qr] = zxingcpp.read_barcodes(t.image("main").convert("L"))
    page = phone.open(path_of(qr.text))
    before = t.image("main").tobytes()
    phone.call(page.fill("#n1", "Игорь"))             # typed, not saved
    on_the_box(t, phone, "Игорь", before)
    assert t.screen("team1").splitlines() == ["[Players: typing…]", "1 Игорь"]
    phone.call(page.fill("#n2", "Li 中"))             # a letter the panels cannot draw
    phone.call(page.wait_for_selector("#n2-why:not([hidden])", timeout=5000))
    assert phone.call(page.inner_text("#n2-why")) == "The screens cannot show 中 in Li 中."
    assert phone.call(page.get_attribute("#n2", "aria-invalid")) == "true"
    assert "中" not in t.screen("main") + t.screen("team1") and "error" not in t.sounds
    phone.shot(page, "names-typing")
    before = t.image("team1").tobytes()
    phone.call(page.fill("#n2", "Žofie"))
    on_the_box(t, phone, "2 Žofie", before, "team1")
    phone.call(page.wait_for_selector("#n2-why", state="hidden", timeout=5000))   # the page has the answer too
    assert phone.call(page.get_attribute("#n2", "aria-invalid")) is None
    assert t.box.flow.names == []                     # nothing saved yet
    assert phone.call(page.evaluate("document.documentElement.scrollWidth")) <= PHONE["width"]

    async def save():
        async with page.expect_navigation():
            await page.press("#n2", "Enter")
    phone.call(save())
    assert t.screen("team1").splitlines() == ["[Players]", "1 Игорь", "2 Žofie"]
    assert t.box.flow.names == ["Игорь", "Žofie"]
    # Without JavaScript nothing is shown until saved, and saving still works.
    plain = phone.open(path_of(qr.text), javascript=False)
    phone.call(plain.fill("#n3", "Łucja"))

    async def save_plain():
        async with plain.expect_navigation():
            await plain.press("#n3", "Enter")
    phone.call(save_plain())
    assert t.screen("team1").splitlines() == ["[Players]", "1 Игорь", "2 Žofie", "3 Łucja"]


# --- issue 17: the score log read at a glance --------------------------------------------------------

GLANCE = """() => {
  const rgb = c => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = c => { const [r, g, b] = rgb(c).map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; });
                     return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const winner = document.querySelector(".sheet tfoot .winner");
  const [a, b] = [lum(getComputedStyle(winner).color), lum(getComputedStyle(document.body).backgroundColor)];
  const broken = [];
  for (const cell of document.querySelectorAll(".notes td, .notes th")) {
    const text = cell.firstChild && cell.firstChild.nodeType === 3 ? cell.firstChild : null;
    if (!text) continue;
    for (const m of text.data.matchAll(/\\S+/g)) {
      const range = document.createRange();
      range.setStart(text, m.index);
      range.setEnd(text, m.index + m[0].length);
      if (range.getClientRects().length > 1) broken.push(m[0]);
    }
  }
  return {
    contrast: (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05),
    emptyHeads: [...document.querySelectorAll("th")].filter(th => !th.textContent.trim()).length,
    footerLinks: [...document.querySelectorAll("footer a")].map(a => Math.round(a.getBoundingClientRect().height)),
    broken: broken,
    width: document.documentElement.scrollWidth,
  };
}"""


def test_the_decrypto_game_page_reads_at_a_glance_at_360_px_light_and_dark(t, phone, axe):  # noqa: F811
    t.start("decrypto")
    for clues in (("pudding", "lighthouse", "extraordinary"), ("marshmallow", "underground", "whirlpool")):
        act(t, decrypto.Clues(0, clues), decrypto.Clues(1, clues[::-1]))
        decrypto_clues(t)
        decrypto_guesses(t, miscommunicate={1})
    game = t.box.session.id
    for dark in (False, True):
        page = phone.open(f"/g/{game}", dark=dark)
        seen = phone.call(page.evaluate(GLANCE))
        assert seen["contrast"] >= 4.5, seen            # the winner's total, WCAG AA
        assert seen["emptyHeads"] == 0
        assert seen["footerLinks"] and min(seen["footerLinks"]) >= 44
        assert seen["broken"] == []                      # no "puddin/g"
        assert seen["width"] <= PHONE["width"]
        assert "Σ: held after the round." in phone.text(page)    # Decrypto counts tokens (25.2)
        assert serious_findings(phone, page, axe) == []
        phone.shot(page, "glance-dark" if dark else "glance")


REPLAY_WIDTH = 320   # the narrowest phone the pages are made for


def test_the_replay_steps_by_arrow_keys_and_reads_at_320_px_light_and_dark(t, phone, axe):  # noqa: F811
    t.start("decrypto")
    decrypto_clues(t)
    t.hold("*", 1.0)                      # the game menu: Black's "done" taken back
    t.press("#")
    act(t, decrypto.CluesDone(1))
    decrypto_guesses(t, miscommunicate={1})
    decrypto_clues(t)
    decrypto_guesses(t, miscommunicate={1})
    game = t.box.session.id
    t.box.leave()
    steps = json.loads(t.get(f"/api/g/{game}/steps.json")[2])["steps"]
    undone = next(n for n, s in enumerate(steps) if s["taken_back"])
    # The arrow keys follow the page's links: forward, back, the end, the start.
    page = phone.open(f"/g/{game}/step/2", width=REPLAY_WIDTH)
    for key, step in (("ArrowRight", 3), ("ArrowLeft", 2), ("End", len(steps) - 1), ("Home", 0)):
        phone.call(page.keyboard.press(key))
        phone.call(page.wait_for_url(f"**/g/{game}/step/{step}"))
    # Light as the table saw it, dark with what the box kept hidden (one axe run each).
    for dark, query in ((False, ""), (True, "?reveal=1")):
        page = phone.open(f"/g/{game}/step/{undone}{query}", dark=dark, width=REPLAY_WIDTH)
        assert phone.call(page.evaluate("document.documentElement.scrollWidth")) <= REPLAY_WIDTH
        # The action taken back is there, folded until asked for.
        assert phone.call(page.evaluate("document.querySelector('details.tried').open")) is False
        assert "Black: clues done" not in phone.call(page.inner_text("details.tried"))
        phone.call(page.click("details.tried summary"))
        assert "Black: clues done" in phone.call(page.inner_text("details.tried"))
        assert serious_findings(phone, page, axe) == []
        phone.shot(page, f"replay{'-hidden-dark' if dark else ''}")
