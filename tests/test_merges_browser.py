"""Issue 28's merge page on a phone: scanned from the box's own screen,
at 360 px, light and dark, axe-clean, names shown as text, merged with the
page's own controls."""
from __future__ import annotations

import pytest
import zxingcpp

from test_merges import marek_wins_against
from test_web_browser import PHONE, at_the_table, axe, browser, path_of, serious_findings  # noqa: F401

pytestmark = pytest.mark.browser


def test_28_names_merged_on_a_phone_from_the_settings_qr_code(table, at_the_table, axe):  # noqa: F811
    t, phone = table, at_the_table
    marek_wins_against(t, ["<b>Bob</b>", "Ania", "Marek"])
    marek_wins_against(t, ["Ania K.", "<b>Bob</b>", "Marek"])
    t.type("8" "5")                                   # Settings, Merge names
    [qr] = zxingcpp.read_barcodes(t.image("main").convert("L"))
    path = path_of(qr.text)
    for dark in (False, True):
        page = phone.open(path, dark=dark)
        assert phone.call(page.evaluate("document.documentElement.scrollWidth")) <= PHONE["width"]
        assert serious_findings(phone, page, axe) == []
        assert "<b>Bob</b>" in phone.call(page.inner_text("#from"))   # as text, not markup
        phone.shot(page, "merge-dark" if dark else "merge")

    async def merge():
        await page.select_option("#from", "ania k.")
        await page.select_option("#into", "ania")
        async with page.expect_navigation():
            await page.click('button[name="merge"]')

    phone.call(merge())
    assert [(m.from_key, m.into_key) for m in t.box.store.merges()] == [("ania k.", "ania")]
    assert "Ania K. → Ania" in phone.text(page)
    ania = phone.open("/p/ania%20k.")                 # the old name's page leads to the player's
    assert phone.call(ania.evaluate("location.pathname")) == "/p/ania"
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
