"""The box: one object on one event loop that owns everything that changes.

A key press travels: gpiozero pin → ``hal.keys`` (debounce, hold) →
``Box.on_key`` (a ``KeyEvent``) → the current flow (a menu, a game's key flow) → an event →
``Session.apply`` (rules, then the store) → ``Box.changed`` (dice, timers,
sounds; the screens marked to draw) → the page saved → ``Box._draw`` once
→ ``Display.show`` (only the changed columns).  A key, a roll and an event
from elsewhere (a countdown's end, a team page) are each one transaction
and one frame (``Box._one_frame``).

Randomness comes from ``rng`` (seeded in tests), time from ``clock``.  The
rules count in the game's own clock (``game_time``, see ``referee.box.session``);
the wall clock only labels games and events for people (``labels``).

The box coordinates; three parts of it live apart: ``time``, the game clock
and the countdown's timer (``referee.box.game_clock``); ``pages``, which page
survives a power cut or an undo (``referee.box.page_keeper``); ``game_menu``,
the menu held up by holding * (``referee.box.game_menu``).  What a flow may ask
of the box is ``referee.box.flows.host.Host``.
"""
from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import os
import random
import sqlite3
import time
from typing import TYPE_CHECKING, Iterator, NamedTuple, TypedDict

from games import base, tools
from hal.keys import TEAMS, KeyEvent
from hal.timing import Timer
from referee import account as accounts
from referee import catalogue, i18n, name_check
from referee.box.card import Card, unreadable_text
from referee.box.devices import build
from referee.box.flows import Flow, menu, public, roles
from referee.box.game_clock import GameClock
from referee.box.game_clock import Hooks as ClockHooks
from referee.box.game_menu import GameMenu
from referee.box.page_keeper import PageKeeper
from referee.box.screen import SAID, Screen, layout, render, said_shown, wrap
from referee.box.session import Session
from referee.box.flows.playhelp import Helper
from referee.box.flows.teacher import Teacher
from referee.box.wifi import Network
from referee.clock import WallLabels
from referee.config import DISPLAYS, Config
from referee.i18n import _, ngettext
from referee.store import scorelog
from referee.store.events import Unsaved

if TYPE_CHECKING:
    from referee.box.flows.forms import Form

log = logging.getLogger(__name__)
FLASH_SECONDS = 2.5
VIEW_WRITE_DELAY = 0.0  # the page is written with the key that turned it (see referee.box.page_keeper)


class Flash(NamedTuple):
    """A message over the main screen, and the handle that takes it down
    (None: the next key does)."""
    text: str
    handle: Timer | None


class Words(TypedDict):
    """The public screen's own words, as the table view says them
    (``Box.public_words``)."""
    title: str     # the game's page title: its phase ("Black: finish clues!")
    said: str      # the line of what was last done, as the panel draws it
    staged: bool   # the page draws the account's stage as a row of its own


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
        self.session: Session | None = None
        self.flow: Flow | None = None   # what takes the keys: none until ``start``
        self.labels = WallLabels(clock, floor=self.store.latest_label())
        self.time = GameClock(clock, self.labels, ClockHooks(
            store=lambda: self.store, session=lambda: self.session,
            warn=self._warn_seconds, act=self.act, sound=self.sound, render=self.render),
            on_redate=self._tell_watchers)
        self.pages = PageKeeper(self)
        self.game_menu = GameMenu(lambda: self.session, self.undo, self.leave)   # held up by holding *
        self.teacher = Teacher(self)   # a first game's taught pages, over the game's
        self.helper = Helper(self)     # help in play, over the game's page (C where it says Help)
        i18n.use(self.store.setting("lang", config.lang))
        self.devices = build(config, clock, self.on_key)
        # comitup's state and this box's address, for every QR code (referee.box.wifi)
        self.network = Network(config.database_path, clock, self.render)
        self.shown: dict[str, Screen] = {}
        # Setup forms left for the main menu, by game: (the evening, the form),
        # until the game starts (``referee.box.flows.menu.keep_setup``).
        self.setups: dict[str, tuple[float, Form]] = {}
        self._flash: Flash | None = None
        self._tasks: set[asyncio.Task] = set()
        self._rolling = False
        self._dice_lost = False
        self.closed = False
        self._watchers: list = []
        self.key_count = 0        # key events handled, for the virtual table
        self.key_cpu = 0.0        # seconds of this thread's CPU spent handling them (bench/)
        self.last_key: KeyEvent | None = None   # the last of them, for the control socket's timings
        self.drawn_at = 0.0       # when the displays were last handed pictures (clock.monotonic)
        self.frames = 0           # times the displays were handed pictures (bench/: frames per key)
        self._keying = False      # a key (or a roll, an event) is being handled: drawn once, at its end
        self._dirty = False       # ... and something did
        self._tell_after = False  # ... and the watchers are told once its frame is drawn
        self.roll_count = 0       # rolls taken, likewise

    # --- life ------------------------------------------------------------------

    def start(self) -> None:
        """On the loop's thread: wire the devices and show the first screen
        (the game that was up when the power went, if any)."""
        self.network.start()
        self.devices.keys.start(self.loop)
        dice = self.devices.dice
        dice.on_button = self.on_dice_button
        dice.on_status = self.on_dice_status
        dice.start(self.loop)
        for display in self.devices.displays.values():
            display.on_change = lambda name, online: self.render()
        self.time.check_wall(start=True)
        self.time.watch_wall()
        # The game on the screens when the power went, finished or not.
        # Whatever the store holds, the box comes up: what cannot be
        # restored is said on the screen and the journal, never fatal.
        try:
            self._resume()
        except Exception as exc:   # noqa: BLE001
            log.error("start: the game on the screens cannot be resumed (%r); back to the main menu", exc)
            self.session = None
            self.game_menu.close()
            self.time.cancel()
            self.card.notices.append(_("Could not resume the game"))
            self.goto(menu.Main(self))
            self.changed()
        self.pages.resume_setup()
        self._spawn(self._look_through())
        if self.card.notices:   # each is in the journal too
            self.flash(" ".join(n if n.endswith(".") else n + "." for n in self.card.notices), seconds=None)

    async def _look_through(self) -> None:
        """After the first screen: what of the record cannot be read, said
        on the main screen with what the start had to say."""
        try:
            found = await asyncio.to_thread(self.card.look_through, frozenset(catalogue.GAMES), self.store.setting("current"))
        except sqlite3.Error as exc:   # a card read as it is, too damaged even for this look
            log.error("start: the record cannot be looked through (%r)", exc)
            return
        lines = unreadable_text(found, self.store, menu.title)
        if lines and not self.closed:
            self.card.notices.extend(lines)
            self.flash(" ".join(n if n.endswith(".") else n + "." for n in self.card.notices), seconds=None)

    def _resume(self) -> None:
        current = self.store.setting("current")
        row = self.store.game(current) if isinstance(current, int) else None
        if current is not None and row is None:
            log.error("start: game %r cannot be read; back to the main menu", current)
            self.card.notices.append(_("Could not resume the game"))
        if row is None:
            self.goto(menu.Main(self))
            self.changed()
            return
        session = Session(self.store, row.id, row.name, row.options)
        if session.lost and session.broken_at is not None:
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
        for task in self._tasks:
            task.cancel()
        self.time.close()
        self.network.close()
        self.devices.close()
        self.store.close()

    def busy(self) -> bool:
        """Whether work the box started is still under way (``idle`` waits for it)."""
        return bool(self._tasks)

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

    def goto(self, flow: Flow) -> None:
        """``flow`` takes the keys and the screens from now on (a help up
        over the page before goes with it)."""
        self.flow = flow
        self.helper.close()

    @property
    def in_game(self) -> bool:
        """A game's own flow has the keys (not the menus the table tools'
        countdown may run on behind)."""
        return self._up() is not None

    @property
    def overlay(self) -> str | None:
        """The game menu's mode while it is up over the game: "undo" or "end"."""
        mode = self.game_menu.mode
        return None if mode is None else mode.value

    def _up(self) -> Session | None:
        """The game whose own flow has the keys, if any (``in_game``)."""
        session = self.session
        return session if session is not None and self.flow is not None and self.flow.session is session else None

    def _playing(self) -> Session:
        """The game being played (an event, an undo: only in a game)."""
        if self.session is None:
            raise RuntimeError("no game is being played")
        return self.session

    def _unended(self, game: int) -> bool:
        """Whether the game's row says it has not ended.  A row that cannot
        be read (a damaged card) counts as not ended: ending it once more
        only writes its end again."""
        row = self.store.game(game)
        return row is None or row.ended is None

    def start_game(self, name: str, options: dict | None = None) -> None:
        """Begin a game (or the table tools) with its setup options; this is
        where every setup menu ends."""
        options = dict(options or {})
        if name in catalogue.GAMES and catalogue.GAMES[name].deals_words and options.get("keywords", "box") == "box":
            options.setdefault("exclude", scorelog.words_dealt(self.store, self.labels.now()))
        self.time.check_wall()
        stamp = self.labels.stamp()
        try:
            options = name_check.check_players(options)
            session = Session.new(self.store, name, options, stamp.label, stamp)
            self.teacher.begin(session)
            self.store.set_setting("current", session.id)
        except base.Illegal as exc:
            self.flash(i18n.refusal(exc))
            self.sound("error")
            return
        except Unsaved as exc:
            self.unsaved(exc)
            return
        self.saved()
        self.setups.pop(name, None)   # its setup is done with
        if self.session is not None:   # the table tools' countdown, left running behind the menus
            try:
                self.session.apply(tools.Close(), self.game_time(), self.labels.stamp())
                self._end_game(self.session.id)
            except Unsaved as exc:
                self.unsaved(exc)
        self._enter(session)
        main = self._screens().get("main")   # as it is now: a key's frame is drawn at its end
        if main is not None and main.said and not said_shown(dataclasses.replace(main, flash="")):
            # A first page with no row to spare says it over its lines, until a key.
            self.flash(main.said, seconds=None)

    def _enter(self, session: Session) -> None:
        if self.store.setting("current") != session.id:
            self.store.set_setting("current", session.id)
        self.session = session
        self.time.set(self.time.stored(session))
        self.teacher.enter(session)
        self.pages.enter(session)
        self.changed()

    def leave(self) -> None:
        """Back to the main menu; a game left unfinished is marked finished."""
        try:
            if self.session is not None and self._unended(self.session.id):
                self._end_game(self.session.id)
            self.store.set_setting("current", None)
        except Unsaved as exc:
            self.unsaved(exc)
            return
        self.saved()
        self.session = None
        self.game_menu.close()      # a menu of no game would draw nothing but a crash
        self.time.cancel()
        self.goto(menu.Main(self))
        self.changed()

    def act(self, event, view: dict | None = None) -> bool:
        """Apply a player's event.  Refused: a message and a low beep.
        With it goes the page it was keyed on (``view``, or the page before
        the key being handled, or the page now), where an undo of it lands.
        It commits and marks the screens to draw: the key (or the roll)
        that handed it draws them once; an event from elsewhere (the
        countdown's end, a team page) is a frame of its own."""
        with self._one_frame():
            return self._commit(event, view)

    def _commit(self, event, view: dict | None) -> bool:
        session = self._playing()
        if base.is_automatic(event):
            view = None   # never taken back alone: the player's action before it is
        elif view is None:
            view = self.pages.keyed_on()
        before = session.state
        try:
            self.time.check_wall()
            session.apply(event, self.game_time(), self.labels.stamp(), view)
        except base.Illegal as exc:
            self.flash(i18n.refusal(exc))
            self.sound("error")
            return False
        except Unsaved as exc:
            self.unsaved(exc)
            return False
        self.saved()
        self.pages.committed()
        self.changed()
        self.teacher.acted(session, event, before)   # once the rules' own follow-ups are in
        return True

    def undo(self) -> None:
        """Take back the game's last action (the game menu's #)."""
        s = self._playing()
        self.time.check_wall()
        landing = self.pages.landing(s)
        try:
            s.undo(self.labels.stamp(), landing)
            self.time.set(s.clock)
            self.time.cancel()  # the countdown the undo lands on starts over from its time
            if not s.rules.is_over(s.state) and not self._unended(s.id):
                self.store.reopen_game(s.id)  # the end was taken back
        except Unsaved as exc:
            self.unsaved(exc)
            return
        self.saved()
        self.teacher.undone(s)
        self.helper.close()
        self.pages.undone(s, landing)
        self.flash(_("Undone."))
        self.changed()

    def unsaved(self, exc: Unsaved) -> None:
        """A write the card refused: the key is refused, as an illegal move is."""
        self.flash(self.card.refused(exc))
        self.sound("error")

    def saved(self) -> None:
        """A key's writes went through: a "Cannot save" still on the screen
        is no longer true."""
        said = self.card.saved()
        if said is not None and self._flash is not None and self._flash.text == said:
            self._unflash()

    def changed(self) -> None:
        """After any change: answer what the rules ask for, keep the timer
        in step, close a finished game, redraw."""
        try:
            self._follow_rules()
        except Unsaved as exc:
            self.unsaved(exc)   # what the rules asked for is asked again after the next key
        if self.helper.page is not None and not self.helper.up:
            self.helper.close()   # the game moved on under it (a countdown ran out) to a page without help
        self.render()
        if self._keying:
            self._tell_after = True   # once the key's frame is drawn: the web is sent that frame's words
        else:
            self._tell_watchers()

    def _told(self, words: Words) -> None:
        """After a key's (a roll's, an event's) frame: the watchers told of what it
        changed, or of the page it turned, so that the table view follows
        the public screen's page (``words``: its words before)."""
        if self._tell_after or self.public_words() != words:
            self._tell_after = False
            self._tell_watchers()

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
            self.time.sync(self.countdown())
            if s.rules.is_over(s.state) and self._unended(s.id):
                self._end_game(s.id)

    def _end_game(self, game: int) -> None:
        stamp = self.labels.stamp()
        self.store.end_game(game, stamp.label, stamp)

    def watch(self, fn) -> None:
        """Call ``fn()`` after every change to a game (the web's live pages)."""
        self._watchers.append(fn)

    def _tell_watchers(self) -> None:
        for watcher in self._watchers:
            watcher()

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
        self._spawn(self._roll(request, self.pages.keyed_on()))

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
        said = self._flash
        with self._one_frame():   # as a key: the roll committed, its page saved, then one frame
            if self.pending_roll() == request and self.act(rolled, view):
                if said is not None and self._flash is said:
                    self._unflash()   # the roll acted: a message from before it goes
                if self.flow is not None:
                    self.flow.on_roll()

    def on_dice_status(self, status: str) -> None:
        if status == "offline":
            self._dice_lost = True
            self.flash(_("Dice module offline: rolling in software"))
        elif self._dice_lost:
            self._dice_lost = False
            self.flash(_("Dice module is back"))

    # --- time -----------------------------------------------------------------------

    def _warn_seconds(self) -> float:
        """Seconds a countdown ticks aloud at its end: the flow's."""
        return self.flow.warn_seconds if self.flow is not None else Flow.warn_seconds

    def game_time(self) -> float:
        """The game clock now: see ``referee.box.session``."""
        return self.time.now()

    def countdown(self) -> base.Countdown | None:
        return self.session.rules.timer(self.session.state) if self.session else None

    def remaining(self) -> float | None:
        """Seconds left on the running or paused countdown, if any."""
        cd = self.countdown()
        return None if cd is None else cd.remaining(self.game_time())

    # --- keys ---------------------------------------------------------------------------

    def on_key(self, event: KeyEvent) -> None:
        started = time.thread_time()
        self.last_key = event
        try:
            self._key(event.key, event.kind)
        finally:
            # Counted once handled, its page on disk: a control socket's client told
            # the key was taken may cut the power (see referee.box.sim_control).
            self.key_count += 1
            self.key_cpu += time.thread_time() - started

    def _key(self, key: str, kind: str) -> None:
        """One key, one transaction, one frame (``_one_frame``)."""
        with self._one_frame():
            self._handle(key, kind)

    @contextlib.contextmanager
    def _one_frame(self) -> Iterator[None]:
        """One key (a roll, an event from elsewhere), one transaction, one
        frame: what is handled inside commits its events and marks the
        screens to draw (``render``, ``changed``); then the page of a
        committed event is saved, the screens are drawn once (if marked or
        changed: a key that changed nothing draws no frame), the web's
        watchers are told, and a page merely turned is written.  Inside
        another (``act`` within a key), the outer one draws."""
        if self._keying:
            yield
            return
        words = self.public_words()
        self._keying, self._dirty, self._tell_after = True, False, False
        try:
            yield
        finally:
            self._keying = False
        self.pages.remember()
        self._draw(changed=not self._dirty)
        self._told(words)
        self.pages.write()

    def _handle(self, key: str, kind: str) -> None:
        self.time.check_wall()
        fresh = self.card.reopen(self.store)
        if fresh is not None:   # a card that could not be written was tried again
            self.store = fresh
            if self.session is not None:
                self.session.store = fresh
        said, before = self._flash, self._acts()
        if kind == "press" and self._notice() is not None:
            self._unflash()   # a page of its own, read: the key takes it down and does nothing else
            return
        if kind == "press" and said is not None and said.handle is None:
            self._unflash()   # a message from the start stays up until a key
        if self.game_menu.mode is not None:
            if kind == "press":
                self._offered(key, self.game_menu.screen(), lambda: self.game_menu.key(key))
        elif key == "*" and kind == "hold":
            # Not over the menus, where the table tools may run on behind.
            if self.in_game:
                self.game_menu.open()
        elif kind == "release" and key == "*":
            return
        elif kind == "press" and key not in TEAMS and self.teacher.screen() is not None:
            self._offered(key, self.teacher.screen(), lambda: self.teacher.key(key))
        elif kind == "press" and key not in TEAMS and self.helper.up:
            self._offered(key, self.helper.screen(), lambda: self.helper.key(key))
        elif kind == "press" and key == roles.HELP and self.helper.offered():
            self.helper.open()   # the game's page offers its help: the box's, the same in every game
        elif kind == "press" and key not in TEAMS:
            main = self.flow.screens().get("main") if self.flow is not None else None
            self._offered(key, main, lambda: self.pages.key(key, kind))
        else:
            self.pages.key(key, kind)
        if said is not None and self._flash is said and self._acts() != before:
            # A message goes with the next key that acts: it never stays
            # over what the key changed.
            self._unflash()

    def _offered(self, key: str, page: Screen | None, act) -> None:
        """``act`` if ``page`` takes ``key``; else say what the page takes
        (and change nothing else)."""
        if page is None or page.offers(key):
            act()
        else:
            self.flash(roles.refused(page, key))
            self.sound("error")

    def _acts(self) -> tuple:
        """What a key may change, a message apart: the flow and its page
        (what it remembers too: a symmetric tile turned looks the same),
        the game menu, the game's last row, the screens' words and the
        taught page over them."""
        shown = tuple(dataclasses.replace(screen, flash="") for screen in self.flow.screens().values()) \
            if self.flow is not None else ()
        page = repr(self.flow.view()) if self.flow is not None else ""
        menu_up = self.game_menu.mode
        return (id(self.flow), page, menu_up, self.session.seq if self.session is not None else None, shown,
                self.teacher.screen(), self.helper.page)

    def public_url(self) -> str:
        """Where phones find the score log.  Upper case, because a QR code
        holds upper-case URLs in its compact alphanumeric mode."""
        web = self.config.web
        if web.public_url:
            return web.public_url.rstrip("/") + "/"
        host = web.host if web.host not in ("0.0.0.0", "::", "") else self.network.address()
        return f"HTTP://{host}:{web.port}/"

    # --- output ----------------------------------------------------------------------------

    def flash(self, text: str, seconds: float | None = FLASH_SECONDS) -> None:
        """A message over the main screen, for ``seconds`` (None: until the
        next key), and never past a key that turns the page."""
        if self._flash is not None and self._flash.handle is not None:
            self._flash.handle.cancel()
        self._flash = Flash(text, None if seconds is None else self.clock.call_later(seconds, self._unflash))
        self.render()

    def _unflash(self) -> None:
        self._flash = None
        self.render()

    def sound(self, name: str) -> None:
        if self.devices.buzzer is not None:
            self.devices.buzzer.play(name)

    def render(self) -> None:
        """Draw the screens; while a key is handled, once at its end."""
        if self._keying:
            self._dirty = True
        else:
            self._draw()

    def _draw(self, changed: bool = False) -> None:
        """Hand the displays their pictures; ``changed``: only if a screen
        changed (a key that changed nothing draws no frame)."""
        if self.flow is None:
            return
        screens = self._screens()
        if not changed or screens != self.shown:
            for name, screen in screens.items():
                self.shown[name] = screen
                display = self.devices.displays.get(name)
                if display is not None:
                    display.show(render(screen))
            self.frames += 1
        self.devices.keys.page_holds(self.holds())
        self.drawn_at = self.clock.monotonic()

    def _screens(self) -> dict[str, Screen]:
        """What each display is to show now."""
        screens = self.flow.screens() if self.flow is not None else {}
        session = self._up()
        if self.game_menu.mode is not None:
            screens["main"] = self.game_menu.screen()
        elif "main" in screens and session is not None and session.name != "tools":
            # A taught page before the game's, the help over it, else the game's own.
            screens["main"] = self.teacher.screen() or self.helper.screen() or \
                self._game_page(session, screens["main"])
        shown = {}
        for name in DISPLAYS:
            screen = screens.get(name) or Screen(_("Team 1") if name == "team1" else _("Team 2") if name == "team2" else "")
            if name == "main" and self._flash is not None:
                screen = self._notice() or dataclasses.replace(screen, flash=self._flash.text)
            shown[name] = screen
        return shown

    def _game_page(self, session: Session, main: Screen) -> Screen:
        """A game's own page as the public screen shows it: with the line of
        what was last done.  The table tools show what they hold (the time,
        the dice): no such line there, and no hint over their first page."""
        said = self.game_menu.said()
        if said not in main.lines:   # a page that says it already
            main = dataclasses.replace(main, said=said)
        if accounts.has_account(session.name):
            main = public.keep_turn(main, public.account(session))
        return main

    def own_page(self) -> Screen | None:
        """The game's own page as the public screen shows it, without a
        passing message: the page under a taught page, the help in play or
        the game menu too; None off a game."""
        session, flow = self._up(), self.flow
        main = flow.screens().get("main") if session is not None and flow is not None else None
        return self._game_page(session, main) if session is not None and main is not None else None

    def _notice(self) -> Screen | None:
        """A message that waits for a key (a start's notices: a damaged
        record, a config mistake) and is cut short beside the page under it
        (the timer's big line and key bar leave it one row): a page of its
        own, read whole, which the next key only takes down."""
        flash = self._flash
        if flash is None or flash.handle is not None or self.flow is None:
            return None
        page = self.flow.screens().get("main") or Screen()
        beside = layout(dataclasses.replace(page, flash=flash.text))
        if not beside.covered:   # read whole beside the page
            return None
        return Screen(lines=tuple(wrap(flash.text)), keys=(("#", _("OK")),))

    def public_words(self) -> Words:
        """The public screen's own words, for the table view to say what the
        box says: the game's page title (its phase: "Black: finish clues!")
        and the line of what was last done, beneath any passing message,
        the game menu, a taught page ("How it goes", "Why") or the help in
        play, and whether the page draws the account's stage; empty off a
        game."""
        session, flow = self._up(), self.flow
        if session is None or flow is None or session.name == "tools":
            return {"title": "", "said": "", "staged": False}
        over = self.game_menu.mode is not None or self.teacher.screen() is not None or self.helper.up
        main = self.shown.get("main") if not over else None
        if main is None:   # under the game menu, a taught page or the help: the game's own page
            main = self._game_page(session, flow.screens().get("main") or Screen())
        # The line of what was last done as the panel draws it, or a line of
        # a page that says it already (a reveal: "White: 4-1-3 right"): a
        # page that leaves it no row ("Time up: stop writing") does not say
        # it either.  A key that only takes that line away (a guess's first
        # digit, where a page has no room for both) changes these words too,
        # so the table view is told of it.
        said = layout(dataclasses.replace(main, flash="")).said.replace("\n", " ").removeprefix(SAID)
        if not said and self.game_menu.said() in main.lines:
            said = self.game_menu.said()
        # Whether the page draws the round as a row of its own ("Round 4"
        # under Octiles' tile, whose title says only whose turn it is).
        stage = public.account(session).stage if accounts.has_account(session.name) else ""
        return {"title": main.title, "said": said, "staged": bool(stage) and stage in main.lines}

    def holds(self) -> frozenset[str]:
        """The keys a hold means something for on this page, which act when
        let go; every other key acts as soon as it is pressed.  The team
        buttons always (Decrypto's hold shows the code, Decipher's the
        maker's word), ``*`` in a game, where holding it opens the game menu."""
        return frozenset((*TEAMS, "*") if self.in_game and self.game_menu.mode is None else TEAMS)

    def _spawn(self, coro) -> None:
        task = self.loop.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
