"""Which page of the screens survives a power cut or an undo.

Which page of a game's screens is up is not a game event, but a power cut
should not lose it either, nor should an undo land where one key makes the
move taken back again.  The page goes to the ``ui`` setting with the key
that turned it: after a key that committed an event, before the screens
change (the page and the state come back together); after a mere page flip,
right after the frame (``write`` after ``render``), so that no disk write
stands between a key and its frame: a cut in those milliseconds brings back
the page before.  Each event's row keeps the page it was keyed on, where an
undo of it lands (``Flow.undone``), and the undo's own row keeps the page it
landed on.
"""
from __future__ import annotations

import json
import logging
from typing import TYPE_CHECKING, Protocol

from referee import catalogue
from referee.box.card import Card
from referee.box.flows import Flow, flow_for, menu
from referee.box.flows.host import Host
from referee.box.flows.playhelp import Helper
from referee.box.game_menu import GameMenu
from referee.i18n import _
from referee.store.events import UNDO, Unsaved

if TYPE_CHECKING:
    from referee.box.session import Session

log = logging.getLogger(__name__)


def _copy(view: dict) -> dict:
    """A page as it comes back from disk: a flow may change its lists in
    place after it was taken."""
    return json.loads(json.dumps(view))


def _record(saved: dict) -> dict:
    """A saved page as ``write`` compares it (without its row)."""
    return {key: value for key, value in saved.items() if key != "seq"}


class Keeps(Host, Protocol):
    """The few things of the box the pages are kept from: what is up and
    where it is kept.  The flows it starts again (``flow_for``, the setup
    forms of ``menu``) are the box's own, so it is the box, a flow's
    ``Host``, that gives them."""

    card: Card
    flow: Flow | None
    game_menu: GameMenu
    helper: Helper

    @property
    def in_game(self) -> bool: ...

    @property
    def overlay(self) -> str | None: ...


class PageKeeper:
    """The pages of one box (``box``: its store, session, flow, game menu)."""

    def __init__(self, box: Keeps) -> None:
        self.box = box
        self._saved: dict | None = None    # the page last written, as ``write`` compares it
        self._before: dict | None = None   # the game's page before the key being handled
        self._committed = False            # an event was committed since the page was last saved

    def page(self) -> dict | None:
        """The game's page now, if the game's flow is up (not the menus the
        table tools' countdown may run behind)."""
        flow = self.box.flow
        if self.box.in_game and flow is not None:
            return _copy(flow.view())
        return None

    def keyed_on(self) -> dict | None:
        """The page the key being handled was pressed on, else the page now:
        where an undo of what it does lands."""
        return self._before if self._before is not None else self.page()

    def key(self, key: str, kind: str) -> None:
        """Hand a key to the flow, the page it was pressed on noted."""
        flow = self.box.flow
        if flow is None:
            return   # nothing takes keys before the box starts
        self._before = self.page()
        try:
            flow.key(key, kind)
        finally:
            self._before = None

    def committed(self) -> None:
        """An event was committed: its page is saved with the next frame."""
        self._committed = True

    def remember(self) -> None:
        """Before the frame: the page of a key that committed an event."""
        if self.box.session is not None and self._committed:
            self._committed = False
            self.write()

    def write(self) -> None:
        """The page up, whatever it is: a game's (with the last row it
        follows: see ``enter``, after an undo), a setup form's (``setup``
        names its game: see ``resume_setup``), or a menu's (nothing to keep,
        but it is no longer the form)."""
        box, flow = self.box, self.box.flow
        if flow is None:
            return   # nothing is up before the box starts
        game = box.session.id if box.session is not None else None
        page: dict[str, object] = {"game": game, "view": _copy(flow.view())}
        setup = flow.game
        if setup and flow.remembered:
            page["setup"] = setup
        if box.overlay is not None:
            page["overlay"] = box.overlay
        if box.helper.page is not None and box.in_game:
            page["help"] = box.helper.page   # the help in play up over the game's page
        if page != self._saved:
            try:
                box.store.set_setting("ui", {**page, "seq": box.store.last_seq(game) if game else 0})
            except Unsaved as exc:
                box.card.refused(exc)   # only the page: the next key tries again
                return
            self._saved = page

    def forget(self) -> None:
        """The next ``write`` writes even a page that looks like the last."""
        self._saved = None

    # --- coming back ------------------------------------------------------------

    def enter(self, session: Session) -> None:
        """The game's flow, on the page saved for it, if any (the game
        menu too, if it was up, and the help in play)."""
        box = self.box
        box.goto(flow_for(box, session))
        saved = box.store.setting("ui", {})
        saved = saved if isinstance(saved, dict) else {}
        view = saved.get("view") if saved.get("game") == session.id else None
        if view is not None and "setup" in saved:
            view = {}   # a setup form over the menus the tools' countdown runs behind
        overlay = saved.get("overlay") if view is not None else None
        helped = saved.get("help") if view is not None else None
        last = box.store.last_row(session.id)
        if last is not None and last.data == UNDO and saved.get("seq", last.seq) < last.seq:
            # The power went between an undo and its page: the undo row
            # holds the page it landed on.
            view, overlay, helped = box.store.view(session.id, last.seq) or view, None, None
        if view is not None and not self.show(session, view, "start: the saved page of game %d"):
            box.card.notices.append(_("Could not restore the page"))
            self._committed = True   # the page that replaces it is saved at once
            self.remember()
        else:
            if isinstance(overlay, str) and box.game_menu.kept(overlay) and self.page() is not None:
                box.game_menu.restore(overlay)   # the game menu held up by holding *
            box.helper.restore(helped)   # the help in play, over the page it was opened on
        self._saved = _record(saved)

    def resume_setup(self) -> None:
        """A setup form that was up when the power went (see ``write``):
        only over the main menu, never over a game's page."""
        box = self.box
        saved = box.store.setting("ui", {})
        name = saved.get("setup") if isinstance(saved, dict) else None
        # A damaged page may hold anything there, even a list (unhashable).
        if not isinstance(name, str) or name not in {g.name for g in catalogue.on_menu()} \
                or box.in_game:
            return
        try:
            menu.open_game(box, name)
            form = box.flow
            if form is None:
                raise RuntimeError("no setup form opened")
            form.restore(saved["view"])
            form.screens()
        except Exception as exc:   # noqa: BLE001  a form that cannot be shown: the main menu
            log.error("start: the saved setup page of %s cannot be shown (%r); the main menu instead", name, exc)
            box.card.notices.append(_("Could not restore the page"))
            box.goto(menu.Main(box))
        self._saved = _record(saved)
        box.render()

    def show(self, session: Session, view: dict, what: str) -> bool:
        """The game's flow anew, on ``view``; on its first page if that
        cannot be shown (False)."""
        box = self.box
        flow = flow_for(box, session)
        box.goto(flow)
        try:
            flow.restore(view)
            flow.screens()
        except Exception as exc:   # noqa: BLE001  a page that cannot be shown: the game's first
            log.error(what + " cannot be shown (%r); the game's first page instead", session.id, exc)
            box.goto(flow_for(box, session))
            return False
        return True

    # --- undo -------------------------------------------------------------------------

    def landing(self, session: Session) -> dict | None:
        """The page an undo of the session's last action lands on: the page
        that action was keyed on, short of the move being keyed in
        (``Flow.undone``), so that no single key replays what was taken
        back.  None where no page was kept with the action."""
        row = session.taken_back()
        keyed = self.box.store.view(session.id, row) if row is not None else None
        return flow_for(self.box, session).undone(keyed) if keyed is not None else None

    def undone(self, session: Session, landing: dict | None) -> None:
        """After the undo row (which holds ``landing``) went to disk: the
        page of ``session`` it landed on, written even if it looks like the
        last, since it follows the undo row."""
        box = self.box
        if landing is None or not self.show(session, landing, "undo: the page of game %d"):
            box.goto(flow_for(box, session))   # no page kept with the action: the game's first
        self._saved = None
        self.write()
