"""How to play each game, for the phones' ``/how/<game>`` pages: the goal,
what stays on the table and what the box does, a round phase by phase with
the box's own screens and the keys that work there, and the scoring with
the rulebook's worked example.

Each game's guide is the ``GUIDE`` of its ``said`` module (the words both
processes speak), written as message ids that ``_`` translates where they
are shown.  The phases' ids are the page's anchors: the box's Help points a
QR code at the phase on screen (``address``).  Each ``Shot`` names a picture
that ``referee.tools.how`` draws from a scripted game on the virtual table.
"""
from __future__ import annotations

import msgspec

from referee import catalogue

SETUP = "setup"     # every game's first phase: its setup page


class Shot(msgspec.Struct, frozen=True):
    name: str              # the picture's file name, without ".png"
    says: str              # message id: what the picture shows, one sentence
    screen: str = "main"   # the panel pictured: "main", or a team's "team1"/"team2"


class Phase(msgspec.Struct, frozen=True):
    id: str                       # the anchor on the page, and the Help's QR code's
    title: str                    # message id
    does: str                     # message id: what happens now, at the table and on the box
    keys: tuple[str, ...]         # message ids: "#: roll the next letter", one key a line
    shots: tuple[Shot, ...] = ()


class Guide(msgspec.Struct, frozen=True):
    goal: str                       # message id
    table: tuple[str, ...]          # what stays on the table
    box: tuple[str, ...]            # what the box does
    phases: tuple[Phase, ...]
    scoring: tuple[str, ...]        # how points are counted
    example: tuple[str, ...]        # the rulebook's worked example, a step a line
    private: bool = False           # shows a team's private screen: the page says the game is made up


def of(game: str) -> Guide | None:
    """The game's guide, or None for a game without one."""
    return catalogue.hook(game, "said", "GUIDE") if game in catalogue.GAMES and catalogue.logged(game) else None


def games() -> list[str]:
    """Every game with a guide, in the catalogue's order (the main menu's)."""
    return [name for name in catalogue.GAMES if of(name) is not None]


def address(base: str, game: str, phase: str = "") -> str:
    """Where the box's Help sends a phone: the game's page, at ``phase``,
    upper case so that the QR code holds it in its compact alphanumeric
    mode (the web turns ``/HOW/GAME/PHASE`` into ``/how/game#phase``)."""
    return f"{base.rstrip('/')}/HOW/{game}{'/' + phase if phase else ''}".upper()
