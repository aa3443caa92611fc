"""The players' pages in words: a ``player_stats.Player`` as the templates
``player.html`` and ``players.html`` show it, and as files (CSV and JSON).

A player's page is ``/p/@<key>``: the key as the box compares names
(``players.key``), percent-encoded, behind an ``@``.  A bare key would be a
path segment like any other until a player is named ``.`` or ``..``, which
every browser resolves away (to ``/p/`` or ``/``), "%2E" included; behind
the ``@`` no segment is a dot segment.  Any other spelling of a player's
address (another case or spacing, a name merged into the player, the bare
``/p/<key>`` of older pages and bookmarks) leads to it (``wanted``).  The
files keep ``/api/p/<key>.<kind>``: the suffix already keeps those from
being dot segments.

A rating is said as OpenSkill keeps it, a mean and how unsure it is, in
numbers a player can hold in mind: "≈ 27 ± 4, 12 games" (one standard
deviation, rounded).  Its move after a game is the mean's ("▲ 1.3").
"""
from __future__ import annotations

import asyncio
import datetime as dt
from urllib.parse import quote

import msgspec
from aiohttp import web
from babel.dates import format_date, format_time

from games.base import Illegal
from referee import catalogue, i18n
from referee.i18n import _, ngettext
from referee.look_alike import look_alike
from referee.store.events import Store
from referee.web import export, history, ladder, ladder_files, sheets
from referee.web.bodies import Body, PerChange, attachment, key_of, send
from referee.web.paths import LADDER_FILES, LADDERS, WHO
from referee.web.player_stats import ORDERS, Played, Player, everyone, player
from referee.web.players import Ledger, Rating, key
from referee.web.rivals import PARTNER_GAMES, SHOWN, Met, rivals


MARK = "@"


def href(name: str) -> str:
    """A player's page, by the name as the box compares names."""
    return "/p/" + MARK + quote(key(name), safe="")


def own(player: str) -> str:
    """A player's page by their key (a merged name's page leads there too)."""
    return "/p/" + MARK + quote(player, safe="")


def links(names) -> list[tuple[str, str]]:
    """Each typed name once, with its page: ``(name, address)``."""
    seen: dict[str, tuple[str, str]] = {}
    for name in names:
        seen.setdefault(key(name), (name, href(name)))
    return list(seen.values())


def api(name: str) -> str:
    return "/api/p/" + quote(key(name), safe="")


def wanted(rater, request: web.Request) -> str:
    """The player a page's (or with ``kind``, a file's) address names, as
    ``rater`` counts players: its key, when the address is the player's own.
    Another address of the player is redirected there: for good when it is
    the same name spelled otherwise (or the older bare form), "see other"
    when it is a name merged into the player (a merge can be taken back).
    An address that names no player is 404."""
    who, kind = request.match_info["who"], request.match_info.get("kind")
    # A bare "/p/@bob" from before the mark is Bob's page unless "bob" is a player.
    for typed in (who.removeprefix(MARK), who) if not kind and who.startswith(MARK) else (who,):
        # A key as it is (casefolding may leave what a typed name cannot
        # hold: "İ" becomes "i" and a combining dot), or a name to make one of.
        name = typed if typed in rater.names or typed in rater.aliases else _key(typed)
        player = rater.aliases.get(name, name)
        if player in rater.names:
            break
    else:
        raise web.HTTPNotFound()
    if who == (player if kind else MARK + player):
        return player
    address = f"/api/p/{quote(player, safe='')}.{kind}" if kind else f"/p/{MARK}{quote(player, safe='')}"
    raise (web.HTTPSeeOther if name != player else web.HTTPMovedPermanently)(address)


def _key(name: str) -> str | None:
    try:
        return key(name)
    except Illegal:
        return None


def percent(share: float) -> str:
    return f"{round(100 * share)} %"


def rating_text(rating: Rating) -> str:
    return ngettext("≈ {mu} ± {sigma}, {n} game", "≈ {mu} ± {sigma}, {n} games", rating.games).format(
        mu=round(rating.mu), sigma=max(1, round(rating.sigma)), n=rating.games)


def moved_text(moved: tuple[float, float] | None) -> str:
    if moved is None:
        return ""
    change = moved[1] - moved[0]
    return f"{'▲' if change >= 0 else '▼'} {abs(change):.1f}"


def number(value: float) -> str:
    return f"{value:g}" if value == int(value) else f"{value:.1f}"


def place_text(p: Played) -> str:
    if p.side.won:
        return _("won")
    return _("{place}. of {count}").format(place=p.side.rank, count=p.of)


def look_alikes(rater, who: str) -> list[dict]:
    """The other players whose names look just like ``who``'s ("0la" and
    "Ola", or a Cyrillic "Аnia" from before the box refused two alphabets
    in a name), each with its page: the page says so, or nothing on it
    would tell them apart."""
    mine = rater.names[who]
    return [{"name": name, "href": "/p/" + MARK + quote(other, safe="")}
            for other, name in sorted(rater.names.items()) if other != who and look_alike(mine, [name])]


def player_page(p: Player, alike: list[dict] = ()) -> dict:
    games = []
    for name, g in p.games.items():
        points = ""
        if g.points:
            points = _("Points: best {best}, average {average}").format(best=number(g.best), average=number(g.average))
        games.append({
            "title": sheets.title(name),
            "played_text": ngettext("{n} game", "{n} games", g.played).format(n=g.played),
            "won_text": ngettext("{n} won", "{n} won", g.won).format(n=g.won),
            "rate": percent(g.rate), "points": points,
            "rating": _("Rating {rating}").format(rating=rating_text(g.rating)) if g.rating else "",
        })
    streak = ""
    if p.best_streak > 1:
        streak = ngettext("Longest winning streak: {n} game", "Longest winning streak: {n} games",
                          p.best_streak).format(n=p.best_streak)
        if p.streak > 1:
            streak += " · " + ngettext("now {n} in a row", "now {n} in a row", p.streak).format(n=p.streak)
    last = [{"game": g.result.game, "title": sheets.title(g.result.name),
             "date": sheets.long_date(history.evening_of(g.result.ended)), "won": g.side.won,
             "place": place_text(g), "score": None if g.side.score is None else number(g.side.score),
             "moved": moved_text(g.moved)} for g in p.last]
    left_out = ""
    if p.left_out:
        left_out = ngettext("{n} more game with this name does not count: ended early, or with fewer than two "
                            "players named.", "{n} more games with this name do not count: ended early, or with "
                            "fewer than two players named.", p.left_out).format(n=p.left_out)
    merged = _("Also played as: {names}").format(names=", ".join(p.merged)) if p.merged else ""
    return {"title": p.name, "p": p, "rate": percent(p.rate), "merged": merged, "games": games, "streak": streak, "last": last,
            "against": [{"name": a.name, "href": href(a.name), "games": a.games, "ahead": a.ahead,
                         "behind": a.behind, "level": a.level} for a in p.against],
            "left_out": left_out, "api": api(p.name), "alike": list(alike)}


def players_page(players: list[Player], order: str, counted: int, games: list[str] = ()) -> dict:
    labels = {"name": _("Player"), "games": _("Games"), "wins": _("Won"), "rate": _("Win rate")}
    return {"title": _("All players"), "order": order, "counted": counted,
            "ladders": [{"title": sheets.title(g), "href": ladder_href(g)} for g in games],
            "columns": [(by, labels[by]) for by in ORDERS],
            "players": [{"name": p.name, "href": href(p.name), "played": p.played, "won": p.won,
                         "rate": percent(p.rate)} for p in players]}


# --- the ladders ------------------------------------------------------------------------

def ladder_href(game: str, season: ladder.Season | None = None) -> str:
    return f"/p/ladder/{game}" + (f"/{season.key}" if season else "")


def how_it_ranks(rules) -> str:
    """The one plain sentence a ladder says of itself; the formula is
    ``how_it_is_worked``'s, folded under it."""
    return ngettext(
        "Ranked by a careful estimate of skill that firms up as you play: a high place needs good results "
        "and enough games to be sure of them. New players are listed apart until they have {n} game.",
        "Ranked by a careful estimate of skill that firms up as you play: a high place needs good results "
        "and enough games to be sure of them. New players are listed apart until they have {n} games.",
        rules.provisional_games).format(n=rules.provisional_games)


def how_it_is_worked(rules) -> str:
    """The formula behind the ladder, for whoever opens "How is this worked out?"."""
    return ngettext(
        "Each game moves two numbers of OpenSkill's rating: μ, the skill the results point to (about 25 for a "
        "newcomer), and σ, how unsure that is (it shrinks with every game). The ladder ranks by μ − 3σ "
        "(OpenSkill's ordinal), so that only a rating both high and sure leads. A player is listed apart with "
        "fewer than {n} game since a whole season away, or while σ is above {sigma}.",
        "Each game moves two numbers of OpenSkill's rating: μ, the skill the results point to (about 25 for a "
        "newcomer), and σ, how unsure that is (it shrinks with every game). The ladder ranks by μ − 3σ "
        "(OpenSkill's ordinal), so that only a rating both high and sure leads. A player is listed apart with "
        "fewer than {n} games since a whole season away, or while σ is above {sigma}.",
        rules.provisional_games).format(n=rules.provisional_games, sigma=f"{rules.provisional_sigma:g}")


def waiting_text(s: ladder.Standing) -> str:
    """Why a provisional rating does not rank yet, in plain words (the
    threshold of σ is the fold's)."""
    return _("provisional: {why}").format(why=unsure_text(s))


def unsure_text(s: ladder.Standing) -> str:
    if s.more:
        return ngettext("{n} more game", "{n} more games", s.more).format(n=s.more)
    return _("results not yet sure enough")


def ladder_page(rater, game: str, rules, today: dt.date, season: ladder.Season | None) -> dict:
    b = ladder.board(rater, game, rules, today, season)
    seasons = ladder.seasons(rater, game, rules, today)
    now = ladder.current(rules, today)
    if now is not None and now not in seasons:
        seasons.insert(0, now)

    def row(s: ladder.Standing) -> dict:
        wait = unsure_text(s)
        return {"name": s.name, "href": own(s.player), "place": s.place, "ordinal": f"{s.ordinal:.1f}",
                "rating": f"{s.mu:.1f} ± {s.sigma:.1f}", "games": s.games, "wait": wait}
    return {"title": _("Ladder: {game}").format(game=sheets.title(game)),
            "season": season.title if season else _("All-time"),
            "seasons": [{"title": x.title, "href": ladder_href(game, x), "here": x == season} for x in seasons],
            "all_time": {"href": ladder_href(game), "here": season is None},
            "how": how_it_ranks(rules), "worked": how_it_is_worked(rules),
            "of_season": _("{season}: the players who played in it, each at the rating their last game of it "
                           "left.").format(season=season.title) if season else "",
            "ranked": [row(s) for s in b.ranked], "provisional": [row(s) for s in b.provisional],
            "away": ngettext("{n} player away for a whole season is left off until they play again.",
                             "{n} players away for a whole season are left off until they play again.",
                             b.away).format(n=b.away) if b.away else ""}


def season_of(request: web.Request, rules) -> ladder.Season | None:
    """The season in a ladder's address (none: all-time); 404 for one that is none."""
    key = request.match_info.get("season")
    if key is None:
        return None
    found = ladder.Calendar(rules).by_key(key)
    if found is None:
        raise web.HTTPNotFound()
    return found


def game_of(request: web.Request) -> str:
    game = request.match_info["game"]
    if game not in {g.name for g in catalogue.on_menu()}:
        raise web.HTTPNotFound()
    return game


def on_ladders(rater, who: str, rules, today: dt.date) -> list[tuple[str, list[tuple]]]:
    """The ladders of each game the player played, all-time and this
    season's (if they played in it): ``(game, [(season, board, their
    standing)])``, the standing None when away for a whole season."""
    now = ladder.current(rules, today)
    out = []
    for game in ladder.games(rater):
        if who not in rater.history[game]:
            continue
        found = []
        for season in (None, now) if now else (None,):
            b = ladder.board(rater, game, rules, today, season)
            mine = next((s for s in b.ranked + b.provisional if s.player == who), None)
            if mine is None and season is not None:
                continue      # not played this season
            found.append((season, b, mine))
        out.append((game, found))
    return out


def places(rater, who: str, rules, today: dt.date) -> list[dict]:
    """The player's place on each ladder of a game they played: all-time and
    this season's."""
    out = []
    for game, found in on_ladders(rater, who, rules, today):
        lines = []
        for season, b, mine in found:
            if mine is None:
                said = _("away for a whole season: off the ladder until the next game")
            elif mine.provisional:
                said = waiting_text(mine)
            else:
                said = _("{place}. of {count}").format(place=mine.place, count=len(b.ranked))
            lines.append({"season": season.title if season else _("All-time"), "href": ladder_href(game, season),
                          "said": said})
        out.append({"title": sheets.title(game), "lines": lines})
    return out


def places_json(rater, who: str, rules, today: dt.date) -> dict[str, list]:
    """The same as the player's file gives it: each game's places, in numbers."""
    return {game: [msgspec.to_builtins(ladder_files.place(season, b, mine)) for season, b, mine in found]
            for game, found in on_ladders(rater, who, rules, today)}


def short_date(ended: float) -> str:
    return format_date(history.evening_of(ended), "medium", locale=sheets.LOCALES.get(i18n.lang, i18n.lang))


def game_labels(games, where=None) -> list[str]:
    """Each game's link text: its evening's date, and where another game of
    the list is of the same evening, the time it began too (and with
    ``where(result)``, its table: the league's tables play at once), so
    that no two links read the same."""
    dates = [short_date(g.ended) for g in games]
    labels = []
    for g, date in zip(games, dates):
        if dates.count(date) > 1:
            began = dt.datetime.fromtimestamp(g.started or g.ended)
            date += " " + format_time(began, "short", locale=sheets.LOCALES.get(i18n.lang, i18n.lang))
            if where is not None and where(g):
                date += " · " + where(g)
        labels.append(date)
    return labels


def rivals_view(rater, who: str, game_href, where=None) -> dict:
    """The "Rivals and partners" part of a player's page; ``game_href(result)``
    is where a game's link leads, ``where(result)`` the table it was played
    at (the league's)."""
    r = rivals(rater, who)

    def met(label: str, m: Met | None, said: str = "") -> dict | None:
        if m is None:
            return None
        shown = m.games[::-1][:SHOWN]
        return {"label": label, "name": m.name, "href": own(m.player),
                "said": said or ngettext("{n} game", "{n} games", m.count).format(n=m.count),
                "games": [{"href": game_href(g), "date": label}
                          for g, label in zip(shown, game_labels(shown, where))]}
    def empty(label: str, why: str) -> dict:
        """A statistic with nobody in it yet says when it will have someone."""
        return {"label": label, "name": "", "href": "", "said": why, "games": []}
    played = r.most_met is not None
    rows = [met(_("Most games against"), r.most_met),
            met(_("Most losses to"), r.lost_to) or (empty(_("Most losses to"), _("no loss yet")) if played else None),
            met(_("Most wins over"), r.beat) or (empty(_("Most wins over"), _("no win yet")) if played else None)]
    teamed = any(len(s.players) > 1 for g in rater.games.get(who, ()) for s in rater.results[g].sides)
    if r.partner is not None:
        p = r.partner
        rows.append(met(_("Best partner"), p, ngettext(
            "won {won} of {n} game together ({rate})", "won {won} of {n} games together ({rate})", p.count).format(
            won=len(p.won), n=p.count, rate=percent(p.rate))))
    elif teamed:
        rows.append(empty(_("Best partner"), ngettext(
            "after {n} game together and a win", "after {n} games together and a win", PARTNER_GAMES).format(n=PARTNER_GAMES)))
    minutes = round(r.seconds / 60)
    return {"rivals": [row for row in rows if row],
            "time_played": ngettext("{time} in {n} game", "{time} in {n} games", r.timed).format(
                time=_("{hours} h {minutes:02d} min").format(hours=minutes // 60, minutes=minutes % 60), n=r.timed)
            if r.timed else "",
            "partner_rule": ngettext(
                "Best partner: the highest share of games won on one team, of partners of at least {n} game.",
                "Best partner: the highest share of games won on one team, of partners of at least {n} games.",
                PARTNER_GAMES).format(n=PARTNER_GAMES) if teamed else ""}


@i18n.speaking("en")
def player_csv(p: Player) -> str:
    """Every counted game of a player, a row each, with the rating after it."""
    rows = [["game_id", "game", "ended", "place", "of", "winner", "score", "rating_before", "rating_after"]]
    for played in sorted(p.every, key=lambda g: (g.result.ended, g.result.game)):
        moved = played.moved or (None, None)
        rows.append([played.result.game, sheets.title(played.result.name),
                     dt.datetime.fromtimestamp(played.result.ended).strftime("%Y-%m-%d %H:%M"),
                     played.side.rank, played.of, "yes" if played.side.won else "",
                     "" if played.side.score is None else number(played.side.score),
                     "" if moved[0] is None else f"{moved[0]:.2f}", "" if moved[1] is None else f"{moved[1]:.2f}"])
    return export.csv_text(rows)


def player_json(p: Player, ladders: dict[str, list] | None = None) -> dict:
    """The player's file; ``ladders``: their places (``places_json``)."""
    ladders = ladders or {}
    return {
        "name": p.name, "merged": p.merged, "played": p.played, "won": p.won, "streak": p.streak, "best_streak": p.best_streak,
        "games": {name: {"played": g.played, "won": g.won, "points": g.points,
                         "rating": None if g.rating is None else
                         {"mu": g.rating.mu, "sigma": g.rating.sigma, "games": g.rating.games},
                         "ladders": ladders.get(name, [])}
                  for name, g in p.games.items()},
        "results": [{"game_id": g.result.game, "game": g.result.name, "ended": g.result.ended,
                     "place": g.side.rank, "of": g.of, "winner": g.side.won, "score": g.side.score,
                     "rating": None if g.moved is None else {"before": g.moved[0], "after": g.moved[1]}}
                    for g in sorted(p.every, key=lambda g: (g.result.ended, g.result.game))],
        "against": [{"name": a.name, "games": a.games, "ahead": a.ahead, "behind": a.behind, "level": a.level}
                    for a in p.against],
    }


# --- the routes ------------------------------------------------------------------------

class Book:
    """The ledger of a site, brought up to date with the box's store before a
    player page is made.  Bringing it up to date replays the games that ended
    since (the first time, every game ever stored), so it runs on a thread
    with a connection of its own, one at a time, while other pages are served."""

    def __init__(self, reader, phone_time=lambda: False) -> None:
        self.reader = reader
        self.phone_time = phone_time    # Site.phone_time: whether pages ask the phone for its time
        self.ledger = Ledger.beside(reader.database)
        self._lock = asyncio.Lock()
        self._seen = None
        self._kept = PerChange()

    def cached(self, request: web.Request, make, today: dt.date, *, query: str = "") -> Body:
        """A player page's answer (``Site.cached``), kept while the ledger
        holds the same games: every move at the table is a change of the
        store, but only a game's end (or a merge) changes these pages.
        Called after ``fresh``, which has just looked at the store."""
        return self._kept.get((self.ledger.changes, today, i18n.lang, self.phone_time()), key_of(request, query), make)

    async def fresh(self) -> Ledger:
        self.reader.refresh()
        if self._seen == self.reader.version and not self.ledger.stale(self.reader.clock.monotonic()):
            return self.ledger
        async with self._lock:
            self.reader.refresh()
            if self._seen != self.reader.version or self.ledger.stale(self.reader.clock.monotonic()):
                seen = self.reader.version
                await asyncio.to_thread(self._update)
                self._seen = seen
        return self.ledger

    def _update(self) -> None:
        store = Store.open_read_only(self.reader.database)
        try:
            self.ledger.update(store, self.reader.clock.monotonic())
        finally:
            store.close()

    def close(self) -> None:
        self.ledger.close()




BOOK = web.AppKey("book", Book)   # the merge page reads the same ledger


def add_routes(app, site) -> None:
    book = app[BOOK] = Book(site.reader, site.phone_time)

    async def everyone_page(request):
        order = request.query.get("by", "games")
        if order not in ORDERS:
            raise web.HTTPBadRequest()
        ledger = await book.fresh()
        return send(request, book.cached(request, lambda: site.html(
            "players.html", live=False, **players_page(everyone(ledger, order), order, len(ledger.ordered()),
                                                       ladder.games(ledger))),
            site.tonight(), query="by"))

    async def ladder_html(request):
        game, season = game_of(request), season_of(request, site.ladder)
        ledger = await book.fresh()
        today = site.tonight()
        return send(request, book.cached(request, lambda: site.html(
            "ladder.html", live=False, **ladder_page(ledger, game, site.ladder, today, season)), today))

    async def ladder_json(request):
        game, season = game_of(request), season_of(request, site.ladder)
        ledger = await book.fresh()
        today = site.tonight()
        return send(request, book.cached(request, lambda: Body.of(export.json_text(
            ladder_files.ladder_file(ledger, game, site.ladder, today, season)), "json"), today))

    async def one(request) -> str:
        """The player asked for, once the ledger is up to date (``wanted``)."""
        return wanted(await book.fresh(), request)

    async def player_html(request):
        who = await one(request)
        today = site.tonight()
        return send(request, book.cached(request, lambda: site.html(
            "player.html", live=False, **player_page(player(book.ledger, who), look_alikes(book.ledger, who)),
            places=places(book.ledger, who, site.ladder, today),
            **rivals_view(book.ledger, who, lambda result: f"/g/{result.game}")), today))

    async def player_file(request):
        who = await one(request)
        kind = request.match_info["kind"]
        today = site.tonight()
        body = book.cached(request, lambda: Body.of(
            player_csv(player(book.ledger, who)) if kind == "csv" else
            export.json_text(player_json(player(book.ledger, who),
                                         places_json(book.ledger, who, site.ladder, today))), kind), today)
        return send(request, body, attachment(f"player-{quote(who, safe='')}.{kind}"))

    async def close_book(app) -> None:
        book.close()

    app.on_cleanup.append(close_book)
    app.router.add_get("/p/", everyone_page)
    for path in LADDERS:
        app.router.add_get(path, ladder_html)
    for path in LADDER_FILES:
        app.router.add_get(path, ladder_json)
    app.router.add_get(f"/p/{WHO}", player_html)
    app.router.add_get(f"/api/p/{WHO}.{{kind:csv|json}}", player_file)
