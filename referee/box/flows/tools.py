"""Table tools: the countdown and the dice, for any game on the table.

Timer page: ``A`` 30 s, ``B`` 1 min, ``C`` 5 min, or type seconds and ``#``;
``#`` starts, pauses and resumes.  ``*`` at rest goes back to the main menu;
with time on the countdown it asks first: ``#`` resets it, ``D`` goes to the
main menu with the countdown running on (its time in the menu's title line;
"Table tools" there comes back to it), ``*`` stays.  ``A``-``C`` on a
countdown under way ask too, as ``*`` does: ``#`` sets the new time, ``*``
keeps the countdown.
``D`` turns to the dice page: ``#`` rolls, ``A`` changes how many dice,
``B`` how many sides, ``C`` lists the last rolls, ``*`` back to the timer
(from the last rolls, back to the dice).
A roll on the dice module's own button shows on the dice page wherever you are.
"""
from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING

from games import tools
from referee.box.flows import Flow, clock_text, menu
from referee.box.flows.roles import DIGITS
from referee.box.screen import Screen, wrap
from referee.i18n import _

if TYPE_CHECKING:
    from referee.box.session import Session

SIDES = (4, 6, 8, 10, 12, 20)


class Page(StrEnum):
    TIMER = "timer"
    DICE = "dice"
    ROLLS = "rolls"     # the last rolls, listed


class Play(Flow):
    remembered = ("page", "typed", "asking")
    keyed = ("typed", "asking")

    def __init__(self, box, session) -> None:
        super().__init__(box)
        self.session: Session = session
        self.page = Page.TIMER
        self.typed = ""
        # The question up, one kind of value so that a power cut keeps it:
        # "" none, "*" "reset the countdown?", or the preset key ("A") that
        # would replace the countdown under way.
        self.asking = ""

    def restore(self, view: dict) -> None:
        if "page" not in view:
            # Saved by a menu: the countdown was running on behind the menus,
            # and the box comes back on the main menu, as without it.
            self.box.goto(menu.Main(self.box))
            return
        if isinstance(view.get("asking"), bool):
            # Saved before the question was one kind: True was the reset.
            view = {**view, "asking": "*" if view["asking"] else ""}
        super().restore(view)
        if self.asking not in ("", "*", "A", "B", "C"):
            raise ValueError(f"no question {self.asking!r} on the timer")

    @property
    def state(self) -> tools.State:
        return self.session.state

    def key(self, key: str, kind: str) -> None:
        if kind != "press":
            return
        if self.asking:
            self._ask_key(key)
        elif self.page == Page.TIMER:
            self._timer_key(key)
        else:
            self._dice_key(key)

    def _timer_key(self, key: str) -> None:
        act, cd = self.box.act, self.state.countdown
        if key.isdigit() and len(self.typed) < 4:
            self.typed += key
        elif key == "#" and self.typed:
            if act(tools.SetTimer(int(self.typed))):
                self.typed = ""
        elif key == "#":
            act(tools.PauseTimer() if cd.running else tools.StartTimer())
        elif key == "*" and self.typed:
            self.typed = ""
        elif key == "*" and self.state.expired:
            act(tools.ResetTimer())     # time is up: nothing left to lose
        elif key == "*" and (cd.running or cd.left != cd.seconds):
            self.asking = "*"
        elif key == "*":
            act(tools.Close())
            self.box.leave()
        elif key in "ABC" and (cd.running or cd.left != cd.seconds) and not self.state.expired:
            self.asking = key
        elif key in "ABC":
            act(tools.SetTimer(tools.PRESETS["ABC".index(key)]))
        elif key == "D":
            self.page = Page.DICE

    def _ask_key(self, key: str) -> None:
        if self.asking in tuple("ABC"):
            if key == "#":
                self.box.act(tools.SetTimer(tools.PRESETS["ABC".index(self.asking)]))
            if key in ("#", "*"):
                self.asking = ""
            return
        if key == "#":
            self.asking = ""
            self.box.act(tools.ResetTimer())
        elif key == "D":
            # The tools stay the box's session: its clock keeps the countdown
            # running and ticking, and the menu shows its time.
            self.asking = ""
            self.box.goto(menu.Main(self.box))
        elif key == "*":
            self.asking = ""

    def _dice_key(self, key: str) -> None:
        s = self.state
        if key == "#":
            self.box.roll()
        elif key == "A":
            self.box.act(tools.SetDice(s.count % 4 + 1, s.sides))
        elif key == "B":
            following = [n for n in SIDES if n > s.sides]
            self.box.act(tools.SetDice(s.count, following[0] if following else SIDES[0]))
        elif key == "C":
            self.page = Page.ROLLS
        elif key == "*":   # one step back: the last rolls to the dice, the dice to the timer
            self.page = Page.DICE if self.page == Page.ROLLS else Page.TIMER

    def on_roll(self) -> None:
        self.page = Page.DICE  # wherever the table was, show the roll

    def screens(self):
        timer = self._timer_screen()
        shown = {Page.TIMER: timer, Page.DICE: self._dice_screen(), Page.ROLLS: self._rolls_screen()}[self.page]
        if self.asking:
            shown = self._ask_screen()
        mirror = Screen(_("Timer"), big=timer.big)
        return {"main": shown, "team1": mirror, "team2": mirror}

    def _timer_screen(self) -> Screen:
        cd = self.state.countdown
        if self.typed:
            return Screen(_("Set timer"), big=f"{self.typed}s", keys=(("#", _("OK")), ("*", _("Clear"))),
                          digits=DIGITS if len(self.typed) < 4 else "")
        paused = not cd.running and cd.left != cd.seconds
        timer = _("Timer{paused}  D:dice").format(paused=" ‖" if paused else "")
        title = _("Time is up!") if self.state.expired else timer
        go = _("Pause") if cd.running else _("Go")
        keys = (("#", go), ("A", _("30s")), ("B", _("1m")), ("C", _("5m")), ("*", _("Back")))
        return Screen(title, big=self._left(), keys=keys, digits=DIGITS, also=("D",))

    def _ask_screen(self) -> Screen:
        cd = self.state.countdown
        if self.asking in tuple("ABC"):
            seconds = tools.PRESETS["ABC".index(self.asking)]
            return Screen(_("Timer {time}").format(time=self._left()),
                          (_("#: set to {time}").format(time=clock_text(seconds)),),
                          keys=(("#", _("OK")), ("*", _("No"))), digits="")
        lines = (_("#: reset to {time}").format(time=clock_text(cd.seconds)), _("D: menu, it runs on"))
        return Screen(_("Timer {time}").format(time=self._left()), lines,
                      keys=(("#", _("Reset")), ("D", _("Menu")), ("*", _("No"))), digits="")

    def _left(self) -> str:
        left = self.box.remaining()
        return clock_text(self.state.countdown.left if left is None else left)

    def _dice_screen(self) -> Screen:
        s = self.state
        last = s.rolls[0] if s.rolls else None
        big = "  ".join(str(v) for v in last.values) if last else "–"
        title = (_("Dice {count}d{sides} (software)") if last and last.source == "software"
                 else _("Dice {count}d{sides}")).format(count=s.count, sides=s.sides)
        # Four keys with their words do not fit the bar: the dice shrink to
        # leave two lines for them.
        lines = (_("A:number of dice"), _("B:sides C:last rolls"))
        return Screen(title, lines, big=big, keys=(("#", _("Roll")), ("*", _("Timer"))), mid=True,
                      digits="", also=("A", "B", "C"))

    def _rolls_screen(self) -> Screen:
        text = " | ".join("+".join(map(str, r.values)) for r in self.state.rolls) or _("No rolls yet.")
        return Screen(_("Last rolls"), tuple(wrap(text))[:4], keys=(("*", _("Back")),), digits="")


def describe(event, before) -> str:
    """The last action in a few words, for the undo question (``referee.box.flows.actions``)."""
    match event:
        case tools.SetTimer(seconds):
            return _("timer set to {time}").format(time=clock_text(seconds))
        case tools.StartTimer():
            return _("timer started")
        case tools.PauseTimer():
            return _("timer paused")
        case tools.ResetTimer():
            return _("timer reset")
        case tools.SetDice(count, sides):
            return _("dice set to {count}d{sides}").format(count=count, sides=sides)
    return ""
