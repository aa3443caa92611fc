"""A numbered list: the main menu, the settings.

The number beside an item picks it at once, even when it is on another
page (``C``/``D`` turn pages); ``*`` goes back where there is a back.
"""
from __future__ import annotations

from typing import Callable

from referee.box.flows import Flow, roles
from referee.box.screen import LINES, Screen
from referee.i18n import _

Item = tuple[str, Callable[[], None]]   # an item's label, and what picking it does


class Menu(Flow):
    """``title`` is text, or a function giving it anew at every redraw."""

    def __init__(self, box, title: str | Callable[[], str], items: list[Item],
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
        title = self.title() if callable(self.title) else self.title
        title += f" {self.page + 1}/{self.pages}" if self.pages > 1 else ""
        return {"main": Screen(title, lines, keys=tuple(keys), digits=roles.digits(len(self.items)))}
