"""Quote what the box, the table view and the replay say of the same moment.

Plays, by keys on the virtual table (``referee.testing.Table``) and with the
key helpers of the games' table tests, the moments where the replay or the
table view once said something other than the box: a Da Vinci Code
tournament's last step and its "next game" steps, Decrypto's last step after
two interceptions and after a tie-break, the Hacker variant's tokens and its
replay by side, Decipher's whose turn, Decipher's and Octiles' winners, a
stopped game, a reveal the box has not yet taken down, Octiles' rounds and
replay addresses written in other digits.  For each it prints:

- ``box``: the public panel's screen, as ``Table.screen("main")`` reads it;
- ``view``: the table view's lines, » line and side scores (``/api/table``);
- ``step``: the replay page's header, step line and state (``/g/N/step/K``).

Run it from a checkout, with its tests on the path, to compare two commits::

    PYTHONPATH=.:tests .venv/bin/python scripts/account_quotes.py
    PYTHONPATH=OTHER:OTHER/tests .venv/bin/python scripts/account_quotes.py Octiles

It asserts nothing: it is a maintainer's record of the words, not a test
(``tests/test_one_account.py`` is the test)."""
from __future__ import annotations

import html
import json
import re
import sys
from collections.abc import Callable

from referee.testing import Table

import test_davinci_table as dv
import test_decrypto_table as de
import test_octiles_table as oc


def words(fragment: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html.unescape(fragment)).split())


def box(t: Table) -> str:
    return " / ".join(line for line in t.screen("main").splitlines() if line.strip())


def view(t: Table) -> str:
    v = json.loads(t.get("/api/table")[2])
    sides = "; ".join(f"{s['name']}{'*' if s['winner'] else ''}: {s['score']!r}" for s in v["sides"])
    return f"lines {v['lines']} · said {v['said']!r} · sides {sides}"


def steps(t: Table, game: int) -> list[dict]:
    return json.loads(t.get(f"/api/g/{game}/steps.json")[2])["steps"]


def step(t: Table, game: int, number: int, query: str = "") -> str:
    status, _h, page = t.get(f"/g/{game}/step/{number}{query}")
    if status != 200:
        return f"HTTP {status}"
    sub = re.search(r'<p class="sub">(.*?)</p>', page, re.S)
    section = re.search(r'<section class="step".*?>(.*?)</section>', page, re.S)
    return f"header {words(sub.group(1)) if sub else ''!r} · {words(section.group(1)) if section else ''}"


def last(t: Table, game: int, query: str = "") -> str:
    return step(t, game, len(steps(t, game)) - 1, query)


def say(label: str, t: Table, game: int | None = None, query: str = "") -> None:
    print(f"- {label}")
    print(f"  - box:  {box(t)}")
    print(f"  - view: {view(t)}")
    if game is not None:
        print(f"  - step: {last(t, game, query)}")


# Three games of three players, each put out by the other two in turn: 19
# points each, a shared win (the keys of test_one_account's tournament).
TIED_TOURNAMENT = (((2, False), (3, False), (1, False), *[(2, True)] * 4, *[(3, True)] * 4),
                   ((3, True),) * 4 + ((1, True),) * 4,
                   ((1, True),) * 4 + ((2, True),) * 4)


def davinci_tournament(t: Table) -> None:
    t.start("davinci", players=3, tournament=True)
    game = t.box.session.id
    t.press("#")
    for number, attacks in enumerate(TIED_TOURNAMENT):
        if number:
            t.type("##")                 # the game's result, then the next game
        for target, hit in attacks:
            dv.attack(t, target, hit)
    say("three-way tie, the last step", t, game)
    for number, s in enumerate(steps(t, game)):
        if s["said"] == "next game":
            print(f"  - step {number} (» next game): {step(t, game, number)}")


def decrypto_interceptions(t: Table) -> None:
    g = de.Game(t)
    game = t.box.session.id
    g.round()
    g.round(intercepted={de.BLACK})
    g.round(intercepted={de.BLACK})
    say("White intercepts twice", t, game)


def decrypto_tie_break(t: Table) -> None:
    g = de.Game(t)
    game = t.box.session.id
    g.round(miscommunicated={de.WHITE, de.BLACK})
    g.round(miscommunicated={de.WHITE, de.BLACK})
    t.type("3#1#")                       # keywords guessed: White 3, Black 1
    say("both miscommunicate twice, keywords 3:1", t, game)


def decrypto_miscommunicated(t: Table) -> None:
    g = de.Game(t)
    game = t.box.session.id
    g.round(miscommunicated={de.WHITE})
    g.round(miscommunicated={de.WHITE})
    say("White miscommunicates twice", t, game)


def decrypto_reveal(t: Table) -> None:
    g = de.Game(t)
    codes = g.codes()
    g.clues()
    for seat in g.coding:
        g.guess(codes[seat])
    say("round 1's last reveal, before #", t)
    t.press("#")
    say("after #", t)


def hacker(t: Table) -> None:
    g = de.Game(t, variant="hacker")
    game = t.box.session.id
    g.round(miscommunicated={de.TEAM})
    say("Hacker, after the Team's miscommunication", t)
    for _ in range(4):
        g.round()
    say("Hacker, the Team holds out", t, game)
    for query in ("", "?side=white", "?side=team", "?side=hacker"):
        print(f"  - step 1{query}: {step(t, game, 1, query)}")


def decipher(t: Table) -> None:
    t.start("decipher", players=["Ann", "Bo", "Cy"])
    game = t.box.session.id
    say("Decipher, the first page", t)
    t.press("#")
    say("Decipher, the first turn", t)
    t.type("D3#")                        # nobody guesses: the maker takes five
    for _round in range(2):
        t.press("#")
        t.type("#D3#")
    say("Decipher, three makers take five each", t, game)


def pass_turn(t: Table) -> None:
    """A pass: under More now, once on C."""
    getattr(oc, "pass_turn", lambda t: t.press("C"))(t)


def octiles_win(t: Table) -> None:
    oc.start(t, *(tile for tile, _s, _p in oc.WINNING), players=2, runners=3)
    game = t.box.session.id
    for number, (tile, seat, played) in enumerate(oc.WINNING):
        while not oc.playing(oc.main(t), seat.title(), tile):
            t.press("#") if "Tile off space" in oc.main(t) else pass_turn(t)
        if number == 3:
            say("Octiles, before the fourth tile", t)
        oc.move(t, *played)
    say("Octiles, West home", t, game)


def octiles_dealer(t: Table) -> None:
    oc.start(t, "T05", "T06", "T07", players=3, mode="dealer")
    game = t.box.session.id
    t.type("9#")                         # no turning, no runners: straight on
    t.type("9#")
    t.press("#")
    pass_turn(t)
    t.type("D32#")                       # who has finished: North, yes
    t.press("#")
    t.type("D31#")                       # West too: all but East are home
    say("Octiles dealer mode, North then West home", t, game)


def octiles_stopped(t: Table) -> None:
    oc.start(t, "T02", players=2, runners=3)
    game = t.box.session.id
    t.type("D2#")                        # More, end the game, yes
    say("Octiles stopped at once", t, game)


def decipher_stopped(t: Table) -> None:
    t.start("decipher", players=["Ann", "Bo"])
    game = t.box.session.id
    t.type("#D")
    t.hold("*", 1.0)                     # the game menu
    t.type("D#")                         # end this game: yes
    say("Decipher ended from the game menu", t, game)


def unicode_digits(t: Table) -> None:
    dv.start(t, players=2)
    game = t.box.session.id
    for _ in range(4):
        dv.attack(t, 2, hit=True)
    print("- replay addresses")
    for path in (f"/g/{game}/step/1", f"/g/{game}/step/\u0661", "/g/\u0661/step/1", f"/g/{game}/step/\U0001d7d9"):
        print(f"  - {path}: HTTP {t.get(path)[0]}")


SCENARIOS: dict[str, Callable[[Table], None]] = {
    "Da Vinci Code tournament": davinci_tournament,
    "Decrypto: interceptions": decrypto_interceptions,
    "Decrypto: tie-break": decrypto_tie_break,
    "Decrypto: miscommunications": decrypto_miscommunicated,
    "Decrypto: a reveal": decrypto_reveal,
    "Decrypto: Hacker": hacker,
    "Decipher": decipher,
    "Octiles": octiles_win,
    "Octiles, dealer mode": octiles_dealer,
    "Octiles stopped": octiles_stopped,
    "Decipher stopped": decipher_stopped,
    "Replay addresses": unicode_digits,
}


def main() -> None:
    """Every scenario, or those whose titles hold one of the arguments."""
    wanted = sys.argv[1:]
    for title, play in SCENARIOS.items():
        if wanted and not any(w in title for w in wanted):
            continue
        print(f"\n### {title}")
        with Table(seed=7, lang="en") as t:
            try:
                play(t)
            except (AttributeError, KeyError, TypeError) as error:   # an older checkout's helpers and pages
                print(f"- could not play: {type(error).__name__}: {error}")


if __name__ == "__main__":
    main()
