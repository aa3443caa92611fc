"""The ladders as files: a game's ladder (``/api/p/ladder/<game>.json``,
a season's at ``/api/p/ladder/<game>/<season>.json``) and a player's
places on them (the ``ladders`` of each game in ``/api/p/<key>.json``), on
the box's web and the league's.

The numbers are the ones the pages show, unrounded: the conservative value
a ladder ranks by (``ordinal``, OpenSkill's mu - 3 sigma), the place on the
ranked list, and for a provisional player how many games are still
missing (none when only sigma keeps them out).  The structs are the files'
format: a field is added, never renamed.
"""
from __future__ import annotations

import datetime as dt

import msgspec

from referee.web import ladder


class Rank(msgspec.Struct, kw_only=True):
    player: str               # the player's key: their page is /p/@<key>
    name: str
    place: int | None         # on the ranked list (equal values share one); None: provisional
    ordinal: float            # mu - 3 sigma
    mu: float
    sigma: float
    games: int                # of the ladder's game: in the season, or all
    provisional: bool
    more: int                 # games still to play before the rating counts


class Rules(msgspec.Struct, kw_only=True):
    provisional_games: int
    provisional_sigma: float


class Ladder(msgspec.Struct, kw_only=True):
    game: str
    season: str | None        # its key, as in the page's address; None: all-time
    rules: Rules
    ranked: list[Rank]
    provisional: list[Rank]
    away: int                 # all-time: players left off for a whole season away


class Place(msgspec.Struct, kw_only=True):
    season: str | None        # None: all-time
    away: bool                # all-time: off the ladder until the player's next game
    place: int | None         # None: provisional (or away)
    of: int                   # how many are ranked
    ordinal: float | None
    provisional: bool
    more: int


def rank(s: ladder.Standing) -> Rank:
    return Rank(player=s.player, name=s.name, place=s.place or None, ordinal=s.ordinal, mu=s.mu, sigma=s.sigma,
                games=s.games, provisional=s.provisional, more=s.more)


def ladder_file(rater, game: str, rules, today: dt.date, season: ladder.Season | None) -> dict:
    b = ladder.board(rater, game, rules, today, season)
    return msgspec.to_builtins(Ladder(
        game=game, season=season.key if season else None,
        rules=Rules(provisional_games=rules.provisional_games, provisional_sigma=rules.provisional_sigma),
        ranked=[rank(s) for s in b.ranked], provisional=[rank(s) for s in b.provisional], away=b.away))


def place(season: ladder.Season | None, board: ladder.Board, mine: ladder.Standing | None) -> Place:
    if mine is None:
        return Place(season=None, away=True, place=None, of=len(board.ranked), ordinal=None, provisional=False,
                     more=0)
    return Place(season=season.key if season else None, away=False, place=mine.place or None, of=len(board.ranked),
                 ordinal=mine.ordinal, provisional=mine.provisional, more=mine.more)
