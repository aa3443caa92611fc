"""What the score-log pages show, as plain data for the templates.

A *card* is one game on the evening page; a *sheet* is one game's rounds as
the paper score sheet has them, with a line of details per round; ``now`` is
one line saying where a game in progress stands.  Cards and sheets read a
game's score-log entry (its rules' ``summary``, through ``referee.scorelog``)
and ``now`` reads its rules' ``public`` view: nothing here ever sees a secret.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from referee.flows.menu import GAMES

TITLES = dict(GAMES)
STATUS = {"playing": "Playing", "finished": "Finished", "abandoned": "Abandoned"}


def title(name: str) -> str:
    return TITLES.get(name, name.capitalize())


def local(ts: float) -> dt.datetime:
    return dt.datetime.fromtimestamp(ts)


def clock(ts: float) -> str:
    return local(ts).strftime("%H:%M")


def long_date(day: dt.date) -> str:
    return f"{day:%A} {day.day} {day:%B %Y}"


def duration(entry: dict) -> str:
    """How long a game took, once it is over ("" while it is played)."""
    if entry.get("ended") is None:
        return ""
    minutes = max(0, round((entry["ended"] - entry["started"]) / 60))
    if minutes == 0:
        return "under a minute"
    return f"{minutes // 60} h {minutes % 60:02d} min" if minutes >= 60 else f"{minutes} min"


@dataclass(frozen=True)
class Standing:
    name: str
    total: int | float
    winner: bool


def standings(entry: dict) -> list[Standing]:
    """The players in seat order with their totals; winners once it is over."""
    totals = entry.get("totals", {})
    winners = set(entry.get("winners", ())) if entry.get("status") == "finished" else set()
    return [Standing(name, totals.get(name, 0), name in winners) for name in entry.get("players", ())]


def verdict(entry: dict) -> str:
    """The result in words: who won, or why nobody has."""
    winners = entry.get("winners") or []
    status = entry.get("status")
    if status == "playing":
        return "In progress"
    if not winners:
        return "Abandoned" if status == "abandoned" else "No winner"
    if len(winners) == 1:
        return f"{winners[0]} wins"
    return f"{', '.join(winners[:-1])} and {winners[-1]} share the win"


# Why a Decrypto game ended, as its summary names it.
REASONS = {
    "interceptions": "Two interceptions.",
    "miscommunications": "The other side miscommunicated twice.",
    "rounds": "The Team held out for five rounds.",
    "score": "Tie-break: interceptions minus miscommunications.",
    "keywords": "Tie-break: keywords guessed.",
    "shared": "Still equal after every tie-break.",
}


def card(entry: dict, now: str = "") -> dict:
    return {
        "id": entry["id"],
        "title": title(entry["game"]),
        "status": entry.get("status", "playing"),
        "status_text": STATUS.get(entry.get("status"), entry.get("status", "")),
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


LONG_SHEET = 20   # rows a phone shows in full; beyond, only the rows that scored


def on_a_phone(rows: list[Row]) -> tuple[list[Row], int]:
    """A long sheet (an Octiles game logs every turn) without the rows in
    which nobody scored, and how many were left out."""
    if len(rows) <= LONG_SHEET:
        return rows, 0
    kept = [row for row in rows if any(row.scores)]
    return kept, len(rows) - len(kept)


def _code(digits) -> str:
    return "-".join(str(d) for d in digits)


def _plain(i: int, r: dict) -> tuple[str, str]:
    return f"Round {r.get('round', i)}", ""


def _decrypto(i: int, r: dict) -> tuple[str, str]:
    parts = []
    codes, clues = r.get("codes", {}), r.get("clues", {})
    for team, code in codes.items():
        guess = r.get("guesses", {}).get(team, {})
        said = ["decoded" if guess.get("decode") == code else f"miscommunication ({_code(guess.get('decode', ()))})"]
        intercept = guess.get("intercept")
        if intercept is not None:
            said.append("intercepted" if intercept == code else f"intercept missed ({_code(intercept)})")
        heard = f" ({', '.join(clues[team])})" if clues.get(team) else ""
        parts.append(f"{team} {_code(code)}{heard}: {', '.join(said)}")
    # Clues read out for a code not revealed yet: in the order they were said.
    parts += [f"{team} clues: {', '.join(said)}" for team, said in clues.items() if team not in codes]
    return f"Round {r.get('round', i)}", "; ".join(parts)


def _decipher(i: int, r: dict) -> tuple[str, str]:
    ended = {"solved": f"solved by {r.get('solver')}", "tokens": "not solved: guess tokens spent",
             "given_up": "given up"}.get(r.get("ended"), "")
    return (f"Round {r.get('round', i)}",
            f"{r.get('maker')} made the word, {ended}; NO tokens {r.get('no_tokens', 0)}, "
            f"bonus pieces {r.get('bonus_taken', 0)}")


def _davinci(i: int, r: dict) -> tuple[str, str]:
    out = ", ".join(f"{e['player']} (by {e['by']})" if e.get("by") else f"{e['player']} (own miss)"
                    for e in r.get("eliminated", ()))
    text = f"{r.get('starter')} started; {r.get('winner')} won after {r.get('turns')} turns"
    return f"Game {r.get('game', i)}", text + (f"; out: {out}" if out else "")


def _osmisifry(i: int, r: dict) -> tuple[str, str]:
    text = (f"{r.get('officer')} found {r.get('found')} of {r.get('drawn')} words; "
            f"{r.get('unused')} unused cells")
    return f"{r.get('agent')}’s booklet", text + ("; secret word destroyed" if r.get("destroyed") else "")


def _octiles(i: int, r: dict) -> tuple[str, str]:
    action = r.get("action")
    if action == "passed":
        text = "passed"
    else:
        text = f"tile {r.get('tile')} on {r.get('space')}"
        if action == "exchanged" and r.get("removed"):
            text += f" for {r['removed']}"
        if r.get("from"):
            text += f", runner {r['from']}→{r['to']}"
    if r.get("finished"):
        text += ", all home"
    return f"Turn {r.get('turn', i)}", f"{r.get('player')}: {text}"


_DETAILS = {"decrypto": _decrypto, "decipher": _decipher, "davinci": _davinci,
            "osmisifry": _osmisifry, "octiles": _octiles}


# --- where a game in progress stands (public views) ----------------------------------------

def now(name: str, view: dict) -> str:
    """One line from a game's public view; "" when there is nothing to say."""
    try:
        return _NOW.get(name, lambda v: "")(view)
    except (KeyError, IndexError, TypeError):
        return ""  # a rules module changed its view: the page still shows the scores


def _now_decrypto(v: dict) -> str:
    step = v["step"]
    team = v["teams"][step["team"]] if step["team"] is not None else ""
    doing = {
        "deal": "drawing codes",
        "clues": "encryptors writing clues",
        "intercept": f"{team} intercepts",
        "decode": f"{team} decodes",
        "tiebreak": "tie-break: keywords guessed",
    }.get(step["kind"], "")
    return f"Round {v['round']} of {v['last_round']}" + (f" · {doing}" if doing else "")


def _now_decipher(v: dict) -> str:
    kind = v["step"]["kind"]
    if kind != "scored" and v["seeker"] is None:
        return ""
    text = f"Round {v['round']} of {v['rounds']}"
    if kind == "scored":
        return text + " scored"
    return text + f" · {v['maker']} makes the word" + (" · bonus mode" if v.get("bonus_mode") else "")


def _now_davinci(v: dict) -> str:
    game = f"Game {v['game']} of {v['games']} · " if v.get("games", 1) > 1 else ""
    return f"{game}{v['turn']} to play · {v['pool']} tiles in the pool"


def _now_osmisifry(v: dict) -> str:
    phase = v["phase"]
    if phase == "creation":
        return f"Creation, round {v['round']} of {v['rounds']}"
    return {"direction": "Rolling the direction", "decoding": "Officers decoding",
            "scoring": "Scoring the booklets"}.get(phase, "")


def _now_octiles(v: dict) -> str:
    return "" if v.get("over") else f"Turn {v['number']} · {v['player']} to move"


_NOW = {"decrypto": _now_decrypto, "decipher": _now_decipher, "davinci": _now_davinci,
        "osmisifry": _now_osmisifry, "octiles": _now_octiles}
