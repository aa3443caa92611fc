"""The words a game's screens use, defined: one glossary per game, in the
box's four languages.

Each game's terms are the ``GLOSSARY`` of its ``said`` module (the words
both processes speak, ``referee.said.<game>``): a ``Term`` is its headword
and the single words the screens write it in ("unused letters|unused",
"officer|officer|officers"; a headword of one word counts as a form too; a
catalogue lists its own language's forms, cases included), and one short
sentence that says what it is.  The box's help pages end on them, and a phone's
page can show the same sentences.  ``tests/test_glossary.py`` walks every
page of every game in every language and fails on a word that is neither
an everyday word (``tests/everyday/<lang>.txt``) nor one of the game's
terms.
"""
from __future__ import annotations

from typing import NamedTuple

from referee import catalogue
from referee.i18n import _


class Ruling(NamedTuple):
    """Why the referee decided as it did, for a first game taught
    (``referee.box.flows.teacher``): the rule's tag in the rulebook, and the
    words that say it (a message id, with the decision's fields)."""
    rule: str
    text: str


class Term(NamedTuple):
    words: str    # message id: the headword, then the forms the screens use, "|"-separated
    means: str    # message id: what it is, one sentence


def terms(game: str) -> tuple[Term, ...]:
    """The game's glossary as written, untranslated; () for a game without one."""
    return catalogue.hook(game, "said", "GLOSSARY") or ()


def defined(game: str) -> list[tuple[str, str]]:
    """(headword, sentence) of every term, in the box's language."""
    return [(_(term.words).split("|")[0], _(term.means)) for term in terms(game)]


def forms(game: str) -> set[str]:
    """Every form of every term in the box's language, lower case."""
    found: set[str] = set()
    for term in terms(game):
        head, *words = _(term.words).split("|")
        single = [head] if len(head.split()) == 1 else []   # a headword of one word is shown as written
        found.update(word.strip().lower() for word in [*single, *words] if word.strip())
    return found


def lines(game: str) -> list[str]:
    """The glossary as help text: "Officer: …", a sentence each, the
    headword capitalised (a page may begin with it)."""
    return [f"{word[:1].upper()}{word[1:]}: {means}" for word, means in defined(game)]
