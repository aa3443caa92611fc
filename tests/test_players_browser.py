"""Issue 28 on a phone, at 360 px, light and dark, axe-clean, names shown
as text: the merge page scanned from the box's own screen and used with its
own controls, and the league's players' pages; issue 37's ladders (all-time
and a season's) and a player's rivals, on the box and in the league, each at
320 and 360 px, light and dark."""
from __future__ import annotations

import asyncio
import contextlib
import datetime as dt

import pytest
import zxingcpp

from test_merges import marek_wins_against
from test_web_browser import (NOTHING_SERIOUS, PHONE, at_the_table, axe, browser, path_of,  # noqa: F401
                              serious_findings, serious_light_and_dark)

pytestmark = pytest.mark.browser
WIDTHS = (320, PHONE["width"])


def on_both_phones(browser, axe, path: str, widths=WIDTHS):  # noqa: F811
    """``path`` on a 320 px phone, then the same page widened to 360 px:
    at each no wider than the screen and axe-clean, light and dark (one
    page, not four: the browser is shared by the module)."""
    page = browser.open(path, width=widths[0])
    for width in widths:
        if width != widths[0]:
            browser.call(page.set_viewport_size({**PHONE, "width": width}))
        assert browser.call(page.evaluate("document.documentElement.scrollWidth")) <= width, (path, width)
        assert serious_light_and_dark(browser, page, axe) == NOTHING_SERIOUS, (path, width)
    return page


def test_names_merged_on_a_phone_from_the_settings_qr_code(table, at_the_table, axe):  # noqa: F811
    t, phone = table, at_the_table
    marek_wins_against(t, ["<b>Bob</b>", "Ania", "Marek"])
    marek_wins_against(t, ["Ania K.", "<b>Bob</b>", "Marek"])
    t.type("8" "5")                                   # Settings, Merge names
    [qr] = zxingcpp.read_barcodes(t.image("main").convert("L"))
    path = path_of(qr.text)
    page = phone.open(path)
    assert phone.call(page.evaluate("document.documentElement.scrollWidth")) <= PHONE["width"]
    assert serious_light_and_dark(phone, page, axe) == NOTHING_SERIOUS
    assert "<b>Bob</b>" in phone.call(page.inner_text("#from"))   # as text, not markup
    phone.shot(page, "merge")

    async def merge():
        await page.select_option("#from", "ania k.")
        await page.select_option("#into", "ania")
        async with page.expect_navigation():
            await page.click('button[name="merge"]')

    phone.call(merge())
    assert [(m.from_key, m.into_key) for m in t.box.store.merges()] == [("ania k.", "ania")]
    assert "Ania K. → Ania" in phone.text(page)
    ania = phone.open("/p/ania%20k.")                 # the old name's page leads to the player's
    assert phone.call(ania.evaluate("location.pathname")) == "/p/@ania"
    assert "Also played as: Ania K." in phone.call(ania.inner_text("header"))
    assert serious_findings(phone, ania, axe) == []

    async def undo():
        async with page.expect_navigation():
            await page.click('button[name="undo"]')

    phone.call(undo())
    assert t.box.store.merges() == []
    t.type("*")                                       # the QR code goes: so does the page
    assert phone.call(page.reload()).status == 404
    phone.errors.remove("Failed to load resource: the server responded with a status of 404 (Not Found)")


class LeagueSite:
    """The league's web app on a loop of its own, where the browser's
    ``call`` runs it while it waits (as it runs a table's)."""

    def __init__(self, league, clock=None) -> None:
        from aiohttp import web

        from referee.club import league_web
        self.loop = asyncio.new_event_loop()
        site = league_web.LeagueSite(league, **({"clock": clock} if clock else {}))
        self.runner = web.AppRunner(league_web.make_app(site))
        self.loop.run_until_complete(self.runner.setup())
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        self.loop.run_until_complete(site.start())
        self.port = site._server.sockets[0].getsockname()[1]

    def web_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def close(self) -> None:
        self.loop.run_until_complete(self.runner.cleanup())
        self.loop.close()


@contextlib.contextmanager
def leagues_pages(browser, league, clock=None):  # noqa: F811
    """``league``'s pages served to ``browser`` for one test, which ends
    with no script error on them; the pages and the league closed after."""
    site = LeagueSite(league, clock=clock)
    browser.table = site
    try:
        yield site
        assert browser.errors == []
    finally:
        browser.end_test()
        site.close()
        league.close()


def test_the_leagues_player_pages_on_a_phone(tmp_path, browser, axe):  # noqa: F811
    from referee.club import messages
    from referee.club.league import League
    from referee.store.scorelog import as_json, game_entry
    from referee.testing import Table
    from test_club import CLUB, davinci_win

    league = League(str(tmp_path / "league.db"))
    for table, seed, players in (("north", 1, ["Ann", "<b>Bob</b>"]), ("south", 2, ["ann", "Cid"])):
        with Table(seed=seed) as t:
            t.start("davinci", players=players)
            davinci_win(t)
            now = t.clock.wall()
            for row in t.box.store.games():
                entry = as_json(game_entry(t.box.store, row))
                assert league.take(messages.topic(CLUB, table, "event"), messages.encode(messages.Entry(
                    v=1, kind="game", id=f"{table}:{row.id}:1", table=table, game=row.id, seq=1, at=0.0,
                    entry=entry))) == "taken"
    month = f"{dt.date.fromtimestamp(now - 6 * 3600):%Y-%m}"
    with leagues_pages(browser, league, clock=lambda: now):     # the tables' evening: nobody has been away
        for path in ("/p/ladder/davinci", f"/p/ladder/davinci/{month}", "/p/", "/p/@ann"):
            # All players at 320 px: the box's sweep in four languages (test_phone_widths.py)
            page = on_both_phones(browser, axe, path, WIDTHS[1:] if path == "/p/" else WIDTHS)
            if path.startswith("/p/ladder/"):
                assert "<b>Bob</b>" in browser.text(page) and "3 more games" in browser.text(page)
        assert "<b>Bob</b>" in browser.text(page)        # as text, never markup
        assert "north" in browser.text(page) and "south" in browser.text(page)
        # The league keeps no game's page: a rival's games link to their evening's.
        evening = f"/e/{dt.date.fromtimestamp(now - 6 * 3600)}"
        assert browser.call(page.get_attribute("dl.rivals dd a[href^='/e/']", "href")) == evening
        browser.shot(page, "league-player")


def test_links_to_players_named_dots_and_an_old_address_in_capitals(table, at_the_table, axe):  # noqa: F811
    t, phone = table, at_the_table
    marek_wins_against(t, [".", "..", "Marek"])
    for name in (".", ".."):
        page = phone.open("/")

        async def follow(page=page, name=name):
            async with page.expect_navigation():
                await page.get_by_role("link", name=name, exact=True).click()

        phone.call(follow())
        assert phone.call(page.inner_text("h1")) == name          # the player's page, not tonight's or all players'
        assert phone.call(page.evaluate("location.pathname")) == "/p/@" + name
    marek = phone.open("/p/MAREK")                                # a link from before, typed in capitals
    assert phone.call(marek.evaluate("location.pathname")) == "/p/@marek"
    assert phone.call(marek.inner_text("h1")) == "Marek"
    assert serious_findings(phone, marek, axe) == []


def test_the_names_page_says_why_a_name_of_two_alphabets_is_refused_and_warns_of_a_look_alike(
        table, at_the_table, axe):  # noqa: F811
    t, phone = table, at_the_table
    t.start("osmisifry", players=["Ola", "Bob"])      # tonight's players
    t.box.leave()
    t.type("4" "B")                                   # Da Vinci Code's setup, its names QR code
    [qr] = zxingcpp.read_barcodes(t.image("main").convert("L"))
    page = phone.open(path_of(qr.text))
    phone.call(page.fill("#n1", "\u0410nia"))          # a Cyrillic А, then Latin letters
    phone.call(page.wait_for_selector("#n1-why:not([hidden])", timeout=5000))
    assert phone.call(page.inner_text("#n1-why")) == "\u0410nia mixes two alphabets (\u0410 and n): type it in one."
    assert phone.call(page.get_attribute("#n1", "aria-invalid")) == "true"
    phone.call(page.fill("#n1", "Ania"))
    phone.call(page.fill("#n2", "0la"))               # a zero: Ola's name to every eye
    phone.call(page.wait_for_selector("#n2-why:not([hidden])", timeout=5000))
    phone.call(page.wait_for_selector("#n1-why", state="hidden", timeout=5000))
    warning = ("Looks just like Ola, another player: no page could tell the two apart. "
               "If it is one person, type the name as before.")
    assert phone.call(page.inner_text("#n2-why")) == warning
    assert phone.call(page.get_attribute("#n2", "aria-invalid")) is None          # a warning: it may be saved
    assert phone.call(page.get_attribute("#n2", "aria-describedby")) == "n2-why"

    async def save():
        async with page.expect_navigation():
            await page.press("#n2", "Enter")
    phone.call(save())
    assert t.screen("team1").splitlines() == ["[Players]", "1 Ania", "2 0la"]
    assert phone.call(page.inner_text("#n2-why")) == warning                        # said again once saved
    assert phone.call(page.evaluate("document.documentElement.scrollWidth")) <= PHONE["width"]
    assert serious_findings(phone, page, axe) == []


# --- issue 37: the merges across the club on a phone ------------------------------------------

def test_the_merges_on_the_leagues_pages_on_a_phone(tmp_path, browser, axe):  # noqa: F811
    """The league's page with a merge it could not apply, and a player's
    page that says which tables' names were joined, a name in markup among
    them: at 320 px light and 360 px dark, axe-clean, names as text."""
    from referee.club.league import League
    from test_league_merges import fed, game, merge
    league = League(str(tmp_path / "league.db"))
    fed(league, game("south", 1, ["Anna", "<b>Bob</b>"]), game("south", 2, ["Ania", "Cid"]),
        game("north", 1, ["Ania", "<b>Bob</b>"]), game("north", 2, ["Ola", "Cid"]),
        merge("south", 1, "Ania", "Anna"), merge("north", 1, "Ania", "Ola"), merge("north", 2, "Ola", "<b>Bob</b>"))
    expected = {"/": ["Not joined: Ania already counts as Anna (merged at south).", "Ola → <b>Bob</b> · north"],
                "/p/@<b>bob<%2Fb>": ["Names joined at the club's tables: Ola → <b>Bob</b> (north)"]}
    with leagues_pages(browser, league):
        # The player's page's line is one more line of its header (test_28 above has the page dark).
        for width, dark, paths in ((320, False, expected), (PHONE["width"], True, ["/"])):
            for path in paths:
                lines = expected[path]
                page = browser.open(path, dark=dark, width=width)
                assert browser.call(page.evaluate("document.documentElement.scrollWidth")) <= width, path
                assert serious_findings(browser, page, axe) == [], path
                shown = browser.call(page.inner_text("body"))
                assert all(line in shown for line in lines), (path, shown)      # as text, never markup
            browser.shot(page, "league-merges-dark" if dark else "league-merges")


def test_a_ladder_and_a_players_rivals_on_a_phone_light_and_dark(browser, axe):  # noqa: F811
    from referee.testing import Table
    from referee.web import history
    from test_merges import marek_wins_against
    with Table(seed=7, config={"ladder": {"provisional_games": 2}}) as t:
        browser.table = t
        try:
            for _ in range(2):
                marek_wins_against(t, ["Ania", "Alexandrina", "<b>Bob</b>"])
            marek_wins_against(t, ["Ania", "Bartholomew", "Maximiliane"])
            month = f"{history.evening_of(t.clock.wall()):%Y-%m}"
            # "All players": the league's test
            for path in ("/p/ladder/decipher", f"/p/ladder/decipher/{month}", "/p/@ania"):
                page = on_both_phones(browser, axe, path)
                if path.startswith("/p/ladder/"):
                    assert "<b>Bob</b>" in browser.call(page.inner_text("table.provisional"))   # sigma over 8
                    assert "1 more game" in browser.call(page.inner_text("table.provisional"))
                if path == "/p/ladder/decipher":
                    browser.shot(page, "ladder")
                if path == "/p/@ania":
                    assert "Most losses to\n<b>Bob</b>, 2 games" in browser.text(page)
            assert browser.errors == []
        finally:
            browser.end_test()
