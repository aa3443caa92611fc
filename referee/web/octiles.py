"""Octiles on the score-log pages: a turn's line of the sheet, and where
the game in progress stands.  Every place is said by its one name
(``games.octiles_places``): a space by its number, as the box keys it, a
circle as a space and an arrow ("8↘"), as the overlay prints it."""
from __future__ import annotations

from games import octiles as oc
from games.octiles import TurnLog, move_name, place
from referee.i18n import _
from referee.web import sheets
from referee.web.octiles_board import routes  # noqa: F401  (the catalogue's hook: the overlay's addresses)


def _place(name) -> str:
    # A score log kept before the names changed gives the grid's ("c3",
    # "A1"); one from another board may name a place this board lacks: as
    # recorded.
    try:
        return place(name)
    except ValueError:
        return str(name)


def details(i: int, r: TurnLog) -> tuple[str, str]:
    if r.action == "passed":
        parts = [_("passed")]
    else:
        # A tile by no number: the real tiles carry none.
        space = _place(r.space)
        if r.action == "exchanged" and r.removed:
            parts = [_("tile exchanged on space {n}").format(n=space)]
        else:
            parts = [_("tile laid on space {n}").format(n=space)]
        if r.start and r.to:
            try:
                move = move_name(r.start, r.to)
            except ValueError:
                move = f"{r.start}⇒{r.to}"
            parts.append(_("runner {move}").format(move=move))
    if r.finished:
        parts.append(_("all home"))
    player = sheets.side("octiles", r.player)
    return _("Turn {n}").format(n=r.turn), f"{player}: {', '.join(parts)}"


def now(v: oc.Public) -> list[str]:
    if v.over or v.player is None:
        return []
    return [_("Turn {n}").format(n=v.number), _("{player} to move").format(player=sheets.side("octiles", v.player))]


def replay_step(v: oc.Public) -> tuple[int, str, list[tuple[str, str]]]:
    """A step of the replay: its round, the spaces with a tile, where each
    player's runners stand (referee mode: to set the board up as it was),
    and the order in which players brought every runner home (the first
    wins [OC-9]); who moves and the runners home are the step's account's."""
    spaces = sorted(t.number for t in v.tiles.values())
    rows = [(_("Tiles on spaces"), ", ".join(map(str, spaces)))] if spaces else []
    for name, seat in zip(v.players, v.seats):
        circles = [circle for circle, who in (v.pieces or {}).items() if who == seat]
        if circles:
            rows.append((_("{player}: runners on").format(player=sheets.side("octiles", name)), " ".join(circles)))
    if v.finished:
        rows.append((_("Finishing order"), ", ".join(f"{rank} {sheets.side('octiles', n)}"
                                                     for rank, n in enumerate(v.finished, 1))))
    return v.round, _("Round {n}").format(n=v.round), rows
