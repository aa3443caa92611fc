"""Every page of every game, as a table meets them: the setup form with its
pages and help, then a game played by keys through the virtual table, its
phases one after another (scripted where a hand would not get there by
chance; taught, so its taught pages and rulings are met too), with the help
opened in play where the game has one.

``pages(game, lang)`` gives the text of every screen shown on the way, the
public one and the team screens; the words checks read them.  A walk takes
a second or two, and several checks read the same one: each is walked once
per worker (``@cache``), and the checks that read them share a worker
(``xdist_group("every page")``), so each is walked once a run.
"""
from __future__ import annotations

import functools
import random

from games import octiles as oc
from referee import i18n
from referee.box.screen import Screen
from referee.testing import Table
from test_wording import act_at_random

GAMES = {"decrypto": "1", "osmisifry": "2", "octiles": "3", "davinci": "4", "decipher": "5"}
KEYS = [*"0123456789ABCD*#", "team1", "team2"]
NAMES = ["Ann", "Bo", "Cyril"]   # the players' names, as a table types them
# How each game is started, again whenever the hand has left it.
START = {"decrypto": {}, "osmisifry": {"players": NAMES}, "octiles": {"players": 2},
         "davinci": {"players": NAMES}, "decipher": {"players": NAMES}}


class Seen(list):
    """The text of every screen met, in order; ``shown``, each main page
    met as the box drew it (its keys and digits), once; ``panels``, each
    page of every panel, by the panel's name and its text, once."""

    def __init__(self) -> None:
        super().__init__()
        self.shown: dict[str, Screen] = {}
        self.panels: dict[tuple[str, str], Screen] = {}


def _seen(t: Table, seen: list[str]) -> None:
    for name in ("main", "team1", "team2"):
        text = t.screen(name)
        if not seen or text not in seen[-6:]:
            seen.append(text)
        if isinstance(seen, Seen) and name in t.box.shown:
            seen.panels.setdefault((name, text), t.box.shown[name])
    if isinstance(seen, Seen) and "main" in t.box.shown:
        seen.shown.setdefault(t.screen("main"), t.box.shown["main"])


def _read(t: Table, seen: list[str]) -> None:
    """The taught pages up (the scripted games are taught), read page by page."""
    _seen(t, seen)
    while t.box.teacher.owed() is not None:
        t.press("#")
        _seen(t, seen)


def _press(t: Table, keys, seen: list[str]) -> None:
    for key in keys:
        t.press(key)
        _read(t, seen)


def _setup(t: Table, game: str, seen: list[str]) -> None:
    t.press(GAMES[game])
    _seen(t, seen)
    _press(t, "1234D" * 2, seen)           # every option's values, the form's pages
    _press(t, "C" + "D" * 30 + "*", seen)   # the help, page by page, its words
    _press(t, "A*", seen)                   # tonight's players
    _press(t, "*", seen)
    t.press(GAMES[game])                    # back at the defaults


def _wander(t: Table, game: str, rng: random.Random, presses: int, seen: list[str]) -> None:
    """A hand pressing anything, ``#`` more often than the rest, time
    running out now and then; a game left is started again (the menus and
    the other games are not this game's pages)."""
    for _ in range(presses):
        if t.box.session is None or t.box.session.name != game:
            t.start(game, **START[game])
        act_at_random(t, rng, KEYS + ["#"] * 4 + list("1234") * 2)
        _seen(t, seen)


def _osmisifry(t: Table, seen: list[str]) -> None:
    t.start("osmisifry", teach=True, **START["osmisifry"])
    _read(t, seen)
    for _ in range(8):                      # rows 1 and 2
        _press(t, "#", seen)
    _press(t, "123", seen)                  # round 1 picked
    _press(t, "####", seen)                 # row 3
    _press(t, "B", seen)
    _press(t, "2", seen)                    # player 2 draws, picks last
    _press(t, "13", seen)
    _press(t, "2", seen)
    _press(t, "D", seen)
    _press(t, "*D#", seen)                  # the creation ended by agreement
    _press(t, "#", seen)                    # the direction
    _press(t, "#", seen)                    # booklets handed
    t.advance(200)
    _read(t, seen)
    _press(t, "#*", seen)                   # asked, not stopped
    t.advance(120)
    _read(t, seen)
    for _ in range(3):                      # every booklet scored
        _press(t, "3#2#1#", seen)
        _press(t, "B", seen)
    _press(t, "DDDC", seen)


def _decrypto(t: Table, seen: list[str]) -> None:
    t.start("decrypto", teach=True, **START["decrypto"])
    _read(t, seen)
    _press(t, "C" + "D" * 10 + "*", seen)
    _press(t, "D*", seen)
    _press(t, "A**", seen)                  # who swaps a keyword, before round 1
    for _ in range(3):
        _press(t, ["team1", "team1"], seen)
        t.advance(31)
        _read(t, seen)
        _press(t, ["team2", "team2"], seen)
        for seat in (0, 1):
            code = "".join(map(str, t.box.session.state.codes[seat]))
            wrong = "".join(str(int(d) % 4 + 1) for d in code)
            if t.box.session.state.round > 1:
                _press(t, wrong + "#", seen)   # the interception, missed
            _press(t, (wrong if seat else code) + "#", seen)
            _press(t, "#", seen)
        _press(t, "D*", seen)


def _decipher(t: Table, seen: list[str]) -> None:
    t.start("decipher", teach=True, **START["decipher"])
    _read(t, seen)
    _press(t, "#", seen)
    _press(t, "D*", seen)                   # More, its numbered items


def _octiles(t: Table, seen: list[str]) -> None:
    """Six turns. Each is first tried where the tile moves nobody, once for
    each reason the box gives (said, then taken back to the space), then on
    the first space and turn that moves a runner, its first move chosen
    where the tile offers more than one. The rules say which is which, in
    every language alike."""
    t.start("octiles", teach=True, **START["octiles"])
    _read(t, seen)
    for _turn in range(6):
        state = t.box.session.state
        refused: dict[str, tuple[int, int]] = {}
        moves = None
        for space in range(1, 18):
            for turns in range(4):
                if oc.moves_at(state, oc.space_name(space), turns):
                    moves = moves or (space, turns)
                elif (why := oc.no_move(state, oc.space_name(space), turns)) is not None:
                    refused.setdefault(why.reason, (space, turns))
        assert moves is not None, "the walk's games always have a move"
        for space, turns in refused.values():
            _press(t, f"{space}#" + "B" * turns + "#", seen)   # "No move there", and why
            _press(t, "**", seen)                                # back to the turn, then to the space
        before = t.box.session.seq
        space, turns = moves
        _press(t, f"{space}#" + "B" * turns + "#", seen)
        if t.box.session.seq == before:                          # "which move?": the first
            _press(t, "1", seen)
        assert t.box.session.seq > before, t.screen()
    _press(t, "D" * 3, seen)


def _davinci(t: Table, seen: list[str]) -> None:
    t.start("davinci", teach=True, **START["davinci"])
    _read(t, seen)
    _press(t, "#", seen)
    for target in "2311":
        _press(t, target + "A", seen)
        _press(t, target + "B", seen)


SCRIPTS = {"osmisifry": _osmisifry, "decrypto": _decrypto, "decipher": _decipher,
           "octiles": _octiles, "davinci": _davinci}


@functools.cache
def pages(game: str, lang: str, presses: int = 150) -> Seen:
    """Every screen's text met in a game's setup and play, in ``lang``
    (shared by the checks that read it: not to be changed)."""
    seen = Seen()
    try:
        with Table(seed=43, lang=lang) as t:
            _setup(t, game, seen)
            t.type("*")
            SCRIPTS[game](t, seen)
            _wander(t, game, random.Random(f"{game}/{lang}"), presses, seen)
    finally:
        i18n.use("en")
    return seen
