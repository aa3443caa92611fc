"""A first game, taught: with Teach on, the first time each phase comes up
the box shows its page before it, and after each referee decision it says
why, citing the rule; with Teach off the same keys play the same game.

Each game is played by keys through the virtual table; a taught page is
read (``#`` through its pages) before the game's next key, as a table
would.
"""
from __future__ import annotations

import inspect
import string

import pytest

from games import davinci, decipher, decrypto, octiles, osmisifry
from referee import catalogue, i18n
from referee.box.flows.teacher import phase
from referee.box.screen import LINES, wrap
from referee.glossary import Ruling
from referee.i18n import _
from referee.testing import Table

NAMES = ["Ann", "Bo", "Cyril"]


class Hand:
    """A table playing by keys: each key waits until the taught pages up
    have been read; what they were, and the phases met, are kept."""

    def __init__(self, t: Table) -> None:
        self.t = t
        self.phases: list[str] = []       # each phase the game came to, in order, once
        self.taught: list[str] = []       # the phase of each page shown before a phase
        self.rulings: list[str] = []      # the WHY key of each ruling page
        self.shown: list[str] = []        # the public screen of each taught page, as shown
        self.early: list[str] = []        # phases met before their page was read

    def _look(self) -> None:
        t = self.t
        now = phase(t.box.session)
        if now not in self.phases:
            self.phases.append(now)
        while (page := t.box.teacher.owed()) is not None:
            if page.why:
                self.rulings.append(page.why)
            else:
                self.taught.append(page.phase)
            while t.box.teacher.owed() == page:
                self.shown.append(t.screen())
                t.press("#")
        if t.box.session.seq != getattr(self, "_seq", None) and now not in self.taught and self._owed(now):
            self.early.append(now)
        self._seq = t.box.session.seq

    def _owed(self, now: str) -> bool:
        return self.t.box.teacher.lesson.on and now in catalogue.load(
            catalogue.GAMES[self.t.box.session.name].said).TEACH

    def press(self, key: str) -> None:
        self._look()
        self.t.press(key)
        self._look()

    def type(self, keys) -> None:
        for key in keys:
            self.press(key)


def _decrypto(h: Hand) -> None:
    """Three rounds: codes decoded in round 1; in round 2 Black intercepts
    White's code and then misreads its own; in round 3 Black's code is
    intercepted too."""
    t = h.t
    for _round in range(3):
        h.type(["team1", "team1"])
        t.advance(31)
        h.type(["team2", "team2"])
        for seat in (0, 1):
            state = t.box.session.state
            code = "".join(map(str, state.codes[seat]))
            wrong = "".join(str(int(d) % 4 + 1) for d in code)
            if state.round > 1:
                intercepted = seat == 0 or state.round == 3
                h.type((code if intercepted else wrong) + "#")
            h.type((wrong if seat == 1 and state.round == 2 else code) + "#")
            h.type("#")


def decrypto_rounds(*rounds):
    """Decrypto by keys, round by round: for White's code, then Black's,
    whether the other team intercepts it (from round 2) and whether its
    own team decodes it."""
    def play(h: Hand) -> None:
        t = h.t
        for plan in rounds:
            h.type(["team1", "team1"])
            t.advance(31)
            h.type(["team2", "team2"])
            for seat, (intercepted, decoded) in enumerate(plan):
                state = t.box.session.state
                code = "".join(map(str, state.codes[seat]))
                wrong = "".join(str(int(d) % 4 + 1) for d in code)
                if state.round > 1:
                    h.type((code if intercepted else wrong) + "#")
                h.type((code if decoded else wrong) + "#")
                h.type("#")
    return play


QUIET = ((False, True), (False, True))   # a round of codes decoded, none intercepted
# Decrypto's ends [DE-1] [DE-9]: the keys of each, the rulings said on the
# way, the result page's title.
ENDS = {
    "interceptions": (decrypto_rounds(QUIET, ((True, True), (False, True)), ((True, True), (False, True))), "",
                      ["Black has two interceptions: Black wins."], "Black wins!"),
    "miscommunications": (decrypto_rounds(((False, False), (False, True)), ((False, False), (False, True))), "",
                          ["White has two miscommunications: White loses."], "Black wins!"),
    "score": (decrypto_rounds(QUIET, ((True, True), (False, True)), *[QUIET] * 6), "",
              ["Round 8 over: the score decides, +1 per interception, -1 per miscommunication.",
               "Interceptions less miscommunications: White 0, Black 1. Black wins."], "Black wins!"),
    "keywords": (decrypto_rounds(*[QUIET] * 8), "3#1#",
                 ["Round 8 over: the score decides, +1 per interception, -1 per miscommunication.",
                  "Score White 0, Black 0: a tie still. Each team guesses the other's keywords.",
                  "Keywords guessed: White 3, Black 1. White wins."], "White wins!"),
    "shared": (decrypto_rounds(*[QUIET] * 8), "2#2#",
               ["Score White 0, Black 0: a tie still. Each team guesses the other's keywords.",
                "Keywords guessed: White 2, Black 2. Still a tie: both teams win."], "Both teams win!"),
}


def _osmisifry(h: Hand) -> None:
    """Two rounds of creation, ended by agreement; the booklets passed,
    decoded and scored."""
    t = h.t
    faces = iter(range(64))
    for _pick in range(2):
        h._look()
        while phase(t.box.session) == "roll_letter":
            face = next(faces)
            t.dice.next(face // 8 + 1, face % 8 + 1)   # the dice said, as the keys are
            h.press("#")
        h.type("123")
    h.type("D#")    # the table ends the creation
    t.dice.next(6)
    h.type("#")     # the direction rolled: to the right
    h.type("#")     # the booklets handed over: the five minutes
    h.type("##")    # every officer done early
    for _booklet in NAMES:
        h.type("3#2#1#B")


def _decipher(h: Hand) -> None:
    """Three rounds, one a maker: a NO and YESes, a wrong guess and a right one."""
    for maker in range(3):
        seekers = [str(seat + 1) for seat in range(3) if seat != maker]
        h.type("#BAA")
        h.type([seekers[0], "B", seekers[1], "A"])
        if maker < 2:
            h.press("#")


def _davinci(h: Hand) -> None:
    """Two misses, then Ann hits all four of Bo's tiles."""
    h.type("#2B1B")
    h.type("2A" * 4)


def _octiles(h: Hand) -> None:
    """Two passes, a tile laid and turned to fit, then the game ended from More."""
    h.type("D4#")
    h.type("D4#")
    for space in range(1, 18):
        before = h.t.box.session.seq
        h.type(f"{space}##")
        if "which move?" in h.t.screen():
            h.press("1")
        if h.t.box.session.seq > before:
            break
        h.type("**")
    h.type("D2#")


GAMES = {
    "decrypto": (_decrypto, {}, {"no_intercept", "intercepted", "miscommunicated", "won"}),
    "osmisifry": (_osmisifry, {"players": NAMES}, {"direction", "agent", "officer", "result"}),
    "decipher": (_decipher, {"players": NAMES}, {"no", "yes", "wrong", "right", "scored"}),
    "davinci": (_davinci, {"players": NAMES[:2]}, {"miss", "hit", "out", "won"}),
    "octiles": (_octiles, {"players": 2}, {"pass"}),
}
RULES = {"decrypto": decrypto, "osmisifry": osmisifry, "decipher": decipher, "davinci": davinci,
         "octiles": octiles}


def played(game: str, teach: bool) -> tuple[Hand, list, list]:
    """A game of ``game`` played by its keys: the hand, the events in
    effect (without their times) and the score log's entries of it."""
    script, options, _rulings = GAMES[game]
    with Table(seed=7) as t:
        t.start(game, teach=teach, **options)
        hand = Hand(t)
        script(hand)
        hand._look()
        events = [type(event).__name__ + repr(event) for event, _at in t.box.session.events]
        log = [{key: value for key, value in entry.items() if key not in ("started", "ended", "id")}
               for entry in t.log()]
    return hand, events, log


@pytest.mark.parametrize("game", GAMES)
def test_a_taught_game_shows_each_phases_page_once_before_it_and_says_why_it_decided(game):
    taught, events, log = played(game, teach=True)
    said = catalogue.load(catalogue.GAMES[game].said)
    owed = [p for p in taught.phases if p in said.TEACH]
    assert owed and taught.taught == owed           # once each, in the order the phases came
    assert taught.early == []                       # none came after its phase had begun
    assert GAMES[game][2] <= set(taught.rulings)    # each decision of the game, said
    source = inspect.getsource(RULES[game])
    for key in taught.rulings:                      # ... citing a rule the rules follow
        ruling: Ruling = said.WHY[key]
        assert f"[{ruling.rule}]" in source, (key, ruling.rule)
    untaught, plain_events, plain_log = played(game, teach=False)
    assert untaught.taught == untaught.rulings == untaught.shown == []
    assert (events, log) == (plain_events, plain_log)   # the same keys, the same game and score log


def test_DE_6_an_interception_is_said_with_its_rule_on_the_public_screen():
    hand, _events, _log = played("decrypto", teach=True)
    shown = [" ".join(screen.split("\n")[1:-1]) for screen in hand.shown if screen.startswith("[Why]")]
    assert "Round 1: nobody intercepts: you know nothing of the other team's words yet." in shown
    assert "Black's guess is White's code: Black takes an interception token. Two win." in shown


@pytest.mark.parametrize("end", ENDS)
def test_DE1_DE9_a_taught_decrypto_says_why_it_ended_as_it_did(end):
    """Won by interceptions, lost by miscommunications, the score after
    round 8, the tie-break by keywords guessed, and a tie that stays."""
    script, counts, said, title = ENDS[end]
    with Table(seed=7) as t:
        t.start("decrypto", teach=True)
        hand = Hand(t)
        script(hand)
        for key in counts:                   # [DE-9] each team's count of the other's keywords guessed
            hand.press(key)
        hand._look()
        result = t.screen()
    why = [" ".join(screen.split("\n")[1:-1]) for screen in hand.shown if screen.startswith("[Why]")]
    assert [line for line in why if line in said] == said   # each said, in this order
    assert result.startswith(f"[{title}]")


def test_DE10_the_hackers_interceptions_are_said_as_the_hackers_not_as_a_teams():
    """The Hacker's interceptions [DE-10], its guess right or the Team's own
    decode wrong, are said naming the Hacker and the Team as one player
    against a team."""
    from test_decrypto_rules import Game, quiet_rounds
    said = catalogue.load(catalogue.GAMES["decrypto"].said)
    g = Game(variant="hacker")

    def rulings(play) -> list[str]:
        made, state, done = [], g.state, len(g.events)
        play()
        for event, at in g.events[done:]:
            before, state = state, decrypto.apply(state, event, at)
            made += [_(said.WHY[key].text).format(**fields) for key, fields in said.decisions(event, before, state)]
        return made

    assert rulings(lambda: g.play_round({1: "123"}, decode={1: "132"}))[-1:] == [
        "The Team misread its own code: an interception token for the Hacker."]
    quiet_rounds(g, 1)
    assert rulings(lambda: g.play_round({1: "341"}, intercept={1: "341"})) == [
        "The Hacker guessed the Team's code: an interception token. Two win.",
        "Hacker has two interceptions: Hacker wins."]


def test_DE_7_the_sand_timer_running_out_in_round_1_draws_its_ruling_in_its_one_frame():
    # No key ends the 30 seconds: the frame of their end is the ruling's
    # page, not the phase's page under it first.
    with Table(seed=7) as t:
        hand = Hand(t)
        t.start("decrypto", teach=True)
        hand._look()
        hand.press("team1")
        hand.press("team1")                              # White is done: Black has 30 seconds
        t.advance(29.5)
        main = t.box.devices.displays["main"]
        pictures = main.pictures
        t.advance(1.0)                                   # the time up
        assert main.pictures - pictures == 1
        assert t.screen().startswith("[Why]") and "nobody intercepts" in " ".join(t.screen().split())


SAMPLE = {"roll": "6", "points": "12", "names": "Ann, Bo, Cyril", "rounds": "8", "w": "1", "b": "0"}   # every other field: a name
# The sides a ruling names as the box fills its fields: Decrypto's teams
# either way round, and the Hacker where that variant makes the ruling
# [DE-10]; every other field, a player's name.
TEAMS = [{"team": a, "other": b, "white": "White", "black": "Black"} for a, b in
         (decrypto.TEAMS, decrypto.TEAMS[::-1])]
HACKER = [{"team": "Hacker"}]
SIDES = {"decrypto": {key: TEAMS + (HACKER if key == "won" else [])
                      for key in catalogue.load(catalogue.GAMES["decrypto"].said).WHY}}


def taught_texts(game: str):
    """Each TEACH and WHY text of ``game``: its key, and the text."""
    said = catalogue.load(catalogue.GAMES[game].said)
    yield from said.TEACH.items()
    yield from ((key, ruling.text) for key, ruling in said.WHY.items())


@pytest.mark.parametrize("lang", i18n.LANGS)
def test_each_taught_page_and_ruling_fits_one_screen(lang):
    """Four lines of 21 columns under the title, with each player's name a
    five-letter one, each side named as the box names it, in the language,
    and a tie of three named."""
    longer = []
    with i18n.speaking(lang):
        for game in GAMES:
            for key, text in taught_texts(game):
                said = _(text)
                for sides in SIDES.get(game, {}).get(key, [{}]):
                    fields = {name: _(sides[name]) if name in sides else SAMPLE.get(name, "Cyril")
                              for _lit, name, _spec, _conv in string.Formatter().parse(said) if name}
                    if len(wrap(said.format(**fields))) > LINES:
                        longer.append((game, key, said.format(**fields)))
    assert longer == []


@pytest.mark.parametrize("game", GAMES)
def test_a_taught_game_with_its_players_names_turns_no_page(game):
    hand, _events, _log = played(game, teach=True)
    assert hand.shown and not [screen for screen in hand.shown if " 1/2]" in screen.split("\n")[0]]


def setup_page(t: Table, digit: str) -> str:
    t.press(digit)
    return t.screen()


def teach_line(t: Table, game_digit: str) -> str:
    """The setup's Teach line, turning the form's pages to it."""
    t.press(game_digit)
    for _page in range(4):
        found = [line for line in t.screen().splitlines() if "Teach:" in line]
        if found:
            return found[0].split(" ", 1)[1]
        t.press("D")
    raise AssertionError(t.screen())


def test_teach_is_on_for_a_game_never_finished_and_off_once_one_is():
    with Table(config={"teach": True}) as t:
        assert teach_line(t, "2") == "Teach: on"
        t.press("*")
        t.start("osmisifry", players=NAMES)
        t.box.leave()
        assert teach_line(t, "2") == "Teach: off"
        t.press("*")
        assert teach_line(t, "5") == "Teach: on"   # another game's own
    with Table() as t:   # a box whose owner turned it off: off for a game never played
        assert teach_line(t, "2") == "Teach: off"


def test_the_tables_teach_choice_is_remembered_for_that_game():
    with Table(config={"teach": True}) as t:
        t.press("5")
        t.press("4")    # Decipher's fourth option: Teach, now off
        assert "Teach: off" in t.screen()
        t.press("#")
        assert t.box.teacher.owed() is None   # the game starts untaught
        t.box.leave()
        t.restart()
        assert teach_line(t, "5") == "Teach: off"
        t.type("4#")    # on again, and a game played with it
        assert t.box.teacher.owed().phase == "place"


def test_undo_brings_a_taught_page_back_with_its_step():
    with Table(seed=7) as t:
        t.start("davinci", teach=True, players=NAMES[:2])
        hand = Hand(t)
        hand.type("#")
        hand._look()          # the first turn's page read
        assert hand.taught == ["deal", "attack"]
        t.hold("*", 1.0)
        t.press("#")          # the deal's # taken back
        assert phase(t.box.session) == "deal" and t.box.teacher.owed() is None   # the deal's was read before it
        t.press("#")
        assert t.box.teacher.owed().phase == "attack"   # the turn's page again, with its step


def test_a_taught_page_and_a_ruling_to_read_survive_a_power_cut():
    with Table(seed=7) as t:
        t.start("davinci", teach=True, players=NAMES[:2])
        page = t.screen()
        t.restart()
        assert t.screen() == page and t.box.teacher.owed().phase == "deal"
        hand = Hand(t)
        hand.type("#2")                 # pages read; dealt; Ann attacks Bo
        t.press("B")                    # ... and misses
        assert t.box.teacher.owed().why == "miss"
        t.restart()
        assert t.box.teacher.owed().why == "miss"
        t.press("#")                    # read
        t.restart()
        assert t.box.teacher.owed() is None and "[Bo: draw a tile]" in t.screen()
