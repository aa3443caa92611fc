"""One person, one player at every table: the boxes' merges, as the league
applies them.

A box merges two names its table typed for one person (``referee.merging``)
and publishes the merge with its games (``referee.club.messages.Merge``).
The league keeps every merge it takes, in the order it first took them,
and works out from them and the games' results which names it counts as
one player (``judge``).  What it works out is derived, never stored: at
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


def judge(merges: list[ClubMerge], results: dict[int, Result],
          tables_of: dict[int, str]) -> tuple[dict[str, str], list[Verdict]]:
    """The players' aliases (a key -> the key it counts as) and a verdict on
    each merge in effect, in the order given (the order the league took them)."""
    live = [m for m in merges if m.undone is None]
    if not live:
        return {}, []
    involved = {key(n) for m in live for n in (m.name, m.into)}
    sat: dict[str, dict[int, str]] = {}        # key -> result -> the name it sat as
    keys: dict[str, str] = {}                  # a name -> its key: a club's names repeat, game after game
    for rid, result in results.items():
        for side in result.sides:
            for name in side.players:
                k = keys.get(name) or keys.setdefault(name, key(name))
                if k in involved:
                    sat.setdefault(k, {}).setdefault(rid, name)
    into: dict[str, str] = {}
    by: dict[str, ClubMerge] = {}              # a merged key -> the merge that joined it
    verdicts = []
    for m in live:
        a, b = key(m.name), key(m.into)
        end_a, end_b = _end(into, a), _end(into, b)
        if end_a == end_b:
            verdicts.append(Verdict(m, True))
            continue
        if a in into:
            verdicts.append(Verdict(m, False, "merged", m.name, by[a].into, by[a].table))
            continue
        met = _met(sat, _group(into, involved, end_a), _group(into, involved, end_b))
        if met is not None:
            rid, mine, theirs = met
            verdicts.append(Verdict(m, False, "played", mine, theirs, tables_of.get(rid, "")))
            continue
        into[a], by[a] = b, m
        verdicts.append(Verdict(m, True))
    return {k: _end(into, k) for k in into}, verdicts


def _end(into: dict[str, str], player: str) -> str:
    while player in into:      # chains end: a merge that would close a circle is never let in
        player = into[player]
    return player


def _group(into: dict[str, str], involved: set[str], end: str) -> set[str]:
    return {k for k in involved if _end(into, k) == end} | {end}


def _met(sat: dict[str, dict[int, str]], one: set[str], other: set[str]) -> tuple[int, str, str] | None:
    """A game where a name of each group sat, and the two names, if any."""
    mine = {rid: name for k in one for rid, name in sat.get(k, {}).items()}
    for k in other:
        for rid, name in sat.get(k, {}).items():
            if rid in mine:
                return rid, mine[rid], name
    return None


# --- what the pages show ---------------------------------------------------------------------------

def shown(verdicts: list[Verdict]) -> list[dict]:
    """The merges in effect for the league's page and its JSON: those not
    applied first, each saying why."""
    rows = [{"table": v.merge.table, "name": v.merge.name, "into": v.merge.into, "joined": v.joined,
             "why": v.why or None, "about": v.name or None, "other": v.other or None, "where": v.where or None,
             "text": v.text()}
            for v in verdicts]
    return sorted(rows, key=lambda row: row["joined"])


def joined_line(verdicts: list[Verdict], aliases: dict[str, str], player: str) -> str:
    """The player's page's one line on which tables' names were joined into
    it, or "" when none were."""
    mine = [v.merge for v in verdicts if v.joined
            and aliases.get(key(v.merge.name), key(v.merge.name)) == player]
    if not mine:
        return ""
    return _("Names joined at the club's tables: {merges}").format(
        merges="; ".join(f"{m.name} → {m.into} ({m.table})" for m in mine))
