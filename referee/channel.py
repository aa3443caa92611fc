"""The box ↔ web channel: a small request/answer protocol on a Unix socket.

The box (``referee run``) owns the keys, the rules and the store; the web
(``referee web``) serves the phones from its own read-only view of the
store.  The web asks the box for the few things only the box may do over
this socket, and the box tells the web when the score log changed.  The
socket lives beside the database (``socket_path``), is made for its owner
alone (mode 0600), and is the box's only listener (but for the simulator's
control socket, ``referee.box.sim_control``).

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

    → {"op": "names.open"}
    ← {"token": "<names page token>"}      the names page open on the box now
    ← {"token": null}                      none is

    → {"op": "merges.view", "token": "<merge page token>"}
    ← {"view": {"csrf": ..., "merges": [{"id": 1, "from": "ania k.", "into": "ania", "at": ...}]}}
    ← {"error": "no such page"}             its QR code is no longer up

    → {"op": "merges.merge", "token": "<merge page token>", "from_key": "ania k.", "into_key": "ania"}
    ← {"ok": true}  ← {"refused": "<sentence>"}  ← {"error": "no such page"}

    → {"op": "merges.undo", "token": "<merge page token>", "id": 1}
    ← {"ok": true}  ← {"refused": "<sentence>"}  ← {"error": "no such page"}

    → {"op": "watch"}
    ← {"ok": true, "names": <as names.open's token>, "merges": <the merge page's token, or null>,
       "table": {"game": <id or null>, "said": "<the » line>", "phase": "<the public page's title>", "outcome": <bool>, "staged": <bool>,
                 "countdown": {"left": <seconds>, "running": <bool>, "seconds": <its length>} or null}}
    ← {"changed": 1, "names": ..., "merges": ..., "table": ...}  ← {"changed": 2, ...}  ...
                                            after every change at the table (a
                                            names page opened included), until
                                            either side hangs up; ``table`` is
                                            what the public screen shows that
                                            the store does not hold: the title of
                                            its page, the line of the last
                                            action and the countdown
                                            as it stood when the line was sent

Anything else is answered ``{"error": "<why>"}`` and the connection stays
in step: an unknown op, a line that is no such request (``REQUESTS``: each
op's fields, typed and bounded), a handler that failed.  A line longer than
``LONGEST_LINE`` is answered so too, and ends the connection.  A connection
may carry many requests in turn; after ``watch`` it carries only the
notices, and anything sent on it ends it.  One that sends nothing for
``IDLE_SECONDS`` (a watch apart) is closed.

The box side is ``referee.box.channel_end`` (on ``referee.box.linesock``, which
also shares the box's places between its clients so that no other local
client can lock the web out); the web side is ``Client``.
"""
from __future__ import annotations

import asyncio
import json
import os
from typing import Annotated, Any, Callable

import msgspec

LONGEST_LINE = 64 * 1024
MOST_CONNECTIONS = 64
PER_PROCESS = 16         # the web keeps its watch and at most MOST_ASKS asks open
MOST_ASKS = 8
IDLE_SECONDS = 15.0      # the web's asks take a moment; a watch waits without limit
ANSWER_SECONDS = 5.0     # how long the web waits for an answer
SOCKET_NAME = "box.sock"

Token = Annotated[str, msgspec.Meta(max_length=64)]
Field = Annotated[str, msgspec.Meta(max_length=200)]
# A page's form: the web's own limits (referee.web.team_pages) are tighter.
Fields = Annotated[dict[Field, Field], msgspec.Meta(max_length=64)]


class Ping(msgspec.Struct, tag_field="op", tag="ping"):
    pass


class Team(msgspec.Struct, tag_field="op", tag="team"):
    token: Token
    event: dict[str, Any]


class NamesView(msgspec.Struct, tag_field="op", tag="names.view"):
    token: Token


class NamesSubmit(msgspec.Struct, tag_field="op", tag="names.submit"):
    token: Token
    fields: Fields


class NamesPreview(msgspec.Struct, tag_field="op", tag="names.preview"):
    token: Token
    fields: Fields


class NamesOpen(msgspec.Struct, tag_field="op", tag="names.open"):
    pass


PlayerKey = Annotated[str, msgspec.Meta(min_length=1, max_length=200)]


class MergesView(msgspec.Struct, tag_field="op", tag="merges.view"):
    token: Token


class MergesMerge(msgspec.Struct, tag_field="op", tag="merges.merge"):
    token: Token
    from_key: PlayerKey
    into_key: PlayerKey


class MergesUndo(msgspec.Struct, tag_field="op", tag="merges.undo"):
    token: Token
    id: Annotated[int, msgspec.Meta(ge=1, le=2**63 - 1)]   # a row of the box's merges: within SQLite's INTEGER


class PhoneClock(msgspec.Struct, tag_field="op", tag="clock.phone"):
    """A phone's time (``wall``, seconds since 1970) for a box whose clock
    is not set from the network."""
    wall: float


class Watch(msgspec.Struct, tag_field="op", tag="watch"):
    pass


class Countdown(msgspec.Struct):
    """The countdown on the box when a notice left it: ``left`` seconds,
    running or paused, of ``seconds`` in all."""
    left: Annotated[float, msgspec.Meta(ge=0, le=10**7)]
    running: bool
    seconds: Annotated[float, msgspec.Meta(ge=0, le=10**7)]


class TableNotice(msgspec.Struct):
    """A notice's ``table`` (``referee.box.channel_end.table``)."""
    game: int | None = None
    said: Annotated[str, msgspec.Meta(max_length=400)] = ""
    phase: Annotated[str, msgspec.Meta(max_length=200)] = ""   # the title of the public screen's page
    outcome: bool = False    # that page shows the last guess's outcome until # (``referee.account``)
    staged: bool = False     # that page draws the account's stage as a row of its own
    countdown: Countdown | None = None


REQUESTS = (Ping | Team | NamesView | NamesSubmit | NamesPreview | NamesOpen | MergesView | MergesMerge
            | MergesUndo | Watch | PhoneClock)
OPS = frozenset(kind.__struct_config__.tag for kind in REQUESTS.__args__)
_requests = msgspec.json.Decoder(REQUESTS)


class _Op(msgspec.Struct):
    op: str | None = None


_op = msgspec.json.Decoder(_Op)


def request(text: bytes) -> REQUESTS:
    """One request line, decoded; ``ValueError`` says why it is none."""
    try:
        return _requests.decode(text)
    except msgspec.ValidationError as exc:
        try:
            op = _op.decode(text).op
        except (msgspec.ValidationError, RecursionError):
            op = None
        if op is not None and op not in OPS:
            raise ValueError(f"unknown op {op!r}") from None
        raise ValueError(f"not a request: {exc}") from None
    except msgspec.DecodeError:
        raise ValueError("not a JSON object") from None
    except RecursionError:
        raise ValueError("nested too deep") from None


def socket_path(database: str) -> str:
    """Where the box listens: beside the database both processes share."""
    return os.path.join(os.path.dirname(os.path.abspath(database)), SOCKET_NAME)


class ChannelError(Exception):
    """The box could not be asked (not running, restarting, out of step)."""


def line(obj: dict[str, Any]) -> bytes:
    """An answer or a request, as its line (without the end of line)."""
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode()


def _line(obj: dict[str, Any]) -> bytes:
    return line(obj) + b"\n"


def _parse(text: bytes) -> dict[str, Any] | None:
    try:
        answer = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return answer if isinstance(answer, dict) else None


# --- the web's side ---------------------------------------------------------------


class Client:
    """Asks the box at ``path``; ``watch`` calls ``on_change`` after every
    change, reconnecting with backoff for as long as the web runs."""

    def __init__(self, path: str) -> None:
        self.path = path
        # Within the places the box keeps for one process (PER_PROCESS).
        self._asks = asyncio.Semaphore(MOST_ASKS)
        self.watching = False       # told of every change, as of now
        self.names: str | None = None   # the names page open, while watching
        self.merges: str | None = None  # the merge page open, while watching
        self.table: TableNotice | None = None   # the box's last word for the table view

    async def ask(self, op: str, **fields: Any) -> dict[str, Any]:
        """One request, one answer, on a connection of its own (cheap on a
        Unix socket, and nothing to keep in step)."""
        try:
            async with asyncio.timeout(ANSWER_SECONDS), self._asks:
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

    async def watch(self, on_change: Callable[[], Any],
                    on_connect: Callable[[], Any] | None = None, backoff: tuple[float, float] = (0.1, 5.0),
                    on_lose: Callable[[], Any] | None = None) -> None:
        """Runs until cancelled.  ``on_connect`` is called each time the
        box is reached again (a restarted box may have moved on meanwhile),
        ``on_lose`` each time a watch that was under way ends."""
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
                answer = _parse(await reader.readline())
                if answer and answer.get("ok") is True:
                    delay = backoff[0]
                    self._told(answer)
                    self.watching = True
                    if on_connect:
                        on_connect()
                    while received := await reader.readline():
                        notice = _parse(received)
                        if notice and "changed" in notice:
                            self._told(notice)
                            on_change()
            except (OSError, ValueError):
                pass
            finally:
                was, self.watching = self.watching, False
                writer.close()
                if was and on_lose:
                    on_lose()
            await asyncio.sleep(delay)

    def _told(self, notice: dict[str, Any]) -> None:
        names, merges = notice.get("names"), notice.get("merges")
        self.names = names if isinstance(names, str) else None
        self.merges = merges if isinstance(merges, str) else None
        try:
            self.table = msgspec.convert(notice.get("table"), TableNotice)
        except msgspec.ValidationError:
            self.table = None   # a box of an older version, or a notice out of shape: no table line
