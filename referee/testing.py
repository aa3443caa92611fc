"""The virtual table: the whole box on simulated devices, for tests,
benchmarks and anyone extending the referee.

It runs the service's own loop, games, screens, store and drivers: keys are
pressed on gpiozero mock pins wired as a matrix, pictures are read back from
simulated SSD1306 controllers behind luma.oled, dice come from the simulated
module over a pty.  Time is a manual clock: ``advance`` lets it pass, and
every timer fires at its exact moment.  The database is a temporary file that
``restart`` keeps, as a power cut would.

    with Table(seed=7, lang="en") as t:
        t.press("1")
        t.screen("main")

The API (stable): ``press``, ``type``, ``hold``, ``advance``, ``screen``,
``page`` (a screen beneath its passing message), ``image``, ``dice.next``, ``dice.roll_button``, ``sounds``, ``log``,
``start``, ``restart``; beyond it: ``down``/``up`` (one edge of a key),
``display_fault`` (a panel stops answering), ``card_fault`` (the card
refuses writes: full or read-only), ``box`` (the service itself),
and the web app: ``web_url``, ``get``, ``post`` (it starts listening on a
free loopback port when first asked, and serves while the loop runs).

The web app is the web process's own (``referee web``): it reads the table's
database on a read-only connection of its own and reaches the box through
``referee.channel``'s socket, as on the Pi; here both ends turn in the
table's loop.
"""
from __future__ import annotations

import asyncio
import dataclasses
import os
import random
import tempfile
import warnings
from typing import TYPE_CHECKING

from referee import channel
from referee.box import channel_end
from referee.box.coordinator import Box
from referee.clock import ManualClock
from referee.config import parse
from referee.store import scorelog

if TYPE_CHECKING:     # the web is loaded when a test first asks for a page
    import aiohttp

    from referee import web
    from referee.web.reader import Reader

PRESS_SECONDS = 0.05


class _Dice:
    def __init__(self, table: Table) -> None:
        self._t = table

    @property
    def _module(self):
        return self._t.box.devices.dice_module

    def next(self, *values: int) -> None:
        """The faces the dice module's next roll shows."""
        self._module.next(*values)

    def roll_button(self) -> None:
        """Someone presses the ROLL button on the dice module."""
        host = self._t.box.devices.dice
        before = self._t.box.roll_count, host.dropped
        # The host may have just armed other dice; a real hand is slower
        # than the serial line, so let the module hear it first.
        self._t._wait(lambda: self._module.armed == tuple(host.armed))
        self._module.press_button()
        # Taken, or dropped as faster than a hand (hal.dice_serial.BUTTON_RATE).
        self._t._wait(lambda: (self._t.box.roll_count, host.dropped) != before)

    def unplug(self) -> None:
        self._module.unplug()

    def plug_in(self) -> None:
        self._module.plug_in()


class Table:
    def __init__(self, seed: int = 0, lang: str = "en", config: dict | None = None) -> None:
        warnings.filterwarnings("ignore", "Image.Image.getdata is deprecated", DeprecationWarning)
        self._tmp = tempfile.TemporaryDirectory(prefix="referee-table-")
        self.database = os.path.join(self._tmp.name, "referee.db")
        # Teach starts off, as on a box whose owner turned it off: a test of
        # play says when it is taught (``start(teach=True)``, or the setup's option).
        self._config = {"lang": lang, "database": self.database, "teach": False, **(config or {})}
        self._seed = seed
        self._boots = 0
        self.loop = asyncio.new_event_loop()
        self.clock = ManualClock()
        self._web: web.Server | None = None
        self._reader: Reader | None = None
        self._channel: channel_end.BoxChannel | None = None
        self._web_port = 0
        self._http: aiohttp.ClientSession | None = None
        self._boot()
        self.dice = _Dice(self)

    def _boot(self) -> None:
        self.clock.settle = self._settle
        rng = random.Random(f"{self._seed}/{self._boots}")
        self._boots += 1
        self.box = Box(parse(self._config), self.clock, self.loop, rng=rng)
        self.box.start()
        self._channel = self.loop.run_until_complete(
            channel_end.serve_box(self.box, channel.socket_path(self.database)))
        if self.box.devices.dice_module is not None:
            # The module greets the host over its pty; rolls before that
            # would come from software.
            self._wait(lambda: self.box.devices.dice.status == "online")
        self.clock.advance(0)  # what the start scheduled for "now" happens now

    def _settle(self) -> None:
        # Most moments of the manual clock (a keypad scan while a key is
        # held) queue nothing on the loop: running it to idle then costs
        # more than all the box's work, four turns of it at every scan.
        if not self.loop._ready and not self.box.busy():   # type: ignore[attr-defined]
            return
        self.loop.run_until_complete(self.box.idle())

    def _wait(self, done, seconds: float = 5.0) -> None:
        """Run the loop until ``done()`` (work on other threads: the dice)."""
        async def until():
            for _ in range(int(seconds / 0.005)):
                if done():
                    return
                await asyncio.sleep(0.005)
            raise TimeoutError("the box did not answer in time")
        self.loop.run_until_complete(until())
        self._settle()

    # --- keys -------------------------------------------------------------

    def down(self, key: str) -> None:
        self.box.devices.pins.set(key, True)
        self._settle()

    def up(self, key: str) -> None:
        """Let go of a key, and let time run until the box has taken it (a
        key with no hold meaning on the page acted on the way down)."""
        keys = self.box.devices.keys
        self.box.devices.pins.set(key, False)
        self._settle()
        self._run_until(lambda: keys.taken(key))

    def press(self, key: str) -> None:
        self.hold(key, PRESS_SECONDS)

    def type(self, keys: str) -> None:
        for key in keys:
            self.press(key)

    def hold(self, key: str, seconds: float) -> None:
        self.down(key)
        self.advance(seconds)
        self.up(key)

    def _run_until(self, done, limit: float = 1.0) -> None:
        end = self.clock.monotonic() + limit
        while not done():
            due = self.clock.next_due()
            if due is None or due > end:
                raise AssertionError("the box never took the key")
            self.clock.advance(due - self.clock.monotonic())

    # --- time -------------------------------------------------------------

    def advance(self, seconds: float) -> None:
        self.clock.advance(seconds)

    # --- what players see and hear ---------------------------------------

    def screen(self, name: str = "main") -> str:
        """The text on a display: what its panel draws, row for row (a
        passing message as one row marked "! ")."""
        return self.box.shown[name].text

    def page(self, name: str = "main") -> str:
        """The screen as it is beneath a passing message: the rows the
        message covers, as they come back once it goes."""
        return dataclasses.replace(self.box.shown[name], flash="").text

    def image(self, name: str = "main"):
        """The picture on a panel, read back from its controller."""
        return self.box.devices.panels[name].image

    @property
    def sounds(self) -> list[str]:
        return [name for _, name in self.box.devices.buzzer.played]

    def log(self) -> list[dict]:
        """Tonight's score log as the phones get it (``/api/evening``)."""
        return [scorelog.as_json(entry) for entry in scorelog.evening(self.box.store, self.box.labels.now())]

    def display_fault(self, name: str, failing: bool) -> None:
        """Make a panel stop answering (or answer again), as an unplugged
        cable or a brown-out would."""
        self.box.devices.panels[name].fail = failing
        self._settle()

    def card_fault(self, fault: str | None) -> None:
        """Make the card refuse writes as SQLite reports a real one, or take
        them again (None): ``"full"``, the database may grow no more
        (``max_page_count``: writes that fit in its pages still go in, as on
        a full card whose journal has room left, then SQLITE_FULL);
        ``"read-only"``, SQLITE_READONLY on every write.  On the box's own
        connection to the store, so a ``restart`` ends the fault."""
        db = self.box.store._db
        pages = db.execute("PRAGMA page_count").fetchone()[0]
        db.execute(f"PRAGMA max_page_count = {pages if fault == 'full' else 1 << 30}")
        db.execute(f"PRAGMA query_only = {'ON' if fault == 'read-only' else 'OFF'}")

    # --- the web app --------------------------------------------------------

    def web_url(self) -> str:
        """The score log's address on this machine, e.g. "http://127.0.0.1:41234/"."""
        if self._web is None:
            from referee import web
            from referee.web.reader import Reader
            self._reader = Reader(self.database, self.clock, self.box.config.lang)
            client = channel.Client(channel.socket_path(self.database))
            self._web = self.loop.run_until_complete(web.serve(self._reader, client, "127.0.0.1", self._web_port,
                                                                 self.box.config.ladder))
            self._web_port = self._web.port  # the same one after a restart
        return self._web.url

    def get(self, path: str, headers: dict | None = None) -> tuple[int, dict, str]:
        """A GET as a phone would send it: (status, headers, text).  Bodies
        come back decompressed; redirects are not followed; no cookies are
        kept between requests."""
        return self._request("GET", path, None, headers)

    def post(self, path: str, data: dict, headers: dict | None = None) -> tuple[int, dict, str]:
        """A form POST, like ``get``."""
        return self._request("POST", path, data, headers)

    def _request(self, method: str, path: str, data, headers) -> tuple[int, dict, str]:
        url = self.web_url() + path.lstrip("/")

        async def ask():
            import aiohttp
            if self._http is None:
                self._http = aiohttp.ClientSession(cookie_jar=aiohttp.DummyCookieJar(),
                                                   timeout=aiohttp.ClientTimeout(total=10))
            async with self._http.request(method, url, data=data, headers=headers, allow_redirects=False) as r:
                return r.status, r.headers, await r.text()

        answer = self.loop.run_until_complete(ask())
        self._settle()
        return answer

    def _stop_web(self) -> None:
        if self._web is not None:
            self.loop.run_until_complete(self._web.stop())
            self._web = None
            self._reader.close()
            self._reader = None

    def _stop_box(self) -> None:
        self.loop.run_until_complete(self._channel.aclose())
        self.box.close()

    # --- the box ------------------------------------------------------------

    def start(self, name: str, teach: bool = False, **options) -> None:
        """Start a game as its setup's ``#`` would (``teach``: its Teach option)."""
        self.box.teacher.next_game(teach)
        self.box.start_game(name, options)
        self._settle()

    def restart(self, meanwhile=None, off: float = 0.0) -> None:
        """A power cut: the service dies where it stands and starts again on
        the same database; time goes on.  ``meanwhile(path)``: what happens
        to the database file while the power is off (a byte flipped on the
        card, say); ``off``: seconds the box stays off (the next evening is
        a day away, with no timer of the box running meanwhile)."""
        serving = self._web is not None
        self._stop_web()
        self._stop_box()
        if meanwhile is not None:
            meanwhile(self.database)
        self.clock = ManualClock(wall=self.clock.wall() + off)
        self._boot()
        if serving:
            self.web_url()

    def close(self) -> None:
        self._stop_web()
        if self._http is not None:
            self.loop.run_until_complete(self._http.close())
        self._stop_box()
        self.loop.close()
        self._tmp.cleanup()

    def __enter__(self) -> Table:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
