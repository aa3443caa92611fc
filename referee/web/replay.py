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
its clues, where the game's web module has ``replay_hidden(state, side)``.
While the game is on, every address of its replay answers 409 and shows
nothing, so that nothing reaches the other team.

``/api/g/N/steps.json`` is the record as data (``referee.web.steps``,
``docs/steps-json.md``).
"""
from __future__ import annotations

import msgspec
from aiohttp import web

from referee import catalogue, i18n
from referee.i18n import _
from referee.web import sheets, steps
from referee.web.bodies import Body, send

SIDES = {"white": 0, "black": 1}
STEP = r"{step:\d{1,6}}"


def add_routes(app: web.Application, site) -> None:
    records = steps.Records()
    site.replay_records = records   # the bench reads how many are kept

    def finished(request: web.Request):
        """The game's row and score-log entry; 409 while it is played."""
        entry = site.entry(request)
        if entry.get("status") == "playing":
            raise _Playing()
        return site.reader.store.game(entry["id"]), entry

    def mode(request: web.Request) -> tuple[str, int | None]:
        side = SIDES.get(request.query.get("side", ""))
        if side is not None:
            return f"side{side}", side
        return ("reveal", None) if request.query.get("reveal") == "1" else ("", None)

    async def page(request: web.Request) -> web.Response:
        try:
            row, entry = finished(request)
        except _Playing:
            return playing(request)
        number = int(request.match_info["step"])
        shown, side = mode(request)
        def make() -> Body:
            record = records.get(site.reader.store, row)
            if number >= len(record.steps):
                raise web.HTTPNotFound()
            return Body.of(render(site, record, entry, number, shown, side), "html")
        return send(request, site.cached(request, make, key=f"{request.path}?{shown}"))

    async def jump(request: web.Request) -> web.Response:
        # The round list's form, which works without a script: the first step of the round.
        try:
            row, _entry = finished(request)
        except _Playing:
            return playing(request)
        record = records.get(site.reader.store, row)
        wanted = request.query.get("round", "")
        first = next((n for n, number, _label in rounds(record) if str(number) == wanted), 0)
        raise web.HTTPFound(f"/g/{row.id}/step/{first}{_query(*mode(request))}")

    async def api(request: web.Request) -> web.Response:
        try:
            row, entry = finished(request)
        except _Playing:
            raise web.HTTPConflict(reason="the game is still being played") from None
        def make() -> Body:
            record = records.get(site.reader.store, row)
            return Body.of(msgspec.json.encode(steps.to_file(record, entry["status"])).decode(), "json")
        return send(request, site.cached(request, make))

    def playing(request: web.Request) -> web.Response:
        text = site.render("replay-playing.html", title=_("Step by step"), live=False,
                           game=sheets.title(site.entry(request)["game"]), id=int(request.match_info["id"]))
        return web.Response(text=text, status=409, content_type="text/html", headers={"Cache-Control": "no-store"})

    app.router.add_get(r"/g/{id:\d{1,9}}/step/" + STEP, page)
    app.router.add_get(r"/g/{id:\d{1,9}}/step", jump)
    app.router.add_get(r"/api/g/{id:\d{1,9}}/steps.json", api)


class _Playing(Exception):
    pass


def _query(shown: str, side: int | None) -> str:
    if side is not None:
        return f"?side={next(k for k, v in SIDES.items() if v == side)}"
    return "?reveal=1" if shown == "reveal" else ""


def shown_step(record: steps.Record, number: int):
    """The public part of step ``number``, from the public views alone
    (the game's ``replay_step``): the round it was played in, as the state
    before it has it (its number and label; the setup's is the first), and
    the lines of the state after it."""
    hook = catalogue.hook(record.name, "web", "replay_step")
    if hook is None:
        return 0, "", []
    step = record.steps[number]
    _number, _label, rows = hook(record.rules.public(step.state))
    number, label, _rows = hook(record.rules.public(step.before if step.before is not None else step.state))
    return number, label, rows


def rounds(record: steps.Record) -> list[tuple[int, int, str]]:
    """Each round's first step: (step, round number, label), in order;
    worked out once per record and language."""
    key = ("rounds", i18n.lang)
    if key not in record.memo:
        found, seen = [], set()
        for n in range(len(record.steps)):
            number, label, _rows = shown_step(record, n)
            if number not in seen:
                seen.add(number)
                found.append((n, number, label))
        record.memo[key] = found
    return record.memo[key]


def _flat(tried: list[steps.Tried]) -> list[steps.Tried]:
    out = []
    for t in tried:
        out += [t, *_flat(t.tried)]
    return out


def render(site, record: steps.Record, entry: dict, number: int, shown: str, side: int | None) -> str:
    step = record.steps[number]
    last = len(record.steps) - 1
    round_number, round_label, rows = shown_step(record, number)
    hidden_hook = catalogue.hook(record.name, "web", "replay_hidden")
    hidden = hidden_hook(step.state, side) if hidden_hook is not None and shown else []
    query = _query(shown, side)
    base = f"/g/{record.game.id}/step/"
    return site.render(
        "replay.html", title=_("Step by step"), live=False, scripts=("replay.js",),
        game=sheets.title(record.name), id=record.game.id, number=number, last=last, query=query, base=base,
        said=record.said(step), round_number=round_number, round_label=round_label, rows=rows,
        rounds=rounds(record),
        tried=[record.said(t) for t in _flat(step.tried)], hidden=hidden, shown=shown, side=side,
        can_reveal=hidden_hook is not None,
        sides=[(key, sheets.side(record.name, name)) for key, name in zip(SIDES, entry.get("players", ())[:2])]
        if hidden_hook is not None and catalogue.get(record.name).teams else [],
        verdict=sheets.verdict(entry), complete=record.broken_at is None)
