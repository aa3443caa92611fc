"""Decrypto on the phones: the form on which the encryptor types the
round's three clues on the team page (``templates/team-decrypto.html``), a
round's line of the score sheet, the sheet of tokens that decide a game of
two teams (``templates/sheet-decrypto.html``), where the game in progress
stands, its tokens charted, and why it ended.

The form only carries the text; the rules judge it (``games.decrypto.Clues``)
and a refusal comes back on the page as their sentence.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from markupsafe import Markup

from games import decrypto as d
from referee.i18n import N_, _
from referee.said import decrypto as said
from referee.store.scorelog import Entry
from referee.web import chart as charts, sheets

FIELDS = ("clue1", "clue2", "clue3")   # in code order, as the template names them


def team_form(state: d.State, team: int, form: dict[str, str]) -> d.Clues:
    return d.Clues(team, tuple(form.get(name, "") for name in FIELDS))


def details(i: int, r: d.RoundLog) -> tuple[str, str]:
    parts = []
    codes, clues = r.codes, r.clues
    for team, code in codes.items():
        # A code is revealed with its guesses, and every team has its tokens.
        guess = r.guesses[team]
        decode = sheets.code(guess.decode)
        if guess.decode == code:
            said = [_("decoded")]
        elif r.tokens[team].miscommunications:
            said = [_("miscommunication ({code})").format(code=decode)]
        else:
            # [DE-10] The Team takes no miscommunication: the Hacker scores instead.
            said = [_("decoded wrong ({code}): Hacker +1").format(code=decode)]
        intercept = guess.intercept
        if intercept is not None:
            said.append(_("intercepted") if intercept == code
                        else _("intercept missed ({code})").format(code=sheets.code(intercept)))
        heard = f" ({', '.join(clues[team])})" if clues.get(team) else ""
        name = sheets.side("decrypto", team)
        parts.append(f"{name} {sheets.code(code)}{heard}: {', '.join(said)}")
    # Clues read out for a code not revealed yet: in the order they were said.
    parts += [_("{team} clues: {clues}").format(team=sheets.side("decrypto", team), clues=", ".join(said))
              for team, said in clues.items() if team not in codes]
    return sheets.round_label(r.round), "; ".join(parts)


# --- the tokens that decide a game of two teams [DE-6] ---------------------------------

# What decides it, said under its sheet [DE-6] [DE-9].
TOKEN_RULE = N_("A team's second interception token wins; its second miscommunication token loses. "
                "A tie (both at once, or nothing decided after round 8) goes to interceptions minus "
                "miscommunications, then to keywords guessed.")


@dataclass(frozen=True)
class TokenRow:
    """A round: each team's (interceptions, miscommunications) won in it
    and held after it, in seat order."""
    label: str
    got: tuple
    held: tuple
    detail: str


@dataclass(frozen=True)
class TokenSheet:
    rows: list[TokenRow]
    rule: str          # what decides, in the box's language


def by_tokens(entry: Entry) -> bool:
    """A game of two teams counts tokens [DE-6]; the Hacker's game races
    to goals instead [DE-10], which its totals show."""
    return not entry.summary.goals


def _rounds(entry: Entry) -> Sequence[d.RoundLog]:
    """The rounds of a Decrypto entry (the only kind these pages are given)."""
    return entry.summary.rounds if isinstance(entry.summary, d.Summary) else ()


def _got(r: d.RoundLog, name: str) -> tuple[int, int]:
    won = r.tokens[name]
    return won.interceptions, won.miscommunications


def token_sheet(entry: Entry) -> TokenSheet | None:
    """The sheet's rows (``referee.web.sheets.token_sheet``); None before
    the first round is scored, which the page says in its plain words."""
    if not by_tokens(entry):
        return None
    players = entry.summary.players
    held = [(0, 0)] * len(players)
    rows = []
    for i, r in enumerate(_rounds(entry), 1):
        got = tuple(_got(r, name) for name in players)
        held = [(a + c, b + d) for (a, b), (c, d) in zip(held, got)]
        label, detail = details(i, r)
        rows.append(TokenRow(label, got, tuple(held), detail))
    return TokenSheet(rows, _(TOKEN_RULE)) if rows else None


def tokens(entry: Entry) -> dict[str, str]:
    """Each team's tokens so far in words, where its total (their
    difference, the tie-break) would say nothing: "1 interception, 0
    miscommunications" (``referee.web.sheets.standings``)."""
    if not by_tokens(entry):
        return {}
    held = {name: [0, 0] for name in entry.summary.players}
    for r in _rounds(entry):
        for name, count in held.items():
            i, m = _got(r, name)
            count[0] += i
            count[1] += m
    return {name: said.tokens_text(i, m) for name, (i, m) in held.items()}


def now(v: d.Public) -> list[str]:
    """The round, and what it waits for (``referee.said.decrypto``, the account's words)."""
    doing = said.doing(v)
    return [sheets.of(v.round, v.last_round)] + ([doing] if doing else [])


def chart(entry: Entry, teams: list[str]) -> tuple[Markup, list[dict]]:
    """Decrypto's chart: each team's interception and miscommunication
    tokens after every round, and the legend for it.  ``teams`` are the
    teams' names as the page shows them."""
    kinds = (_("Interceptions"), _("Miscommunications"))
    now = [0] * (2 * len(teams))
    points = [tuple(now)]
    for r in _rounds(entry):
        for t, name in enumerate(entry.summary.players):
            for j, count in enumerate(_got(r, name)):
                now[2 * t + j] += count
        points.append(tuple(now))
    series = [f"{team}: {label}" for team in teams for label in kinds]
    legend = [{"name": name, "colour": k // 2, "dashed": k % 2 == 1, "value": points[-1][k]}
              for k, name in enumerate(series)]
    label = _("Tokens: {scores}").format(scores=", ".join(f"{n} {v}" for n, v in zip(series, points[-1])))
    svg = charts.running_totals(series, points, colours=[k // 2 for k in range(len(series))],
                                dashed=frozenset(range(1, len(series), 2)), label=label)
    return svg, legend


def reason(entry: Entry) -> str:
    """Why the game ended, in the words of the box's result page; after a
    tie, why it was one and what broke it, with the keyword counts when
    they decided (the account's ``reason``, from the score log's entry)."""
    return said.reason(entry.summary)


# --- the replay (referee.web.replay) -------------------------------------------------------

def _code_row(number: int, reveal: d.Reveal, teams: list[str], clues: Sequence[Sequence[str] | None]) -> tuple[str, str]:
    """A revealed code, with the clues that were read aloud for it."""
    team = sheets.side("decrypto", teams[reveal.team])
    said = _("Round {n}: {team} {code}").format(n=number, team=team, code=sheets.code(reveal.code))
    heard = clues[reveal.team] if clues else None
    return "", f"{said} ({', '.join(heard)})" if heard else said


def replay_step(v: d.Public) -> tuple[int, str, list[tuple[str, str]]]:
    """A step of the replay from the public view alone: no keyword, and no
    code before its reveal [DE-6], which the view holds back itself.  The
    turn, the tokens and the result are the step's account's
    (``referee.web.replay.account_rows``); here the clues and codes."""
    teams = v.teams
    rows = [("", _("{team} clues: {clues}").format(team=sheets.side("decrypto", teams[t]), clues=", ".join(clues)))
             for t, clues in enumerate(v.clues) if clues]
    for r in v.history:
        rows += [_code_row(r.round, x, teams, r.clues) for x in r.reveals]
    rows += [_code_row(v.round, x, teams, v.clues) for x in v.reveals]
    # A round decoded to its end is its own until the next begins (the box
    # shows its last reveal), as the account has it.
    number = v.history[-1].round if said.between(v) and v.history else v.round
    return number, sheets.of(number, v.last_round), rows


def replay_hidden(state: d.State, side: int | None) -> list[tuple[str, str]]:
    """What the box knew and kept hidden at a step, for a game that is over:
    both teams' keywords and codes (``side`` None), or one team's keywords
    with its clues under them, its notesheet as the team saw it."""
    rows = []
    for team in (0, 1) if side is None else (side,):
        name = sheets.side("decrypto", state.names[team])
        words = state.keywords[team]
        if words:
            rows.append((_("{team}: keywords").format(team=name),
                         ", ".join(f"{n}.\u00a0{word}" for n, word in enumerate(words, 1))))
        code = state.codes[team]
        if code:
            rows.append((_("{team}: code").format(team=name), sheets.code(code)))
        if side is not None and words:
            for number, clues in d.notesheet(state, team):
                rows.append((_("Round {n}").format(n=number),
                             ", ".join(f"{words[k]}: {clue}" for k, clue in enumerate(clues) if clue)))
            typed = state.clues[team]
            if typed and code and not any(x.team == team for x in state.reveals):
                rows.append((_("Round {n}").format(n=state.round),
                             ", ".join(f"{words[digit - 1]}: {clue}" for digit, clue in zip(code, typed))))
    return rows
