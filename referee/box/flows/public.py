"""The public screen's status lines, drawn from the game's account
(``referee.account``): why a game ended, each side's tokens, whose turn it
is.  The table view, the replay's steps and the score log say the same
account, so what the panel says of these cannot differ from what the phones
say: the words are made once, by the game's ``said`` module, and the flows
only lay them out on the panel's 21 columns.

The page titles stay each flow's own ("White wins!", "Round 2:
encryptors"): the account records them as the box's ``phase``.
"""
from __future__ import annotations

import dataclasses
import re

from referee import account as accounts
from referee.account import Account
from referee.box.screen import Screen, wrap

# A sentence ends at its full stop (or ! ?) and a space, in all four languages.
SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def account(session) -> Account:
    """The account of the game in ``session`` as its rules stand now."""
    rules, state = session.rules, session.state
    return accounts.of(session.name, rules.public(state), rules.summary(state))


def reason_lines(told: Account) -> tuple[str, ...]:
    """Why the game ended, as a result page draws it: each sentence of the
    account's reason wrapped on lines of its own ("Tie: both at 2
    miscommunications." / "Score -2:-2." / "Keywords 3:1.")."""
    return tuple(line for sentence in SENTENCE_END.split(told.reason) if sentence for line in wrap(sentence))


def tokens(told: Account, side: int) -> str:
    """A side's tokens in the account's words ("Hacker tokens: 1 of 2",
    "hidden 4, up 0"), by its place in the game's sides."""
    return told.sides[side].tokens


def turn(told: Account) -> str:
    """Whose turn it is, in the account's words ("Turn: Bo"); "" for nobody's."""
    return told.turn


def keep_turn(screen: Screen, told: Account) -> Screen:
    """``screen`` with its row of whose turn it is kept (``Screen.keep``):
    the row that says the account's turn, on every game's page, so that a
    passing message over the page never hides who is to act."""
    rows = tuple(i for i, line in enumerate(screen.lines) if told.turn and line == told.turn)
    if not rows or set(rows) <= set(screen.keep):
        return screen
    return dataclasses.replace(screen, keep=(*rows, *(i for i in screen.keep if i not in rows)))
