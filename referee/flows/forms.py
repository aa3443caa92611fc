"""Two building blocks for menus: a numbered list and a setup form.

Both answer a digit at once: the number beside an item picks it, even when
it is on another page (``C``/``D`` turn pages).  A setup form shows one option
a line; the option's digit steps to its next value, ``#`` starts the game.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from referee.flows import Flow
from referee.i18n import _
from referee.screen import LINES, Screen, fit


class Menu(Flow):
    def __init__(self, box, title: str, items: list[tuple[str, Callable[[], None]]],
                 back: Callable[[], None] | None = None) -> None:
        super().__init__(box)
        self.title, self.items, self.back, self.page = title, items, back, 0

    @property
    def pages(self) -> int:
        return (len(self.items) + LINES - 1) // LINES

    def key(self, key: str, kind: str) -> None:
        if kind != "press":
            return
        if key.isdigit() and 1 <= int(key) <= len(self.items):
            self.items[int(key) - 1][1]()
        elif key == "D" and self.page + 1 < self.pages:
            self.page += 1
        elif key == "C" and self.page > 0:
            self.page -= 1
        elif key == "*" and self.back:
            self.back()

    def screens(self):
        first = self.page * LINES
        lines = tuple(f"{i} {label}" for i, (label, _a) in enumerate(self.items[first:first + LINES], first + 1))
        keys = []
        if self.page > 0:
            keys.append(("C", "◄"))
        if self.page + 1 < self.pages:
            keys.append(("D", "►"))
        if self.back:
            keys.append(("*", _("Back")))
        title = self.title + (f" {self.page + 1}/{self.pages}" if self.pages > 1 else "")
        return {"main": Screen(title, lines, keys=tuple(keys))}


def named_seats(values: dict) -> dict:
    """Setup values with a players count turned into seat names in the box's
    language ("Hráč 1" at a Czech table), so the score log reads as the
    screens do."""
    count = values.get("players")
    if not isinstance(count, int):
        return values
    return {**values, "players": [_("Player {n}").format(n=n) for n in range(1, count + 1)]}


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

    def __init__(self, box, title: str, options: list[Option], start: Callable[[dict], None],
                 help_lines: tuple[str, ...] = ()) -> None:
        super().__init__(box)
        self.title, self.options, self.start = title, options, start
        self.chosen = [o.default for o in options]
        self.page = 0
        self.help_lines = help_lines
        self.help_page = None  # the help page shown, if any

    @property
    def values(self) -> dict:
        return {o.key: o.choices[i][0] for o, i in zip(self.options, self.chosen)}

    @property
    def pages(self) -> int:
        return max(1, (len(self.options) + LINES - 2) // (LINES - 1))

    def help(self) -> tuple[str, ...]:
        """The help text; a form whose help depends on the choices overrides it."""
        return self.help_lines

    @property
    def help_pages(self) -> int:
        return (len(self.help()) + LINES - 1) // LINES

    def key(self, key: str, kind: str) -> None:
        from referee.flows import menu
        if kind != "press":
            return
        if self.help_page is not None:
            self._help_key(key)
        elif key.isdigit() and 1 <= int(key) <= len(self.options):
            i = int(key) - 1
            self.chosen[i] = (self.chosen[i] + 1) % len(self.options[i].choices)
            self.page = i // (LINES - 1)
            self._seated()
        elif key == "#":
            self.start(self.values)
        elif key == "*":
            self.box.flow = menu.Main(self.box)
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
            if option.seat and option.choices[self.chosen[i]][0] >= players:
                self.chosen[i] = 0

    def _help_key(self, key: str) -> None:
        if key == "D" and self.help_page + 1 < self.help_pages:
            self.help_page += 1
        elif key == "C" and self.help_page > 0:
            self.help_page -= 1
        elif key in "*#":
            self.help_page = None

    def screens(self):
        if self.help_page is not None:
            return {"main": self._help_screen()}
        per = LINES - 1
        first = self.page * per
        lines = [fit(f"{i} {o.label}: {o.choices[self.chosen[i - 1]][1]}")
                 for i, o in enumerate(self.options[first:first + per], first + 1)]
        lines.append(_("digit: change"))
        keys = [("#", _("Start"))]
        if self.help_lines:
            keys.append(("C", _("Help")))
        if self.pages > 1:
            keys.append(("D", _("More")))
        else:
            keys.append(("*", _("Back")))
        title = self.title + (f" {self.page + 1}/{self.pages}" if self.pages > 1 else "")
        return {"main": Screen(title, tuple(lines), keys=tuple(keys))}

    def _help_screen(self) -> Screen:
        first = self.help_page * LINES
        keys = []
        if self.help_page > 0:
            keys.append(("C", "◄"))
        if self.help_page + 1 < self.help_pages:
            keys.append(("D", "►"))
        keys.append(("*", _("Back")))
        title = _("Help") + (f" {self.help_page + 1}/{self.help_pages}" if self.help_pages > 1 else "")
        return Screen(title, tuple(self.help()[first:first + LINES]), keys=tuple(keys))
