"""Octiles on the score-log pages: a turn's line of the sheet, and where
the game in progress stands."""
from __future__ import annotations

from games.octiles import TurnLog, space_number
from referee.i18n import _
from referee.web import sheets


def _space(name) -> str:
    try:
        return str(space_number(name))
    except (KeyError, ValueError, TypeError):
        return str(name)   # a space this board does not have: as recorded


def details(i: int, r: TurnLog) -> tuple[str, str]:
    if r.action == "passed":
        parts = [_("passed")]
    else:
        # A space by its number, as the box keys it and the printed map
        # numbers it; a tile by none (the real tiles carry no numbers).
        space = _space(r.space)
        if r.action == "exchanged" and r.removed:
            parts = [_("tile exchanged on space {n}").format(n=space)]
        else:
            parts = [_("tile laid on space {n}").format(n=space)]
        if r.start:
            parts.append(_("runner {start}→{end}").format(start=r.start, end=r.to))
    if r.finished:
        parts.append(_("all home"))
    player = sheets.side("octiles", r.player)
    return _("Turn {n}").format(n=r.turn), f"{player}: {', '.join(parts)}"


def now(v: dict) -> list[str]:
    if v.get("over"):
        return []
    return [_("Turn {n}").format(n=v["number"]), _("{player} to move").format(player=sheets.side("octiles", v["player"]))]


def replay_step(v: dict) -> tuple[int, str, list[tuple[str, str]]]:
    """A step of the replay: its round, the spaces with a tile, and the
    order in which players brought every runner home (the first wins
    [OC-9]); who moves and the runners home are the step's account's."""
    spaces = sorted(t["number"] for t in v["tiles"].values())
    rows = [(_("Tiles on spaces"), ", ".join(map(str, spaces)))] if spaces else []
    if v["finished"]:
        rows.append((_("Finishing order"), ", ".join(f"{place} {sheets.side('octiles', n)}"
                                                     for place, n in enumerate(v["finished"], 1))))
    return v["round"], _("Round {n}").format(n=v["round"]), rows
