"""Decrypto: what a player did, in the words of the box's ``»`` line and
undo question, which the replay on the phones repeats (``referee.said``)."""
from __future__ import annotations

from enum import StrEnum

from games import base, decrypto as d
from referee.account import Count, Facts, Side, name_of
from referee.glossary import Ruling, Term
from referee.guide import SETUP, Guide, Phase, Shot
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


# --- the account (referee.account) ----------------------------------------------------------

# What a Decrypto round is waiting for, by its step.
DOING = {
    "deal": N_("drawing codes"),
    "clues": N_("encryptors writing clues"),
    "intercept": N_("{team} intercepts"),
    "decode": N_("{team} decodes"),
    "tiebreak": N_("tie-break: keywords guessed"),
}


def _team(name: str) -> str:
    return name_of(d.NAME, name)


class Token(StrEnum):
    """The kinds of a Decrypto side's tokens (an account's ``Count.kind``)."""
    INTERCEPTIONS = "interceptions"
    MISCOMMUNICATIONS = "miscommunications"


def tokens_text(interceptions: int, miscommunications: int) -> str:
    """A team's tokens in the phones' words: "1 interception, 0 miscommunications"."""
    return ", ".join((ngettext("{n} interception", "{n} interceptions", interceptions).format(n=interceptions),
                      ngettext("{n} miscommunication", "{n} miscommunications", miscommunications).format(
                          n=miscommunications)))


def held_by(side: Side) -> tuple[int, int]:
    """A side's interceptions and miscommunications, from its account's numbers."""
    n = {count.kind: count.n for count in side.counts}
    return n.get(Token.INTERCEPTIONS, 0), n.get(Token.MISCOMMUNICATIONS, 0)


def tokens_short(side: Side) -> str:
    """A team's tokens in the box's words, on one of the panel's lines
    beside its name: "White: int 1, mis 0" (the help says what int and mis are)."""
    i, m = held_by(side)
    return _("{team}: int {i}, mis {m}").format(team=side.name, i=i, m=m)


def team_side(name: str, interceptions: int, miscommunications: int) -> Side:
    """A team of two-team Decrypto: its numbers, and the phones' words made from them."""
    return Side(name, tokens_text(interceptions, miscommunications),
                counts=[Count(Token.INTERCEPTIONS, interceptions), Count(Token.MISCOMMUNICATIONS, miscommunications)])


def doing(v: d.Public) -> str:
    """What the round waits for: "White decodes"."""
    step = v.step
    team = _team(v.teams[step.team]) if step.team is not None else ""
    said = DOING.get(step.kind)
    return _(said).format(team=team) if said else ""


def held(summary: d.Summary) -> dict[str, list[int]]:
    """Each team's interceptions and miscommunications, from the score log's rounds."""
    tokens = {name: [0, 0] for name in summary.players}
    for r in summary.rounds:
        for name, got in r.tokens.items():
            if name in tokens:
                tokens[name][0] += got.interceptions
                tokens[name][1] += got.miscommunications
    return tokens


def reason(summary: base.Summary) -> str:
    """Why the game ended, in the words of the box's result page; after a
    tie, why it was one and what broke it [DE-9]; "" for a summary not
    Decrypto's."""
    if not isinstance(summary, d.Summary):
        return ""
    why, winners, names = summary.reason, summary.winners, summary.players
    if why is None or not names:
        return ""
    if why == "interceptions" and winners:
        return _("{team} intercepted twice.").format(team=_team(winners[0]))
    if why == "miscommunications" and winners:
        loser = next((n for n in names if n != winners[0]), winners[0])
        return _("{team} miscommunicated twice.").format(team=_team(loser))
    if why == "rounds":
        return ngettext("The Team held out for {n} round.", "The Team held out for {n} rounds.",
                        d.HACKER_LAST_ROUND).format(n=d.HACKER_LAST_ROUND)
    tie = summary.tie
    if tie == "both_tokens":
        both = next((n for n, (i, m) in held(summary).items() if i >= 2 and m >= 2), names[0])
        parts = [_("Tie: {team} has 2 of each token.").format(team=_team(both))]
    elif tie == "both_miscommunications":
        parts = [_("Tie: both at 2 miscommunications.")]
    elif tie == "both_interceptions":
        parts = [_("Tie: both at 2 interceptions.")]
    else:
        parts = [ngettext("Tie after {n} round.", "Tie after {n} rounds.", d.LAST_ROUND).format(n=d.LAST_ROUND)]
    totals = summary.totals
    parts.append(_("Score {0}:{1}.").format(*(totals.get(n, 0) for n in names)))
    if why != "score":
        counts = summary.keywords_guessed
        parts.append(_("Keywords {0}:{1}.").format(*(counts.get(n, 0) for n in names)))
    return " ".join(parts)


def account(v: d.Public, summary: base.Summary) -> Facts:
    """The round, what it waits for, each side's tokens: two teams' tokens,
    or the Hacker's interceptions against its goal [DE-10] (the Team holds
    none)."""
    teams = v.teams
    if v.variant == "hacker":
        hacker = v.interceptions[d.HACKER]
        sides = [Side(_team(teams[d.HACKER]), _("Hacker tokens: {n} of 2").format(n=hacker),
                      counts=[Count(Token.INTERCEPTIONS, hacker)]),
                 Side(_team(teams[d.HACKER_TEAM]))]
    else:
        sides = [team_side(_team(team), i, m) for team, i, m in zip(teams, v.interceptions, v.miscommunications)]
    over, ended = v.result is not None, between(v)
    # A round decoded to its end is still that round's while its outcome
    # is on show (the box's reveal, until #); the box's next page is the next round's.
    decoded = _("Round {n} of {last}").format(n=v.history[-1].round, last=v.last_round) \
        if ended and v.history else ""
    return Facts(_("Round {n} of {last}").format(n=v.round, last=v.last_round),
                 "" if over or ended else doing(v), sides, reason(summary), decoded)


def between(v: d.Public) -> bool:
    """A round decoded to its end and the next one not begun: the box shows
    the last reveal until ``#``, and nobody's turn is next yet."""
    return (v.last is not None and not v.reveals and not any(v.clues_done) and not any(v.typed)
            and v.clues_deadline is None and v.step.kind in ("clues", "deal"))


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


# A first game taught (``referee.box.flows.teacher``): the page before each phase
# the first time it comes up, keyed by ``d.step(state).kind``.
TEACH = {
    "clues": N_("Encryptors: hold the team button for the code; 3 clues, then press it twice."),
    "intercept": N_("Interception: guess the other team's code from its clues. Type 3 digits, then #."),
    "decode": N_("The encryptor reads the clues; the team guesses its own code. Type 3 digits, #."),
    "tiebreak": N_("A tie: each team guesses the other's keywords. Type how many were right, #."),
}

# Why the referee decided, after each decision ``decisions`` names.
WHY = {
    "intercepted": Ruling("DE-6", N_("{team}'s guess is {other}'s code: {team} takes an interception token. "
                                     "Two win.")),
    # The Hacker's variant [DE-10]: one player against a team, named as sides, not as
    # teams; the Team's own misread is an interception of the Hacker's too.
    "hacked": Ruling("DE-10", N_("The Hacker guessed the Team's code: an interception token. Two win.")),
    "hacker_given": Ruling("DE-10", N_("The Team misread its own code: an interception token for the Hacker.")),
    "miscommunicated": Ruling("DE-6", N_("{team} misread its own code: {team} takes a miscommunication token. "
                                         "Two lose.")),
    "no_intercept": Ruling("DE-7", N_("Round 1: nobody intercepts: you know nothing of the other team's "
                                      "words yet.")),
    # The round's end decides [DE-8]: two tokens of a kind, a tie, its breaks.
    "won": Ruling("DE-1", N_("{team} has two interceptions: {team} wins.")),
    "lost": Ruling("DE-1", N_("{team} has two miscommunications: {team} loses.")),
    "held_out": Ruling("DE-10", N_("Round {rounds} over and the Hacker has fewer than two interceptions: the "
                                   "Team wins.")),
    "tie_rounds": Ruling("DE-9", N_("Round {rounds} over: the score decides, +1 per interception, -1 per "
                                    "miscommunication.")),
    "tie_tokens": Ruling("DE-9", N_("{team} has two of each token: a tie. The score decides.")),
    "tie_miscommunications": Ruling("DE-9", N_("Both teams have two miscommunications: a tie. The score "
                                               "decides.")),
    "tie_interceptions": Ruling("DE-9", N_("Both teams have two interceptions: a tie. The score decides.")),
    "score": Ruling("DE-9", N_("Interceptions less miscommunications: {white} {w}, {black} {b}. {team} wins.")),
    "score_tied": Ruling("DE-9", N_("Score {white} {w}, {black} {b}: a tie still. Each team guesses the "
                                    "other's keywords.")),
    "keywords": Ruling("DE-9", N_("Keywords guessed: {white} {w}, {black} {b}. {team} wins.")),
    "shared": Ruling("DE-9", N_("Keywords guessed: {white} {w}, {black} {b}. Still a tie: both teams win.")),
}

TIES = {d.Tie.ROUND_LIMIT: "tie_rounds", d.Tie.BOTH_TOKENS: "tie_tokens",
        d.Tie.BOTH_MISCOMMUNICATIONS: "tie_miscommunications", d.Tie.BOTH_INTERCEPTIONS: "tie_interceptions"}


def decisions(event, before: d.State, after: d.State) -> list[tuple[str, dict[str, str]]]:
    """The referee's decisions ``event`` made, as ``WHY`` keys and their fields."""
    made: list[tuple[str, dict[str, str]]] = []
    for team in (0, 1):
        names = {"team": _(after.names[team]), "other": _(after.names[1 - team])}
        if after.interceptions[team] > before.interceptions[team]:
            if after.variant != "hacker":
                made.append(("intercepted", names))
            else:
                guessed = before.intercept is not None and before.intercept == before.codes[1 - team]
                made.append(("hacked" if guessed else "hacker_given", {}))
        if after.miscommunications[team] > before.miscommunications[team]:
            made.append(("miscommunicated", names))
    if after.round == 1 and d.step(after).kind == "decode" and d.step(before).kind != "decode":
        made.append(("no_intercept", {}))   # [DE-7] the box goes straight to the decode
    return made + _ending(before, after)


def _ending(before: d.State, after: d.State) -> list[tuple[str, dict[str, str]]]:
    """How the round's end decided the game [DE-8]: won, lost, a tie and
    what broke it [DE-9], the Hacker's five rounds [DE-10]."""
    result, tie = after.result, after.tie or (after.result.tie if after.result else None)
    tied = tie is not None and before.tie is None   # a tie at this round's end
    if before.result is not None or result is None and not tied:
        return []
    names = [_(name) for name in after.names]
    made: list[tuple[str, dict[str, str]]] = []
    if tied and tie is not None:
        both = next((t for t in (0, 1) if after.interceptions[t] >= 2 and after.miscommunications[t] >= 2), 0)
        made.append((TIES[tie], {"team": names[both], "rounds": str(d.LAST_ROUND)}))
    if result is None:      # the score tied too: the keywords are counted
        return [*made, ("score_tied", _scores(names, after.scores))]
    winner = names[result.winners[0]]
    if result.reason == d.Reason.INTERCEPTIONS:
        made.append(("won", {"team": winner}))
    if result.reason in (d.Reason.INTERCEPTIONS, d.Reason.MISCOMMUNICATIONS) and after.variant != "hacker":
        # A plain result: a team's second miscommunication loses, with the other's win or alone.
        made += [("lost", {"team": names[t]}) for t in (0, 1) if after.miscommunications[t] >= 2]
    if result.reason == d.Reason.ROUNDS:
        made.append(("held_out", {"rounds": str(d.HACKER_LAST_ROUND)}))
    if result.reason == d.Reason.SCORE:
        made.append(("score", {**_scores(names, after.scores), "team": winner}))
    if result.reason in (d.Reason.KEYWORDS, d.Reason.SHARED):
        counts = _scores(names, [n or 0 for n in after.keywords_guessed])
        made.append(("keywords", {**counts, "team": winner}) if result.reason == d.Reason.KEYWORDS
                    else ("shared", counts))
    return made


def _scores(names: list[str], points) -> dict[str, str]:
    """The two teams and their numbers, White's first, as a ruling's fields."""
    return {"white": names[0], "w": str(points[0]), "black": names[1], "b": str(points[1])}
# How to play, for the phones' /how/decrypto page (``referee.guide``).
GUIDE = Guide(
    goal=N_("Two teams, White and Black, hint at their own code with clues. Two interceptions win; two "
            "miscommunications lose."),
    table=(N_("Each team's 4 keywords, behind its screen, if you play with the cards."),
           N_("The notesheets, where teams write their clues and guesses."),
           N_("Tokens, if you like: the box counts them too.")),
    box=(N_("Draws each team's code and shows it on the team's screen while its button is held."),
         N_("Runs the 30 seconds once one team's clues are written."),
         N_("Judges every guess and counts the tokens and the rounds.")),
    phases=(
        Phase(SETUP, N_("Setup"),
              N_("Choose the teams, the keywords' language and the timer. With three players, the Hacker plays "
                 "alone against a team of two."),
              (N_("1-3: change an option"), N_("A: tonight's players; B: names typed on a phone"), N_("#: start"),
               N_("C: help")),
              (Shot("setup", N_("The setup page.")),)),
        Phase("clues", N_("Clues"),
              N_("Each encryptor holds the team button to see the code, then writes three clues on the notesheet."),
              (N_("Team button, held: the code, on the team's screen only"),
               N_("Team button twice: our clues are written"), N_("A, before round 1: swap a keyword")),
              (Shot("clues", N_("The public screen names each team's encryptor.")),
               Shot("code", N_("White's own screen while White's button is held: the code 3-2-1."), "team1"))),
        Phase("guesses", N_("Guesses"),
              N_("The encryptor reads the clues aloud. From round 2 the other team intercepts first, then the "
                 "team decodes its own code."),
              (N_("1-4: a guess, three digits"), N_("#: the guess is said"), N_("*: clear")),
              (Shot("decode", N_("Round 1: White decodes its own code; nobody intercepts yet.")),
               Shot("intercept", N_("Round 2: Black tries to intercept White's code first.")))),
        Phase("reveal", N_("The code revealed"), N_("The box shows the code and gives the tokens."),
              (N_("#: the next code"), N_("D: every code so far")),
              (Shot("reveal", N_("White's guess was its code: no token.")),
               Shot("intercepted", N_("Black's interception is said; White decodes next.")))),
    ),
    scoring=(N_("Interception: the other team's guess is the code, right digits in the right order."),
             N_("Miscommunication: a team's guess of its own code is wrong."),
             N_("After 8 rounds, or on a tie: +1 for each interception, -1 for each miscommunication.")),
    example=(N_("After 8 rounds White has 1 interception and 1 miscommunication: 1 - 1 = 0."),
             N_("Black has 1 interception: 1 - 0 = 1. Black wins.")),
    private=True,
)

# The How to play page's anchor (``GUIDE``'s phases) for each phase of a round.
HOW_AT = {"deal": "clues", "clues": "clues", "intercept": "guesses", "decode": "guesses", "tiebreak": "reveal"}
