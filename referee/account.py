"""One account of a game at one moment: what the public screen tells the
table, as data.

The box's public screen, the table view (``/table``), each step of the
replay (``/g/N/step/K``, ``steps.json``) and the score log's verdict are
all made from an ``Account``, so they cannot say different things: the
stage (the round, a tournament's game), whose turn it is, each side's
tokens or points, and once it is over the winners, the result and why.

An account is made by ``of`` from the rules' public view and summary (the
score log's entry): nothing in it is a secret.  Each game's own words are
``account(view, summary)`` in its ``said`` module (``referee.said.<game>``,
named by ``referee.catalogue``, which both processes import), returning a
``Facts``.  Two fields only the box knows and sends to the web beside its
change notices (``referee.channel``'s ``TableNotice``): ``phase``, the
title of the page the public screen is on (a code's reveal stays up until
``#``, though the rules have moved on; ``outcome`` says such a page is
up), and ``said``, its ``»`` line.  The replay says for each step the
``»`` line of its action (``referee.said``) and leaves ``phase`` empty:
which page a key turned to is not recorded.
"""
from __future__ import annotations

import msgspec

from games.base import Summary, View
from referee import catalogue, setup_names
from referee.i18n import _


class Count(msgspec.Struct, frozen=True):
    """How many of one kind of token a side holds.  The numbers, not their
    words: the box's panel has 21 columns ("White: int 1, mis 0"), the
    phones room for "1 interception, 0 miscommunications", and both are
    made from these by the game's ``said`` module."""
    kind: str                  # the game's name of the kind ("interceptions"; Decrypto's ``Token``)
    n: int


class Side(msgspec.Struct, frozen=True):
    """A player or a team as the public screen counts them."""
    name: str                  # as the pages show it ("White", "Player 2", "Ann")
    tokens: str = ""           # its tokens in the phones' words ("Hacker tokens: 1 of 2"); "" where none
    counts: list[Count] = []   # the numbers ``tokens`` says, where a surface words them its own way
    points: int | None = None  # its points so far, where the game counts points
    winner: bool = False


class Facts(msgspec.Struct, frozen=True):
    """A game's own part of an account (its ``said`` module's ``account``)."""
    stage: str                 # where the game is: "Round 2 of 8", "Game 1 of 3", "Round 1"
    turn: str                  # whose turn, as the box says it ("Turn: Bo", "White decodes"); "" for none
    sides: list[Side]
    reason: str = ""           # why it ended ("Black intercepted twice."), once over
    decoded: str = ""          # the stage while the last outcome is on show (a decoded round's, until #); "" for stage


class Account(msgspec.Struct, frozen=True):
    game: str                  # the catalogue's name ("decrypto")
    stage: str
    turn: str
    sides: list[Side]
    over: bool                 # ended: played to its end, or stopped
    stopped: bool              # ended by the table before the rules ended it
    winners: list[str]         # the game's winners (a tournament's, over its games), as shown; [] for none
    result: str                # "Black wins", "Ann and Bo share the win", "Ended early: nobody wins"; ""
    reason: str
    phase: str = ""            # the title of the box's public page (the box's word)
    said: str = ""             # the » line: the last action and who made it
    outcome: bool = False      # the box's page shows the last guess's outcome until # (the box's word)
    staged: bool = False       # the box's page draws the stage as a row of its own (the box's word)


def name_of(game: str, name: str) -> str:
    """A player's or team's name as the pages show it: a name the rules give
    in English ("White", "West", the catalogue's ``rule_names``, as the
    panels translate it), a seat's default in the reader's language
    ("Player 1" recorded by a box speaking English reads "Hráč 1" on a Czech
    page), or a name the table gave, as given."""
    rules = catalogue.GAMES[game].rule_names if game in catalogue.GAMES else ()
    if name in rules:
        return _(name)
    seat = setup_names.seat_number(name)
    return name if seat is None else _("Player {n}").format(n=seat)


def result(winners: list[str], over: bool, stopped: bool) -> str:
    """The result in words, the winners named as shown: who won, or that
    nobody did."""
    if not over:
        return ""
    if not winners:
        return _("Ended early: nobody wins") if stopped else _("No winner")
    if len(winners) == 1:
        return _("{winner} wins").format(winner=winners[0])
    return _("{winners} and {final} share the win").format(winners=", ".join(winners[:-1]), final=winners[-1])


def of(game: str, view: View, summary: Summary, ended: bool = False, phase: str = "", said: str = "",
       outcome: bool = False, after_action: bool = False, staged: bool = False) -> Account:
    """The account of game ``game`` from its rules' public ``view`` and
    ``summary``; ``ended``: the box closed the game (a game ended from the
    game menu is over, though its rules are not); ``outcome``: the box's
    page shows what the last guess came to, and nobody's turn until ``#``;
    ``after_action``: the page is not known (the replay), the account is
    the box's right after the last action, when its outcome is on show.
    The stage is the page's: a decoded round's while its outcome is up,
    the next round's once ``#`` has turned to it."""
    facts: Facts = catalogue.hook(game, "said", "account")(view, summary)
    stage = facts.decoded if facts.decoded and (outcome or after_action) else facts.stage
    done = summary.status == "finished"
    over = done or ended
    stopped = over and (not done or summary.stopped)
    winners = [name_of(game, name) for name in summary.winners] if done else []
    shown = set(winners)
    sides = [msgspec.structs.replace(s, winner=s.name in shown) for s in facts.sides]
    return Account(game, stage, "" if outcome or over else facts.turn, sides, over, stopped, winners,
                   result(winners, over, stopped), facts.reason if over else "", phase, said, outcome, staged)


def has_account(game: str) -> bool:
    """Whether game ``game`` gives an account (every game of the score log does)."""
    return catalogue.hook(game, "said", "account") is not None
