"""A seeded walk over every page of every game, by keys, for the pad's
grammar (tests/test_pad_grammar.py): it presses keys as a table trying a
game would, mostly the ones a page offers and now and then any other, and
notes what a player would trip over.

- ``unoffered``: a key the page does not offer (on its key bar, or the
  digits it takes) changed the page;
- ``c_acts``: ``C`` did something in a game other than open its help;
- ``hidden``: the text view lists words the panel does not draw, or the
  panel is not the picture of the screen the text was made from;
- ``stale``: a message said before a key that acted is still up after it.
"""
from __future__ import annotations

import dataclasses
import json
import random
from collections import Counter

from referee import catalogue
from referee.box.screen import layout, render
from referee.i18n import _
from referee.testing import Table

KEYS = "0123456789ABCD*#"


def offered(screen, key: str) -> bool:
    """Whether ``screen`` offers ``key``: on its key bar, or as one of the
    digits it takes (a page that declares none takes none)."""
    if hasattr(screen, "offers"):
        return screen.offers(key)
    return key in dict(screen.keys) or key.isdigit()   # before pages declared what they take


def _signature(t: Table):
    """What a key can change, apart from a passing message and the clock."""
    box = t.box
    shown = {name: dataclasses.replace(s, flash="", big="") for name, s in box.shown.items()}
    try:
        view = json.dumps(box.flow.view(), sort_keys=True, default=str)
    except TypeError:
        view = repr(box.flow.view())
    seq = box.session.seq if box.session is not None else None
    return type(box.flow).__name__, id(box.flow), view, seq, box.game_menu.mode, shown


def _drawn_words(screen) -> set[str]:
    at = layout(screen)
    words: set[str] = set()
    picture = screen.picture[0] if screen.picture else ""
    for part in (at.title, *at.message, *at.lines, at.said, *at.keys, screen.big, screen.qr, picture):
        words.update(part.split())
    return words


def hidden(t: Table) -> list[str]:
    """Words the text view lists that the panel does not draw."""
    screen = t.box.shown["main"]
    drawn = _drawn_words(screen)
    text = t.screen("main")
    missing = []
    for row in text.split("\n"):
        row = row.removeprefix("! ").removeprefix("QR ")
        if row.startswith("[") and row.endswith("]"):
            row = row[1:-1]
        missing += [w for w in row.split() if w not in drawn and w != "QR"]
    if render(screen).tobytes() != t.image("main").tobytes():
        missing.append("<panel differs>")
    return missing


@dataclasses.dataclass
class Walk:
    pages: set = dataclasses.field(default_factory=set)
    screens: int = 0
    keys: int = 0
    found: Counter = dataclasses.field(default_factory=Counter)
    examples: dict = dataclasses.field(default_factory=dict)

    def note(self, kind: str, what: str) -> None:
        self.found[kind] += 1
        self.examples.setdefault(kind, []).append(what)


def _in_game(t: Table) -> bool:
    """A game's page (the table tools are no game: their C sets 5 minutes)."""
    box = t.box
    return box.session is not None and getattr(box.flow, "session", None) is box.session and \
        box.session.name != "tools"


def _back_to_menu(t: Table) -> None:
    for _tries in range(8):
        if t.box.session is None and type(t.box.flow).__name__ == "Menu" and t.box.flow.back is None:
            return
        if _in_game(t):
            t.hold("*", 1.5)
            t.press("D")
            t.press("#")
        else:
            t.press("*")
    t.box.leave()
    t._settle()


def walk_game(t: Table, number: int, rng: random.Random, steps: int, out: Walk) -> None:
    """From the main menu, item ``number``, then ``steps`` keys."""
    _back_to_menu(t)
    t.press(str(number)) if number < 10 else None
    for _step in range(steps):
        box = t.box
        before = box.shown["main"]
        in_game = _in_game(t)
        out.pages.add((box.session.name if box.session else "menu", before.title))
        out.screens += 1
        for word in hidden(t)[:1]:
            out.note("hidden", f"{before.title!r}: {word!r} in {t.screen()!r}")
        keys = [k for k in KEYS if offered(before, k)]
        key = rng.choice(keys) if keys and rng.random() < 0.75 else rng.choice(KEYS)
        said = box._flash
        sig = _signature(t)
        if rng.random() < 0.05:
            t.advance(rng.choice((1.0, 10.0, 40.0)))
            continue
        if box.pending_roll() is not None and rng.random() < 0.2:
            key = rng.choice("#*0123")
        t.press(key)
        out.keys += 1
        acted = _signature(t) != sig
        if acted and not offered(before, key):
            out.note("unoffered", f"{before.title!r} {key}: {before.text!r}")
        if acted and in_game and key == "C" and dict(before.keys).get("C") not in (_("Help"), "◄"):
            out.note("c_acts", f"{before.title!r}: {before.text!r}")
        if acted and said is not None and box._flash is said:
            out.note("stale", f"{before.title!r} {key}: {said.text!r}")


def walk(langs=("en", "cs", "pl", "ru"), steps: int = 150, seed: int = 1) -> Walk:
    out = Walk()
    games = list(catalogue.on_menu())
    for lang in langs:
        # Teach on, as a new box offers it: the walk meets the taught pages too.
        with Table(seed=seed, lang=lang, config={"teach": True}) as t:
            rng = random.Random(f"{seed}/{lang}")
            for number in range(1, len(games) + 2):   # every game, then the table tools
                walk_game(t, number, rng, steps, out)
    return out


if __name__ == "__main__":
    import sys
    import time
    started = time.perf_counter()
    result = walk(steps=int(sys.argv[1]) if len(sys.argv) > 1 else 150)
    print(f"pages {len(result.pages)}, screens {result.screens}, keys {result.keys}, "
          f"{time.perf_counter() - started:.1f} s")
    for kind in ("unoffered", "c_acts", "hidden", "stale"):
        print(kind, result.found[kind])
        for example in result.examples.get(kind, [])[:6]:
            print("   ", example[:300])
