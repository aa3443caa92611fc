"""The box: one object on one event loop that owns everything that changes.

A key press travels: gpiozero pin → ``hal.keys`` (debounce, hold) →
``Box.on_key`` → the current flow (a menu, a game's key flow) → an event →
``Session.apply`` (rules, then the store) → ``Box.changed`` (dice, timers,
sounds) → ``Box.render`` → ``Display.show`` (only the changed columns).

Randomness comes from ``rng`` (seeded in tests), time from ``clock``.  The
rules count in the game's own clock (``game_time``, see ``referee.session``);
the wall clock only labels games and events for people (``labels``).
"""
from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import math
import os
import random

from games import base, tools
from referee import i18n, names, scorelog
from referee.card import Card
from referee.config import Config
from referee.devices import DISPLAYS, build
from referee.clock import STEP_SECONDS, WallLabels
from referee.flows import SLACK
from referee.i18n import _, ngettext
from referee.screen import Screen, render, said_shown, wrap
from referee.session import Session
from referee.store import UNDO, Unsaved

log = logging.getLogger(__name__)
FLASH_SECONDS = 2.5
VIEW_WRITE_DELAY = 0.0  # the page is written with the key that turned it (_remember_view)
# How often an idle box looks whether the wall clock has stepped (NTP).
WALL_CHECK_SECONDS = 10.0


def lan_address() -> str:
    """This box's address on the local network (see ``referee.address``)."""
    from referee import address
    return address.this_box().address


def _copy(view: dict) -> dict:
    """A page as it comes back from disk: a flow may change its lists in
    place after it was taken."""
    return json.loads(json.dumps(view))


def _record(saved: dict) -> dict:
    """A saved page as ``_write_view`` compares it (without its row)."""
    return {key: value for key, value in saved.items() if key != "seq"}


def _moved(mark, labels: WallLabels) -> bool:
    """The labels of this boot were written with another offset."""
    return mark[0] != labels.boot or abs(mark[1] - labels.offset) >= STEP_SECONDS


class Box:
    def __init__(self, config: Config, clock, loop, rng: random.Random | None = None) -> None:
        self.config = config
        self.clock = clock
        self.loop = loop
        self.rng = rng or random.SystemRandom()
        path = config.database_path
        try:
            os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        except OSError:
            pass   # the card says what is wrong when the store opens
        self.card = Card(path, clock)
        self.store = self.card.open()
        self.labels = WallLabels(clock, floor=self.store.latest_label())
        self._game_clock = (0.0, clock.monotonic())  # (game time, monotonic second) at the last set
        self._wall_check = None
        i18n.use(self.store.setting("lang", config.lang))
        self.devices = build(config, clock, self.on_key)
        self.session: Session | None = None
        self.flow = None
        self.shown: dict[str, Screen] = {}
        self._flash: tuple[str, object] | None = None
        self._overlay = None      # the game menu held up by holding *: "undo" or "end"
        self._named = None        # (game, events) and the last action's name, for the overlay
        self._timer = None        # (name, deadline, expiry handle, tick handle)
        self._tasks: set[asyncio.Task] = set()
        self._rolling = False
        self._dice_lost = False
        self._saved_view = None
        self._before = None       # the game's page before the key being handled (see act)
        self._committed = False   # an event was committed since the page was last saved
        self.closed = False
        self._watchers: list = []
        self.key_count = 0        # key events handled, for the virtual table
        self.drawn_at = 0.0       # when the displays were last handed pictures (clock.monotonic)
        self.roll_count = 0       # rolls taken, likewise

    # --- life ------------------------------------------------------------------

    def start(self) -> None:
        """On the loop's thread: wire the devices and show the first screen
        (the game that was up when the power went, if any)."""
        from referee.flows import menu
        self.devices.keys.start(self.loop)
        dice = self.devices.dice
        dice.on_button = self.on_dice_button
        dice.on_status = self.on_dice_status
        dice.start(self.loop)
        for display in self.devices.displays.values():
            display.on_change = lambda name, online: self.render()
        self._check_wall(start=True)
        self._watch_wall()
        # The game on the screens when the power went, finished or not.
        # Whatever the store holds, the box comes up: what cannot be
        # restored is said on the screen and the journal, never fatal.
        try:
            self._resume()
        except Exception as exc:   # noqa: BLE001
            log.error("start: the game on the screens cannot be resumed (%r); back to the main menu", exc)
            self.session, self._overlay = None, None
            self._cancel_timer()
            self.card.notices.append(_("Could not resume the game"))
            self.flow = menu.Main(self)
            self.changed()
        self._resume_setup()
        if self.card.notices:   # each is in the journal too
            self.flash(" ".join(n if n.endswith(".") else n + "." for n in self.card.notices), seconds=None)

    def _resume(self) -> None:
        from referee.flows import menu
        current = self.store.setting("current")
        row = self.store.game(current) if isinstance(current, int) else None
        if current is not None and row is None:
            log.error("start: game %r cannot be read; back to the main menu", current)
            self.card.notices.append(_("Could not resume the game"))
        if row is None:
            self.flow = menu.Main(self)
            self.changed()
            return
        session = Session(self.store, row.id, row.name, row.options)
        if session.lost:
            log.error("start: game %d: %d events from number %d cannot be replayed; set aside",
                      row.id, session.lost, session.broken_at)
            self.card.notices.append(ngettext("{n} event could not be read", "{n} events could not be read",
                                              session.lost).format(n=session.lost))
            try:
                self.store.set_aside(row.id, session.broken_at)
            except Unsaved:
                pass   # a read-only card: the rows stay, the game goes on from before them
        try:
            session.catch_up()   # a long replay is not made again at the next start
        except Unsaved:
            pass   # a card that refuses it: the next start replays the long way again
        self._enter(session)

    def close(self) -> None:
        if self.closed:
            return
        self.closed = True
        if self._wall_check is not None:
            self._wall_check.cancel()
        for task in self._tasks:
            task.cancel()
        self._cancel_timer()
        self.devices.close()
        self.store.close()

    async def idle(self) -> None:
        """Returns once nothing the box started is still under way."""
        quiet = 0
        while quiet < 3:  # callbacks may queue callbacks; a few empty turns
            await asyncio.sleep(0)
            if self._tasks:
                quiet = 0
                await asyncio.wait(set(self._tasks), timeout=5)
            else:
                quiet += 1

    # --- games -------------------------------------------------------------------

    def start_game(self, name: str, options: dict | None = None) -> None:
        """Begin a game (or the table tools) with its setup options; this is
        where every setup menu ends."""
        options = dict(options or {})
        if name == "decrypto" and options.get("keywords", "box") == "box":
            options.setdefault("exclude", scorelog.words_dealt(self.store, self.labels.now()))
        self._check_wall()
        stamp = self.labels.stamp()
        try:
            options = names.check_players(options)
            session = Session.new(self.store, name, options, stamp[0], stamp)
            self.store.set_setting("current", session.id)
        except base.Illegal as exc:
            self.flash(i18n.refusal(exc))
            self.sound("error")
            return
        except Unsaved as exc:
            self.unsaved(exc)
            return
        self.saved()
        if self.session is not None:   # the table tools' countdown, left running behind the menus
            try:
                self.session.apply(tools.Close(), self.game_time(), self.labels.stamp())
                self._end_game(self.session.id)
            except Unsaved as exc:
                self.unsaved(exc)
        self._enter(session)
        main = self.shown.get("main")
        if main is not None and main.said and not said_shown(dataclasses.replace(main, flash="")):
            # A first page with no row to spare says it over its lines, until a key.
            self.flash(main.said, seconds=None)

    def _enter(self, session: Session) -> None:
        from referee.flows import flow_for
        if self.store.setting("current") != session.id:
            self.store.set_setting("current", session.id)
        self.session = session
        self._set_game_time(self._stored_game_time(session))
        self.flow = flow_for(self, session)
        saved = self.store.setting("ui", {})
        saved = saved if isinstance(saved, dict) else {}
        view = saved.get("view") if saved.get("game") == session.id else None
        if view is not None and "setup" in saved:
            view = {}   # a setup form over the menus the tools' countdown runs behind
        overlay = saved.get("overlay") if view is not None else None
        last = self.store.last_row(session.id)
        if last is not None and last[1] == UNDO and saved.get("seq", last[0]) < last[0]:
            # The power went between an undo and its page: the undo row
            # holds the page it landed on.
            view, overlay = self.store.view(session.id, last[0]) or view, None
        if view is not None and not self._show(view, "start: the saved page of game %d"):
            self.card.notices.append(_("Could not restore the page"))
            self._committed = True   # the page that replaces it is saved at once
            self._remember_view()
        elif overlay in ("undo", "end") and self._page() is not None:
            self._overlay = overlay   # the game menu held up by holding *
        self._saved_view = _record(saved)
        self.changed()

    def _resume_setup(self) -> None:
        # A setup form that was up when the power went (see _write_view):
        # only over the main menu, never over a game's page.
        from referee.flows import menu
        saved = self.store.setting("ui", {})
        name = saved.get("setup") if isinstance(saved, dict) else None
        if name not in dict(menu.GAMES) or getattr(self.flow, "session", None) is not None:
            return
        try:
            menu.open_game(self, name)
            self.flow.restore(saved["view"])
            self.flow.screens()
        except Exception as exc:   # noqa: BLE001  a form that cannot be shown: the main menu
            log.error("start: the saved setup page of %s cannot be shown (%r); the main menu instead", name, exc)
            self.card.notices.append(_("Could not restore the page"))
            self.flow = menu.Main(self)
        self._saved_view = _record(saved)
        self.render()

    def _show(self, view: dict, what: str) -> bool:
        """The game's flow anew, on ``view``; on its first page if that
        cannot be shown (False)."""
        from referee.flows import flow_for
        self.flow = flow_for(self, self.session)
        try:
            self.flow.restore(view)
            self.flow.screens()
        except Exception as exc:   # noqa: BLE001  a page that cannot be shown: the game's first
            log.error(what + " cannot be shown (%r); the game's first page instead", self.session.id, exc)
            self.flow = flow_for(self, self.session)
            return False
        return True

    def _page(self) -> dict | None:
        """The game's page now, if the game's flow is up (not the menus the
        table tools' countdown may run behind)."""
        if self.session is not None and getattr(self.flow, "session", None) is self.session:
            return _copy(self.flow.view())
        return None

    def _remember_view(self) -> None:
        # Which page of a game's screens is up is not a game event, but a
        # power cut should not lose it either: the page goes to disk with the
        # key that turned it.  After a key that committed an event, before
        # the screens change (the page and the state come back together);
        # after a mere page flip, right after the frame (``_write_view``
        # after ``render``), so that no disk write stands between a key and
        # its frame: a cut in those milliseconds brings back the page before.
        if self.session is not None and self._committed:
            self._committed = False
            self._write_view()

    def _write_view(self) -> None:
        # The page up, whatever it is: a game's (with the last row it
        # follows: see _enter, after an undo), a setup form's (``setup``
        # names its game: see _resume_setup), or a menu's (nothing to keep,
        # but it is no longer the form).
        game = self.session.id if self.session is not None else None
        page = {"game": game, "view": _copy(self.flow.view())}
        setup = getattr(self.flow, "game", "")
        if setup and getattr(self.flow, "remembered", ()):
            page["setup"] = setup
        if self._overlay is not None:
            page["overlay"] = self._overlay
        if page != self._saved_view:
            try:
                self.store.set_setting("ui", {**page, "seq": self.store.last_seq(game) if game else 0})
            except Unsaved as exc:
                self.card.refused(exc)   # only the page: the next key tries again
                return
            self._saved_view = page

    def leave(self) -> None:
        """Back to the main menu; a game left unfinished is marked finished."""
        from referee.flows import menu
        try:
            if self.session is not None and self.store.game(self.session.id).ended is None:
                self._end_game(self.session.id)
            self.store.set_setting("current", None)
        except Unsaved as exc:
            self.unsaved(exc)
            return
        self.saved()
        self.session = None
        self._cancel_timer()
        self.flow = menu.Main(self)
        self.changed()

    def act(self, event, view: dict | None = None) -> bool:
        """Apply a player's event.  Refused: a message and a low beep.
        With it goes the page it was keyed on (``view``, or the page before
        the key being handled, or the page now), where an undo of it lands."""
        if base.is_automatic(event):
            view = None   # never taken back alone: the player's action before it is
        elif view is None:
            view = self._before if self._before is not None else self._page()
        try:
            self._check_wall()
            self.session.apply(event, self.game_time(), self.labels.stamp(), view)
        except base.Illegal as exc:
            self.flash(i18n.refusal(exc))
            self.sound("error")
            return False
        except Unsaved as exc:
            self.unsaved(exc)
            return False
        self.saved()
        self._committed = True
        self.changed()
        return True

    def unsaved(self, exc: Unsaved) -> None:
        """A write the card refused: the key is refused, as an illegal move is."""
        self.flash(self.card.refused(exc))
        self.sound("error")

    def saved(self) -> None:
        """A key's writes went through: a "Cannot save" still on the screen
        is no longer true."""
        said = self.card.saved()
        if said is not None and self._flash is not None and self._flash[0] == said:
            self._unflash()

    def changed(self) -> None:
        """After any change: answer what the rules ask for, keep the timer
        in step, close a finished game, redraw."""
        try:
            self._follow_rules()
        except Unsaved as exc:
            self.unsaved(exc)   # what the rules asked for is asked again after the next key
        self.render()
        for watcher in self._watchers:
            watcher()

    def _follow_rules(self) -> None:
        s = self.session
        if s is not None:
            while True:
                todo = [r for r in s.rules.requests(s.state) if not isinstance(r, base.Roll)]
                if not todo:
                    break
                s.apply(self._answer(todo[0]), self.game_time(), self.labels.stamp())
            roll = self.pending_roll()
            if roll is not None:
                self.devices.dice.arm(roll.count, roll.sides)
            self._sync_timer()
            if s.rules.is_over(s.state) and self.store.game(s.id).ended is None:
                self._end_game(s.id)

    def watch(self, fn) -> None:
        """Call ``fn()`` after every change to a game (the web's live pages)."""
        self._watchers.append(fn)

    def _answer(self, request):
        if isinstance(request, base.Pick):
            return base.Picked(request.purpose, self.rng.choice(request.options))
        order = list(request.items)
        self.rng.shuffle(order)
        return base.Shuffled(request.purpose, tuple(order))

    # --- dice ---------------------------------------------------------------------

    def pending_roll(self) -> base.Roll | None:
        if self.session is None:
            return None
        return next((r for r in self.session.rules.requests(self.session.state) if isinstance(r, base.Roll)), None)

    def roll(self) -> None:
        """Roll what the game asks for on the dice (a key was pressed)."""
        request = self.pending_roll()
        if request is None or self._rolling:
            return
        self._rolling = True
        self._spawn(self._roll(request, self._before if self._before is not None else self._page()))

    async def _roll(self, request: base.Roll, view: dict | None) -> None:
        try:
            result = await self.devices.dice.roll(request.count, request.sides)
        finally:
            self._rolling = False
        self._rolled(request, result, view)

    def on_dice_button(self, result) -> None:
        request = self.pending_roll()
        if request is None or len(result.values) != request.count:
            self.flash(_("No roll needed now."))
            self.roll_count += 1
            return
        self._rolled(request, result)

    def _rolled(self, request: base.Roll, result, view: dict | None = None) -> None:
        self.roll_count += 1
        rolled = base.Rolled(request.purpose, tuple(result.values), result.source)
        if self.pending_roll() == request and self.act(rolled, view):
            on_roll = getattr(self.flow, "on_roll", None)
            if on_roll:
                on_roll()
                self._remember_view()
                self.render()
                self._write_view()

    def on_dice_status(self, status: str) -> None:
        if status == "offline":
            self._dice_lost = True
            self.flash(_("Dice module offline: rolling in software"))
        elif self._dice_lost:
            self._dice_lost = False
            self.flash(_("Dice module is back"))

    # --- time -----------------------------------------------------------------------

    def game_time(self) -> float:
        """The game clock now: see ``referee.session``."""
        at, mono = self._game_clock
        return at + (self.clock.monotonic() - mono)

    def _set_game_time(self, at: float) -> None:
        self._game_clock = (at, self.clock.monotonic())

    def _stored_game_time(self, session: Session) -> float:
        # The last row's clock, or the checkpoint a running countdown wrote
        # after it (one written before a later row or an undo is stale).
        mark = self.store.setting("clock") or {}
        if (mark.get("game") == session.id and mark.get("seq") == self.store.last_seq(session.id)
                and mark.get("at", 0) > session.clock):
            return mark["at"]
        return session.clock

    def _write_checkpoint(self) -> None:
        # At each tick, when the whole second shown has just changed: after a
        # power cut the countdown comes back on the second that was shown.
        self.store.set_setting("clock", {"game": self.session.id, "seq": self.store.last_seq(self.session.id),
                                         "at": self.game_time()})

    def _end_game(self, game: int) -> None:
        stamp = self.labels.stamp()
        self.store.end_game(game, stamp[0], stamp)

    def _check_wall(self, start: bool = False) -> None:
        """Re-date this boot's labels once the wall clock has stepped (NTP
        at boot); at start, also when it stepped while the box was down."""
        mark = [self.labels.boot, self.labels.offset]
        if start and self.store.setting("wall") is None:
            self.store.set_setting("wall", mark)   # a new database: nothing to re-date
        elif self.labels.check() or start and _moved(self.store.setting("wall"), self.labels):
            log.info("wall clock set: the labels of this boot are re-dated")
            mark = [self.labels.boot, self.labels.offset]
            self.store.redate(*mark)
            self.store.set_setting("wall", mark)
            for watcher in self._watchers:
                watcher()

    def _watch_wall(self) -> None:
        self._check_wall()
        self._wall_check = self.clock.call_later(WALL_CHECK_SECONDS, self._watch_wall)

    def countdown(self) -> base.Countdown | None:
        return self.session.rules.timer(self.session.state) if self.session else None

    def remaining(self) -> float | None:
        """Seconds left on the running or paused countdown, if any."""
        s = self.session
        if s is None:
            return None
        cd = s.rules.timer(s.state)
        return None if cd is None else cd.remaining(self.game_time())

    def _sync_timer(self) -> None:
        cd = self.countdown()
        key = (cd.name, cd.deadline()) if cd is not None and cd.running else None
        if self._timer is not None and self._timer[:2] == key:
            return
        self._cancel_timer()
        if key is None:
            return
        left = cd.deadline() - self.game_time()
        expiry = self.clock.call_later(left, self._expire, cd.name)
        self._timer = [cd.name, cd.deadline(), expiry, None]
        self._schedule_tick()

    def _schedule_tick(self) -> None:
        # Redraw each time the whole seconds shown change (``clock_text``
        # rounds up, ignoring float noise below SLACK).
        left = self._timer[1] - self.game_time()
        whole = math.ceil(left - SLACK)
        self._timer[3] = self.clock.call_later(max(left - (whole - 1), SLACK), self._tick)

    def _tick(self) -> None:
        if self._timer is None:
            return
        left = self._timer[1] - self.game_time()
        if 0.5 < left <= getattr(self.flow, "warn_seconds", 5) + 0.5:
            self.sound("tick")
        self._write_checkpoint()
        self.render()
        if left > 1.0:
            self._schedule_tick()

    def _expire(self, name: str) -> None:
        self._cancel_timer()
        if self.act(base.TimerExpired(name)):
            self.sound("timeup")

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            for handle in self._timer[2:]:
                if handle is not None:
                    handle.cancel()
            self._timer = None

    # --- keys ---------------------------------------------------------------------------

    def on_key(self, key: str, kind: str) -> None:
        try:
            self._key(key, kind)
        finally:
            # Counted once handled, its page on disk: a remote hand told
            # the key was taken may cut the power (see referee.remote).
            self.key_count += 1

    def _key(self, key: str, kind: str) -> None:
        self._check_wall()
        fresh = self.card.reopen(self.store)
        if fresh is not None:   # a card that could not be written was tried again
            self.store = fresh
            if self.session is not None:
                self.session.store = fresh
        if kind == "press" and self._flash is not None and self._flash[1] is None:
            self._unflash()   # a message from the start stays up until a key
        if self._overlay is not None:
            if kind == "press":
                self._overlay_key(key)
            self.render()
            self._write_view()
            return
        if key == "*" and kind == "hold":
            # Not over the menus, where the table tools may run on behind.
            if self.session is not None and getattr(self.flow, "session", None) is self.session:
                self._overlay = "undo"
                self.render()
                self._write_view()
            return
        if kind == "release" and key == "*":
            return
        self._before = self._page()
        try:
            self.flow.key(key, kind)
        finally:
            self._before = None
        self._remember_view()
        self.render()
        self._write_view()

    def _overlay_key(self, key: str) -> None:
        """Holding * brings up the game menu: undo, or end the game."""
        if key == "*":
            self._overlay = None
        elif key == "D" and self._overlay == "undo":
            self._overlay = "end"
        elif key == "#" and self._overlay == "end":
            self._overlay = None
            self.leave()
        elif key == "#" and self.session.can_undo():
            self._overlay = None
            self._undo()

    def _overlay_screen(self) -> Screen:
        if self._overlay == "end":
            return Screen(_("End this game?"), (_("It stays in the"), _("score log.")),
                          keys=(("#", _("Yes")), ("*", _("No"))))
        if not self.session.can_undo():
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
        first action, how to take back and reach the game menu."""
        from referee.flows import forms
        if not self.session.can_undo():
            return forms.game_menu_line()
        return self._last_action()

    def _last_action(self) -> str:
        # Named anew only when the game moved (a new row): the overlay
        # redraws every second under a running clock.
        from referee.flows import actions
        key = (self.session.id, self.session.seq)
        if self._named is None or self._named[0] != key:
            self._named = (key, actions.describe(self.session))
        return self._named[1]

    def _undo(self) -> None:
        # The undo lands on the page its action was keyed on, short of the
        # move being keyed in (Flow.undone), and that page goes into the
        # undo's own row: a power cut right after it cannot bring back a
        # page where one key replays what was taken back.
        from referee.flows import flow_for
        s = self.session
        self._check_wall()
        keyed = self.store.view(s.id, s.taken_back())
        landing = flow_for(self, s).undone(keyed) if keyed is not None else None
        try:
            s.undo(self.labels.stamp(), landing)
            self._set_game_time(s.clock)
            self._cancel_timer()  # the countdown the undo lands on starts over from its time
            if not s.rules.is_over(s.state) and self.store.game(s.id).ended is not None:
                self.store.reopen_game(s.id)  # the end was taken back
        except Unsaved as exc:
            self.unsaved(exc)
            return
        self.saved()
        if landing is None or not self._show(landing, "undo: the page of game %d"):
            self.flow = flow_for(self, s)   # no page kept with the action: the game's first
        self._saved_view = None   # written even if it looks like the last: it follows the undo row
        self._write_view()
        self.flash(_("Undone."))
        self.changed()

    def public_url(self) -> str:
        """Where phones find the score log.  Upper case, because a QR code
        holds upper-case URLs in its compact alphanumeric mode."""
        web = self.config.web
        if web.public_url:
            return web.public_url.rstrip("/") + "/"
        host = web.host if web.host not in ("0.0.0.0", "::", "") else lan_address()
        return f"HTTP://{host}:{web.port}/"

    # --- output ----------------------------------------------------------------------------

    def flash(self, text: str, seconds: float | None = FLASH_SECONDS) -> None:
        """A one-line message over the main screen, for ``seconds`` (None:
        until the next key)."""
        if self._flash is not None and self._flash[1] is not None:
            self._flash[1].cancel()
        self._flash = (text, None if seconds is None else self.clock.call_later(seconds, self._unflash))
        self.render()

    def _unflash(self) -> None:
        self._flash = None
        self.render()

    def sound(self, name: str) -> None:
        if self.devices.buzzer is not None:
            self.devices.buzzer.play(name)

    def render(self) -> None:
        if self.flow is None:
            return
        screens = self.flow.screens()
        if self._overlay is not None:
            screens["main"] = self._overlay_screen()
        elif self._page() is not None and "main" in screens and self.session.name != "tools":
            # The table tools show what they hold (the time, the dice): no
            # line of what was done, and no hint over their first page.
            said = self.said()
            if said not in screens["main"].lines:   # a page that says it already
                screens["main"] = dataclasses.replace(screens["main"], said=said)
        for name in DISPLAYS:
            screen = screens.get(name) or Screen(_("Team 1") if name == "team1" else _("Team 2") if name == "team2" else "")
            if name == "main" and self._flash is not None:
                screen = dataclasses.replace(screen, flash=self._flash[0])
            self.shown[name] = screen
            display = self.devices.displays.get(name)
            if display is not None:
                display.show(render(screen))
        self.drawn_at = self.clock.monotonic()

    def _spawn(self, coro) -> None:
        task = self.loop.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
