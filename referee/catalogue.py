"""Every game the box plays, each defined once, as plain data.

An entry says what the rest of the house needs to know of a game: its
rules module, its key flows, its web extras, whether it is played in teams
or seats, what a phone may send, how it is known to BoardGameGeek.  Both
processes read it: the box to start games and their flows, the web to lay
out pages and files.  So it imports nothing but the standard library and
``referee.i18n``'s marker (the checker alone reads the types its
protocols name), and names each module by its dotted name, loaded only by
whoever uses it (``load``): the web never loads a key flow, and with it
the panels' drawing code.

Per-game code lives in the game's own modules, found by convention:

- rules (``games.<name>``): the ``games.base.Rules`` contract;
- flows (``referee.box.flows.<name>``): ``setup(box)``, ``Play(box, session)``
  and ``describe(event, before)``, the last action in a few words;
- said (``referee.said.<name>``), which a game of the score log must
  have: the same ``describe`` (the flows take it from here), optionally
  ``describe_roll``, and ``account(view, summary)``, the game's part of
  where it stands (``referee.account``: the stage, whose turn, each side's
  tokens and points, why it ended), in a module both processes may import,
  so that the replay, the table view and the score log say it as the box
  does;
- web (``referee.web.<name>``): ``replay_step(view)``, which a game of the
  score log must have (a step of the replay from the public view: the
  round's number, which never goes down along a game, its label and the
  lines to show); optional, ``details(i, round)`` (a score sheet row's
  label and details), ``now(view)`` (where a game in progress stands),
  ``team_form(state, team, form)`` (the event a team page's form plays),
  ``chart(entry, names)`` (the chart of its page),
  ``routes(app)`` (addresses of its own, added to the web's app:
  Octiles' printable overlay),
  ``replay_hidden(state, side)`` (what the box kept hidden, shown once the
  game is over), ``tokens(entry)`` (each side's tokens in words, where
  they decide rather than points) and ``token_sheet(entry)`` (the sheet of
  them its template ``sheet-<name>.html`` lays out).

The protocols ``Said``, ``Flows`` and ``Web`` below say those hooks as
types, and tests/test_catalogue.py holds every entry to them.

A game added here, with those modules, is played by the box, logged, shown,
exported and published with nothing else touched (``register``).
"""
from __future__ import annotations

import importlib
import typing
from dataclasses import dataclass, field
from typing import Any, Callable

from referee.i18n import N_, _

if typing.TYPE_CHECKING:   # the types the hooks speak of, for the checker alone
    from games.base import Summary, View
    from referee.account import Facts


@dataclass(frozen=True)
class Game:
    name: str                      # the short name the store keeps ("decrypto")
    title: str                     # its edition's name, English (the pages translate it)
    rules: str                     # dotted module names
    flows: str | None = None       # None: "coming soon" on the menu
    web: str | None = None
    seats: tuple[int, int] = (2, 4)   # players, fewest and most
    teams: int = 0                 # played in teams: how many (each has a page); 0: in seats
    phone_events: frozenset[str] = frozenset()   # event types a team page may send
    bgg_id: int | None = None      # BoardGameGeek's number (BG Stats matches by it)
    rule_names: tuple[str, ...] = ()   # seat or team names the rules give, in English
    boards: dict[str, str] = field(default_factory=dict)   # variant -> board, for BG Stats
    on_menu: bool = True           # a game of the main menu
    logged: bool = True            # in the score log (the table tools are not a game)
    deals_words: bool = False      # deals words the box must not repeat tonight
    # Its totals add up across the club's tables: the heading of their
    # column in the league's standings (its key there is the game's name).
    league_points: str = ""
    points: bool = True            # its totals are points (Decrypto's are tokens, not summed)
    said: str | None = None        # the module of its words for an action, read by both processes
    members: str | None = None     # the option naming each team's players, team by team (else "players")
    rows: str = N_("Round")        # what a score sheet's rows are, its first column's heading
    section: str | None = None     # the module of its own section of config.toml (``referee.sections``)


GAMES: dict[str, Game] = {}


# --- what a game's modules give (the rules: games.base.Rules) ------------------------

@typing.runtime_checkable
class Said(typing.Protocol):
    """A game's words for an action (``Game.said``), which its flows give too."""

    def describe(self, event: Any, before: Any) -> str:
        """The action ``event``, taken in the state ``before``, in a few words."""
        ...


# A game's own kind of view (``games.base.View``) that its hooks read: each
# hook takes the kind its game's rules give.
Seen = typing.TypeVar("Seen", bound="View", contravariant=True)


@typing.runtime_checkable
class Words(Said, typing.Protocol[Seen]):
    """A game's words (``Game.said``), as a game of the score log has them."""

    def account(self, view: Seen, summary: Summary) -> Facts:
        """Where the game stands, from its public ``view`` and its score
        log's ``summary`` (``referee.account``)."""
        ...


@typing.runtime_checkable
class Flows(Said, typing.Protocol):
    """A game's key flows (``Game.flows``); a game of the menu also has
    ``setup(box)``, its setup form."""

    Play: Callable[..., Any]
    """``Play(box, session)``: the flow of a game under way."""


@typing.runtime_checkable
class Web(typing.Protocol[Seen]):
    """A game's web extras (``Game.web``), as a game of the score log has
    them; the optional ones are found with ``hook``: ``details``, ``now``,
    ``team_form``, ``chart``, ``routes``, ``replay_hidden``, ``tokens`` and
    ``token_sheet`` (above)."""

    def replay_step(self, view: Seen) -> tuple[int, str, list[Any]]:
        """A step of the replay from the public view: the round's number,
        its label and the lines to show."""
        ...


def register(game: Game) -> Game:
    GAMES[game.name] = game
    return game


def _builtin(name: str, title: str, web: bool = True, **kw) -> Game:
    return register(Game(name, title, f"games.{name}", f"referee.box.flows.{name}",
                         f"referee.web.{name}" if web else None, said=f"referee.said.{name}" if web else None, **kw))


_builtin("tools", N_("Table tools"), web=False, seats=(1, 1), on_menu=False, logged=False)
_builtin("decrypto", "Decrypto", seats=(3, 8), teams=2,
         phone_events=frozenset({"Clues"}), bgg_id=225694,
         rule_names=(N_("White"), N_("Black"), N_("Hacker"), N_("Team")),
         boards={"hacker": "Hacker variant"}, deals_words=True, points=False, members="members")
_builtin("osmisifry", "Osmišifry", seats=(2, 6), rows=N_("Booklet"), section="referee.sections.osmisifry")
_builtin("octiles", N_("Octiles"), rule_names=(N_("West"), N_("North"), N_("East"), N_("South")), rows=N_("Turn"))
# [DV-11] Tournament points count across tables on a club night.
_builtin("davinci", N_("Da Vinci Code"), bgg_id=8946, league_points=N_("Da Vinci points"), rows=N_("Game"))
# Decipher's Polish edition is Słowotwórcy: the catalogues give that name.
_builtin("decipher", N_("Decipher"))


def get(name: str) -> Game:
    try:
        return GAMES[name]
    except KeyError:
        raise ValueError(f"no game called {name!r}") from None


def title(name: str) -> str:
    """A game's name in the box's language."""
    game = GAMES.get(name)
    return _(game.title) if game is not None else name.capitalize()


def logged(name: str) -> bool:
    """Whether games of ``name`` are in the score log (a name the catalogue
    does not know, from an older box, is shown as it is)."""
    return name not in GAMES or GAMES[name].logged


def league_points() -> list[Game]:
    """The games whose totals the league adds up, each in a column of its own."""
    return [g for g in GAMES.values() if g.league_points]


def on_menu() -> list[Game]:
    return [g for g in GAMES.values() if g.on_menu]


def load(module: str | None):
    """A game's module by its dotted name; None for none."""
    return None if module is None else importlib.import_module(module)


def hook(name: str, part: str, attr: str):
    """A game's optional function ``attr`` in its ``part`` ("flows", "web"),
    or None where the game has none."""
    game = GAMES.get(name)
    module = getattr(game, part, None) if game is not None else None
    if module is None:
        return None
    try:
        loaded = importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name != module:
            raise
        return None
    return getattr(loaded, attr, None)


if typing.TYPE_CHECKING:
    # The checker holds each built-in game's modules to the protocols (a
    # module keeps a protocol by its names, as a class does): its rules to
    # ``games.base.Rules``, its words and its web extras to ``Words`` and
    # ``Web`` of its own kind of public view.  Nothing here runs.
    import games.davinci
    import games.decipher
    import games.decrypto
    import games.octiles
    import games.osmisifry
    import games.tools
    import referee.said.davinci
    import referee.said.decipher
    import referee.said.decrypto
    import referee.said.octiles
    import referee.said.osmisifry
    import referee.web.davinci
    import referee.web.decipher
    import referee.web.decrypto
    import referee.web.octiles
    import referee.web.osmisifry
    from games.base import Rules

    _RULES: tuple[Rules, ...] = (games.davinci, games.decipher, games.decrypto, games.octiles, games.osmisifry, games.tools)
    _DAVINCI: tuple[Words[games.davinci.Public], Web[games.davinci.Public]] = (
        referee.said.davinci, referee.web.davinci)
    _DECIPHER: tuple[Words[games.decipher.Public], Web[games.decipher.Public]] = (
        referee.said.decipher, referee.web.decipher)
    _DECRYPTO: tuple[Words[games.decrypto.Public], Web[games.decrypto.Public]] = (
        referee.said.decrypto, referee.web.decrypto)
    _OCTILES: tuple[Words[games.octiles.Public], Web[games.octiles.Public]] = (
        referee.said.octiles, referee.web.octiles)
    _OSMISIFRY: tuple[Words[games.osmisifry.Public], Web[games.osmisifry.Public]] = (
        referee.said.osmisifry, referee.web.osmisifry)
