"""What the score-log pages show, as plain data for the templates, in the
box's language.

A *card* is one game on the evening page; a *sheet* is one game's rounds as
the paper score sheet has them, with a line of details per round; ``now`` is
one line saying where a game in progress stands.  Cards and sheets read a
game's score-log entry (its rules' ``summary``, through ``referee.store.scorelog``)
and ``now`` reads its rules' ``public`` view: nothing here ever sees a secret.
A game's own lines (``details`` of a round, ``now``) are in its web module
(``referee.web.<game>``, named by ``referee.catalogue``).
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from babel.dates import format_date

from games.base import Round, View
from referee import account, catalogue, i18n
from referee.i18n import N_, _
from referee.store.scorelog import Entry

STATUS = {"playing": N_("Playing"), "finished": N_("Finished"), "abandoned": N_("Abandoned")}
# The English the pages have always written: "Sunday, 22 November 2026".
LOCALES = {"en": "en_GB"}


title = catalogue.title


# A player's or team's name as the pages show it.
side = account.name_of


def local(ts: float) -> dt.datetime:
    return dt.datetime.fromtimestamp(ts)


def clock(ts: float) -> str:
    return local(ts).strftime("%H:%M")


def long_date(day: dt.date) -> str:
    return format_date(day, "full", locale=LOCALES.get(i18n.lang, i18n.lang))


def duration(entry: Entry) -> str:
    """How long a game took, once it is over ("" while it is played)."""
    if entry.ended is None:
        return ""
    minutes = max(0, round((entry.ended - entry.started) / 60))
    if minutes == 0:
        return _("under a minute")
    if minutes >= 60:
        return _("{hours} h {minutes:02d} min").format(hours=minutes // 60, minutes=minutes % 60)
    return _("{minutes} min").format(minutes=minutes)


@dataclass(frozen=True)
class Standing:
    name: str
    total: int | float
    winner: bool
    goal: int | None = None   # what wins, where the sides race to different marks
    # The tokens that decide, in words, where the game's web module counts
    # them (``tokens(entry)``) and the total would say nothing.
    tokens: str = ""
    members: tuple[str, ...] = ()   # a team's players, as the table named them


def standings(entry: Entry) -> list[Standing]:
    """The players in seat order with their totals; winners once it is
    over.  Where sides race to different marks each total is shown with its
    goal: "2, 2" alone would not say who won."""
    s = entry.summary
    winners = set(s.winners) if entry.status == "finished" else set()
    held = token_words(entry)
    return [Standing(side(entry.game, name), s.totals.get(name, 0), name in winners, s.goals.get(name),
                     held.get(name, ""), tuple(s.members.get(name) or ()))
            for name in s.players]


def token_words(entry: Entry) -> dict[str, str]:
    """Each side's tokens in words, where the game's web module counts
    tokens rather than points (``tokens``); {} for the rest."""
    said = catalogue.hook(entry.game, "web", "tokens")
    return said(entry) if said is not None else {}


def token_sheet(entry: Entry):
    """The sheet of tokens a game's web module lays out instead of points
    (``token_sheet``: its rows and the rule said under them); None where it
    has none."""
    said = catalogue.hook(entry.game, "web", "token_sheet")
    return said(entry) if said is not None else None


def verdict(entry: Entry) -> str:
    """The result in words: who won, or why nobody has."""
    winners = [side(entry.game, name) for name in entry.summary.winners]
    if entry.status == "playing":
        return _("In progress")
    # The account's words (``referee.account``), as the replay's last step and
    # the table view say it: a game the box closed before its end was stopped
    # ("Ended early: nobody wins"), never a word of its own.
    return account.result(winners, True, entry.summary.stopped or entry.status == "abandoned")


def reason(entry: Entry) -> str:
    """Why the game ended, where its web module says (Decrypto's tie-breaks)."""
    said = catalogue.hook(entry.game, "web", "reason")
    return said(entry) if said is not None else ""


def has_points(entry: Entry) -> bool:
    """Whether the entry's totals are points a page may show and add up: not
    Decrypto's tokens, nor a single Da Vinci Code game's 1 for the winner."""
    game = catalogue.GAMES.get(entry.game)
    return bool(game is not None and game.points and entry.summary.scored)


def status_text(entry: Entry) -> str:
    """The card's badge: playing, finished, abandoned, or ended early from
    the game menu (an Octiles game the table stopped is not "Finished")."""
    if entry.status == "finished" and entry.summary.stopped:
        return _("Ended early")
    return _(STATUS[entry.status])


def card(entry: Entry, now: str = "") -> dict:
    return {
        "id": entry.id,
        "title": title(entry.game),
        "status": entry.status,
        "status_text": status_text(entry),
        "started": clock(entry.started),
        "duration": duration(entry),
        "standings": standings(entry),
        "points": entry.summary.scored,   # a single Da Vinci Code game has none to show
        "now": now,
    }


def in_play_first(entries: list[Entry]) -> list[Entry]:
    """The game being played on top, the rest newest first (the order the
    score log keeps)."""
    return sorted(entries, key=lambda e: e.status != "playing")


# --- the score sheet ------------------------------------------------------------------

@dataclass(frozen=True)
class Row:
    label: str
    scores: tuple        # points earned in this round, in seat order
    running: tuple       # totals after it
    detail: str


def running_totals(entry: Entry) -> list[tuple]:
    """Totals after each round, starting from nothing: one point per round
    plus the start, for the chart."""
    players = entry.summary.players
    now = [0] * len(players)
    out = [tuple(now)]
    for r in entry.summary.rounds:
        now = [total + r.scores.get(name, 0) for total, name in zip(now, players)]
        out.append(tuple(now))
    return out


def sheet(entry: Entry) -> list[Row]:
    players = entry.summary.players
    describe = catalogue.hook(entry.game, "web", "details") or _plain
    running = running_totals(entry)[1:]
    rows = []
    for i, (r, after) in enumerate(zip(entry.summary.rounds, running), 1):
        label, detail = describe(i, r)
        scores = tuple(r.scores.get(name, 0) for name in players)
        rows.append(Row(label, scores, after, detail))
    return rows


def empty(entry: Entry) -> str:
    """What a sheet with no rows yet says, where the game's web module knows
    better than "No rounds scored yet" (Da Vinci Code scores only when a game
    ends); "" for the plain words."""
    said = catalogue.hook(entry.game, "web", "empty")
    return said(entry) if said is not None else ""


def row_heading(game: str) -> str:
    """What a sheet's rows are, as its first column's heading says (the
    catalogue's ``rows``)."""
    known = catalogue.GAMES.get(game)
    return _(known.rows) if known is not None else _("Round")


LONG_SHEET = 20   # rows a phone shows in full; beyond, only the rows that scored


def on_a_phone(rows: list[Row]) -> tuple[list[Row], int]:
    """A long sheet (an Octiles game logs every turn) without the rows in
    which nobody scored, and how many were left out."""
    if len(rows) <= LONG_SHEET:
        return rows, 0
    kept = [row for row in rows if any(row.scores)]
    return kept, len(rows) - len(kept)


# A code is read as one word: hyphens that do not break a line (U+2011).
NB_HYPHEN = "\u2011"


def code(digits) -> str:
    return NB_HYPHEN.join(str(d) for d in digits)


def round_label(number: int) -> str:
    return _("Round {n}").format(n=number)


def _plain(i: int, r: Round) -> tuple[str, str]:
    """A row of a game with nothing more to say of its rounds: the i-th."""
    return round_label(i), ""


# --- where a game in progress stands (public views) ----------------------------------------

def now(name: str, view: View) -> str:
    """One line from a game's public view (its web module's ``now``, which
    reads the fields of the game's own kind of view); "" when there is
    nothing to say."""
    said = catalogue.hook(name, "web", "now")
    return " · ".join(said(view)) if said is not None else ""


def of(n, last) -> str:
    return _("Round {n} of {last}").format(n=n, last=last)
