"""The score log as files to keep: CSV for spreadsheets, and a link that
hands a finished game to BG Stats.

BG Stats documents an import link for other apps (its support page "Push
plays to BG Stats from other apps or websites"):
``https://app.bgstatsapp.com/createPlay.html?data=<JSON, URL-encoded>``.  The
phone opens the app's import dialog, where the game and each player are
matched to the app's own once; the app remembers a match by the sender's id,
so ids must not change.  The play, as sent here:

- ``sourceName`` (text): the sending app, part of every remembered match;
- ``sourcePlayId`` (text): this play's own id;
- ``playDate`` (text): when the play *ended*, in UTC, as
  ``YYYY-MM-DD hh:mm:ss`` (no zone, no ``T``);
- ``durationMin`` (whole minutes), ``board`` (text: the board or variant);
- ``usesTeams`` (true/false): a team game;
- ``game``: ``name``, ``sourceGameId`` (text), ``bggId`` (BoardGameGeek's
  number, where the game has one), ``highestWins``, ``noPoints``,
  ``usesTeams``;
- ``players``, each: ``name``, ``sourcePlayerId`` (text), ``seatOrder``
  (1, 2…), ``score`` (number; none in a game of ``noPoints``, such as a
  single Da Vinci Code game), ``winner`` and ``startPlayer`` (true/false),
  ``rank`` (1 = best), and in a team game ``team`` (text: players with the
  same text are one team).

Files and the link stay in English whatever the box speaks: spreadsheets,
scripts and BG Stats read them, and a column must not change its words
because someone chose Polish at the table.

CSV files are UTF-8 with a byte-order mark and ``;`` between fields: a
spreadsheet app set to Czech, Polish or Russian writes decimals with a comma
and so splits a CSV on semicolons, and without the mark it reads the names'
letters as an older code page.  LibreOffice and Google Sheets take both.
"""
from __future__ import annotations

import csv
import datetime as dt
import io
import json
from typing import Any
from urllib.parse import quote

from referee import catalogue, i18n
from referee.store.scorelog import Entry
from referee.web import history, sheets

BGSTATS = "https://app.bgstatsapp.com/createPlay.html?data="
CSV_SEPARATOR = ";"
BOM = "\ufeff"
SOURCE = "Tabletop Referee"


def _cell(value):
    # A name typed as "=HYPERLINK(...)" must stay text in a spreadsheet.
    if isinstance(value, str) and value[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + value
    return value


def csv_text(rows) -> str:
    """Rows as a CSV file the way every file of the box is written (the
    league's too): the mark, ``;``, and no cell a spreadsheet would run."""
    out = io.StringIO()
    out.write(BOM)
    writer = csv.writer(out, delimiter=CSV_SEPARATOR, lineterminator="\r\n")
    for row in rows:
        writer.writerow([_cell(v) for v in row])
    return out.getvalue()


def _when(ts: float | None) -> str:
    return "" if ts is None else sheets.local(ts).isoformat(sep=" ", timespec="minutes")


@i18n.speaking("en")
def game_csv(entry: Entry) -> str:
    """One game as its score sheet: a row per round, then the totals."""
    players = entry.summary.players
    rows: list[list[object]] = [["round", *players, "details"]]
    # A spreadsheet gets plain hyphens: the pages' unbreakable ones are for the phone's line breaks.
    rows += [[row.label, *row.scores, row.detail.replace(sheets.NB_HYPHEN, "-")] for row in sheets.sheet(entry)]
    standings = sheets.standings(entry)
    rows.append(["total", *(s.total for s in standings), sheets.verdict(entry)])
    if any(s.members for s in standings):
        rows.append(["players", *(", ".join(s.members) for s in standings), ""])
    return csv_text(rows)


@i18n.speaking("en")
def evening_csv(entries: list[Entry]) -> str:
    """Every game of an evening, a row per player; in a team game, the
    team's result on each of its players' rows, the team named beside them."""
    rows: list[list[object]] = [["game_id", "game", "started", "ended", "status", "seat", "player", "total",
                                 "winner", "team"]]
    for entry in sorted(entries, key=lambda e: e.id):
        seats = [(name, s, s.name if s.members else "") for s in sheets.standings(entry)
                 for name in (s.members or (s.name,))]
        for seat, (name, s, team) in enumerate(seats, 1):
            rows.append([entry.id, sheets.title(entry.game), _when(entry.started), _when(entry.ended),
                         entry.status, seat, name, s.total, "yes" if s.winner else "", team])
    return csv_text(rows)


def json_text(data) -> str:
    return json.dumps(data, ensure_ascii=False, indent=1)


@i18n.speaking("en")
def bgstats_link(entry: Entry) -> str | None:
    """The import link for a finished game, or None."""
    if entry.status != "finished" or entry.ended is None:
        return None
    return BGSTATS + quote(json.dumps(bgstats_play(entry, entry.ended), ensure_ascii=False, separators=(",", ":")), safe="")


def bgstats_play(entry: Entry, ended: float) -> dict[str, Any]:
    """The play as BG Stats' import format has it, of a game ``ended`` then."""
    evening = history.evening_of(entry.started).isoformat()
    # A game that scores no points (the score log's ``scored`` is false: its
    # totals only say who won) is sent without scores, as noPoints has it.
    scored = entry.summary.scored
    game_of: dict[str, Any] = {"name": sheets.title(entry.game), "sourceGameId": entry.game,
                               "highestWins": True, "noPoints": not scored}
    play: dict[str, Any] = {
        "sourceName": SOURCE,
        "sourcePlayId": f"{entry.id}-{int(entry.started)}",
        "playDate": dt.datetime.fromtimestamp(ended, dt.timezone.utc).strftime("%Y-%m-%d %H:%M:%S"),
        "durationMin": max(1, round((ended - entry.started) / 60)),
        "game": game_of,
    }
    game = catalogue.GAMES.get(entry.game)
    # BoardGameGeek's number (boardgamegeek.com/boardgame/<number>), which BG
    # Stats matches games by; a game without one is sent by name and
    # ``sourceGameId`` alone: the app asks once which of its games it is.
    if game is not None and game.bgg_id is not None:
        game_of["bggId"] = game.bgg_id
    standings = sheets.standings(entry)
    ranked = sorted({s.total for s in standings}, reverse=True)

    def player(name: str, seat: int, s: sheets.Standing, team: str | None = None) -> dict:
        # BG Stats remembers which of its players an id was matched to: one
        # id per name and evening, so tonight's "Ann" is matched once, and a
        # "Player 1" of another evening is not taken for tonight's.
        sent = {"name": name, "sourcePlayerId": f"{evening}/{name}", "seatOrder": seat,
                "score": s.total, "winner": s.winner, "rank": ranked.index(s.total) + 1,
                "startPlayer": name == entry.summary.starter}
        if not scored:
            del sent["score"]
        if team is not None:
            sent["team"] = team
        return sent

    members = entry.summary.members
    if game is not None and game.teams:
        # A team game: the players in their teams, each with the team's result.
        play["usesTeams"] = True
        game_of["usesTeams"] = True
        if entry.summary.variant in game.boards:
            play["board"] = game.boards[entry.summary.variant]
        seats = []
        for s, team in zip(standings, entry.summary.players):
            seats += [(name, s, s.name) for name in (members or {}).get(team) or [s.name]]
        play["players"] = [player(name, seat, s, team) for seat, (name, s, team) in enumerate(seats, 1)]
    else:
        play["players"] = [player(s.name, seat, s) for seat, s in enumerate(standings, 1)]
    return play
