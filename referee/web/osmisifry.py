"""Osmišifry on the score-log pages: a booklet's line of the sheet, and
where the game in progress stands."""
from __future__ import annotations

from games import osmisifry as osm
from games.osmisifry import Booklet
from referee.i18n import N_, _
from referee.web import sheets


def details(i: int, r: Booklet) -> tuple[str, str]:
    """A booklet's line, in the words the box asked its counts in (the
    game's glossary defines them): "Officer: Bo; Pictures drawn: 3; …"."""
    parts = [_("Officer: {name}").format(name=sheets.side("osmisifry", r.officer)),
             _("Pictures drawn: {n}").format(n=r.drawn),
             _("Found and named: {n}").format(n=r.found),
             _("Unused letters: {n}").format(n=r.unused)]
    if r.destroyed:
        parts.append(_("secret word destroyed"))
    return _("{agent}’s booklet").format(agent=sheets.side("osmisifry", r.agent)), "; ".join(parts)


# What an Osmišifry game is doing after its creation rounds.
_OSMISIFRY_PHASES = {"direction": N_("Rolling the direction"), "decoding": N_("Officers decoding"),
                     "scoring": N_("Scoring the booklets")}


def now(v: osm.Public) -> list[str]:
    phase = v.phase
    if phase == "creation":
        return [_("Creation, round {n} of {last}").format(n=v.round, last=v.rounds)]
    return [_(_OSMISIFRY_PHASES[phase])] if phase in _OSMISIFRY_PHASES else []


_AFTER = ("direction", "decoding", "scoring", "over")


def replay_step(v: osm.Public) -> tuple[int, str, list[tuple[str, str]]]:
    """A step of the replay: the letters rolled each round and who took
    them, whose pick it is, the booklets scored and the totals."""
    names = [sheets.side("osmisifry", name) for name in v.players]
    phase = now(v)
    rows = [("", line) for line in phase[1:]]
    for row in v.rows:
        letters = [letter if taker is None else f"{letter} ({names[taker]})"
                   for letter, taker in zip(row.letters, row.taken)]
        rows.append((_("Round {n}").format(n=row.row), ", ".join(letters)))
    # After the creation rounds each phase is a round of its own on the list.
    number = v.round if v.phase == "creation" else v.rounds + _AFTER.index(v.phase) + 1
    return number, phase[0] if phase else _("Totals"), rows
