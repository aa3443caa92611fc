"""``referee sim``: the whole box in a terminal, on simulated devices.

The three panels are drawn from what their (simulated) controllers hold:
the public screen in half blocks, one character for 1×2 pixels, the team
screens in braille, one character for 2×4.  Keys on the keyboard or clicks on
the pad press keys on the mock pins, so the same driver code runs as on the
table.  A terminal hands over keys typed quickly all at once; they queue and
go down one after the other, in the order typed, as fingers would.

Keyboard (a legend at the bottom says it too; a letter in either case):
0-9, a-d, * and # are the pad; q and w press the team buttons; z and x hold
them down until pressed again; u holds * (take back, the game menu); r
presses the dice module's ROLL button; t shows the screens as text or as
pixels; ctrl+q quits.  The drawn team and ROLL buttons name their keys; a
team button Z or X holds is said under the pad until let go.  A terminal too
small for the pixels shows the text, and says so; the pixels asked for there
(t) narrow the pad rather than cut it.

The score log for phones is served as on the table, by a ``referee web``
process of its own on the same database and ``[web]`` address, started with
the simulator and stopped with it; what it says goes to ``sim-web.log``
beside the database.  Where that address is taken (another simulator), the
simulator says so and does not start.
"""
from __future__ import annotations

import collections
import os
import socket
import subprocess
import sys

from textual.app import App, ComposeResult
from textual.containers import Grid, Horizontal, Vertical
from textual.events import MouseDown, MouseUp
from textual.widgets import Button, Static

from hal.keys import LAYOUT
from hal.sim.dice_module import SimulatedDiceModule
from hal.sim.pins import SimulatedPins
from referee.box.coordinator import Box
from referee.box.service import Service
from referee.config import Config

PRESS = 0.08   # seconds a typed key stays down
GAP = 0.05     # seconds between two typed keys: longer than the debounce and a scan
UNDO_HOLD = 1.0  # seconds "u" holds * down
SOUND_SHOWN = 3.0  # seconds the status line names the last sound played
BRAILLE = (0x01, 0x08, 0x02, 0x10, 0x04, 0x20, 0x40, 0x80)  # dot bit for (row*2 + col)


def half_blocks(image) -> str:
    w, h = image.size
    px = image.load()
    rows = []
    for y in range(0, h, 2):
        rows.append("".join(" ▀▄█"[(px[x, y] > 0) | (px[x, y + 1] > 0) << 1] for x in range(w)))
    return "\n".join(rows)


def braille(image) -> str:
    w, h = image.size
    px = image.load()
    rows = []
    for y in range(0, h, 4):
        line = []
        for x in range(0, w, 2):
            bits = 0
            for dy in range(4):
                for dx in range(2):
                    if px[x + dx, y + dy]:
                        bits |= BRAILLE[dy * 2 + dx]
            line.append(chr(0x2800 + bits))
        rows.append("".join(line))
    return "\n".join(rows)


class Panel(Static):
    def __init__(self, name: str, **kw) -> None:
        # The screens' own brackets ("[Decrypto]") are words, not markup.
        super().__init__(markup=False, **kw)
        self.panel_name = name
        self._last: str | None = None


KEY_IDS = {"*": "star", "#": "hash"}
LEGEND = ("Keys: 0-9 A-D * # the pad · Q W team buttons · Z X hold a team button down, again to let go · "
          f"U hold * for {UNDO_HOLD:g} s (take back, menu) · R dice ROLL · T text/pixels · ctrl+q quit")
# The drawn buttons that the keyboard presses with another key say which.
LABELS = {"team1": "Team 1 (Q)", "team2": "Team 2 (W)"}
ROLL_LABEL = "ROLL dice (R)"
HOLDS = {"team1": "Z", "team2": "X"}   # the keys that hold a team button down
# Room the pixel view takes, in cells: the public panel 128 wide (64 rows of
# half blocks) above the team panels 2×64 (16 rows of braille), each framed
# (2) and padded (2), beside the 30-cell pad, above the legend (a line this wide).
PIXELS_FIT = (2 * (64 + 4) + 30, (32 + 2) + (16 + 2) + 1)


QUIT_ASKED = "A game is under way: ctrl+q again quits, any other key stays."
PUBLIC = (128 + 4, 32 + 2)   # the public panel in half blocks, with its border and padding
TEAMS_HIGH = 16 + 2          # a team panel in braille, with its border
SIDE_NARROW = 20             # the pad at its narrowest beside the pixels


def unseen(width: int, height: int) -> str:
    """What of the pixel view a terminal of ``width``×``height`` leaves out."""
    legend = PIXELS_FIT[1] - PUBLIC[1] - TEAMS_HIGH
    room = height - legend
    cut = []
    if width < PUBLIC[0] or room < PUBLIC[1]:
        parts = ([f"its right {PUBLIC[0] - width} columns"] if width < PUBLIC[0] else []) + \
                ([f"its bottom {PUBLIC[1] - room} rows"] if room < PUBLIC[1] else [])
        cut.append("the public panel's " + " and ".join(p.removeprefix("its ") for p in parts))
    if room < PUBLIC[1] + TEAMS_HIGH:
        cut.append("the team panels" if room <= PUBLIC[1] else "the team panels' bottom rows")
    if width < PUBLIC[0] + SIDE_NARROW:
        cut.append("the pad")
    return ", ".join(cut) or "nothing"


def under_way(box) -> bool:
    """A game is being played (not over; the table tools count too)."""
    s = box.session if box is not None else None
    return s is not None and not s.rules.is_over(s.state)


class PadKey(Button):
    """A pad key that stays down while the mouse button does (and at least
    as long as a finger would: a click is shorter than the debounce)."""

    def __init__(self, key: str, **kw) -> None:
        super().__init__(LABELS.get(key, key), id=f"key-{KEY_IDS.get(key, key)}", **kw)
        self.key_name = key
        self._since = None

    def on_mouse_down(self, event: MouseDown) -> None:
        self._since = self.sim.started.clock.monotonic()
        self.sim.set_key(self.key_name, True)

    def on_mouse_up(self, event: MouseUp) -> None:
        self._let_go()

    def on_leave(self, event) -> None:
        self._let_go()

    def _let_go(self) -> None:
        if self._since is None:
            return
        clock = self.sim.started.clock
        left = self._since + PRESS - clock.monotonic()
        self._since = None
        clock.call_later(max(0.0, left), self.sim.set_key, self.key_name, False)

    @property
    def sim(self) -> RefereeSim:
        app = self.app
        assert isinstance(app, RefereeSim)   # a pad key is only ever one of the simulator's
        return app


class RefereeSim(App[None]):
    CSS = """
    Screen { layout: horizontal; }
    #screens { width: auto; }
    Panel { border: round $primary; width: auto; height: auto; padding: 0 1; }
    #teams { height: auto; width: auto; }
    #side { width: 30; }
    #side.narrow { width: 1fr; min-width: 20; }
    #side.narrow PadKey { width: 100%; min-width: 3; }
    #side.narrow .wide { width: 1fr; }
    #pad { grid-size: 4 4; grid-gutter: 0; height: 16; }
    PadKey { width: 7; min-width: 5; height: 4; }
    .wide { width: 14; }
    #status { height: auto; padding: 0 1; }
    #legend { dock: bottom; height: auto; background: $panel; padding: 0 1; }
    """
    BINDINGS = [("ctrl+q", "quit", "Quit")]

    def __init__(self, config: Config, clock=None, config_file: str | None = None) -> None:
        super().__init__()
        self.service = Service(config, clock)
        self.config_file = config_file
        self.web: subprocess.Popen | None = None
        self.box: Box | None = None    # the box, once the app is mounted
        self.down: set[str] = set()
        self.held: set[str] = set()        # team buttons Z or X holds down
        self.typed: collections.deque = collections.deque()   # (key, seconds down), in typed order
        self.show_text = False
        self.chosen = False      # t was pressed: the view is the player's, not the size's
        self.too_small = ""      # why the text view was chosen, while it is
        self._status: str | None = None
        self.quitting = False    # ctrl+q pressed over a game under way: a second one quits

    def compose(self) -> ComposeResult:
        with Vertical(id="screens"):
            yield Panel("main", id="main")
            with Horizontal(id="teams"):
                yield Panel("team1", id="team1")
                yield Panel("team2", id="team2")
        with Vertical(id="side"):
            with Grid(id="pad"):
                for row in LAYOUT:
                    for key in row:
                        yield PadKey(key)
            with Horizontal():
                yield PadKey("team1", classes="wide")
                yield PadKey("team2", classes="wide")
            yield Button(ROLL_LABEL, id="roll")
            yield Static(id="status", markup=False)
        yield Static(LEGEND, id="legend", markup=False)

    async def on_mount(self) -> None:
        self.box = await self.service.start()
        self.web = start_web(self.service.config, self.config_file)
        self.panels = {p.panel_name: p for p in self.query(Panel)}
        self.panels["main"].border_title = "public"
        self.panels["team1"].border_title = "team 1"
        self.panels["team2"].border_title = "team 2"
        self.status = self.query_one("#status", Static)
        self.fit_view()
        self.set_interval(1 / 20, self.refresh_panels)
        self.refresh_panels()

    def on_unmount(self) -> None:
        if self.web is not None:
            self.web.terminate()
            try:
                self.web.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.web.kill()
        self.service.stop()

    # --- drawing ---------------------------------------------------------

    def refresh_panels(self) -> None:
        box = self.box
        if box is None or box.closed:
            return
        for name, widget in self.panels.items():
            if self.show_text:
                content = box.shown[name].text if name in box.shown else ""
            else:
                image = box.devices.panels[name].image
                content = half_blocks(image) if name == "main" else braille(image)
            if content != widget._last:
                widget._last = content
                widget.update(content)
        played = box.devices.buzzer.played if box.devices.buzzer else []
        recent = played and box.clock.monotonic() - played[-1][0] < SOUND_SHOWN
        sounds = played[-1][1] if recent else "-"
        module = box.devices.dice_module
        dice = getattr(module, "display", "") if module is not None else box.devices.dice.status
        status = f"buzzer: {sounds}\ndice module: {dice}\ndice: {box.devices.dice.status}"
        held = [f"{LABELS[key].split(' (')[0]} held: {HOLDS[key]} lets go" for key in HOLDS if key in self.held]
        if held:
            status = "\n".join((*held, status))
        if self.too_small:
            status = f"{self.too_small}\n{status}"
        if self.quitting:
            status = f"{QUIT_ASKED}\n{status}"
        if status != self._status:
            self._status = status
            self.status.update(status)

    async def action_quit(self) -> None:
        """ctrl+q: over a game under way it asks first, on the status line;
        a second ctrl+q quits, any other key stays."""
        if self.quitting or not under_way(self.box):
            self.exit()
            return
        self.quitting = True
        self.refresh_panels()

    def action_text(self) -> None:
        self.chosen = True
        self.show_text = not self.show_text
        self.fit_view()

    def on_resize(self, event) -> None:
        self.fit_view(event.size)   # the app's own size follows after this handler

    def fit_view(self, size=None) -> None:
        """The pixel view where the terminal holds it whole; else the text
        view, and a word on why (t still shows the pixels, cut)."""
        width, height = size or self.size
        small = width < PIXELS_FIT[0] or height < PIXELS_FIT[1]
        if small and not self.chosen:
            self.show_text = True
        self.too_small = (f"Terminal {width}×{height}: the pixels need {PIXELS_FIT[0]}×{PIXELS_FIT[1]}, "
                          "so the screens are shown as text." if small and self.show_text else
                          f"Terminal {width}×{height} cuts the pixels (they need {PIXELS_FIT[0]}×"
                          f"{PIXELS_FIT[1]}): {unseen(width, height)} not shown; t shows text." if small else "")
        # The pixels asked for in a narrow terminal: the pad takes what is
        # left beside them, not its usual width, so no key is cut.
        self.query_one("#side").set_class(width < PIXELS_FIT[0] and not self.show_text, "narrow")
        if self.box is not None:
            self.refresh_panels()

    # --- keys --------------------------------------------------------------

    @property
    def started(self) -> Box:
        """The box: keys and clicks come once the app is mounted, and it with it."""
        if self.box is None:
            raise RuntimeError("the simulator's box is not started yet")
        return self.box

    def set_key(self, key: str, down: bool) -> None:
        (self.down.add if down else self.down.discard)(key)
        pins = self.started.devices.pins
        assert isinstance(pins, SimulatedPins)   # ``simulated`` makes the keypad simulated
        pins.set(key, down)

    def tap(self, key: str, seconds: float = PRESS) -> None:
        """A typed key.  A terminal hands over keys typed quickly all at
        once; fingers press one after the other, and so does this queue:
        each key goes down once the one typed before it is up again."""
        self.typed.append((key, seconds))
        if len(self.typed) == 1:
            self._type_next()

    def _type_next(self) -> None:
        while self.typed and self.typed[0][0] in self.down:
            self.typed.popleft()        # held down already (Q/W): nothing to press
        if self.typed:
            key, seconds = self.typed[0]
            self.set_key(key, True)
            self.started.clock.call_later(seconds, self._type_up)

    def _type_up(self) -> None:
        key, _ = self.typed.popleft()
        self.set_key(key, False)
        if self.typed:
            self.started.clock.call_later(GAP, self._type_next)

    def toggle(self, key: str) -> None:
        (self.held.discard if key in self.held else self.held.add)(key)
        self.set_key(key, key in self.held)
        self.refresh_panels()

    def on_key(self, event) -> None:
        if self.quitting and event.key != "ctrl+q":
            self.quitting = False   # the question is answered: the game stays
            self.refresh_panels()
        # Either case: the screens print "D:", and caps lock is no mistake.
        ch = (event.character or "").lower()
        if not ch:
            return
        if ch.isdigit() or ch in "*#":
            self.tap(ch)
        elif ch in "abcd":
            self.tap(ch.upper())
        elif ch == "q":
            self.tap("team1")
        elif ch == "w":
            self.tap("team2")
        elif ch == "z":
            self.toggle("team1")
        elif ch == "x":
            self.toggle("team2")
        elif ch == "u":
            self.tap("*", UNDO_HOLD)
        elif ch == "r":
            self.roll_button()
        elif ch == "t":
            self.action_text()
        else:
            return
        event.stop()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "roll":
            self.roll_button()

    def roll_button(self) -> None:
        module = self.started.devices.dice_module
        if isinstance(module, SimulatedDiceModule):    # a real module has its own button
            module.press_button()


def simulated(config: Config, database: str | None = None) -> Config:
    """The configuration with the pad, buzzer and panels simulated (a dice
    module on the laptop's USB may stay real), and its own database."""
    from msgspec.structs import replace
    displays = replace(config.displays, **{n: replace(getattr(config.displays, n), driver="sim")
                                           for n in ("main", "team1", "team2")})
    if database is None:
        database = config.database or os.path.join(os.path.dirname(config.database_path), "sim.db")
    return replace(config, database=database, displays=displays,
                   keypad=replace(config.keypad, driver="sim"), buzzer=replace(config.buzzer, driver="sim"))


def start_web(config: Config, config_file: str | None) -> subprocess.Popen:
    """``referee web`` beside the simulated box, on its database."""
    database = config.database_path
    command = [sys.executable, "-m", "referee.cli", "web", "--database", database]
    if config_file:
        command += ["--config", config_file]
    with open(os.path.join(os.path.dirname(os.path.abspath(database)), "sim-web.log"), "ab") as log:
        return subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=log, stderr=log)


def taken(config: Config) -> str:
    """Why the phones' page could not listen where ``[web]`` says, or "":
    a second simulator there would serve the first one's score log to
    every phone that scans its code, and its own page would say nothing."""
    web = config.web
    try:
        with socket.create_server((web.host, web.port)):
            return ""
    except OSError as exc:
        return (f"referee sim: {web.host}:{web.port} is taken ({exc.strerror}): another simulator or "
                "`referee web` serves phones there. Stop it, or give this one another port "
                "(`[web] port` in a file passed with --config).")


def run_sim(config: Config, database: str | None, config_file: str | None = None) -> int:
    why = taken(config)
    if why:
        print(why, file=sys.stderr)
        return 1
    RefereeSim(simulated(config, database), config_file=config_file).run()
    return 0
