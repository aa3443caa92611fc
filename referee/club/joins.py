"""One person, one player at every table: the boxes' merges, as the league
applies them.

A box merges two names its table typed for one person (``referee.merging``)
and publishes the merge with its games (``referee.club.messages.Merge``).
The league keeps every merge it takes, in the order it first took them,
and works out from them and the games' results which names it counts as
one player (``Joins``).  What it works out is derived, never stored: at
start, and again on every merge, undo and result.

Two boxes may disagree.  Taken in the order the league took them, a merge
is not applied, and the league's page says why, when

- its name already counts as another player through an earlier merge
  (merged into "Anna" at one table, then into "Ola" at another): a name is
  one person, and the first merge the league took stands;
- the two players, each with every name joined to it, sat in one game at
  any table: they are two people (as a box refuses such a merge of its own
  names, ``referee.merging.check``).

A merge of two names that are one player already (the same merge made at
two tables, or one the other way round) agrees, and counts as joined.  An
undo takes its merge out, and a merge it held back may then apply: every
verdict is worked out again from the merges in effect.
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from referee.i18n import _
from referee.web.players import Result, key


@dataclass(frozen=True)
class ClubMerge:
    """A merge as a box sent it: at ``table``, ``name`` counts as ``into``."""
    table: str
    id: int
    name: str
    into: str
    at: float
    undone: float | None = None


@dataclass(frozen=True)
class Verdict:
    merge: ClubMerge
    joined: bool
    why: str = ""        # not joined: "merged" (its name counts as another) or "played" (they met in a game)
    name: str = ""       # the name it is about: the merged one, or the one that sat in that game
    other: str = ""      # the player that name counts as, or the name it met there
    where: str = ""      # the table of that merge, or of that game

    def text(self) -> str:
        """What the league's page says of a merge not applied."""
        if self.why == "merged":
            return _("Not joined: {name} already counts as {other} (merged at {table}).").format(
                name=self.name, other=self.other, table=self.where)
        if self.why == "played":
            return _("Not joined: {name} and {other} played in one game at {table}: they are two players.").format(
                name=self.name, other=self.other, table=self.where)
        return ""


class Joins:
    """The merges as the league took them, each judged once as it comes.

    The names a merge joins are a union-find group: each group has the key
    it counts as (its end) and the games any of its names sat in (result ->
    the name it sat as), so a merge is judged by two finds and a look at the
    smaller group's games, and joined by linking the smaller group under the
    larger: a message costs what it changes, not a judge of every merge
    again (chained merges judged anew each time took minutes by the
    hundred).  Only what can change a verdict already given is worked out
    again from all the merges (``Joins(...)``: an undo of a merge that
    joined, a game taken back or changed, a game where two joined names
    sat together), which the union-find makes a matter of milliseconds for
    thousands of merges.

    Nothing here changes until asked: ``judged``, ``fits`` and
    ``changes_nothing`` only look, ``take``, ``drop`` and ``seat`` change, so that the league changes what it holds
    only once its database has the change."""

    def __init__(self, merges=(), results: dict[int, Result] | None = None,
                 tables_of: dict[int, str] | None = None) -> None:
        self.merges: dict[tuple[str, int], ClubMerge] = {}    # every merge, in the order taken
        self.verdicts: dict[tuple[str, int], Verdict] = {}    # on each merge in effect, in the same order
        self.aliases = Aliases(self)
        self.tables_of = tables_of if tables_of is not None else {}
        self._seats: dict[str, dict[int, str]] = {}   # a key -> the games it sat in -> the name it sat as
        self._last = 0                                # the latest result seated
        self._parent: dict[str, str] = {}             # the union-find: keys of a group of two or more
        self._size: dict[str, int] = {}               # a group's root -> its keys
        self._end: dict[str, str] = {}                # a group's root -> the key its names count as
        self._sat: dict[str, dict[int, str]] = {}     # a group's root -> its games -> the name that sat
        self._by: dict[str, ClubMerge] = {}           # a merged key -> the merge that joined it
        self._keys: dict[str, str] = {}               # a name -> its key: a club's names repeat
        for rid, result in sorted((results or {}).items()):
            self.seat(rid, result)
        for merge in merges:
            self.take(merge, self.judged(merge) if merge.undone is None else None)

    # --- looking ------------------------------------------------------------------------------

    def key(self, name: str) -> str:
        k = self._keys.get(name)
        if k is None:
            k = self._keys[name] = key(name)
        return k

    def end(self, k: str) -> str:
        """The key ``k`` counts as now."""
        root = self._find(k)
        return self._end.get(root, root)

    def judged(self, merge: ClubMerge) -> Verdict:
        """The verdict on ``merge`` taken after every merge so far."""
        a, b = self.key(merge.name), self.key(merge.into)
        root_a, root_b = self._find(a), self._find(b)
        if root_a == root_b:
            return Verdict(merge, True)
        if a in self._by:
            by = self._by[a]
            return Verdict(merge, False, "merged", merge.name, by.into, by.table)
        mine, theirs = self._games(root_a), self._games(root_b)
        small, large = (mine, theirs) if len(mine) <= len(theirs) else (theirs, mine)
        met = min((rid for rid in small if rid in large), default=None)
        if met is not None:
            return Verdict(merge, False, "played", mine[met], theirs[met], self.tables_of.get(met, ""))
        return Verdict(merge, True)

    def joins(self, verdict: Verdict) -> bool:
        """Whether taking ``verdict`` joins two players one of whom sat in a
        game (the players and ratings must then be counted again)."""
        if not verdict.joined:
            return False
        a, b = self.key(verdict.merge.name), self.key(verdict.merge.into)
        root_a = self._find(a)
        return root_a != self._find(b) and bool(self._games(root_a))

    def after(self, verdict: Verdict) -> Mapping[str, str]:
        """The aliases as they will be once ``verdict`` is taken."""
        return _Pending(self, verdict) if verdict.joined else self.aliases

    def fits(self, rid: int, result: Result) -> bool:
        """Whether a new game can be seated without judging again: it ended
        up no verdict (no two of its names are one player), and it comes
        after every game seated (so the earliest game two names met in,
        which a verdict names, stays the same)."""
        if rid <= self._last:
            return False
        seen: dict[str, str] = {}        # a group's root -> the key of it that sat here
        for side in result.sides:
            for name in side.players:
                k = self.key(name)
                if k in self._parent and seen.setdefault(self._find(k), k) != k:
                    return False
        return True

    # --- changing ------------------------------------------------------------------------------

    def take(self, merge: ClubMerge, verdict: Verdict | None) -> None:
        """``merge`` stored after every one so far, with ``judged``'s
        verdict on it (None: it came undone)."""
        self.merges[(merge.table, merge.id)] = merge
        if verdict is None:
            return
        self.verdicts[(merge.table, merge.id)] = verdict
        a, b = self.key(merge.name), self.key(merge.into)
        root_a, root_b = self._find(a), self._find(b)
        if not verdict.joined or root_a == root_b:
            return
        self._by[a] = merge
        end = self._end.get(root_b, root_b)
        games = {**self._games(root_a)} if root_a not in self._sat else self._sat.pop(root_a)
        others = {**self._games(root_b)} if root_b not in self._sat else self._sat.pop(root_b)
        for root in (root_a, root_b):
            if root not in self._parent:
                self._parent[root], self._size[root] = root, 1
        small, large = sorted((root_a, root_b), key=lambda r: self._size[r])
        self._parent[small] = large
        self._size[large] += self._size.pop(small)
        self._end.pop(small, None)
        self._end[large] = end
        if len(games) > len(others):
            games, others = others, games
        for rid, name in games.items():
            others.setdefault(rid, name)
        self._sat[large] = others

    def changes_nothing(self, merge: ClubMerge) -> bool:
        """Whether ``merge``, an undo of one taken, changes no other verdict:
        the one it takes back joined nothing (it was refused, or its two
        names were one player already).  Otherwise every merge must be
        judged again."""
        was = self.merges.get((merge.table, merge.id))
        return (was is not None and merge.undone is not None and (merge.name, merge.into) == (was.name, was.into)
                and self._by.get(self.key(was.name)) is not was)

    def drop(self, merge: ClubMerge) -> None:
        """Takes an undo ``changes_nothing`` said changes nothing."""
        self.merges[(merge.table, merge.id)] = merge
        self.verdicts.pop((merge.table, merge.id), None)

    def seat(self, rid: int, result: Result) -> None:
        """A game ended (after ``fits`` said it may be seated)."""
        self._last = max(self._last, rid)
        for side in result.sides:
            for name in side.players:
                k = self.key(name)
                self._seats.setdefault(k, {}).setdefault(rid, name)
                if k in self._parent:
                    self._sat[self._find(k)].setdefault(rid, name)

    # --- the union-find ------------------------------------------------------------------------

    def _find(self, k: str) -> str:
        parent = self._parent
        if k not in parent:
            return k
        while parent[k] != k:
            parent[k] = parent[parent[k]]      # halving the path as it goes
            k = parent[k]
        return k

    def _games(self, root: str) -> dict[int, str]:
        """A group's games: its own once it is a group of two or more, else its one key's."""
        return self._sat[root] if root in self._sat else self._seats.get(root, {})


class Aliases(Mapping[str, str]):
    """Each merged key -> the key it counts as now, at the end of its
    chain: a view of the joins, never copied."""

    def __init__(self, joins: Joins) -> None:
        self._joins = joins

    def __getitem__(self, k: str) -> str:
        if k not in self._joins._by:
            raise KeyError(k)
        return self._joins.end(k)

    def __contains__(self, k: object) -> bool:
        return k in self._joins._by

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._joins._by))

    def __len__(self) -> int:
        return len(self._joins._by)

    def __deepcopy__(self, memo) -> Aliases:
        return self      # the league's one view: a copy of the players rates on the same joins


class _Pending(Aliases):
    """The aliases once a joining verdict is taken, before it is."""

    def __init__(self, joins: Joins, verdict: Verdict) -> None:
        super().__init__(joins)
        self._merged = joins.key(verdict.merge.name)
        self._root = joins._find(self._merged)
        self._into = joins.end(joins.key(verdict.merge.into))

    def __getitem__(self, k: str) -> str:
        if k == self._merged or (k in self._joins._by and self._joins._find(k) == self._root):
            return self._into
        return super().__getitem__(k)

    def __contains__(self, k: object) -> bool:
        return k == self._merged or super().__contains__(k)

    def __iter__(self) -> Iterator[str]:
        return iter([*self._joins._by, self._merged])

    def __len__(self) -> int:
        return len(self._joins._by) + 1


# --- what the pages show ---------------------------------------------------------------------------

def shown(verdicts: list[Verdict]) -> list[dict]:
    """The merges in effect for the league's page and its JSON: those not
    applied first, each saying why."""
    rows = [{"table": v.merge.table, "name": v.merge.name, "into": v.merge.into, "joined": v.joined,
             "why": v.why or None, "about": v.name or None, "other": v.other or None, "where": v.where or None,
             "text": v.text()}
            for v in verdicts]
    return sorted(rows, key=lambda row: row["joined"])


def joined_line(verdicts: list[Verdict], aliases: Mapping[str, str], player: str) -> str:
    """The player's page's one line on which tables' names were joined into
    it, or "" when none were."""
    mine = [v.merge for v in verdicts if v.joined
            and aliases.get(key(v.merge.name), key(v.merge.name)) == player]
    if not mine:
        return ""
    return _("Names joined at the club's tables: {merges}").format(
        merges="; ".join(f"{m.name} → {m.into} ({m.table})" for m in mine))
