"""A game's setup form: one option a line; the option's digit steps to its
next value at once, even when it is on another page (``C``/``D`` turn
pages), ``#`` starts the game, ``*`` goes back to the main menu.

A setup form also names the seats (``referee.setup_names``): ``A`` picks from
tonight's players (``#`` alone, "As last game": the same players as the last
game, and in a team game the same teams; picked by digits, the first half
joins the first team, and each name picked is marked with the seat, or the
team by its name, it joins), ``B`` shows the QR code of a page where a phone
types the names.  The names so far are on the team screens, and beside the
QR code; while a phone types, the names in its fields show there too, their
titles ending in "…" until they are saved.  Without any, the seats keep
their default names.  An option the others' choices make moot gives its
line to a note on what they mean (``Form.note``).
"""
from __future__ import annotations

import secrets
from dataclasses import dataclass
from enum import StrEnum
from typing import Callable

from hal.timing import Timer

from games.base import Illegal
from referee import glossary, guide, i18n, setup_names, team_links
from referee.box.flows import Flow, menu, roles, team_label
from referee.box.screen import COLS, LINES, W, Screen, fit, qr_image, wrap
from referee.i18n import _


TEACH = "teach"   # the option that has a first game taught (``referee.box.flows.teacher``)

# A help page has three lines of its own; the fourth says how to take back
# a key and reach the game menu, the controls no key bar can show.
HELP_LINES = LINES - 1


def help_title(page: int, pages: int) -> str:
    """A help page's title, numbered even when alone: its own message, for a
    title has room for a word ("Nápověda") that a key label has not."""
    return _("Help {n}/{of}").format(n=page + 1, of=pages)


def game_menu_line() -> str:
    return _("Hold *: undo, menu")


def how_screen(box, game: str, phase: str, keys: tuple[tuple[str, str], ...] = ()) -> Screen:
    """The help's last page: a QR code to the phones' How to play page of
    the game, at the phase on screen (``referee.guide``), where the rules
    are told in whole sentences and the box's screens are shown.  A public
    address too long for the panel's code leaves the phase out, then the
    code: the page's address is written instead."""
    keys = keys or (("C", "◄"), ("*", _("Back")))
    base = box.public_url()
    for url in (guide.address(base, game, phase), guide.address(base, game)):
        try:
            cols = (W - qr_image(url).width - 4) // 6
        except ValueError:
            continue
        return Screen(_("Rules"), tuple(wrap(_("Scan to see how to play"), cols)), qr=url, keys=keys, digits="")
    return Screen(_("Rules"), tuple(wrap(_("How to play: {address}").format(address=f"/how/{game}"))),
                  keys=keys, digits="")


def runs_on(line: str, following: str) -> bool:
    """Whether ``line`` of a help text is a sentence that goes on into
    ``following``: not after a full stop; after a comma, colon or
    semicolon; or where the next line starts in lower case or with a
    bracket ("(before round 1).")."""
    end = line.rstrip()[-1:]
    if end in ".!?":
        return False
    return end in ",:;" or following[:1].islower() or following[:1] == "("


def help_paged(lines, per: int = HELP_LINES) -> list[tuple[str, ...]]:
    """Help lines as pages of ``per`` lines, each ending on a whole
    sentence: a sentence that would run over a page starts the next one
    (one longer than a page runs over it).  An empty line ends a page."""
    sections: list[list[list[str]]] = [[]]
    sentence: list[str] = []
    for i, line in enumerate(lines):
        if not line:
            if sentence:
                sections[-1].append(sentence)
            sections.append([])
            sentence = []
            continue
        sentence.append(line)
        if not runs_on(line, lines[i + 1] if i + 1 < len(lines) else ""):
            sections[-1].append(sentence)
            sentence = []
    if sentence:
        sections[-1].append(sentence)
    return whole_pages(sections, per) or [()]


def whole_pages(sections: list[list[list[str]]], per: int) -> list[tuple[str, ...]]:
    """Sections of whole items (a sentence, a key, a word defined: its
    lines) as pages of ``per`` lines: each section from a page of its own,
    each item whole on a page (one longer than a page runs on over the
    next)."""
    pages: list[list[str]] = []
    for section in sections:
        page: list[str] = []
        for item in section:
            if page and len(page) + len(item) > per:
                pages.append(page)
                page = []
            page = [*page, *item]
            while len(page) > per:
                pages.append(page[:per])
                page = page[per:]
        if page:
            pages.append(page)
    return [tuple(page) for page in pages]


def with_glossary(lines, game: str) -> list[str]:
    """A game's help text, then its words defined (``referee.glossary``),
    from a page of their own: a sentence each, never cut over two pages."""
    words = [part for line in glossary.lines(game) for part in wrap(line)]
    return [*lines, "", *words] if words else list(lines)


def named_seats(values: dict) -> dict:
    """Setup values with a players count turned into seat names in the box's
    language ("Hráč 1" at a Czech table), so the score log reads as the
    screens do."""
    count = values.get("players")
    if not isinstance(count, int):
        return values
    return {**values, "players": [_("Player {n}").format(n=n) for n in range(1, count + 1)]}


class Over(StrEnum):
    """A picker over the setup form (never saved: the form comes back without it)."""
    NONE = ""
    ROSTER = "roster"   # tonight's players, to pick from
    PHONE = "phone"     # the QR code of the names page


@dataclass(frozen=True)
class Option:
    key: str                                  # the option's name in setup()
    label: str                                # shown before the value
    choices: tuple[tuple[object, str], ...]   # (value, how it reads)
    default: int = 0                          # index into choices
    seat: bool = False                        # names a seat: kept below the players count


def seat_option(key: str, label: str, seats: int, name=None) -> Option:
    """Who starts, where the rulebook leaves it to the table: one choice per
    seat, seat 1 first, the option's digit stepping to the next seat."""
    name = name or (lambda n: _("Player {n}").format(n=n))
    return Option(key, label, tuple((seat, name(seat + 1)) for seat in range(seats)), seat=True)


class Form(Flow):
    """A game's setup: ``start(values)`` is called with the chosen values.
    ``C`` opens the help pages (``C``/``D`` page through them, ``*`` back)."""

    teams = False        # a team game names its players team by team
    # What survives a power cut: the choices, the page, the help page and
    # the names taken.  The pickers of names (tonight's players, the phone's
    # QR code) come back as the form itself.
    remembered: tuple[str, ...] = ("chosen", "page", "help_page", "names", "members")

    def __init__(self, box, title: str, options: list[Option], start: Callable[[dict], None],
                 help_lines: tuple[str, ...] = ()) -> None:
        super().__init__(box)
        self.title, self.options, self.start = title, options, start
        self.chosen = [o.default for o in options]
        self.page = 0
        self.help_lines = help_lines
        self.help_page: int | None = None  # the help page shown, if any
        self.game = ""         # the game's short name, set by the menu
        self.names: list[str] = []            # typed or picked, in seat order
        self.members: list[list[str]] = []    # a team game's, team by team
        self.names_token: str | None = None   # the names page's token, once shown
        self.names_csrf = ""
        # What the phone page's fields hold, not yet saved (``setup_names.preview``),
        # row by row: a team game's teams, else one row of names; None once
        # saved or never typed.
        self.preview: list[list[str]] | None = None
        self.preview_drawn = float("-inf")    # when a preview was last drawn
        self.preview_due: Timer | None = None   # the redraw a preview is waiting for
        self.mode = Over.NONE
        self.picked: list[int] = []           # roster entries picked, in seat order
        self.roster_page = 0

    def restore(self, view: dict) -> None:
        super().restore(view)
        self._fit()
        if len(self.chosen) != len(self.options) or not all(
                isinstance(i, int) and 0 <= i < len(o.choices) for i, o in zip(self.chosen, self.options)):
            raise ValueError("the saved choices do not fit the form")

    def _fit(self) -> None:
        """A form whose choices depend on others sets them for the values chosen."""

    def offer_teach(self, on: bool) -> None:
        """The Teach option, last: ``on`` first (``referee.box.flows.teacher.chosen``)."""
        self.options.append(Option(TEACH, _("Teach"), ((True, _("on")), (False, _("off"))), default=0 if on else 1))
        self.chosen.append(self.options[-1].default)

    # --- names ------------------------------------------------------------

    def seat_range(self) -> tuple[int, ...]:
        """The player counts the form offers."""
        for option in self.options:
            counts = tuple(v for v, _l in option.choices if isinstance(v, int))
            if option.key == "players" and len(counts) == len(option.choices):
                return counts
        return ()

    def typed_names(self) -> list[str] | list[list[str]]:
        return [list(team) for team in self.members] if self.teams else list(self.names)

    def set_names(self, names: list[str]) -> None:
        """Names in seat order; their count becomes the players option."""
        if names:
            counts = self.seat_range()
            if len(names) not in counts:
                raise Illegal("Players in this game: {low} to {high}.", low=min(counts), high=max(counts))
            i = [o.key for o in self.options].index("players")
            self.chosen[i] = [v for v, _l in self.options[i].choices].index(len(names))
            self._seated()
        self.names = list(names)

    def set_members(self, teams: list[list[str]]) -> None:
        """A team game overrides this to check the team sizes it offers."""
        self.members = [list(team) for team in teams]

    def seat_names(self, count: int) -> list[str]:
        """The names the game starts with: typed ones, the rest default."""
        return [self.names[i] if i < len(self.names) else _("Player {n}").format(n=i + 1) for i in range(count)]

    def named(self, values: dict) -> dict:
        """The chosen values with the typed names in, if any."""
        if self.names and isinstance(values.get("players"), int):
            return {**values, "players": self.seat_names(values["players"])}
        return values

    @property
    def values(self) -> dict:
        """The game's options chosen (Teach is the box's: the rules never see it)."""
        return {o.key: o.choices[i][0] for o, i in zip(self.options, self.chosen) if o.key != TEACH}

    @property
    def teach(self) -> bool | None:
        """The Teach option chosen, None on a form without it."""
        on = next((o.choices[i][0] for o, i in zip(self.options, self.chosen) if o.key == TEACH), None)
        return on if isinstance(on, bool) else None

    @property
    def pages(self) -> int:
        return max(1, (len(self.entries()) + self.per - 1) // self.per)

    def entries(self) -> list[int | None]:
        """The form's lines in order: option indices, and None for the note
        (``note()``), which takes a moot option's place, moved up to follow
        the option it explains (``noted``), so that both are on one page."""
        entries: list[int | None] = [None if self.moot(i) else i for i in range(len(self.options))]
        if None in entries and self.noted:
            entries.remove(None)
            after = next(i for i, o in enumerate(self.options) if o.key == self.noted)
            entries.insert(entries.index(after) + 1, None)
        return entries

    @property
    def per(self) -> int:
        """Options a page shows, over the line of names ("A:names B:by
        phone"): three over one row of keys; two where the key bar takes
        two rows (D turns the pages, and * is shown beside it)."""
        return LINES - 1 if len(self.options) <= LINES - 1 else LINES - 2

    def shown(self, index: int) -> str:
        """How option ``index`` reads now."""
        option = self.options[index]
        return option.choices[self.chosen[index]][1]

    def line(self, index: int) -> str:
        """Option ``index``'s line on the page, its digit first; a form whose
        value says more than a label could overrides it."""
        return fit(f"{index + 1} {self.options[index].label}: {self.shown(index)}")

    def moot(self, index: int) -> bool:
        """Whether option ``index`` means nothing with the others' choices:
        its digit is not offered, and its line gives way to ``note()``."""
        return False

    def note(self) -> str:
        """A line saying what the values chosen mean, drawn where a moot
        option's line would be ("" for none)."""
        return ""

    noted = ""   # the key of the option the note explains, if it is to follow it

    def front(self) -> None:
        """Back on the form's first page (a kept form opened again)."""
        self.page, self.help_page, self.mode = 0, None, Over.NONE

    def help(self) -> tuple[str, ...]:
        """The help text; a form whose help depends on the choices overrides it."""
        return self.help_lines

    def help_text(self) -> list[str]:
        """The help as its pages show it: ``help()``, then the game's words."""
        return with_glossary(self.help(), self.game)

    @property
    def help_pages(self) -> int:
        """The help's pages: its text's, then the How to play page's QR code."""
        return len(help_paged(self.help_text())) + (1 if guide.of(self.game) else 0)

    def setup_form(self) -> Form:
        return self

    def key(self, key: str, kind: str) -> None:
        if kind != "press":
            return
        if self.help_page is not None:
            self._help_key(key, self.help_page)
        elif self.mode == Over.ROSTER:
            self._roster_key(key)
        elif self.mode == Over.PHONE:
            if key in "*B":   # not #: the page offers only * to leave
                self.mode = Over.NONE
        elif key == "A":
            self.mode, self.picked, self.roster_page = Over.ROSTER, [], 0
        elif key == "B":
            self._phone()
        elif key.isdigit() and 1 <= int(key) <= len(self.options) and not self.moot(int(key) - 1):
            i = int(key) - 1
            self.chosen[i] = (self.chosen[i] + 1) % len(self.options[i].choices)
            self.page = self.entries().index(i) // self.per
            self._seated()
        elif key == "#":
            if self.teach is not None:
                self.box.teacher.choose(self.game, self.teach)
            self.start(self.named(self.values))
        elif key == "*":
            menu.keep_setup(self.box, self)   # the names typed and the options chosen wait for the table
            self.box.goto(menu.Main(self.box))
        elif key == "D":
            self.page = (self.page + 1) % self.pages
        elif key == "C" and self.help_lines:
            self.help_page = 0

    def _seated(self) -> None:
        # Only someone at the table can start: stepping past the last player,
        # or seating fewer players, comes back to the first seat.
        players = self.values.get("players")
        if not isinstance(players, int):
            return
        for i, option in enumerate(self.options):
            seat = option.choices[self.chosen[i]][0]
            if option.seat and isinstance(seat, int) and seat >= players:
                self.chosen[i] = 0

    def _phone(self) -> None:
        if self.names_token is None:
            self.names_token, self.names_csrf = team_links.new_token(), secrets.token_urlsafe(16)
            self.box.changed()   # the web hears of the page before a phone can ask for it
        self.mode = Over.PHONE

    def names_url(self) -> str:
        """The names page's address (its token is made as the page is first shown)."""
        if self.names_token is None:
            raise RuntimeError("the names page was never shown")
        return self.box.public_url() + "N/" + self.names_token

    def roster(self) -> list[str]:
        return setup_names.roster(self.box.store, self.box.labels.now())

    def _roster_key(self, key: str) -> None:
        roster = self.roster()
        pages = max(1, (len(roster) + LINES - 1) // LINES)
        if key.isdigit() and key != "0" and int(key) <= min(len(roster), 9):
            i = int(key) - 1
            if i in self.picked:
                self.picked.remove(i)
            else:
                self.picked.append(i)
        elif key == "D":
            self.roster_page = (self.roster_page + 1) % pages
        elif key == "C":
            self.roster_page = (self.roster_page - 1) % pages
        elif key == "*":
            self.mode = Over.NONE
        elif key == "B" and not roster:
            self._phone()
        elif key == "#":
            now = self.box.labels.now()
            if not self.picked and self.teams and setup_names.last_teams(self.box.store, now):
                self._take_teams(setup_names.last_teams(self.box.store, now))   # the same teams again
                return
            chosen = [roster[i] for i in self.picked] or setup_names.last_players(self.box.store, now)
            self._take(chosen)

    def split(self, count: int) -> tuple[int, ...]:
        """How many of ``count`` names picked join each team, in order: the
        first half the first team; a game with other sides overrides it."""
        half = (count + 1) // 2
        return (half, count - half)

    def joins(self, position: int) -> str:
        """Where the name picked ``position``-th (from 0) goes, as the roster
        marks it: its seat, or in a team game its team by the team's name."""
        if not self.teams:
            return str(position + 1)
        first, _second = self.split(len(self.picked))
        return self.titles_for(len(self.picked))[0 if position < first else 1]

    def titles_for(self, count: int) -> tuple[str, ...]:
        """The teams' names once ``count`` names picked are taken: a game
        whose sides depend on their sizes overrides it."""
        return self.team_titles or (team_label("team1"), team_label("team2"))

    def _take(self, chosen: list[str]) -> None:
        if self.teams:
            first, _second = self.split(len(chosen))
            self._take_teams([chosen[:first], chosen[first:]])
        else:
            self._apply(self.set_names, chosen)

    def _take_teams(self, teams: list[list[str]]) -> None:
        self._apply(self.set_members, teams)

    def _apply(self, setter, chosen) -> None:
        try:
            setter(chosen)
        except Illegal as exc:
            self.box.flash(i18n.refusal(exc))
            self.box.sound("error")
            return
        self.mode, self.preview = Over.NONE, None

    def _help_key(self, key: str, page: int) -> None:
        # Round and round, so that the QR code at the end is one C away.
        if key == "D":
            self.help_page = (page + 1) % self.help_pages
        elif key == "C":
            self.help_page = (page - 1) % self.help_pages
        elif key == "*":
            self.help_page = None

    def screens(self) -> dict[str, Screen]:
        if self.help_page is not None:
            return {"main": self._help_screen(self.help_page), **self._names_screens()}
        if self.mode == Over.ROSTER:
            return {"main": self._roster_screen(), **self._names_screens()}
        if self.mode == Over.PHONE:
            return {"main": self._phone_screen(), **self._names_screens()}
        per = self.per
        first = self.page * per
        lines = [fit(self.note()) if i is None else self.line(i) for i in self.entries()[first:first + per]]
        lines.append(_("A:names B:by phone"))
        keys = [("#", _("Start"))]
        if self.help_lines:
            keys.append(("C", _("Help")))
        if self.pages > 1:
            keys.append(("D", _("More")))
        keys.append(("*", _("Back")))
        title = self.title + (f" {self.page + 1}/{self.pages}" if self.pages > 1 else "")
        digits = "".join(d for d in roles.digits(len(self.options)) if not self.moot(int(d) - 1))
        return {"main": Screen(title, tuple(lines), keys=tuple(keys), digits=digits,
                               also=("A", "B")), **self._names_screens()}

    def _shown_names(self) -> tuple[list[list[str]], bool]:
        """The names the screens show, row by row (a team game's teams, else
        one row of seats): a phone's unsaved preview if there is one, else
        the saved ones; and whether they are unsaved."""
        saved = [list(team) for team in self.members] if self.teams else [list(self.names)]
        if self.preview is None or self.preview == saved:
            return saved, False
        return self.preview, True

    def _phone_screen(self) -> Screen:
        """The page's QR code, and beside it the names typed so far."""
        shown, _typing = self._shown_names()
        given = [name for row in shown for name in row]
        if not given:
            lines = tuple(wrap(_("Scan to type the players' names"), 10))
        elif len(given) <= LINES:
            lines = tuple(given)
        else:
            lines = (*given[:LINES - 1], f"+{len(given) - LINES + 1}")
        return Screen(_("Names"), lines, qr=self.names_url(), keys=(("*", _("Back")),), digits="")

    def _names_screens(self) -> dict[str, Screen]:
        """The names so far on the team screens, live as they are typed: a
        team game a team a screen, others up to four seats a screen.  Names
        a phone has not saved yet say so in the title ("White: typing…")."""
        shown, typing = self._shown_names()

        def titled(title: str) -> str:
            return _("{title}: typing…").format(title=title) if typing else title

        if self.teams:
            if not any(shown):
                # Nobody named yet: each team's screen, by the team's name,
                # says what the side is (``side_lines``), if the game says.
                return {seat: Screen(title, self.side_lines(t))
                        for t, (seat, title) in enumerate(zip(("team1", "team2"), self.team_titles))}
            return {seat: Screen(titled(self.team_titles[t] if self.team_titles else team_label(seat)),
                                 tuple(fit(name) for name in shown[t][:LINES]))
                    for t, seat in enumerate(("team1", "team2")) if t < len(shown)}
        [row] = shown
        if not row:
            return {}
        if typing:
            seats = [fit(f"{n} {name}") for n, name in enumerate(row, 1)]
        else:
            players = self.values.get("players")
            count = players if isinstance(players, int) else len(row)
            seats = [fit(f"{n} {name}") for n, name in enumerate(self.seat_names(count), 1)]
        shown_on = {"team1": Screen(titled(_("Players")), tuple(seats[:LINES]))}
        if len(seats) > LINES:
            shown_on["team2"] = Screen(titled(_("Players")), tuple(seats[LINES:]))
        return shown_on

    @property
    def team_titles(self) -> tuple[str, ...]:
        """A team game's teams by name, first team first (none: by number)."""
        return ()

    def side_lines(self, team: int) -> tuple[str, ...]:
        """What team ``team``'s screen says before anyone is named in it."""
        return ()

    def _roster_screen(self) -> Screen:
        roster = self.roster()
        if not roster:
            # Nobody to pick: say where names come from, and let B go there.
            return Screen(_("Tonight's players"),
                          tuple(wrap(_("No names typed tonight yet. B: type them on a phone."), COLS)),
                          keys=(("B", _("Phone")), ("*", _("Back"))))
        first = self.roster_page * LINES
        lines = []
        for i, name in enumerate(roster[first:first + LINES], first):
            mark = f"→{self.joins(self.picked.index(i))}" if i in self.picked else ""
            number = str(i + 1) if i < 9 else " "
            lines.append(fit(f"{number} {name} {mark}".rstrip()))
        # Nothing picked, # takes the players (in a team game the teams) of
        # tonight's last game with names: the key says so.
        keys = [("#", _("OK") if self.picked else _("As last game"))]
        if len(roster) > LINES:
            keys += [("C", "◄"), ("D", "►")]
        keys.append(("*", _("Back")))
        return Screen(_("Tonight's players"), tuple(lines), keys=tuple(keys), digits=roles.digits(len(roster)))

    def _help_screen(self, page: int) -> Screen:
        pages = help_paged(self.help_text())
        keys = (("C", "◄"), ("D", "►"), ("*", _("Back"))) if self.help_pages > 1 else (("*", _("Back")),)
        if page >= len(pages):
            return how_screen(self.box, self.game, guide.SETUP, keys)
        lines = pages[min(page, len(pages) - 1)]
        return Screen(help_title(page, self.help_pages), (*lines, *("",) * (HELP_LINES - len(lines)), game_menu_line()),
                      keys=keys)
