"""Names that look alike: two players no page can tell apart.

Latin "Ania" and "Аnia" with a Cyrillic А are two players to the box, and
the same five pixels wide on every screen and page.  Unicode's security
data (UTS #39) says which characters look alike and which script each one
belongs to; the ``confusable_homoglyphs`` package ships both, and they are
read here from its data files:

- ``scripts``: the scripts of a name's letters (digits, spaces and
  punctuation are common to all).  A name of two scripts is refused by the
  box's name check (``referee.name_check``): nobody means one, it is a
  phone's keyboard switched in the middle of a word.
- ``skeleton``: a name with every character replaced by one chosen for all
  that look like it, so that two names look alike when their skeletons are
  equal (UTS #39's skeleton, up to which character stands for each set).
  The names page warns of a name that looks like another of tonight's and
  is not the same player (``look_alike``).

The files are read rather than the package's modules imported: those load
``urllib.request`` (7 MB the box has no other use for) and keep every
character's name in memory.  Both are read on first use and kept only for
the characters the panels can draw, the only ones a name can hold (about
3 MB of the web's memory once a name is compared).
"""
from __future__ import annotations

import functools
import json
import unicodedata
from bisect import bisect_right
from importlib import resources

from referee.panel_font import drawable

DATA = "confusable_homoglyphs"
NO_SCRIPT = frozenset({"COMMON", "INHERITED", "Unknown"})
MARKS = "\u200e\u200f"   # the data wraps right-to-left characters in direction marks


def _load(name: str, object_hook=None):
    return json.loads((resources.files(DATA) / name).read_bytes(), object_hook=object_hook)


def _alike(entry: dict):
    """A look-alike as the data has it, ``{"c": text, "n": its name}``, as
    its text alone: the names are never needed, and dropped as they are read."""
    return entry["c"].strip(MARKS) if entry.keys() == {"c", "n"} else entry


@functools.cache
def _scripts() -> tuple[list[int], list[tuple[int, str]]]:
    data = _load("categories.json")
    names = data["iso_15924_aliases"]
    ranges = [(first, last, names[script]) for first, last, script, _category in data["code_points_ranges"]]
    ranges.sort()
    return [r[0] for r in ranges], [(r[1], r[2]) for r in ranges]


def script(char: str) -> str:
    """The script of one character ("LATIN", "CYRILLIC", "COMMON"…)."""
    starts, ends = _scripts()
    at = bisect_right(starts, ord(char)) - 1
    if at < 0 or ord(char) > ends[at][0]:
        return "Unknown"
    return ends[at][1]


def scripts(name: str) -> dict[str, str]:
    """The scripts of ``name``'s letters, each with its first letter there."""
    found: dict[str, str] = {}
    for char in name:
        kind = script(char)
        if kind not in NO_SCRIPT:
            found.setdefault(kind, char)
    return found


@functools.cache
def _stand_ins() -> dict[str, str]:
    """Each drawable character that looks like another -> the text that
    stands for all that look like it."""
    parent: dict[str, str] = {}

    def root(node: str) -> str:
        while parent.get(node, node) != node:
            node = parent[node]
        return node

    for char, alike in _load("confusables.json", _alike).items():
        if len(char) != 1 or not drawable(char):
            continue
        for other in alike:
            a, b = root(char), root(other)
            if a != b:
                parent[max(a, b)] = min(a, b)
    groups: dict[str, list[str]] = {}
    for node in parent:
        groups.setdefault(root(node), []).append(node)
    stand_ins = {}
    for top, nodes in groups.items():
        nodes.append(top)
        single = min(n for n in nodes if len(n) == 1)
        # A set that holds a sequence ("rn" for "m") stands for it: the
        # sequence typed letter by letter must come out the same.
        several = sorted(n for n in nodes if len(n) > 1)
        for node in nodes:
            if len(node) == 1 and drawable(node):
                stand_ins[node] = several[0] if several else single
    singles = {c: s for c, s in stand_ins.items() if len(s) == 1}
    return {c: "".join(singles.get(x, x) for x in s) for c, s in stand_ins.items()}


def skeleton(name: str) -> str:
    """``name`` as it looks: two names that look alike have one skeleton."""
    stand_ins = _stand_ins()
    mapped = "".join(stand_ins.get(c, c) for c in unicodedata.normalize("NFD", name))
    return unicodedata.normalize("NFD", mapped)


def look_alike(name: str, others) -> str | None:
    """The first of ``others`` that looks like ``name`` without being the
    same player (the box compares names with case ignored)."""
    mine = {skeleton(name), skeleton(name.casefold())}
    for other in others:
        if other.casefold() != name.casefold() and mine & {skeleton(other), skeleton(other.casefold())}:
            return other
    return None
