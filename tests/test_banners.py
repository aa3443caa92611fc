"""Issue 34 item 3: a banner never hides the key line nor outlives its page.

A message flashed over the public screen (a refusal, "Undone.") takes the
rows the page leaves free, then the title's row, and only then the page's
own lines; never the key bar, the line being typed or the keys' hints
written as a line, unless it would be cut short there: then the second row
of a key bar of two, then the page beneath, the title and the key bar's
first row kept (and the typed line, where a row is left): a message is read
whole.  The next key takes it down, so that it never stays over
the page that key brings (the game menu's "Take back:").  Decrypto refuses
a digit no code has as it is pressed.  Through random walks of every game
in the four languages, as ``referee.box.screen.render`` lays the panel out.
"""
from __future__ import annotations

import dataclasses
import random

import pytest

from referee import i18n
from referee.box.screen import H, key_rows, layout, wrap
from referee.testing import Table
from test_wording import ALL, walk

GAMES = {"decrypto": {}, "osmisifry": {"players": 3}, "octiles": {}, "davinci": {"players": 2, "turn_timer": 30},
         "decipher": {"players": 3}}


def hidden(t: Table, found: dict, game: str) -> None:
    """What a banner on main hides that it must not."""
    main = t.box.shown["main"]
    if not main.flash:
        return
    at, bare = layout(main), layout(dataclasses.replace(main, flash=""))
    where = f"{game}: {main.flash}"
    whole = list(at.message) == wrap(main.flash, at.cols)
    room = (H - (12 if at.title else 0) - 10 * len(at.keys)) // 10
    # The bar's second row for a message read whole; over the page, the bar
    # on the panel's full width (a QR code's narrow one, whole on one row).
    full = tuple(key_rows(main.keys))
    if at.keys != bare.keys and not (whole and at.keys == bare.keys[:1]) and \
            not (at.covered and at.keys == full[:len(at.keys)]):
        found.setdefault(where, f"the key bar {bare.keys} under\n{main.text}")
    if main.typing is not None and main.typing < len(main.lines) and bare.lines[main.typing] not in at.lines \
            and not (at.covered and len(at.message) == room):
        found.setdefault(where, f"the line {bare.lines[main.typing]!r} under\n{main.text}")
    if bare.title and not at.title:
        found.setdefault(where, f"the title {bare.title!r} under\n{main.text}")
    if not whole:
        found.setdefault(where, f"cut short over\n{main.text}")


@pytest.mark.soak
@pytest.mark.parametrize("lang", ALL)
def test_a_banner_never_hides_the_title_the_key_bar_or_the_typed_line(lang, soak):
    found: dict[str, str] = {}
    flashed = 0
    rng = random.Random(343)
    try:
        for game, options in GAMES.items():
            with Table(seed=34, lang=lang) as t:
                t.start(game, **options)
                for _ in range(40 if soak else 20):   # make soak walks further
                    walk(t, rng, 5, set())
                    flashed += bool(t.box.shown["main"].flash)
                    hidden(t, found, game)
    finally:
        i18n.use("en")
    assert flashed >= 10                                  # the walks met banners
    assert found == {}, "\n\n".join(f"{k}\n{v}" for k, v in found.items())


def test_the_next_key_takes_the_banner_down_as_the_game_menu_comes_up():
    with Table(seed=34) as t:
        t.start("decrypto")
        t.type(["team1", "team1"])                        # White's clues are done
        t.press("team1")                                  # a third press: refused, said on main
        assert t.screen().splitlines()[1].startswith("! ")
        t.advance(0.5)                                    # well within the banner's 2.5 s
        t.hold("*", 1.0)
        assert t.screen().splitlines()[:3] == ["[Undo?]", "Take back:", "White: clues done?"]
        at = layout(t.box.shown["main"])
        assert at.message == () and at.lines[:2] == ("Take back:", "White: clues done?")


def test_a_banner_goes_with_the_page_it_was_said_on():
    with Table(seed=34) as t:
        t.start("davinci", players=2)
        t.type("#3")                                      # P3 is not at the table: refused
        assert "!" in t.screen()
        t.press("2")                                      # the next key, well within 2.5 s
        assert "!" not in t.screen() and "[P1 attacks P2]" in t.screen()


@pytest.mark.parametrize("lang", ALL)
def test_DE5_a_digit_no_code_has_is_refused_as_it_is_pressed(lang):
    with Table(seed=34, lang=lang) as t:
        t.start("decrypto")
        t.type(["team1", "team1", "team2", "team2"])
        t.press("5")
        assert t.sounds[-1] == "error" and "> _-_-_" in t.screen()
        assert "! " + i18n._("A code's digits are 1 to 4.") in t.screen()
        at = layout(t.box.shown["main"])
        assert "> _-_-_" in at.lines and at.keys == layout(dataclasses.replace(t.box.shown["main"], flash="")).keys
        t.type("11")
        assert "> 1-_-_" in t.screen() and "! " + i18n._("Digit {digit}: already in the code.").format(digit=1) in t.screen()
        t.type("23#")                                 # the code as it was meant: taken
        assert "> " not in t.screen()
