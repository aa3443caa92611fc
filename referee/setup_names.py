"""Players' names at setup: tonight's roster, and the phone page that types
them.

While a game's setup form is on the main screen, the table may name the
seats three ways, all optional: leave them ("Hráč 1"… in the box's
language), pick them from tonight's roster on the keypad, or open the setup's
own page on a phone (the QR code behind ``B``) and type them there.

The page's address is a capability, ``/N/<token>``: 128 random bits, made
when the QR code is first shown and good for that form only, so for this
setup of this game; leaving the form, or starting the game, ends it.  Like
the team pages, the web hands what the page sends to ``submit`` and shows
what ``view`` gives: the box keeps the form, the web only forwards.

While a phone types, its page sends what is in the fields a moment after
each pause (``preview``): the box's screens show those names at once, marked
as not yet saved, without making them the form's names; the form's names
stay what was last saved, and ``#`` starts with those.  A preview lives on
the form, so it goes with the setup.  A name the panels cannot take is
answered to the phone, never flashed or beeped at the table.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import hmac
import re

from games.base import Illegal
from referee import catalogue, i18n, name_check
from referee.store import scorelog
from referee.store.scorelog import Entry

if TYPE_CHECKING:
    from referee.box.coordinator import Box
    from referee.box.flows.forms import Form

# Names the rules give, which nobody typed: not offered as tonight's players.
RULE_NAMES = frozenset(name for game in catalogue.GAMES.values() for name in game.rule_names)
MAX_SEATS = 6
# The panels are redrawn for a phone's typing at most once in this many
# seconds: a preview between two redraws waits for the next one, and only
# the latest is drawn.  A phone that sends faster costs the box a few
# string checks a message, never a frame.
PREVIEW_GAP = 0.25


def is_default(name: str) -> bool:
    """Whether ``name`` is a seat's default ("Player 2", "Hráč 2"…) or a
    name the rules give ("White", "West")."""
    if name in RULE_NAMES:
        return True
    for code in i18n.LANGS:
        pattern = i18n.catalogue(code).gettext("Player {n}")
        if re.fullmatch(re.escape(pattern).replace(r"\{n\}", "[0-9]+"), name):
            return True
    return False


def seat_number(name: str) -> int | None:
    """The seat a default name stands for ("Player 2", "Hráč 2", "Игрок 2"
    → 2), whatever language the box spoke when it was recorded; None for a
    name the table gave."""
    for code in i18n.LANGS:
        pattern = i18n.catalogue(code).gettext("Player {n}")
        found = re.fullmatch(re.escape(pattern).replace(r"\{n\}", "([0-9]+)"), name)
        if found:
            return int(found.group(1))
    return None


def typed(entry: Entry) -> list[str]:
    """The names the table gave one game, in seat order (team by team)."""
    given = [name for team in entry.summary.members.values() for name in team] or entry.summary.players
    return [name for name in given if not is_default(name)]


def roster(store, now: float) -> list[str]:
    """Tonight's players: every name typed tonight, the latest game's first,
    each once."""
    seen: dict[str, None] = {}
    for entry in scorelog.evening(store, now):
        for name in typed(entry):
            seen.setdefault(name, None)
    return list(seen)


def last_players(store, now: float) -> list[str]:
    """The names of tonight's latest game that had names typed, in seat order."""
    return next((typed(entry) for entry in scorelog.evening(store, now) if typed(entry)), [])


def last_teams(store, now: float) -> list[list[str]]:
    """The teams of tonight's latest game played in named teams, if any."""
    for entry in scorelog.evening(store, now):
        if entry.summary.members:
            return [list(team) for team in entry.summary.members.values()]
    return []


def form_for(box: Box, token: str) -> Form | None:
    """The setup form the page ``token`` belongs to, while it is on screen
    or kept for the main menu (``referee.box.flows.menu.keep_setup``)."""
    token = token.upper()
    for flow in (box.flow, *(form for _evening, form in box.setups.values())):
        form = flow.setup_form() if flow is not None else None
        mine = form.names_token if form is not None else None
        if form is not None and mine is not None and hmac.compare_digest(mine.encode(), token.encode()):
            return form
    return None


def open_token(box: Box) -> str | None:
    """The token of the names page open now: the setup form's on screen,
    else that of the form last left for the main menu, if it has shown one
    (its names wait there until the game starts)."""
    flow = box.flow
    form = flow.setup_form() if flow is not None else None
    mine = form.names_token if form is not None else None
    if mine is None and not (flow is not None and flow.remembered):
        kept = [form.names_token for _evening, form in box.setups.values() if form.names_token]
        mine = kept[-1] if kept else None
    return mine


def view(box, token: str) -> dict | None:
    """What the phone page shows, or None when its setup is gone."""
    form = form_for(box, token)
    if form is None:
        return None
    return {"game": form.game, "title": form.title, "teams": form.teams,
            "team_titles": tuple(form.team_titles),
            "seats": form.seat_range(), "names": form.typed_names(),
            "roster": roster(box.store, box.labels.now()), "csrf": form.names_csrf}


class FieldsRefused(Illegal):
    """Names the page must change before they are taken: ``fields`` says,
    by field, why each one is refused."""

    def __init__(self, fields: dict[str, Illegal]) -> None:
        first = next(iter(fields.values()))
        super().__init__(first.message, **first.fields)
        self.by_field = fields


def submit(box, token: str, fields: dict[str, str]) -> None:
    """Take the names the page sent: ``n1``… in seat order, or for a team
    game ``t1n1``… and ``t2n1``…  An empty field is dropped.  ``Illegal``
    refuses with a sentence for the page (``FieldsRefused`` naming the
    fields, as typed, whose names cannot be taken); nothing changes then."""
    form = form_for(box, token)
    if form is None:
        raise LookupError(token)
    rows = [f"t{t}n" for t in (1, 2)] if form.teams else ["n"]
    _given, refused = _checked(rows, fields)
    if refused:
        raise FieldsRefused(refused)
    raw = {row: [fields.get(f"{row}{i}", "") for i in range(1, MAX_SEATS + 1)] for row in rows}
    _move(raw, fields.get("up", ""), fields.get("swap", ""))
    given = [[name_check.check(v) for v in raw[row] if v.strip()] for row in rows]
    if form.teams:
        form.set_members(given)
    else:
        form.set_names(given[0])
    form.preview = None
    box.changed()


def preview(box, token: str, fields: dict[str, str]) -> dict[str, Illegal]:
    """Show what the page's fields hold now on the box's screens, unsaved:
    the names the panels can take, in the fields' order.  Returns, by
    field, why a name is left out (not drawable, too long, a second one of
    the same name) for the phone to say."""
    form = form_for(box, token)
    if form is None:
        raise LookupError(token)
    rows = [f"t{t}n" for t in (1, 2)] if form.teams else ["n"]
    given, refused = _checked(rows, fields)
    form.preview = given   # row by row, as the form shows them
    _redraw(box, form)
    return refused


def _checked(rows: list[str], fields: dict[str, str]) -> tuple[list[list[str]], dict[str, Illegal]]:
    """The names the fields hold that the box can take, row by row, and by
    field why each other one is refused: a second one of a name is refused
    naming the name, so that the table sees which."""
    refused: dict[str, Illegal] = {}
    seen: set[str] = set()
    given = []
    for row in rows:
        taken = []
        for i in range(1, MAX_SEATS + 1):
            field = f"{row}{i}"
            if not fields.get(field, "").strip():
                continue
            try:
                name = name_check.check(fields[field])
                if name.casefold() in seen:
                    raise Illegal("Two players are named {name}.", name=name)
            except Illegal as exc:
                refused[field] = exc
                continue
            seen.add(name.casefold())
            taken.append(name)
        given.append(taken)
    return given, refused


def _redraw(box, form) -> None:
    # Not ``box.changed()``: nothing the score log shows has changed, so the
    # phones' live pages are not told; only the panels are redrawn.
    if form.preview_due is not None:
        return   # a redraw is coming: it draws the latest preview
    wait = form.preview_drawn + PREVIEW_GAP - box.clock.monotonic()
    if wait > 0:
        form.preview_due = box.clock.call_later(wait, _draw, box, form)
    else:
        _draw(box, form)


def _draw(box, form) -> None:
    form.preview_due = None
    form.preview_drawn = box.clock.monotonic()
    if box.flow is form:
        box.render()


def _move(raw: dict[str, list[str]], up: str, swap: str) -> None:
    """A row's "up" button (``up=n3``) moves that name one seat earlier; a
    team game's "other team" button (``swap=t1n2``) moves it to the other
    team's end."""
    if m := re.fullmatch(r"((?:t[12])?n)([2-9])", up):
        row, i = raw.get(m.group(1)), int(m.group(2)) - 1
        if row is not None and i < len(row):
            row[i - 1], row[i] = row[i], row[i - 1]
    if (m := re.fullmatch(r"t([12])n([1-9])", swap)) and "t1n" in raw:
        row, other = raw[f"t{m.group(1)}n"], raw["t2n" if m.group(1) == "1" else "t1n"]
        i = int(m.group(2)) - 1
        if i < len(row) and row[i].strip():
            free = next((k for k, v in enumerate(other) if not v.strip()), None)
            if free is not None:
                other[free], row[i] = row[i], ""

