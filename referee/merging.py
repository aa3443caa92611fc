"""One person, one name: two names the table typed for one player merged
into one, and taken back.

The box's Settings show a QR code (``referee.box.flows.merging``) of a page,
``/M/<token>``, where a phone lists the players and merges one name into
another ("Ania K." becomes "Ania"), or takes a merge back.  As for the
setup's names page (``referee.setup_names``), the address is a capability: 128
random bits made when the QR code is shown, good while it is up; leaving
that screen, or a restart, ends it.

A merge is a row of the box's store (``Store.add_merge``), so it outlives a
power cut, and taking it back marks that row (``Store.undo_merge``).  The
box writes them, nothing else: the web asks for them here over
``referee.channel`` (ops ``merges.view``, ``merges.merge``,
``merges.undo``), and its players' ledger reads the merges in effect from
the store and counts every game again with them (``aliases``).

A player is a key as the web's ledger spells it (``referee.web.players.key``:
the name composed, spaces single, case folded).  Each key is merged into at
most one other, and never into one merged into it, however far along: the
merges form chains that end, and ``aliases`` follows each to its end.  Two
names that sat in one game are two people, never merged.  The box checks all
of it where it writes, in the write's own transaction (``Store.add_merge``):
the web's page checks it first only to say why in the players' names, and
two pages posting at once, each checked against the merges before the
other's, cannot join two people.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import hmac
import unicodedata

from games.base import Illegal, clean_name
from referee.store.events import Merge

if TYPE_CHECKING:
    from referee.box.coordinator import Box
    from referee.box.flows.merging import Merging

LONGEST_KEY = 200


def aliases(merges: list[Merge]) -> dict[str, str]:
    """Each merged key -> the key it is counted as now, at the end of its
    chain.  Taken oldest first; a row that could not hold (a cycle, a key
    merged twice: only a hand-edited store has one) is passed over."""
    into: dict[str, str] = {}
    for merge in merges:
        if merge.from_key in into or _end(into, merge.into_key) == merge.from_key:
            continue
        into[merge.from_key] = merge.into_key
    return {k: _end(into, k) for k in into}


def _end(into: dict[str, str], player: str) -> str:
    for _step in range(len(into) + 1):   # chains end: a cycle is never let in
        if player not in into:
            return player
        player = into[player]
    return player


def check(merges: list[Merge], from_key: str, into_key: str, seated=()) -> None:
    """Whether ``from_key`` may become ``into_key``; ``Illegal`` says why not.
    ``seated``: every game's names as ``(game, name)`` (``Store.seated``)."""
    for player in (from_key, into_key):
        if not _is_key(player):
            raise Illegal("No such player.")
    now = aliases(merges)
    into_end = now.get(into_key, into_key)
    if from_key == into_key or into_end == from_key:
        raise Illegal("A name cannot be merged into itself.")
    if from_key in now:
        raise Illegal("That name is already merged into another.")
    # Both players as they are counted now, each with every name merged
    # into it: one game with a name of each makes them two people.
    met: dict[int, dict[str, str]] = {}
    for game, name in seated:
        key = _key(name)
        if key is None:
            continue   # no name a player could be counted by
        player = now.get(key, key)
        if player in (from_key, into_end):
            met.setdefault(game, {}).setdefault(player, name)
            if len(met[game]) == 2:
                raise Illegal("{name} and {other} played in one game: they are two players.",
                              name=met[game][from_key], other=met[game][into_end])


def _is_key(text: str) -> bool:
    """Whether ``text`` is a player as the ledger spells one: what a name
    becomes composed, spaced and casefolded, where casefolding may add a
    combining mark no typed name holds ("İpek" becomes "i" and a dot above,
    then "pek")."""
    bare = "".join(c for c in text if not unicodedata.combining(c))
    return 0 < len(text) <= LONGEST_KEY and text.casefold() == text and bool(bare) and _key(bare) == bare


def _key(name: str) -> str | None:
    try:
        return clean_name(name).casefold()
    except Illegal:
        return None


# --- the page, while its QR code is up -----------------------------------------------------

def page_for(box: Box, token: str) -> Merging | None:
    """The flow showing the page ``token``'s QR code, while it is up."""
    page = box.flow.merge_page() if box.flow is not None else None
    if page is None or not hmac.compare_digest(page.merging.encode(), token.upper().encode()):
        return None
    return page


def open_token(box: Box) -> str | None:
    page = box.flow.merge_page() if box.flow is not None else None
    return page.merging if page is not None else None


def view(box, token: str) -> dict | None:
    """What the page needs from the box: its form guard and the merges in
    effect; None once its QR code is gone."""
    flow = page_for(box, token)
    if flow is None:
        return None
    return {"csrf": flow.merging_csrf,
            "merges": [{"id": m.id, "from": m.from_key, "into": m.into_key, "at": m.at}
                       for m in box.store.merges()]}


def merge(box, token: str, from_key: str, into_key: str) -> None:
    """``LookupError`` once the page is gone; ``Illegal`` for a merge that
    cannot be; ``store.Unsaved`` if the card refused it."""
    if page_for(box, token) is None:
        raise LookupError(token)
    box.store.add_merge(from_key, into_key, box.labels.now(),
                        check=lambda store: check(store.merges(), from_key, into_key, store.seated()))
    box.changed()


def undo(box, token: str, merge_id: int) -> None:
    if page_for(box, token) is None:
        raise LookupError(token)
    if not box.store.undo_merge(merge_id, box.labels.now()):
        raise Illegal("That merge was already taken back.")
    box.changed()
