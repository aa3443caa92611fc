"""Issue 34 item 9: every phone page at 320 px in the four languages, in
Debian's chromium: no page wider than the screen, no word broken inside
(a header of one word keeps it whole: "Player 1", never "Playe/r 1").
One table, one browser, every page once per language: a few seconds."""
from __future__ import annotations

import pytest

from games import davinci as davinci_rules
from referee import i18n, team_links
from referee.web import history
from test_web import (act, current_id, davinci_game, decipher_game, decrypto_clues, decrypto_guesses,  # noqa: F401
                      octiles_turns, osmisifry_game, t)
from test_web_browser import browser, path_of, phone  # noqa: F401

pytestmark = pytest.mark.browser
WIDTH = 320
LANGS = {"en": "1", "cs": "2", "pl": "3", "ru": "4"}   # the Settings menu's items

# The words on a page drawn over more than one line: a word is what lies
# between spaces and the marks a line may break after (- / – —); a word
# with zero-width rects (hidden) is not drawn.
BROKEN = """() => {
  const broken = [], range = document.createRange();
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walk.nextNode()) {
    const node = walk.currentNode, word = /[^\\s\\-\\/\\u2013\\u2014]+/g;
    let m;
    while ((m = word.exec(node.data))) {
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const lines = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.bottom)));
      if (lines.size > 1) broken.push(m[0]);
    }
  }
  return broken;
}"""


def evening(t) -> list[str]:
    """Every kind of page, with the games of an evening on it."""
    t.start("decrypto", members=[["Alexandrina", "Konstanty", "Bartholomew"], ["Dana", "Eva"]])
    for _ in range(2):                # White wins with its members named: the widest winner row
        decrypto_clues(t)
        decrypto_guesses(t, miscommunicate={1})
    decrypto = current_id(t)
    t.box.leave()
    davinci_game(t)
    davinci = current_id(t)
    t.box.leave()
    osmisifry_game(t)
    osmisifry = current_id(t)
    t.box.leave()
    t.start("octiles")
    octiles_turns(t, 6)
    octiles = current_id(t)
    t.box.leave()
    decipher_game(t)
    decipher = current_id(t)
    t.box.leave()
    t.start("davinci", players=4, tournament=True)     # four columns of default names
    act(t, davinci_rules.Dealt(), davinci_rules.Attack(1, True), davinci_rules.Attack(2, False))
    seats = current_id(t)
    t.box.leave()
    t.start("decrypto")                # a game in play: its team pages
    teams = [path_of(team_links.team_url(t.box, team)) for team in (0, 1)]
    month = f"{history.evening_of(t.clock.wall()):%Y-%m}"     # its longest names: Decrypto's
    # Issue 38: the replay's steps, with what the box kept hidden and from a team's side.
    steps = [f"/g/{decrypto}/step/6?reveal=1", f"/g/{decrypto}/step/3?side=white", f"/g/{osmisifry}/step/1",
             f"/g/{seats}/step/2"]
    assert [t.get(path)[0] for path in steps] == [200] * len(steps)
    return ["/", "/e/", *(f"/g/{g}" for g in (decrypto, davinci, osmisifry, octiles, decipher, seats)), "/p/",
            "/p/@ann", "/p/@bob", f"/p/ladder/decrypto/{month}", *teams, *steps]


def test_every_page_at_320_px_in_four_languages_is_no_wider_and_breaks_no_word(t, phone):  # noqa: F811
    paths = evening(t)
    found = {}
    try:
        for lang, item in LANGS.items():
            t.press("8")
            t.press(item)
            t.press("*")
            page = phone.open(paths[0], width=WIDTH)       # one phone, going from page to page
            for path in paths:
                phone.call(page.goto(t.web_url() + path.lstrip("/")))
                width = phone.call(page.evaluate("document.documentElement.scrollWidth"))
                broken = phone.call(page.evaluate(BROKEN))
                if width > WIDTH or broken:
                    found[f"{lang} {path}"] = (width, broken)
            phone.call(page.context.close())
    finally:
        i18n.use("en")
    assert found == {}, "\n".join(f"{k}: {v}" for k, v in found.items())
