"""The box's end of ``referee.channel``: the web's requests answered in the
box's loop, and the web told of every change.

Each request is decoded into its typed form (``channel.REQUESTS``) before
any handler sees it, so a handler meets only the fields its op has, of the
types and sizes it expects; whatever is not such a request is answered
``{"error": …}``.  Handlers run in the box's loop, so each is short: no
request waits on the players.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from games import base
from referee import account as accounts, catalogue, i18n, merging, setup_names
from referee.account import Account
from referee.channel import (IDLE_SECONDS, LONGEST_LINE, MOST_CONNECTIONS, PER_PROCESS, MergesMerge,
                             MergesUndo, MergesView, NamesOpen, NamesPreview, NamesSubmit, NamesView, PhoneClock,
                             Ping, Team, Watch, line, request)
from referee.box.linesock import Connection, LineServer
from referee.clock import phone_step, synchronised
from referee.store.events import Unsaved

if TYPE_CHECKING:
    from referee.box.coordinator import Box


class BoxChannel:
    def __init__(self, box, path: str) -> None:
        self.box = box
        self.version = 0
        self.server = LineServer(path, self._handle, lambda why: line({"error": why}), longest=LONGEST_LINE,
                                 most=MOST_CONNECTIONS, per_peer=PER_PROCESS, idle=IDLE_SECONDS)
        self._listeners: set[Connection] = set()

    async def start(self) -> None:
        await self.server.start()
        self.box.watch(self.changed)

    def close(self) -> None:
        self.server.close()

    async def aclose(self) -> None:
        await self.server.aclose()

    def changed(self) -> None:
        """Tell every watching web process that the score log moved on.
        Never waits (see ``linesock.Connection.send``)."""
        self.version += 1
        notice = line({"changed": self.version, **pages(self.box)})
        for listener in list(self._listeners):
            if listener in self.server.connections:
                listener.send(notice)
            else:
                self._listeners.discard(listener)

    def answer(self, text: bytes, connection: Connection | None = None) -> dict:
        """The answer to one request line; a watch needs its ``connection``."""
        try:
            asked = request(text)
        except ValueError as exc:
            return {"error": str(exc)}
        if isinstance(asked, Watch):
            if connection is None:
                return {"error": "watch takes a connection"}
            connection.listen()
            self._listeners.add(connection)
            return {"ok": True, **pages(self.box)}
        return ANSWERS[type(asked)](self.box, asked)

    def _handle(self, text: bytes, connection: Connection) -> bytes:
        return line(self.answer(text, connection))


def team_action(box, asked: Team) -> dict:
    """A team page's form, as the event the web read from it: played if the
    page belongs to the game on the box, the event to that page's team, and
    the rules take it.  A refusal is said on the phone, not beeped at the
    table."""
    session = box.session
    page = box.store.team_page_by_token(asked.token.upper())
    if page is None or session is None or session.id != page.game:
        return {"error": "no such page"}
    # What a team page may play: its game's ``phone_events`` (the forms of
    # ``referee.web.team_pages``). Anything else from the web is refused, whatever it claims.
    if asked.event.get("type") not in catalogue.get(session.name).phone_events:
        return {"error": "not a team page's event"}
    try:
        event = base.decode(asked.event, session.rules.EVENTS)
    except (TypeError, ValueError, RecursionError):
        return {"error": "not a team page's event"}
    if getattr(event, "team", None) != page.team:
        return {"error": "not this team's event"}
    try:
        session.rules.apply(session.state, event, box.game_time())
    except base.Illegal as exc:
        return {"refused": i18n.refusal(exc)}
    return {"ok": bool(box.act(event))}


def names_view(box, asked: NamesView) -> dict:
    """What a setup's names page shows (``referee.setup_names.view``)."""
    view = setup_names.view(box, asked.token)
    if view is None:
        return {"error": "no such page"}
    return {"view": view}


def names_submit(box, asked: NamesSubmit) -> dict:
    """The names a setup's page sent (``referee.setup_names.submit``)."""
    try:
        setup_names.submit(box, asked.token, asked.fields)
    except setup_names.FieldsRefused as exc:
        return {"refused": i18n.refusal(exc),
                "fields": {field: i18n.refusal(why) for field, why in exc.by_field.items()}}
    except base.Illegal as exc:
        return {"refused": i18n.refusal(exc)}
    except LookupError:
        return {"error": "no such page"}
    return {"ok": True}


def names_preview(box, asked: NamesPreview) -> dict:
    """What a setup's page holds while it is typed (``referee.setup_names.preview``):
    shown on the box, not saved; the names refused are answered, by field."""
    try:
        refused = setup_names.preview(box, asked.token, asked.fields)
    except LookupError:
        return {"error": "no such page"}
    return {"ok": True, "refused": {field: i18n.refusal(exc) for field, exc in refused.items()}}


def names_open(box, asked: NamesOpen) -> dict:
    """Which names page is open (``referee.setup_names.open_token``): the web
    turns every other address away itself."""
    return {"token": setup_names.open_token(box)}


def pages(box) -> dict:
    """The capability pages open on the box now, for the web to turn every
    other address away itself; and what only the box knows of the table
    (``table``)."""
    return {"names": setup_names.open_token(box), "merges": merging.open_token(box), "table": table(box)}


def phase(box) -> str:
    """The title of the game's page on the public screen: the page the
    table is on (a reveal stays up until ``#``, though the rules have moved
    on), under the game menu when that is up over it
    (``Box.public_words``)."""
    return box.public_words()["title"]


def said(box) -> str:
    """The last action and who made it where the public screen says it:
    on its » row as the panel draws it, or in a line of a page that says
    it already (a reveal: "White: 4-1-3 right"); "" where the page leaves
    it no row ("Time up: stop writing"), and before the first action (a
    hint is no action)."""
    session = box.session
    if session is None or not catalogue.logged(session.name) or not session.can_undo():
        return ""
    return box.public_words()["said"]


def account(box) -> Account | None:
    """The account of the game on the box (``referee.account``) as its
    public screen stands: the rules' public facts, the page's title and the
    » line; None between games and in the table tools."""
    session = box.session
    if session is None or not catalogue.logged(session.name):
        return None
    if not box.in_game:                 # the menus, over a game left for a moment
        return None
    rules, state = session.rules, session.state
    row = box.store.game(session.id)
    return accounts.of(session.name, rules.public(state), rules.summary(state),
                       ended=row is not None and row.ended is not None, phase=phase(box), said=said(box),
                       outcome=outcome(box), staged=staged(box))


def staged(box) -> bool:
    """Whether the game's page draws the account's stage as a row of its
    own (Octiles' "Round 4"), for the table view to say it too."""
    return bool(box.public_words()["staged"])


def outcome(box: Box) -> bool:
    """Whether the game's page shows the last guess's outcome until ``#``
    (its flow's ``outcome``; the game menu leaves the page under it)."""
    return box.flow is not None and box.flow.outcome


def table(box) -> dict:
    """What the table view shows that the store cannot tell the web: the
    title of the page the public screen is on and the line of what was last
    done, as the public screen says them, and the countdown as it stands on
    the game clock this instant (only the box keeps that clock; the web
    counts on from it).  All are on the public screen already: nothing here
    is a secret."""
    session = box.session
    if session is None:
        return {"game": None, "said": "", "phase": "", "outcome": False, "staged": False, "countdown": None}
    logged = catalogue.logged(session.name)    # a game, not the table tools
    on_game = logged and box.in_game
    cd = box.countdown()
    if cd is None and not logged:
        # The tools' timer page shows its countdown paused, or not yet started, too.
        cd = getattr(session.state, "countdown", None)
    countdown = None if cd is None else {"left": round(cd.remaining(box.game_time()), 3), "running": cd.running,
                                         "seconds": cd.seconds}
    return {"game": session.id, "said": said(box), "phase": phase(box) if on_game else "",
            "outcome": on_game and outcome(box), "staged": on_game and staged(box), "countdown": countdown}


def merges_view(box, asked: MergesView) -> dict:
    """What the merge page shows (``referee.merging.view``)."""
    view = merging.view(box, asked.token)
    return {"error": "no such page"} if view is None else {"view": view}


def _merging(box, act) -> dict:
    try:
        act()
    except base.Illegal as exc:
        return {"refused": i18n.refusal(exc)}
    except LookupError:
        return {"error": "no such page"}
    except Unsaved as exc:
        box.unsaved(exc)
        return {"refused": i18n.refusal(base.Illegal("The box could not save it."))}
    return {"ok": True}


def merges_merge(box, asked: MergesMerge) -> dict:
    return _merging(box, lambda: merging.merge(box, asked.token, asked.from_key, asked.into_key))


def merges_undo(box, asked: MergesUndo) -> dict:
    return _merging(box, lambda: merging.undo(box, asked.token, asked.id))


def phone_clock(box, asked: PhoneClock) -> dict:
    """The first phone's time sets a box whose clock the network does not
    set (a hotspot evening; a Pi has no clock battery and boots at its last
    saved time): the wall clock steps, and this boot's games are re-dated
    as for any step.  Taken once a boot (the setting ``phone_clock``), never
    earlier than the newest time the store holds."""
    taken = box.store.setting("phone_clock")
    if isinstance(taken, dict) and taken.get("boot") == box.clock.boot:
        return {"ok": False, "why": "taken"}
    if synchronised():
        return {"ok": False, "why": "synchronised"}
    step = phone_step(asked.wall, box.clock.wall(), box.store.latest_label())
    if step is None:
        return {"ok": False, "why": "refused"}
    base = asked.wall - box.clock.monotonic()
    try:
        box.store.set_setting("phone_clock", {"boot": box.clock.boot, "base": base})
    except Unsaved:
        return {"ok": False, "why": "unsaved"}
    box.clock.from_phone(base)
    box.time.check_wall()
    return {"ok": True, "step": step}



ANSWERS = {Ping: lambda box, asked: {"ok": True}, Team: team_action, NamesView: names_view,
           NamesSubmit: names_submit, NamesPreview: names_preview, NamesOpen: names_open,
           MergesView: merges_view, MergesMerge: merges_merge, MergesUndo: merges_undo,
           PhoneClock: phone_clock}


async def serve_box(box, path: str) -> BoxChannel:
    """The box's end of the channel, listening on ``path``."""
    channel = BoxChannel(box, path)
    await channel.start()
    return channel
