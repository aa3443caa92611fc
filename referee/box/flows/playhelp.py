"""Help in play: ``C`` over a game's page opens its help, which first says
what the phase on screen is for, in the words its taught page uses (the
``TEACH`` text of the game's ``said`` module: one source for both), then
what the keys of the page it was opened from do, then the game's words
(``referee.glossary``), last the QR code of the phones' How to play page at
that phase.  ``C``/``D`` turn the pages round and round, ``*`` goes back
to the game, which stayed as it was: the help changes nothing.

Decrypto's play pages draw their help with ``screen`` (its clue rules
follow the phase); ``HOW_AT`` of each game's ``said`` module names the
How to play page's anchor of each phase.
"""
from __future__ import annotations


from referee import catalogue
from referee.box.flows import forms, roles
from referee.box.flows import teacher
from referee.box.screen import Screen
from referee.i18n import _

BACK, ON = "◄", "►"


def how_phase(game: str, phase: str) -> str:
    """The How to play page's anchor for a phase of ``game``: the said
    module's ``HOW_AT`` names it where the rules' phase is not an anchor."""
    return (catalogue.hook(game, "said", "HOW_AT") or {}).get(phase, phase)


def key_lines(page: Screen) -> list[str]:
    """What the keys of ``page`` do, one a line, as its key bar says them."""
    return [f"{key}: {label}" for key, label in page.keys if key != roles.HELP]


def pages(game: str, phase: str, page: Screen | None, rules: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """The help's pages: what ``phase`` is for, its taught page's lines
    (``teacher.paged``); then the game's own ``rules``, the keys of ``page`` and the
    game's words, each part from a page of its own, under each the line of
    the controls no key bar shows."""
    said = catalogue.load(catalogue.GAMES[game].said)
    teach = getattr(said, "TEACH", {}).get(phase)
    first = [line for page in teacher.paged(_(teach)) for line in page] if teach else []
    text: list[str] = []
    for part in (list(rules), key_lines(page) if page is not None else []):
        if part:
            text += [*([""] if text else []), *part]
    # The phase's words as they wrap on its taught page, cut to the help's
    # three lines; the rest paged on whole sentences.
    shown = [tuple(first[i:i + forms.HELP_LINES]) for i in range(0, len(first), forms.HELP_LINES)]
    shown += [lines for lines in forms.help_paged(forms.with_glossary(text, game)) if lines]
    return [(*lines, *("",) * (forms.HELP_LINES - len(lines)), forms.game_menu_line()) for lines in shown] \
        or [(forms.game_menu_line(),)]


def screen(box, game: str, page: int, anchor: str, shown: list[tuple[str, ...]]) -> Screen:
    """Help page ``page`` (taken round) of the pages ``shown``; after
    their last, the QR code of the How to play page at ``anchor``."""
    page %= len(shown) + 1
    keys = (("C", BACK), ("D", ON), ("*", _("Back")))   # round and round: D on the last page is the first
    if page == len(shown):
        return forms.how_screen(box, game, anchor, keys)
    return Screen(forms.help_title(page, len(shown) + 1), shown[page], keys=keys)
