"""The pad's grammar: what each key means, on every page of every game.

A page declares the keys it takes on its ``Screen`` (``keys``, the key bar;
``digits``; ``also``, keys its lines name), and the box hands the page's
flow only those (``Box.on_key``): a page cannot act on a key it does not
show.  Any other key is answered on the screen with what the page takes
("# does nothing here: A Yes, B No") and changes nothing else.

Each key has one role everywhere:

=========  ==========================================================
digits     choose an item, or enter a number (``CHOOSE``)
``#``      confirm, go on to the next step (``CONFIRM``)
``*``      one step back, or cancel (``BACK``); shown wherever it acts
``A``      the positive answer about what happened: yes, right, hit
``B``      the negative answer: no, wrong, miss (``referee.box.flows.answers``)
``C``      help; in a list of pages, the page before (``HELP``)
``D``      more, the next page (``MORE``)
=========  ==========================================================

Holding ``*`` over a game opens the game menu (undo, end the game); the
team buttons are the teams', not the page's.  ``C`` never acts in a game
except as help or to turn back a page.

A flow builds its key bar from these helpers, in this order: ``#`` first,
then the answers, then ``C``, ``D`` and ``*`` last; ``digits(n)`` names
the digits 1 to n.
"""
from __future__ import annotations

from referee.i18n import _

CHOOSE, CONFIRM, BACK, POSITIVE, NEGATIVE, HELP, MORE = "digits", "#", "*", "A", "B", "C", "D"
DIGITS = "0123456789"


def digits(n: int, first: int = 1) -> str:
    """The digits that pick items ``first`` to ``n`` ("" for none)."""
    return "".join(str(i) for i in range(first, min(n, 9) + 1))


def confirm(label: str) -> tuple[str, str]:
    return CONFIRM, label


def back(label: str | None = None) -> tuple[str, str]:
    return BACK, label if label is not None else _("Back")


def help_key() -> tuple[str, str]:
    return HELP, _("Help")


def more(label: str | None = None) -> tuple[str, str]:
    return MORE, label if label is not None else _("More")


def digit_text(taken: str) -> str:
    """Digits a page takes, as a range where they run on: "1-4", "2,3", "0-9"."""
    if taken == DIGITS[1:] or taken == DIGITS:
        return f"{taken[0]}-{taken[-1]}"
    if len(taken) > 2 and all(int(b) - int(a) == 1 for a, b in zip(taken, taken[1:])):
        return f"{taken[0]}-{taken[-1]}"
    return ",".join(taken)


def key_help(screen, digits: str = "") -> list[str]:
    """What the keys of ``screen`` do, one a line, for help in play: its
    digits first, where its key bar does not name them ("1-4: pick a
    letter", from ``digits``, a text with ``{keys}`` for their range, else
    "1-4: choose"), then its key bar as it says them ("#: Roll"), the
    help's own ``C`` left out."""
    lines = []
    if screen.digits and not any(key[:1].isdigit() for key, _label in screen.keys):
        lines.append((digits or _("{keys}: choose")).format(keys=digit_text(screen.digits)))
    return lines + [f"{key}: {label}" for key, label in screen.keys if key != HELP]


def refused(screen, key: str) -> str:
    """What a page says to a key it does not take: the key, then what the
    page's key bar and digits take ("# does nothing here: A Yes, B No");
    the keys its lines name, they say themselves."""
    taken = [f"{k} {label}" for k, label in screen.keys]
    if screen.digits and not any(k[:1].isdigit() for k, _label in screen.keys):   # "2,3:attack" says them
        taken.insert(0, digit_text(screen.digits))
    if not taken:
        return _("{key} does nothing here.").format(key=key)
    return _("{key} does nothing here: {keys}").format(key=key, keys=", ".join(taken))
