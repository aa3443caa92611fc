"""What a flow may do with the box it runs on (``Flow.box``).

A flow reads the game and the box's settings, hands the rules its events
(``act``), says things (``flash``, ``sound``), and moves the keys on to
another flow (``goto``, a game with ``start_game``, the main menu with
``leave``).  It never touches the box's displays, store rows or timers
itself: those follow from what the rules decided (``referee.box.coordinator``).  The
box is the one ``Host`` in the service; ``tests/test_flow_host.py`` checks
that it offers all of this and that the flows ask for nothing else.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    from hal.timing import Clock
    from referee.clock import WallLabels
    from referee.config import Config
    from referee.box.flows import Flow
    from referee.box.flows.forms import Form
    from referee.box.flows.teacher import Teacher
    from referee.box.session import Session
    from referee.store.events import Store
    from referee.box.wifi import Network


@runtime_checkable
class Host(Protocol):
    session: Session | None   # the game being played (or the table tools left running)
    config: Config
    store: Store              # for settings and the evening's names, never a game's rows
    labels: WallLabels        # the wall clock's label now, to tell tonight from last week
    clock: Clock              # ``monotonic`` and ``call_later``, for a flow's own short timers
    network: Network          # the Wi-Fi as comitup last said it, for the score log's codes
    # Setup forms left for the main menu, by game: (the evening, the form)
    # (``menu.keep_setup``).
    setups: dict[str, tuple[float, Form]]
    teacher: Teacher          # a first game's taught pages: a setup's Teach choice goes to it

    def act(self, event, view: dict | None = None) -> bool:
        """Hand the rules a player's event; False (and a message) if refused."""

    def flash(self, text: str, seconds: float | None = ...) -> None:
        """A one-line message over the main screen."""

    def sound(self, name: str) -> None: ...

    def roll(self) -> None:
        """Roll what the game asks for on the dice."""

    def remaining(self) -> float | None:
        """Seconds left on the game's countdown, if it has one."""

    def game_time(self) -> float:
        """The game clock now (the countdowns count in it)."""

    def public_url(self) -> str:
        """Where phones find the score log."""

    def goto(self, flow: Flow) -> None:
        """``flow`` takes the keys and the screens from now on."""

    def start_game(self, name: str, options: dict | None = None) -> None:
        """Begin a game with its setup's options (its flow takes over)."""

    def leave(self) -> None:
        """End the game and go back to the main menu."""

    def render(self) -> None:
        """Draw the screens again now (a flow's own timer changed them)."""

    def changed(self) -> None:
        """Something beyond the game changed (the language): redraw, and
        tell the open phone pages."""
