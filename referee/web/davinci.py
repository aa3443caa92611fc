"""Da Vinci Code on the score-log pages: a game's line of the sheet, and
where the tournament in progress stands."""
from __future__ import annotations

from games import davinci as dv
from games.davinci import GameLog
from referee.i18n import _, ngettext
from referee.store.scorelog import Entry
from referee.web import sheets


def _name(name) -> str:
    return sheets.side("davinci", name) if isinstance(name, str) else name


def details(i: int, r: GameLog) -> tuple[str, str]:
    out = ", ".join(_("{player} (by {by})").format(player=_name(e.player), by=_name(e.by)) if e.by
                    else _("{player} (own miss)").format(player=_name(e.player))
                    for e in r.eliminated)
    parts = [ngettext("{starter} started; {winner} won after {turns} turn",
                      "{starter} started; {winner} won after {turns} turns", r.turns).format(
        starter=_name(r.starter), winner=_name(r.winner), turns=r.turns)]
    if out:
        parts.append(_("out: {players}").format(players=out))
    return _("Game {n}").format(n=r.game), "; ".join(parts)


def now(v: dv.Public) -> list[str]:
    game = [_("Game {n} of {last}").format(n=v.game, last=v.games)] if v.games > 1 else []
    pool = ngettext("{n} tile in the pool", "{n} tiles in the pool", v.pool).format(n=v.pool)
    return game + [_("{player} to play").format(player=_name(v.turn)), pool]


def empty(entry: Entry) -> str:
    """A sheet with no game finished yet: points come only at a game's end."""
    if entry.summary.scored:
        return _("No game finished yet: tournament points come at the end of each game.")
    return _("One game, no points: the last player with hidden tiles wins.")


def replay_step(v: dv.Public) -> tuple[int, str, list[tuple[str, str]]]:
    """A step of the replay: each player's tiles as counts of hidden and
    face-up ones (the box never knows a tile's number), the pool, the turn
    and the tournament's points."""
    label = _("Game {n} of {last}").format(n=v.game, last=v.games) if v.games > 1 else _("Game {n}").format(n=v.game)
    # Each player's tiles, whose turn, the tournament's points and its
    # winners are the step's account's; here the pool, and a game of the
    # tournament won while more are to come.
    rows = [("", now(v)[-1])] if v.winner is None else []
    if v.winner is not None and v.step.kind != "over":
        rows.append((_("Game {n}").format(n=v.game), _("{winner} wins").format(winner=_name(v.winner))))
    return v.game, label, rows
