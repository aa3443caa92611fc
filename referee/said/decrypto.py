"""Decrypto: what a player did, in the words of the box's ``»`` line and
undo question, which the replay on the phones repeats (``referee.said``)."""
from __future__ import annotations

from games import decrypto as d
from referee.glossary import Term
from referee.i18n import N_, _, ngettext


def code_text(code) -> str:
    return "-".join(str(digit) for digit in code)


def said_line(team: str, guess, right: bool) -> str:
    """A team's guess and whether it was the code, on a line that never
    breaks inside the code."""
    text = _("{team}: {code} right") if right else _("{team}: {code} wrong")
    return text.format(team=team, code=code_text(guess))


def describe(event, before) -> str:
    """The action in a few words, read in the state before it."""
    def team(seat: int) -> str:
        return _(before.names[seat])
    match event:
        case d.CluesDone(seat):
            return _("{team}: clues done").format(team=team(seat))
        case d.Clues(seat):
            return _("{team}'s clues").format(team=team(seat))
        case d.SwapKeyword(seat, position):
            return _("{team} swaps word {n}").format(team=team(seat), n=position)
        case d.Guess(seat, code) if d.step(before).kind == "intercept":
            # Right or wrong is said with the code, after the decode [DE-6]:
            # here it would tell the decoding team its code.
            return _("{team} intercepts: {code}").format(team=team(seat), code=code_text(code))
        case d.Guess(seat, code):
            target = d.step(before).of_team
            return said_line(team(seat), code, target is not None and tuple(code) == tuple(before.codes[target] or ()))
        case d.KeywordsGuessed(seat, count):
            return ngettext("{team}: {n} keyword", "{team}: {n} keywords", count or 0).format(team=team(seat), n=count)
    return ""


# The words of Decrypto's screens, defined (``referee.glossary``).
GLOSSARY = (
    Term(N_("White, Black|white|black"), N_("The two teams; White's code goes first.")),
    Term(N_("keyword|keyword|keywords"), N_("Your team's 4 words, 1-4 on its screen.")),
    Term(N_("encryptor|encryptor|encryptors"), N_("Gives the team's clues this round.")),
    Term(N_("code|code|codes"), N_("3 digits of 1-4, the keywords to hint.")),
    Term(N_("clue|clue|clues"), N_("A word hinting at a keyword's meaning.")),
    Term(N_("interception (int)|interception|interceptions|intercepts|int"), N_("Guessing the other team's code: two win.")),
    Term(N_("miscommunication (mis)|miscommunication|miscommunications|miscommunicated|miscommunicates|mis"), N_("Missing your own code: two lose.")),
    Term(N_("tokens|token|tokens"), N_("Interceptions and miscommunications held.")),
    Term(N_("Hacker|hacker"), N_("Plays alone against two; only intercepts.")),
)
