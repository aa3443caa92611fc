"""What the soft keys mean when the box asks the table a question: one
table for every game, so that a table switching games never records the
opposite of what it meant.

A question about what happened on the table (is the secret word destroyed,
is the seeker's word right, did the attack hit, does the maker say YES) is
answered with ``A`` for the positive answer and ``B`` for the negative one,
in every game.  ``A`` is the top key of the pad's letter column and the
first label on the key bar, where the eye lands first, and every language
the box speaks says the pair in that order: yes or no, right or wrong, hit
or miss.

A question about what the box is to do next (end the game? start the
round?) is a different thing: ``#`` does it and ``*`` does not, as ``#``
confirms and ``*`` goes back on every page.  Those keys are not soft keys
and never answer a question of the first kind.
"""
from __future__ import annotations

from referee.i18n import N_, _

POSITIVE, NEGATIVE = "A", "B"

# Each kind of question: its positive answer's label, then its negative's.
ANSWERS = {
    "yes": (N_("Yes"), N_("No")),
    "YES": (N_("YES"), N_("NO")),        # Decipher's maker, in the rulebook's capitals
    "right": (N_("Right"), N_("Wrong")),
    "hit": (N_("Hit"), N_("Miss")),
}


def keys(kind: str) -> tuple[tuple[str, str], tuple[str, str]]:
    """The key bar's two answers to a question of ``kind``, positive first."""
    yes, no = ANSWERS[kind]
    return (POSITIVE, _(yes)), (NEGATIVE, _(no))


def answer(key: str) -> bool | None:
    """True for the positive answer's key, False for the negative's, None
    for any other key."""
    return True if key == POSITIVE else False if key == NEGATIVE else None


def help_line(kind: str) -> str:
    """The keys of ``kind`` as a help page writes them: "A: Yes  B: No"."""
    (yes_key, yes), (no_key, no) = keys(kind)
    return f"{yes_key}: {yes}  {no_key}: {no}"
