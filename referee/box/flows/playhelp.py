"""Help in play, the same for every game: ``C`` over a game's page whose
key bar offers it ("C:Help") opens the help of the phase on screen, over
the page, which stays as it was: the help changes nothing of the game.

The help is short, and says first what matters now, alone on its first
pages (one or two): what the phase is for, in the words its taught page
uses (the ``TEACH`` text of the game's ``said`` module: one source for
both), then what the keys of the page it was opened from do (the flow's
``help_keys``: its key bar, and what its digits choose, their range as the
page takes them, so from the state: "1-4: pick a letter" at three
players), the line of the controls no key bar shows last.  Then the game's
own lines, if the page has any (``help_rules``: Decrypto's clue rules while
the clues are written); then the words of the game's glossary that the
page beneath shows, as it is drawn, and only those (``glossary.shown``: the
whole glossary is the setup's help's and the phones'); last the QR code of
the phones' How to play page at that phase (``HOW_AT`` of the ``said``
module names its anchor, ``/how/<game>#<anchor>``).  ``C``/``D`` turn the
pages round and round, ``*`` goes back to the game; "Help 1/N" counts
them all, the QR code's the last.

The help is the box's, as the taught pages are (``Helper``): no game's
flow handles ``C`` for it, each only offers it on its key bar
(``roles.help_key``) where ``C`` turns no page of its own.  Its page is
kept with the game's page (``referee.box.page_keeper``), so a power cut
comes back to it; an undo, or leaving the game, closes it.
"""
from __future__ import annotations

import dataclasses

from typing import TYPE_CHECKING, Protocol

from referee import catalogue, glossary
from referee.box.flows import Flow, forms, roles
from referee.box.flows import teacher
from referee.box.flows.host import Host
from referee.box.screen import COLS, LINES, Screen, layout, wrap
from referee.i18n import _

if TYPE_CHECKING:
    from referee.box.session import Session

BACK, ON = "◄", "►"
SIDE = "  "   # between two keys' lines written side by side


def how_phase(game: str, phase: str) -> str:
    """The How to play page's anchor for a phase of ``game``: the said
    module's ``HOW_AT`` names it where the rules' phase is not an anchor."""
    return (catalogue.hook(game, "said", "HOW_AT") or {}).get(phase, phase)


def offers_help(page: Screen | None) -> bool:
    """Whether ``page`` offers the help: ``C`` on its key bar, as Help."""
    return page is not None and any(key == roles.HELP and label == _("Help") for key, label in page.keys)


def helped(keys: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
    """``keys`` with the help's ``C`` in its place on the bar: before ``D`` and ``*``."""
    at = next((i for i, (key, _label) in enumerate(keys) if key in (roles.MORE, roles.BACK)), len(keys))
    return (*keys[:at], roles.help_key(), *keys[at:])


def costs(plain: Screen, helped: Screen) -> bool:
    """Whether ``helped`` (``plain`` with Help on its bar) costs the page a
    line of its own, or cuts one, or a key's label: where the page has no
    room for the help."""
    before, after = layout(plain), layout(helped)
    cut = [text for text in (*after.lines, *after.keys) if text.endswith("…")]
    return len(after.lines) < len(before.lines) or \
        len(cut) > len([text for text in (*before.lines, *before.keys) if text.endswith("…")])


def with_help(plain: Screen, helped_page: Screen | None = None) -> Screen:
    """``plain`` with Help on its key bar (or ``helped_page``, the page as
    drawn with it), where that costs the page nothing it shows."""
    page = helped_page or dataclasses.replace(plain, keys=helped(plain.keys))
    return plain if costs(plain, page) else page


def drawn(page: Screen) -> list[str]:
    """The words ``page`` shows as the panel draws it, row for row, without
    a passing message: its title, its big line, its lines, the line of what
    was last done and its key bar."""
    at = layout(dataclasses.replace(page, flash=""))
    return [at.title, page.big, *at.lines, *at.said.split("\n"), *at.keys]


def key_lines(keys: list[str]) -> list[list[str]]:
    """The keys' lines as the help writes them, the line of the controls
    no key bar shows last: each key's words whole (one too long for a line
    wraps), short ones side by side where they fit one line together
    ("A: YES  B: NO")."""
    out: list[list[str]] = []
    for line in [*keys, forms.game_menu_line()]:
        parts = wrap(line)
        last = out[-1] if out else []
        if len(parts) == 1 and len(last) == 1 and len(last[0]) + len(SIDE) + len(parts[0]) <= COLS:
            last[0] += SIDE + parts[0]
        else:
            out.append(parts)
    return out


def pages(game: str, phase: str, keys: list[str], rules: tuple[str, ...] = (),
          shows: list[str] | tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """The help's pages: what ``phase`` is for, in its taught page's words,
    and on from there the page's ``keys``, alone on the first pages; then
    the game's own ``rules``, from a page of their own; then the words of
    the game's glossary that ``shows`` (the page's drawn rows) shows
    (``glossary.shown``), each whole on a page, as many as fit one."""
    said = catalogue.load(catalogue.GAMES[game].said)
    teach = getattr(said, "TEACH", {}).get(phase)
    phase_items = ([wrap(_(teach))] if teach else []) + key_lines(keys)
    words = [wrap(line) for line in glossary.lines(game, glossary.shown(game, shows))]
    return forms.whole_pages([phase_items, [wrap(rule) for rule in rules], words], LINES)


def screen(box: Host, game: str, page: int, anchor: str, shown: list[tuple[str, ...]]) -> Screen:
    """Help page ``page`` (taken round) of the pages ``shown``; after
    their last, the QR code of the How to play page at ``anchor``."""
    page %= len(shown) + 1
    keys = (("C", BACK), ("D", ON), ("*", _("Back")))   # round and round: D on the last page is the first
    if page == len(shown):
        return forms.how_screen(box, game, anchor, keys)
    return Screen(forms.help_title(page, len(shown) + 1), shown[page], keys=keys)


class Reader(Host, Protocol):
    """What the help in play asks of its box: what a flow may, the flow up
    and whether it is the game's own (the help is over a game's page, not
    over the menus)."""

    flow: Flow | None

    @property
    def in_game(self) -> bool: ...

    def own_page(self) -> Screen | None: ...


class Helper:
    """The help in play of the game a box plays (``box``: its session and
    its game's flow), up over the game's page while ``page`` is a number."""

    def __init__(self, box: Reader) -> None:
        self.box = box
        self.page: int | None = None   # the help's page up, counted round; None: no help up

    def _playing(self) -> tuple[Session, Flow] | None:
        """The game and its flow, where the game's own page is up and the
        game has words to help with (the table tools have none)."""
        box = self.box
        session, flow = box.session, box.flow
        if session is None or flow is None or not box.in_game:
            return None
        game = catalogue.GAMES.get(session.name)
        return (session, flow) if game is not None and game.said is not None else None

    def _under(self) -> Screen | None:
        """The game's own page, which the help is over, as the public
        screen shows it."""
        return self.box.own_page() if self._playing() is not None else None

    def offered(self) -> bool:
        """Whether the game's page on screen offers its help."""
        return offers_help(self._under())

    @property
    def up(self) -> bool:
        """Whether the help is up: opened, over a page that offers it still
        (a countdown run out under it may have moved the game on to one
        that does not)."""
        return self.page is not None and self.offered()

    def open(self) -> None:
        self.page = 0

    def close(self) -> None:
        self.page = None

    def restore(self, page: object) -> None:
        """The help as it was kept with the game's page (``page``: its
        number, None for none)."""
        self.page = page if isinstance(page, int) and not isinstance(page, bool) and page >= 0 else None
        if not self.up:
            self.page = None

    def key(self, key: str) -> None:
        """``C``/``D`` turn the pages round, ``*`` closes the help."""
        if key == roles.BACK:
            self.close()
        elif key in (roles.HELP, roles.MORE) and self.page is not None:
            self.page = (self.page + (1 if key == roles.MORE else -1)) % (len(self._pages()[2]) + 1)

    def _pages(self) -> tuple[str, str, list[tuple[str, ...]]]:
        """The game, the How to play page's anchor and the help's pages,
        for the phase on screen and the page the help is over."""
        playing = self._playing()
        if playing is None:
            return "", "", []
        session, flow = playing
        game, phase = session.name, teacher.phase(session)
        under = self._under() or Screen()
        anchor = flow.help_anchor() or how_phase(game, phase)
        return game, anchor, pages(game, phase, flow.help_keys(under), flow.help_rules(), drawn(under))

    def screen(self) -> Screen | None:
        """The help's page, while it is up."""
        if self.page is None or not self.up:
            return None
        game, anchor, shown = self._pages()
        return screen(self.box, game, self.page, anchor, shown)
