"""Decrypto on the phones: the form on which the encryptor types the
round's three clues on the team page (``templates/team-decrypto.html``), a
round's line of the score sheet, where the game in progress stands, its
tokens charted, and why it ended.

The form only carries the text; the rules judge it (``games.decrypto.Clues``)
and a refusal comes back on the page as their sentence.
"""
from __future__ import annotations

from markupsafe import Markup

from games import decrypto as d
from referee.i18n import N_, _
from referee.web import chart as charts, sheets

FIELDS = ("clue1", "clue2", "clue3")   # in code order, as the template names them


def team_form(state: d.State, team: int, form: dict[str, str]) -> d.Clues:
    return d.Clues(team, tuple(form.get(name, "") for name in FIELDS))


def details(i: int, r: dict) -> tuple[str, str]:
    parts = []
    codes, clues = r.get("codes", {}), r.get("clues", {})
    for team, code in codes.items():
        guess = r.get("guesses", {}).get(team, {})
        decode = sheets.code(guess.get("decode", ()))
        if guess.get("decode") == code:
            said = [_("decoded")]
        elif r.get("tokens", {}).get(team, {}).get("miscommunications"):
            said = [_("miscommunication ({code})").format(code=decode)]
        else:
            # [DE-10] The Team takes no miscommunication: the Hacker scores instead.
            said = [_("decoded wrong ({code}): Hacker +1").format(code=decode)]
        intercept = guess.get("intercept")
        if intercept is not None:
            said.append(_("intercepted") if intercept == code
                        else _("intercept missed ({code})").format(code=sheets.code(intercept)))
        heard = f" ({', '.join(clues[team])})" if clues.get(team) else ""
        name = sheets.side("decrypto", team)
        parts.append(f"{name} {sheets.code(code)}{heard}: {', '.join(said)}")
    # Clues read out for a code not revealed yet: in the order they were said.
    parts += [_("{team} clues: {clues}").format(team=sheets.side("decrypto", team), clues=", ".join(said))
              for team, said in clues.items() if team not in codes]
    return sheets.round_label(i, r), "; ".join(parts)


# What a Decrypto round is waiting for, by its step.
_STEPS = {
    "deal": N_("drawing codes"),
    "clues": N_("encryptors writing clues"),
    "intercept": N_("{team} intercepts"),
    "decode": N_("{team} decodes"),
    "tiebreak": N_("tie-break: keywords guessed"),
}


def now(v: dict) -> list[str]:
    step = v["step"]
    team = sheets.side("decrypto", v["teams"][step["team"]]) if step["team"] is not None else ""
    doing = _STEPS.get(step["kind"])
    return [sheets.of(v["round"], v["last_round"])] + ([_(doing).format(team=team)] if doing else [])


def chart(entry: dict, teams: list[str]) -> tuple[Markup, list[dict]]:
    """Decrypto's chart: each team's interception and miscommunication
    tokens after every round, and the legend for it.  ``teams`` are the
    teams' names as the page shows them."""
    kinds = (("interceptions", _("Interceptions")), ("miscommunications", _("Miscommunications")))
    now = [0] * (2 * len(teams))
    points = [tuple(now)]
    for r in entry.get("rounds", ()):
        got = r.get("tokens", {})
        for t, name in enumerate(entry.get("players", ())):
            for j, (kind, _l) in enumerate(kinds):
                now[2 * t + j] += got.get(name, {}).get(kind, 0)
        points.append(tuple(now))
    series = [f"{team}: {label}" for team in teams for _k, label in kinds]
    legend = [{"name": name, "colour": k // 2, "dashed": k % 2 == 1, "value": points[-1][k]}
              for k, name in enumerate(series)]
    label = _("Tokens: {scores}").format(scores=", ".join(f"{n} {v}" for n, v in zip(series, points[-1])))
    svg = charts.running_totals(series, points, colours=[k // 2 for k in range(len(series))],
                                dashed=frozenset(range(1, len(series), 2)), label=label)
    return svg, legend


# Why a game ended, as its summary names it.
REASONS = {
    "interceptions": N_("Two interceptions."),
    "miscommunications": N_("The other side miscommunicated twice."),
    "rounds": N_("The Team held out for five rounds."),
    "score": N_("Tie-break: interceptions minus miscommunications."),
    "keywords": N_("Tie-break: keywords guessed."),
    "shared": N_("Still equal after every tie-break."),
}


# Why a game went to its tie-breaks [DE-9].
TIES = {
    "both_tokens": N_("Tie: a team held two of each token."),
    "both_miscommunications": N_("Tie: both teams miscommunicated twice."),
    "both_interceptions": N_("Tie: both teams intercepted twice."),
    "round_limit": N_("Tie: nothing decided in eight rounds."),
}


def reason(entry: dict) -> str:
    """Why the game ended; after a tie, why it was one and what broke it,
    with the keyword counts when they decided."""
    why = REASONS.get(entry.get("reason"))
    if not why:
        return ""
    tie = TIES.get(entry.get("tie"))
    parts = [_(tie)] if tie else []
    parts.append(_(why))
    counts = entry.get("keywords_guessed")
    if counts:
        parts.append(_("Keywords guessed: {counts}.").format(
            counts=", ".join(f"{sheets.side('decrypto', team)} {n}" for team, n in counts.items())))
    return " ".join(parts)
