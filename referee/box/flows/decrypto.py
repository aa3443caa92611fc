"""Decrypto at the table: what each key does and what the three screens say.

Screens
-------
``main`` is public: the round, who encrypts, the tokens, the prompts, each
revealed code, the result.  It never shows a keyword or a code that is not
revealed yet.  Each team's own screen shows its four keywords (numbered 1-4,
as on the game's screen card) and, only while its team button is held, its
code.  Each round's encryptor is named when the players were named, else
numbered in the team [DE-2].  Seat 0 is ``team1`` and seat 1 is ``team2``:
White and Black, or in the three-player variant the Hacker (``team1``, no
keywords) and the Team (``team2``).

Keys
----
Setup: ``1`` players (two teams and their sizes, or the Hacker against two),
``2`` keywords (dealt by the box in a language, or the table's own cards),
``3`` the 30-second sand timer, on or off [DE-4] (the Hacker's game has
none: its line says what the Hacker plays for instead, and ``3`` does
nothing), ``#`` start, ``C`` clue rules, ``*`` back.  Before anyone is named
each team's screen says its side: its size, or what the Hacker plays for.
Picking from tonight's players, the first half picked join White; three
picked are the Hacker's game, the first picked the Hacker.

Team button, two short presses within 2 seconds: "our clues are written"
[DE-4]; after the first the team's screen asks "Done? Press again", so that a
peek let go too soon never ends the writing.  Held: the code shows on the
team's screen for the encryptor, until it is let go [DE-3].

Writing clues: ``A`` swap a dealt keyword before round 1's first clues (the
team's digit if both may still swap, then the keyword's position 1-4).

Guessing: three digits, ``#`` to confirm, ``*`` to clear [DE-5]; a digit the
rules would refuse (a 5, one typed twice) is refused as it is pressed.  An
interception, once announced, stays on ``main`` (what was said, not whether
it was right) until ``#`` or the decode's first digit.  A revealed
code, each guess said right or wrong, stays on ``main`` until ``#`` or the
next guess's first digit; a team done with its clues leaves it up, unless
that starts the other team's countdown, which then takes the screen.

Tie-break: each team in turn types how many of the other team's keywords it
guessed right, one digit and ``#`` [DE-9].

In play ``C`` shows the help (``playhelp``: what the phase is for, the
page's keys, the clue rules, the rest of the keys) and ``D`` the codes
revealed so far; there ``C``/``D`` turn the pages and ``*`` goes back.  Game over: ``C``/``D`` turn
the pages (result, the score log's QR code, every revealed code), ``#`` back
to the main menu.  Undo and ending a game early are the box's own (hold
``*``).
"""
from __future__ import annotations

import dataclasses
from enum import StrEnum
from typing import TYPE_CHECKING

from games import decrypto as d
from games.base import Illegal
from referee import i18n
from referee.box.flows import public
from referee.box.flows import Flow, clock_text, forms, roles
from referee.box.screen import COLS, LINES, Screen, fit, wrap
from referee.i18n import N_, _, ngettext
from referee.team_links import team_url
from referee.said.decrypto import code_text, describe, said_line, tokens_short  # noqa: F401  (describe: the catalogue's hook)

if TYPE_CHECKING:
    from referee.box.session import Session

SEATS = ("team1", "team2")
# The rules name the sides in English; these mark the names for translation.
# The keywords' language as the table's language calls it ("Slova: čeština"),
# as Osmišifry names its letter tables.
WORD_LANGS = {"en": N_("English"), "cs": N_("Czech"), "pl": N_("Polish"), "ru": N_("Russian")}
# How to work the box, after the clue rules on the help pages.
KEY_HELP = (N_("int: interceptions,"), N_("mis: miscommunication"), N_("Team button twice:"), N_("our clues are done."), N_("Hold it: see the code"),
            N_("Guess: 3 digits, #;"), N_("* clears the digits."), N_("A: swap a keyword"),
            N_("(before round 1)."), N_("B: phone pages (QR)"), N_("C: help  D: codes"))
HELP = (*d.CLUE_RULES, *KEY_HELP)
BACK, ON = "◄", "►"
# A second short press of a team button within this many seconds says the
# clues are written: one press alone may be a peek let go too soon.
DONE_SECONDS = 2.0


# --- setup ---------------------------------------------------------------------------

# Teams by number of players (White first), the Hacker's three after them.
# Each reads with the sides' own names (``d.TEAMS``, the glossary's words),
# so the line says which team has how many: "1 White 3 v 2 Black".
SIZES = ((2, 2), (3, 2), (2, 3), (3, 3), (4, 2), (2, 4), (4, 3), (3, 4), (4, 4))
PLAYERS = (*((("teams", size), N_("White {0} v {1} Black")) for size in SIZES),
           (("hacker", None), N_("Hacker alone v 2")))
# [DE-10] what the Hacker plays for, on the line the timer leaves (no sand
# timer in the Hacker's game), and in whole on the Hacker's own screen.
HACKER_NOTE = N_("Hacker wins on 2 int.")
HACKER_SAID = N_("Plays alone against two; only intercepts. Two interceptions by round 5 win.")


def setup(box) -> Flow:
    return Setup(box)


class Setup(forms.Form):
    """The setup form; its help is the clue rules, paged with ``C``/``D``."""

    def _members_fit(self, variant, sizes) -> bool:
        # Named teams count only while the teams line still says their sizes.
        return tuple(map(len, self.members)) == (sizes if variant == "teams" else (1, 2))

    def __init__(self, box) -> None:
        keywords = (*((("box", code), _(WORD_LANGS[code])) for code in d.LANGS), (("cards", None), _("own cards")))
        options = [
            forms.Option("players", _("Teams"), tuple((v, _(label).format(*v[1] or ())) for v, label in PLAYERS)),
            forms.Option("keywords", _("Keywords"), keywords, default=d.LANGS.index(i18n.lang)),
            # [DE-4] the rules say the sand timer may be used: the table chooses
            forms.Option("timer", _("Timer"), ((True, _("30 s")), (False, _("off")))),
        ]
        super().__init__(box, "Decrypto", options, self._start, help_lines=tuple(_(line) for line in HELP))

    teams = True

    def line(self, index: int) -> str:
        if self.options[index].key == "players":   # the sides' names say it all: no label
            return fit(f"{index + 1} {self.shown(index)}")
        return super().line(index)

    def moot(self, index: int) -> bool:
        # [DE-10] One encryptor has nobody to wait for: the Hacker's game has no sand timer.
        return self.options[index].key == "timer" and self.values["players"][0] == "hacker"

    def note(self) -> str:
        return _(HACKER_NOTE) if self.values["players"][0] == "hacker" else ""

    noted = "players"   # the Hacker's line, then what the Hacker plays for

    def side_lines(self, team: int) -> tuple[str, ...]:
        """Before names: how many the side seats, and on the Hacker's screen
        what the Hacker plays for [DE-10]."""
        variant, sizes = self.values["players"]
        if variant == "hacker" and team == d.HACKER:
            return tuple(wrap(_(HACKER_SAID)))[:LINES]
        count = sizes[team] if sizes is not None else 2
        return (ngettext("{n} player", "{n} players", count).format(n=count),)

    def split(self, count: int) -> tuple[int, ...]:
        # Three picked are the Hacker's game: the first picked is the Hacker.
        return (1, 2) if count == 3 else super().split(count)

    def titles_for(self, count: int) -> tuple[str, ...]:
        return tuple(_(side) for side in (d.HACKER_SIDES if count == 3 else d.TEAMS))

    @property
    def team_titles(self) -> tuple[str, ...]:
        variant, _sizes = self.values["players"]
        return self.titles_for(3 if variant == "hacker" else 4)

    def set_members(self, teams: list[list[str]]) -> None:
        """Players named team by team: their counts choose the teams line
        (one against two is the Hacker variant)."""
        if any(teams):
            sizes = tuple(len(team) for team in teams)
            wanted = ("hacker", None) if sizes == (1, 2) else ("teams", sizes)
            values = [v for v, _label in self.options[0].choices]
            if wanted not in values:
                raise Illegal("Each team has 2 to 4 players.")
            self.chosen[0] = values.index(wanted)
        self.members = [list(team) for team in teams] if any(teams) else []

    def _start(self, values: dict) -> None:
        variant, sizes = values["players"]
        deal, lang = values["keywords"]
        options = {"variant": variant, "keywords": deal}
        if variant == "teams":
            options["timer"] = values["timer"]
        if self.members and self._members_fit(variant, sizes):
            options["members"] = self.members
        if sizes is not None:
            options["sizes"] = sizes
        if lang is not None:
            options["lang"] = lang
        self.box.start_game(d.NAME, options)


# --- playing ---------------------------------------------------------------------------

def guessers(now: d.Step) -> tuple[int, int]:
    """On an interception's or a decode's step: the team guessing, and the
    team whose code it is."""
    if now.team is None or now.of_team is None:
        raise ValueError(f"a {now.kind} step has no code to guess")
    return now.team, now.of_team


def revealed(state: d.State) -> list[tuple[int, d.Reveal]]:
    """Every code revealed so far, with its round, in the order played."""
    done = [(r.number, x) for r in state.rounds for x in r.reveals]
    return done + [(state.round, x) for x in state.reveals]


def reveal_key(number: int, reveal: d.Reveal) -> str:
    # A different guess after an undo is a different reveal, to be shown anew.
    return f"{number}:{reveal.team}:{reveal.intercept}:{reveal.decode}"


class Page(StrEnum):
    """The pages of a Decrypto game's screens; what the keys do depends on it
    (the help in play is the box's: ``playhelp``)."""
    PLAY = "play"
    SCORES = "scores"
    SWAP = "swap"       # a team picks the keyword to swap
    PHONES = "phones"   # the team pages' links


class Play(Flow):
    remembered = ("page", "sub", "swap_team", "typed", "seen")
    keyed = ("page", "sub", "swap_team", "typed")   # an undo lands on the play page, nothing typed

    def __init__(self, box, session) -> None:
        super().__init__(box)
        self.session: Session = session
        self.page = Page.PLAY
        self.sub = 0            # the page shown within help, scores or the game's end
        self.swap_team: int | None = None   # the team choosing which keyword to swap
        self.typed = ""         # digits typed for a guess or a keyword count
        self.seen: list[str] = []   # reveals the table has moved on from
        self.held: set[int] = set()  # seats whose team button is held down
        self.asked: dict[int, float] = {}  # seat -> when its "done?" runs out

    @property
    def state(self) -> d.State:
        return self.session.state

    def name(self, seat: int) -> str:
        return _(self.state.names[seat])

    # --- keys ---------------------------------------------------------------------

    def key(self, key: str, kind: str) -> None:
        if key in SEATS:
            self._team_key(SEATS.index(key), kind)
        elif kind == "press":
            page = self._page()
            {Page.SCORES: self._scores_key, Page.SWAP: self._swap_key, Page.PHONES: self._phones_key}.get(page, self._play_key)(key)

    def _team_key(self, seat: int, kind: str) -> None:
        if kind == "hold":
            self.held.add(seat)
        elif kind == "release":
            self.held.discard(seat)
        else:
            # A revealed code stays up for the table to read: a team done
            # with its clues does not take it away (only # or a digit does,
            # or the other team's countdown, which needs the screen).
            self._done_press(seat)

    def _asking(self, seat: int) -> bool:
        """Whether the team's screen asks "done?" after a first press."""
        now = self.box.clock.monotonic()
        return self.asked.get(seat, now) > now

    def _done_press(self, seat: int) -> None:
        """[DE-4] Done is two short presses: the first only asks."""
        s, now = self.state, self.box.clock.monotonic()
        if self.asked.pop(seat, now) > now:
            if self.box.act(d.CluesDone(seat)) and self.box.remaining() is not None:
                self._move_on()   # the countdown takes the screen; its line keeps the last verdict
        elif d.step(s).kind != "clues" or seat not in s.coding or s.clues_done[seat]:
            self.box.act(d.CluesDone(seat))   # the rules say why not
        else:
            self.asked[seat] = now + DONE_SECONDS
            self.box.clock.call_later(DONE_SECONDS, self.box.render)

    def _play_key(self, key: str) -> None:
        if self._unseen() is not None or self._noted() is not None:
            if key == "#":
                self._move_on()
                return
            if key.isdigit():
                self._move_on()  # the next guess begins: the reveal was read
        now = d.step(self.state)
        if now.kind == "over" and self._unseen() is None:
            self._over_key(key)
        elif key == "D":
            self._open(Page.SCORES)
        elif key == "B":
            self._open(Page.PHONES)
        elif key == "A" and self._swappers():
            teams = self._swappers()
            self._open(Page.SWAP)
            self.swap_team = teams[0] if len(teams) == 1 else None
        elif now.kind in ("intercept", "decode", "tiebreak"):
            self._entry_key(key, now)

    def _entry_key(self, key: str, now: d.Step) -> None:
        width = 1 if now.kind == "tiebreak" else 3
        if key.isdigit():
            refused = self._refused_digit(key, now)
            if refused:
                # Refused as it is pressed, not at # three keys later [DE-5].
                self.box.flash(refused)
                self.box.sound("error")
            elif len(self.typed) < width:
                self.typed += key
            else:
                self.box.sound("error")
        elif key == "*":
            self.typed = ""
        elif key == "#":
            # The rules judge what was typed; a refusal shows their message.
            digits = tuple(int(c) for c in self.typed)
            self.typed = ""
            event: d.KeywordsGuessed | d.Guess
            if now.kind == "tiebreak" and not digits:
                # No count typed: refused as the rules refuse a count out of range.
                self.box.flash(_("Count 0 to 4 keywords."))
                self.box.sound("error")
                return
            if now.kind == "tiebreak":
                event = d.KeywordsGuessed(now.waiting[0], digits[0])
            else:
                event = d.Guess(guessers(now)[0], digits)
            if self.box.act(event) and d.is_over(self.state):
                self.box.sound("done")

    def _refused_digit(self, key: str, now: d.Step) -> str:
        """Why the rules would refuse this digit of a code (a 5, a digit
        typed twice) or of a keyword count (more than 4), else ""."""
        if now.kind == "tiebreak":
            return _("0 to 4 keywords.") if int(key) > 4 else ""
        if not 1 <= int(key) <= 4:
            return _("A code's digits are 1 to 4.")
        if key in self.typed:
            return _("Digit {digit}: already in the code.").format(digit=key)
        return ""

    def _over_key(self, key: str) -> None:
        if key == "#":
            self.box.leave()
        elif key in "CD":
            self.sub = (self.sub + (1 if key == "D" else -1)) % len(self._over_pages())

    def _scores_key(self, key: str) -> None:
        count = max(1, len(revealed(self.state)))
        if key in "CD":
            self.sub = (self.sub + (1 if key == "D" else -1)) % count
        elif key == "*":
            self._open(Page.PLAY)

    def _phones_key(self, key: str) -> None:
        if key in "*B":
            self._open(Page.PLAY)

    def _swap_key(self, key: str) -> None:
        if key == "*":
            if self.swap_team is not None and len(self._swappers()) > 1:
                self.swap_team = None
            else:
                self._open(Page.PLAY)
        elif key.isdigit():
            team = self.swap_team
            if team is None:
                if int(key) - 1 in self._swappers():
                    self.swap_team = int(key) - 1
            elif self.box.act(d.SwapKeyword(team, int(key))):
                self._open(Page.PLAY)
                self.box.flash(_("{team} swapped word {n}.").format(team=self.name(team), n=key))

    def _open(self, page: Page) -> None:
        self.page, self.sub, self.swap_team = page, 0, None

    def _page(self) -> Page:
        # A page whose moment has passed (an undo, a team button) is gone.
        if self.page == Page.SWAP and not self._swappers():
            return Page.PLAY
        return self.page

    def _swappers(self) -> list[int]:
        return [t for t in self.state.coding if d.can_swap(self.state, t)]

    def _unseen(self) -> tuple[int, d.Reveal] | None:
        """The last revealed code, while the table has not moved on from it."""
        done = revealed(self.state)
        if done and reveal_key(*done[-1]) not in self.seen:
            return done[-1]
        return None

    def _noted(self) -> str | None:
        """The key of the interception just announced, while the table has
        not moved on from it to the decode: as a decode has its result, an
        interception has its page, so that the # that ends typing it never
        lands on the decode with nothing typed."""
        s, now = self.state, d.step(self.state)
        if now.kind != "decode" or s.intercept is None or self.typed:
            return None
        key = f"{s.round}:{now.team}:i:{code_text(s.intercept)}"
        return None if key in self.seen else key

    def _move_on(self) -> None:
        last = self._unseen()
        if last is not None:
            self.seen = [*self.seen, reveal_key(*last)]
        noted = self._noted()
        if noted is not None:
            self.seen = [*self.seen, noted]

    # --- screens ---------------------------------------------------------------------

    def screens(self) -> dict[str, Screen]:
        if self._page() == Page.PHONES:
            return {"main": Screen(_("Phone pages"), (_("Each team: scan the"), _("code on your own"),
                                                      _("screen for your notes.")),
                                   keys=(roles.help_key(), ("*", _("Back")))),
                    "team1": self._phone_screen(0), "team2": self._phone_screen(1)}
        return {"main": self._main(), "team1": self._team_screen(0), "team2": self._team_screen(1)}

    # --- help in play (``playhelp``) ------------------------------------------------

    def help_rules(self) -> tuple[str, ...]:
        """After the page's keys, while the encryptors write: the clue
        rules [DE-11].  The rest of the setup's help, the box's keys at
        large, is said by the page's keys and the words it shows."""
        clues = d.step(self.session.state).kind == "clues" and self._page() == Page.PLAY
        return tuple(_(line) for line in d.CLUE_RULES) if clues else ()

    def help_anchor(self) -> str:
        # A code revealed is How to play's "The code revealed", whatever step follows it.
        return "reveal" if self._page() == Page.PLAY and self._unseen() is not None else ""

    def digit_help(self, page: Screen) -> str:
        if self._page() == Page.SWAP:
            return _("{keys}: the team that swaps") if self.swap_team is None else _("{keys}: the keyword to swap")
        if d.step(self.state).kind == "tiebreak":
            return _("0-{n}: keywords guessed, then #").format(n=d.KEYWORDS)
        return _("1-{n}: the code, 3 digits, then #").format(n=d.KEYWORDS)

    def _phone_screen(self, seat: int) -> Screen:
        # The team page's address is a secret of the team: its own screen only.
        return Screen(self.name(seat), (_("Your team"), _("page:"), _("scan me")), qr=team_url(self.box, seat))

    @property
    def outcome(self) -> bool:
        """Whether the public page shows a guess's outcome (a code's reveal,
        an interception), up until ``#``: nobody's turn is on it yet."""
        if self._page() != Page.PLAY:
            return False
        counting = d.step(self.state).kind == "clues" and self.box.remaining() is not None
        return self._unseen() is not None and not counting

    def _main(self) -> Screen:
        s, page = self.state, self._page()
        if page == Page.SCORES:
            return self._scores_screen()
        if page == Page.SWAP:
            return self._swap_screen()
        last = self._unseen()
        counting = d.step(s).kind == "clues" and self.box.remaining() is not None
        if last is not None and not counting:
            return dataclasses.replace(self._reveal_screen(*last, keys=(("#", _("Next")), ("C", _("Help")),
                                                                        ("D", _("Codes")))),
                                       digits=self._next_entry())
        now = d.step(s)
        if self._noted() is not None:
            return self._noted_screen(now)
        if now.kind == "clues":
            return self._clues_screen(now)
        if now.kind in ("intercept", "decode"):
            return self._guess_screen(now)
        if now.kind == "tiebreak":
            return self._tiebreak_screen(now)
        if now.kind == "over":
            pages = self._over_pages()
            return pages[self.sub % len(pages)]
        return Screen("Decrypto", (_("Dealing…"),))

    def _clues_screen(self, now: d.Step) -> Screen:
        s = self.state
        left = self.box.remaining()
        if left is not None:
            # [DE-4] The first team is done: the other has 30 seconds.  (No
            # verdict of the last round here: the line of what was last
            # done says who finished.)
            late = self.name(now.waiting[0])
            return Screen(_("{team}: finish clues!").format(team=late), (), big=clock_text(left), mid=True,
                          keys=(("C", _("Help")),))
        # [DE-2] The encryptor rotates through the team, round by round.
        lines = [self._encryptor_line(t) for t in s.coding]
        # [DE-4] How a team says its clues are written, where there is a
        # line for it: in every round without tokens, and in the Hacker's.
        done = _("Done: team button ×2")
        told = public.account(self.session)
        if s.variant == "hacker":
            lines += [public.tokens(told, d.HACKER), told.stage, done]
        elif self._swappers():
            # [DE-1] before round 1's first clues only; B (the phone pages)
            # is said on the line, the key bar has no room for it.
            lines += [_("A: swap  B: phone QR"), done]
        elif any(count.n for side in told.sides for count in side.counts):
            # Each team's tokens beside its name, in the box's short words
            # of the account's numbers (the phones word the same numbers long).
            lines += [fit(tokens_short(side)) for side in told.sides]
        else:
            lines += [done, _("No tokens yet.")]
        # B (phone pages) always works: on the key bar when A is free, else on a line.
        first = ("A", _("Swap")) if self._swappers() else ("B", _("QR"))
        keys = (first, ("C", _("Help")), ("D", _("Codes")))
        return Screen(_("Round {n}: encryptors").format(n=s.round), tuple(lines), keys=keys,
                      also=("B",) if self._swappers() else ())

    def _encryptor_line(self, team: int) -> str:
        """Who encrypts for ``team`` this round: by name when the players
        were named, else by their number in the team [DE-2]."""
        s = self.state
        done = s.clues_done[team]
        name = s.encryptor_names[team]
        if name is None:
            text = _("{team}: Player {n} done") if done else _("{team}: Player {n}")
            return text.format(team=self.name(team), n=s.encryptors[team])
        text = _("{team}: {name} done") if done else _("{team}: {name}")
        # A long name gives way to "done", which the table waits for.
        room = COLS - len(text.format(team=self.name(team), name=""))
        return text.format(team=self.name(team), name=fit(name, max(room, 4)))

    def _by_encryptor(self, team: int, by_number: str, by_name: str) -> str:
        """``by_name`` with the encryptor's name when the players are named,
        else ``by_number`` with their number in the team [DE-2]."""
        s = self.state
        name = s.encryptor_names[team]
        return by_number.format(n=s.encryptors[team]) if name is None else by_name.format(name=name)

    def _guess_screen(self, now: d.Step) -> Screen:
        s = self.state
        guessing, of_team = guessers(now)
        if now.kind == "intercept":
            lines = [_("{team} intercepts.").format(team=self.name(guessing))]
        else:
            lines = [_("{team} decodes.").format(team=self.name(guessing))]
            if s.intercept is not None:
                rival = self.name(1 - guessing)
                lines.append(_("{team} said {code}").format(team=rival, code=code_text(s.intercept)))
        lines += [_("3 digits 1-4, then #"), "> " + "-".join(self.typed.ljust(3, "_"))]
        typing = len(lines) - 1
        first = not s.reveals and s.intercept is None
        if first and not all(s.clues_done[t] for t in s.coding):
            lines.append(_("Time up: stop writing"))  # [DE-4]
        title = _("Round {n}: {team} code").format(n=s.round, team=self.name(of_team))
        # Every digit: the page says why one is not a code's (a 5, one typed twice).
        return Screen(title, tuple(lines), keys=(("#", _("OK")), ("*", _("Clear")), ("C", _("Help"))), typing=typing,
                      digits=roles.DIGITS)

    def _next_entry(self) -> str:
        """The digits a page read before a guess takes: each begins the
        guess that comes next, as the page is read (none before clues)."""
        return roles.DIGITS if d.step(self.state).kind in ("intercept", "decode", "tiebreak") else ""

    def _noted_screen(self, now: d.Step) -> Screen:
        """The interception announced, before the decode: what was said
        (right or wrong only with the code [DE-6]) and who guesses next."""
        s, (guessing, _of_team) = self.state, guessers(now)
        rival, team = self.name(1 - guessing), self.name(guessing)
        lines = (*wrap(_("{team} intercepts: {code}").format(team=rival, code=code_text(s.intercept))),
                 *wrap(_("Now {team} decodes its own code.").format(team=team)))
        title = _("Round {n}: {team} code").format(n=s.round, team=team)
        return Screen(title, lines, keys=(("#", _("Next")), ("C", _("Help")), ("D", _("Codes"))),
                      digits=self._next_entry())

    def _reveal_screen(self, number: int, x: d.Reveal, keys) -> Screen:
        s = self.state
        team, rival = self.name(x.team), self.name(1 - x.team)
        lines = []
        if x.intercept is not None:
            lines.append(said_line(rival, x.intercept, x.intercept == x.code))
        lines.append(said_line(team, x.decode, x.decode == x.code))
        # [DE-6] Each token is said aloud, both when both happen.
        if x.intercepted:
            lines.append(_("{team} intercepts!").format(team=rival))
        if x.miscommunicated and s.variant == "hacker":
            lines.append(_("{team} fails: Hacker +1").format(team=team))  # [DE-10]
        elif x.miscommunicated:
            lines.append(_("{team} miscommunicates").format(team=team))
        if not (x.intercepted or x.miscommunicated):
            lines.append(_("No tokens."))
        title = _("Round {n}: {team} {code}").format(n=number, team=team, code=code_text(x.code))
        return Screen(title, tuple(lines), keys=keys)

    def _scores_screen(self) -> Screen:
        done = revealed(self.state)
        if not done:
            return Screen(_("Codes"), (_("No code revealed yet."),), keys=(roles.help_key(), ("*", _("Back"))))
        keys = (("C", BACK), ("D", ON), ("*", _("Back")))
        return self._reveal_screen(*done[self.sub % len(done)], keys=keys)

    def _swap_screen(self) -> Screen:
        team = self.swap_team
        if team is None:
            lines = tuple(f"{t + 1} {self.name(t)}" for t in self._swappers())
            return Screen(_("Who swaps a keyword?"), lines, keys=(roles.help_key(), ("*", _("Back"))),
                          digits="".join(str(t + 1) for t in self._swappers()))
        text = _("Which keyword does nobody know? Press 1-4; the new word shows on your screen.")
        return Screen(_("{team} swaps a word").format(team=self.name(team)), tuple(wrap(text)),
                      keys=(roles.help_key(), ("*", _("Back"))), digits=roles.digits(4))

    def _tiebreak_screen(self, now: d.Step) -> Screen:
        s = self.state
        lines = list(wrap(_("Keywords of the other team guessed right:")))
        typing = None
        for t in (0, 1):
            count = s.keywords_guessed[t]
            if t == now.waiting[0]:
                typing = len(lines)
                lines.append(f"> {self.name(t)}: {self.typed or '_'}")
            else:
                lines.append(f"{self.name(t)}: {'_' if count is None else count}")
        # [DE-9] The score that tied: interceptions less miscommunications.
        title = _("Tie, int-mis {0}:{1}").format(*s.scores)
        return Screen(title, tuple(lines), keys=(("#", _("OK")), ("*", _("Clear")), ("C", _("Help"))), typing=typing,
                      digits=roles.DIGITS)

    def _over_pages(self) -> list[Screen]:
        """The result, the score log's QR code, then every revealed code."""
        turn = (("C", BACK), ("D", ON), ("#", _("Menu")))
        url = self.box.public_url()
        scan = Screen(_("Scores"), tuple(wrap(_("Scan for tonight's scores"), 10)), qr=url,
                      keys=(("D", ON), ("#", _("Menu"))))
        codes = [self._reveal_screen(*x, keys=turn) for x in revealed(self.state)]
        return [self._result_screen(turn), scan, *codes]

    def _result_screen(self, keys: tuple[tuple[str, str], ...]) -> Screen:
        r = self.state.result
        if r is None:
            raise RuntimeError("a result is shown only once the game is over")
        if len(r.winners) == 2:
            title = _("Both teams win!")
        else:
            title = _("{team} wins!").format(team=self.name(r.winners[0]))
        # Why it ended, and after a tie what broke it [DE-9]: the account's
        # words, which the table view and the replay's last step say too.
        return Screen(title, public.reason_lines(public.account(self.session)), keys=keys)

    def _team_screen(self, seat: int) -> Screen:
        s = self.state
        if seat not in s.coding:
            return self._hacker_screen(seat)
        now = d.step(s)
        code = s.codes[seat]
        hidden = code is not None and now.kind in ("clues", "intercept", "decode") \
            and all(x.team != seat for x in s.reveals)
        if seat in self.held and hidden:
            # [DE-3] For the encryptor's eyes: only while the button is held.
            only = self._by_encryptor(seat, _("Player {n} only!"), _("{name} only!"))
            return Screen(_("{team}: code").format(team=self.name(seat)), (only,), big=code_text(code))
        if self._page() == Page.SWAP and self.swap_team == seat:
            title = _("Swap which? 1-4")
        elif now.kind == "over":
            title = self._result_screen(()).title
        else:
            title = _("{team}, round {n}").format(team=self.name(seat), n=s.round)
            left = self.box.remaining()
            if left is not None:
                title += "  " + clock_text(left)
        if s.keywords[seat]:
            lines = tuple(f"{n} {word}" for n, word in enumerate(s.keywords[seat], 1))
        else:
            lines = tuple(wrap(self._by_encryptor(seat, _("Your own keyword cards. Player {n} encrypts."),
                                                  _("Your own keyword cards. {name} encrypts."))))
        keys: tuple[tuple[str, str], ...] = ()
        if hidden:
            keys += ((_("hold"), _("code")),)
        writing = now.kind == "clues" and not s.clues_done[seat]
        if writing and self._asking(seat):
            return Screen(_("Done? Press again"), lines, keys=((_("press"), _("done")), (_("wait"), _("no"))))
        if writing:
            keys += ((_("press"), _("done")),)
        return Screen(title, lines, keys=keys)

    def _hacker_screen(self, seat: int) -> Screen:
        s = self.state
        if d.step(s).kind == "over":
            title = self._result_screen(()).title
        else:
            title = _("{team}, round {n}/{last}").format(team=self.name(seat), n=s.round, last=d.HACKER_LAST_ROUND)
        text = _("Listen to the Team's clues; intercept from round 2.")
        tokens = _("Tokens: {n} of 2").format(n=s.interceptions[seat])
        return Screen(title, (*wrap(text), tokens))

