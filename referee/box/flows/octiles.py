"""Octiles at the table: the box deals the tiles, keeps the turns and passes,
and in referee mode follows the board and checks every move.

Main shows whose turn it is and the tile they play, drawn as it lies, north
(the North seat's edge) up; the team screens show the same tile and the
standings.  The real tiles carry no numbers, so no screen names a tile by
its number: a tile is the one in hand or "the tile off space 9".  Spaces are
keyed by their number 1-17; circles are named by a space and an arrow
("8↘", ``games.octiles_places``), as the printed overlay
(``referee.octiles_overlay``, ``/how/octiles/board.pdf``) names them and the
map under ``D``, then ``1`` explains.  What to ask comes
from ``octiles.step(state)``.

Keys
----
Setup            the form's digits change an option, ``#`` starts; with 3 or
                 4 runners in referee mode each player then says which start
                 homes their runners stand on [OC-1]: digits 1-5 put one on
                 or off, ``#`` accepts (the first homes are offered), ``*``
                 goes back a player
A turn           digits and ``#``: the space the tile went on (``*`` clears);
                 in referee mode ``A`` and ``B`` turn the picture already
                 here, as on the turning page; ``D`` more: ``1`` the map of
                 the spaces (``D`` turns its pages: the spaces, the start
                 homes and how a circle is named, the overlay's QR code), ``2`` end the game,
                 ``3`` who has finished (dealer mode: the player's digit,
                 then ``#`` to confirm) or where the box has every runner
                 (referee mode), ``4`` pass [OC-8], asked first (``#`` yes,
                 ``*`` no); ``C`` is the help in play (``playhelp``), on every
                 page with a key bar, never a move
Turning          referee mode, once the space is keyed: the picture fills the
                 panel's height; ``A`` turns it 45° anticlockwise, ``B``
                 clockwise, until it looks like the tile on the board; ``#``
                 places it (the screen names the move when the placement
                 allows only one), ``*`` back
The move         a digit picks the runner's move when the placement offers
                 several; the only one is shown beside the tile, and ``#``
                 makes it (a habitual ``#`` after the space's never lays a
                 tile unseen); with none, the screen says why, and ``*``
                 goes back to turning
No move          ``#`` passes: the tile stays on top for the next player
Tile set aside   after everyone passed and then nobody could move with the
                 tile for a whole round, it goes under the deck and the next
                 player draws [OC-8]: ``#``.  ``D``, ``2`` still ends the
                 game for a table that wants to stop.
Nobody can move  no other tile to draw: ``#`` passes on, ``D``, ``2`` ends the game
After a turn     an exchanged tile, or a player home, is announced: ``#``
                 (``D``, ``2`` ends the game there too)
Game over        the finishing order and the score log's QR code; ``#`` back
                 to the main menu
"""
from __future__ import annotations

import dataclasses
from enum import StrEnum
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Sequence

from games import octiles as oc
from games.octiles_board import SEATS_IN_PLAY
from referee.box.flows import Flow, public, roles
from referee.box.flows.roles import DIGITS
from referee.box.flows.forms import Form, Option
from referee.box.flows.octiles_draw import space_map, tile_picture
from referee.box.screen import COLS, LINES, Screen, fit, wrap
from referee.i18n import _, ngettext
from referee.said.octiles import SEAT_NAMES, describe  # noqa: F401  (describe: the catalogue's hook)

if TYPE_CHECKING:
    from referee.box.session import Session

BESIDE = 13      # text columns left of the tile picture
TURNING = 10     # text columns left of the full-height picture
FULL_CENTRE, FULL_APOTHEM = (96, 31), 31   # the picture across the panel's 64 rows
SPACES = len(oc.BOARD.spaces)
# The spaces by number, the start homes and how circles are named, then the
# QR code of the overlay to print.
MAP_PAGES = 3
OVERLAY = "HOW/OCTILES/BOARD.PDF"   # referee.web.octiles_board, in a QR code's capitals
RUNNERS = MAP_PAGES   # the page after the map: where the box has every runner


def setup(box) -> Form:
    options = [
        Option("players", _("Players"), tuple((n, str(n)) for n in SEATS_IN_PLAY)),
        Option("runners", _("Runners"), tuple((n, str(n)) for n in (5, 4, 3))),  # [ruling] 3-5 runners
        Option("starts", _("Starts"), _seat_choices(2)),  # [ruling] the box asks who starts
        Option("mode", _("Mode"), (("referee", _("referee")), ("dealer", _("dealer")))),
    ]
    help_lines = (_("Bring your runners"), _("to the far edge."), _("Referee: box checks"), _("Dealer: box deals"),
                  _("Turn: space 1-17, #"), _("D 4: pass the turn"), _("D then 1: the spaces"),
                  _("map; 2 ends the game"), _("A/B: turn the tile"), _("#: place it"),
                  _("Circles: a space and"), _("an arrow: 8↘ lies ↘"), _("of space 8."),
                  _("The map's last page"), _("has a QR: the"), _("board's names to print."))
    return _Setup(box, _("Octiles"), options, None, help_lines)


def _seat_choices(players: int) -> tuple[tuple[int, str], ...]:
    return tuple((n, _(SEAT_NAMES[seat.title()])) for n, seat in enumerate(SEATS_IN_PLAY[players]))


class _Setup(Form):
    """The setup form; who starts is one of the seats the players fill.
    With fewer than five runners in referee mode, ``#`` goes on to ask each
    player, seat by seat, which start homes their runners stand on [OC-1]:
    digits 1-5 put a runner on or off a home, ``#`` accepts (the first homes
    are offered), ``*`` goes back a seat."""

    homes: list[list[str]] | None = None   # per seat, the homes chosen so far, while asking
    seat = 0                    # whose homes are asked
    pending: dict[str, Any] = {}   # the setup values, while the homes are asked

    def __init__(self, box, title, options, _start, help_lines) -> None:
        super().__init__(box, title, options, self.begin, help_lines)

    @property
    def _seats(self) -> tuple[str, ...]:
        players = self.pending["players"]
        return SEATS_IN_PLAY[players if isinstance(players, int) else len(players)]

    def begin(self, values: dict) -> None:
        if values["runners"] < 5 and values["mode"] == "referee":
            self.pending, self.seat = values, 0
            # [OC-1] the first homes are offered: one key accepts them
            self.homes = [list(oc.BOARD.start_homes(seat)[:values["runners"]]) for seat in self._seats]
        else:
            self.box.start_game(oc.NAME, values)

    remembered = (*Form.remembered, "homes", "seat", "pending")

    def key(self, key: str, kind: str) -> None:
        if self.homes is not None:
            if kind == "press":
                self._homes_key(key, self.homes)
            return
        super().key(key, kind)
        self._fit()

    def _fit(self) -> None:
        i = [o.key for o in self.options].index("starts")
        choices = _seat_choices(self.values["players"])
        self.options[i] = dataclasses.replace(self.options[i], choices=choices)
        if self.chosen[i] >= len(choices):
            self.chosen[i] = 0


    def _homes_key(self, key: str, homes: list[list[str]]) -> None:
        values = self.pending
        seat = self._seats[self.seat]
        circles = oc.BOARD.start_homes(seat)
        mine = homes[self.seat]
        if key.isdigit() and 1 <= int(key) <= len(circles):
            circle = circles[int(key) - 1]
            if circle in mine:
                mine.remove(circle)
            else:
                mine.append(circle)
        elif key == "#" and len(mine) != values["runners"]:
            self.box.flash(ngettext("Put {n} runner on homes.", "Put {n} runners on homes.",
                                    values["runners"]).format(n=values["runners"]))
            self.box.sound("error")
        elif key == "#" and self.seat + 1 < len(homes):
            self.seat += 1
        elif key == "#":
            self.homes = None
            ordered = [[c for c in oc.BOARD.start_homes(s) if c in chosen] for s, chosen in zip(self._seats, homes)]
            self.box.start_game(oc.NAME, {**values, "homes": ordered})
        elif key == "*" and self.seat:
            self.seat -= 1
        elif key == "*":
            self.homes = None

    def screens(self) -> dict[str, Screen]:
        if self.homes is None:
            return super().screens()
        values = self.pending
        seat = self._seats[self.seat]
        circles = oc.BOARD.start_homes(seat)
        mine = self.homes[self.seat]
        cells = [f"{k}{'●' if c in mine else '○'}{oc.place(c)}" for k, c in enumerate(circles, 1)]
        lines = (" ".join(cells[:3]), " ".join(cells[3:]),
                 ngettext("{n} runner: digits", "{n} runners: digits", values["runners"]).format(n=values["runners"]),
                 _("put one on or off"))
        players = values["players"]
        name = _(SEAT_NAMES[seat.title()]) if isinstance(players, int) else players[self.seat]
        title = _("{name}: start homes").format(name=name)
        return {"main": Screen(title, lines, keys=(("#", _("OK")), ("*", _("Back"))),
                               digits=roles.digits(len(circles)))}


@dataclass(frozen=True)
class Draft:
    """The turn being keyed in: the space's digits, then the space (1-17)
    and how far the picture is turned, then placed: the moves it offers, or
    why it offers none."""
    typed: str = ""
    space: int | None = None
    rotation: int = 0
    placed: bool = False


class Ask(StrEnum):
    """A question over the turn (``Play.asking``)."""
    NONE = ""
    MORE = "more"           # the D menu: the space map, end the game, who has finished or where runners are
    END = "end"             # end the game here?
    FINISHED = "finished"   # dealer mode: which seat has finished?
    SURE = "sure"           # ... and is that so? [OC-9]
    PASS = "pass"           # pass the turn? [OC-8]


def seat(step: oc.Step) -> int:
    """Whose turn a step of play is (a play, no move, or a tile nobody can move)."""
    if step.seat is None:
        raise ValueError(f"a {step.kind} step is nobody's turn")
    return step.seat


class Play(Flow):
    remembered = ("draft", "notice", "asking", "page", "finisher")
    # An undo lands before the space is keyed: never on the turning
    # picture or the move list, where one key places the tile again.
    keyed = ("draft", "asking", "finisher")

    def __init__(self, box, session) -> None:
        super().__init__(box)
        self.session: Session = session
        # Both belong to one moment of the game (see _moment), so that an
        # undo drops them: the Draft as a dict under "at", and the moment
        # right after the flow's last accepted event with that event's name.
        self.draft: dict[str, Any] | None = None
        self.notice: list[int | str] | None = None
        self.asking = Ask.NONE   # a question over the turn (see Ask)
        self.page: int | None = None       # the page of the space map shown, if any, or RUNNERS
        self.finisher: int | None = None   # dealer mode: the seat asked about as finished

    @property
    def state(self) -> oc.State:
        return self.session.state

    def _moment(self) -> list[int | str]:
        s = self.state
        return [len(s.turns), len(s.finishers)]

    def _draft(self) -> Draft:
        if self.draft and self.draft["at"] == self._moment():
            return Draft(**{k: v for k, v in self.draft.items() if k != "at"})
        return Draft()

    def _keep(self, draft: Draft) -> None:
        self.draft = {"at": self._moment(), **dataclasses.asdict(draft)}

    def _name(self, seat: int) -> str:
        name = self.state.names[seat]
        return _(SEAT_NAMES[name]) if name in SEAT_NAMES else name

    def _moves(self, space: int, draft: Draft) -> tuple[oc.Move, ...]:
        """The moves the tile in hand offers on ``space`` (keyed 1-17), turned as ``draft`` has it."""
        return oc.moves_at(self.state, oc.space_name(space), draft.rotation)

    # --- keys -------------------------------------------------------------------

    def key(self, key: str, kind: str) -> None:
        if kind != "press":
            return
        step = oc.step(self.state)
        if self.page is not None:
            self._map_key(key, self.page)
        elif step.kind == "over":
            if key in ("#", "*"):
                self.box.leave()
        elif self.asking:
            self._ask_key(key)
        elif self._news():
            if key == "#":
                self.notice = None
            elif key == "D":
                self.asking = Ask.MORE
        elif step.kind == "play":
            self._turn_key(key, step)
        elif key == "#" and step.kind in ("no_move", "stuck"):
            self._act(oc.Pass())  # [OC-8] no move: the tile goes on to the next player
        elif key == "D":
            self.asking = Ask.MORE

    def _turn_key(self, key: str, step: oc.Step) -> None:
        draft = self._draft()
        if draft.space is None:
            self._space_key(key, draft)
        elif not draft.placed:
            if key in ("A", "B"):
                # A turns anticlockwise, B clockwise: the rules turn clockwise.
                self._keep(dataclasses.replace(draft, rotation=(draft.rotation + (1 if key == "B" else -1)) % 8))
            elif key == "#":
                # Even the only move is shown with the tile before it is
                # made: a habitual # after the space's never lays it unseen.
                self._keep(dataclasses.replace(draft, placed=True))
            elif key == "*":
                self._keep(Draft())
        else:
            moves = self._moves(draft.space, draft)
            if key.isdigit() and 1 <= int(key) <= len(moves):
                self._act(oc.Play(*moves[int(key) - 1]))
            elif key == "#" and len(moves) == 1:
                self._act(oc.Play(*moves[0]))
            elif key == "*":
                self._keep(dataclasses.replace(draft, placed=False))

    def _space_key(self, key: str, draft: Draft) -> None:
        if key.isdigit() and len(draft.typed) < len(str(SPACES)):
            self._keep(dataclasses.replace(draft, typed=draft.typed + key))
        elif key in ("A", "B") and self.state.mode == "referee":
            # The tile is turned here too, as on the turning page.
            self._keep(dataclasses.replace(draft, rotation=(draft.rotation + (1 if key == "B" else -1)) % 8))
        elif key == "#" and not draft.typed:
            self._refuse(_("Key the space first: 1-{n}.").format(n=SPACES))
        elif key == "#":
            number = int(draft.typed)
            if not 1 <= number <= SPACES:
                self._keep(Draft(rotation=draft.rotation))
                self._refuse(_("The spaces are 1 to {n}.").format(n=SPACES))
            elif self.state.mode == "dealer":
                self._act(oc.Played(oc.space_name(number)))
            else:
                self._keep(Draft(space=number, rotation=draft.rotation))
        elif key == "*":
            self._keep(Draft(rotation=draft.rotation))
        elif key == "D":
            self.asking = Ask.MORE

    def _ask_key(self, key: str) -> None:
        s = self.state
        if key == "*":
            self.asking = Ask.FINISHED if self.asking == Ask.SURE else Ask.NONE
        elif self.asking == Ask.MORE:
            if key == "1":
                self.asking, self.page = Ask.NONE, 0
            elif key == "2":
                self.asking = Ask.END
            elif key == "3" and s.mode == "dealer":
                self.asking = Ask.FINISHED
            elif key == "3":
                self.asking, self.page = Ask.NONE, RUNNERS
            elif key == "4" and self._may_pass():
                self.asking = Ask.PASS
        elif self.asking == Ask.PASS and key == "#":
            self.asking = Ask.NONE
            self._act(oc.Pass())  # [OC-8] the rules refuse it once everyone passed and a move is possible
        elif self.asking == Ask.END and key == "#":
            self.asking = Ask.NONE
            self._act(oc.Stop())
        elif self.asking == Ask.FINISHED and key.isdigit() and 1 <= int(key) <= len(s.names):
            # [OC-9] a finish is asked again before the box records it
            self.asking, self.finisher = Ask.SURE, int(key) - 1
        elif self.asking == Ask.SURE and key == "#":
            if self._act(oc.Finished(self._finisher())):
                self.asking, self.finisher = Ask.NONE, None
            else:
                self.asking = Ask.FINISHED

    def _may_pass(self) -> bool:
        """A pass is offered on the turn's first page, unless everyone
        passed and the box knows a move is possible [OC-8]."""
        step = oc.step(self.state)
        draft = self._draft()
        return step.kind == "play" and draft.space is None and not draft.typed and \
            not (step.must_move and self.state.mode == "referee")

    def _map_key(self, key: str, page: int) -> None:
        if page == RUNNERS:
            if key in ("#", "*", "D"):
                self.page = None
        elif key == "D":
            self.page = (page + 1) % MAP_PAGES
        elif key == "C":
            self.page = (page - 1) % MAP_PAGES
        elif key in ("#", "*"):
            self.page = None

    def _finisher(self) -> int:
        """The seat asked about as finished (the question is up)."""
        if self.finisher is None:
            raise ValueError("nobody is asked about as finished")
        return self.finisher

    def _act(self, event: oc.Play | oc.Played | oc.Pass | oc.Stop | oc.Finished) -> bool:
        done = self.box.act(event)
        if done:
            self.notice = [*self._moment(), type(event).__name__]
        return done

    def _refuse(self, message: str) -> None:
        self.box.flash(message)
        self.box.sound("error")

    def _news(self) -> tuple[oc.Turn | None, int | None] | None:
        """What the flow's last event did that the table must hear before
        going on: the turn that exchanged a tile, and the seat that came home;
        None when there is nothing to tell (or it was told)."""
        s = self.state
        if not self.notice or self.notice[:2] != self._moment() or oc.is_over(s):
            return None
        event = self.notice[2]
        # A pass or a play is a turn: only a finish declared may come before any.
        last = s.turns[-1] if s.turns else None
        if event == "Pass" and last is not None and last.set_aside:
            return (last, None)   # [OC-8] the tile nobody could use goes under
        played = last if event in ("Play", "Played") else None
        exchanged = played if played is not None and played.action == "exchanged" else None
        home = s.finishers[-1] if event == "Finished" or (event == "Play" and played and played.finished) else None
        return (exchanged, home) if exchanged or home is not None else None

    # --- screens ------------------------------------------------------------------

    def screens(self) -> dict[str, Screen]:
        s = self.state
        step = oc.step(s)
        if step.kind == "shuffle":
            waiting = Screen(_("Octiles"), (_("Shuffling the tiles…"),))
            return {"main": waiting, "team1": waiting, "team2": waiting}
        if step.kind == "over":
            side = self._final()
            return {"main": self._over(), "team1": side, "team2": side}
        draft = self._draft()
        side = self._standings(draft)
        if self.page is not None:
            main = self._map(self.page)
        elif self.asking:
            main = self._ASKS[self.asking](self)
        elif (news := self._news()) is not None:
            main = self._told(*news)
        else:
            main = self._STEPS[step.kind](self, step, draft)
        return {"main": main, "team1": side, "team2": side}

    def _tile_screen(self, step: oc.Step, lines: Sequence[str], keys: Sequence[tuple[str, str]],
                     rotation: int = 0, title: str = "", typing: int | None = None) -> Screen:
        # The tiles carry no numbers: the picture shows which one it is.
        title = title or _("{name} to play").format(name=self._name(seat(step)))
        return Screen(title, tuple(fit(line, BESIDE) for line in lines if line), keys=tuple(keys),
                      picture=tile_picture(step.tile, rotation), typing=typing)

    def _play(self, step: oc.Step, draft: Draft) -> Screen:
        if draft.space is None:
            return self._key_space(step, draft)
        if not draft.placed:
            return self._turning(step, draft.space, draft)
        moves = self._moves(draft.space, draft)
        return self._choose(step, draft, moves) if moves else self._why(draft.space, draft)

    def _key_space(self, step: oc.Step, draft: Draft) -> Screen:
        s = self.state
        lines = [_("Space: {typed}_").format(typed=draft.typed), _("1-{n}, then #").format(n=SPACES)]
        # [OC-8] everyone passed: who can move must.  In dealer mode only the
        # players know whether they can, so the pass stays on offer.
        forced = step.must_move and s.mode == "referee"
        if draft.typed:
            keys = [("#", _("OK")), roles.help_key(), ("*", _("Clear"))]
        else:
            keys = [("#", _("OK")), roles.help_key(), ("D", _("More"))]   # the pass is under More: it asks first
        also: tuple[str, ...] = ()
        if s.mode == "referee":
            # The tile turns from the start, before its space is keyed, as
            # on the turning page (A anticlockwise, B clockwise), said on a
            # line as there: the deck's count gives it its row, and is said
            # on the team screens (``_standings``).
            lines.append(_("A◄ ►B turn"))
            also = ("A", "B")
        if forced:
            lines += [_("You must move")]   # [OC-8] everyone passed: who can move must
        elif step.must_move:
            # In dealer mode only the players know whether they can, so the pass stays on offer.
            lines += [_("All passed:"), _("move if able")]
        elif step.tile_from != "deck":
            # [OC-3] on a full board the tile comes off the board, not the deck
            lines += [_("From board"), _("Round {n}").format(n=s.round)][:LINES - len(lines)]
        else:
            deck = [_("Deck: {n}").format(n=len(s.deck or ()))] if s.mode == "dealer" else []
            lines += [*deck, _("Round {n}").format(n=s.round)]
        screen = self._tile_screen(step, lines, keys, rotation=draft.rotation, typing=0)
        return dataclasses.replace(screen, digits=DIGITS if len(draft.typed) < len(str(SPACES)) else "", keep=(1,),
                                   also=also)

    def _turning(self, step: oc.Step, number: int, draft: Draft) -> Screen:
        """The tile picture at the panel's full height, so that crossing
        paths stay apart; the words in the ten columns beside it (the tile
        on space ``number``)."""
        lying = oc.exchange(self.state, oc.space_name(number))
        moves = self._moves(number, draft)
        if len(moves) == 1:
            # the only move this placement allows: what # does
            then = f"#:{oc.move_name(moves[0].from_circle, moves[0].to_circle)}"
        else:
            then = _("#: moves") if moves else _("#: no move")
        lines = [self._name(seat(step)), _("Space {n}").format(n=number), _("A◄ ►B turn"), then,
                 "*:" + _("Back"),
                 _("Swaps tile") if lying else   # [OC-2] a tile lies there
                 _("Top: North")]                   # the board's edge the picture has up
        return Screen("", tuple(fit(line, TURNING) for line in lines), invert_title=False,
                      picture=tile_picture(step.tile, draft.rotation, FULL_CENTRE, FULL_APOTHEM),
                      digits="", also=("A", "B", "#", "*"))

    def _choose(self, step: oc.Step, draft: Draft, moves: tuple[oc.Move, ...]) -> Screen:
        cells = [f"{i} {oc.move_name(m.from_circle, m.to_circle)}" for i, m in enumerate(moves, 1)]
        title = _("{name}: which move?").format(name=self._name(seat(step)))
        if len(moves) == 1:
            # The only move, beside the tile as it will lie: # makes it.
            screen = self._tile_screen(step, cells, (("#", _("OK")), roles.help_key(), ("*", _("Back"))),
                                       rotation=draft.rotation, title=title)
            return dataclasses.replace(screen, digits=roles.digits(1))
        lines = tuple("  ".join(cells[i:i + 2]) for i in range(0, len(cells), 2))
        return Screen(title, lines, keys=(roles.help_key(), ("*", _("Back"))), digits=roles.digits(len(moves)))

    def _why(self, number: int, draft: Draft) -> Screen:
        """Why the tile on space ``number``, turned as ``draft`` has it, moves nobody."""
        why = oc.no_move(self.state, oc.space_name(number), draft.rotation)
        if why is None:
            raise ValueError(f"the tile on space {number} moves a runner")
        reason = _(why.reason)
        if why.from_circle and why.to_circle:
            reason = f"{oc.move_name(why.from_circle, why.to_circle)}: {reason}"
        elif why.from_circle:
            reason = _("From {circle}:").format(circle=oc.place(why.from_circle)) + " " + reason
        return Screen(_("No move there"), tuple(wrap(reason))[:4], keys=(roles.help_key(), ("*", _("Back"))), digits="")

    def _no_move(self, step: oc.Step, draft: Draft) -> Screen:
        lines = (_("No move with"), _("this tile."), _("#: pass it on"))
        return self._tile_screen(step, lines, (("#", _("Pass")), roles.help_key(), ("D", _("More"))))

    def _stuck(self, step: oc.Step, draft: Draft) -> Screen:
        lines = (_("Nobody can"), _("move with it."), _("#: pass on"))
        return self._tile_screen(step, lines, (("#", _("Pass")), roles.help_key(), ("D", _("More"))))

    def _told(self, exchanged: oc.Turn | None, home: int | None) -> Screen:
        s = self.state
        lines: list[str] = []
        if exchanged and exchanged.set_aside:
            # [OC-8] [ruling] a tile nobody could use for a whole round
            under = (_("Nobody could move"), _("Put it at the bottom"), _("of the deck."),
                     _("{name} draws.").format(name=self._name(s.turn)))
            return Screen(_("Tile under the deck"), under, keys=(("#", _("OK")), roles.help_key(), ("D", _("More"))))
        if exchanged and exchanged.space is not None:   # an exchange names its space
            number = oc.space_number(exchanged.space)
            # The tiles carry no numbers: it is the tile that lay on the space.
            title = _("Tile off space {n}").format(n=number)
            if s.hand_from == "board":
                # [OC-3] full board: the next player plays the removed tile
                lines.append(_("{name} plays it next.").format(name=self._name(s.turn)))
            else:
                lines += [_("Put it at the bottom"), _("of the deck.")]  # [OC-2]
        if home is not None:
            place = s.finishers.index(home) + 1
            # [OC-9] the first home wins; the others may play on for places
            done = _("{name} wins!") if place == 1 else _("Place {n}: {name}")
            lines.append(done.format(name=self._name(home), n=place))
            lines.append(_("The others play on."))
            if not exchanged:
                title = lines.pop(0)
        return Screen(title, tuple(lines), keys=(("#", _("OK")), roles.help_key(), ("D", _("More"))), digits="")

    def _ask_more(self) -> Screen:
        lines = [_("1 Map of the spaces"), _("2 End the game")]
        if self.state.mode == "dealer":
            lines.append(_("3 Who has finished?"))
        else:
            lines.append(_("3 Where runners are"))
        if self._may_pass():
            lines.append(_("4 Pass the turn"))
        return Screen(_("More"), tuple(lines), keys=(roles.help_key(), ("*", _("Back"))), digits=roles.digits(len(lines)))

    def _ask_pass(self) -> Screen:
        return Screen(_("Pass the turn?"), (_("The tile goes on to"), _("the next player.")),
                      keys=(("#", _("Yes")), roles.help_key(), ("*", _("No"))), digits="")

    def _ask_end(self) -> Screen:
        s = self.state
        lines = (_("Places so far stay."),) if s.finishers else (_("Nobody wins."),)
        return Screen(_("End the game now?"), lines, keys=(("#", _("Yes")), roles.help_key(), ("*", _("No"))), digits="")

    def _ask_finished(self) -> Screen:
        s = self.state
        cells = [fit(f"{seat + 1} {self._name(seat)}", 10).ljust(10) for seat in s.active]
        lines = tuple(" ".join(cells[i:i + 2]).rstrip() for i in range(0, len(cells), 2))
        return Screen(_("Who has finished?"), (*lines, _("All runners home.")), keys=(roles.help_key(), ("*", _("Back"))),
                      digits=roles.digits(len(s.names)))   # a seat home already is refused with why

    def _ask_sure(self) -> Screen:
        lines = (_("All runners in their"), _("goal homes?"))
        return Screen(_("{name} finished?").format(name=self._name(self._finisher())), lines,
                      keys=(("#", _("Yes")), roles.help_key(), ("*", _("No"))), digits="")

    def _runners(self) -> Screen:
        """Where the box has every runner: to check against the table."""
        s = self.state
        lines = []
        for seat in range(len(s.names)):
            mine = [oc.place(c) for c, who in sorted(s.board.pieces().items(), key=lambda p: oc.corner(p[0]))
                    if who == s.seats[seat]]
            # Each name ends in its arrow: where the spaces between them do
            # not fit, the names stand side by side.
            joined = " ".join(mine) if len(" ".join(mine)) <= COLS - 7 else "".join(mine)
            lines.append(f"{fit(self._name(seat), 6):<6} {joined}")
        return Screen(_("Runners on circles"), tuple(lines), keys=(("#", _("OK")), roles.help_key()), digits="")

    def _map(self, page: int) -> Screen:
        if page == RUNNERS:
            return self._runners()
        title = _("Spaces {k}/{n} D:more").format(k=page + 1, n=MAP_PAGES)
        # A space has one name on the box, its map and the phones: its
        # number, as it is keyed; circles (where runners stand) have letters.
        if page == 0:
            lines = space_map(oc.space_number)
        elif page == MAP_PAGES - 1:
            # Beside the QR code ten columns are left.
            lines = tuple(wrap(_("Scan: the board to print."), 10))[:4]
            return Screen(_("Print") + f" {page + 1}/{MAP_PAGES}", lines, digits="", also=("C", "D", "#", "*"),
                          qr=self.box.public_url() + OVERLAY)
        else:
            homes = [(_(SEAT_NAMES[seat.title()]), oc.BOARD.start_homes(seat)) for seat in oc.SEATS]
            wide = max(len(name) for name, _circles in homes) + 1   # "Południe" is 8 letters
            # Each seat's five homes, clockwise along its edge, first to last.
            example = oc.place("C3")
            lines = (*(f"{name:<{wide}}{oc.place(circles[0])}…{oc.place(circles[-1])}" for name, circles in homes),
                     _("{circle} = circle {arrow} of {n}").format(circle=example, arrow=example[-1],
                                                                  n=example[:-1]))
            title = _("Start homes") + f" {page + 1}/{MAP_PAGES}"
        # No row is left for a key bar: the title names the keys.
        return Screen(title, lines, digits="", also=("C", "D", "#", "*"))

    # --- help in play (``playhelp``) --------------------------------------------------

    def help_keys(self, page: Screen) -> list[str]:
        # The tile's turns, A and B, which the space's page names on a line.
        turns = [_("A, B: turn the tile")] if {"A", "B"} <= set(page.also) and page.keys else []
        return [*super().help_keys(page), *turns]

    def digit_help(self, page: Screen) -> str:
        if self.page == RUNNERS or self.asking == Ask.MORE:
            return ""
        if self.asking == Ask.FINISHED:
            return _("{keys}: who has finished")
        step, draft = oc.step(self.state), self._draft()
        if step.kind == "play" and draft.space is None:
            return _("1-{n}: a space, then #").format(n=SPACES)
        return _("{keys}: which move")

    def _standings(self, draft: Draft) -> Screen:
        s = self.state
        lines = [self._standing(seat) for seat in range(len(s.names))]
        if s.mode == "referee" and oc.step(s).tile_from == "deck" and len(lines) < LINES:
            lines.append(_("Deck: {n}").format(n=len(s.deck or ())))   # the public screen's space page has no row for it
        title = _("{name} to play").format(name=self._name(s.turn))
        return Screen(title, tuple(fit(line, BESIDE) for line in lines),
                      picture=tile_picture(s.hand, draft.rotation))

    def _standing(self, seat: int) -> str:
        s = self.state
        mark = "►" if seat == s.turn and not oc.is_over(s) else " "
        if seat in s.finishers:
            return f"{mark}{self._name(seat)} #{s.finishers.index(seat) + 1}"
        if s.mode == "referee":
            return f"{mark}{self._name(seat)} {s.board.home(s.seats[seat])}/{s.board.runners_per_player}"
        return f"{mark}{self._name(seat)}"

    def _over(self) -> Screen:
        s = self.state
        # The winner as the game's account names it, as the table view and
        # the replay's last step do; the order home is the page's own.
        winners = public.account(self.session).winners
        if s.finishers and winners:
            title = _("{name} won!").format(name=winners[0])  # [OC-9]
            lines = tuple(f"{place} {self._name(seat)}" for place, seat in enumerate(s.finishers, 1))
        else:
            title, lines = _("Game over"), (_("No winner"),)
        # Beside the QR code ten columns are left: the team screens show the
        # whole order.
        return Screen(title, (*lines[:2], _("Scan for"), _("scores")), keys=(("#", _("Menu")),),
                      qr=self.box.public_url())

    def _final(self) -> Screen:
        s = self.state
        lines = tuple(self._standing(seat).strip() for seat in range(len(s.names)))
        return Screen(_("Finishing order"), lines)

    # What main shows: for a question over the turn, and for each kind of
    # turn the rules' step names, in one place.
    _ASKS = {Ask.MORE: _ask_more, Ask.END: _ask_end, Ask.FINISHED: _ask_finished, Ask.SURE: _ask_sure,
             Ask.PASS: _ask_pass}
    _STEPS = {"play": _play, "no_move": _no_move, "stuck": _stuck}

