"""Osmišifry at the table: rolling the offers, picking letters, passing the
booklets, the officers' five minutes and the scoring.

The grids and pictures stay on paper; the box rolls, keeps the order, keeps
the time and adds up.  What to ask comes from ``osmisifry.step(state)``.

Setup: ``1`` players, ``2`` the letter table (the bundled Czech, English and
Polish ones, then the owners' of ``[osmisifry] letter_tables``), ``3`` who
picks first; ``#`` starts.

Keys
----
Rolling a row        ``#`` rolls two d8 (the dice module's ROLL button too)
Picking              ``1``…``players+1`` takes that letter for whoever's turn it is
During creation      ``B`` then a player's digit: that player is drawing and
                     picks last this round (from round 2 [OS-7]); ``D`` then ``#``: the table agrees
                     to end creation now
Direction            ``#`` rolls the d8
Booklets passed      ``#`` starts the officers' five minutes
Decoding             ``#`` then ``#``: every officer is done early
Scoring              digits and ``#``: pictures drawn, words found and named,
                     unused letters; ``A`` yes / ``B`` no: secret word
                     destroyed; ``*`` clears the digits or goes back a question
Game over            ``D``/``C`` turn the pages (the winners and the QR code of
                     the score log, then the table), ``#`` back to the main menu
                     (said on every page of the result)
Help                 ``C`` on every other page but "Secret destroyed?" (its
                     answers and Back fill the key bar): the help in play
                     (``playhelp``)

Undo and ending a game early are the box's own (hold ``*``).

Seats are shown as their digit (1 = the first seat), the digit that marks a
drawing player, so "1→2" reads "the booklet of seat 1 goes to seat 2".
"""
from __future__ import annotations

import os
from enum import StrEnum
from typing import TYPE_CHECKING

from games import osmisifry as osm
from referee.box.flows import Flow, clock_text, more, public, roles
from referee.box.flows.roles import DIGITS
from referee.box.flows.answers import answer as answered
from referee.box.flows.answers import keys as answer_keys
from referee.box.flows.forms import Form, Option, named_seats, seat_option
from referee.box.screen import COLS, LINES, Screen, fit, key_rows, wrap
from referee import i18n
from referee.sections.osmisifry import read_letter_table
from referee.i18n import _
from referee.said.osmisifry import describe, describe_roll  # noqa: F401  (the catalogue's hooks)

if TYPE_CHECKING:
    from referee.box.session import Session

CREATION = ("roll_letter", "pick")
COUNTS = 3              # questions answered with a number, before the yes/no
TYPED_DIGITS = 2        # a grid has 36 cells: no count needs three digits
TABLE_ROWS = LINES - 1  # players on one page of the score table, under its header
PAIRS_PER_LINE = 5      # "1→2 " is four columns


def setup(box) -> Form:
    tables = letter_tables(box)
    options = [
        Option("players", _("Players"), tuple((n, str(n)) for n in range(2, 7))),
        Option("table", _("Letters"), tables, default=bundled_for(i18n.lang)),
        seat_option("starts", _("Starts"), 6),  # [OS-6] the first picker is the table's choice
    ]
    return Setup(box, "Osmišifry", options, lambda values: box.start_game(osm.NAME, named_seats(values)), ("",))


class Setup(Form):
    """The setup form; its help is how to work the box, the letter keys
    as many as the row has for the players chosen."""

    def help(self) -> tuple[str, ...]:
        # The letters' keys as the game's pick page takes them: a row of the
        # game these choices start [OS-3], never a number of its own.
        last = osm.setup(named_seats(self.values)).offer_size
        return (*wrap(_("Hide words in your grid; an officer seeks them.")), "",   # what it is for, then the keys
                _("#/ROLL: roll the dice"), _("1-{last}: pick a letter").format(last=last),
                _("B+digit: player draws"), _("D: end creation early"),
                _("Direction: # rolls"), _("Booklets handed: #"), _("Decoding: # all done"),
                _("Scores: digits, #;"), _("A/B: yes/no; * back"))


BUNDLED = ("cs", "en", "pl")   # the letter tables shipped, in the order setup offers them


def bundled_for(lang: str) -> int:
    """The letter table setup offers first [OS-1]: the one of the box's
    language where one ships, else the rulebook's Czech."""
    return BUNDLED.index(lang) if lang in BUNDLED else 0


def letter_tables(box) -> tuple[tuple[object, str], ...]:
    """The letter tables to choose from [OS-1]: the bundled ones (Czech
    first; the default is the box's language's, ``bundled_for``), then those of the owners' editions named in the
    configuration.  An owner's table goes into the game's options whole, so
    the score log and a restart use it even if its file changes."""
    names = {"cs": _("Czech"), "en": _("English"), "pl": _("Polish")}
    tables: list[tuple[object, str]] = [(code, names[code]) for code in BUNDLED]
    for path in box.config.game(osm.NAME).letter_tables:
        try:
            table = read_letter_table(path)
        except ValueError:   # checked at start, changed since: the table says which
            box.flash(_("Letter table {file} cannot be read.").format(file=os.path.basename(path)))
            continue
        tables.append(({"name": table.name, "rows": [list(row) for row in table.rows]}, table.name))
    return tuple(tables)


class Ask(StrEnum):
    """A question over the step (``Play.mode``)."""
    NONE = ""
    DRAWING = "drawing"     # who draws the letters? [OS-4]
    END = "end"             # end the creation?
    STOP = "stop"           # stop the decoding?


class Play(Flow):
    warn_seconds = 30    # [OS-10] the last half minute ticks aloud
    remembered = ("mode", "agent", "answers", "typed", "page")
    keyed = ("mode", "agent", "answers", "typed")   # a question or a booklet's answers: asked anew

    def __init__(self, box, session) -> None:
        super().__init__(box)
        self.session: Session = session
        self.mode = Ask.NONE   # a question over the step (see Ask)
        self.agent: int | None = None   # whose booklet ``answers`` and ``typed`` belong to
        self.answers: list[int] = []    # the counts given so far, in question order
        self.typed = ""
        self.page = 0        # of the result, once the game is over

    @property
    def state(self) -> osm.State:
        return self.session.state

    # --- keys -------------------------------------------------------------------------

    def key(self, key: str, kind: str) -> None:
        if kind != "press":
            return
        step = osm.step(self.state)
        # Undo can move the game back under the flow's feet: a question or
        # half-typed answers that no longer fit the step are dropped.
        self.mode = self._mode(step)
        if step.kind != "score" or self.agent != step.player:
            self.agent = step.player if step.kind == "score" else None
            self.answers, self.typed = [], ""
        if self.mode:
            self._question_key(key)
        elif step.kind in CREATION:
            self._creation_key(key, step)
        elif step.kind == "score":
            self._score_key(key, step)
        elif step.kind == "over":
            self._over_key(key)
        elif key == "#" and step.kind == "roll_direction":
            self.box.roll()
        elif key == "#" and step.kind == "start_decoding":
            self.box.act(osm.StartDecoding())
        elif key == "#" and step.kind == "decoding":
            self.mode = Ask.STOP

    def _mode(self, step: osm.Step) -> Ask:
        """The question asked over ``step``, if it still fits it."""
        fits = {Ask.DRAWING: CREATION, Ask.END: CREATION, Ask.STOP: ("decoding",)}
        return self.mode if step.kind in fits.get(self.mode, ()) else Ask.NONE

    def _question_key(self, key: str) -> None:
        mode = self.mode
        if key == "*":
            self.mode = Ask.NONE
        elif mode == Ask.DRAWING and key.isdigit():
            self.mode = Ask.NONE
            self.box.act(osm.Drawing(int(key) - 1))
        elif key == "#" and mode != Ask.DRAWING:
            self.mode = Ask.NONE
            self.box.act(osm.EndCreation() if mode == Ask.END else osm.EndDecoding())

    def _creation_key(self, key: str, step: osm.Step) -> None:
        if key.isdigit():
            # While the rows are still being rolled nobody has picked in this
            # round, so the pick is the first picker's; the rules then say
            # whether picking may start [OS-4].
            player = step.player if step.kind == "pick" else osm.pick_order(self.state)[0]
            assert player is not None   # a pick always names its picker
            self.box.act(osm.PickLetter(player, int(key) - 1))
        elif key == "#" and step.kind == "roll_letter":
            self.box.roll()
        elif key == "B" and self.state.round > 1:
            self.mode = Ask.DRAWING
        elif key == "B":
            # [OS-7] nobody has drawn yet: no picker to open and then refuse.
            self.box.flash(_("Nobody draws in round 1."))
            self.box.sound("error")
        elif key == "D":
            self.mode = Ask.END

    def _score_key(self, key: str, step: osm.Step) -> None:
        assert step.player is not None   # a booklet scored is always someone's
        counting = len(self.answers) < COUNTS
        destroyed = answered(key)
        if key.isdigit() and counting and len(self.typed) < TYPED_DIGITS:
            self.typed += key
        elif key == "#" and counting and self.typed:
            self.answers, self.typed = [*self.answers, int(self.typed)], ""
        elif destroyed is not None and not counting:
            drawn, found, unused = self.answers
            if self.box.act(osm.Score(step.player, drawn, found, unused, destroyed=destroyed)):
                self.agent, self.answers = None, []
        elif key == "*" and self.typed:
            self.typed = ""
        elif key == "*" and self.answers:
            self.answers = self.answers[:-1]

    def _over_key(self, key: str) -> None:
        if key == "D":
            self.page = (self.page + 1) % self._pages()
        elif key == "C":
            self.page = (self.page - 1) % self._pages()
        elif key == "#":
            self.box.leave()

    # --- screens ----------------------------------------------------------------------

    def screens(self) -> dict[str, Screen]:
        step = osm.step(self.state)
        main, side = self._STEPS[step.kind](self, step)
        mode = self._mode(step)
        if mode:
            main = self._ASKS[mode](self)
        return {"main": main, "team1": side, "team2": side}

    def _round_title(self) -> str:
        return _("Round {n}/{rounds}").format(n=self.state.round, rounds=osm.ROUNDS)

    def _drawing_line(self) -> tuple[str, ...]:
        s = self.state
        if not s.drawing:
            return ()
        line = _("Picks last: {names}").format(names=", ".join(s.players[p] for p in s.drawing))
        if len(line) > COLS:   # several long names: their seat digits, as B took them
            line = _("Picks last: {names}").format(names=", ".join(str(p + 1) for p in s.drawing))
        return (fit(line),)

    def _creation_keys(self) -> tuple[tuple[str, str], ...]:
        # Nobody can be drawing in round 1 [OS-7], so the key is not offered.
        draw = (("B", _("Draw")),) if self.state.round > 1 else ()
        return (*draw, roles.help_key(), ("D", _("End")))

    def _creation_also(self) -> tuple[str, ...]:
        # B in round 1 is heard, to say why nobody can be drawing (25.5).
        return ("B",) if self.state.round == 1 else ()

    def _side_creation(self, line: str) -> Screen:
        s = self.state
        return Screen(self._round_title(), (line,), big=_row(s.offer, s.offer_size, ""))

    def _roll_letter(self, step: osm.Step) -> tuple[Screen, Screen]:
        s = self.state
        assert step.row is not None   # a letter is rolled for a row
        row = _("Row {row}: {letters}").format(row=step.row, letters=_row(s.offers[step.row - 1], s.offer_size, " "))
        if len(row) > COLS:   # seven letters after a longer word for "row": no room for the spaces
            row = _("Row {row}: {letters}").format(row=step.row, letters=_row(s.offers[step.row - 1], s.offer_size, ""))
        lines = [fit(row)]
        last = _last_roll(s)
        if step.row > s.round:
            # The next row is rolled before this round's picks: the row they
            # pick from stays in sight, the last roll on the line of what
            # was last done.
            lines.append(fit(_("Now: {letters}").format(letters=_row(s.offer, s.offer_size, " "))))
        elif last:
            lines.append(_("Last roll {dice} = {letter}").format(dice="+".join(map(str, last[0])), letter=last[1]))
        keys = (("#", _("Roll")), *self._creation_keys())
        if len(key_rows(keys)) == 1:
            # A key bar of two rows (from round 2, B too) says "#:Roll" for it.
            lines.append(_("Roll 2d8: # or ROLL"))
        lines.extend(self._drawing_line())
        # The letters' digits are heard while rows are rolled, for the rules
        # to say why nobody picks yet [OS-4].
        main = Screen(self._round_title(), tuple(lines), keys=keys,
                      digits=roles.digits(s.offer_size), also=self._creation_also())
        return main, self._side_creation(_("Rolling row {row}").format(row=step.row))

    def _pick(self, step: osm.Step) -> tuple[Screen, Screen]:
        s = self.state
        assert step.player is not None   # a pick always names its picker
        name = s.players[step.player]
        following = s.offers[s.round].letters if s.round < len(s.offers) else ()
        picks = _("{name} picks: 1-{last}").format(name=name, last=s.offer_size)
        if len(picks) > COLS:   # a long name: the keys to press stay, the verb goes
            picks = _("{name}: 1-{last}").format(name=name, last=s.offer_size)
        lines = (_row(s.offer, s.offer_size, " ", numbered=True),
                 fit(picks),
                 fit(_("Next: {letters}").format(letters=" ".join(following))) if following else _("Last round!"),
                 *self._drawing_line())
        keys = self._creation_keys()
        if len(key_rows(keys)) > 1 and len(lines) == LINES:
            lines = (*lines[:2], *lines[3:])   # under a key bar of two rows who picks last stays, the next row goes
        main = Screen(self._round_title(), lines, keys=keys,
                      digits=roles.digits(s.offer_size), also=self._creation_also())
        return main, self._side_creation(fit(_("{name} picks").format(name=name)))

    def _roll_direction(self, step: osm.Step) -> tuple[Screen, Screen]:
        lines = (_("Roll one d8:"), _("1-4: to the left"), _("5-8: to the right"))
        title = _("Pass the booklets")
        return Screen(title, lines, keys=(("#", _("Roll")), roles.help_key())), Screen(title, lines)

    def _direction_title(self) -> str:
        s = self.state
        # [OS-9] 1-4 left, 5-8 right: the rules decide, the screen says it.
        side = _("{roll}: pass to the left") if osm.passes_left(s) else _("{roll}: pass to the right")
        return side.format(roll=s.direction)

    def _pairs(self) -> tuple[str, ...]:
        officers = osm.officers(self.state)
        assert officers is not None   # the direction is rolled before the booklets pass
        pairs = [f"{agent + 1}→{officer + 1}" for agent, officer in enumerate(officers)]
        return tuple(" ".join(pairs[i:i + PAIRS_PER_LINE]) for i in range(0, len(pairs), PAIRS_PER_LINE))

    def _start_decoding(self, step: osm.Step) -> tuple[Screen, Screen]:
        title = self._direction_title()
        lines = (_("Booklet → officer:"), *self._pairs())
        main = Screen(title, (*lines, _("Hand over, then #")), keys=(("#", _("Start 5:00")), roles.help_key()))
        return main, Screen(title, lines)

    def _clock(self) -> str:
        left = self.box.remaining()
        if left is None:
            countdown = self.state.countdown
            assert countdown is not None   # the officers' time is shown only once it is set
            left = countdown.left
        return clock_text(left)

    def _decoding(self, step: osm.Step) -> tuple[Screen, Screen]:
        big = self._clock()
        return (Screen(_("Decoding"), big=big, keys=(("#", _("All done")), roles.help_key())),
                Screen(_("Decoding"), big=big))

    def _score(self, step: osm.Step) -> tuple[Screen, Screen]:
        s = self.state
        assert step.player is not None and step.officer is not None   # a booklet and its decoder
        agent, officer = s.players[step.player], s.players[step.officer]
        answers = self.answers if self.agent == step.player else []
        typed = self.typed if self.agent == step.player else ""
        asked = len(answers)
        labels = (_("Pictures drawn: {n}"), _("Found and named: {n}"), _("Unused letters: {n}"))
        lines = [label.format(n=answers[i] if i < asked else typed + "_" if i == asked else "")
                 for i, label in enumerate(labels)]
        lines.append(_("Secret destroyed?") + (" _" if asked == COUNTS else ""))
        if asked < COUNTS:
            keys = [("#", _("OK")), roles.help_key()]
        else:
            # The last question's answers and Back fill the key bar: the
            # scoring's help is on the counts' pages, one * back.
            keys = list(answer_keys("yes"))
        if typed or answers:
            keys.append(("*", _("Clear") if typed else _("Back")))
        title = fit(f"{agent} → {officer}")
        done = sum(score is not None for score in s.scores)
        side = Screen(_("Scoring"), (title, _("Booklet {k} of {n}").format(k=done + 1, n=len(s.players))))
        return Screen(title, tuple(lines), keys=tuple(keys), typing=min(asked, COUNTS),
                      digits=DIGITS if asked < COUNTS and len(typed) < TYPED_DIGITS else ""), side

    def _pages(self) -> int:
        return 1 + -(-len(self.state.players) // TABLE_ROWS)

    def _over(self, step: osm.Step) -> tuple[Screen, Screen]:
        # The winners and their total as the game's account says them (the
        # table view and the replay's last step say the same account).
        told = public.account(self.session)
        best = told.winners
        total = next(s.points for s in told.sides if s.winner)
        points = osm.points(self.state)
        head = _("Best agent") if len(best) == 1 else _("Shared win")   # [OS-13] [ruling]
        side = Screen(_("Game over"), (head + ":", *wrap(", ".join(best))))
        page = self.page % self._pages()
        if page == 0:
            # Beside the QR code there is room for two names; the table has them all.
            names = best if len(best) <= 2 else (best[0], more(len(best) - 1))
            lines = (head, *names, _("Total {n}").format(n=total))
            # "#" is said here too: it leaves the result (a habitual # after
            # the scoring must not skip it unseen).  Beside the QR code ten
            # columns are left: D turns on with an arrow, as Decipher's does.
            return Screen(_("Game over"), lines, keys=(("#", _("Menu")), ("D", "►")), qr=self.box.public_url()), side
        on_page = self.state.players[(page - 1) * TABLE_ROWS:page * TABLE_ROWS]
        rows = tuple(_score_row(name, points[name]) for name in on_page)
        title = _("Scores {k}/{n}").format(k=page, n=self._pages() - 1)
        header = _("agent+officer=total").rjust(COLS)
        return Screen(title, (header, *rows), keys=(("D", _("more")), ("#", _("Menu")))), side

    # --- questions over the step ------------------------------------------------------

    def _ask_drawing(self) -> Screen:
        entries = [fit(f"{seat} {name}", 10).ljust(10) for seat, name in enumerate(self.state.players, 1)]
        lines = tuple(" ".join(entries[i:i + 2]).rstrip() for i in range(0, len(entries), 2))
        return Screen(_("Who is drawing?"), (*lines, _("They pick last.")), keys=(roles.help_key(), ("*", _("Back"))),
                      digits=roles.digits(len(self.state.players)))

    def _ask_end(self) -> Screen:
        # [OS-8] the rules end creation after round 31; earlier only if all agree [ruling].
        lines = wrap(_("Every grid done? By house ruling the table may end early."))
        return Screen(_("End creation now?"), tuple(lines), keys=(("#", _("Yes")), roles.help_key(), ("*", _("No"))))

    def _ask_stop(self) -> Screen:
        return Screen(_("All officers done?"), big=self._clock(),
                      keys=(("#", _("Yes")), roles.help_key(), ("*", _("No"))))

    # --- help in play (``playhelp``) --------------------------------------------------

    def help_keys(self, page: Screen) -> list[str]:
        # The creation's B and D in How to play's words, which the key bar has no room for.
        said = {f"B: {_('Draw')}": _("B: a player is drawing and picks last"), f"D: {_('End')}": _("D: end creation early")}
        return [said.get(line, line) for line in super().help_keys(page)]

    def digit_help(self, page: Screen) -> str:
        step = osm.step(self.state)
        if self._mode(step) == Ask.DRAWING:
            return _("{keys}: who is drawing")
        if step.kind == "score":
            return _("{keys}: the count, then #")
        # [OS-3] the letters of the row, one more than the players: as the setup's help says them
        return _("1-{last}: pick a letter").format(last=self.state.offer_size)

    # What main shows for each step the rules name, and for a question over it.
    _STEPS = {"roll_letter": _roll_letter, "pick": _pick, "roll_direction": _roll_direction,
              "start_decoding": _start_decoding, "decoding": _decoding, "score": _score, "over": _over}
    _ASKS = {Ask.DRAWING: _ask_drawing, Ask.END: _ask_end, Ask.STOP: _ask_stop}


def _row(offer: osm.Offer, size: int, sep: str, numbered: bool = False) -> str:
    """A row of the offer: taken letters are "·" [OS-5], letters still to be
    rolled "_"; numbered, each letter follows the key that picks it."""
    cells = []
    for i in range(size):
        if i >= len(offer.letters):
            cell = "_"
        else:
            cell = "·" if offer.taken_by(i) is not None else offer.letters[i]
        cells.append(f"{i + 1}{cell}" if numbered else cell)
    return sep.join(cells)


def _last_roll(state: osm.State) -> tuple[tuple[int, int], str] | None:
    """The latest letter roll: rows are rolled in order, so it ends the last
    row that has any."""
    rolled = [offer for offer in state.offers if offer.rolls]
    return (rolled[-1].rolls[-1], rolled[-1].letters[-1]) if rolled else None


def _score_row(name: str, points: dict) -> str:
    sums = f"{points['agent']}+{points['officer']}={points['total']}"
    return fit(name, COLS - 12).ljust(COLS - 12) + sums.rjust(12)

