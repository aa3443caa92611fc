"""Every player's history and rating, from the games the box has stored.

A finished game becomes a *result*: its sides (a seat, or a Decrypto team),
who sat in each by name, each side's rank and score.  Results and ratings
are kept in the web's own database beside the box's (``players.db``): the
box never writes it and the web never writes the box's, and a restart does
not replay five years of evenings.  Only what changed since the last look
is worked out again: a new finished game is one replay and one rating
update.  A game taken back after it ended (undo), or one that ended before
a game already rated, makes the ratings be counted again from the first
game, in the order the games ended, so that a rating never depends on the
order the pages were opened in.

A game counts for results and ratings when it was played to its end and at
least two of its sides have a typed name; seats left at their default name
("Player 3") are left out of it, the others keep their order.  A player is a
name as the box compares names: composed, spaces single, case ignored.

Ratings are OpenSkill's Plackett-Luce model, one rating per game (a good
Decrypto player is not thereby a good Octiles one): free-for-all games by
rank with ties shared, Decrypto team against team (the Hacker variant: the
Hacker against the Team).
"""
from __future__ import annotations

import dataclasses
import functools
import json
import logging
import os
import sqlite3
from dataclasses import dataclass, field

from games.base import clean_name
from referee import catalogue, merging
from referee.setup_names import is_default
from referee.store import scorelog, snapshot
from referee.store.events import Store

log = logging.getLogger(__name__)

FILE = "players.db"
LAST = 10                     # results listed on a player's page
# A new player's rating: OpenSkill's own defaults, given to the model here.
MU, SIGMA = 25.0, 25.0 / 3


@functools.cache
def model():
    """OpenSkill's Plackett-Luce model.  Loaded when the first result is
    rated: about 3 MB that a web with no game ended yet, and the virtual
    table's tests of the box, need not hold."""
    from openskill.models import PlackettLuce
    return PlackettLuce(mu=MU, sigma=SIGMA)

SCHEMA = """
CREATE TABLE IF NOT EXISTS results (
    game   INTEGER PRIMARY KEY,      -- the box's game id
    ended  REAL NOT NULL,            -- as the box's games row says: a change means the game changed
    result TEXT NOT NULL             -- Result as JSON
);
CREATE TABLE IF NOT EXISTS ratings (
    game   INTEGER NOT NULL,         -- the result that moved it
    player TEXT NOT NULL,            -- a player's key (``key``)
    mu     REAL NOT NULL,
    sigma  REAL NOT NULL,
    PRIMARY KEY (game, player)
);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT);
"""


def key(name: str) -> str:
    """A player as the box tells players apart: two spellings that differ in
    case or spacing are one person."""
    return clean_name(name).casefold()


@dataclass(frozen=True)
class Side:
    players: tuple[str, ...]      # typed names, in seat order
    rank: int                     # 1 for the winners; equal totals share a rank
    score: float | None           # the side's points, where the game has points
    won: bool


@dataclass(frozen=True)
class Result:
    game: int
    name: str                     # the rules' name ("decipher")
    ended: float
    sides: tuple[Side, ...]       # only the sides with a typed name
    counted: bool
    why: str = ""                 # why not, when it does not count
    seats: int = 0                # sides in the game, named or not (0: a result kept before it was counted)

    def to_json(self) -> str:
        return json.dumps(dataclasses.asdict(self), ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str) -> Result:
        data = json.loads(text)
        data["sides"] = tuple(Side(tuple(s["players"]), s["rank"], s["score"], s["won"]) for s in data["sides"])
        return cls(**data)


def result_of(entry: dict) -> Result:
    """A finished game's result, from its score-log entry."""
    game, name, ended = entry["id"], entry["game"], entry.get("ended") or 0.0
    members = entry.get("members") or {}
    totals = entry.get("totals") or {}
    winners = set(entry.get("winners") or ())
    order = entry.get("finishing_order") or []
    sides = []
    for seat in entry.get("players", []):
        named = tuple(n for n in (members.get(seat) or [seat]) if not is_default(n))
        total = totals.get(seat)
        sides.append((named, seat in winners, total if isinstance(total, (int, float)) else 0, seat))
    ranked = _ranks(sides, order)
    # Decrypto's totals are tokens, a single Da Vinci Code game's a win: no points
    points = name in catalogue.GAMES and catalogue.GAMES[name].points and entry.get("points", True)
    kept = tuple(Side(named, rank, float(total) if points else None, won)
                 for (named, won, total, _seat), rank in zip(sides, ranked) if named)
    seats = len(sides)   # an unnamed seat still took a place: "3. of 3", not "3. of 2"
    if entry.get("status") != "finished":
        return Result(game, name, ended, kept, False, "ended early", seats)
    if len(kept) < 2:
        return Result(game, name, ended, kept, False, "no names" if not kept else "one named player", seats)
    return Result(game, name, ended, kept, True, seats=seats)


def _ranks(sides: list[tuple], order: list[str]) -> list[int]:
    """1 for the winners, then by total (Octiles: by finishing order), equal
    ones sharing a rank."""
    if order:
        place = {seat: n for n, seat in enumerate(order)}
        value = [(0 if won else 1, place.get(seat, len(order))) for _n, won, _t, seat in sides]
    else:
        value = [(0 if won else 1, -total) for _n, won, total, _seat in sides]
    distinct = sorted(set(value))
    return [distinct.index(v) + 1 for v in value]


@dataclass
class Rating:
    mu: float = MU
    sigma: float = SIGMA
    games: int = 0


@dataclass
class Rater:
    """Ratings and who played what, from results taken in the order their
    games ended (``take``), with the players' merges (``aliases``: a key ->
    the key it counts as).  The box's web keeps one in ``Ledger``; the
    league one over every table's games (``referee.club.league``)."""
    aliases: dict[str, str] = field(default_factory=dict)
    results: dict[int, Result] = field(default_factory=dict)
    ratings: dict[tuple[str, str], Rating] = field(default_factory=dict)    # (game name, player) -> now
    moves: dict[tuple[int, str], tuple[float, float]] = field(default_factory=dict)  # (game, player) -> mu before, after
    names: dict[str, str] = field(default_factory=dict)                    # player -> the name shown
    games: dict[str, list[int]] = field(default_factory=dict)              # player -> their results, in order
    spelled: dict[str, str] = field(default_factory=dict)                  # a name's key -> its latest spelling

    def who(self, name: str) -> str:
        """The player a typed name counts as, merges followed."""
        k = key(name)
        return self.aliases.get(k, k)

    def merged(self, player: str) -> list[str]:
        """The names counted as ``player`` other than its own, as last typed."""
        return sorted((self.spelled[k] for k, into in self.aliases.items() if into == player and k in self.spelled),
                      key=str.casefold)

    def ordered(self) -> list[Result]:
        """The counted results in the order the games ended."""
        return sorted((r for r in self.results.values() if r.counted), key=lambda r: (r.ended, r.game))

    def rate(self, result: Result) -> list[tuple[str, float, float]]:
        """Moves the ratings by one result that ended after every one rated;
        returns the ratings it made: ``(player, mu, sigma)``.  A player on
        two sides of one game (two names merged that played each other)
        is rated by the first only."""
        if not result.counted:
            return []
        seen: set[str] = set()
        sides = []
        for side in result.sides:
            players = [p for p in map(self.who, side.players) if not (p in seen or seen.add(p))]
            if players:
                sides.append((side.rank, players))
        if len(sides) < 2:
            return []
        teams = [[model().rating(mu=now.mu, sigma=now.sigma)
                  for now in (self.ratings.get((result.name, p), Rating()) for p in players)] for _r, players in sides]
        rated = model().rate(teams, ranks=[rank for rank, _p in sides])
        made = []
        for (_rank, players), team in zip(sides, rated):
            for player, rating in zip(players, team):
                self.put(result, player, rating.mu, rating.sigma)
                made.append((player, rating.mu, rating.sigma))
        return made

    def put(self, result: Result, player: str, mu: float, sigma: float) -> None:
        before = self.ratings.get((result.name, player), Rating())
        self.ratings[(result.name, player)] = Rating(mu, sigma, before.games + 1)
        self.moves[(result.game, player)] = (before.mu, mu)

    def learn(self, result: Result) -> None:
        """Takes in a result that ended after every one known."""
        for side in result.sides:
            for name in side.players:
                self.spelled[key(name)] = name
                player = self.who(name)
                # The name shown is the player's own, as last typed; a merged
                # name shows only until its player's own is typed.
                if key(name) == player or player not in self.names:
                    self.names[player] = name
                mine = self.games.setdefault(player, [])
                if not mine or mine[-1] != result.game:
                    mine.append(result.game)

    def learn_all(self) -> None:
        self.names.clear()
        self.games.clear()
        self.spelled.clear()
        for result in sorted(self.results.values(), key=lambda r: (r.ended, r.game)):
            self.learn(result)

    def rate_all(self) -> None:
        self.ratings.clear()
        self.moves.clear()
        for result in self.ordered():
            self.rate(result)


@dataclass
class Ledger(Rater):
    """The results and ratings of every counted game, kept up to date with
    the box's store (``update``) and in ``players.db``."""
    path: str = ""
    _db: sqlite3.Connection | None = None

    @classmethod
    def beside(cls, database: str) -> Ledger:
        return cls(path=os.path.join(os.path.dirname(os.path.abspath(database)), FILE))

    def open(self) -> None:
        self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.executescript(SCHEMA)
        made_by = self._db.execute("SELECT value FROM meta WHERE key = 'rules'").fetchone()
        if made_by is None or made_by[0] != snapshot.fingerprint():
            # Results are the rules' summaries: other rules, other results.
            with self._db:
                self._db.execute("BEGIN IMMEDIATE")
                self._db.execute("DELETE FROM results")
                self._db.execute("DELETE FROM ratings")
                self._db.execute("INSERT OR REPLACE INTO meta VALUES ('rules', ?)", (snapshot.fingerprint(),))
        # The merges the stored ratings were counted with.
        counted_with = self._db.execute("SELECT value FROM meta WHERE key = 'aliases'").fetchone()
        self.aliases = json.loads(counted_with[0]) if counted_with else {}
        for _game, text in self._db.execute("SELECT game, result FROM results"):
            result = Result.from_json(text)
            self.results[result.game] = result
        self._load_ratings()

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    # --- keeping up with the box --------------------------------------------------

    def update(self, store: Store) -> int:
        """Takes in the games that ended (or changed) since the last look,
        and the merges as they are now; returns how many results were made."""
        if self._db is None:
            self.open()
        ended = store.ended_games()
        aliases = merging.aliases(store.merges())
        known = {g: r.ended for g, r in self.results.items()}
        gone = [g for g, when in known.items() if ended.get(g) != when]
        new = sorted((when, g) for g, when in ended.items() if known.get(g) != when)
        made = []
        for _when, game in new:
            row = store.game(game)
            if row is None:
                continue
            try:
                made.append(result_of(scorelog.game_entry(store, row)))
            except Exception:   # noqa: BLE001  a game the web cannot replay is left out, said once
                log.exception("players: game %d cannot be replayed; it is left out of the history", game)
        if not gone and not made and aliases == self.aliases:
            return 0
        last = max(((r.ended, r.game) for r in self.results.values() if r.counted), default=(0.0, 0))
        # Merges made or taken back: every game is counted again, as if the
        # names had always been one player (or always two).
        in_order = not gone and aliases == self.aliases and all((r.ended, r.game) > last for r in made)
        with self._db:
            self._db.execute("BEGIN IMMEDIATE")
            for game in gone:
                self.results.pop(game, None)
                self._db.execute("DELETE FROM results WHERE game = ?", (game,))
            for result in made:
                self.results[result.game] = result
                self._db.execute("INSERT OR REPLACE INTO results VALUES (?, ?, ?)",
                                 (result.game, result.ended, result.to_json()))
            if in_order:
                for result in made:
                    self._store(result, self.rate(result))
            else:
                self.aliases = aliases
                self._db.execute("INSERT OR REPLACE INTO meta VALUES ('aliases', ?)",
                                 (json.dumps(aliases, ensure_ascii=False),))
                self._db.execute("DELETE FROM ratings")
                self.ratings.clear()
                self.moves.clear()
                for result in self.ordered():
                    self._store(result, self.rate(result))
        if in_order:
            for result in made:
                self.learn(result)
        else:
            self.learn_all()
        return len(made)

    def _store(self, result: Result, made: list[tuple[str, float, float]]) -> None:
        self._db.executemany("INSERT OR REPLACE INTO ratings VALUES (?, ?, ?, ?)",
                             [(result.game, player, mu, sigma) for player, mu, sigma in made])

    def _load_ratings(self) -> None:
        by_game = {r.game: r for r in self.results.values()}
        rows = self._db.execute("SELECT game, player, mu, sigma FROM ratings").fetchall()
        for game, player, mu, sigma in sorted(rows, key=lambda row: (by_game[row[0]].ended, row[0])
                                              if row[0] in by_game else (0.0, row[0])):
            result = by_game.get(game)
            if result is not None:
                self.put(result, player, mu, sigma)
        self.learn_all()
