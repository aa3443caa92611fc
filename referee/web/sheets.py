"""What the score-log pages show, as plain data for the templates, in the
box's language.

A *card* is one game on the evening page; a *sheet* is one game's rounds as
the paper score sheet has them, with a line of details per round; ``now`` is
one line saying where a game in progress stands.  Cards and sheets read a
game's score-log entry (its rules' ``summary``, through ``referee.scorelog``)
and ``now`` reads its rules' ``public`` view: nothing here ever sees a secret.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from babel.dates import format_date

from referee import i18n
from referee.flows import decrypto as flows_decrypto, octiles as flows_octiles
from referee.flows import menu
from referee.i18n import N_, _, ngettext

STATUS = {"playing": N_("Playing"), "finished": N_("Finished"), "abandoned": N_("Abandoned")}
# The English the pages have always written: "Sunday, 22 November 2026".
LOCALES = {"en": "en_GB"}
# Names the rules give in English ("White", "West"), taken from the screens'
# own lists so that a page says what the panel says.  Names the table gave
# stay as given.
RULE_NAMES = {"decrypto": frozenset(flows_decrypto.SIDE_NAMES), "octiles": frozenset(flows_octiles.SEAT_NAMES)}


def title(name: str) -> str:
    return menu.title(name)


def side(game: str, name: str) -> str:
    """A player's or team's name as the pages show it."""
    return _(name) if name in RULE_NAMES.get(game, ()) else name


def local(ts: float) -> dt.datetime:
    return dt.datetime.fromtimestamp(ts)


def clock(ts: float) -> str:
    return local(ts).strftime("%H:%M")


def long_date(day: dt.date) -> str:
    return format_date(day, "full", locale=LOCALES.get(i18n.lang, i18n.lang))


def duration(entry: dict) -> str:
    """How long a game took, once it is over ("" while it is played)."""
    if entry.get("ended") is None:
        return ""
    minutes = max(0, round((entry["ended"] - entry["started"]) / 60))
    if minutes == 0:
        return _("under a minute")
    if minutes >= 60:
        return _("{hours} h {minutes:02d} min").format(hours=minutes // 60, minutes=minutes % 60)
    return _("{minutes} min").format(minutes=minutes)


@dataclass(frozen=True)
class Standing:
    name: str
    total: int | float
    winner: bool
    goal: int | None = None   # what wins, where the sides race to different marks
    # Decrypto with two teams: the tokens that decide, in words ("1
    # interception, 0 miscommunications"), where the total (their
    # difference, the tie-break) would say nothing.
    tokens: str = ""


def standings(entry: dict) -> list[Standing]:
    """The players in seat order with their totals; winners once it is over.
    In Decrypto's Hacker variant each side's total is shown with its goal
    (2 interceptions, 5 rounds) [DE-10]: "Hacker 2, Team 2" alone would not
    say who won."""
    totals = entry.get("totals", {})
    winners = set(entry.get("winners", ())) if entry.get("status") == "finished" else set()
    goals = entry.get("goals", {})
    held = token_totals(entry)
    return [Standing(side(entry.get("game", ""), name), totals.get(name, 0), name in winners, goals.get(name),
                     tokens_text(*held[name]) if name in held else "")
            for name in entry.get("players", ())]


def by_tokens(entry: dict) -> bool:
    """A Decrypto game of two teams, whose sheet counts tokens [DE-6]; the
    Hacker's game races to goals instead [DE-10]."""
    return entry.get("game") == "decrypto" and not entry.get("goals")


def token_totals(entry: dict) -> dict[str, tuple[int, int]]:
    """Each team's interceptions and miscommunications so far."""
    if not by_tokens(entry):
        return {}
    held = {name: [0, 0] for name in entry.get("players", ())}
    for r in entry.get("rounds", ()):
        for name, got in r.get("tokens", {}).items():
            if name in held:
                held[name][0] += got.get("interceptions", 0)
                held[name][1] += got.get("miscommunications", 0)
    return {name: (i, m) for name, (i, m) in held.items()}


def tokens_text(interceptions: int, miscommunications: int) -> str:
    return ", ".join((ngettext("{n} interception", "{n} interceptions", interceptions).format(n=interceptions),
                      ngettext("{n} miscommunication", "{n} miscommunications", miscommunications).format(
                          n=miscommunications)))


def verdict(entry: dict) -> str:
    """The result in words: who won, or why nobody has."""
    winners = [side(entry.get("game", ""), name) for name in entry.get("winners") or []]
    status = entry.get("status")
    if status == "playing":
        return _("In progress")
    if not winners:
        return _("Abandoned") if status == "abandoned" else _("No winner")
    if len(winners) == 1:
        return _("{winner} wins").format(winner=winners[0])
    return _("{winners} and {final} share the win").format(winners=", ".join(winners[:-1]), final=winners[-1])


# Why a Decrypto game ended, as its summary names it.
REASONS = {
    "interceptions": N_("Two interceptions."),
    "miscommunications": N_("The other side miscommunicated twice."),
    "rounds": N_("The Team held out for five rounds."),
    "score": N_("Tie-break: interceptions minus miscommunications."),
    "keywords": N_("Tie-break: keywords guessed."),
    "shared": N_("Still equal after every tie-break."),
}


# Why a Decrypto game went to its tie-breaks [DE-9].
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
            counts=", ".join(f"{side(entry.get('game', ''), team)} {n}" for team, n in counts.items())))
    return " ".join(parts)


def card(entry: dict, now: str = "") -> dict:
    status = entry.get("status")
    return {
        "id": entry["id"],
        "title": title(entry["game"]),
        "status": status or "playing",
        "status_text": _(STATUS[status]) if status in STATUS else status or "",
        "started": clock(entry["started"]),
        "duration": duration(entry),
        "standings": standings(entry),
        "now": now,
    }


def in_play_first(entries: list[dict]) -> list[dict]:
    """The game being played on top, the rest newest first (the order the
    score log keeps)."""
    return sorted(entries, key=lambda e: e.get("status") != "playing")


# --- the score sheet ------------------------------------------------------------------

@dataclass(frozen=True)
class Row:
    label: str
    scores: tuple        # points earned in this round, in seat order
    running: tuple       # totals after it
    detail: str


def running_totals(entry: dict) -> list[tuple]:
    """Totals after each round, starting from nothing: one point per round
    plus the start, for the chart."""
    players = entry.get("players", [])
    now = [0] * len(players)
    out = [tuple(now)]
    for r in entry.get("rounds", ()):
        scores = r.get("scores", {})
        now = [total + scores.get(name, 0) for total, name in zip(now, players)]
        out.append(tuple(now))
    return out


def sheet(entry: dict) -> list[Row]:
    players = entry.get("players", [])
    describe = _DETAILS.get(entry["game"], _plain)
    running = running_totals(entry)[1:]
    rows = []
    for i, (r, after) in enumerate(zip(entry.get("rounds", ()), running), 1):
        label, detail = describe(i, r)
        scores = tuple(r.get("scores", {}).get(name, 0) for name in players)
        rows.append(Row(label, scores, after, detail))
    return rows


@dataclass(frozen=True)
class TokenRow:
    """A Decrypto round: each team's (interceptions, miscommunications)
    won in it and held after it, in seat order."""
    label: str
    got: tuple
    held: tuple
    detail: str


def token_sheet(entry: dict) -> list[TokenRow]:
    players = entry.get("players", [])
    held = [(0, 0)] * len(players)
    rows = []
    for i, r in enumerate(entry.get("rounds", ()), 1):
        tokens = r.get("tokens", {})
        got = tuple((tokens.get(name, {}).get("interceptions", 0), tokens.get(name, {}).get("miscommunications", 0))
                    for name in players)
        held = [(a + c, b + d) for (a, b), (c, d) in zip(held, got)]
        label, detail = _decrypto(i, r)
        rows.append(TokenRow(label, got, tuple(held), detail))
    return rows


# What decides a Decrypto game of two teams, said under its sheet [DE-6] [DE-9].
TOKEN_RULE = N_("A team's second interception token wins; its second miscommunication token loses. "
                "A tie (both at once, or nothing decided after round 8) goes to interceptions minus "
                "miscommunications, then to keywords guessed.")


def row_heading(game: str) -> str:
    """What a sheet's rows are, as its first column's heading says."""
    return {"osmisifry": _("Booklet"), "davinci": _("Game"), "octiles": _("Turn")}.get(game, _("Round"))


LONG_SHEET = 20   # rows a phone shows in full; beyond, only the rows that scored


def on_a_phone(rows: list[Row]) -> tuple[list[Row], int]:
    """A long sheet (an Octiles game logs every turn) without the rows in
    which nobody scored, and how many were left out."""
    if len(rows) <= LONG_SHEET:
        return rows, 0
    kept = [row for row in rows if any(row.scores)]
    return kept, len(rows) - len(kept)


# A code is read as one word: hyphens that do not break a line (U+2011).
NB_HYPHEN = "\u2011"


def _code(digits) -> str:
    return NB_HYPHEN.join(str(d) for d in digits)


def _round(i: int, r: dict) -> str:
    return _("Round {n}").format(n=r.get("round", i))


def _plain(i: int, r: dict) -> tuple[str, str]:
    return _round(i, r), ""


def _decrypto(i: int, r: dict) -> tuple[str, str]:
    parts = []
    codes, clues = r.get("codes", {}), r.get("clues", {})
    for team, code in codes.items():
        guess = r.get("guesses", {}).get(team, {})
        decode = _code(guess.get("decode", ()))
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
                        else _("intercept missed ({code})").format(code=_code(intercept)))
        heard = f" ({', '.join(clues[team])})" if clues.get(team) else ""
        name = side("decrypto", team)
        parts.append(f"{name} {_code(code)}{heard}: {', '.join(said)}")
    # Clues read out for a code not revealed yet: in the order they were said.
    parts += [_("{team} clues: {clues}").format(team=side("decrypto", team), clues=", ".join(said))
              for team, said in clues.items() if team not in codes]
    return _round(i, r), "; ".join(parts)


def _decipher(i: int, r: dict) -> tuple[str, str]:
    ended = r.get("ended")
    if ended == "solved":
        ended = _("solved by {player}").format(player=r.get("solver"))
    else:
        ended = {"tokens": _("not solved: guess tokens spent"), "given_up": _("given up")}.get(ended, "")
    return _round(i, r), _("{maker} made the word, {ended}; NO tokens {no_tokens}, bonus pieces {bonus}").format(
        maker=r.get("maker"), ended=ended, no_tokens=r.get("no_tokens", 0), bonus=r.get("bonus_taken", 0))


def _davinci(i: int, r: dict) -> tuple[str, str]:
    out = ", ".join(_("{player} (by {by})").format(player=e["player"], by=e["by"]) if e.get("by")
                    else _("{player} (own miss)").format(player=e["player"])
                    for e in r.get("eliminated", ()))
    turns = r.get("turns") or 0
    parts = [ngettext("{starter} started; {winner} won after {turns} turn",
                      "{starter} started; {winner} won after {turns} turns", turns).format(
        starter=r.get("starter"), winner=r.get("winner"), turns=turns)]
    if out:
        parts.append(_("out: {players}").format(players=out))
    return _("Game {n}").format(n=r.get("game", i)), "; ".join(parts)


def _osmisifry(i: int, r: dict) -> tuple[str, str]:
    drawn, unused = r.get("drawn") or 0, r.get("unused") or 0
    parts = [ngettext("{officer} found {found} of {drawn} word", "{officer} found {found} of {drawn} words",
                      drawn).format(officer=r.get("officer"), found=r.get("found"), drawn=drawn),
             ngettext("{unused} unused cell", "{unused} unused cells", unused).format(unused=unused)]
    if r.get("destroyed"):
        parts.append(_("secret word destroyed"))
    return _("{agent}’s booklet").format(agent=r.get("agent")), "; ".join(parts)


def _octiles(i: int, r: dict) -> tuple[str, str]:
    action = r.get("action")
    if action == "passed":
        parts = [_("passed")]
    else:
        if action == "exchanged" and r.get("removed"):
            parts = [_("tile {tile} on {space} for {removed}").format(
                tile=r.get("tile"), space=r.get("space"), removed=r["removed"])]
        else:
            parts = [_("tile {tile} on {space}").format(tile=r.get("tile"), space=r.get("space"))]
        if r.get("from"):
            parts.append(_("runner {start}→{end}").format(start=r["from"], end=r["to"]))
    if r.get("finished"):
        parts.append(_("all home"))
    player = side("octiles", r.get("player"))
    return _("Turn {n}").format(n=r.get("turn", i)), f"{player}: {', '.join(parts)}"


_DETAILS = {"decrypto": _decrypto, "decipher": _decipher, "davinci": _davinci,
            "osmisifry": _osmisifry, "octiles": _octiles}


# --- where a game in progress stands (public views) ----------------------------------------

def now(name: str, view: dict) -> str:
    """One line from a game's public view; "" when there is nothing to say."""
    try:
        return " · ".join(_NOW.get(name, lambda v: [])(view))
    except (KeyError, IndexError, TypeError):
        return ""  # a rules module changed its view: the page still shows the scores


def _of(n, last) -> str:
    return _("Round {n} of {last}").format(n=n, last=last)


# What a Decrypto round is waiting for, by its step.
_DECRYPTO_STEPS = {
    "deal": N_("drawing codes"),
    "clues": N_("encryptors writing clues"),
    "intercept": N_("{team} intercepts"),
    "decode": N_("{team} decodes"),
    "tiebreak": N_("tie-break: keywords guessed"),
}


def _now_decrypto(v: dict) -> list[str]:
    step = v["step"]
    team = side("decrypto", v["teams"][step["team"]]) if step["team"] is not None else ""
    doing = _DECRYPTO_STEPS.get(step["kind"])
    return [_of(v["round"], v["last_round"])] + ([_(doing).format(team=team)] if doing else [])


def _now_decipher(v: dict) -> list[str]:
    kind = v["step"]["kind"]
    if kind != "scored" and v["seeker"] is None:
        return []
    if kind == "scored":
        return [_("Round {n} of {last}: scored").format(n=v["round"], last=v["rounds"])]
    return ([_of(v["round"], v["rounds"]), _("{maker} makes the word").format(maker=v["maker"])]
            + ([_("bonus mode")] if v.get("bonus_mode") else []))


def _now_davinci(v: dict) -> list[str]:
    game = [_("Game {n} of {last}").format(n=v["game"], last=v["games"])] if v.get("games", 1) > 1 else []
    pool = ngettext("{n} tile in the pool", "{n} tiles in the pool", v["pool"]).format(n=v["pool"])
    return game + [_("{player} to play").format(player=v["turn"]), pool]


# What an Osmišifry game is doing after its creation rounds.
_OSMISIFRY_PHASES = {"direction": N_("Rolling the direction"), "decoding": N_("Officers decoding"),
                     "scoring": N_("Scoring the booklets")}


def _now_osmisifry(v: dict) -> list[str]:
    phase = v["phase"]
    if phase == "creation":
        return [_("Creation, round {n} of {last}").format(n=v["round"], last=v["rounds"])]
    return [_(_OSMISIFRY_PHASES[phase])] if phase in _OSMISIFRY_PHASES else []


def _now_octiles(v: dict) -> list[str]:
    if v.get("over"):
        return []
    return [_("Turn {n}").format(n=v["number"]), _("{player} to move").format(player=side("octiles", v["player"]))]


_NOW = {"decrypto": _now_decrypto, "decipher": _now_decipher, "davinci": _now_davinci,
        "osmisifry": _now_osmisifry, "octiles": _now_octiles}
