"""The replay: a finished game step by step on the phones.

``/g/N/step/K`` is step K of game N (0: the setup), its own address so that
a step can be shared: what was done, in the box's words (``referee.said``),
the round it belongs to, and the public state after it, which the game's
web module lays out from its public view (``replay_step(view)``: the
round's number, its label and the lines to show).  Buttons go to the
start, back, forward and to the end, a list jumps to a round, and the
arrow keys step (``replay.js``; without it the links do).  An action the
table took back is shown under the step it followed, folded away.

By default a step shows what a spectator at the table knew then: the
public view alone, which never holds a keyword or a code before its reveal
[DE-6].  Once the game is over, ``?reveal=1`` adds what the box knew and
kept hidden, and ``?side=white`` (or ``black``) one team's keywords beside
its clues, where the game's web module has ``replay_hidden(state, side)``: a
side is named by the name the rules give it (``?side=hacker`` and ``team``
in the Hacker variant), or, for sides the table named, by the names the
rules give sides in their places (the catalogue's ``rule_names``: ``white``
and ``black``).
While the game is on, every address of its replay answers 409 and shows
nothing, so that nothing reaches the other team.

``/api/g/N/steps.json`` is the record as data (``referee.web.steps``,
``docs/steps-json.md``).
"""
from __future__ import annotations

from urllib.parse import quote

import msgspec
from aiohttp import web

from referee import account as accounts, catalogue, i18n
from referee.account import Account
from referee.i18n import _
from referee.store import scorelog
from referee.store.scorelog import Entry
from referee.web import sheets, steps
from referee.web.bodies import Body, send
from referee.web.paths import GAME, STEP

PAGES_KEPT = 400     # step pages kept rendered (some 8 KB each, plain and gzipped): a 300-action game whole, 3 MB


class Replay:
    """The replay's pages of one site, and what it keeps between requests:
    each game's record, built once per game and row, and its step pages
    rendered, by game, row, step, view and language.  A finished game's
    pages change with nothing else at the table, so they are kept across
    other changes (which empty the site's cache), within a bound."""

    def __init__(self, site) -> None:
        self.site = site
        self.records = steps.Records()      # the bench reads how many are kept
        self.pages = steps.RecentlyUsed(PAGES_KEPT)
        self.keys: dict[int, tuple] = {}    # game id -> its record's key, until the store changes
        self.keys_at: int | None = None     # the store's version they were looked up at

    def game_row(self, request: web.Request):
        reader = self.site.reader
        reader.refresh()
        row = reader.store.game(int(request.match_info["id"]))
        if row is None or not catalogue.logged(row.name):
            raise web.HTTPNotFound()
        return row

    def finished(self, request: web.Request) -> tuple[steps.Record, Entry]:
        """The game's record and score-log entry; 409 while it is played.
        Both come from the record, built once per game and row: a crowd on
        one game replays it once, not once a request."""
        row = self.game_row(request)
        record = self.records.record(self.site.reader.store, row)
        entry = record.memo.get("entry")
        if entry is None:
            entry = record.memo["entry"] = scorelog.entry_of(row, record.rules, record.steps[-1].state)
        if entry.status == "playing":
            raise _Playing()
        return record, entry

    def record_key(self, request: web.Request) -> tuple:
        """The key of the game's record, looked up in the store once per
        change at the table, not once a request."""
        reader = self.site.reader
        reader.refresh()
        if self.keys_at != reader.version:
            self.keys.clear()
            self.keys_at = reader.version
        game = int(request.match_info["id"])
        if game not in self.keys:
            self.keys[game] = self.records.key(reader.store, self.game_row(request))
        return self.keys[game]

    async def page(self, request: web.Request) -> web.Response:
        number = int(request.match_info["step"])
        shown, word = _mode(request)
        key = (*self.record_key(request), number, shown, i18n.lang)
        body = self.pages.get(key)
        if body is None:
            try:
                record, entry = self.finished(request)
            except _Playing:
                return self.playing(request)
            side = None if word is None else side_of(record.name, side_words(record.name, entry), word)
            # (a side with nothing hidden has no page: the Hacker [DE-10])
            if number >= len(record.steps) or word is not None and (side is None or not _keeps_hidden(record, side)):
                raise web.HTTPNotFound()
            body = Body.of(render(self.site, record, entry, number, shown, side), "html")
            self.pages.put(key, body)
        return send(request, body)

    async def jump(self, request: web.Request) -> web.Response:
        # The round list's form, which works without a script: the first step of the round.
        try:
            record, _entry = self.finished(request)
        except _Playing:
            return self.playing(request)
        wanted = request.query.get("round", "")
        first = next((n for n, number, _label in rounds(record) if str(number) == wanted), 0)
        raise web.HTTPFound(f"/g/{record.game.id}/step/{first}{_query(*_mode(request))}")

    async def api(self, request: web.Request) -> web.Response:
        def make() -> Body:
            record, entry = self.finished(request)
            return Body.of(msgspec.json.encode(steps.to_file(
                record, entry.status, account if accounts.has_account(record.name) else None)).decode(), "json")
        try:
            return send(request, self.site.cached(request, make))
        except _Playing:
            raise web.HTTPConflict(reason="the game is still being played") from None

    def playing(self, request: web.Request) -> web.Response:
        game = self.site.reader.store.game(int(request.match_info["id"]))
        text = self.site.render("replay-playing.html", title=_("Step by step"), live=False,
                                game=sheets.title(game.name), id=game.id)
        return web.Response(text=text, status=409, content_type="text/html", headers={"Cache-Control": "no-store"})


REPLAY = web.AppKey("replay", Replay)


def add_routes(app: web.Application, site) -> None:
    replay = app[REPLAY] = Replay(site)
    app.router.add_get(f"/g/{GAME}/step/{STEP}", replay.page)
    app.router.add_get(f"/g/{GAME}/step", replay.jump)
    app.router.add_get(f"/api/g/{GAME}/steps.json", replay.api)


def _mode(request: web.Request) -> tuple[str, str | None]:
    """The view asked for, and the side's word if a side's."""
    word = request.query.get("side")
    if word is not None:
        return f"side:{word}", word
    return ("reveal", None) if request.query.get("reveal") == "1" else ("", None)


def _keeps_hidden(record: steps.Record, side: int) -> bool:
    """Whether the box kept anything of ``side`` hidden in the game."""
    hook = catalogue.hook(record.name, "web", "replay_hidden")
    return hook is None or bool(hook(record.steps[-1].state, side))


class _Playing(Exception):
    """The game is still on: its replay would tell one team the other's secrets."""


def _query(shown: str, word: str | None) -> str:
    if word is not None:
        return f"?side={quote(word, safe='')}"
    return "?reveal=1" if shown == "reveal" else ""


def side_of(game: str, words: tuple[str, ...], word: str) -> int | None:
    """The side ``word`` names: one of ``words``, or by its place (an
    address of before the sides had words of their own)."""
    for known in (words, _placed(game)):
        if word in known:
            return known.index(word)
    return None


def _placed(game: str) -> tuple[str, ...]:
    """The first two sides' words by their place: the names the rules give
    sides there, in lower case (Decrypto's "white" and "black"), or their
    numbers where the rules name none."""
    rules = catalogue.GAMES[game].rule_names if game in catalogue.GAMES else ()
    return tuple(name.casefold() for name in rules[:2]) if len(rules) >= 2 else ("1", "2")


def side_words(game: str, entry: Entry) -> tuple[str, ...]:
    """The words ``?side=`` names the first two sides by: the names the
    rules give them, in lower case ("hacker", "team"), or their places'
    words where the table named them (``_placed``)."""
    rules = catalogue.GAMES[game].rule_names if game in catalogue.GAMES else ()
    names = entry.summary.players[:2]
    if len(names) == 2 and all(name in rules for name in names):
        return tuple(name.casefold() for name in names)
    return _placed(game)


def _lines(record: steps.Record, number: int):
    """The game's ``replay_step`` of the state after step ``number``, from
    its public view alone: (round number, round label, lines)."""
    hook = catalogue.hook(record.name, "web", "replay_step")
    return (0, "", []) if hook is None else hook(record.rules.public(record.steps[number].state))


def _round_after(record: steps.Record, number: int) -> tuple[int, str]:
    """The round the state after step ``number`` is in, its number and
    label; kept per step and language (the lines are not: a page of them
    is kept whole, and a record stays small)."""
    key = (number, i18n.lang)
    found = record.memo.get(key)
    if found is None:
        found = record.memo[key] = _lines(record, number)[:2]
    return found


def shown_step(record: steps.Record, number: int):
    """The public part of step ``number``: the round the state after it is
    in, its number and label, and the lines of that state, so that a step
    that begins a round (Da Vinci Code's next game) shows it under its own
    round, and one that ends a round under that round where the box still
    shows its outcome (Decrypto's last reveal, until ``#``)."""
    round_number, label = _round_after(record, number)
    return round_number, label, _lines(record, number)[2]


def rounds(record: steps.Record) -> list[tuple[int, int, str]]:
    """Each round's first step: (step, round number, label), in order;
    worked out once per record and language.  A game's round number never
    goes down, so each round's end is found by galloping and halving over
    the steps, not by laying out every one (a 300-action game has its
    thirty-odd rounds in some 150 views, not 300)."""
    key = ("rounds", i18n.lang)
    if key not in record.memo:
        def round_at(n: int) -> tuple[int, str]:
            return _round_after(record, n)
        found, first, last = [], 0, len(record.steps)
        while first < last:
            number, label = round_at(first)
            found.append((first, number, label))
            # The round's last step is in [low, high): gallop, then halve.
            low, reach = first, 1
            while first + reach < last and round_at(first + reach)[0] == number:
                low, reach = first + reach, reach * 2
            high = min(first + reach, last)
            while high - low > 1:
                middle = (low + high) // 2
                low, high = (middle, high) if round_at(middle)[0] == number else (low, middle)
            first = high
        record.memo[key] = found
    return record.memo[key]


def account(record: steps.Record, number: int) -> Account:
    """The account of step ``number`` (``referee.account``): the public
    facts of the state after it, as the box's public screen has them, and
    its » line; the last step of a game ended from the game menu is over
    too.  Kept per step and language."""
    key = ("account", number, i18n.lang)
    found = record.memo.get(key)
    if found is None:
        step = record.steps[number]
        state = step.state
        ended = number == len(record.steps) - 1 and record.game.ended is not None
        found = record.memo[key] = accounts.of(record.name, record.rules.public(state), record.rules.summary(state),
                                               ended=ended, said=record.said(step), after_action=True)
    return found


def account_rows(told: Account) -> list[tuple[str, str]]:
    """An account as rows of the step's page: whose turn, each side's
    tokens and points, and once it is over the winners and why."""
    rows = [("", told.turn)] if told.turn else []
    for side in told.sides:
        text = " · ".join(x for x in (str(side.points) if side.points is not None else "", side.tokens) if x)
        if text:
            rows.append((side.name, text))
    if told.winners:
        rows.append((_("Winner:") if len(told.winners) == 1 else _("Winners:"), ", ".join(told.winners)))
    elif told.over:
        rows.append(("", told.result))
    if told.reason:
        rows.append(("", told.reason))
    return rows


def _flat(tried: list[steps.Tried]) -> list[steps.Tried]:
    out = []
    for t in tried:
        out += [t, *_flat(t.tried)]
    return out


def render(site, record: steps.Record, entry: Entry, number: int, shown: str, side: int | None) -> str:
    step = record.steps[number]
    last = len(record.steps) - 1
    round_number, round_label, rows = shown_step(record, number)
    told = account(record, number) if accounts.has_account(record.name) else None
    if told is not None:
        round_label = round_label or told.stage
        rows = account_rows(told) + list(rows)
    hidden_hook = catalogue.hook(record.name, "web", "replay_hidden")
    hidden = hidden_hook(step.state, side) if hidden_hook is not None and shown else []
    words = side_words(record.name, entry)
    query = _query(shown, None if side is None else words[side])
    base = f"/g/{record.game.id}/step/"
    return site.render(
        "replay.html", title=_("Step by step"), live=False, scripts=("replay.js",),
        game=sheets.title(record.name), id=record.game.id, number=number, last=last, query=query, base=base,
        said=record.said(step), round_number=round_number, round_label=round_label, rows=rows,
        rounds=rounds(record),
        tried=[record.said(t) for t in _flat(step.tried)], hidden=hidden, shown=shown, side=side,
        side_word=None if side is None else words[side], can_reveal=hidden_hook is not None,
        # A side with nothing hidden (the Hacker holds no keywords [DE-10])
        # has no page of its own: it would be the public one again.
        sides=[(key, sheets.side(record.name, name)) for n, (key, name) in enumerate(zip(words, entry.summary.players[:2]))
               if _keeps_hidden(record, n)]
        if hidden_hook is not None and catalogue.get(record.name).teams else [],
        verdict=sheets.verdict(entry), complete=record.broken_at is None)
