"""Seeded players for the power-cut soak (test_soak.py): one per mode of
the box, each reading what the box shows and what its game's state asks
for (``step``), and choosing keys a table could press in that moment.

A player answers ``keys(seen)`` with a short list of keys to press one
after the other: keypad keys, the team buttons, and ``HOLD`` (holding ``*``
until the game menu is up).  Most lists play the move the game waits for,
with values a table would give; some look at a help or score page and come
back, take the last action back (hold ``*``, ``#``), or end the game (hold
``*``, ``D``, ``#``).  A page the player does not expect (a power cut left
the box on it) is left with ``*``.

Setup goes through the box's own menus: the mode's digit on the main menu,
then the setup form's digits until its lines say what the mode wants, then
``#``.
"""
from __future__ import annotations

import random
import re
from dataclasses import dataclass

from games import davinci as dv
from games import decipher as dc
from games import decrypto as de
from games import octiles as oc
from games import osmisifry as osm
from games.octiles_board import legal_moves

HOLD = "hold*"
PAD = "0123456789ABCD*#"


@dataclass(frozen=True)
class Mode:
    """A game as the soak plays it: the main menu's digit and what its
    setup form must say (label -> value shown)."""
    name: str
    game: str
    digit: str
    setup: tuple[tuple[str, str], ...] = ()


MODES = {m.name: m for m in (
    Mode("decrypto", "decrypto", "1", (("Teams", "2 v 2"), ("Timer", "30 s"))),
    Mode("osmisifry", "osmisifry", "2", (("Players", "3"),)),
    Mode("octiles", "octiles", "3", (("Players", "2"), ("Mode", "referee"))),
    Mode("octiles-dealer", "octiles", "3", (("Players", "3"), ("Mode", "dealer"))),
    Mode("davinci", "davinci", "4", (("Players", "3"), ("Turn timer", "off"))),
    Mode("davinci-timer", "davinci", "4", (("Players", "2"), ("Turn timer", "30 s"), ("Play", "3 games"))),
    Mode("decipher", "decipher", "5", (("Players", "3"),)),
    Mode("tools", "tools", "6"),
)}

MENU_LINE = "1 Decrypto"
OFFERED = re.compile(r"(?:^|\s)([0-9A-D*#](?:,[0-9])*):")
KEY_ROW = re.compile(r"[0-9A-D*#](?:,[0-9])*:\S")   # a row of the key bar: "A:Hit B:Miss", never "A: attack again"


@dataclass
class Seen:
    """What the player looks at: the three screens and the box's ``state``
    answer (see referee.box.sim_control), with the rules' state replayed from the
    store (``rules``)."""
    main: str
    team1: str
    team2: str
    box: dict
    rules: object = None


def offered(screen: str) -> list[str]:
    """The keys a screen offers: its key bar's (the bottom line, and the one
    above where the bar takes two rows) and its numbered items' (and ``D``
    where the title offers it: the tools' timer turns to the dice)."""
    lines = screen.split("\n")
    bar = lines[-2:] if len(lines) > 2 and KEY_ROW.match(lines[-2]) and KEY_ROW.match(lines[-1]) else lines[-1:]
    keys = [k for row in bar for found in OFFERED.findall(row) for k in found.split(",")]
    keys += [line[0] for line in lines[1:] if re.match(r"\d ", line)]
    if "D:" in lines[0]:
        keys.append("D")
    return keys


class Hand:
    """A player who knows no game: mostly what the screen offers, now and
    then any key (test_snapshots.py plays with it)."""

    PAD = PAD

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def offered(self, screen: str) -> str:
        return self.rng.choice(offered(screen) or PAD)


class Player:
    UNDO, MENU_BACK, END, LOOK = 0.04, 0.02, 0.01, 0.04

    def __init__(self, mode: str, rng: random.Random) -> None:
        self.mode = MODES[mode]
        self.rng = rng
        self.set: set[str] = set()   # setup lines already as wanted

    def keys(self, seen: Seen) -> list[str]:
        box = seen.box
        if box["game"] is None:
            return self._menus(seen.main)
        if box["overlay"] is not None:
            return ["*"]   # a game menu left up (by a power cut): back to the game
        self.set.clear()
        if box["name"] == "tools":
            return self._tools(seen)
        r = self.rng.random()
        if r < self.UNDO:
            return [HOLD, "#"]
        if r < self.UNDO + self.MENU_BACK:
            return [HOLD, "*"]
        if r < self.UNDO + self.MENU_BACK + self.END:
            return [HOLD, "D", "#"]
        return getattr(self, "_" + box["name"])(seen.rules, box["view"] or {}, seen)

    # --- the menus and the setup form -----------------------------------------------

    def _menus(self, main: str) -> list[str]:
        lines = main.split("\n")
        if MENU_LINE in lines:
            self.set.clear()
            return [self.mode.digit]
        if not any(re.match(r"\d \w+: ", line) for line in lines) or self.mode.game == "tools":
            return ["*"]   # help, the score log, settings: back
        for label, value in self.mode.setup:
            if label in self.set:
                continue
            line = next((line for line in lines if re.match(rf"\d {re.escape(label)}: ", line)), None)
            if line is None:
                return ["D"] if "D:" in lines[-1] else ["#"]   # on the form's other page
            if line.split(": ", 1)[1] == value:
                self.set.add(label)
                continue
            return [line[0]]
        return ["#"]

    # --- the table tools ------------------------------------------------------------

    def _tools(self, seen: Seen) -> list[str]:
        keys = offered(seen.main)
        if self.rng.random() < 0.1:
            return [self.rng.choice(PAD)]
        if seen.main.startswith("[Set timer") and self.rng.random() < 0.5:
            return [self.rng.choice("0123456789#")]
        return [self.rng.choice(keys or PAD)]

    # --- Decrypto ---------------------------------------------------------------------

    def _decrypto(self, s: de.State, view: dict, seen: Seen) -> list[str]:
        if view.get("page", "play") != "play":
            return ["*"]
        if view.get("typed"):
            return ["*"]
        now = de.step(s)
        if self.rng.random() < self.LOOK:
            return [self.rng.choice("CDB")]
        if now.kind == "clues":
            swappers = [t for t in s.coding if de.can_swap(s, t)]
            if swappers and self.rng.random() < 0.2:
                team = self.rng.choice(swappers)
                which = [str(team + 1)] if len(swappers) > 1 else []
                return ["A", *which, str(self.rng.randint(1, 4))]
            team = self.rng.choice(now.waiting or (0, 1))
            return [f"team{team + 1}"] * 2   # [DE-4] two short presses: done
        if now.kind in ("intercept", "decode"):
            right = s.codes[now.of_team]
            code = right if self.rng.random() < 0.5 else self.rng.choice(de.CODES)
            return [*map(str, code), "#"]
        if now.kind == "tiebreak":
            return [str(self.rng.randint(0, 4)), "#"]
        return ["#"]   # over: back to the main menu

    # --- Osmišifry ----------------------------------------------------------------------

    def _osmisifry(self, s: osm.State, view: dict, seen: Seen) -> list[str]:
        now = osm.step(s)
        if view.get("mode"):
            return ["*"]
        if now.kind == "roll_letter":
            if s.round > 1 and not s.drawing and self.rng.random() < 0.1:
                return ["B", str(self.rng.randrange(len(s.players)) + 1)]
            return ["#"]
        if now.kind == "pick":
            free = [i for i in range(s.offer_size) if s.offer.taken_by(i) is None]
            return [str(self.rng.choice(free) + 1)]
        if now.kind in ("roll_direction", "start_decoding"):
            return ["#"]
        if now.kind == "decoding":
            return ["#", "#"]
        if now.kind == "score":
            mine = view.get("agent") == now.player
            answers, typed = (view.get("answers") or [], view.get("typed", "")) if mine else ([], "")
            if typed or answers:
                return ["*"] * (len(answers) + bool(typed))   # half an answer: start the booklet over
            written = sum(p == now.player for offer in s.offers for p, _ in offer.picks)
            drawn = self.rng.randint(0, 6)
            counts = (drawn, self.rng.randint(0, drawn), self.rng.randint(0, written))
            return [k for n in counts for k in (*str(n), "#")] + [self.rng.choice("AB")]
        if self.rng.random() < 0.3:
            return [self.rng.choice("CD")]
        return ["#"]

    # --- Octiles ------------------------------------------------------------------------

    def _octiles(self, s: oc.State, view: dict, seen: Seen) -> list[str]:
        now = oc.step(s)
        moment = [len(s.turns), len(s.finishers)]
        if view.get("page") is not None:
            return ["#"]
        if view.get("asking"):
            return ["*"]
        if now.kind == "over":
            return ["#"]
        draft = view.get("draft")
        if draft and draft.get("at") == moment and (draft.get("typed") or draft.get("space") is not None):
            return ["*"]   # a turn half keyed in: start it over
        if _octiles_news(s, view, moment):
            return ["#"]
        if now.kind in ("no_move", "stuck"):
            return ["#"]
        if now.kind != "play":
            return ["#"]
        r = self.rng.random()
        if r < self.LOOK:
            return ["D", self.rng.choice("13")]
        if s.mode == "dealer":
            if r < 0.1 and len(s.finishers) < len(s.names) - 1:
                seat = self.rng.choice([i for i in range(len(s.names)) if i not in s.finishers])
                return ["D", "3", str(seat + 1), "#"]
            if r < 0.15:
                return ["D", "4", "#"]   # [OC-8] pass, asked first
            space = self.rng.randint(1, len(oc.BOARD.spaces))
            return [*str(space), "#"]
        moves = legal_moves(s.board, s.hand)
        if not moves or (not now.must_move and r < 0.08):
            return ["#"] if now.kind == "no_move" else ["D", "4", "#"]   # [OC-8] pass, asked first
        move = self.rng.choice(moves)
        keys = [*str(oc.space_number(move.space)), "#"]
        turn = move.rotation
        keys += ["B"] * turn if turn <= 4 else ["A"] * (8 - turn)
        keys.append("#")
        there = oc.moves_at(s, move.space, move.rotation)
        if len(there) > 1:
            keys.append(str(there.index(move) + 1))
        return keys

    # --- Da Vinci Code --------------------------------------------------------------------

    def _davinci(self, s: dv.State, view: dict, seen: Seen) -> list[str]:
        now = dv.step(s)
        if now.kind == "deal":
            if self.rng.random() < 0.3:
                return [str(self.rng.randrange(len(s.players)) + 1), "#"]
            return ["#"]
        if now.kind in ("attack", "again"):
            if now.kind == "again" and self.rng.random() < 0.4:
                return ["#"]   # stop while ahead
            target = self.rng.choice(now.targets)
            return [str(target + 1), "A" if self.rng.random() < 0.5 else "B"]
        return ["#"]

    # --- Decipher -------------------------------------------------------------------------

    def _decipher(self, s: dc.State, view: dict, seen: Seen) -> list[str]:
        if s.phase != "play":
            return [self.rng.choice("CD")] if self.rng.random() < 0.2 else ["#"]
        now = dc.step(s)
        page = view.get("page", "play")
        if page == "start" and now.pieces:
            if view.get("typed"):
                return ["#"]
            if self.rng.random() < 0.5:
                return [*str(self.rng.randint(s.length, 14)), "#"]
            return ["#"]
        if page in ("more", "giveup", "scores", "guess") or page == "correct" and now.correct:
            return ["*", "*"] if page == "correct" else ["*"]
        r = self.rng.random()
        if now.guessers and r < 0.15:
            seat = self.rng.choice(now.guessers)
            return [str(seat + 1), "A" if self.rng.random() < 0.3 else "B"]
        if r < 0.2:
            return ["D", self.rng.choice("4*")]
        if now.bonus_call and r < 0.25:
            return ["D", "2"]
        if now.kind == "place":
            return ["A" if self.rng.random() < 0.6 else "B"]
        if now.kind == "request":
            return ["#"]
        return ["#", "#"]   # every piece is out and nobody guesses any more


def _octiles_news(s: oc.State, view: dict, moment: list) -> bool:
    """Whether the box tells of an exchanged tile or a runner home and
    waits for ``#`` (referee.box.flows.octiles.Play._news)."""
    notice = view.get("notice")
    if not notice or notice[:2] != moment or oc.is_over(s):
        return False
    event, last = notice[2], s.turns[-1] if s.turns else None
    if last is None:
        return False
    if event == "Pass":
        return bool(last.set_aside)
    exchanged = event in ("Play", "Played") and last.action == "exchanged"
    home = event == "Finished" or (event == "Play" and last.finished)
    return bool(exchanged or home)
