"""Issue 38, items 2 and 3: the table view (``/table``) in Chromium at
1920 × 1080, against a real ``referee run`` and a real ``referee web``
(``test_web_split.Table``: keys through the box's control socket), one pair
for the module: it follows a key, keeps the box's countdown across a pause
and an undo (the page's own clock held by Playwright, so its countdown
moves only when told), comes back after the web restarts, and is axe-clean
in light and dark, in the four languages.  Screenshots go where
``PHONE_SHOTS`` names, when it is set."""
from __future__ import annotations

import json
import re

import pytest

from games import davinci
from processes import until
from test_web import act
from test_web_browser import at_the_table, axe, browser, serious_findings  # noqa: F401
from test_web_split import Table

pytestmark = pytest.mark.browser

SCREEN = {"width": 1920, "height": 1080}


@pytest.fixture(scope="module")
def room(tmp_path_factory):
    """The box and the web, for the module's tests."""
    t = Table(tmp_path_factory.mktemp("table-view"))
    yield t
    t.close()


@pytest.fixture
def box(room, browser):  # noqa: F811
    """The box on its main menu, whatever the last test left on it; the
    browser's pages closed after the test, with no script error."""
    to_the_menu(room)
    yield room
    errors = browser.errors
    browser.end_test()
    assert not errors


def state(t: Table) -> dict:
    return json.loads(t.ask("state"))


def hold_star(t: Table) -> None:
    """Hold * until the game menu is up, as a hand would."""
    assert t.ask("down *") == "ok"
    until(lambda: state(t)["overlay"], 10, "the game menu")
    assert t.ask("up *") == "ok"


def to_the_menu(t: Table) -> None:
    if state(t)["game"] is not None:
        hold_star(t)
        t.press("D", "#")          # End game, yes
    if state(t)["game"] is not None:
        t.press("#")               # a finished game's result: # to the menu
    assert state(t)["game"] is None and t.screen().startswith("[Tabletop Referee"), t.screen()


def open_view(browser, t, dark: bool = False, held: bool = False, streams: list | None = None):  # noqa: F811
    """A TV's browser on the table view of ``t`` (real processes, or the
    virtual table); ``held``: the page's clock stands until the test moves
    it (Playwright's clock); ``streams``: each stream the page opens is
    noted there."""
    url = t.url if isinstance(t, Table) else t.web_url()

    async def go():
        context = await browser.chromium.new_context(viewport=SCREEN, color_scheme="dark" if dark else "light")
        page = await context.new_page()
        page.on("console", lambda m: m.type == "error" and browser.errors.append(m.text))
        page.on("pageerror", lambda e: browser.errors.append(str(e)))
        if streams is not None:
            page.on("request", lambda r: r.url.endswith("/table/live") and streams.append(r.url))
        if held:
            await page.clock.install()
            await page.clock.pause_at(1_800_000_000_000)
        await page.goto(url + "table")
        return page
    return browser.call(go())


def shown(browser, page, selector: str = "main") -> str:  # noqa: F811
    return browser.call(page.inner_text(selector))


def showing(browser, page, text: str, selector: str = "main") -> None:  # noqa: F811
    """Wait (within 5 s) until ``selector`` shows ``text``."""
    browser.call(page.wait_for_function(
        "([selector, text]) => (document.querySelector(selector) || {}).innerText?.includes(text)",
        arg=[selector, text], timeout=5000))


def countdown(browser, page) -> str:  # noqa: F811
    return shown(browser, page, "#countdown")


def on_the_box(t: Table) -> str:
    return re.search(r"\d+:\d\d", t.screen()).group()


def level_with_the_box(browser, t: Table, page) -> bool:  # noqa: F811
    """The view's running countdown is the box's, to the second: read
    between two readings of the box, so that a slow machine between the
    reads does not count against the view."""
    before = seconds(on_the_box(t))
    shown_now = seconds(countdown(browser, page))
    after = seconds(on_the_box(t))
    return after - 1 <= shown_now <= before + 1


def seconds(text: str) -> int:
    minutes, secs = text.split(":")
    return int(minutes) * 60 + int(secs)


def shot(browser, page, name: str) -> None:  # noqa: F811
    browser.shot(page, f"table-{name}", full_page=False)


def test_the_view_follows_a_key_and_comes_back_after_the_web_restarts(box, browser):  # noqa: F811
    t = box
    page = open_view(browser, t)
    showing(browser, page, "Tonight")
    t.press("1", "#")                                   # Decrypto, as it comes
    showing(browser, page, "Round 1: encryptors")   # the box's page, as its title says it
    t.press("team1", "team1")                           # White's clues are done [DE-4]
    showing(browser, page, "» White: clues done", ".said")
    t.web.terminate()                                   # the web restarts (an update, a crash)
    t.web.wait(10)
    browser.call(page.wait_for_selector(".offline:not([hidden])", timeout=5000))
    t.press("team2", "team2")                           # the table plays on meanwhile
    t.start_web()
    showing(browser, page, "White decodes")             # the stream came back by itself
    # Its tries while the web was down, which the browser's console reports.
    browser.errors[:] = [e for e in browser.errors if "ERR_CONNECTION_REFUSED" not in e]
    browser.call(page.wait_for_selector(".offline", state="hidden", timeout=5000))
    assert "Black: clues done" in shown(browser, page, ".said")


def test_the_countdown_stands_while_the_box_is_down_and_follows_it_back(box, browser):  # noqa: F811
    t = box
    page = open_view(browser, t)
    t.press("1", "#")                                   # Decrypto
    t.press("team1", "team1")                           # Black has 30 seconds [DE-4]
    browser.call(page.wait_for_selector("#countdown[data-running=true]", timeout=5000))
    t.box.kill()                                        # the power goes: the game clock stops
    t.box.wait(10)
    browser.call(page.wait_for_selector("#countdown[data-running=false]", timeout=5000))
    t.box = t._spawn("run", "box.log")
    until(t._connect, what="the box's start")
    browser.call(page.wait_for_selector("#countdown[data-running=true]", timeout=10000))
    assert level_with_the_box(browser, t, page)
    assert "White: clues done" in shown(browser, page, ".said")


def test_the_countdown_keeps_the_boxs_time_across_a_pause_and_an_undo(box, browser):  # noqa: F811
    t = box
    page = open_view(browser, t, held=True)
    t.press("6")                                        # the table tools: a minute, not started
    showing(browser, page, "Table tools")
    assert countdown(browser, page) == on_the_box(t) == "1:00"
    t.press("#")                                        # go
    browser.call(page.wait_for_selector("#countdown[data-running=true]", timeout=5000))
    assert countdown(browser, page) in ("1:00", "0:59")
    browser.call(page.clock.run_for(10_500))            # ten seconds and a half on the page's clock alone
    assert countdown(browser, page) in ("0:50", "0:49")
    t.press("#")                                        # pause: the box's time, to the second
    browser.call(page.wait_for_selector("#countdown[data-running=false]", timeout=5000))
    assert countdown(browser, page) == on_the_box(t)
    paused = on_the_box(t)
    browser.call(page.clock.run_for(20_000))
    assert countdown(browser, page) == paused           # a paused countdown stands
    hold_star(t)
    t.press("#")                                        # take back the pause: it runs on from there
    assert "Undone." in t.screen()
    browser.call(page.wait_for_selector("#countdown[data-running=true]", timeout=5000))
    assert level_with_the_box(browser, t, page)
    browser.call(page.clock.run_for(5_000))
    assert seconds(paused) - 6 <= seconds(countdown(browser, page)) <= seconds(paused) - 4
    shot(browser, page, "countdown")


def test_the_view_is_axe_clean_light_and_dark_in_four_languages(box, browser, axe):  # noqa: F811
    t = box
    t.press("1", "#")                                   # Decrypto
    t.press("team1", "team1")                           # the clue countdown runs, a line of the last action
    for dark in (False, True):
        page = open_view(browser, t, dark=dark)
        showing(browser, page, "White: clues done")
        assert browser.call(page.evaluate("document.documentElement.scrollHeight")) <= SCREEN["height"]
        assert serious_findings(browser, page, axe) == []
        shot(browser, page, "decrypto-dark" if dark else "decrypto")
    to_the_menu(t)
    page = open_view(browser, t)
    for key, lang, tonight in (("2", "cs", "Dnešní večer"), ("3", "pl", None), ("4", "ru", None), ("1", "en", "Tonight")):
        t.press("8", key, "*")                          # Settings, a language, back to the menu
        browser.call(page.wait_for_function("lang => document.documentElement.lang === lang", arg=lang, timeout=5000))
        assert shown(browser, page) != "" and (tonight is None or tonight in shown(browser, page))
        if lang == "ru":    # the pages are one template: axe once more, in another alphabet
            assert serious_findings(browser, page, axe) == []
        shot(browser, page, f"tonight-{lang}")


def test_between_games_tonights_standings_fill_a_big_screen_light_and_dark(table, at_the_table, axe):  # noqa: F811
    """On the virtual table (names typed need a phone): a game's result with
    tonight's standings under it (light), then the standings alone (dark)."""
    t, browser = table, at_the_table  # noqa: F811
    for players in (["Ania", "Marek"], ["Žofie", "Ania"], ["Marek", "Игорь"]):
        t.start("davinci", players=players)
        act(t, davinci.Dealt(), *[davinci.Attack(1, True)] * 4)     # the first seat takes every tile
        if players[0] != "Marek":
            t.box.leave()
    page = open_view(browser, t)
    showing(browser, page, "Marek wins")
    assert "Ania\t2\t1" in shown(browser, page, ".ranking")          # two games, one won
    assert serious_findings(browser, page, axe) == []
    shot(browser, page, "result")
    t.box.leave()
    showing(browser, page, "Игорь")
    page = open_view(browser, t, dark=True)
    assert browser.call(page.evaluate("document.documentElement.scrollHeight")) <= SCREEN["height"]
    assert serious_findings(browser, page, axe) == []
    shot(browser, page, "tonight-dark")


def test_a_stream_fallen_silent_is_opened_again(table, at_the_table):  # noqa: F811
    """A Wi-Fi that drops without a word leaves the stream open and silent:
    after ``SILENT_SECONDS`` with not even the keepalive, the page opens
    another and follows the table again (the page's clock moved by hand)."""
    from referee.web.table import SILENT_SECONDS
    t, browser = table, at_the_table  # noqa: F811
    t.start("tools")
    streams: list = []
    page = open_view(browser, t, held=True, streams=streams)
    browser.call(page.wait_for_selector("#countdown[data-running=false]", timeout=5000))
    assert len(streams) == 1
    browser.call(page.clock.run_for((SILENT_SECONDS - 5) * 1000))
    assert len(streams) == 1                              # silent, but not for long enough yet
    browser.call(page.clock.run_for(10_000))
    until(lambda: len(streams) == 2, 5, "a new stream")
    t.press("#")                                          # the countdown goes: the new stream says so
    browser.call(page.wait_for_selector("#countdown[data-running=true]", timeout=5000))
    browser.call(page.wait_for_selector(".offline", state="hidden", timeout=5000))
