"""The game menu: holding * over a game's page brings it up over the main
screen.  It offers to take back the last action (named, so that the table
knows what it undoes), and from there, with D, to end the game."""
from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING, Callable, NamedTuple

from referee.box.flows import actions, forms
from referee.box.screen import Screen, wrap
from referee.i18n import _

if TYPE_CHECKING:
    from referee.box.session import Session


class Mode(StrEnum):
    """What the menu asks; its value is what the saved page keeps."""
    UNDO = "undo"
    END = "end"


class _Named(NamedTuple):
    """The last action's name, and the row it was named at."""
    row: tuple[int, int]
    text: str


class GameMenu:
    """Over the game ``session()`` gives (the box's, which changes); it
    asks for the last action to be taken back (``undo``) or the game
    ended (``leave``)."""

    def __init__(self, session: Callable[[], Session | None], undo: Callable[[], None],
                 leave: Callable[[], None]) -> None:
        self._session, self._undo, self._leave = session, undo, leave
        self.mode: Mode | None = None
        self._named: _Named | None = None

    def _game(self) -> Session:
        session = self._session()
        if session is None:
            raise RuntimeError("the game menu is only up over a game")
        return session

    def open(self) -> None:
        self.mode = Mode.UNDO

    def close(self) -> None:
        self.mode = None

    @staticmethod
    def kept(saved) -> bool:
        """``saved`` (from a page on disk) names a mode of the menu."""
        return saved in list(Mode)   # a list: a damaged page may hold anything, hashable or not

    def restore(self, saved: str) -> None:
        """Up again as a saved page had it."""
        self.mode = Mode(saved)

    def key(self, key: str) -> None:
        """A key pressed while the menu is up."""
        if key == "*":
            self.mode = None
        elif key == "D" and self.mode is Mode.UNDO:
            self.mode = Mode.END
        elif key == "#" and self.mode is Mode.END:
            self.mode = None
            self._leave()
        elif key == "#" and self._game().can_undo():
            self.mode = None
            self._undo()

    def screen(self) -> Screen:
        if self.mode is Mode.END:
            return Screen(_("End this game?"), (_("It stays in the"), _("score log.")),
                          keys=(("#", _("Yes")), ("*", _("No"))))
        if not self._game().can_undo():
            return Screen(_("Game menu"), (_("Nothing to undo."),), keys=(("*", _("Back")), ("D", _("End game"))))
        action = self._last_action()
        if action:
            lines = [_("Take back:"), *wrap(_("{action}?").format(action=action))]
        else:
            lines = [_("Take back the last"), _("action?")]
        return Screen(_("Undo?"), tuple(lines[:3]), keys=(("#", _("Yes")), ("*", _("No")), ("D", _("End game"))))

    def said(self) -> str:
        """The line under a game's public screen: what was last done and by
        whom, so that a wrong key is seen and can be taken back; before the
        first action, how to take back and reach this menu."""
        if not self._game().can_undo():
            return forms.game_menu_line()
        return self._last_action()

    def _last_action(self) -> str:
        # Named anew only when the game moved (a new row): the menu
        # redraws every second under a running clock.
        session = self._game()
        row = (session.id, session.seq)
        if self._named is None or self._named.row != row:
            self._named = _Named(row, actions.describe(session))
        return self._named.text
