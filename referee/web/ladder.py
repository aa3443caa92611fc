"""Who leads at each game: the ladders, all-time and by season, read from
a ``players.Rater``'s history of ratings.

A ladder ranks by OpenSkill's conservative value, its ``ordinal``
(mu - 3 sigma): a newcomer who won one game has a wide sigma and ranks
low until the games played make the rating sure.  A player is
*provisional*, listed apart below the ranked ones, with fewer than
``provisional_games`` games since their return (config.toml's
``[ladder]``) or a sigma above ``provisional_sigma`` (lichess's rule,
OpenSkill's numbers).

Seasons are calendar months, or the club's own dates (``[ladder]
seasons``).  A season's ladder has the players who played in it, each
with the rating their last game of the season left; the all-time ladder
has everyone's rating as it stands, but for players who have been away
a whole season: they leave it until they play again, and come back
provisional (their games are counted from their return).

Nothing here rates a game: the ratings are the ones the rater counted,
game by game; a ladder is a look-up in each player's history (a bisection
for the season, a few steps back for the return), cheap enough for a page.
"""
from __future__ import annotations

import bisect
import dataclasses
import datetime as dt
from dataclasses import dataclass

from babel.dates import format_date

from referee import i18n
from referee.config import Ladder as Rules
from referee.web.history import bounds, evening_of
from referee.web.sheets import LOCALES
from referee.web.players import Rater, model

YEARS = (2000, 9000)


@dataclass(frozen=True)
class Season:
    key: str                  # in its address: "2026-05", or a club season's first day
    start: dt.date            # its first evening
    end: dt.date              # its last evening
    name: str = ""            # a club season's name; a month's is said in the page's language

    @property
    def title(self) -> str:
        return self.name or format_date(self.start, "LLLL y", locale=LOCALES.get(i18n.lang, i18n.lang))

    @property
    def span(self) -> tuple[float, float]:
        """Its games' end times, [from, until)."""
        return bounds(self.start)[0], bounds(self.end)[1]


def _month(day: dt.date) -> Season:
    first = day.replace(day=1)
    last = (first + dt.timedelta(days=32)).replace(day=1) - dt.timedelta(days=1)
    return Season(f"{first:%Y-%m}", first, last)


class Calendar:
    """The seasons: the club's own, or else calendar months."""

    def __init__(self, rules: Rules) -> None:
        self.own = tuple(sorted((Season(s.start.isoformat(), s.start, s.end, s.name) for s in rules.seasons),
                                key=lambda s: s.start))

    def of(self, day: dt.date) -> Season | None:
        """The season an evening is in (None: between the club's seasons)."""
        if not self.own:
            return _month(day)
        return next((s for s in self.own if s.start <= day <= s.end), None)

    def by_key(self, key: str) -> Season | None:
        if self.own:
            return next((s for s in self.own if s.key == key), None)
        try:
            day = dt.date.fromisoformat(key + "-01")
        except ValueError:
            return None
        # Years the box can have seen: the calendar's ends overflow when a
        # month's last evening is worked out.
        return _month(day) if f"{day:%Y-%m}" == key and YEARS[0] <= day.year <= YEARS[1] else None

    def away(self, last: dt.date, back: dt.date) -> bool:
        """Whether a whole season lies between two evenings."""
        if not self.own:
            return (back.year * 12 + back.month) - (last.year * 12 + last.month) >= 2
        return any(last < s.start and s.end < back for s in self.own)

    def between(self, first: dt.date, last: dt.date) -> list[Season]:
        """The seasons from ``first``'s evening to ``last``'s, newest first."""
        if self.own:
            return [s for s in reversed(self.own) if s.start <= last and s.end >= first]
        found, month = [], _month(first)
        while month.start <= last:
            found.append(month)
            month = _month(month.end + dt.timedelta(days=1))
        return found[::-1]


@dataclass(frozen=True)
class Standing:
    player: str               # the player's key
    name: str
    mu: float
    sigma: float
    ordinal: float            # OpenSkill's, mu - 3 sigma
    games: int                # of the ladder's game: in the season, or all
    since: int                # games since the player's last whole season away (up to the rule's count)
    more: int                 # games still to play before the rating counts
    provisional: bool         # too few games, or too wide a sigma
    place: int = 0            # on the ranked list; 0: provisional


@dataclass(frozen=True)
class Board:
    game: str
    season: Season | None     # None: all-time
    ranked: list[Standing]
    provisional: list[Standing]
    away: int                 # all-time: players left off for a whole season away


def ordinal(mu: float, sigma: float) -> float:
    """OpenSkill's own conservative value of a rating."""
    return model().rating(mu=mu, sigma=sigma).ordinal()


def board(rater: Rater, game: str, rules: Rules, today: dt.date, season: Season | None = None) -> Board:
    """The ladder of ``game``: all-time as of ``today``, or ``season``'s."""
    calendar = Calendar(rules)
    standings, away = [], 0
    for player, entries in rater.history.get(game, {}).items():
        if season is None:
            end = len(entries)
            if calendar.away(evening_of(entries[-1][0]), today):
                away += 1
                continue
            games = end
        else:
            start_at, until = season.span
            end = bisect.bisect_left(entries, (until,))
            first = bisect.bisect_left(entries, (start_at,))
            if end == first:
                continue
            games = end - first
        _ended, _game, mu, sigma = entries[end - 1]
        since = _since(entries, end, rules.provisional_games, calendar)
        provisional = since < rules.provisional_games or sigma > rules.provisional_sigma
        standings.append(Standing(player, rater.names.get(player, player), mu, sigma, ordinal(mu, sigma), games,
                                  since, max(0, rules.provisional_games - since), provisional))
    ranked = sorted((s for s in standings if not s.provisional), key=lambda s: (-s.ordinal, s.name.casefold()))
    # Equal values share a place (1, 2, 2, 4).
    placed, place = [], 0
    for n, s in enumerate(ranked):
        if n == 0 or s.ordinal != ranked[n - 1].ordinal:
            place = n + 1
        placed.append(dataclasses.replace(s, place=place))
    provisional = sorted((s for s in standings if s.provisional), key=lambda s: (-s.since, -s.ordinal,
                                                                                  s.name.casefold()))
    return Board(game, season, placed, provisional, away)


def _since(entries: list, end: int, need: int, calendar: Calendar) -> int:
    """The player's games up to ``end`` since their last whole season away,
    counted back no further than ``need``."""
    count = 1
    at = end - 1
    while count < need and at > 0:
        if calendar.away(evening_of(entries[at - 1][0]), evening_of(entries[at][0])):
            break
        count += 1
        at -= 1
    return count


def seasons(rater: Rater, game: str, rules: Rules, today: dt.date) -> list[Season]:
    """The seasons ``game`` was played in, newest first, up to today's."""
    ended = [entries[i][0] for entries in rater.history.get(game, {}).values() for i in (0, -1)]
    if not ended:
        return []
    first, last = evening_of(min(ended)), min(evening_of(max(ended)), today)
    played = [s for s in Calendar(rules).between(first, last) if _played_in(rater, game, s)]
    return played


def _played_in(rater: Rater, game: str, season: Season) -> bool:
    start_at, until = season.span
    for entries in rater.history.get(game, {}).values():
        if bisect.bisect_left(entries, (until,)) > bisect.bisect_left(entries, (start_at,)):
            return True
    return False


def current(rules: Rules, today: dt.date) -> Season | None:
    return Calendar(rules).of(today)


def games(rater: Rater) -> list[str]:
    """The games with a ladder: those with a rated game, in the catalogue's order."""
    from referee import catalogue
    return [g.name for g in catalogue.on_menu() if rater.history.get(g.name)]
