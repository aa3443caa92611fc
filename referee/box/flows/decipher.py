"""Decipher at the table: the maker answers, the seekers guess, the box counts.

There are no teams, so screen 1 (the "team1" panel) is the word maker's
private screen and button 1 is theirs.  Keys, by what the rules wait for
(``games.decipher.step``):

Round start   The maker builds the word.  They may type the number of pieces
              in the secret chamber: it shows on screen 1, main shows only
              dots.  ``#`` starts the round, with the count or without it;
              ``*`` clears the digits.
place         ``A`` YES (next seeker), ``B`` NO (same seeker again): the
              positive answer on ``A`` as in every game (``answers``).
request       Bonus mode: ``#`` the seeker on turn asks for a piece.
guess         All pieces are out: ``#`` nobody guesses any more (asked first).
In a round    A seeker's seat digit opens their guess: ``A`` right,
              ``B`` wrong, ``*`` back.  ``D`` more: ``1`` the piece count
              (maker, until bonus mode; after the first piece is placed it
              counts the pieces left, and ``#`` asks the maker to confirm on
              screen 1 with ``#`` again), ``2`` bonus mode
              (maker, without a count), ``3`` nobody guesses any more,
              ``4`` the scores; ``*`` back.
Round table   ``C``/``D`` page back and on, ``#`` next round.
Help          ``C`` on a round's every page: the help in play (``playhelp``).
Game over     The score log's QR code, the totals, the last round;
              ``#`` back to the main menu.
Button 1      Held, screen 1 shows the maker how many pieces are left.
"""
from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING

import msgspec

from games import decipher as game
from referee.box.flows import Flow, answers, more, public, roles
from referee.box.flows.forms import HELP_LINES, Form, Option, named_seats, seat_option
from referee.box.screen import COLS, LINES, Screen, fit, key_rows, wrap
from referee.i18n import N_, _, ngettext
from referee.said.decipher import describe  # noqa: F401  (the catalogue's hook)

if TYPE_CHECKING:
    from referee.box.session import Session

# Main shows the same two dots however many digits the maker types, so that
# not even the count's length is public [DC-3].
DOTS = "●●"
ITEMS = (("no", N_("NO tokens")), ("bonus", N_("Bonus tokens")),
         ("guess", N_("Guess tokens")), ("solution", N_("Solution")))
BACK, ON = "◄", "►"


def setup(box) -> Form:
    return SetupForm(box, _("Decipher"), [
        Option("players", _("Players"), tuple((n, str(n)) for n in (2, 3, 4)), default=1),
        Option("length", _("Letters"), tuple((n, str(n)) for n in range(3, 7)), default=2),
        seat_option("first_maker", _("Starts"), 4),  # [DC-2] the first word maker is the table's choice
    ], start=lambda values: box.start_game(game.NAME, named_seats(values)),
        help_lines=(_("Round plan"),))  # drawn by SetupForm for the players chosen


class SetupForm(Form):
    """The setup form; its help is the round plan for the players chosen,
    then the ruling on guess tokens."""

    def help(self) -> tuple[str, ...]:
        makers = round_plan(self.values)
        players = self.values["players"]
        # [DC-10] the rulebook's ruling, said where the table can read it: a page of its own
        ruling = wrap(ngettext("Ruling: every seeker starts each round with {n} guess token.",
                               "Ruling: every seeker starts each round with {n} guess tokens.",
                               game.TOKENS).format(n=game.TOKENS))
        return (_("Players: {players}, rounds: {rounds}").format(rounds=len(makers), players=players),
                _("Makers, moving left:"),
                _("Player {seats}").format(seats="→".join(str(seat + 1) for seat in makers)),
                *ruling, *("",) * (-len(ruling) % HELP_LINES),
                ngettext("Words of {n} letter", "Words of {n} letters", self.values["length"]).format(
                    n=self.values["length"]),
                _("Maker: pieces, then #"), answers.help_line("YES"), _("Seeker's digit: guess"),
                _("then A right, B wrong"), _("#: piece, or give up"), _("D: more, scores"))


def round_plan(options: dict) -> list[int]:
    """The makers' seats round by round, as the rules rotate them."""
    state = game.setup(options)
    makers = [state.maker]
    while True:
        state = game.apply(state, game.GiveUp(), 0.0)
        if game.is_over(state):
            return makers
        state = game.apply(state, game.NextRound(), 0.0)
        makers.append(state.maker)


def points_text(n: int) -> str:
    return ngettext("{n} point", "{n} points", n).format(n=n)


def tokens(held: int, of: int) -> str:
    return "●" * held + "○" * (of - held)


class Page(StrEnum):
    """What main shows while a round is played (``Play.page``); between
    rounds and at the end the rules' phase decides: the round table
    (``SHEET``, its page ``Play.sheet``)."""
    START = "start"
    PLAY = "play"
    MORE = "more"
    CORRECT = "correct"     # the maker corrects the count of pieces left
    GUESS = "guess"         # ``Play.seeker``'s guess
    GIVEUP = "giveup"
    SCORES = "scores"
    SHEET = "sheet"


class Play(Flow):
    """A round played on the keys: ``page`` (a ``Page``) is what main shows."""

    remembered = ("page", "typed", "seeker", "sheet", "confirming")
    keyed = ("typed", "confirming")

    def __init__(self, box, session) -> None:
        super().__init__(box)
        self.session: Session = session
        self.page = Page.START
        self.typed = ""       # the maker's piece count, being typed
        self.seeker = 0
        self.sheet = 0
        self.confirming = False  # the maker is asked to confirm a corrected count
        self.peeking = False  # button 1 is held
        self.refused = False  # screen 1 says the count typed was not taken, until the next key

    @property
    def state(self) -> game.State:
        return self.session.state

    def undone(self, view: dict) -> dict:
        # A guess, the giving up, the menu's bonus mode and a corrected count
        # were keyed from the turn's page: the undo lands there, the round's
        # start page stays itself.
        view = super().undone(view)
        return {**view, "page": Page.START if view.get("page") == Page.START else Page.PLAY}

    def _page(self) -> Page:
        # Undo can change the state under any page: fall back to the turn.
        s = self.state
        if s.phase != "play":
            return Page.SHEET
        step = game.step(s)
        if self.page == Page.START:
            return Page.START if step.pieces else Page.PLAY
        if self.page == Page.GUESS:
            return Page.GUESS if self.seeker in step.guessers else Page.PLAY
        if self.page == Page.CORRECT:
            return Page.CORRECT if step.correct else Page.PLAY
        return self.page if self.page in (Page.MORE, Page.GIVEUP, Page.SCORES) else Page.PLAY

    # --- keys ------------------------------------------------------------------

    def key(self, key: str, kind: str) -> None:
        if key == "team1":
            self.peeking = kind == "hold"
        elif kind == "press":
            self.refused = False
            self._KEYS[self._page()](self, key)

    def _start_key(self, key: str) -> None:
        if key.isdigit():
            self.typed = (self.typed + key)[:2]
        elif key == "*":
            self.typed = ""
        elif key == "#":
            typed, self.typed = self.typed, ""
            if not typed or self._takes(typed) and self._act(game.Pieces(int(typed))):  # [DC-3] the maker's secret
                self.page = Page.PLAY

    def _play_key(self, key: str) -> None:
        said = answers.answer(key)
        if said is not None:
            self._act(game.Yes() if said else game.No())
        elif key == "#" and game.step(self.state).kind == "guess":
            self.page = Page.GIVEUP
        elif key == "#":
            self._act(game.PieceRequested())
        elif key == "D":
            self.page = Page.MORE
        elif key.isdigit():
            self._pick_guesser(int(key) - 1)

    def _pick_guesser(self, seat: int) -> None:
        s = self.state
        if not 0 <= seat < len(s.players):
            return
        if seat in game.step(s).guessers:
            self.seeker, self.page = seat, Page.GUESS
            return
        if seat == s.maker:
            self.box.flash(_("The maker can't guess"))
        else:
            self.box.flash(_("{name}: no tokens left").format(name=s.players[seat]))
        self.box.sound("error")

    def _correct_key(self, key: str) -> None:
        if key.isdigit() and not self.confirming:
            self.typed = (self.typed + key)[:2]
        elif key == "*" and self.confirming:
            self.confirming = False
        elif key == "*":
            self.page, self.typed = (Page.CORRECT, "") if self.typed else (Page.PLAY, "")
        elif key == "#" and self.typed and not self.confirming:
            # [DC-3] a count changed mid-round is asked again, on screen 1 only
            self.confirming = self._takes(self.typed)
            self.typed = self.typed if self.confirming else ""
        elif key == "#" and self.confirming:
            typed, self.typed, self.confirming = self.typed, "", False
            if self._act(game.Pieces(int(typed))):
                self.page = Page.PLAY

    def _more_key(self, key: str) -> None:
        step = game.step(self.state)
        if key == "1" and step.pieces:
            self.page = Page.START
        elif key == "1" and step.correct:
            self.page, self.typed, self.confirming = Page.CORRECT, "", False
        elif key == "1":   # [DC-6] in bonus mode the pieces left are the bonus tokens
            self.box.flash(_("Bonus mode: the count is the bonus tokens."))
            self.box.sound("error")
        elif key == "2":
            if self._act(game.BonusMode()):
                self.page = Page.PLAY
        elif key == "3":
            self.page = Page.GIVEUP
        elif key == "4":
            self.page = Page.SCORES
        elif key in "*D":
            self.page = Page.PLAY

    def _guess_key(self, key: str) -> None:
        right = answers.answer(key)
        if right is not None:
            seat = self.seeker
            if self._act(game.Guess(seat, right=right)):
                self.page, self.sheet = Page.PLAY, 0
                s = self.state
                if s.phase == "play" and not s.held(seat):
                    self.box.flash(_("{name} is out").format(name=s.players[seat]))
        elif key == "*":
            self.page = Page.PLAY

    def _giveup_key(self, key: str) -> None:
        if key == "#":
            if self._act(game.GiveUp()):
                self.page, self.sheet = Page.PLAY, 0
        elif key == "*":
            self.page = Page.PLAY

    def _scores_key(self, key: str) -> None:
        if key in "*D":   # not #: a habitual # leaves no page that does not offer it
            self.page = Page.PLAY

    def _sheet_key(self, key: str) -> None:
        if key == "#" and game.is_over(self.state):
            self.box.leave()
        elif key == "#":
            if self._act(game.NextRound()):
                self.page, self.sheet, self.typed = Page.START, 0, ""
        elif key in "CD":
            self.sheet = (self.sheet + (1 if key == "D" else -1)) % len(self._sheets())

    def _takes(self, typed: str) -> bool:
        """Whether the rules take the count typed.  One they would refuse
        is said on screen 1 alone, by the counts they take, never on main
        nor by the number typed: too few or too many is the maker's secret
        too [DC-3]."""
        least, most = game.piece_range(self.state)
        if least <= int(typed) <= most:
            return True
        self.refused = True
        self.box.sound("error")
        return False

    def _act(self, event) -> bool:
        before = self.state.bonus
        if not self.box.act(event):
            return False
        s = self.state
        if s.phase == "play" and s.bonus and not before:
            self.box.flash(ngettext("Bonus mode: {n} piece", "Bonus mode: {n} pieces", s.bonus_left).format(n=s.bonus_left))
            if s.pieces is not None:
                self.box.sound("warning")  # [DC-6] the box announces it, not the maker
        return True

    # --- screens ---------------------------------------------------------------

    def screens(self) -> dict[str, Screen]:
        page = self._page()
        return {"main": self._SCREENS[page](self),
                "team1": self._maker_screen(page),
                "team2": self._public_screen()}

    def _title(self) -> str:
        s = self.state
        return _("{round}/{rounds} Maker: {name}").format(round=s.round, rounds=s.total_rounds,
                                                          name=s.players[s.maker])

    def _start_screen(self) -> Screen:
        s = self.state
        # The maker in the title, as on the round's pages; the first seeker's
        # turn in the account's words, a row a passing message leaves.
        keys: tuple[tuple[str, str], ...]
        lines = [public.turn(public.account(self.session)),
                 ngettext("Word: {n} letter", "Word: {n} letters", s.length).format(n=s.length)]
        if self.typed:
            lines += [_("Pieces: {dots}").format(dots=DOTS), _("Maker: use screen 1")]
            keys = (("#", _("OK")), roles.help_key(), ("*", _("Clear")))
        else:
            lines += [_("Pieces: set") if s.pieces is not None else _("Pieces in chamber?"),
                      _("Type them, or just #")]
            keys = (("#", _("Start")), roles.help_key())
        return Screen(self._title(), tuple(lines), keys=keys, digits=roles.DIGITS if len(self.typed) < 2 else "")

    def _play_screen(self) -> Screen:
        s = self.state
        step = game.step(s)
        # Whose turn, or that every piece is out: the account's words (the table view's).
        turn = public.turn(public.account(self.session))
        counts = _("NO: {no}  Bonus: {tokens}").format(no=s.no_tokens, tokens=tokens(s.bonus_left, game.BONUS))
        if s.bonus:
            # In bonus mode the pieces left are the bonus tokens left: public.
            pieces = ngettext("Bonus mode: {n} left", "Bonus mode: {n} left", s.bonus_left).format(n=s.bonus_left)
        else:
            pieces = _("Pieces: set") if s.pieces is not None else _("Pieces: —")
        keys = {"place": answers.keys("YES"),
                "request": (("#", _("Piece")),),    # C is help, never a move
                "guess": (("#", _("Give up")),)}[step.kind]
        keys = (*keys, roles.help_key(), ("D", _("More")))
        lines: tuple[str, ...] = (turn, counts, pieces, self._guessers(step))
        if len(key_rows(keys)) > 1:
            # Under a key bar of two rows the tokens and the pieces share a
            # line: before bonus mode its tokens are all there, and in it
            # the tokens left are the pieces left.
            if not s.bonus:
                counts = (_("NO: {no}  Pieces: set") if s.pieces is not None else _("NO: {no}  Pieces: —")).format(
                    no=s.no_tokens)
            lines = (turn, counts, self._guessers(step))
        # Every seat's digit: the maker's, or one out of tokens, is told why not.
        return Screen(self._title(), lines, keys=keys, digits=roles.digits(len(s.players)))

    def _guessers(self, step: game.Step) -> str:
        names = self.state.players
        named = _("Guess:") + "".join(f" {seat + 1} {names[seat]}" for seat in step.guessers)
        if len(named) <= COLS:
            return named
        return _("To guess, press {keys}").format(keys="/".join(str(seat + 1) for seat in step.guessers))

    def _more_screen(self) -> Screen:
        # Always the four, numbered 1 to 4: a digit means one thing here
        # whatever the moment; one that cannot be done now says why.
        lines = ("1 " + _("Pieces (maker)"), "2 " + _("Bonus mode (maker)"), "3 " + _("Nobody guesses"),
                 "4 " + _("Scores"))
        return Screen(_("More"), lines, keys=(roles.help_key(), ("*", _("Back"))), digits=roles.digits(len(lines)))

    def _correct_screen(self) -> Screen:
        # Main never shows the count, nor how many digits it has.
        lines: tuple[str, ...]
        keys: tuple[tuple[str, str], ...]
        if self.confirming:
            lines, keys = (_("Pieces: {dots}").format(dots=DOTS), _("Maker: confirm on 1")), \
                (("#", _("Yes")), roles.help_key(), ("*", _("No")))
        elif self.typed:
            lines, keys = (_("Pieces: {dots}").format(dots=DOTS), _("Maker: use screen 1")), \
                (("#", _("OK")), roles.help_key(), ("*", _("Clear")))
        else:
            lines, keys = tuple(wrap(_("Maker: type the pieces left to place, then #."))), \
                (roles.help_key(), ("*", _("Back")))
        typing = not self.confirming and len(self.typed) < 2
        return Screen(_("Correct the count"), lines, keys=keys, digits=roles.DIGITS if typing else "")

    def _guess_screen(self) -> Screen:
        s = self.state
        lines = (_("Tokens: {tokens}").format(tokens=tokens(s.held(self.seeker), game.TOKENS)),
                 _("A guess costs 1 token"),
                 _("Is the word right?"))
        return Screen(_("{name} guesses").format(name=s.players[self.seeker]), lines,
                      keys=(*answers.keys("right"), roles.help_key(), ("*", BACK)))

    def _giveup_screen(self) -> Screen:
        s = self.state
        text = _("Nobody guesses any more: {name} takes the solution token.").format(name=s.players[s.maker])
        return Screen(_("End the round?"), tuple(wrap(text)), keys=(("#", _("End")), roles.help_key(), ("*", _("Back"))))

    def _scores_screen(self) -> Screen:
        return Screen(_("Scores"), self._totals(), keys=(roles.help_key(), ("*", _("Back"))))

    def _totals(self) -> tuple[str, ...]:
        totals = game.standings(self.state)
        ranked = sorted(totals.items(), key=lambda item: -item[1])
        return tuple(f"{fit(name, 15):<15}{points:>6}" for name, points in ranked)

    # --- help in play (``playhelp``) -------------------------------------------------

    def digit_help(self, page: Screen) -> str:
        shown = self._page()
        if shown == Page.START:
            return _("{keys}: pieces in the chamber, then #")   # [DC-3] typed, shown on screen 1 only
        if shown == Page.CORRECT:
            return _("{keys}: pieces left to place, then #")
        if shown == Page.PLAY:
            return _("{keys}: who guesses")
        return ""

    # --- the round table and the end ------------------------------------------------

    def _sheet_screen(self) -> Screen:
        sheets = self._sheets()
        i = self.sheet % len(sheets)
        screen = sheets[i]
        if game.is_over(self.state):
            # Beside the QR code only ten columns are left.
            keys = (("#", _("Menu")), ("D", ON)) if i == 0 else (("#", _("Menu")), ("C", BACK), ("D", ON))
        else:
            keys = (("#", _("Next round")), ("C", BACK), ("D", ON))
        return Screen(screen.title, screen.lines, keys=keys, qr=screen.qr)

    def _sheets(self) -> list[Screen]:
        """The round table [DC-10]: the round's points, then one page of
        tokens per player; then the totals.  At the end [DC-11] the winners
        and the score log's QR code come first."""
        s = self.state
        table = game.public(s).table
        assert table is not None, "a round is scored"
        pages = [self._round_sheet(table), *(self._items_sheet(table, name) for name in s.players)]
        totals = Screen(_("Totals"), self._totals())
        if game.is_over(s):
            return [self._final_sheet(), totals, *pages]
        return [*pages, totals]

    def _round_sheet(self, table: game.RoundTable) -> Screen:
        if table.solver is not None:
            result = _("{name} solved it").format(name=table.solver)
        elif table.ended == "tokens":
            result = _("All tokens spent")
        else:
            result = _("Nobody solved it")
        lines = tuple(f"{fit(name, 15):<15}{points:>+6}" for name, points in table.scores.items())
        return Screen(f"{table.round}/{self.state.total_rounds} {result}", lines)

    def _items_sheet(self, table: game.RoundTable, name: str) -> Screen:
        held = msgspec.structs.asdict(table.items[name])   # ITEMS name its fields

        def row(item: str, label: str) -> str:
            count, value = held[item], game.POINTS[item]
            return f"{fit(_(label), 12):<12}{count:>2}×{value} ={count * value:>3}"

        lines = tuple(row(item, label) for item, label in ITEMS)
        points = table.scores[name]
        return Screen(ngettext("{name}: {points} point", "{name}: {points} points", points).format(
            name=name, points=points), lines)

    def _final_sheet(self) -> Screen:
        log = game.summary(self.state)
        best = log.winners
        # [DC-11] Beside the QR code there is room for two names; screen 2
        # names every winner.
        names = best if len(best) <= 2 else (best[0], more(len(best) - 1))
        lines = (_("Winner:") if len(best) == 1 else _("Winners:"), *names,
                 points_text(log.totals[best[0]]))
        return Screen(_("Game over"), lines, qr=self.box.public_url())

    # --- the other two screens -------------------------------------------------------

    def _maker_screen(self, page: Page) -> Screen:
        """Screen 1 is the maker's: the piece count they type, and while they
        hold button 1, the pieces left in the chamber [DC-3]."""
        s = self.state
        if s.phase != "play":
            if game.is_over(s):
                return Screen(_("Decipher"), (_("Game over."),))
            upcoming = game.apply(s, game.NextRound(), 0.0)
            return Screen(_("Decipher"), (_("Next maker: {name}").format(name=s.players[upcoming.maker]),))
        title = _("Maker: {name}").format(name=s.players[s.maker])
        if self.refused and page in (Page.START, Page.CORRECT):
            least, most = game.piece_range(s)
            return Screen(title, tuple(wrap(_("Not taken: the count is {least} to {most}. Type it again.").format(
                least=least, most=most))))
        if page == Page.START and self.typed:
            # At half height, so that the words under the count are drawn too.
            return Screen(title, (_("pieces in the chamber"),), big=self.typed, mid=True,
                          keys=(("#", _("OK")), ("*", _("Clear"))))
        pieces = game.private(s, s.maker).pieces
        if page == Page.CORRECT and self.confirming:
            was = _("Was {n}.").format(n=pieces) if pieces is not None else _("No count so far.")
            left = int(self.typed or 0)
            return Screen(_("Correct the count?"), (ngettext("Now: {n} left to place", "Now: {n} left to place",
                                                             left).format(n=self.typed), was),
                          keys=(("#", _("Yes")), ("*", _("No"))))
        if page == Page.CORRECT:
            return Screen(title, (_("pieces left to place"),), big=self.typed or "_", mid=True,
                          keys=(("#", _("OK")), ("*", _("Clear"))))
        if self.peeking and pieces is not None:
            return Screen(title, (_("pieces left inside"),), big=str(pieces))
        if self.peeking:
            return Screen(title, tuple(wrap(_("No piece count: announce bonus mode yourself (D, 2)."))))
        if page == Page.START:
            return Screen(title, tuple(wrap(_("Type the pieces in the chamber on the keypad, then #."))))
        return Screen(title, tuple(wrap(_("Hold button 1 to see the pieces left."))))

    def _public_screen(self) -> Screen:
        s = self.state
        if game.is_over(s):
            log = game.summary(s)
            best = log.winners
            head = _("Winner:") if len(best) == 1 else _("Winners:")
            points = points_text(log.totals[best[0]])
            named = wrap(", ".join(best))
            if len(named) < LINES:
                return Screen(head, (*named, points))
            # [DC-11] Up to four winners with long names: one a line, the
            # points in the title, so that every winner is named.
            return Screen(f"{head} {points}", tuple(fit(name) for name in best[:LINES]))
        return Screen(_("Decipher"), (_("Round {round}/{rounds}").format(round=s.round, rounds=s.total_rounds),
                                      _("Maker: {name}").format(name=s.players[s.maker])))

    # What each page does with a key and shows on main, by name in one place.
    _KEYS = {Page.START: _start_key, Page.PLAY: _play_key, Page.CORRECT: _correct_key, Page.MORE: _more_key,
             Page.GUESS: _guess_key, Page.GIVEUP: _giveup_key, Page.SCORES: _scores_key, Page.SHEET: _sheet_key}
    _SCREENS = {Page.START: _start_screen, Page.PLAY: _play_screen, Page.MORE: _more_screen,
                Page.CORRECT: _correct_screen, Page.GUESS: _guess_screen, Page.GIVEUP: _giveup_screen,
                Page.SCORES: _scores_screen, Page.SHEET: _sheet_screen}

