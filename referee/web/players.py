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
import stat
import time
import zlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Protocol

from games.base import clean_name
from referee import catalogue, merging
from referee.files import CARD, Unsound, card_fault, check_sound
from referee.setup_names import is_default
from referee.store import scorelog, snapshot
from referee.store.events import Store
from referee.store.scorelog import Entry
from referee.store.writes import transaction

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

# Each row carries a check of its values (``_check``), and meta's 'rows'
# the number of rows each table held at the last commit: a flipped byte
# inside a value, or a row gone, which SQLite's own check passes, is found
# when the file is opened, and the file is counted again, never trusted.
TABLES = ("""
CREATE TABLE IF NOT EXISTS results (
    game   INTEGER PRIMARY KEY,      -- the box's game id
    ended  REAL NOT NULL,            -- as the box's games row says: a change means the game changed
    result TEXT NOT NULL,            -- Result as JSON
    "check" INTEGER NOT NULL
)""", """
CREATE TABLE IF NOT EXISTS ratings (
    game   INTEGER NOT NULL,         -- the result that moved it
    player TEXT NOT NULL,            -- a player's key (``key``)
    mu     REAL NOT NULL,
    sigma  REAL NOT NULL,
    "check" INTEGER NOT NULL,
    PRIMARY KEY (game, player)
)""", "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT)")


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
    started: float = 0.0          # when the game began (time played)

    def to_json(self) -> str:
        return json.dumps(dataclasses.asdict(self), ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str) -> Result:
        data = json.loads(text)
        data["sides"] = tuple(Side(tuple(s["players"]), s["rank"], s["score"], s["won"]) for s in data["sides"])
        made = cls(**data)
        if not (isinstance(made.game, int) and isinstance(made.name, str)
                and all(isinstance(t, (int, float)) for t in (made.ended, made.started))
                and all(isinstance(p, str) for side in made.sides for p in side.players)):
            raise ValueError(f"result {text[:40]!r} is not a result")
        return made


class Facts(Protocol):
    """What a result says of the game: the box's entry, or what the league keeps of it."""
    @property
    def id(self) -> int: ...
    @property
    def game(self) -> str: ...
    @property
    def started(self) -> float: ...
    @property
    def ended(self) -> float | None: ...
    @property
    def status(self) -> str: ...


class Scores(Protocol):
    """What a result reads of a game's summary: the box's, or what the league keeps of it."""
    @property
    def players(self) -> list[str]: ...
    @property
    def members(self) -> dict[str, list[str]]: ...
    @property
    def totals(self) -> dict[str, int]: ...
    @property
    def winners(self) -> list[str]: ...
    @property
    def finishing_order(self) -> list[str]: ...
    @property
    def scored(self) -> bool: ...


def result_of(entry: Entry) -> Result:
    """A finished game's result, from its score-log entry."""
    return result_from(entry, entry.summary)


def result_from(facts: Facts, summary: Scores) -> Result:
    """A finished game's result, from its facts and its summary's scores."""
    game, name, ended = facts.id, facts.game, facts.ended or 0.0
    started = facts.started
    members = summary.members
    totals = summary.totals
    winners = set(summary.winners)
    order = summary.finishing_order
    sides = []
    for seat in summary.players:
        named = tuple(n for n in (members.get(seat) or [seat]) if not is_default(n))
        total = totals.get(seat)
        sides.append((named, seat in winners, total if isinstance(total, (int, float)) else 0, seat))
    ranked = _ranks(sides, order)
    # Decrypto's totals are tokens, a single Da Vinci Code game's a win: no points
    points = name in catalogue.GAMES and catalogue.GAMES[name].points and summary.scored
    kept = tuple(Side(named, rank, float(total) if points else None, won)
                 for (named, won, total, _seat), rank in zip(sides, ranked) if named)
    seats = len(sides)   # an unnamed seat still took a place: "3. of 3", not "3. of 2"
    if facts.status != "finished":
        return Result(game, name, ended, kept, False, "ended early", seats, started)
    if len(kept) < 2:
        return Result(game, name, ended, kept, False, "no names" if not kept else "one named player", seats, started)
    return Result(game, name, ended, kept, True, seats=seats, started=started)


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


class History(dict):
    """game name -> player -> ``(ended, game, mu, sigma)`` after each of the
    player's results, in the order rated.  A copy (the league rates each new
    game on one) shares the entries, which never change: only the lists
    grow."""

    def __deepcopy__(self, memo) -> History:
        return History({game: {player: list(entries) for player, entries in players.items()}
                        for game, players in self.items()})


@dataclass
class Rater:
    """Ratings and who played what, from results taken in the order their
    games ended (``take``), with the players' merges (``aliases``: a key ->
    the key it counts as).  The box's web keeps one in ``Ledger``; the
    league one over every table's games (``referee.club.league``)."""
    aliases: Mapping[str, str] = field(default_factory=dict)   # the league's: a view of its joins
    results: dict[int, Result] = field(default_factory=dict)
    ratings: dict[tuple[str, str], Rating] = field(default_factory=dict)    # (game name, player) -> now
    moves: dict[tuple[int, str], tuple[float, float]] = field(default_factory=dict)  # (game, player) -> mu before, after
    names: dict[str, str] = field(default_factory=dict)                    # player -> the name shown
    games: dict[str, list[int]] = field(default_factory=dict)              # player -> their results, in order
    spelled: dict[str, str] = field(default_factory=dict)                  # a name's key -> its latest spelling
    history: History = field(default_factory=History)    # the ladders' seasons are read from it

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
            players = []
            for p in map(self.who, side.players):
                if p not in seen:
                    seen.add(p)
                    players.append(p)
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
        self.history.setdefault(result.name, {}).setdefault(player, []).append((result.ended, result.game, mu, sigma))

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
        self.history.clear()
        for result in self.ordered():
            self.rate(result)


SAID = {"counted": True}   # see referee.logs
RETRY_SECONDS = 2.0   # between tries to write players.db again, while it cannot be


@dataclass
class Ledger(Rater):
    """The results and ratings of every counted game, kept up to date with
    the box's store (``update``) and in ``players.db``.

    ``players.db`` is derived from the box's store and nothing else, so no
    fault of it may cost a page: whatever is found at its path that is not
    a database this code reads (damaged bytes, a FIFO, a link, a folder)
    is set aside as ``players.db.damaged-<time>`` with one log line and
    the results are counted again from the store; a card that cannot take
    the writes (full, read-only) leaves the ledger counting in memory,
    said once, and players.db is written whole again once it can be."""
    path: str = ""
    _db: sqlite3.Connection | None = None
    _opened: bool = False
    _file: tuple | None = None            # players.db's (device, inode) as opened
    _rows: dict = field(default_factory=dict)     # (game, player) -> (mu, sigma): the ratings table's rows
    unsaved: bool = False                 # the ledger is ahead of players.db, which could not be written
    _tried: float | None = None           # when players.db was last tried again (the caller's clock)
    # Counts the changes of what the ledger holds: the players' pages are
    # kept while it stays (a move at the table changes the store, not them).
    changes: int = 0

    @classmethod
    def beside(cls, database: str) -> Ledger:
        return cls(path=os.path.join(os.path.dirname(os.path.abspath(database)), FILE))

    def put(self, result: Result, player: str, mu: float, sigma: float) -> None:
        super().put(result, player, mu, sigma)
        self._rows[(result.game, player)] = (mu, sigma)

    def rate_all(self) -> None:
        self._rows.clear()
        super().rate_all()

    def stale(self, now: float) -> bool:
        """Whether players.db wants another look though the store has not
        changed: it could not be written and may be now, or it was
        replaced or removed under the web."""
        if self.unsaved:
            return self._tried is None or now - self._tried >= RETRY_SECONDS
        return self._db is not None and self._identity() != self._file

    @property
    def _conn(self) -> sqlite3.Connection:
        """players.db, while connected: each reader and writer connects
        first, and one that finds it closed fails as the file would."""
        if self._db is None:
            raise sqlite3.OperationalError(f"{FILE} is not open")
        return self._db

    def open(self) -> None:
        """Takes in what players.db holds, or sets it aside (see the class)."""
        self.close()
        self._forget()
        self._opened = True
        try:
            self._connect_fit()
            check_sound(self._conn, FILE)
            self._load()
        except (sqlite3.Error, OSError, ValueError, KeyError, TypeError) as exc:
            self.close()
            self._forget()
            if card_fault(exc):
                self._cannot_write(exc)
                return
            self._set_aside(_said(exc))
            try:
                self._connect()
                # The new file's rules and form, as at a first start: without
                # them the next start would count every game again.
                self._load()
            except (sqlite3.Error, OSError, ValueError) as again:
                self.close()
                self._cannot_write(again)

    def _connect_fit(self) -> None:
        """Connects to players.db, set aside first if what stands at its
        path is no file SQLite should open."""
        unfit = self._unfit()
        if unfit:
            self._set_aside(unfit)
        self._connect()

    def _connect(self) -> None:
        db = self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self._file = self._identity()
        db.execute("PRAGMA journal_mode=WAL")
        for table in TABLES:
            db.execute(table)

    def _load(self) -> None:
        made_by = self._conn.execute("SELECT value FROM meta WHERE key = 'rules'").fetchone()
        if made_by is None or made_by[0] != _made_by():
            # Results are the rules' summaries: other rules, other results
            # (and another form of the file: its tables are made anew).
            with transaction(self._conn):
                self._conn.execute("DROP TABLE results")
                self._conn.execute("DROP TABLE ratings")
                for table in TABLES:
                    self._conn.execute(table)
                self._conn.execute("INSERT OR REPLACE INTO meta VALUES ('rules', ?)", (_made_by(),))
                self._count_rows()
        # The merges the stored ratings were counted with.
        counted_with = self._conn.execute("SELECT value FROM meta WHERE key = 'aliases'").fetchone()
        self.aliases = json.loads(counted_with[0]) if counted_with else {}
        if not (isinstance(self.aliases, dict) and all(isinstance(v, str) for v in self.aliases.values())):
            raise ValueError("the merges it was counted with are not merges")
        counted = self._conn.execute("SELECT value FROM meta WHERE key = 'rows'").fetchone()
        results = self._conn.execute('SELECT game, ended, result, "check" FROM results').fetchall()
        ratings = self._conn.execute('SELECT game, player, mu, sigma, "check" FROM ratings').fetchall()
        if counted is None or counted[0] != json.dumps([len(results), len(ratings)]):
            raise Unsound(f"{FILE} does not hold the rows it was written with")
        for *values, check in (*results, *ratings):
            if check != _check(*values):
                raise Unsound(f"a row of {FILE} is not the one written (game {values[0]!r})")
        for _game, _ended, text in (row[:3] for row in results):
            result = Result.from_json(text)
            self.results[result.game] = result
        self._load_ratings(row[:4] for row in ratings)

    def _identity(self) -> tuple | None:
        try:
            st = os.lstat(self.path)
        except OSError:
            return None
        return st.st_dev, st.st_ino

    def _unfit(self) -> str:
        """Why what stands at players.db (or its -wal, -shm) cannot be
        opened as a database without risk (a FIFO or a link to one would
        hold the opening thread for good, a link to /dev/zero reads as
        endless zeros); "" when nothing there, or regular files."""
        for suffix in ("", "-wal", "-shm"):
            try:
                mode = os.lstat(self.path + suffix).st_mode
            except FileNotFoundError:
                continue
            if not stat.S_ISREG(mode):
                kind = ("a folder" if stat.S_ISDIR(mode) else "a link" if stat.S_ISLNK(mode) else
                        "a FIFO" if stat.S_ISFIFO(mode) else "not a regular file")
                return f"{FILE}{suffix} is {kind}"
        return ""

    def _set_aside(self, why: str) -> None:
        from referee.store.salvage import set_aside
        try:
            aside = set_aside(self.path, time.time())
        except OSError as exc:
            raise OSError(exc.errno, f"{why}, and it cannot be set aside: {exc.strerror}") from None
        # One line a file set aside, or a change of the card's state: each is
        # said (the journal's flood guard would hold back a second within
        # the minute, though it is another file).
        log.warning("players: %s: set aside as %s; the players' pages are counted again from the score log",
                    why, os.path.basename(aside), extra=SAID)

    def _cannot_write(self, exc: BaseException) -> None:
        if not self.unsaved:
            log.warning("players: %s cannot be written (%s): the players' pages are counted in memory "
                        "until it can be", FILE, _said(exc), extra=SAID)
        self.unsaved = True

    def _forget(self) -> None:
        self.changes += 1
        self.aliases = {}
        for kept in (self.results, self.ratings, self.moves, self.names, self.games, self.spelled,
                     self.history, self._rows):
            kept.clear()

    def _write_again(self, now: float | None) -> None:
        """players.db written whole from the ledger, once the card lets it."""
        self._tried = now
        try:
            self._connect_fit()
            try:
                check_sound(self._conn, FILE)
                self._save_all()
            except (sqlite3.DatabaseError, Unsound) as exc:
                if card_fault(exc):
                    raise
                self.close()
                self._set_aside(_said(exc))
                self._connect()
                self._save_all()
        except (sqlite3.Error, OSError) as exc:
            self.close()
            if not card_fault(exc):
                log.warning("players: %s cannot be written again: %s", FILE, _said(exc))
            return
        self.unsaved = False
        log.info("players: %s is written again", FILE, extra=SAID)

    def _save_all(self) -> None:
        with transaction(self._conn):
            self._conn.execute("DELETE FROM results")
            self._conn.execute("DELETE FROM ratings")
            self._conn.executemany("INSERT INTO results VALUES (?, ?, ?, ?)",
                                 [_checked(r.game, r.ended, r.to_json()) for r in self.results.values()])
            self._conn.executemany("INSERT INTO ratings VALUES (?, ?, ?, ?, ?)",
                                 [_checked(game, player, mu, sigma)
                                  for (game, player), (mu, sigma) in self._rows.items()])
            self._conn.execute("INSERT OR REPLACE INTO meta VALUES ('rules', ?)", (_made_by(),))
            self._conn.execute("INSERT OR REPLACE INTO meta VALUES ('aliases', ?)",
                             (json.dumps(self.aliases, ensure_ascii=False),))
            self._count_rows()

    def _count_rows(self) -> None:
        """meta's 'rows', in the transaction that changed them."""
        rows = [self._conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0] for table in ("results", "ratings")]
        self._conn.execute("INSERT OR REPLACE INTO meta VALUES ('rows', ?)", (json.dumps(rows),))

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    # --- keeping up with the box --------------------------------------------------

    def update(self, store: Store, now: float | None = None) -> int:
        """Takes in the games that ended (or changed) since the last look,
        and the merges as they are now; returns how many results were made.
        The ledger in memory changes first: players.db follows it, or is
        written whole again later (``now``: the caller's clock, for that)."""
        if not self._opened or (self._db is not None and self._identity() != self._file):
            self.open()    # the first look, or players.db replaced or removed under the web
        elif self.unsaved and (now is None or self.stale(now)):
            self._write_again(now)
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
        self.changes += 1
        last = max(((r.ended, r.game) for r in self.results.values() if r.counted), default=(0.0, 0))
        # Merges made or taken back: every game is counted again, as if the
        # names had always been one player (or always two).
        in_order = not gone and aliases == self.aliases and all((r.ended, r.game) > last for r in made)
        for game in gone:
            self.results.pop(game, None)
        for result in made:
            self.results[result.game] = result
        if in_order:
            rated = [(result, self.rate(result)) for result in made]
            for result in made:
                self.learn(result)
        else:
            self.aliases = aliases
            self.rate_all()
            self.learn_all()

        if self._db is not None:
            try:
                self._write(gone, made, rated if in_order else None)
            except sqlite3.Error as exc:
                self.close()
                why: BaseException = exc
                if not card_fault(exc):
                    try:
                        self._set_aside(_said(exc))
                    except OSError as stuck:    # said with the reason it could not be set aside
                        why = stuck
                self._cannot_write(why)
        return len(made)

    def _write(self, gone: list[int], made: list[Result], rated: list | None) -> None:
        """players.db brought level with the ledger: the results that went
        and came, and the ratings they made (``rated``), or all of them."""
        with transaction(self._conn):
            self._conn.executemany("DELETE FROM results WHERE game = ?", [(game,) for game in gone])
            self._conn.executemany("INSERT OR REPLACE INTO results VALUES (?, ?, ?, ?)",
                                 [_checked(r.game, r.ended, r.to_json()) for r in made])
            if rated is None:
                self._conn.execute("INSERT OR REPLACE INTO meta VALUES ('aliases', ?)",
                                 (json.dumps(self.aliases, ensure_ascii=False),))
                self._conn.execute("DELETE FROM ratings")
                rows = [(game, player, mu, sigma) for (game, player), (mu, sigma) in self._rows.items()]
            else:
                rows = [(result.game, player, mu, sigma) for result, ratings in rated for player, mu, sigma in ratings]
            self._conn.executemany("INSERT OR REPLACE INTO ratings VALUES (?, ?, ?, ?, ?)",
                                 [_checked(*row) for row in rows])
            self._count_rows()

    def _load_ratings(self, rows) -> None:
        by_game = {r.game: r for r in self.results.values()}
        for game, player, mu, sigma in sorted(rows, key=lambda row: (by_game[row[0]].ended, row[0])
                                              if row[0] in by_game else (0.0, row[0])):
            result = by_game.get(game)
            if not (isinstance(player, str) and all(isinstance(v, (int, float)) for v in (mu, sigma))):
                raise ValueError(f"a rating of game {game} is not a rating")
            if result is not None:
                self.put(result, player, mu, sigma)
        self.learn_all()


# What a result holds, and the file's form: results kept before it held
# the game's start (2), or before its rows carried checks (3), are worked
# out again.
RESULTS = "3"


def _check(*values) -> int:
    """A row's check: CRC-32 of its values as written (numbers as floats,
    as SQLite's REAL columns give them back)."""
    said = "\x1f".join(repr(float(v)) if isinstance(v, (int, float)) and not isinstance(v, bool) else str(v)
                       for v in values)
    return zlib.crc32(said.encode())


def _checked(*values) -> tuple:
    return (*values, _check(*values))


def _made_by() -> str:
    """The rules and the results' form players.db was counted with."""
    return f"{snapshot.fingerprint()}/{RESULTS}"


def _said(exc: BaseException) -> str:
    if isinstance(exc, Unsound):
        return str(exc)
    if isinstance(exc, sqlite3.Error):
        code = getattr(exc, "sqlite_errorcode", 0) & 0xFF
        return CARD.get(code) or str(exc)
    return f"{type(exc).__name__}: {exc}"

