"""What a player's page and the "All players" page show, worked out from a
``players.Rater``: games played and won per game, win rate, points where the
game has points, streaks, head-to-head, and the rating with how it moved.

Plain data for the templates and the exports; nothing here reads a store.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from referee.web.players import LAST, Rater, Rating, Result, Side

ORDERS = ("name", "games", "wins", "rate")   # how "All players" may be sorted


@dataclass
class PerGame:
    name: str                     # the rules' name
    played: int = 0
    won: int = 0
    points: list[float] = field(default_factory=list)
    rating: Rating | None = None

    @property
    def rate(self) -> float:
        return self.won / self.played if self.played else 0.0

    @property
    def best(self) -> float | None:
        return max(self.points) if self.points else None

    @property
    def average(self) -> float | None:
        return sum(self.points) / len(self.points) if self.points else None


@dataclass(frozen=True)
class Played:
    """One game on a player's page."""
    result: Result
    side: Side
    of: int                       # how many sides
    moved: tuple[float, float] | None   # the rating before and after


@dataclass
class Against:
    """Head-to-head with one other player: games where both had a side of
    their own, and who placed better."""
    name: str
    games: int = 0
    ahead: int = 0                # this player placed better
    behind: int = 0
    level: int = 0


@dataclass
class Player:
    key: str
    name: str
    games: dict[str, PerGame]
    every: list[Played]           # in the order they ended
    streak: int                   # wins in a row up to the last game
    best_streak: int
    against: list[Against]
    left_out: int                 # finished games with this name that do not count
    merged: list[str] = field(default_factory=list)   # other names counted as this player

    @property
    def last(self) -> list[Played]:
        return self.every[::-1][:LAST]

    @property
    def played(self) -> int:
        return sum(g.played for g in self.games.values())

    @property
    def won(self) -> int:
        return sum(g.won for g in self.games.values())

    @property
    def rate(self) -> float:
        return self.won / self.played if self.played else 0.0


def player(ledger: Rater, who: str) -> Player | None:
    """The page of the player whose key is ``who``, or None."""
    if who not in ledger.names:
        return None
    games: dict[str, PerGame] = {}
    played: list[Played] = []
    against: dict[str, Against] = {}
    left_out = 0
    for game in ledger.games.get(who, ()):
        result = ledger.results[game]
        mine = next((s for s in result.sides if who in map(ledger.who, s.players)), None)
        if mine is None:
            continue
        if not result.counted:
            left_out += 1
            continue
        per = games.setdefault(result.name, PerGame(result.name))
        per.played += 1
        per.won += mine.won
        if mine.score is not None:
            per.points.append(mine.score)
        played.append(Played(result, mine, max(result.seats, len(result.sides)), ledger.moves.get((result.game, who))))
        for other in result.sides:
            if other is mine:
                continue
            for name in other.players:
                if ledger.who(name) == who:
                    continue   # two names of one player, merged, that played each other
                them = against.setdefault(ledger.who(name), Against(ledger.names.get(ledger.who(name), name)))
                them.games += 1
                if mine.rank < other.rank:
                    them.ahead += 1
                elif mine.rank > other.rank:
                    them.behind += 1
                else:
                    them.level += 1
    for name, per in games.items():
        per.rating = ledger.ratings.get((name, who))
    streak = best = 0
    for p in played:
        streak = streak + 1 if p.side.won else 0
        best = max(best, streak)
    return Player(who, ledger.names[who], dict(sorted(games.items())), played, streak, best,
                  sorted(against.values(), key=lambda a: (-a.games, a.name.casefold())), left_out,
                  ledger.merged(who))


def everyone(ledger: Rater, order: str = "games") -> list[Player]:
    """Every player with a counted game, sorted by ``order`` (``ORDERS``)."""
    found = [p for p in (player(ledger, who) for who in ledger.names) if p is not None and p.played]
    if order == "name":
        return sorted(found, key=lambda p: p.name.casefold())
    if order == "wins":
        return sorted(found, key=lambda p: (-p.won, -p.played, p.name.casefold()))
    if order == "rate":
        return sorted(found, key=lambda p: (-p.rate, -p.played, p.name.casefold()))
    return sorted(found, key=lambda p: (-p.played, -p.won, p.name.casefold()))
