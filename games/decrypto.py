"""Decrypto: each team passes a secret three-digit code to its own players by
three spoken clues, while the other team listens and tries to break it.

The box deals the keywords (or the table uses its own cards), draws the codes,
runs the 30-second clue timer, takes the guesses, reveals each code, hands
out the tokens and decides the game, tie-breaks included.

Setup options
-------------
``variant``   ``"teams"`` (default): White (team 0) against Black (team 1).
              ``"hacker"``: the 3-player variant [DE-10], the Hacker (seat 0)
              against a Team of two (seat 1).
``sizes``     players per team, ``(white, black)``, each 2 to 4; default
              ``(2, 2)``.  Only the encryptor rotation needs it [DE-2].  The
              hacker variant is always ``(1, 2)``; the option may be left out.
``keywords``  ``"box"`` (default): the box deals four keywords to each team.
              ``"cards"``: the table deals its own keyword cards, and the box
              handles only codes, the timer and the tokens.
``lang``      the word list the box deals from: ``"en"`` (default), ``"cs"``,
              ``"pl"`` or ``"ru"``.
``timer``     ``True`` (default): the first encryptor done starts the other's
              30 seconds.  ``False``: the table plays without the sand
              timer, which the rules leave to it [DE-4]; the clues are
              in when both encryptors are done.
``members``   the players' names, team by team (``[[white…], [black…]]``, the
              Hacker's team first), in the order they sit; optional.  Given,
              they set ``sizes``; the score log lists each team's players
              and ``State.encryptor_names`` names each round's encryptors.
``exclude``   words already dealt this evening, default ``()``.  They are not
              dealt again; when too few words are left for this game (four
              and a spare per team), the whole list is used again.

Setup deals the keywords: one ``Shuffle("keywords", words)`` of the words
available; White takes the first four of the shuffled order as its keywords 1
to 4, Black the next four (in the hacker variant the Team takes the first
four).  ``State.dealt`` lists every word shown so far, for the next game's
``exclude``.

Each round
----------
1. Each playing team's encryptor draws a code: ``Pick("code:<team>", codes)``,
   answered with ``Picked("code:<team>", (d1, d2, d3))``: any of the 24 codes
   but the team's code of the last round [DE-3, DE-8].  The encryptor
   rotates through the team: ``State.encryptors`` gives the player number
   (1-based) of each team's encryptor this round [DE-2].
2. The encryptors write their clues.  ``CluesDone(team)`` says one has
   finished; the first starts the 30-second countdown ``"clues"``, and
   ``TimerExpired("clues")`` means the other must stop writing [DE-4].
   Without the timer the writing ends when both are done.
3. For White's code, then Black's [DE-5]: from round 2 the other team
   intercepts, ``Guess(other, code)`` [DE-7]; then the team decodes,
   ``Guess(team, code)``; then the code is revealed and the tokens given
   [DE-6].  A code is three different digits from 1 to 4, in clue order.
4. After both codes the round ends and the game may be decided [DE-1, DE-9].

In the hacker variant only the Team draws, writes and decodes, one code a
round, with no clue timer; the Hacker intercepts from round 2.  A wrong
decode gives the Hacker an interception instead of a miscommunication; the
Hacker wins with two interceptions by the end of round 5, else the Team wins
[DE-10].

Other events
------------
``SwapKeyword(team, position)``
    Before the first clues of round 1 are done, a team may swap one dealt
    keyword (position 1-4) that nobody knows for the next word of the
    shuffled order; once per team, and only when the box dealt the words.
``KeywordsGuessed(team, count)``
    The last tie-break [DE-9]: how many of the opponents' four keywords the
    team guessed right, 0 to 4; each team types its own count.
``Clues(team, clues)``
    The encryptor types the round's three clues on the team's page, in
    code order, so that every page can keep the paper notesheet.  Taken
    from the moment the team's code is drawn until the box moves on to
    guessing it; sent again, it replaces the last.  Each clue is trimmed
    and must be 1 to 40 characters, without control characters; none may
    be one of the team's keywords or a clue the team gave before in the
    game [DE-11].  Typing is optional: the clues are spoken aloud in any
    case.

The clues
---------
Typed clues are the team's secret until they are read aloud, which is when
the box moves on to guessing that code [DE-5]: from then on ``public`` and
``summary`` carry them in order.  Once the code is revealed, each clue goes
under the keyword position of its digit (clue i under position code[i]), as
the bottom of the paper notesheet has them: ``notesheet(state, team)``.

In ``public``: ``typed`` (per team, whether this round's clues are typed),
``clues`` (per team, this round's once read, else null), ``clues`` in each
round of ``history``, and ``notes`` (per team, the notesheet's rows
``{"round": n, "clues": [four positions, null where none]}``).
``private`` adds ``own_clues`` (the team's own, as typed) and
``clues_open`` (whether it may type them now).  ``summary`` adds
``clues`` to a round and ``notes`` by team name, when there are any.

For the screens
---------------
``step(state)``            what to ask for next (``Step``)
``timer(state)``           the clue countdown, while it runs
``State.round``            the round, from 1; ``State.encryptors`` per team,
                           ``State.encryptor_names`` when the players are named
``State.clues_done``       which encryptors are done this round
``State.intercept``        the interception announced for the code under way
``State.last``             the code revealed last (``Reveal``)
``State.interceptions``, ``State.miscommunications``, ``State.scores``
                           the tokens per team, and interceptions minus
                           miscommunications
``State.tie``              a tie waiting for ``KeywordsGuessed``
``State.result``           who won and why (``Result``)
``can_swap(state, team)``  whether the team may still swap a keyword
``State.clues``            this round's typed clues per team (secret until read)
``clues_read(state, team)``
                           whether they were read aloud
``can_type_clues(state, team)``
                           whether the team may still type or replace them
``CLUE_RULES``             the help screen's lines [DE-11]

Per-team pairs are indexed by seat.  ``public`` carries the same facts as
data (``Public``); ``private(state, team)`` adds the team's keywords and
typed clues (``Private``); the code under way stays with the encryptor.
"""
from __future__ import annotations

import dataclasses
import functools
import itertools
import unicodedata
from collections.abc import Callable, Sequence
from typing import Any, TypeVar
from dataclasses import dataclass
from enum import StrEnum
from importlib import resources

import msgspec

from games import base
from games.base import N_, Countdown, Request, Illegal, Pick, Picked, Shuffle, Shuffled, TimerExpired, clean_name, next_seat, winners

NAME = "decrypto"

TEAMS = ("White", "Black")
HACKER_SIDES = ("Hacker", "Team")
HACKER, HACKER_TEAM = 0, 1  # their seats
LANGS = ("en", "cs", "pl", "ru")
KEYWORDS = 4
CODES = tuple(itertools.permutations(range(1, 5), 3))  # the 24 code cards [DE-3]
CLUE_SECONDS = 30
CLUE_LENGTH = 40  # characters in one typed clue
LAST_ROUND = 8  # [DE-9]
HACKER_LAST_ROUND = 5  # [DE-10]

# [DE-11] The box cannot hear clues; the help screen reminds the table.
CLUE_RULES = (
    N_("Clue meaning only."),
    N_("No spelling hints."),
    N_("No letter counts."),
    N_("No screen positions."),
    N_("No sound-alikes."),
    N_("Public facts only."),
    N_("Write clues if asked."),
    N_("No clue twice a game."),
    N_("No keyword as a clue,"),
    N_("nor in translation."),
)

Code = tuple[int, int, int]
T = TypeVar("T")


# --- events -------------------------------------------------------------------------

@dataclass(frozen=True)
class CluesDone:
    """The encryptor of ``team`` has written the three clues."""
    team: int


@dataclass(frozen=True)
class Clues:
    """The encryptor of ``team`` typed this round's three clues, in code order."""
    team: int
    clues: tuple[str, ...]


@dataclass(frozen=True)
class SwapKeyword:
    """``team`` swaps its keyword at ``position`` (1-4) before round 1."""
    team: int
    position: int


@dataclass(frozen=True)
class Guess:
    """``team`` announces ``code`` for the code being guessed now."""
    team: int
    code: tuple[int, ...]


@dataclass(frozen=True)
class KeywordsGuessed:
    """Tie-break: ``team`` guessed ``count`` of the opponents' keywords."""
    team: int
    count: int


EVENTS: tuple[type, ...] = (CluesDone, Clues, SwapKeyword, Guess, KeywordsGuessed)


# --- state ----------------------------------------------------------------------------

@dataclass(frozen=True)
class Reveal:
    """One code, its guesses and what it gave away [DE-6].  ``intercept`` is
    None in round 1.  ``miscommunicated``: the team decoded it wrong (in the
    hacker variant that is a token for the Hacker instead)."""
    team: int
    code: Code
    intercept: Code | None
    decode: Code
    intercepted: bool
    miscommunicated: bool


@dataclass(frozen=True)
class Round:
    number: int
    encryptors: tuple[int | None, int | None]
    reveals: tuple[Reveal, ...]
    clues: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())  # per team, () if none were typed


class Reason(StrEnum):
    """How a game was decided (``Result.reason``)."""
    INTERCEPTIONS = "interceptions"
    MISCOMMUNICATIONS = "miscommunications"
    ROUNDS = "rounds"
    SCORE = "score"
    KEYWORDS = "keywords"
    SHARED = "shared"


class Tie(StrEnum):
    """Why a tie-break was needed (``Result.tie``, ``State.tie``) [DE-9]."""
    BOTH_TOKENS = "both_tokens"
    BOTH_MISCOMMUNICATIONS = "both_miscommunications"
    BOTH_INTERCEPTIONS = "both_interceptions"
    ROUND_LIMIT = "round_limit"


# What the box must ask for next (``Step.kind``).
Stage = StrEnum("Stage", [("DEAL", "deal"), ("CLUES", "clues"), ("INTERCEPT", "intercept"), ("DECODE", "decode"),
                          ("TIEBREAK", "tiebreak"), ("OVER", "over")])


@dataclass(frozen=True)
class Result:
    """``winners``: seats; two = a shared win.  ``reason``:

    ``"interceptions"``      the winner got its 2nd interception [DE-1]
    ``"miscommunications"``  the loser got its 2nd miscommunication [DE-1]
    ``"rounds"``             hacker variant: the Team lasted five rounds
    ``"score"``              tie-break on interceptions minus miscommunications
    ``"keywords"``           tie-break on the opponents' keywords guessed
    ``"shared"``             still equal: both teams win

    ``tie``: why a tie-break was needed, else None: ``"both_tokens"`` (a team
    holds 2 of each token), ``"both_miscommunications"``,
    ``"both_interceptions"`` (both teams in the same round) or
    ``"round_limit"`` (nothing decided after round 8) [DE-9]."""
    winners: tuple[int, ...]
    reason: Reason
    tie: Tie | None = None


@dataclass(frozen=True)
class Step:
    """What the box must ask for next.

    ``"deal"``       waiting for the service's shuffle or code draws
    ``"clues"``      encryptors writing; ``waiting``: teams not done yet
                     (``timer(state)`` is the countdown once one is done)
    ``"intercept"``  ``team`` guesses the code of ``of_team``
    ``"decode"``     ``team`` guesses its own code (``of_team == team``)
    ``"tiebreak"``   ``waiting``: teams still to type ``KeywordsGuessed``
    ``"over"``       nothing; see ``State.result``
    """
    kind: Stage
    team: int | None = None
    of_team: int | None = None
    waiting: tuple[int, ...] = ()


@dataclass(frozen=True)
class State:
    """Per-team fields are pairs indexed by seat (0 = White or the Hacker,
    1 = Black or the Team)."""
    variant: str
    sizes: tuple[int, int]
    deal: str  # "box" or "cards"
    lang: str
    pool: tuple[str, ...]  # the words the box may deal (empty with cards)
    order: tuple[str, ...] | None = None  # the pool once shuffled
    keywords: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())
    dealt: tuple[str, ...] = ()  # every word shown to a team, swaps included
    swapped: tuple[bool, bool] = (False, False)
    round: int = 1
    codes: tuple[Code | None, Code | None] = (None, None)  # this round's, None until drawn
    previous: tuple[Code | None, Code | None] = (None, None)
    clues_done: tuple[bool, bool] = (False, False)
    clues: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())  # this round's, as typed
    writing: bool = True  # this round's clues are being written
    countdown: Countdown | None = None
    intercept: Code | None = None  # announced for the code being guessed
    reveals: tuple[Reveal, ...] = ()  # this round's, so far
    rounds: tuple[Round, ...] = ()  # the finished rounds
    interceptions: tuple[int, int] = (0, 0)
    miscommunications: tuple[int, int] = (0, 0)
    tie: Tie | None = None  # a tie waiting for the keyword counts
    keywords_guessed: tuple[int | None, int | None] = (None, None)
    result: Result | None = None
    sand_timer: bool = True  # [DE-4] the table may play without it
    members: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())  # who sits in each team, if named

    @property
    def names(self) -> tuple[str, str]:
        return HACKER_SIDES if self.variant == "hacker" else TEAMS

    @property
    def coding(self) -> tuple[int, ...]:
        """The teams with keywords and codes, in the order their codes are played."""
        return (1,) if self.variant == "hacker" else (0, 1)

    @property
    def encryptors(self) -> tuple[int | None, int | None]:
        """This round's encryptor of each team, as a player number from 1 [DE-2]."""
        return _pair(lambda t: (self.round - 1) % self.sizes[t] + 1 if t in self.coding else None)

    @property
    def encryptor_names(self) -> tuple[str | None, str | None]:
        """This round's encryptor of each team by name, when the team's
        players were named in the order they sit; else None [DE-2]."""
        def name(t: int) -> str | None:
            n = self.encryptors[t]
            return self.members[t][n - 1] if n is not None and self.members[t] else None
        return _pair(name)

    @property
    def last(self) -> Reveal | None:
        """The code revealed most recently, for the screens' result line."""
        if self.reveals:
            return self.reveals[-1]
        return self.rounds[-1].reveals[-1] if self.rounds else None

    @property
    def scores(self) -> tuple[int, int]:
        return _pair(lambda t: self.interceptions[t] - self.miscommunications[t])


# --- setup ----------------------------------------------------------------------------

OPTIONS = ("variant", "sizes", "keywords", "lang", "exclude", "members", "timer")


@functools.cache
def words(lang: str) -> tuple[str, ...]:
    """The keyword list of ``lang``, in file order."""
    text = resources.files("games").joinpath(f"data/words-{lang}.txt").read_text(encoding="utf-8")
    return tuple(line.strip() for line in text.splitlines() if line.strip())


def setup(options: dict[str, Any] | None = None) -> State:
    options = dict(options or {})
    for key in options:
        if key not in OPTIONS:
            raise Illegal("Decrypto has no option {option!r}.", option=key)
    variant = options.get("variant", "teams")
    members = _members(options.get("members"))
    if members != ((), ()):
        if "sizes" in options and _tuple(options["sizes"]) != tuple(map(len, members)):
            raise Illegal("The names do not fit the team sizes.")
        options["sizes"] = tuple(map(len, members))
    if variant == "teams":
        sizes = _tuple(options.get("sizes", (2, 2)))
        if len(sizes) != 2 or not all(type(n) is int and 2 <= n <= 4 for n in sizes):
            raise Illegal("Each team has 2 to 4 players.")
    elif variant == "hacker":
        sizes = _tuple(options.get("sizes", (1, 2)))
        if sizes != (1, 2):
            raise Illegal("The Hacker plays alone against a team of two.")
    else:
        raise Illegal("Play in two teams or as the Hacker against a team.")
    deal = options.get("keywords", "box")
    if deal not in ("box", "cards"):
        raise Illegal("Deal keywords from the box or use your own cards.")
    lang = options.get("lang", "en")
    if lang not in LANGS:
        raise Illegal("Keywords come in English, Czech, Polish or Russian.")
    exclude = _tuple(options.get("exclude", ()))
    if not all(isinstance(word, str) for word in exclude):
        raise Illegal("The words to leave out must be words.")
    sand_timer = options.get("timer", True)
    if type(sand_timer) is not bool:
        raise Illegal("The sand timer is used or not: true or false.")
    state = State(variant, sizes, deal, lang, (), members=members, sand_timer=sand_timer)
    if deal == "box":
        # A word nobody at the table has seen tonight, while enough are left.
        need = (KEYWORDS + 1) * len(state.coding)
        left = set(exclude)
        fresh = tuple(w for w in words(lang) if w not in left)
        state = dataclasses.replace(state, pool=fresh if len(fresh) >= need else words(lang))
    return state


def _members(given: object) -> tuple[tuple[str, ...], tuple[str, ...]]:
    if given is None:
        return ((), ())
    if not isinstance(given, (list, tuple)) or len(given) != 2 or not all(isinstance(t, (list, tuple)) for t in given):
        raise Illegal("Name the players of both teams.")
    teams: Sequence[Sequence[object]] = given
    members = _pair(lambda t: tuple(clean_name(name) for name in teams[t]))
    if not all(members):
        raise Illegal("Name the players of both teams.")
    flat = [name.casefold() for team in members for name in team]
    if "" in flat:
        raise Illegal("Name the players of both teams.")
    if len(set(flat)) != len(flat):
        raise Illegal("Two players have the same name.")
    return members


def _tuple(value: object) -> tuple[Any, ...]:
    # Options come back from the store as JSON, where tuples are lists;
    # what they hold is checked where each is read.
    return tuple(value) if isinstance(value, (tuple, list)) else (value,)


# --- what the box must do -----------------------------------------------------------------

def requests(state: State) -> tuple[Request, ...]:
    if state.result is not None or state.tie is not None:
        return ()
    todo: list[Request] = []
    if state.deal == "box" and state.order is None:
        todo.append(Shuffle("keywords", state.pool))
    for team in state.coding:
        if state.codes[team] is None:
            # [DE-8] The used card goes back and the deck is shuffled every
            # round, so a draw is uniform over all 24 codes; drawing again
            # whenever it repeats last round's code leaves each of the other
            # 23 equally likely, which is one pick from those 23.
            options = tuple(c for c in CODES if c != state.previous[team])
            todo.append(Pick(f"code:{team}", options))
    return tuple(todo)


def step(state: State) -> Step:
    if state.result is not None:
        return Step(Stage.OVER)
    if state.tie is not None:
        return Step(Stage.TIEBREAK, waiting=tuple(t for t in (0, 1) if state.keywords_guessed[t] is None))
    if requests(state):
        return Step(Stage.DEAL)
    if state.writing:
        return Step(Stage.CLUES, waiting=tuple(t for t in state.coding if not state.clues_done[t]))
    # [DE-5] The codes are guessed in seat order: White's, then Black's.
    team = state.coding[len(state.reveals)]
    if state.round > 1 and state.intercept is None:  # [DE-7] no interception in round 1
        return Step(Stage.INTERCEPT, team=next_seat(team, 2), of_team=team)
    return Step(Stage.DECODE, team=team, of_team=team)


def timer(state: State) -> Countdown | None:
    return state.countdown


def is_over(state: State) -> bool:
    return state.result is not None


def can_swap(state: State, team: int) -> bool:
    """Whether ``team`` may still swap a keyword."""
    try:
        _check_swap(state, team)
    except Illegal:
        return False
    return True


def clues_read(state: State, team: int) -> bool:
    """Whether ``team``'s clues of this round were read aloud: the box has
    moved on to guessing its code [DE-5]."""
    if any(x.team == team for x in state.reveals):
        return True
    now = step(state)
    return now.kind in (Stage.INTERCEPT, Stage.DECODE) and now.of_team == team


def can_type_clues(state: State, team: int) -> bool:
    """Whether ``team`` may type, or type again, this round's clues."""
    try:
        _check_clues(state, team)
    except Illegal:
        return False
    return True


# --- the rules ------------------------------------------------------------------------------

def apply(state: State, event: object, at: float) -> State:
    if state.result is not None:
        raise Illegal("The game is over.")
    match event:
        case Shuffled("keywords", order) if state.deal == "box" and state.order is None:
            return _deal(state, tuple(order))
        case Picked(purpose, code):
            return _draw(state, purpose, code)
        case SwapKeyword(team, position):
            return _swap(state, team, position)
        case CluesDone(team):
            return _clues_done(state, team, at)
        case Clues(team, clues):
            return _type_clues(state, team, clues)
        case TimerExpired("clues") if state.countdown is not None:
            # [DE-4] Time is up: only what is written counts.
            return dataclasses.replace(state, writing=False, countdown=None)
        case Guess(team, code):
            return _guess(state, team, code)
        case KeywordsGuessed(team, count):
            return _keywords_guessed(state, team, count)
    raise Illegal("That does not fit now.")


def _deal(state: State, order: tuple[str, ...]) -> State:
    if sorted(order) != sorted(state.pool):
        raise Illegal("That is not a shuffle of the word list.")
    keywords: list[tuple[str, ...]] = [(), ()]
    for n, team in enumerate(state.coding):
        keywords[team] = order[n * KEYWORDS:(n + 1) * KEYWORDS]
    shown = KEYWORDS * len(state.coding)
    return dataclasses.replace(state, order=order, keywords=(keywords[0], keywords[1]), dealt=order[:shown])


def _draw(state: State, purpose: str, code: object) -> State:
    pick = next((r for r in requests(state) if isinstance(r, Pick) and r.purpose == purpose), None)
    if pick is None:
        raise Illegal("No code is being drawn now.")
    code = tuple(code) if isinstance(code, (tuple, list)) else code
    if code not in pick.options:
        raise Illegal("That code is not in the deck.")
    team = int(purpose.removeprefix("code:"))
    return dataclasses.replace(state, codes=_put(state.codes, team, _code(code)))   # one of the deck's


def _check_swap(state: State, team: int) -> None:
    _team(state, team)
    if state.deal != "box":
        raise Illegal("You play with your own keyword cards.")
    if team not in state.coding:
        raise Illegal("The Hacker has no keywords.")
    if state.order is None:
        raise Illegal("The keywords are not dealt yet.")
    if state.round > 1 or any(state.clues_done) or not state.writing:
        raise Illegal("Keywords are swapped only before the first clues.")
    if state.swapped[team]:
        raise Illegal("A team swaps one keyword at most.")


def _swap(state: State, team: int, position: int) -> State:
    _check_swap(state, team)
    if type(position) is not int or not 1 <= position <= KEYWORDS:
        raise Illegal("Choose a keyword from 1 to 4.")
    assert state.order is not None   # _check_swap: the keywords are dealt
    word = state.order[len(state.dealt)]
    mine = list(state.keywords[team])
    mine[position - 1] = word
    return dataclasses.replace(state, keywords=_put(state.keywords, team, tuple(mine)),
                               dealt=(*state.dealt, word), swapped=_put(state.swapped, team, True))


def _clues_done(state: State, team: int, at: float) -> State:
    _team(state, team)
    now = step(state)
    if now.kind == Stage.DEAL:
        raise Illegal("The codes are not drawn yet.")
    if now.kind != Stage.CLUES:
        raise Illegal("The clues are already in.")
    if team not in state.coding:
        raise Illegal("The Hacker writes no clues.")
    if state.clues_done[team]:
        raise Illegal("Your clues are already done.")
    done = _put(state.clues_done, team, True)
    if all(done[t] for t in state.coding):
        return dataclasses.replace(state, clues_done=done, writing=False, countdown=None)
    if not state.sand_timer:
        return dataclasses.replace(state, clues_done=done)  # [DE-4] no timer: wait for the other
    # [DE-4] The first encryptor done turns the sand timer for the other.
    return dataclasses.replace(state, clues_done=done, countdown=Countdown.start("clues", CLUE_SECONDS, at))


def _check_clues(state: State, team: int) -> None:
    _team(state, team)
    if team not in state.coding:
        raise Illegal("The Hacker writes no clues.")
    if state.result is not None or state.tie is not None:
        raise Illegal("The codes are all guessed.")
    if state.codes[team] is None:
        raise Illegal("The codes are not drawn yet.")
    if clues_read(state, team):
        # [DE-5] Read aloud, the clues stand as the table heard them.
        raise Illegal("Your clues were read out: they stand.")


def _type_clues(state: State, team: int, clues: object) -> State:
    _check_clues(state, team)
    if not isinstance(clues, (tuple, list)) or len(clues) != 3:
        raise Illegal("Type three clues, one for each digit.")
    typed = tuple(_clue(n, text) for n, text in enumerate(clues, 1))
    _clue_rules(state, team, typed)
    return dataclasses.replace(state, clues=_put(state.clues, team, typed))


def _clue_rules(state: State, team: int, typed: tuple[str, ...]) -> None:
    """[DE-11] What the box can see of the clue rules once clues are typed:
    no keyword of the team as a clue, no clue twice in a game.  [ruling]
    "Twice" counts the team's own clues, this round's included, compared
    as written but for case and spacing; the other team's are theirs."""
    words = {_as_said(word) for word in state.keywords[team]}
    given: dict[str, int] = {}
    for r in state.rounds:
        for clue in r.clues[team]:
            given.setdefault(_as_said(clue), r.number)
    for n, clue in enumerate(typed, 1):
        said = _as_said(clue)
        if said in words:
            raise Illegal("Clue {n} is one of your keywords.", n=n)
        if said in given:
            raise Illegal("Clue {n} was given in round {round}.", n=n, round=given[said])
        earlier = next((m for m, other in enumerate(typed[:n - 1], 1) if _as_said(other) == said), None)
        if earlier is not None:
            raise Illegal("Clue {n} repeats clue {m}.", n=n, m=earlier)


def _as_said(text: str) -> str:
    return " ".join(text.casefold().split())


# A clue is one line of plain text on every page: nothing that breaks the
# line or turns the text around it the other way.
_BIDI_CONTROLS = frozenset({"LRE", "RLE", "LRO", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI"})


def _clue(n: int, text: object) -> str:
    if not isinstance(text, str):
        raise Illegal("Clue {n} is not text.", n=n)
    # Phones may send accents as separate marks; count letters as seen.
    text = unicodedata.normalize("NFC", text).strip()
    if not text:
        raise Illegal("Clue {n} is empty.", n=n)
    if len(text) > CLUE_LENGTH:
        raise Illegal("Clue {n} is too long (limit: {most}).", n=n, most=CLUE_LENGTH)
    if any(unicodedata.category(ch) in ("Cc", "Zl", "Zp") or unicodedata.bidirectional(ch) in _BIDI_CONTROLS
           for ch in text):
        raise Illegal("Clue {n} holds a control character.", n=n)
    return text


def _guess(state: State, team: int, code: object) -> State:
    _team(state, team)
    now = step(state)
    if now.kind == Stage.DEAL:
        raise Illegal("The codes are not drawn yet.")
    if now.kind == Stage.CLUES:
        raise Illegal("The clues are still being written.")
    if now.kind not in (Stage.INTERCEPT, Stage.DECODE):
        raise Illegal("The codes are all guessed.")
    assert now.team is not None   # an intercept or a decode is some team's
    if team != now.team:
        if now.kind == Stage.DECODE and state.round == 1:
            raise Illegal("Nobody intercepts in round 1.")  # [DE-7]
        if now.kind == Stage.INTERCEPT:
            raise Illegal("{team} intercepts first.", team=state.names[now.team])  # [DE-5]
        raise Illegal("Now {team} decodes.", team=state.names[now.team])
    guessed = _code(code)
    if now.kind == Stage.INTERCEPT:
        return dataclasses.replace(state, intercept=guessed)
    return _reveal(state, team, guessed)


def _code(code: object) -> Code:
    if isinstance(code, (tuple, list)) and len(code) == 3:
        a, b, c = code
        if type(a) is int and type(b) is int and type(c) is int and len({a, b, c}) == 3 and {a, b, c} <= {1, 2, 3, 4}:
            return a, b, c
    raise Illegal("Three different digits from 1 to 4, please.")


def _reveal(state: State, team: int, decode: Code) -> State:
    code = state.codes[team]
    assert code is not None   # a code is guessed only once drawn
    # [DE-6] Right digits in the right order intercept; a wrong decode is a
    # miscommunication.  Both may happen on one code.
    reveal = Reveal(team, code, state.intercept, decode,
                    intercepted=state.intercept == code, miscommunicated=decode != code)
    gained_i, gained_m = _tokens(state.variant, reveal)
    state = dataclasses.replace(
        state, reveals=(*state.reveals, reveal), intercept=None,
        interceptions=_pair(lambda t: state.interceptions[t] + gained_i[t]),
        miscommunications=_pair(lambda t: state.miscommunications[t] + gained_m[t]))
    if len(state.reveals) < len(state.coding):
        return state
    return _end_round(state)


def _tokens(variant: str, reveal: Reveal) -> tuple[tuple[int, int], tuple[int, int]]:
    """The interceptions and miscommunications one code gives, per seat."""
    rival = next_seat(reveal.team, 2)
    got_i, got_m = [0, 0], [0, 0]
    if reveal.intercepted:
        got_i[rival] += 1
    if reveal.miscommunicated:
        if variant == "hacker":
            got_i[rival] += 1  # [DE-10] no miscommunication: the Hacker scores instead
        else:
            got_m[reveal.team] += 1
    return (got_i[0], got_i[1]), (got_m[0], got_m[1])


def _end_round(state: State) -> State:
    played = Round(state.round, state.encryptors, state.reveals, state.clues)
    state = dataclasses.replace(state, rounds=(*state.rounds, played), reveals=(), clues=((), ()))
    if state.variant == "hacker":
        result = _hacker_result(state)
        if result is not None:
            return dataclasses.replace(state, result=result)
    else:
        result, tie = _teams_result(state)
        if result is not None:
            return dataclasses.replace(state, result=result)
        if tie is not None:
            return _tie_break(state, tie)
    # [DE-8] The next round draws again from full decks.
    return dataclasses.replace(state, round=state.round + 1, previous=state.codes, codes=(None, None),
                               clues_done=(False, False), writing=True)


def _hacker_result(state: State) -> Result | None:
    # [DE-10] Two interceptions by the end of round 5, or the Team holds out.
    if state.interceptions[0] >= 2:
        return Result((0,), Reason.INTERCEPTIONS)
    if state.round == HACKER_LAST_ROUND:
        return Result((1,), Reason.ROUNDS)
    return None


def _teams_result(state: State) -> tuple[Result | None, Tie | None]:
    """A plain result, or the kind of tie, or neither: play on."""
    # [DE-1] Two interceptions win, two miscommunications lose.
    won = {t for t in (0, 1) if state.interceptions[t] >= 2}
    lost = {t for t in (0, 1) if state.miscommunications[t] >= 2}
    # [DE-9] Ties; tokens only ever come one of each kind per team and round,
    # so "both in the same round" is "both now".
    if won & lost:
        return None, Tie.BOTH_TOKENS
    if len(lost) == 2:
        return None, Tie.BOTH_MISCOMMUNICATIONS
    if len(won) == 2:
        return None, Tie.BOTH_INTERCEPTIONS
    if won:
        # Also when the loser got its 2nd miscommunication at once: a plain win.
        return Result(tuple(won), Reason.INTERCEPTIONS), None
    if lost:
        return Result(tuple(next_seat(t, 2) for t in lost), Reason.MISCOMMUNICATIONS), None
    if state.round == LAST_ROUND:
        return None, Tie.ROUND_LIMIT
    return None, None


def _tie_break(state: State, tie: Tie) -> State:
    # [DE-9] First the score: +1 per interception, -1 per miscommunication.
    best = _best(state, state.scores)
    if len(best) == 1:
        return dataclasses.replace(state, result=Result(best, Reason.SCORE, tie))
    return dataclasses.replace(state, tie=tie)


def _keywords_guessed(state: State, team: int, count: object) -> State:
    _team(state, team)
    if state.tie is None:
        raise Illegal("Keywords are counted only to break a tie.")
    if type(count) is not int or not 0 <= count <= KEYWORDS:
        raise Illegal("Count 0 to 4 keywords.")
    if state.keywords_guessed[team] is not None:
        raise Illegal("{team} has given its count.", team=state.names[team])
    counts = _put(state.keywords_guessed, team, count)
    state = dataclasses.replace(state, keywords_guessed=counts)
    given = [n for n in counts if n is not None]
    if len(given) < len(counts):
        return state
    # [DE-9] Then the keywords guessed; still equal, both teams win.
    best = _best(state, given)
    reason = Reason.KEYWORDS if len(best) == 1 else Reason.SHARED
    return dataclasses.replace(state, tie=None, result=Result(best, reason, state.tie))


def _best(state: State, points: Sequence[int]) -> tuple[int, ...]:
    top = winners(dict(zip(state.names, points)))
    return tuple(state.names.index(name) for name in top)


def _team(state: State, team: object) -> None:
    if type(team) is not int or team not in (0, 1):
        raise Illegal("There is no such team.")


def _put(pair: tuple[T, T], index: int, value: T) -> tuple[T, T]:
    return _pair(lambda i: value if i == index else pair[i])


def _pair(of: Callable[[int], T]) -> tuple[T, T]:
    """A per-team pair, seat 0's first."""
    return of(0), of(1)


# --- views ----------------------------------------------------------------------------------

class Played(msgspec.Struct, frozen=True):
    """A finished round as the table saw it: its encryptors, the codes
    revealed and the clues typed (none where they were not)."""
    round: int
    encryptors: list[int | None]
    reveals: list[Reveal]
    clues: list[list[str]]


class NoteRow(msgspec.Struct, frozen=True):
    """A row of a paper notesheet (``notesheet``): a clue under the keyword
    position of its digit, None where the code had no such digit."""
    round: int
    clues: list[str | None]


class Public(base.View, frozen=True, kw_only=True):
    """What everyone may see: no keyword, no code before it is revealed, no
    clue before it is read aloud.  Per-team lists are indexed by seat."""
    variant: str
    teams: list[str]
    sizes: list[int]
    deal: str                          # the keywords: "box" (dealt by the box) or "cards"
    lang: str
    timer: bool                        # the sand timer is used [DE-4]
    round: int
    last_round: int
    encryptors: list[int | None]
    encryptor_names: list[str | None]
    step: Step
    clues_done: list[bool]
    clues_deadline: float | None
    typed: list[bool]                  # a team's clues are typed (what they say is theirs until read)
    clues: list[list[str] | None]      # read aloud this round
    swapped: list[bool]
    interceptions: list[int]
    miscommunications: list[int]
    scores: list[int]
    intercept: list[int] | None
    reveals: list[Reveal]
    last: Reveal | None
    history: list[Played]
    notes: list[list[NoteRow]]
    tie: Tie | None
    keywords_guessed: list[int | None]
    result: Result | None


class Private(Public, frozen=True, kw_only=True):
    """What one team may see, on its screen and its page: its keywords and
    the clues its encryptor typed.  The code being played is not here: it is
    for the encryptor alone [DE-3], on the team's screen only while the team
    button is held (``State.codes``)."""
    team: int
    keywords: list[str]
    encryptor: int | None
    own_clues: list[str]
    clues_open: bool


def public(state: State) -> Public:
    cd = state.countdown
    return Public(
        variant=state.variant,
        teams=list(state.names),
        sizes=list(state.sizes),
        deal=state.deal,
        lang=state.lang,
        timer=state.sand_timer,
        round=state.round,
        last_round=HACKER_LAST_ROUND if state.variant == "hacker" else LAST_ROUND,
        encryptors=list(state.encryptors),
        encryptor_names=list(state.encryptor_names),
        step=step(state),
        clues_done=list(state.clues_done),
        clues_deadline=cd.deadline() if cd is not None else None,
        typed=[bool(c) for c in state.clues],
        clues=[list(c) if clues_read(state, t) else None for t, c in enumerate(state.clues)],
        swapped=list(state.swapped),
        interceptions=list(state.interceptions),
        miscommunications=list(state.miscommunications),
        scores=list(state.scores),
        intercept=_list(state.intercept),
        reveals=list(state.reveals),
        last=state.last,
        history=[Played(r.number, list(r.encryptors), list(r.reveals), [list(c) for c in r.clues])
                 for r in state.rounds],
        notes=[[NoteRow(n, list(row)) for n, row in notesheet(state, t)] for t in (0, 1)],
        tie=state.tie if state.result is None else state.result.tie,
        keywords_guessed=list(state.keywords_guessed),
        result=state.result,
    )


def private(state: State, seat: int) -> Private:
    _team(state, seat)
    return base.widened(public(state), Private, team=seat, keywords=list(state.keywords[seat]),
                        encryptor=state.encryptors[seat], own_clues=list(state.clues[seat]),
                        clues_open=can_type_clues(state, seat))


def notesheet(state: State, team: int) -> tuple[tuple[int, tuple[str | None, ...]], ...]:
    """The bottom of ``team``'s paper notesheet: a row for each round whose
    code was revealed with typed clues, each clue under the keyword position
    of its digit (None where the code has no such digit)."""
    rows = []
    for r in (*state.rounds, Round(state.round, state.encryptors, state.reveals, state.clues)):
        for x in r.reveals:
            if x.team == team and r.clues[team]:
                row: list[str | None] = [None] * KEYWORDS
                for digit, clue in zip(x.code, r.clues[team]):
                    row[digit - 1] = clue
                rows.append((r.number, tuple(row)))
    return tuple(rows)


class Guessed(msgspec.Struct):
    """What a team's code was guessed to be: by the other team (None: no
    interception tried) and by its own."""
    intercept: list[int] | None
    decode: list[int]


class Tokens(msgspec.Struct):
    interceptions: int
    miscommunications: int


class RoundLog(base.Round, kw_only=True):
    """A round of the score log, by team name: who encrypted, the codes
    revealed, the guesses at them, the tokens won, and the clues where the
    encryptors typed them."""
    round: int
    encryptors: dict[str, int | None]   # each coding team's encryptor, by player number
    codes: dict[str, list[int]]
    guesses: dict[str, Guessed]
    tokens: dict[str, Tokens]
    clues: dict[str, list[str]] = {}


class Summary(base.Summary, kw_only=True):
    """Decrypto's score log: its players are the two teams (or the Hacker
    and the Team), its notes their clue sheets; the fields past ``variant``
    are there once they say something."""
    variant: str                               # always written: "teams" or "hacker"
    rounds: list[RoundLog]
    reason: Reason | None = None               # what ended the game
    tie: Tie | None = None                     # why a tie-break was needed
    keywords_guessed: dict[str, int] = {}      # the last tie-break's counts [DE-9]


def summary(state: State) -> Summary:
    """The score log.  With two teams a round scores each team's
    interceptions minus its miscommunications [DE-9].  In the hacker variant
    the Team has no tokens of its own; what decides the game is a race
    [DE-10]: the Hacker scores 1 per interception and needs 2, the Team
    scores 1 for every round it ends with the Hacker under 2 and needs 5.
    ``goals`` says so, by side; ``reason`` says what ended the game."""
    names = state.names
    rounds = list(state.rounds)
    read = _pair(lambda t: state.clues[t] if clues_read(state, t) else ())
    if state.reveals or any(read):
        rounds.append(Round(state.round, state.encryptors, state.reveals, read))
    log: list[RoundLog] = []
    hacker = 0  # the Hacker's interceptions by the end of the round
    for r in rounds:
        got_i, got_m = [0, 0], [0, 0]
        for reveal in r.reveals:
            i, m = _tokens(state.variant, reveal)
            got_i = [a + b for a, b in zip(got_i, i)]
            got_m = [a + b for a, b in zip(got_m, m)]
        scores = {names[t]: got_i[t] - got_m[t] for t in (0, 1)}
        if state.variant == "hacker":
            hacker += got_i[HACKER]
            # [DE-10] [ruling] the score log counts the rounds the Team held out
            held = r.number <= len(state.rounds) and hacker < 2
            scores = {names[HACKER]: got_i[HACKER], names[HACKER_TEAM]: int(held)}
        log.append(RoundLog(
            round=r.number, encryptors={names[t]: r.encryptors[t] for t in state.coding},
            codes={names[x.team]: list(x.code) for x in r.reveals},
            guesses={names[x.team]: Guessed(_list(x.intercept), list(x.decode)) for x in r.reveals},
            tokens={names[t]: Tokens(got_i[t], got_m[t]) for t in (0, 1)},
            scores=scores,
            # Clues are there only when the encryptors typed them.
            clues={names[t]: list(r.clues[t]) for t in state.coding if r.clues[t]}))
    totals = dict(zip(names, state.scores))
    if state.variant == "hacker":
        totals = {name: sum(row.scores[name] for row in log) for name in names}
    notes = {names[t]: _notes_view(state, t) for t in state.coding}
    result = state.result
    return Summary(
        status="finished" if result is not None else "playing",
        variant=state.variant,
        players=list(names),
        rounds=log,
        totals=totals,
        winners=[names[t] for t in result.winners] if result is not None else [],
        notes=notes if any(notes.values()) else {},
        goals={names[HACKER]: 2, names[HACKER_TEAM]: HACKER_LAST_ROUND} if state.variant == "hacker" else {},
        members={names[t]: list(state.members[t]) for t in (0, 1)} if any(state.members) else {},
        reason=None if result is None else result.reason,
        tie=None if result is None else result.tie,
        keywords_guessed=({name: n for name, n in zip(names, state.keywords_guessed) if n is not None}
                          if result is not None and result.reason in (Reason.KEYWORDS, Reason.SHARED) else {}),
    )


def _notes_view(state: State, team: int) -> list[dict[str, Any]]:
    return [{"round": n, "clues": list(row)} for n, row in notesheet(state, team)]


def _list(code: Code | None) -> list[int] | None:
    return None if code is None else list(code)
