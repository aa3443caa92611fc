"""Issue 38, item 1: every finished game step by step on a phone.

One evening on the virtual table plays a random complete game of each of
the five games by keys (a hand pressing what the game's pages take, now and
then holding ``*`` to take an action back); the replay of each is then read
through the web app as a phone reads it:

- every step of every game, by default, shows nothing a spectator at the
  table could not know then: no Decrypto keyword ever, no code before its
  reveal [DE-6], no private fact of any seat; the same check finds a
  planted leak (a public view that reveals codes early);
- ``steps.json`` alone, played through the games' rules, gives the states
  whose lines every step page shows, and ends where the score log ends;
- the steps are the actions that stand; the actions taken back are folded
  under the step they followed; the buttons and the round list lead where
  they say, without a script;
- ``?reveal=1`` and ``?side=`` show what the box kept hidden, once the game
  is over; while a game is on, every address of its replay answers 409;

``make test`` walks one game of each; ``make soak`` three.
"""
from __future__ import annotations

import html
import importlib
import json
import random
import re

import msgspec
import pytest

from games import base, decrypto
from referee import catalogue, i18n
from referee.testing import Table

# What a hand presses in each game: the keys its pages take, the likely
# ones more often.  Decrypto's team buttons are pressed twice ("done").
KEYS = {
    "decrypto": ["team1", "team2", "1", "2", "3", "4", "#", "#"],
    "osmisifry": ["0", "0", "1", "2", "#", "#", "#", "A", "B", "D", "*"],
    "octiles": ["1", "5", "9", "1", "#", "#", "D", "4", "D", "3", "*"],   # D 4: a pass; D 3: who has finished
    "davinci": ["1", "2", "A", "B", "A", "#", "#"],
    "decipher": ["1", "2", "3", "4", "A", "B", "#", "#", "#", "#"],   # # also asks for a piece
}
# The evening below is played once, on one worker, for all the module's tests.
pytestmark = pytest.mark.xdist_group("replay")

OPTIONS = {"octiles": {"mode": "dealer", "players": 2}}   # the box deals; a player says when finished
MOST_PRESSES = 4000
CODE = re.compile(r"\b([1-4])[-\u2011]([1-4])[-\u2011]([1-4])\b")


def text(page: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html.unescape(page)).split())


def play_one(t: Table, name: str, rng: random.Random) -> int:
    """A random complete game of ``name``, by keys; its id."""
    t.start(name, **OPTIONS.get(name, {}))
    game = t.log()[0]["id"]
    for n in range(MOST_PRESSES):
        key = rng.choice(KEYS[name])
        t.press(key)
        if key.startswith("team"):
            t.press(key)
        if rng.random() < 0.05:
            t.advance(rng.choice([5, 31, 61]))
        if rng.random() < 0.1:
            t.dice.next(rng.randint(1, 8), rng.randint(1, 8))
        if rng.random() < 0.02:
            t.hold("*", 1.0)       # the game menu: # takes the last action back
            t.press("#")
        if n % 10 == 9 and entry(t, game)["status"] != "playing":
            while "[Game menu]" in t.screen():
                t.press("*")
            t.box.leave()
            return game
    raise AssertionError(f"{name}: no end after {MOST_PRESSES} presses:\n{t.screen()}")


def entry(t: Table, game: int) -> dict:
    return next(e for e in t.log() if e["id"] == game)


@pytest.fixture(scope="module")
def evening(request):
    """The table and the games played: {name: [ids]}."""
    rng = random.Random(38)
    rounds = 3 if request.config.getoption("--soak") else 1
    with Table(seed=38) as t:
        played = {name: [play_one(t, name, rng) for _ in range(rounds)] for name in KEYS}
        yield t, played


def record(t: Table, game: int) -> dict:
    status, headers, body = t.get(f"/api/g/{game}/steps.json")
    assert status == 200 and headers["Content-Type"].startswith("application/json")
    return json.loads(body)


def states(record: dict) -> list:
    """Every step's state from steps.json alone, through the game's rules."""
    rules = catalogue.load(catalogue.get(record["game"]).rules)
    state = rules.setup(dict(record["options"]))
    found = []
    for step in record["steps"]:
        for played in ([step["action"]] if step["action"] else []) + step["added"]:
            state = rules.apply(state, base.decode(played["event"], rules.EVENTS), played["at"])
        found.append(state)
    return rules, found


def leaks(name: str, rules, state, page: str) -> list[str]:
    """What ``page`` shows that no spectator could know in ``state``."""
    shown = text(page).casefold()
    found = []
    if name == "decrypto":
        for words in state.keywords:
            found += [f"keyword {w}" for w in words if re.search(rf"\b{re.escape(w.casefold())}\b", shown)]
        # [DE-6] Public: every revealed code and every guess said aloud.
        said = {tuple(x.code) for r in state.rounds for x in r.reveals} | {tuple(x.code) for x in state.reveals}
        said |= {tuple(g) for r in state.rounds for x in r.reveals for g in (x.intercept, x.decode) if g}
        said |= {tuple(g) for x in state.reveals for g in (x.intercept, x.decode) if g}
        said |= {tuple(state.intercept)} if state.intercept else set()
        on_page = {tuple(int(d) for d in m) for m in CODE.findall(shown)}
        found += [f"code {code}" for code in state.codes if code and tuple(code) in on_page - said]
    # Any seat's private facts the public view does not hold (words, names of cards).
    public = msgspec.to_builtins(rules.public(state))
    open_words = {s.casefold() for s in _strings(list(public.values()))}
    seats = catalogue.get(name).teams or len(getattr(state, "players", ()) or getattr(state, "names", ()))
    for seat in range(seats):
        try:
            private = msgspec.to_builtins(rules.private(state, seat))
        except base.Illegal:
            continue
        for key in set(private) - set(public):
            for value in _strings(private[key]):
                if len(value) > 2 and value.casefold() not in open_words and re.search(rf"\b{re.escape(value.casefold())}\b", shown):
                    found.append(f"{key} {value}")
            # A private number (Decipher's piece count [DC-3]) said near its
            # name: "7 pieces", "pieces left: 7".
            number = private[key]
            if isinstance(number, int) and not isinstance(number, bool) and re.search(near(key, number), shown):
                found.append(f"{key} {number}")
    return found


def near(word: str, number: int) -> str:
    """A number within a few characters of a word (or its singular)."""
    stem = re.escape(word.casefold().rstrip("s"))
    return rf"\b{stem}s?\b\W{{0,12}}\b{number}\b|\b{number}\b\W{{0,12}}\b{stem}s?\b"


def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        yield from _strings(list(value.values()))
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _strings(item)


def walk_steps(t: Table, game: int, query: str = "") -> list[tuple[int, str]]:
    """Every step page of ``game``, from the start, by its Forward link."""
    pages, address = [], f"/g/{game}/step/0{query}"
    while address:
        status, _h, page = t.get(address)
        assert status == 200, address
        pages.append(page)
        forward = re.search(r'<a class="step-to" href="([^"]+)" rel="next"', page)
        address = html.unescape(forward.group(1)) if forward else None
    return pages


def test_every_step_of_every_game_shows_nothing_before_its_time(evening):
    t, played = evening
    for name, games in played.items():
        for game in games:
            rec = record(t, game)
            rules, seen = states(rec)
            pages = walk_steps(t, game)
            assert len(pages) == len(rec["steps"]) == len(seen) >= 1     # a game left at once is its setup alone
            for number, (state, page) in enumerate(zip(seen, pages)):
                assert leaks(name, rules, state, page) == [], f"{name} game {game} step {number}"


def planted(evening, monkeypatch, name: str, leak, lang: str) -> tuple[list, list]:
    """The walk over the first ``name`` game with ``leak(state, view)``
    added to the rules' public view, in ``lang``, a language not yet asked
    for (pages made anew, not kept ones): (what it found, the states)."""
    module = importlib.import_module(f"games.{name}")
    t, played = evening
    honest = module.public
    monkeypatch.setattr(module, "public", lambda state: leak(state, honest(state)))
    game = played[name][0]
    rules, seen = states(record(t, game))
    with i18n.speaking(lang):
        return [leaks(name, rules, state, page) for state, page in zip(seen, walk_steps(t, game))], seen


def test_the_secrecy_check_finds_a_planted_leak(evening, monkeypatch):
    # The planted fault: Decrypto's public view says each team's code as
    # revealed as soon as it is drawn.
    def leak(state, view):
        drawn = [decrypto.Reveal(team, code, None, code, False, False) for team, code in enumerate(state.codes) if code]
        return msgspec.structs.replace(view, reveals=drawn)

    found, _seen = planted(evening, monkeypatch, "decrypto", leak, "pl")
    assert sum(bool(f) for f in found) > len(found) // 2


def test_DC3_the_secrecy_check_finds_a_planted_piece_count(evening, monkeypatch):
    # The planted fault: Decipher's public view tells the maker's piece
    # count beside the maker's name.
    def leak(state, view):
        return view if state.pieces is None else msgspec.structs.replace(view, maker=f"{view.maker} ({state.pieces} pieces)")

    found, seen = planted(evening, monkeypatch, "decipher", leak, "cs")
    assert any(f == [f"pieces {state.pieces}"] for f, state in zip(found, seen)), found


def test_steps_json_alone_gives_the_states_every_page_shows(evening):
    t, played = evening
    for name, games in played.items():
        hook = catalogue.hook(name, "web", "replay_step")
        for game in games:
            rec = record(t, game)
            assert rec["format"] == 1 and rec["game"] == name and rec["complete"]
            assert rec["status"] == entry(t, game)["status"] != "playing"
            rules, seen = states(rec)
            # The last state is the game the score log has.
            assert rules.summary(seen[-1]).totals == entry(t, game)["totals"]
            assert rules.is_over(seen[-1]) or entry(t, game)["status"] == "abandoned" or entry(t, game).get("stopped")
            for number, state in enumerate(seen):
                _status, _h, page = t.get(f"/g/{game}/step/{number}")
                _n, label, rows = hook(rules.public(state))   # the round the state after it is in
                shown = text(page)
                assert f"Step {number} of {len(seen) - 1} · {label}" in shown, (name, number)
                for row_label, line in rows:
                    assert f"{row_label} {line}".strip() in shown, (name, number, row_label, line)
                told = rec["steps"][number]["account"]
                if told["turn"]:
                    assert told["turn"] in shown, (name, number)
                assert all(w in shown for w in told["winners"]) and told["reason"] in shown, (name, number)
                if number:
                    assert f"» {rec['steps'][number]['said']}" in shown


def test_actions_taken_back_are_folded_under_the_step_they_followed(evening):
    t, played = evening
    undone = [(game, n, step) for games in played.values() for game in games
              for n, step in enumerate(record(t, game)["steps"]) if step["taken_back"]]
    assert undone, "the walk took nothing back"
    for game, number, step in undone:
        _status, _h, page = t.get(f"/g/{game}/step/{number}")
        folded = re.search(r'<details class="tried">(.*?)</details>', page, re.S)
        assert folded and "<details class=\"tried\" open" not in page
        for taken in step["taken_back"]:
            assert taken["said"] in text(folded.group(1))


def test_start_back_forward_end_and_a_round_lead_where_they_say(evening):
    t, played = evening
    game = played["decrypto"][0]
    last = len(record(t, game)["steps"]) - 1
    _s, _h, page = t.get(f"/g/{game}/step/2")
    def links(page):
        # Each link names its key for replay.js: Home, ArrowLeft, ArrowRight, End.
        return {key: (href, text(label)) for href, key, label in
                re.findall(r'<a class="step-to" href="([^"]+)"[^>]* data-key="(\w+)">(.*?)</a>', page)}
    assert links(page) == {"Home": (f"/g/{game}/step/0", "◀◀ To the start"), "ArrowLeft": (f"/g/{game}/step/1", "◀ Back"),
                           "ArrowRight": (f"/g/{game}/step/3", "Forward ▶"), "End": (f"/g/{game}/step/{last}", "To the end ▶▶")}
    assert "replay.js" in page
    _s, _h, first = t.get(f"/g/{game}/step/0")
    assert set(links(first)) == {"ArrowRight", "End"} and "To the start" in text(first)
    _s, _h, end = t.get(f"/g/{game}/step/{last}")
    assert 'rel="next"' not in end
    assert t.get(f"/g/{game}/step/{last + 1}")[0] == 404
    # The round list, without a script: round 2 is the first step that reads "Round 2 of 8".
    status, headers, _b = t.get(f"/g/{game}/step?round=2")
    assert status == 302
    target = int(headers["Location"].rsplit("/", 1)[1])
    _s, _h, there = t.get(headers["Location"])
    _s, _h, before = t.get(f"/g/{game}/step/{target - 1}")
    def round_of(page):
        return re.search(r'<span class="round">([^<]+)</span>', page).group(1)
    assert round_of(there) == "Round 2 of 8" and round_of(before) == "Round 1 of 8"
    assert '<option value="2" selected>Round 2 of 8</option>' in there
    # The game's page offers the replay.
    _s, _h, page = t.get(f"/g/{game}")
    assert f'href="/g/{game}/step/0"' in page and "Step by step" in text(page)


def test_once_over_the_box_shows_what_it_kept_and_each_side_its_keywords(evening):
    t, played = evening
    game = played["decrypto"][0]
    rec = record(t, game)
    _rules, seen = states(rec)
    number = len(seen) // 2
    words = [w.casefold() for w in seen[number].keywords[0]], [w.casefold() for w in seen[number].keywords[1]]
    _s, _h, plain = t.get(f"/g/{game}/step/{number}")
    _s, _h, shown = t.get(f"/g/{game}/step/{number}?reveal=1")
    _s, _h, white = t.get(f"/g/{game}/step/{number}?side=white")
    assert not any(w in text(plain).casefold() for w in words[0] + words[1])
    assert all(w in text(shown).casefold() for w in words[0] + words[1])
    assert "What the box kept hidden" in text(shown)
    assert all(w in text(white).casefold() for w in words[0])
    assert not any(w in text(white).casefold() for w in words[1] if w not in words[0])
    # The switch keeps to its view through the steps.
    assert f'href="/g/{game}/step/{number + 1}?side=white" rel="next"' in white


def test_a_game_being_played_has_no_replay_at_any_address(evening):
    t, _played = evening
    t.start("decrypto")
    game = t.log()[0]["id"]
    try:
        t.press("team1")
        t.press("team1")
        for path in (f"/g/{game}/step/0", f"/g/{game}/step/1", f"/g/{game}/step?round=1",
                     f"/g/{game}/step/0?reveal=1", f"/g/{game}/step/0?side=black"):
            status, headers, page = t.get(path)
            assert status == 409 and headers["Cache-Control"] == "no-store", path
            assert "still being played" in text(page) and "keyword" not in text(page).casefold()
            assert not any(w.casefold() in text(page).casefold() for w in t.box.session.state.keywords[0])
        status, _h, body = t.get(f"/api/g/{game}/steps.json")
        assert status == 409 and json.loads(body) == {"error": "the game is still being played"}
        _s, _h, page = t.get(f"/g/{game}")
        assert "/step/" not in page
    finally:
        t.box.leave()



def other_digits(number: int) -> list[str]:
    """``number`` spelt in digits Python's ``int`` reads but no phone's
    address bar writes: Arabic-Indic and mathematical bold."""
    return ["".join(chr(base + int(d)) for d in str(number)) for base in (0x660, 0x1D7CE)]


def test_a_replay_address_in_any_digits_but_ascii_is_not_found(evening):
    t, played = evening
    game = played["davinci"][0]
    assert t.get(f"/g/{game}/step/1")[0] == 200 and t.get(f"/api/g/{game}/steps.json")[0] == 200
    for k in other_digits(1):
        assert t.get(f"/g/{game}/step/{k}")[0] == 404, k
    for g in other_digits(game):
        for k in ["1", *other_digits(1)]:
            assert t.get(f"/g/{g}/step/{k}")[0] == 404, (g, k)
        assert t.get(f"/api/g/{g}/steps.json")[0] == 404, g
        assert t.get(f"/g/{g}")[0] == 404 and t.get(f"/api/g/{g}")[0] == 404
        assert t.get(f"/g/{g}/step?round=1")[0] == 404


def test_a_teams_side_puts_its_clues_beside_its_keywords(evening):
    from games import decrypto as d
    t, _played = evening
    t.start("decrypto")
    game = t.log()[0]["id"]
    try:
        s = t.box.session.state
        white_code, black_code, words = s.codes[0], s.codes[1], s.keywords[0]
        for event in (d.Clues(0, ("pudding", "meadow", "violin")), d.Clues(1, ("anchor", "saddle", "comet")),
                      d.CluesDone(0), d.CluesDone(1), d.Guess(0, white_code), d.Guess(1, black_code)):
            assert t.box.act(event), event
        t.hold("*", 1.0)                 # the game menu: end the game here
        t.press("D")
        t.press("#")
    finally:
        t.box.leave()
    assert entry(t, game)["status"] != "playing"
    last = len(record(t, game)["steps"]) - 1
    white = text(t.get(f"/g/{game}/step/{last}?side=white")[2])
    # Each clue under the keyword its digit names, in the keywords' order, as on the team's notesheet.
    said = ", ".join(f"{words[digit - 1]}: {clue}" for digit, clue in sorted(zip(white_code, ("pudding", "meadow", "violin"))))
    assert f"Round 1 {said}" in white
    # Both codes as revealed, each with the clues read aloud for it: public, on every view.
    code = "\u2011".join(map(str, black_code))      # as the pages write a code: it never breaks
    assert f"Round 1: Black {code} (anchor, saddle, comet)" in white
