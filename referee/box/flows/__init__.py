"""Key flows: what the keys do and what the screens say, one mode at a time.

A flow has ``key(key, kind)`` and ``screens()`` (a ``Screen`` for each of
"main", "team1", "team2" it wants to show).  A game's module here provides
``setup(box)``, the flow of its setup menu, and ``Play(box, session)``, the
flow while it is played.  Flows read the game's state and build its events;
the rules decide.  What a flow may ask of the box is ``host.Host``.
"""
from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING

from games.base import SLACK, clock_text  # noqa: F401  (the flows take them from here)
from referee import catalogue
from referee.box.flows import roles
from referee.box.screen import Screen
from referee.i18n import _, ngettext

if TYPE_CHECKING:
    from referee.box.flows.forms import Form
    from referee.box.flows.host import Host
    from referee.box.flows.merging import Merging
    from referee.box.session import Session


class Flow:
    """What the box asks of every flow; a flow has the parts it needs of
    what is below and leaves the rest as it is here."""
    warn_seconds = 5     # the countdown ticks aloud for its last seconds
    remembered: tuple[str, ...] = ()      # attributes that survive a power cut (which page is up)
    keyed: tuple[str, ...] = ()           # those of them that hold a move being keyed in (see undone)
    session: Session | None = None        # the game a game's flow (``Play``) plays; None elsewhere
    game = ""                             # the game a setup form sets up ("" elsewhere)

    def __init__(self, box: Host) -> None:
        self.box = box

    def view(self) -> dict:
        return {name: getattr(self, name) for name in self.remembered}

    def restore(self, view: dict) -> None:
        """Back on a saved page.  A value of another kind than the page's own
        (a damaged or foreign record) raises ValueError: the box then shows
        the game's first page instead."""
        if not isinstance(view, dict):
            raise ValueError("a saved page is a dict")
        for name in self.remembered:
            if name in view:
                value, own = view[name], getattr(self, name, None)
                if own is not None and value is not None and _kind(value) != _kind(own):
                    raise ValueError(f"saved {name!r} is a {type(value).__name__}, not a {type(own).__name__}")
                if isinstance(own, Enum) and value is not None:
                    value = type(own)(value)   # a page's mode; one it does not have is a ValueError too
                setattr(self, name, value)

    def undone(self, view: dict) -> dict:
        """The page an undo lands on, from ``view``, the page its action was
        keyed on; called on a new flow.  The move being keyed in there (the
        ``keyed`` attributes: digits typed, a space or a target named) comes
        back empty, as it is here: on the page before the move, where no
        single key makes the move taken back again."""
        return {**view, **{name: getattr(self, name) for name in self.keyed if name in view}}

    def key(self, key: str, kind: str) -> None:
        pass

    @property
    def outcome(self) -> bool:
        """Whether the game's page shows the last guess's outcome until
        ``#``, with nobody's turn on it yet (``referee.account``)."""
        return False

    def on_roll(self) -> None:
        """A roll asked for on this page came in and was played."""

    def setup_form(self) -> Form | None:
        """The setup form this flow is (whose names page ``referee.setup_names``
        serves), None for any other flow."""
        return None

    def merge_page(self) -> Merging | None:
        """The Merge names page this flow is (``referee.merging``), None for
        any other flow."""
        return None

    def screens(self) -> dict[str, Screen]:
        return {}

    # --- help in play (``referee.box.flows.playhelp``): the box opens it, over ``screens()``'s main

    def help_keys(self, page: Screen) -> list[str]:
        """What the keys of ``page``, the game's page the help is over, do:
        its key bar, and its digits by ``digit_help``."""
        return roles.key_help(page, self.digit_help(page))

    def digit_help(self, page: Screen) -> str:
        """What the digits of ``page`` do, with ``{keys}`` for their range
        ("{keys}: pick a letter"); "" says "choose"."""
        return ""

    def help_rules(self) -> tuple[str, ...]:
        """The game's own lines of help after the page's keys (Decrypto's
        clue rules), translated."""
        return ()

    def help_anchor(self) -> str:
        """The How to play page's anchor of the page on screen, where it is
        not its phase's (``HOW_AT``): "" for the phase's."""
        return ""


def _kind(value) -> str:
    # JSON gives back lists for tuples and may give ints for floats.
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, (list, tuple)):
        return "list"
    if isinstance(value, str):
        return "str"     # a mode (a StrEnum) is saved as its text
    return type(value).__name__


def module(name: str):
    """A game's key flows (``referee.catalogue``), None if it has none yet."""
    game = catalogue.GAMES.get(name)
    return catalogue.load(game.flows) if game is not None else None


def flow_for(box, session) -> Flow:
    return module(session.name).Play(box, session)


def more(n: int) -> str:
    """Winners beyond those a screen has room to name: "+2 more"."""
    return ngettext("+{n} more", "+{n} more", n).format(n=n)


def team_label(seat: str) -> str:
    return _("Team 1") if seat == "team1" else _("Team 2")
