"""Help in play: from a game's page ``C`` opens a help whose first pages say
what the phase on screen is for, in its taught page's words, and what the
page's keys do, alone; then the glossary's words that the page shows, and
only those; its last is a QR code to that phase on the phones' How to play
page; ``*`` goes back to the game as it was.

Each game is played by the keys of its taught game (``test_teach``), Help
opened at each phase as it comes up, in every language.
"""
from __future__ import annotations

import dataclasses
import re

import pytest
import zxingcpp

from referee import catalogue, glossary, guide, i18n
from referee.box.flows import forms
from referee.box.flows.playhelp import how_phase
from referee.box.flows.teacher import phase
from referee.testing import Table
from test_glossary import shown_words
from test_page_digits import range_digits
from test_teach import ENDS, GAMES, NAMES, Hand

# The help's pages at most, in any phase of any game in any language: the
# phase and its keys take at most PHASE_PAGES; each word of the glossary the
# page beneath shows takes at most a page; the QR code, one.
PHASE_PAGES = 2
MOST_PAGES = 9

# A digits' line of the help: "1-4: pick a letter", "1-17: a space, then #".
RANGE = re.compile(r"(?<![\d\-–])(\d+)[-–](\d+): ")


def body(t: Table) -> str:
    """A help page's own words, as the public screen shows them: without
    its title and its key bar."""
    return words(t.screen())


def words(screen: str) -> str:
    return " ".join(" ".join(screen.splitlines()[1:-1]).split())


def terms_on(game: str, screen: str) -> set[str]:
    """The headwords of the glossary's terms that a page shows, as the walk
    of every page reads its words (``test_glossary``), a passing message
    apart (the key that opens the help takes it down)."""
    seen = shown_words(["\n".join(line for line in screen.splitlines() if not line.startswith("! "))])
    return {i18n._(term.words).split("|")[0] for term in glossary.terms(game)
            if seen & {form.strip().lower() for form in i18n._(term.words).split("|") if " " not in form.strip()}}


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
        self.helped: dict[str, tuple[list[str], str]] = {}   # phase -> its help pages' words, its QR
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
        before, under, seq = page(t), t.screen(), t.box.session.seq
        t.press("C")
        first = body(t)
        shown = [t.screen()]
        while len(shown) < 40 and "QR " not in shown[-1]:
            t.press("D")
            shown.append(t.screen())
        said = " ".join(words(screen) for screen in shown)
        # The keys of the page it was opened on, each said (its digits by their range, as the page takes them)
        keys = [key for key, _label in before.keys if key != "C" and not key[:1].isdigit()]
        assert all(f"{key}: " in said or f"{key}, " in said for key in keys), (now, before.keys, said)
        if before.digits and not any(key[:1].isdigit() for key, _label in before.keys):
            ranges = [range_digits(int(low), int(high)) for low, high in RANGE.findall(said)]
            assert any(digits <= set(before.digits) for digits in ranges), (now, before.digits, said)
        # Honest page numbers: "Help 1/N" and N pages round, the QR code's the last
        heads = [screen.splitlines()[0] for screen in shown[:-1]]
        assert heads == [f"[{forms.help_title(i, len(shown))}]" for i in range(len(shown) - 1)], heads
        # The glossary's words listed: exactly the terms the page beneath shows
        game = t.box.session.name
        listed = {word for word, means in glossary.defined(game)
                  if " ".join(f"{word[:1].upper()}{word[1:]}: {means}".split()) in said}
        assert listed == terms_on(game, under), (now, under, said)
        t.press("D")            # round from the last page to the first
        assert body(t) == first
        t.press("C")            # and back to the last
        self.helped[now] = ([words(screen) for screen in shown[:-1]], read_qr(t))
        t.press("*")
        # The game as it was (a countdown under the help ran on)
        assert t.box.session.seq == seq and dataclasses.replace(page(t), big="") == dataclasses.replace(before, big="")


def _decipher_bonus(h: Hand) -> None:
    """A count of pieces, bonus mode at three left, each asked for, then guesses only."""
    h.type("6#")
    h.type("ABAA")
    h.type("#A#A#A")
    h.type("2A")


def _decrypto_tie(h: Hand) -> None:
    """Eight quiet rounds, then the tie-break by keywords [DE-9]."""
    ENDS["keywords"][0](h)
    h.type(ENDS["keywords"][1])


# Each game's taught game (in every language); then, in English, games that
# reach the phases those do not: Decrypto's tie-break, Decipher's bonus mode
# and guesses, a tournament's next game of Da Vinci Code.
PLAYS = {**{(game, lang): (game, script, options) for game, (script, options, _rulings) in GAMES.items()
            for lang in i18n.LANGS},
         ("decrypto tie-break", "en"): ("decrypto", _decrypto_tie, {}),
         ("decipher bonus mode", "en"): ("decipher", _decipher_bonus, {"players": NAMES}),
         ("davinci tournament", "en"): ("davinci", GAMES["davinci"][0], {"players": NAMES[:2], "tournament": True})}


@pytest.mark.parametrize(("play", "lang"), PLAYS)
def test_help_in_play_says_the_phase_and_its_keys_then_the_pages_words_and_ends_with_its_qr(play, lang):
    game, script, options = PLAYS[play, lang]
    said = catalogue.load(catalogue.GAMES[game].said)
    anchors = {p.id for p in guide.of(game).phases}
    with Table(seed=7, lang=lang) as t:
        t.start(game, **options)
        hand = Helped(t, said.TEACH)
        script(hand)
        hand._look()
        met = [p for p in hand.phases if p in said.TEACH]
        # Help at the phases the game came to, where a page of the phase had C to spare
        assert hand.helped and set(hand.helped) == set(met) - (hand.paged - set(hand.helped))
        menu = forms.game_menu_line()
        for now, (shown, url) in hand.helped.items():
            # First what the phase is for, in its taught page's words, then
            # the page's keys, the last the line of the controls no bar shows:
            # on the first pages, alone.
            text = " ".join(i18n._(said.TEACH[now]).split())
            alone = next(i for i, words in enumerate(shown) if words.endswith(menu)) + 1
            assert " ".join(shown[:alone]).startswith(text + " "), (now, shown)
            assert alone <= PHASE_PAGES and len(shown) + 1 <= MOST_PAGES, (now, shown)
            assert how_phase(game, now) in anchors
            assert url.endswith(f"/HOW/{game}/{how_phase(game, now)}".upper())


def test_every_phase_of_the_rules_points_at_an_anchor_of_its_how_to_play_page():
    """Each ``HOW_AT`` of a game's said module names a section of its
    /how/<game> page, as the page is served."""
    with Table() as t:
        for game in GAMES:
            status, _headers, page = t.get(f"/how/{game}")
            anchors = set(re.findall(r'<section id="([^"]+)"', page))
            how_at = catalogue.load(catalogue.GAMES[game].said).HOW_AT
            assert status == 200 and how_at and set(how_at.values()) <= anchors, (game, how_at, anchors)


def test_the_help_in_play_comes_back_after_a_power_cut_and_an_undo_under_it_closes_it():
    with Table(seed=7) as t:
        t.start("osmisifry", players=NAMES)
        t.press("#")                      # a letter rolled
        game = page(t)
        t.type("CD")                      # the help's second page
        helped = t.screen()
        assert helped.startswith("[Help 2/")
        t.restart()
        assert t.screen() == helped       # kept with the game's page
        t.hold("*", 1.0)                  # the game menu, over the help: take the roll back
        t.press("#")
        assert not t.screen().startswith("[Help") and not t.box.session.state.offers[0].letters
        assert page(t).title == game.title and "C:" + i18n._("Help") in t.screen()
