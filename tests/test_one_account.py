"""The box's public screen, the table view (``/table``) and the replay's
steps say one account of a game (``referee.account``): complete games of
all five games and their variants (Decrypto's Hacker, a Da Vinci Code
tournament, games stopped before their end) are played by keys, and after
every key the table view's account is the box's, field by field, its lines
are the box's page and the account's turn or result; once a game is over,
each step of its replay (``steps.json``) says what the box's screen said
after that step.

The games themselves are keyed by the helpers of each game's own table
tests, so that they follow the keys as those tests do."""
from __future__ import annotations

import dataclasses
import json
import re

import msgspec
import pytest

from referee.box import channel_end
from referee import i18n
from referee.said import decrypto as said_decrypto
from referee.box.screen import SAID, layout, render
from referee.testing import Table
import test_davinci_table as dv
import test_decrypto_table as de
import test_octiles_table as oc
import test_osmisifry_table as osm
from test_table_view import view, watched

# What the replay cannot know of a step: which page a key turned to after it.
BOX_ONLY = ("phase", "outcome", "staged")


class Watched:
    """A table whose every key is followed by a look at the box, the table
    view and (by step) what the replay will say."""

    def __init__(self, t: Table) -> None:
        self.t = t
        self.keys = 0
        self.by_step: dict[int, dict[int, dict]] = {}   # game id -> step number -> the box's account
        self.over: set[int] = set()                      # games whose end the panel has drawn
        self.standing: dict[int, int] = {}               # game id -> its step number at the last key
        self.short_rows = 0                              # rows of a team's tokens in the box's short words
        watched(t)
        self._up, self._start = t.up, t.start
        t.up, t.start = self.up, self.start

    def start(self, name: str, **options) -> None:
        self._start(name, **options)
        self.check()

    def up(self, key: str) -> None:
        self._up(key)
        self.keys += 1
        self.check()

    def check(self) -> None:
        t = self.t
        box = channel_end.account(t.box)
        v = view(t)
        if box is None:
            assert v["account"] is None, v
            return
        told = msgspec.to_builtins(box)
        assert v["account"] == told, (self.keys, t.screen())
        self.drawn(box)
        # The box's words are its public screen's own: its page's title, and
        # the » line where the panel draws it.
        if t.box.game_menu.mode is None:
            assert box.phase == t.box.shown["main"].title
        main = t.box.shown["main"]
        drawn = layout(dataclasses.replace(main, flash="")).said.replace("\n", " ").removeprefix(SAID)
        if t.box.game_menu.mode is None and t.box.session.can_undo():   # (before the first move: a hint)
            last = t.box.game_menu.said()
            assert box.said == (drawn or (last if last in main.lines else ""))
        # The view's lines: the box's page and whose turn, or once it is over the result and why.
        if box.over and not box.outcome:
            assert v["lines"] == [x for x in (box.result, box.reason) if x]
        else:
            stage = box.stage if box.staged or not box.phase else ""
            assert v["lines"] == [x for x in dict.fromkeys((box.phase, stage, box.turn)) if x]
            # The round the page draws on a row of its own, the view says too.
            assert t.box.game_menu.mode is not None or box.staged == (box.stage in main.lines), t.screen()
        assert [s["name"] for s in v["sides"]] == [s.name for s in box.sides]
        assert [s["winner"] for s in v["sides"]] == [s.winner for s in box.sides]
        # The replay says every step's action, as the box's undo question
        # does, where the panel may have had no row for it.  It says it in
        # English, as every file of the box (docs/steps-json.md): a box
        # speaking another language is compared in English, but for its
        # » line, which it words once, as the action is made.
        session = t.box.session
        with i18n.speaking("en"):
            english = msgspec.to_builtins(channel_end.account(t.box))
        said = t.box.game_menu.said() if session.can_undo() else ""
        record = {**english, "said": said if t.box.config.lang == "en" else None}
        steps, number = self.by_step.setdefault(session.id, {}), _standing(t)
        if self.standing.get(session.id) == number:
            # The stage right after the step's action, as the replay tells
            # it: a round decoded stays on show until # turns to the next.
            record["stage"] = steps[number]["stage"]
        self.standing[session.id] = number
        steps[number] = record

    def drawn(self, box) -> None:
        """The public panel, as its controller holds it, says the account's
        words wherever it draws a turn or a side's tokens, and the reason
        on the page a game ends on."""
        t = self.t
        main = t.box.shown["main"]
        assert t.image("main").tobytes() == render(main).tobytes(), t.screen()   # the pixels are this screen
        if t.box.game_menu.mode is not None:
            return
        rows = layout(dataclasses.replace(main, flash="")).lines     # beneath a passing message
        body = " ".join(rows)
        names = [s.name for s in box.sides]
        told = [s.tokens for s in box.sides if s.tokens]
        # Each field's words in any state: a row in that form must be the account's.
        for field in told[:1]:
            shown = re.findall(form(field, names), body)
            assert in_order(shown, told), (shown, told, t.screen())
        if box.turn:
            assert set(re.findall(form(box.turn, names), body)) <= {box.turn}, (box.turn, t.screen())
        if box.turn in main.lines:
            # A passing message over the page never takes the row of whose turn it is.
            assert box.turn in layout(main).lines, (box.turn, t.screen())
        if box.game == "decrypto":
            self.numbers(box, rows)
        # A row shaped like the stage ("Round 2 of 5") is the account's stage.
        assert set(re.findall(form(box.stage, names), body)) <= {box.stage}, (box.stage, t.screen())
        session = t.box.session
        if box.over and box.reason and not box.outcome and session.id not in self.over:
            self.over.add(session.id)          # the last reveal taken down: the result page, with why
            assert " ".join(body.split()).startswith(box.reason), t.screen()

    def numbers(self, box, rows: list[str]) -> None:
        """A row in the box's short words of a team's tokens ("White: int 1,
        mis 0") has the account's numbers of that team, which the phones
        word long; "No tokens yet." only while the account counts none."""
        for side in box.sides:
            if len(side.counts) != 2:      # the Hacker's and the Team's are worded as the phones word them
                continue
            shape = capture(said_decrypto.tokens_short(side))
            for row in rows:
                if found := re.fullmatch(shape, row):
                    self.short_rows += 1
                    assert tuple(map(int, found.groups())) == said_decrypto.held_by(side), (row, side)
        if i18n._("No tokens yet.") in rows:
            assert not any(c.n for s in box.sides for c in s.counts), (box.sides, self.t.screen())

    def replay(self, game: int, stopped: bool = False) -> list[dict]:
        """The replay's steps of ``game`` against what the box said after
        each; returns the steps' accounts."""
        status, _h, body = self.t.get(f"/api/g/{game}/steps.json")
        assert status == 200
        steps = json.loads(body)["steps"]
        seen = self.by_step[game]
        assert sorted(seen) == list(range(len(steps))), "a step the box never showed"
        for number, step in enumerate(steps):
            told, box = step["account"], dict(seen[number])
            if stopped and number == len(steps) - 1:
                # Ended from the game menu: the box went to the main menu;
                # the last step says the game ended, and nobody won.
                assert told["over"] and told["stopped"] and told["winners"] == []
                assert told["result"] == "Ended early: nobody wins" and told["turn"] == ""
                told = {k: v for k, v in told.items() if k not in ("over", "stopped", "result", "turn")}
                box = {k: v for k, v in box.items() if k not in ("over", "stopped", "result", "turn")}
            assert told["said"] == step["said"]
            if box["said"] is None:
                box["said"] = told["said"]
            if box["outcome"]:
                box["turn"] = told["turn"]      # nobody's turn on a reveal; the replay cannot tell it is up
            for field in BOX_ONLY:
                box.pop(field)
                told.pop(field)
            assert told == box, (game, number, step["said"])
        return [s["account"] for s in steps]


def form(field: str, names: list[str]) -> str:
    """A pattern of an account's field in any state: its numbers and its
    players' or teams' names let vary, the rest its words ("Turn: Bo":
    "Turn: (?:Ann|Bo|Cy)")."""
    anyone = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
    parts = re.split(f"({anyone})", field) if names else [field]
    return "".join(f"(?:{anyone})" if odd % 2 else r"\d+".join(re.escape(x) for x in re.split(r"\d+", part))
                   for odd, part in enumerate(parts))


def capture(text: str) -> str:
    """A pattern of ``text`` with each of its numbers let vary, and caught."""
    return r"(\d+)".join(re.escape(part) for part in re.split(r"\d+", text))


def in_order(shown: list[str], told: list[str]) -> bool:
    """Whether ``shown`` are some of ``told``, in its order."""
    rest = iter(told)
    return all(x in rest for x in shown)


def _standing(t: Table) -> int:
    """How many player actions of the game on the box stand (the replay's step number)."""
    from referee.web import steps
    store = t.box.store
    return len(steps.build(store, store.game(t.box.session.id)).steps) - 1


@pytest.fixture
def w():
    with Table(seed=7, lang="en") as t:
        yield Watched(t)


class Counted(de.Game):
    """Decrypto keyed as ``de.Game`` keys it, counting its rounds itself
    rather than reading them off a team's screen in English."""

    played = 0

    @property
    def round_number(self) -> int:
        return self.played + 1

    def round(self, intercepted=(), miscommunicated=()) -> dict[int, str]:
        codes = super().round(intercepted, miscommunicated)
        self.played += 1
        return codes


@pytest.mark.parametrize("lang", ["cs", "pl", "ru"])
def test_DE1_DE10_DC11_each_language_says_one_account_on_the_panel_and_the_phones(lang):
    """One complete game of each kind of side (teams' tokens, the Hacker's,
    players' turns) in each other language, the panel's short words of a
    team's tokens read back to the account's numbers."""
    with Table(seed=7, lang=lang) as t:
        w = Watched(t)
        g = Counted(t)
        game = t.box.session.id
        g.round()
        g.round(intercepted={de.BLACK}, miscommunicated={de.BLACK})
        g.round(intercepted={de.BLACK})
        assert w.short_rows >= 2                       # both teams' tokens drawn in this language's words
        end = last(w, game)
        assert end["winners"] == ["White"] and end["reason"] == "White intercepted twice."
        t.press("#")
        h = Counted(t, variant="hacker")
        game = t.box.session.id
        for _round in range(5):
            h.round(miscommunicated={de.TEAM} if _round == 0 else ())
        end = last(w, game)
        assert end["winners"] == ["Team"] and end["reason"] == "The Team held out for 5 rounds."
        t.press("#")
        t.start("decipher", players=["Ann", "Bo"])
        game = t.box.session.id
        for _round in range(4):
            t.type("#D3#")                             # nobody guesses: the maker takes five
            t.press("#")
        end = last(w, game)
        assert end["over"] and end["result"] == "Ann and Bo share the win"


def last(w: Watched, game: int, stopped: bool = False) -> dict:
    return w.replay(game, stopped)[-1]


def test_DE1_a_decrypto_game_won_by_interceptions_says_so_everywhere(w):
    t = w.t
    g = de.Game(t)
    game = t.box.session.id
    g.round()
    g.round(intercepted={de.BLACK})     # White intercepts Black's code
    # The box words the account's numbers short, the table view long.
    assert "White: int 1, mis 0" in t.screen() and "Black: int 0, mis 0" in t.screen()
    sides = {s.name: s.counts for s in channel_end.account(t.box).sides}
    assert [(c.kind, c.n) for c in sides["White"]] == [("interceptions", 1), ("miscommunications", 0)]
    assert view(t)["sides"][0]["score"] == "1 interception, 0 miscommunications"
    g.round(intercepted={de.BLACK})
    assert w.keys > 60
    end = last(w, game)
    assert end["winners"] == ["White"] and end["reason"] == "White intercepted twice."
    assert end["result"] == "White wins"


def test_DE1_DE9_decrypto_miscommunications_and_a_keyword_tie_break_say_why(w):
    t = w.t
    g = de.Game(t)
    first = t.box.session.id
    g.round(miscommunicated={de.BLACK})
    g.round(miscommunicated={de.BLACK})
    t.press("#")
    end = last(w, first)
    assert end["reason"] == "Black miscommunicated twice." and end["winners"] == ["White"]
    g = de.Game(t)
    second = t.box.session.id
    g.round(miscommunicated={de.WHITE, de.BLACK})
    g.round(miscommunicated={de.WHITE, de.BLACK})
    t.type("3#1#")
    end = last(w, second)
    assert end["winners"] == ["White"]
    assert end["reason"] == "Tie: both at 2 miscommunications. Score -2:-2. Keywords 3:1."


def test_DE10_the_hacker_variant_counts_the_hackers_tokens_and_never_the_teams(w):
    t = w.t
    g = de.Game(t, variant="hacker")
    game = t.box.session.id
    g.round(miscommunicated={de.TEAM})
    assert view(t)["sides"][0]["score"] == "Hacker tokens: 1 of 2"     # the box's words
    # After #, the box's page is round 2's, and so is the account's stage, which the page draws.
    assert t.screen().splitlines()[0] == "[Round 2: encryptors]" and "Round 2 of 5" in t.screen().splitlines()
    assert channel_end.account(t.box).stage == "Round 2 of 5"
    for _ in range(4):
        g.round()
    accounts = w.replay(game)
    assert {s["tokens"] for a in accounts for s in a["sides"] if s["name"] == "Team"} == {""}
    assert accounts[-1]["reason"] == "The Team held out for 5 rounds." and accounts[-1]["winners"] == ["Team"]
    page = t.get(f"/g/{game}/step/{len(accounts) - 1}")[2]
    assert "?side=team" in page and "?side=hacker" not in page        # the Hacker keeps nothing hidden
    assert t.get(f"/g/{game}/step/1?side=hacker")[0] == 404 and t.get(f"/g/{game}/step/1?side=team")[0] == 200


def test_DV11_a_tournament_names_its_winners_and_each_game_under_its_own_number(w):
    t = w.t
    t.start("davinci", players=3, tournament=True)
    game = t.box.session.id
    t.press("#")
    for target, hit in ((2, False), (3, False), (1, False), *(((2, True),) * 4), *(((3, True),) * 4)):
        dv.attack(t, target, hit)
    t.type("##")
    for target in (3,) * 4 + (1,) * 4:
        dv.attack(t, target, hit=True)
    t.type("##")
    for target in (1,) * 4 + (2,) * 4:
        dv.attack(t, target, hit=True)
    accounts = w.replay(game)
    assert accounts[-1]["winners"] == ["Player 1", "Player 2", "Player 3"]
    assert accounts[-1]["result"] == "Player 1, Player 2 and Player 3 share the win"
    assert [a["stage"] for a in accounts if a["said"] == "next game"] == ["Game 2 of 3", "Game 3 of 3"]


def test_DV8_a_single_da_vinci_code_game_names_its_winner(w):
    t = w.t
    dv.start(t, players=2)
    game = t.box.session.id
    for _ in range(4):
        dv.attack(t, 2, hit=True)
    end = last(w, game)
    assert end["winners"] == ["Player 1"] and end["result"] == "Player 1 wins"


def test_DC11_decipher_says_whose_turn_and_its_winners(w):
    t = w.t
    t.start("decipher", players=["Ann", "Bo", "Cy"])
    game = t.box.session.id
    assert view(t)["lines"][1] == "Turn: Bo"
    t.type("#D3#")
    t.hold("*", 1.0)
    t.press("#")                       # "nobody guesses" taken back: Bo's turn again
    assert view(t)["lines"][1] == "Turn: Bo"
    t.type("D3#")
    t.press("#")
    for _round in range(2):
        t.type("#D3#")                 # nobody guesses: the maker takes five
        t.press("#")
    end = last(w, game)
    assert end["winners"] == ["Ann", "Bo", "Cy"] and end["result"] == "Ann, Bo and Cy share the win"


def test_DC10_decipher_s_account_gives_each_player_s_points_as_points(w):
    """Each player's points so far, where the account keeps points (the
    replay's rows say them), and no tokens counted where it keeps those."""
    t = w.t
    t.start("decipher", players=["Ann", "Bo", "Cy"])
    t.type("#D3#")                     # nobody guesses: the maker takes five
    t.press("#")
    totals = t.box.session.rules.summary(t.box.session.state).totals
    assert max(totals.values()) > 0
    sides = channel_end.account(t.box).sides
    assert {s.name: s.points for s in sides} == totals
    assert all(s.counts == [] for s in sides)


def test_OC9_octiles_counts_rounds_and_names_its_winner(w):
    t = w.t
    oc.start(t, *(tile for tile, _s, _p in oc.WINNING), players=2, runners=3)
    game = t.box.session.id
    oc.play_to_the_win(t)
    accounts = w.replay(game)
    assert accounts[-1]["winners"] == ["West"] and accounts[-1]["result"] == "West wins"
    assert t.screen().splitlines()[0] == "[West won!]"             # the result page's title names the account's
    assert all(a["stage"].startswith("Round ") for a in accounts)


def test_OC8_an_octiles_game_stopped_with_nobody_home_says_nobody_wins(w):
    t = w.t
    oc.start(t, "T02", players=2, runners=3)
    game = t.box.session.id
    t.type("D2#")                      # More, end the game, yes
    end = last(w, game)
    assert end["over"] and end["stopped"] and end["winners"] == []
    assert end["result"] == "Ended early: nobody wins"


def test_OS13_osmisifry_names_its_best_agent(w):
    t = w.t
    t.start("osmisifry", players=3)
    game = t.box.session.id
    for step in osm.SHORT_GAME:
        osm.run(t, *step)
    end = last(w, game)
    assert end["winners"] == ["Player 1"] and end["result"] == "Player 1 wins"
    # The result page names the account's winner with the account's total.
    [best] = [s for s in end["sides"] if s["winner"]]
    page = w.t.screen().splitlines()
    assert page[1:4] == ["Best agent", "Player 1", f"Total {best['points']}"], page


def test_a_game_ended_from_the_game_menu_says_nobody_wins_on_its_last_step(w):
    t = w.t
    t.start("decipher", players=["Ann", "Bo"])
    game = t.box.session.id
    t.type("#D")
    t.hold("*", 1.0)                   # the game menu
    t.type("D#")                       # end this game: yes
    assert t.box.session is None
    end = last(w, game, stopped=True)
    assert end["stage"] == "Round 1/4"
    # The replay's header says the result in the step's words, not a word of its own.
    for number in (0, len(w.replay(game, stopped=True)) - 1):
        status, _h, page = t.get(f"/g/{game}/step/{number}")
        header = re.search(r'<p class="sub">(.*?)</p>', page, re.S)
        assert status == 200 and header is not None
        assert end["result"] in " ".join(re.sub(r"<[^>]+>", " ", header.group(1)).split()), header.group(1)


def test_DC4_decipher_s_first_page_keeps_whose_turn_under_its_start_hint(w):
    t = w.t
    t.start("decipher", players=["Ann", "Bo", "Cy"])
    main = t.box.shown["main"]
    assert main.flash == "Hold *: undo, menu" and main.title == "1/3 Maker: Ann"
    t.advance(5.0)                     # the start's hint stays until a key
    assert t.screen().splitlines()[:3] == ["[1/3 Maker: Ann]", "! Hold *: undo, menu", "Turn: Bo"]
    assert view(t)["lines"] == ["1/3 Maker: Ann", "Turn: Bo"]


def test_OC9_the_table_view_says_the_round_octiles_page_draws(w):
    t = w.t
    oc.start(t, "T01", players=2, runners=3)
    assert "Round 1" in t.box.shown["main"].lines
    assert view(t)["lines"] == ["West to play", "Round 1"]
