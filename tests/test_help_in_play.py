"""Help in play: from a game's page ``C`` opens a help whose first page says
what the phase on screen is for, in its taught page's words, and whose
last is a QR code to that phase on the phones' How to play page; ``*``
goes back to the game as it was.

Each game is played by the keys of its taught game (``test_teach``), Help
opened at each phase as it comes up, in every language.
"""
from __future__ import annotations

import dataclasses

import pytest
import zxingcpp

from referee import catalogue, guide, i18n
from referee.box.flows import forms
from referee.box.flows.playhelp import how_phase
from referee.box.flows.teacher import phase
from referee.testing import Table
from test_teach import GAMES, Hand


def body(t: Table) -> str:
    """A help page's own words, as the public screen shows them: without
    its title, its key bar and the line of the controls no bar shows."""
    lines = t.screen().splitlines()[1:-1]
    return " ".join(" ".join(line for line in lines if line != forms.game_menu_line()).split())


def page(t: Table):
    """The public screen, without a passing message (a start's hint goes with a key)."""
    return dataclasses.replace(t.box.shown["main"], flash="")


def read_qr(t: Table) -> str:
    [code] = zxingcpp.read_barcodes(t.image("main").convert("L"))   # the panel's pixels, as a phone's camera
    return code.text


class Helped(Hand):
    """A table that opens Help at each phase, reads it and goes back."""

    def __init__(self, t: Table, teach: dict) -> None:
        super().__init__(t)
        self.teach = teach
        self.helped: dict[str, tuple[str, str]] = {}   # phase -> first help page's lines, its QR
        self.paged: set[str] = set()   # phases met only on pages with no C to spare (their own, or no room)

    def _look(self) -> None:
        super()._look()
        t = self.t
        now = phase(t.box.session)
        if now in self.helped or now not in self.teach:
            return
        if "C:" + i18n._("Help") not in t.screen():
            self.paged.add(now)
            return
        before = page(t)
        t.press("C")
        first = body(t)
        t.press("C")            # round from the first page to the last
        self.helped[now] = (first, read_qr(t))
        t.press("*")
        assert page(t) == before   # the game as it was


@pytest.mark.parametrize("lang", i18n.LANGS)
@pytest.mark.parametrize("game", ["decrypto"])
def test_help_in_play_starts_with_the_phases_teach_text_and_ends_with_its_how_to_play_qr(game, lang):
    script, options, _rulings = GAMES[game]
    said = catalogue.load(catalogue.GAMES[game].said)
    anchors = {p.id for p in guide.of(game).phases}
    with Table(seed=7, lang=lang) as t:
        t.start(game, **options)
        hand = Helped(t, said.TEACH)
        script(hand)
        met = [p for p in hand.phases if p in said.TEACH]
        # Help at the phases the game came to, where a page of the phase had C to spare
        assert hand.helped and set(hand.helped) == set(met) - (hand.paged - set(hand.helped))
        for now, (first, url) in hand.helped.items():
            text = " ".join(i18n._(said.TEACH[now]).split())
            assert first and text.startswith(first), (now, first)     # the taught page's words
            assert how_phase(game, now) in anchors
            assert url.endswith(f"/HOW/{game}/{how_phase(game, now)}".upper())
