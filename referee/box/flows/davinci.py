"""Da Vinci Code at the table: the deal, the turns, the tournament.

The tiles stay on the table; the box keeps the count and the time.  Players
are called by the names the table gave them, or P1 to P4 in seat order, and
a digit always means that player (the seat's digit is beside its name).

Keys
----
Deal        a digit names who starts this game (every game of a tournament,
            the next seat offered) [DV-3]; ``#`` everyone has taken and
            sorted their tiles: the first turn starts.  ``*`` back to the
            menu, before anything was played.
Turn        a digit names the player attacked, then ``A`` hit or ``B`` miss
            (``*`` names another).  After a hit: ``A`` attacks again (then a
            digit; a digit alone does too), ``#`` stops.
Game over   ``#`` deals the next game of a tournament; after the last game,
            back to the menu.
Help        ``C`` where the key bar has room for it (all but the first
            deal, whose bar has Menu, and a timed turn's keys too long for
            their line): the help in play (``playhelp``).

The main screen says whose turn it is and what to press, with the turn timer
big when one is set.  Both team screens show the table: the pool, and each
player's count of hidden and face-up tiles (``►`` marks the player on turn;
the box is never told which tile a hit turned, so it draws no row of tiles).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from games import davinci as dv
from games.base import Illegal, winners
from referee import i18n
from referee.box.flows import Flow, answers, clock_text, playhelp, public, roles
from referee.box.flows.forms import Form, Option, named_seats, seat_option
from referee.box.screen import COLS, LINES, Screen, fit, key_line
from referee.i18n import _, ngettext
from referee.said.davinci import describe, seat_label  # noqa: F401  (describe: the catalogue's hook)

if TYPE_CHECKING:
    from referee.box.session import Session

TIMERS = (0, 30, 60, 90, 120)  # [DV-9] seconds per turn; 0 is off


def setup(box) -> Flow:
    options = [
        Option("players", _("Players"), tuple((n, str(n)) for n in (2, 3, 4))),
        Option("rules", _("Rules"), (("basic", _("basic")), ("extended", _("jokers")))),
        Option("turn_timer", _("Turn timer"), tuple((s, _("{s} s").format(s=s) if s else _("off")) for s in TIMERS)),
        Option("tournament", _("Play"), ((False, _("one game")), (True, _("3 games")))),
        seat_option("starts", _("Starts"), 4, lambda n: _("P{n}").format(n=n)),  # [DV-3]
    ]
    help_lines = (_("Guess the others'"), _("hidden tiles before"), _("they guess yours."), _("Out of time: a miss."),
                  _("Deal: digit starts,"), _("# when all sorted."), _("Turn: digit attacks,"),
                  _("then A hit, B miss."), _("After a hit: A again,"), _("# stops."))
    return Form(box, _("Da Vinci Code"), options, lambda values: box.start_game(dv.NAME, named_seats(values)), help_lines)


class Play(Flow):
    remembered = ("choice", "again", "starts")
    keyed = ("choice", "again")   # an undo lands before the target is named

    def __init__(self, box, session) -> None:
        super().__init__(box)
        self.session: Session = session
        # Both belong to one moment of one turn (see _moment): a target named
        # and waiting for hit or miss, [*moment, attacker, target]; and
        # "again" pressed, waiting for the target, [*moment].
        self.choice: list | None = None
        self.again: list | None = None
        # [DV-3] who the table says starts this deal: [game, seat].
        self.starts: list | None = None

    def _label(self, seat: int) -> str:
        return seat_label(seat, self.state.players)

    @property
    def state(self) -> dv.State:
        return self.session.state

    def _starter(self) -> int:
        """Who starts the deal on screen: the table's pick, or the seat the
        rules offer."""
        if self.starts and self.starts[0] == self.state.game:
            return self.starts[1]
        return self.state.starter

    def _moment(self) -> list:
        s = self.state
        return [s.game, s.turns, s.hits]

    def _chosen(self) -> tuple[int, int] | None:
        """(attacker, target) named at this moment; a name from before an
        undo or a time-up no longer shows."""
        if self.choice and self.choice[:3] == self._moment():
            return self.choice[3], self.choice[4]
        return None

    def _late(self) -> tuple[int, int] | None:
        """(attacker, target) named in the turn the time just ran out on: a
        hit or miss pressed for it now goes to the rules, which refuse it for
        the next player's turn."""
        s, choice = self.state, self.choice
        if not (choice and s.last and s.last.how == "time"):
            return None
        if choice[:2] != [s.game, s.turns - 1] or choice[3] != s.last.seat:
            return None
        return choice[3], choice[4]

    # --- keys -------------------------------------------------------------

    def key(self, key: str, kind: str) -> None:
        if kind != "press":
            return
        step = dv.step(self.state)
        if step.kind == "deal":
            if key == "#":
                chosen = self._starter()
                self.box.act(dv.Dealt(None if chosen == self.state.starter else chosen))
            elif key.isdigit() and 1 <= int(key) <= len(self.state.players):
                self.starts = [self.state.game, int(key) - 1]
            elif key == "*" and not self.session.events:
                self.box.leave()
        elif step.kind in ("attack", "again"):
            self._turn_key(key, step)
        elif key == "#" and step.kind == "next_game":
            self.box.act(dv.NextGame())
        elif key == "#":
            self.box.leave()

    def _turn_key(self, key: str, step: dv.Step) -> None:
        assert step.seat is not None   # an attack always has its attacker
        named = self._chosen() or self._late()
        hit = answers.answer(key)
        if key.isdigit():
            self._name(int(key) - 1, step.seat)
        elif hit is not None and named:
            attacker, target = named
            self.choice = None
            self.box.act(dv.Attack(target, hit=hit, by=attacker))
        elif key == "A" and step.kind == "again":
            self.again = self._moment()
        elif key == "A" and self.state.last and self.state.last.how != "stop":
            self._refuse(_("A miss ends the turn."))  # [DV-6] no "again" after a miss
        elif key in "AB":
            self._refuse(_("First pick a player."))
        elif key == "#" and not named and self.again != self._moment():
            # Not where a target is named or asked for: those pages offer
            # no stop (* goes back to the one that does).
            if self.box.act(dv.Stop()):
                self.choice = self.again = None
        elif key == "*":
            if self._chosen():
                self.choice = None
            else:
                self.again = None

    def _name(self, target: int, attacker: int) -> None:
        try:
            dv.check_attack(self.state, target, by=attacker)
        except Illegal as exc:
            self._refuse(i18n.refusal(exc))  # the rules' own words, as the box shows a refused event
            return
        self.choice = [*self._moment(), attacker, target]
        self.again = None

    def _refuse(self, message: str) -> None:
        self.box.flash(message)
        self.box.sound("error")

    # --- screens ------------------------------------------------------------

    def screens(self) -> dict[str, Screen]:
        step = dv.step(self.state)
        if step.kind == "deal":
            main, side = self._deal(), self._table()
        elif step.kind in ("attack", "again"):
            main, side = self._turn(step), self._table()
        elif step.kind == "next_game":
            main, side = self._standings(), self._game()
        else:
            main = self._over()
            side = self._tournament() if self.state.tournament else self._game()
        return {"main": main, "team1": side, "team2": side}

    def _deal(self) -> Screen:
        s = self.state
        if s.tournament:
            title = _("Game {g}/{n}: take {k} each").format(g=s.game, n=dv.GAMES, k=s.tiles_each)
        else:
            title = ngettext("Take {k} tile each", "Take {k} tiles each", s.tiles_each).format(k=s.tiles_each)
        lines = [_("Sort low to high,"), _("black left on a tie.")]
        if s.jokers:
            lines.append(_("Joker anywhere, fixed"))
        lines.append(_("1-{n}: who starts").format(n=len(s.players)))
        keys = [("#", _("{p} starts").format(p=self._label(self._starter())))]
        if not self.session.events:
            keys.append(("*", _("Menu")))
        screen = Screen(title, tuple(lines), keys=tuple(keys), digits=roles.digits(len(s.players)))
        # Help where the bar has room: not beside the first deal's Menu, where
        # it would take the row the first page's hint needs, over the rules
        # of the deal.
        return playhelp.with_help(screen) if self.session.events else screen

    def _turn(self, step: dv.Step) -> Screen:
        s = self.state
        assert step.seat is not None   # an attack always has its attacker
        me = self._label(step.seat)
        attack = (",".join(str(t + 1) for t in step.targets), _("attack"))
        chosen = self._chosen()
        if chosen:
            them = self._label(chosen[1])
            miss = _("Miss: show drawn tile") if s.drawn else _("Miss: show own tile")
            return self._prompt(_("{p} attacks {t}").format(p=me, t=them),
                                (_("Hit: {t} shows it").format(t=them), miss),
                                (*answers.keys("hit"), ("*", _("Back"))))
        if step.kind == "again" and self.again == self._moment():
            return self._prompt(_("{p} again: whom?").format(p=me), self._rows(), (attack, ("*", _("Back"))))
        if step.kind == "again":
            stop = (_("#: stop; drawn tile"), _("joins your row hidden")) if s.drawn else (_("#: stop"),)
            # A asks whom; a target's digit attacks it at once, as the bar says.
            return self._prompt(_("{p} hit! Again?").format(p=me), (_("A: attack again"), *stop),
                                (attack, ("#", _("Stop"))), also=("A",))
        if s.last and s.last.how == "time":
            title = _("Time up! {p}: draw") if s.drawn else _("Time up! {p}'s turn")
        else:
            title = _("{p}: draw a tile") if s.drawn else _("{p}: no tile to draw")
        # An answer a moment too late is still heard (and refused by the
        # rules); after a miss, A is heard to say why there is no "again" [DV-6].
        also = ("A", "B") if self._late() else ("A",) if s.last and s.last.how != "stop" else ()
        return self._prompt(title.format(p=me), self._rows(), (attack,), also=also)

    def _prompt(self, title: str, lines: tuple[str, ...], keys: tuple, also: tuple[str, ...] = ()) -> Screen:
        """A turn's page, with Help where it has room for it."""
        return playhelp.with_help(self._prompted(title, lines, keys, also),
                                  self._prompted(title, lines, playhelp.helped(keys), also))

    def _prompted(self, title: str, lines: tuple[str, ...], keys: tuple, also: tuple[str, ...] = ()) -> Screen:
        # A page that names targets ("2,3:attack") takes every seat's digit:
        # the flow says why one cannot be attacked ("Not your own row.").
        digits = roles.digits(len(self.state.players)) if any(k[:1].isdigit() for k, _label in keys) else ""
        left = self.box.remaining()
        if left is None:
            return Screen(title, lines, keys=keys, digits=digits, also=also)
        # Under the big clock one line fits: the key hints take it rather
        # than the key bar, and a refusal, flashed over the clock shrunk,
        # never takes it (``typing``).
        return Screen(title, (key_line(keys),), big=clock_text(left), typing=0, digits=digits,
                      also=(*also, *(k for k, _label in keys if not k[:1].isdigit())))

    def digit_help(self, page: Screen) -> str:
        return _("1-{n}: who starts").format(n=len(self.state.players))   # the deal's: a turn's bar names its own

    def _table(self) -> Screen:
        s = self.state
        if s.tournament:
            title = _("Pool: {n} · game {g}/{k}").format(n=s.pool, g=s.game, k=dv.GAMES)
        else:
            title = _("Pool: {n}").format(n=s.pool)
        lines = self._rows()
        if s.last and len(lines) < LINES:
            lines += (self._last(s.last),)
        return Screen(title, lines)

    def _rows(self) -> tuple[str, ...]:
        """Each player's row as counts: the box is told a hit, never which
        tile, so it knows how many are hidden and face up, not where."""
        s = self.state
        heads, counts = [], []
        for seat in range(len(s.players)):
            mark = "►" if seat == s.turn else " "
            # A named seat keeps its digit beside the name: a digit always means that player.
            label = self._label(seat)
            label = label if label == seat_label(seat) else f"{seat + 1} {fit(label, 8)}"
            heads.append(f"{mark}{label}")
            counts.append((s.hidden[seat], s.revealed[seat]))
        # The counts in the account's words, as the table view says them.
        told = public.account(self.session)
        words = [public.tokens(told, seat) for seat in range(len(s.players))]
        if any(len(head) + 1 + len(text) > COLS for head, text in zip(heads, words) if text):
            words = [f"■{h} □{r}" for h, r in counts]   # too long a row in words: the panel's signs
        return tuple(f"{head} {text}" if hidden else " " + _("{p} out").format(p=self._label(seat))
                     for seat, (head, text, (hidden, _r)) in enumerate(zip(heads, words, counts)))

    def _last(self, last: dv.TurnEnd) -> str:
        who = self._label(last.seat)
        if last.how == "time":
            return _("Time up: {p} missed").format(p=who)
        if last.how == "stop":
            return ngettext("{p}: {n} hit, stopped", "{p}: {n} hits, stopped", last.hits).format(p=who, n=last.hits)
        if not last.hits:
            return _("{p} missed").format(p=who)
        return ngettext("{p}: {n} hit, 1 miss", "{p}: {n} hits, 1 miss", last.hits).format(p=who, n=last.hits)

    def _standings(self) -> Screen:
        s = self.state
        done = s.games[-1]
        title = _("Game {g}/{n}: {p} wins").format(g=done.number, n=dv.GAMES, p=self._label(done.winner))
        totals = list(dv.standings(s).values())
        lines = tuple(_("{p} {total:>2} pts +{n}").format(p=self._label(seat), total=totals[seat], n=points)
                      for seat, points in enumerate(done.points))
        return Screen(title, lines, keys=(("#", _("Next game")), roles.help_key()))

    def _game(self) -> Screen:
        s = self.state
        done = s.games[-1]
        title = _("{p} won, turns: {n}").format(p=self._label(done.winner), n=done.turns)
        line = _("{p} hits: {n}, {pts} pts") if s.tournament else _("{p} hits: {n}")
        return Screen(title, tuple(line.format(p=self._label(seat), n=hits, pts=done.points[seat])
                                   for seat, hits in enumerate(done.hits)))

    def _tournament(self) -> Screen:
        s = self.state
        totals = list(dv.standings(s).values())
        lines = tuple(f"{self._label(seat)} " + "+".join(str(g.points[seat]) for g in s.games) + f" = {total}"
                      for seat, total in enumerate(totals))
        return Screen(_("Tournament"), lines)

    def _over(self) -> Screen:
        s = self.state
        assert s.winner is not None   # a game is over only when someone has won it
        url = self.box.public_url()
        keys = (("#", _("Menu")),)
        if not s.tournament:
            return Screen(_("{p} wins!").format(p=self._label(s.winner)), (_("Scan for"), _("scores")),
                          keys=keys, qr=url)
        standings = dv.standings(s)
        best = [seat for seat, name in enumerate(s.players) if name in winners(standings)]
        if len(best) == 1:
            title = _("{p} wins!").format(p=self._label(best[0]))
        elif len(best) == 2:
            title = _("{p} win").format(p="+".join(map(self._label, best)))
        else:
            title = _("Shared win")
        lines = tuple(_("{p} {n} pts").format(p=self._label(seat), n=total)
                      for seat, total in enumerate(standings.values()))
        return Screen(title, lines, keys=keys, qr=url)

