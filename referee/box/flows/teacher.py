"""A first game, taught: with Teach on (its setup's option), the first time
each phase of the game comes up the box shows one short page before it,
and after each referee decision a page that says why, citing the rule.

What each page says is data of the game's ``said`` module, next to the
rest of its wording: ``TEACH`` (the phase, as ``step(state).kind``
names it, to its text) and ``WHY`` (a decision to its ``referee.glossary.Ruling``), with
``decisions(event, before, after)`` naming the decisions an event made.

A taught page is up over the game's own page, which stays as it was: the
page takes ``#`` (on, through its pages), ``C`` (its page before) and no
other key of the pad, so no key moves the game on under it (the team
buttons and the dice module's button stay the table's).  Which phases were
taught, and the rulings still to read, are kept in the store with the
game (``taught:<game id>``), so that a power cut loses none of them; an
undo forgets what was taught after the step it lands on, so that the page
comes back with its step.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple, Protocol

import msgspec

from referee import catalogue
from referee.box.flows import roles
from referee.box.flows.host import Host
from referee.box.screen import LINES, Screen, wrap
from referee.i18n import _
from referee.store.events import Unsaved

if TYPE_CHECKING:
    from referee.box.card import Card
    from referee.box.session import Session


class Classroom(Host, Protocol):
    """What the taught pages ask of their box: what a flow may, whether the
    game's own flow is up (a taught page is over it, not over the menus),
    and the card that may refuse their record."""

    card: Card

    @property
    def in_game(self) -> bool: ...


class Owed(msgspec.Struct, array_like=True):
    """A ruling still to read: its ``WHY`` key, its fields, and how many
    events were in effect when it was made (an undo below that drops it)."""
    key: str
    fields: dict[str, str]
    depth: int


class Page(NamedTuple):
    """A taught page owed: ``why`` the ruling's ``WHY`` key, else "" and
    ``phase`` the phase it comes before; its title and its whole text."""
    why: str
    phase: str
    title: str
    text: str


class Lesson(msgspec.Struct):
    """What a game's teaching has done so far, as the store keeps it."""
    on: bool = False
    taught: dict[str, int] = {}   # phase -> events in effect when its page was read
    owed: list[Owed] = []         # rulings to read, oldest first
    page: int = 0                 # the page of the text up


def chosen(box: Host, name: str) -> bool:
    """Whether the setup of ``name`` offers Teach on: the table's last
    choice for that game, else on until the box has finished one (where
    the configuration's ``teach`` is on)."""
    remembered = box.store.setting(setting(name))
    return remembered if isinstance(remembered, bool) else box.config.teach and not box.store.finished(name)


def setting(name: str) -> str:
    """The setting that remembers the table's Teach choice for a game."""
    return f"teach:{name}"


def phase(session: Session) -> str:
    """The phase the game is in, as its rules' ``step`` names it."""
    step = getattr(session.rules, "step", None)
    return str(step(session.state).kind) if step is not None else ""


def paged(text: str) -> list[tuple[str, ...]]:
    """A taught page's text as the panel's pages; in play, Help's first
    page starts with the same lines (``playhelp``)."""
    lines = wrap(text)
    return [tuple(lines[i:i + LINES]) for i in range(0, len(lines), LINES)] or [()]


class Teacher:
    """The taught pages of the game a box plays (``box``: its store and session)."""

    def __init__(self, box: Classroom) -> None:
        self.box = box
        self.lesson = Lesson()
        self._next: bool | None = None   # the Teach choice of the setup being started

    # --- a game begins, comes back, is taken back --------------------------------

    def choose(self, name: str, on: bool) -> None:
        """The setup of ``name`` starts with Teach ``on``; a choice that is
        not what the box offered is remembered for the game's next setup."""
        if on != chosen(self.box, name):
            self.box.store.set_setting(setting(name), on)
        self.next_game(on)

    def next_game(self, on: bool) -> None:
        """The next game started is taught if ``on``."""
        self._next = on

    def begin(self, session: Session) -> None:
        """A new game: taught if its setup chose so (a game started
        otherwise, as the table tools are, is not)."""
        on, self._next = bool(self._next), None
        self.lesson = Lesson(on=on)
        if on:
            self._save(session)

    def enter(self, session: Session) -> None:
        """The game's teaching as it was kept (after a power cut)."""
        kept = self.box.store.setting(self._key(session))
        try:
            self.lesson = msgspec.convert(kept, Lesson) if kept is not None else Lesson()
        except msgspec.ValidationError:
            self.lesson = Lesson()   # a damaged record: the game plays on untaught

    def acted(self, session: Session, event: object, before: object) -> None:
        """After ``event`` was applied to ``session``: the rulings it made, to be read."""
        decide = catalogue.hook(session.name, "said", "decisions")
        if not self.lesson.on or decide is None:
            return
        made = [Owed(key, fields, session.depth) for key, fields in decide(event, before, session.state)]
        if made:
            self.lesson.owed.extend(made)
            self._save(session)

    def undone(self, session: Session) -> None:
        """After an undo in ``session``: what was taught after the step it
        lands on is taught again when the step comes back."""
        lesson = self.lesson
        if not lesson.on:
            return
        depth = session.depth
        lesson.taught = {name: at for name, at in lesson.taught.items() if at <= depth}
        lesson.owed = [owed for owed in lesson.owed if owed.depth <= depth]
        lesson.page = 0
        self._save(session)

    # --- the page ---------------------------------------------------------------------

    def owed(self) -> Page | None:
        """The taught page owed now, if any."""
        box, session = self.box, self.box.session
        if not self.lesson.on or session is None or not box.in_game:
            return None
        said = catalogue.load(catalogue.GAMES[session.name].said)
        if self.lesson.owed:
            owed = self.lesson.owed[0]
            return Page(owed.key, "", _("Why"), _(said.WHY[owed.key].text).format(**owed.fields))
        now = phase(session)
        text = getattr(said, "TEACH", {}).get(now)
        if text is None or now in self.lesson.taught:
            return None
        return Page("", now, _("How it goes"), _(text))

    def screen(self) -> Screen | None:
        """The taught page up over the game's, if one is owed."""
        owed = self.owed()
        if owed is None:
            return None
        title, pages = owed.title, paged(owed.text)
        page = min(self.lesson.page, len(pages) - 1)
        last = page + 1 == len(pages)
        keys = [roles.confirm(_("Go on") if last else _("Next"))]
        if page > 0:
            keys.append((roles.HELP, "◄"))
        if len(pages) > 1:
            title = f"{title} {page + 1}/{len(pages)}"
        return Screen(title, pages[page], keys=tuple(keys))

    def key(self, key: str) -> None:
        """``#`` turns the page, and on the last goes on to the game's;
        ``C`` turns back."""
        owed, session, lesson = self.owed(), self.box.session, self.lesson
        if owed is None or session is None:   # a page is owed only in a game
            return
        pages = len(paged(owed.text))
        if key == roles.HELP:
            lesson.page = max(0, lesson.page - 1)
        elif key == roles.CONFIRM and lesson.page + 1 < pages:
            lesson.page += 1
        elif key == roles.CONFIRM:
            lesson.page = 0
            if lesson.owed:
                lesson.owed.pop(0)
            else:
                lesson.taught[phase(session)] = session.depth
        self._save(session)

    # --- the record -----------------------------------------------------------------

    def _key(self, session: Session) -> str:
        return f"taught:{session.id}"

    def _save(self, session: Session) -> None:
        try:
            self.box.store.set_setting(self._key(session), msgspec.to_builtins(self.lesson))
        except Unsaved as exc:
            self.box.card.refused(exc)   # kept in memory: the next change tries again
