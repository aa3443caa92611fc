"""Decipher on the score-log pages: a round's line of the sheet, and where
the game in progress stands."""
from __future__ import annotations

from games import decipher as dc
from games.decipher import RoundTable
from referee.i18n import _
from referee.web import sheets


def details(i: int, r: RoundTable) -> tuple[str, str]:
    if r.ended == "solved":
        ended = _("solved by {player}").format(player=sheets.side("decipher", r.solver or ""))
    else:
        ended = {"tokens": _("not solved: guess tokens spent"), "given_up": _("given up")}.get(r.ended, "")
    return sheets.round_label(r.round), _("{maker} made the word, {ended}; NO tokens {no_tokens}, bonus pieces {bonus}").format(
        maker=sheets.side("decipher", r.maker), ended=ended, no_tokens=r.no_tokens, bonus=r.bonus_taken)


def now(v: dc.Public) -> list[str]:
    kind = v.step.kind
    if kind != "scored" and v.seeker is None:
        return []
    if kind == "scored":
        return [_("Round {n} of {last}: scored").format(n=v.round, last=v.rounds)]
    return ([sheets.of(v.round, v.rounds), _("{maker} makes the word").format(maker=sheets.side("decipher", v.maker))]
            + ([_("bonus mode")] if v.bonus_mode else []))


def replay_step(v: dc.Public) -> tuple[int, str, list[tuple[str, str]]]:
    """A step of the replay: who makes the word and the NO tokens (never
    the piece count, which the maker keeps); whose turn, each player's
    guess tokens and points are the step's account's."""
    rows = [("", line) for line in now(v)[1:]]
    rows.append((_("NO tokens"), str(v.no_tokens)))
    return v.round, _("Round {round}/{rounds}").format(round=v.round, rounds=v.rounds), rows
