"""Issue 25 item 4: every soft key's label fits whole on the panel.

Every page the box shows (the menus, the settings, the score log, the table
tools; then every game's setup form, its help and its play as ``every_page``
walks them, taught pages and help in play too), in the four languages, is laid out as ``referee.box.screen.render`` draws it; a key on the
bar whose label is cut, or a line that names a key ("A:names B:by phone") and
is cut or left off, fails.  A passing message is left out: it goes again.
"""
from __future__ import annotations

import dataclasses
import re

import pytest

from referee import i18n
from referee.box.screen import Screen, layout
from referee.testing import Table
import every_page
from every_page import GAMES
from test_wording import ALL

# "B:1m" written into a title or a line.
HINT = re.compile(r"(?:^|\s)[A-D#*]:")


def cut_labels(screen: Screen) -> list[str]:
    """What a player cannot read whole of the screen's keys."""
    at = layout(dataclasses.replace(screen, flash=""))
    drawn = " ".join(at.keys)
    cut = [f"{key}:{label}" for key, label in screen.keys if f"{key}:{label}" not in drawn.split(" ")
           and f"{key}:{label}" not in drawn]
    if screen.title and HINT.search(screen.title) and at.title != screen.title:
        cut.append(screen.title)
    cut += [line for line in screen.lines if HINT.search(line) and line not in at.lines]
    return cut


def look(t: Table, lang: str, found: dict) -> None:
    for name, screen in t.box.shown.items():
        for what in cut_labels(screen):
            found.setdefault(f"{lang} {name}: {what}", screen.text)


def pages(t: Table, lang: str, found: dict, keys: str) -> None:
    for key in keys:
        t.press(key)
        look(t, lang, found)


@pytest.mark.parametrize("lang", ALL)
@pytest.mark.xdist_group("every page")   # the games' walks, shared (every_page)
def test_every_soft_key_label_fits_whole_on_every_page(lang):
    found: dict[str, str] = {}
    try:
        with Table(seed=25, lang=lang) as t:
            look(t, lang, found)
            # The main menu's pages, the settings, the score log, the table
            # tools: a countdown set, started, paused, asked to reset; the dice.
            pages(t, lang, found, "D" "8" "*" "7" "*" "6" "B#" "A" "*" "*" "#" "D" "A" "B" "#" "C" "*" "D"
                                  "12#" "*" "*" "*" "*")
        met = 0
        for game in GAMES:
            seen = every_page.pages(game, lang)
            i18n.use(lang)
            for (name, _), screen in seen.panels.items():
                met += 1
                for what in cut_labels(screen):
                    found.setdefault(f"{lang} {game} {name}: {what}", screen.text)
    finally:
        i18n.use("en")
    assert met > 500
    assert sorted(found) == [], "\n\n".join(f"{k}\n{v}" for k, v in sorted(found.items()))


@pytest.mark.parametrize("lang", ALL)
@pytest.mark.parametrize("preset, time", [("A", "0:30"), ("B", "1:00"), ("C", "5:00")])
def test_a_preset_key_on_a_countdown_under_way_asks_first(lang, preset, time):
    with Table(seed=4, lang=lang) as t:
        t.type("6B#")                  # the table tools: 1:00, running
        t.advance(15)
        t.press(preset)
        shown = t.screen("main")
        assert shown.splitlines()[0] == f"[{i18n._('Timer {time}').format(time='0:45')}]"
        assert i18n._("#: set to {time}").format(time=time) in shown
        assert f"#:{i18n._('OK')} *:{i18n._('No')}" in shown
        t.advance(5)
        t.press("*")                    # no: it runs on
        assert "0:40" in t.screen("main") and f"#:{i18n._('Pause')}" in t.screen("main")
        t.press("#")                    # paused: under way still
        t.press(preset)
        t.press("#")                    # yes
        assert time in t.screen("main") and f"#:{i18n._('Go')}" in t.screen("main")
        t.press(preset)                 # at rest: at once, nothing to lose
        assert time in t.screen("main") and f"#:{i18n._('Go')}" in t.screen("main")


def test_a_preset_key_once_time_is_up_sets_at_once():
    with Table(seed=4) as t:
        t.type("6A#")
        t.advance(31)
        assert "Time is up!" in t.screen("main")
        t.press("C")
        assert "5:00" in t.screen("main") and "#:Go" in t.screen("main")
