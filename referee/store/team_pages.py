"""The addresses of the teams' web pages: one a team and game, each a
secret (see ``referee.web.team_pages``)."""
from __future__ import annotations

from dataclasses import dataclass

from referee.store.writes import Connected, writes


@dataclass(frozen=True)
class TeamPage:
    """A team's web page for one game: ``token`` is its address (a secret,
    see ``referee.web.team_pages``), ``csrf`` guards its forms."""
    token: str
    game: int
    team: int
    csrf: str


class TeamPages(Connected):
    def team_page(self, game: int, team: int) -> TeamPage | None:
        row = self._db.execute("SELECT token, game, team, csrf FROM team_pages WHERE game = ? AND team = ?",
                               (game, team)).fetchone()
        return TeamPage(*row) if row else None

    def team_page_by_token(self, token: str) -> TeamPage | None:
        row = self._db.execute("SELECT token, game, team, csrf FROM team_pages WHERE token = ?",
                               (token,)).fetchone()
        return TeamPage(*row) if row else None

    @writes
    def add_team_page(self, page: TeamPage) -> None:
        self._db.execute("INSERT INTO team_pages (token, game, team, csrf) VALUES (?, ?, ?, ?)",
                         (page.token, page.game, page.team, page.csrf))
