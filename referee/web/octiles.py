"""Octiles on the score-log pages: a turn's line of the sheet, and where
the game in progress stands."""
from __future__ import annotations

from referee.i18n import _
from referee.web import sheets


def details(i: int, r: dict) -> tuple[str, str]:
    action = r.get("action")
    if action == "passed":
        parts = [_("passed")]
    else:
        if action == "exchanged" and r.get("removed"):
            parts = [_("tile {tile} on {space} for {removed}").format(
                tile=r.get("tile"), space=r.get("space"), removed=r["removed"])]
        else:
            parts = [_("tile {tile} on {space}").format(tile=r.get("tile"), space=r.get("space"))]
        if r.get("from"):
            parts.append(_("runner {start}→{end}").format(start=r["from"], end=r["to"]))
    if r.get("finished"):
        parts.append(_("all home"))
    player = sheets.side("octiles", r.get("player"))
    return _("Turn {n}").format(n=r.get("turn", i)), f"{player}: {', '.join(parts)}"


def now(v: dict) -> list[str]:
    if v.get("over"):
        return []
    return [_("Turn {n}").format(n=v["number"]), _("{player} to move").format(player=sheets.side("octiles", v["player"]))]
