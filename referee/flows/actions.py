"""The last action, in a few words: what holding ``*`` offers to take back.

``describe(session)`` names the last player action of a game ("roll 4+3 →
T", "Ania's NO") so that the undo question says what it undoes.  Each game
has a small describer here, reading the state *before* that action, where
the names and the letter table are.
"""
from __future__ import annotations

from games import base
from referee.flows import clock_text
from referee.i18n import _, ngettext


def describe(session) -> str:
    """The last player action in a few words, or "" if there is none."""
    found = session.last_action()
    if found is None:
        return ""
    event, before = found
    if isinstance(event, base.Rolled):
        return _rolled(session.name, event, before)
    return DESCRIBERS[session.name](event, before)


def _rolled(game: str, event: base.Rolled, before) -> str:
    dice = "+".join(map(str, event.values))
    if game == "osmisifry" and event.purpose == "letter":
        return _("roll {dice} → {letter}").format(dice=dice, letter=before.table.letter(*event.values))
    if game == "osmisifry" and event.purpose == "direction":
        side = _("left") if event.values[0] <= 4 else _("right")   # [OS-9]
        return _("roll {dice} → {side}").format(dice=dice, side=side)
    return _("roll {dice}").format(dice=dice)


def _tools(event, before) -> str:
    from games import tools as g
    match event:
        case g.SetTimer(seconds):
            return _("timer set to {time}").format(time=clock_text(seconds))
        case g.StartTimer():
            return _("timer started")
        case g.PauseTimer():
            return _("timer paused")
        case g.ResetTimer():
            return _("timer reset")
        case g.SetDice(count, sides):
            return _("dice set to {count}d{sides}").format(count=count, sides=sides)
    return ""


def _osmisifry(event, before) -> str:
    from games import osmisifry as g
    match event:
        case g.PickLetter(player, index):
            letter = before.offer.letters[index] if index < len(before.offer.letters) else "?"
            return _("{name} takes {letter}").format(name=before.players[player], letter=letter)
        case g.Drawing(player):
            return _("{name} drawing").format(name=before.players[player])
        case g.EndCreation():
            return _("end of creation")
        case g.StartDecoding():
            return _("start of decoding")
        case g.EndDecoding():
            return _("officers done")
        case g.Score(agent):
            return _("score of {name}").format(name=before.players[agent])
    return ""


def _davinci(event, before) -> str:
    from games import davinci as g
    from referee.flows.davinci import seat_label
    match event:
        case g.Dealt():
            return _("the deal")
        case g.Attack(target, hit, by):
            who = seat_label(before.turn if by is None else by)
            text = _("{p} hits {t}") if hit else _("{p} misses {t}")
            return text.format(p=who, t=seat_label(target))
        case g.Stop():
            return _("{p} stops").format(p=seat_label(before.turn))
        case g.NextGame():
            return _("next game")
    return ""


def _decipher(event, before) -> str:
    from games import decipher as g
    maker = before.players[before.maker]
    match event:
        case g.Pieces():
            # [DC-3] The undo question is on main: the count stays the maker's.
            return _("the piece count")
        case g.BonusMode():
            return _("bonus mode")
        case g.No():
            return _("{name}'s NO").format(name=maker)
        case g.Yes():
            return _("{name}'s YES").format(name=maker)
        case g.PieceRequested():
            return _("{name} asks a piece").format(name=before.players[before.seeker])
        case g.Guess(seeker, right):
            text = _("{name} guessed right") if right else _("{name} guessed wrong")
            return text.format(name=before.players[seeker])
        case g.GiveUp():
            return _("nobody guesses")
        case g.NextRound():
            return _("next round")
    return ""


def _decrypto(event, before) -> str:
    from games import decrypto as g

    def team(seat: int) -> str:
        return _(before.names[seat])
    match event:
        case g.CluesDone(seat):
            return _("{team}: clues done").format(team=team(seat))
        case g.Clues(seat):
            return _("{team}'s clues").format(team=team(seat))
        case g.SwapKeyword(seat, position):
            return _("{team} swaps word {n}").format(team=team(seat), n=position)
        case g.Guess(seat, code):
            from referee.flows.decrypto import said_line
            target = g.step(before).of_team
            return said_line(team(seat), code, tuple(code) == tuple(before.codes[target] or ()))
        case g.KeywordsGuessed(seat, count):
            return ngettext("{team}: {n} keyword", "{team}: {n} keywords", count or 0).format(team=team(seat), n=count)
    return ""


def _octiles(event, before) -> str:
    from games import octiles as g
    from referee.flows.octiles import SEAT_NAMES

    def name(seat: int) -> str:
        given = before.names[seat]
        return _(SEAT_NAMES[given]) if given in SEAT_NAMES else given
    match event:
        case g.Play(space) | g.Played(space):
            return _("{name}: tile on {n}").format(name=name(before.turn), n=g.space_number(space))
        case g.Pass():
            return _("{name} passes").format(name=name(before.turn))
        case g.Finished(seat):
            return _("{name} finished").format(name=name(seat))
        case g.Stop():
            return _("stopping the game")
    return ""


DESCRIBERS = {"tools": _tools, "osmisifry": _osmisifry, "davinci": _davinci, "decipher": _decipher,
              "decrypto": _decrypto, "octiles": _octiles}
