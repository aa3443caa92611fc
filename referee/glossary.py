"""The words a game's screens use, defined: one glossary per game, in the
box's four languages.

Each game's terms are the ``GLOSSARY`` of its ``said`` module (the words
both processes speak, ``referee.said.<game>``): a ``Term`` is its headword
and the single words the screens write it in ("unused letters|unused",
"officer|officer|officers"; a headword of one word counts as a form too; a
catalogue lists its own language's forms, cases included), and one short
sentence that says what it is.  The setup's help ends on them all, the help
in play on those of the page it was opened from (``shown``: which terms a
text shows, the one place that finds them), and a phone's page can show the
same sentences.  ``tests/test_glossary.py`` walks every
page of every game in every language and fails on a word that is neither
an everyday word (``tests/everyday/<lang>.txt``) nor one of the game's
terms.
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from typing import NamedTuple

from referee import catalogue
from referee.i18n import _


class Ruling(NamedTuple):
    """Why the referee decided as it did, for a first game taught
    (``referee.box.flows.teacher``): the rule's tag in the rulebook, and the
    words that say it (a message id, with the decision's fields)."""
    rule: str
    text: str


# A word of a screen's text: letters only, as a term's forms are written.
WORD = re.compile(r"[^\W\d_]+")


class Term(NamedTuple):
    words: str    # message id: the headword, then the forms the screens use, "|"-separated
    means: str    # message id: what it is, one sentence


def terms(game: str) -> tuple[Term, ...]:
    """The game's glossary as written, untranslated; () for a game without one."""
    return catalogue.hook(game, "said", "GLOSSARY") or ()


def defined(game: str, only: Iterable[Term] | None = None) -> list[tuple[str, str]]:
    """(headword, sentence) of every term (or of the terms ``only``, in
    the glossary's order), in the box's language."""
    chosen = set(only) if only is not None else None
    return [(_(term.words).split("|")[0], _(term.means)) for term in terms(game)
            if chosen is None or term in chosen]


def _forms(term: Term) -> set[str]:
    """The single words ``term`` is written in on the screens, in the box's
    language, lower case."""
    head, *words = _(term.words).split("|")
    single = [head] if len(head.split()) == 1 else []   # a headword of one word is shown as written
    return {word.strip().lower() for word in [*single, *words] if word.strip()}


def forms(game: str) -> set[str]:
    """Every form of every term in the box's language, lower case."""
    return {word for term in terms(game) for word in _forms(term)}


def shown(game: str, texts: Iterable[str]) -> tuple[Term, ...]:
    """The game's terms that ``texts`` (a screen's words) show: each that
    one of their words is a form of, in any case, in the glossary's order."""
    words = {word.lower() for text in texts for word in WORD.findall(text)}
    return tuple(term for term in terms(game) if _forms(term) & words)


def lines(game: str, only: Iterable[Term] | None = None) -> list[str]:
    """The glossary (or its terms ``only``) as help text: "Officer: …", a
    sentence each, the headword capitalised (a page may begin with it)."""
    return [f"{word[:1].upper()}{word[1:]}: {means}" for word, means in defined(game, only)]
