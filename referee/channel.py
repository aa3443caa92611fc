"""The box ↔ web channel: a small request/answer protocol on a Unix socket.

The box (``referee run``) owns the keys, the rules and the store; the web
(``referee web``) serves the phones from its own read-only view of the
store.  The web asks the box for the few things only the box may do over
this socket, and the box tells the web when the score log changed.  The
socket lives beside the database (``socket_path``), is made for its owner
alone (mode 0600), and is the box's only listener.

Framing: one JSON object a line, UTF-8, at most ``LONGEST_LINE`` bytes.
Every request names its ``op``; every answer is one line::

    → {"op": "ping"}
    ← {"ok": true}

    → {"op": "team", "token": "<page token>", "event": {"type": "Clues", ...}}
    ← {"ok": true}                          the rules took it: it is on the table
    ← {"refused": "<the rules' sentence>"}  the rules refused it (no beep at the table)
    ← {"error": "no such page"}             the page's game is not the one on the box

    → {"op": "names.view", "token": "<names page token>"}
    ← {"view": {...}}                       what the setup's names page shows
    ← {"error": "no such page"}             that setup is no longer on the box

    → {"op": "names.submit", "token": "<names page token>", "fields": {"n1": "Ann", ...}}
    ← {"ok": true}  ← {"refused": "<sentence>"[, "fields": {"n2": "<sentence>", ...}]}
    ← {"error": "no such page"}

    → {"op": "names.preview", "token": "<names page token>", "fields": {"n1": "Ann", ...}}
    ← {"ok": true, "refused": {"n2": "<sentence>", ...}}   shown unsaved, less the refused
    ← {"error": "no such page"}

    → {"op": "watch"}
    ← {"ok": true}
    ← {"changed": 1}  ← {"changed": 2}  ...  after every change at the table,
                                            until either side hangs up

Anything else is answered ``{"error": "<why>"}``: an unknown op, a line that
is no JSON object, a handler that failed.  A connection may carry many
requests in turn; after ``watch`` it carries only the notices.

The box side is ``Server`` (``ops`` maps a name to a handler taking the
request and returning the answer, plain or awaitable: a new page adds its
own); the web side is ``Client``.  Handlers run in the box's loop, so each
is short: no request waits on the players.
"""
from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import socket
import stat

log = logging.getLogger(__name__)

LONGEST_LINE = 64 * 1024
MOST_CONNECTIONS = 32        # the web keeps two open; the rest is slack for restarts
ANSWER_SECONDS = 5.0         # how long the web waits for an answer
SOCKET_NAME = "box.sock"


def socket_path(database: str) -> str:
    """Where the box listens: beside the database both processes share."""
    return os.path.join(os.path.dirname(os.path.abspath(database)), SOCKET_NAME)


class ChannelError(Exception):
    """The box could not be asked (not running, restarting, out of step)."""


def _line(obj: dict) -> bytes:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode() + b"\n"


# --- the box's side ---------------------------------------------------------------


class Server:
    def __init__(self, path: str) -> None:
        self.path = path
        self.ops: dict[str, object] = {"ping": lambda request: {"ok": True}}
        self.version = 0
        self._server: asyncio.AbstractServer | None = None
        self._writers: set[asyncio.StreamWriter] = set()
        self._watchers: set[asyncio.StreamWriter] = set()

    async def start(self) -> None:
        _clear_stale(self.path)
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        mask = os.umask(0o177)   # no moment when others may connect
        try:
            sock.bind(self.path)
        except OSError:
            sock.close()
            raise
        finally:
            os.umask(mask)
        self._server = await asyncio.start_unix_server(self._serve, sock=sock, limit=LONGEST_LINE)

    def changed(self) -> None:
        """Tell every watching web process that the score log moved on
        (``Box.watch`` calls it).  Never waits: a watcher that does not read
        is dropped rather than let its notices pile up in the box."""
        self.version += 1
        notice = _line({"changed": self.version})
        for writer in list(self._watchers):
            transport = writer.transport
            if transport.is_closing() or transport.get_write_buffer_size() > LONGEST_LINE:
                self._watchers.discard(writer)
                writer.close()
            else:
                writer.write(notice)

    def close(self) -> None:
        if self._server is None:
            return
        self._server.close()
        self._server = None
        for writer in self._writers:
            writer.close()
        with contextlib.suppress(OSError):
            if stat.S_ISSOCK(os.lstat(self.path).st_mode):
                os.unlink(self.path)

    async def aclose(self) -> None:
        """``close``, and wait until every connection has closed."""
        writers = list(self._writers)
        self.close()
        for writer in writers:
            with contextlib.suppress(OSError):
                await writer.wait_closed()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if len(self._writers) >= MOST_CONNECTIONS:
            writer.close()
            return
        self._writers.add(writer)
        try:
            while line := await reader.readline():
                request = _parse(line)
                if request is not None and request.get("op") == "watch":
                    self._watchers.add(writer)
                    writer.write(_line({"ok": True}))
                    await reader.read()   # until the web hangs up
                    break
                writer.write(_line(await self.answer(request)))
                await writer.drain()
        except (ValueError, ConnectionError):
            pass   # a line too long, or the web went away: the connection ends
        finally:
            self._writers.discard(writer)
            self._watchers.discard(writer)
            writer.close()

    async def answer(self, request: dict | None) -> dict:
        if request is None:
            return {"error": "not a JSON object"}
        handler = self.ops.get(request.get("op"))
        if handler is None:
            return {"error": f"unknown op {request.get('op')!r}"}
        try:
            answer = handler(request)
            if asyncio.iscoroutine(answer):
                answer = await answer
        except Exception as exc:
            log.exception("channel: %s failed", request.get("op"))
            return {"error": f"{type(exc).__name__}"}
        return answer


def _parse(line: bytes) -> dict | None:
    try:
        request = json.loads(line)
    except ValueError:
        return None
    return request if isinstance(request, dict) else None


def _clear_stale(path: str) -> None:
    # A socket left by a box that lost its power goes; anything else at that
    # path is not ours to remove.
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return
    if not stat.S_ISSOCK(mode):
        raise FileExistsError(f"{path} exists and is not a socket")
    os.unlink(path)


# --- the web's side ---------------------------------------------------------------


class Client:
    """Asks the box at ``path``; ``watch`` calls ``on_change`` after every
    change, reconnecting with backoff for as long as the web runs."""

    def __init__(self, path: str) -> None:
        self.path = path

    async def ask(self, op: str, **fields) -> dict:
        """One request, one answer, on a connection of its own (cheap on a
        Unix socket, and nothing to keep in step)."""
        try:
            async with asyncio.timeout(ANSWER_SECONDS):
                reader, writer = await asyncio.open_unix_connection(self.path, limit=LONGEST_LINE)
                try:
                    writer.write(_line({"op": op, **fields}))
                    await writer.drain()
                    answer = _parse(await reader.readline())
                finally:
                    writer.close()
        except (OSError, TimeoutError, ValueError) as exc:
            raise ChannelError(f"the box did not answer: {exc or type(exc).__name__}") from None
        if answer is None:
            raise ChannelError("the box hung up")
        return answer

    async def watch(self, on_change, on_connect=None, backoff=(0.1, 5.0)) -> None:
        """Runs until cancelled.  ``on_connect`` is called each time the
        box is reached again (a restarted box may have moved on meanwhile)."""
        delay = backoff[0]
        while True:
            try:
                reader, writer = await asyncio.open_unix_connection(self.path, limit=LONGEST_LINE)
            except OSError:
                await asyncio.sleep(delay)
                delay = min(delay * 2, backoff[1])
                continue
            try:
                writer.write(_line({"op": "watch"}))
                await writer.drain()
                if _parse(await reader.readline()) == {"ok": True}:
                    delay = backoff[0]
                    if on_connect:
                        on_connect()
                    while line := await reader.readline():
                        notice = _parse(line)
                        if notice and "changed" in notice:
                            on_change()
            except (OSError, ValueError):
                pass
            finally:
                writer.close()
            await asyncio.sleep(delay)


# --- what the box answers ---------------------------------------------------------

# What a team page may play, per game: the forms of ``referee.web.teams``.
# Anything else from the web is refused, whatever it claims.
PHONE_EVENTS = {"decrypto": frozenset({"Clues"})}


def team_action(box, request: dict) -> dict:
    """A team page's form, as the event the web read from it: played if the
    page belongs to the game on the box, the event to that page's team, and
    the rules take it.  A refusal is said on the phone, not beeped at the
    table."""
    from games import base
    from referee import i18n
    token, data = request.get("token"), request.get("event")
    session = box.session
    page = box.store.team_page_by_token(token.upper()) if isinstance(token, str) else None
    if page is None or session is None or session.id != page.game:
        return {"error": "no such page"}
    if not isinstance(data, dict) or data.get("type") not in PHONE_EVENTS.get(session.name, ()):
        return {"error": "not a team page's event"}
    try:
        event = base.decode(data, session.rules.EVENTS)
    except (TypeError, ValueError):
        return {"error": "not a team page's event"}
    if getattr(event, "team", None) != page.team:
        return {"error": "not this team's event"}
    try:
        session.rules.apply(session.state, event, box.game_time())
    except base.Illegal as exc:
        return {"refused": i18n.refusal(exc)}
    return {"ok": bool(box.act(event))}


def _fields(request: dict) -> dict[str, str] | None:
    fields = request.get("fields")
    if not isinstance(fields, dict) or len(fields) > 64:
        return None
    if not all(isinstance(k, str) and isinstance(v, str) and len(k) <= 200 and len(v) <= 200
               for k, v in fields.items()):
        return None
    return fields


def names_view(box, request: dict) -> dict:
    """What a setup's names page shows (``referee.naming.view``)."""
    from referee import naming
    token = request.get("token")
    view = naming.view(box, token) if isinstance(token, str) else None
    if view is None:
        return {"error": "no such page"}
    return {"view": view}


def names_submit(box, request: dict) -> dict:
    """The names a setup's page sent (``referee.naming.submit``)."""
    from games import base
    from referee import i18n, naming
    token, fields = request.get("token"), _fields(request)
    if not isinstance(token, str) or fields is None:
        return {"error": "not a names page's form"}
    try:
        naming.submit(box, token, fields)
    except naming.FieldsRefused as exc:
        return {"refused": i18n.refusal(exc),
                "fields": {field: i18n.refusal(why) for field, why in exc.by_field.items()}}
    except base.Illegal as exc:
        return {"refused": i18n.refusal(exc)}
    except LookupError:
        return {"error": "no such page"}
    return {"ok": True}


def names_preview(box, request: dict) -> dict:
    """What a setup's page holds while it is typed (``referee.naming.preview``):
    shown on the box, not saved; the names refused are answered, by field."""
    from referee import i18n, naming
    token, fields = request.get("token"), _fields(request)
    if not isinstance(token, str) or fields is None:
        return {"error": "not a names page's form"}
    try:
        refused = naming.preview(box, token, fields)
    except LookupError:
        return {"error": "no such page"}
    return {"ok": True, "refused": {field: i18n.refusal(exc) for field, exc in refused.items()}}


async def serve_box(box, path: str) -> Server:
    """The box's end of the channel, listening on ``path``."""
    server = Server(path)
    server.ops["team"] = lambda request: team_action(box, request)
    server.ops["names.view"] = lambda request: names_view(box, request)
    server.ops["names.submit"] = lambda request: names_submit(box, request)
    server.ops["names.preview"] = lambda request: names_preview(box, request)
    await server.start()
    box.watch(server.changed)
    return server
