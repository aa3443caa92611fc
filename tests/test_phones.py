"""Issue 25 item 7: the phone pages at 320 and 360 px, light and dark, in
Debian's chromium with axe: a Decrypto keyword never breaks inside; the
setup's names page says that it saved, marks and names each refused field
(which name is twice, which is too long, never cut short by the browser),
says what an empty seat means as the box rules it, and links tonight's
players to the games they played."""
from __future__ import annotations


import pytest
import zxingcpp

from games import decrypto
from referee import team_links
from test_web_browser import (NOTHING_SERIOUS, axe, at_the_table, browser, path_of,  # noqa: F401
                              serious_findings, serious_light_and_dark)

pytestmark = pytest.mark.browser
WIDTHS = (320, 360)

# The ten longest words of the English list: White and Black get eight of them.
LONG = sorted(decrypto.words("en"), key=lambda word: (-len(word), word))[:10]


def shot(phone, page, name: str) -> None:
    phone.shot(page, name)


def overflow(phone, page) -> int:
    return phone.call(page.evaluate("document.documentElement.scrollWidth"))


def long_keywords(table) -> None:
    words = [w for w in decrypto.words("en") if w not in LONG]
    table.start("decrypto", exclude=words)
    dealt = table.box.session.state.keywords
    assert {w for team in dealt for w in team} <= set(LONG)


@pytest.mark.parametrize("width", WIDTHS)
def test_a_keyword_never_breaks_inside_on_the_team_page(table, at_the_table, axe, width):  # noqa: F811
    t, phone = table, at_the_table
    long_keywords(t)
    for team in (0, 1):
        page = phone.open(path_of(team_links.team_url(t.box, team)), width=width)
        lines = phone.call(page.evaluate("""() => [...document.querySelectorAll('.keywords .word')].map(w => {
            const box = w.closest('li').getBoundingClientRect(), word = w.getBoundingClientRect();
            return [w.textContent, w.getClientRects().length, word.right <= box.right - 4, word.left >= box.left];
        })"""))
        assert [word for word, *_ in lines] == list(t.box.session.state.keywords[team])
        assert [(word, 1, True, True) for word, *_ in lines] == [tuple(line) for line in lines]
        assert overflow(phone, page) <= width
        assert serious_light_and_dark(phone, page, axe) == NOTHING_SERIOUS
        shot(phone, page, f"team{team + 1}-{width}")


def names_page(t, phone, width: int):
    t.press("4")                                      # Da Vinci Code's setup form
    t.press("B")
    [qr] = zxingcpp.read_barcodes(t.image("main").convert("L"))
    return path_of(qr.text), phone.open(path_of(qr.text), width=width)


def fields_refused(phone, page) -> dict[str, str]:
    """The fields marked refused, and the reason each one points to."""
    return phone.call(page.evaluate("""() => {
        const marked = document.querySelectorAll('.seats input[aria-invalid="true"]');
        return Object.fromEntries([...marked].map(field => [field.id,
            document.getElementById(field.getAttribute('aria-describedby')).textContent]));
    }"""))


@pytest.mark.parametrize("width", WIDTHS)
def test_the_names_page_marks_and_names_each_refused_field_then_says_it_saved(table, at_the_table, axe,  # noqa: F811
                                                                                  width):
    t, phone = table, at_the_table
    path, page = names_page(t, phone, width)
    text = phone.text(page)
    assert "Empty seats keep their default names" not in text
    assert "at most 12 characters each" in text and "leave every seat empty" in text
    twenty_one = "Alexandrina Konstanty"
    assert len(twenty_one) == 21

    async def save(values: dict[str, str]):
        for field, value in values.items():
            await page.fill(f"#{field}", value)
        async with page.expect_navigation():
            await page.click('button[name="save"]')

    phone.call(save({"n1": twenty_one, "n2": "Bob", "n3": "bob"}))
    phone.errors = [e for e in phone.errors if "400" not in e]      # the refusal is a 400: that is the point
    alert = phone.call(page.inner_text(".refused"))
    assert [line for line in alert.splitlines() if line] == ["Seat 1: A name is too long (limit: 12).",
                                                             "Seat 3: Two players are named bob."]
    assert fields_refused(phone, page) == {"n1": "A name is too long (limit: 12).",
                                           "n3": "Two players are named bob."}
    assert phone.call(page.input_value("#n1")) == twenty_one           # kept whole, not cut to 12
    assert "[Players]" not in t.screen("team1")
    assert overflow(phone, page) <= width
    assert serious_light_and_dark(phone, page, axe) == NOTHING_SERIOUS
    shot(phone, page, f"names-refused-{width}")

    phone.call(save({"n1": "Alexandrina", "n3": "Cy"}))
    assert phone.call(page.inner_text('[role="status"]')) == ("Names saved: the game starts with them. "
                                                             "Change them here until it starts.")
    assert fields_refused(phone, page) == {}
    assert t.screen("team1").splitlines() == ["[Players]", "1 Alexandrina", "2 Bob", "3 Cy"]
    assert serious_light_and_dark(phone, page, axe) == NOTHING_SERIOUS
    shot(phone, page, f"names-saved-{width}")


def test_one_name_is_refused_as_the_page_says_it_would_be(table, at_the_table):  # noqa: F811
    t, phone = table, at_the_table
    path, page = names_page(t, phone, 320)

    async def save():
        await page.fill("#n1", "Ann")
        async with page.expect_navigation():
            await page.click('button[name="save"]')

    phone.call(save())
    phone.errors = [e for e in phone.errors if "400" not in e]
    assert phone.call(page.inner_text(".refused")) == "Players in this game: 2 to 4."
    assert "The names set how many play: name every player, or leave every seat empty" in phone.text(page)


@pytest.mark.parametrize("width", WIDTHS)
def test_tonights_players_link_to_the_games_they_played(table, at_the_table, axe, width):  # noqa: F811
    t, phone = table, at_the_table
    t.start("osmisifry", players=["Žofie", "Bob"])
    t.box.leave()
    t.start("decipher", players=["Bob", "Cy"])
    t.box.leave()
    path, page = names_page(t, phone, width)
    links = phone.call(page.evaluate("""() => [...document.querySelectorAll('p.sub a')].map(
        a => [a.textContent, a.getAttribute('href')])"""))
    assert links == [["Bob", "/?player=Bob"], ["Cy", "/?player=Cy"], ["Žofie", "/?player=%C5%BDofie"]]
    shot(phone, page, f"names-roster-{width}")

    async def follow(name: str):
        async with page.expect_navigation():
            await page.click(f'p.sub a:text-is("{name}")')

    phone.call(follow("Žofie"))
    evening = phone.text(page)
    assert "Žofie – " not in evening and "Games Žofie played" in evening
    assert "Osmišifry" in evening and "Decipher" not in evening
    assert overflow(phone, page) <= width
    assert serious_findings(phone, page, axe) == []
    shot(phone, page, f"evening-zofie-{width}")
    phone.call(page.go_back())
    phone.call(follow("Bob"))
    evening = phone.text(page)
    assert "Osmišifry" in evening and "Decipher" in evening
