"""A player's rivals and partners, from a ``players.Rater``: whom they met
most, lost to most, beat most, the best partner in team games (Decrypto),
and the time they played, each with the games it counts.

Counted games only, as the rest of the player's page; "lost to" and "beat"
are placings, a side placed behind or ahead of the other's (a tie is
neither).  A partner is best by the share of games won together, among
partners of at least ``PARTNER_GAMES`` games, so that one lucky evening
does not make a best partner.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from referee.web.players import Rater, Result

PARTNER_GAMES = 3
SHOWN = 5          # games linked beside each rival: the latest


@dataclass
class Met:
    player: str                       # the other's key
    name: str
    games: list[Result] = field(default_factory=list)    # in the order they ended

    @property
    def count(self) -> int:
        return len(self.games)


@dataclass
class Partner(Met):
    won: list[Result] = field(default_factory=list)

    @property
    def rate(self) -> float:
        return len(self.won) / len(self.games)


@dataclass
class Rivals:
    most_met: Met | None
    lost_to: Met | None
    beat: Met | None
    partner: Partner | None
    seconds: float                    # time played: from each game's start to its end
    timed: int                        # games whose start and end are known


def rivals(rater: Rater, who: str) -> Rivals:
    met: dict[str, Met] = {}
    lost: dict[str, Met] = {}
    beat: dict[str, Met] = {}
    partners: dict[str, Partner] = {}
    seconds, timed = 0.0, 0
    for game in rater.games.get(who, ()):
        result = rater.results[game]
        if not result.counted:
            continue
        mine = next((s for s in result.sides if who in map(rater.who, s.players)), None)
        if mine is None:
            continue
        if result.started and result.ended >= result.started:
            seconds += result.ended - result.started
            timed += 1
        for side in result.sides:
            for player in dict.fromkeys(map(rater.who, side.players)):
                if player == who:
                    continue     # two names of one player, merged
                name = rater.names.get(player, player)
                if side is mine:
                    partner = partners.setdefault(player, Partner(player, name))
                    partner.games.append(result)
                    if mine.won:
                        partner.won.append(result)
                    continue
                _add(met, player, name, result)
                if mine.rank > side.rank:
                    _add(lost, player, name, result)
                elif mine.rank < side.rank:
                    _add(beat, player, name, result)
    good = [p for p in partners.values() if p.count >= PARTNER_GAMES and p.won]
    best = min(good, key=lambda p: (-p.rate, -p.count, p.name.casefold()), default=None)
    return Rivals(_most(met), _most(lost), _most(beat), best, seconds, timed)


def _add(into: dict[str, Met], player: str, name: str, result: Result) -> None:
    into.setdefault(player, Met(player, name)).games.append(result)


def _most(found: dict[str, Met]) -> Met | None:
    """The one met most; of equals, the one met last (then by name)."""
    return min(found.values(), key=lambda m: (-m.count, -m.games[-1].ended, m.name.casefold()), default=None)
