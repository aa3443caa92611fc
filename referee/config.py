"""The box's configuration: one TOML file, checked completely at start.

Without a file every device is simulated.  On the Pi the file lives at
``/etc/referee/config.toml``; ``config.example.toml`` lists every key.  A
mistake is said in one line naming the line of the file and the key, e.g.::

    config.toml: line 4: keypad.rows[2]: GPIO 40 does not exist (BCM 2-27)

and every mistake of the file is said at once, a misspelt key with the key
it is closest to, so that a maker fixes the file in one go.  Each key is
read by its own type's decoder and each table built by its own checks
(``check``): the words are this module's, never msgspec's.  ``referee run``
and ``referee web`` start with the values they can read, the refused ones
at their defaults (``load_kept``), and say the mistakes on the screens; a
table TOML cannot read is left out whole (``referee.config_text``), and a
file that cannot be read at all leaves every value at its default.
"""
from __future__ import annotations

import datetime as dt
import difflib
import importlib
import os
import re
import tomllib
import types
import typing
from importlib import resources
from typing import ClassVar, Literal, NamedTuple
from urllib.parse import urlsplit

import msgspec

DEFAULT_PATH = "/etc/referee/config.toml"


def _pinmap() -> dict:
    with resources.files("referee").joinpath("pinmap.toml").open("rb") as f:
        return tomllib.load(f)


# How the box is wired (referee/pinmap.toml): the source of every default pin,
# bus and address below, of the build guide's table and of the wiring diagram.
# The devices' facts the configuration checks are here, not in hal/, whose
# drivers are given them: every process reads a configuration, the web's
# too, and none but the box's needs a device.
PINMAP = _pinmap()
# Hz: 400 either side of the buzzer's rated 2400 (hardware/BOM.md), the
# spread 12 mm magnetic buzzers' datasheets give for their resonance
# (2300 +- 300 to 2400 +- 400); every sound is played inside it.
BUZZER_BAND = (2000, 2800)
# The buzzer's driver asks gpiozero's TonalBuzzer for this many octaves
# either side of the band's middle tone: the widest band it can play.
BUZZER_OCTAVES = 1
# Where the dice module is looked for: any Pico running MicroPython, by
# its /dev/serial/by-id name.
DICE_PORT = "/dev/serial/by-id/usb-MicroPython_Board_in_FS_mode_*-if00"
_SPI = PINMAP["spi"]
# The Pi's SPI buses a panel may use, by number: their pins, and the line
# /boot/firmware/config.txt needs for them (n: how many chip selects).
SPI_BUSES = {0: dict(PINMAP["spi"], chip_selects=2), 1: dict(PINMAP["spi1"], chip_selects=3)}


class Problem(NamedTuple):
    """One mistake of a file: the ``key`` at fault (``keypad.rows[2]``),
    what is wrong with it, and the ``line`` of the file that sets it (None:
    the key is not in the file, or no file was read)."""
    key: str
    text: str
    line: int | None = None
    other: str = ""   # the key it clashes with: its line, where the file sets only that one

    def __str__(self) -> str:
        said = f"{self.key}: {self.text}" if self.key else self.text
        return f"line {self.line}: {said}" if self.line else said


class ConfigError(Exception):
    """What is wrong with a configuration; ``problems`` one by one, when
    it was read at all."""

    def __init__(self, message: str, problems: tuple[Problem, ...] = ()) -> None:
        super().__init__(message)
        self.problems = problems
        self.path = ""   # the file, when one was read


class Refused(ValueError):
    """A value this module's checks refuse: ``key``, from the table that
    checks it, and why; ``other``: the key it clashes with, if any."""

    def __init__(self, key: str, text: str, other: str = "") -> None:
        super().__init__(f"{key}: {text}")
        self.key, self.text, self.other = key, text, other


def _bad(key: str, message: str, other: str = "") -> Refused:
    return Refused(key, message, other)


def _gpio(pin: int, key: str) -> None:
    if not 2 <= pin <= 27:
        raise _bad(key, f"GPIO {pin} does not exist (BCM 2-27)")


def check_band(band) -> str | None:
    """What is wrong with a buzzer's band, or None."""
    low, high = band
    if not 100 <= low < high <= 10000:
        return f"needs a low and a high frequency in Hz, low < high, within 100-10000, not {list(band)}"
    if high > low * 4 ** BUZZER_OCTAVES:
        return f"{low}-{high} Hz is wider than {2 * BUZZER_OCTAVES} octaves, which the buzzer's TonalBuzzer cannot span"
    return None


class Base(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    pass


class Keypad(Base):
    driver: Literal["sim", "gpio"] = "sim"
    rows: tuple[int, ...] = tuple(PINMAP["keypad"]["rows"])
    cols: tuple[int, ...] = tuple(PINMAP["keypad"]["cols"])
    team1: int = PINMAP["buttons"]["team1"]
    team2: int = PINMAP["buttons"]["team2"]

    def __post_init__(self):
        for name in ("rows", "cols"):
            pins = getattr(self, name)
            if len(pins) != 4:
                raise _bad(name, f"needs 4 pins, got {len(pins)}")
            for i, pin in enumerate(pins):
                _gpio(pin, f"{name}[{i}]")
        _gpio(self.team1, "team1")
        _gpio(self.team2, "team2")


class Buzzer(Base):
    driver: Literal["sim", "gpio", "none"] = "sim"
    pin: int = PINMAP["buzzer"]["pin"]
    # Hz: where the buzzer is loud, from its datasheet (resonance +- tolerance).
    band: tuple[int, int] = BUZZER_BAND

    def __post_init__(self):
        _gpio(self.pin, "pin")
        problem = check_band(self.band)
        if problem:
            raise _bad("band", problem)


class Display(Base):
    driver: Literal["sim", "i2c", "spi", "none"] = "sim"
    # No SSD1309: hardware/BOM.md says why; luma knows it, but nothing here
    # has been tried on one.
    controller: Literal["ssd1306", "sh1106"] = "ssd1306"
    bus: int | None = None  # I2C: /dev/i2c-<bus>, the wiring's; SPI: /dev/spidev<bus>.<device>, SPI0
    address: int = 0x3C   # I2C address
    device: int = 0       # SPI chip select
    dc: int = _SPI["dc"]  # SPI data/command pin
    reset: int = _SPI["reset"]  # SPI reset pin
    # Quarter turns: 0 or 2 (upside down).  1 and 3 would stand the panel on
    # its side, and the screens are drawn 128 wide.
    rotate: Literal[0, 2] = 0
    contrast: int = 0xCF
    WIRED_BUS: ClassVar[int] = 1  # the I2C bus the build guide wires this panel to

    def __post_init__(self):
        if self.bus is None:
            # SPI0 is the SPI bus the wiring keeps free; an I2C panel is where
            # the build guide puts it.
            self.bus = 0 if self.driver == "spi" else self.WIRED_BUS
        if not 0x03 <= self.address <= 0x77:
            raise _bad("address", f"I2C address {self.address:#04x} is outside 0x03-0x77")
        if not 0 <= self.contrast <= 255:
            raise _bad("contrast", "runs from 0 to 255")
        if self.driver == "spi":
            if self.bus not in SPI_BUSES:
                raise _bad("bus", f"SPI bus {self.bus} is not one the box can use (0: SPI0, 1: SPI1)")
            selects = SPI_BUSES[self.bus]["chip_selects"]
            if not 0 <= self.device < selects:
                raise _bad("device", f"SPI{self.bus} has chip selects 0-{selects - 1}, not {self.device}")


def _wired(name: str) -> type[Display]:
    # One panel's own Display type, its bus and address defaulting to the
    # wiring, so that a table naming only the driver still finds the panel.
    wiring = PINMAP["displays"][name]
    return msgspec.defstruct(f"{name.title()}Display", [("address", int, wiring["address"])],
                             bases=(Display,), namespace={"WIRED_BUS": wiring["bus"]})


MainDisplay, Team1Display, Team2Display = _wired("main"), _wired("team1"), _wired("team2")


# The panels by name, in the order the box draws them and the doctor checks them.
DISPLAYS = ("main", "team1", "team2")


class Displays(Base):
    main: MainDisplay = msgspec.field(default_factory=MainDisplay)
    team1: Team1Display = msgspec.field(default_factory=Team1Display)
    team2: Team2Display = msgspec.field(default_factory=Team2Display)


class Dice(Base):
    driver: Literal["sim", "serial", "software"] = "sim"
    port: str = DICE_PORT


class Web(Base):
    host: str = "127.0.0.1"
    port: int = 8080
    public_url: str = ""   # what the QR codes point at; empty: this box's LAN address

    def __post_init__(self):
        if not 1 <= self.port <= 65535:
            raise _bad("port", f"{self.port} is outside 1-65535")
        if self.port < 1024:
            # systemd/referee-web.service runs unprivileged, without
            # CAP_NET_BIND_SERVICE: it would fail at every start.
            raise _bad("port", f"{self.port} needs root, which the service does not have: "
                               "choose 1024-65535, e.g. 8080")
        if self.public_url:
            problem = _phone_url(self.public_url)
            if problem:
                raise _bad("public_url", problem)


def _phone_url(url: str) -> str:
    """Why a phone could not open ``url`` from a QR code; "" if it can."""
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018  (a bad port raises here)
    except ValueError:
        return f"{url!r} is not an address"
    if parts.scheme.lower() not in ("http", "https"):
        # "referee.local:8080" reads as the scheme "referee.local": a phone
        # offers to search the web for it.
        return f'{url!r} does not start with http:// or https://, so phones cannot open it; e.g. "http://{url}"' \
            if "://" not in url else f"{url!r} does not start with http:// or https://, so phones cannot open it"
    if not parts.hostname:
        return f"{url!r} names no host"
    return ""


class Sim(Base):
    # A Unix socket on which another process may press the simulated keys
    # and read the screens (referee.box.sim_control); empty: none.  Only ever served
    # while the keypad is simulated.
    control: str = ""


# A club's or a table's name: one level of an MQTT topic, no wildcards.
TOPIC_NAME = r"^[A-Za-z0-9_-]{1,32}$"


class Club(Base):
    # A club night (referee.club): the box's public score log goes to an MQTT
    # broker, where ``referee league`` reads every table.  Empty: nothing is sent.
    broker: str = ""       # mqtt://host:1883, or mqtts://host:8883 for TLS
    name: str = "club"     # the club's topic, shared by every box and the league
    table: str = ""        # this box's name among the club's tables (``referee club`` needs it)
    username: str = ""
    password: str = ""
    ca: str = ""           # with mqtts://: a CA file to trust (empty: the system's)
    league_url: str = ""   # the league's page, offered as a QR code beside the score log

    def __post_init__(self):
        if self.broker:
            try:
                url = urlsplit(self.broker)
                url.port  # noqa: B018  (a bad port raises here)
            except ValueError:
                url = None
            if url is None or url.scheme not in ("mqtt", "mqtts") or not url.hostname or url.path.strip("/"):
                raise _bad("broker", f"{self.broker!r} is not mqtt://host[:port] or mqtts://host[:port]")
        for key in ("name", "table"):
            value = getattr(self, key)
            if value and not re.fullmatch(TOPIC_NAME, value):
                raise _bad(key, f"{value!r}: use 1-32 letters, digits, - or _")
        if self.ca and not os.path.isfile(self.ca):
            raise _bad("ca", f"{self.ca}: no such file")

    def address(self) -> tuple[str, int, bool]:
        """(host, port, tls) of the broker."""
        url = urlsplit(self.broker)
        tls = url.scheme == "mqtts"
        return url.hostname, url.port or (8883 if tls else 1883), tls


class Season(Base):
    # One of the club's own seasons: its ladder counts the games of the
    # evenings from ``start`` to ``end``, both included.
    name: str
    start: dt.date
    end: dt.date

    def __post_init__(self):
        if not self.name.strip() or len(self.name) > 40:
            raise _bad("name", f"{self.name!r}: give the season a name of 1-40 characters")
        if self.end < self.start:
            raise _bad("end", f"{self.end} is before the season's start, {self.start}")
        for key in ("start", "end"):
            day = getattr(self, key)
            if not 2000 <= day.year <= 9000:
                raise _bad(key, f"{day}: a season is in the years 2000-9000")


SEASONS_MOST = 500


class Ladder(Base):
    # The players' ladders (README, "Ladders"): a rating is provisional,
    # and listed apart, until its player has played ``provisional_games``
    # games of it (since their last whole season away) and its sigma is at
    # most ``provisional_sigma``.  No seasons: a season is a calendar month.
    provisional_games: int = 5
    # Plackett-Luce shrinks sigma slowly, a winner's slowest: from 8.33 a
    # player winning every four-player game is at 7.96 after five, so a
    # lower default would keep the best players provisional.
    provisional_sigma: float = 8.0
    seasons: tuple[Season, ...] = ()

    def __post_init__(self):
        if not 1 <= self.provisional_games <= 100:
            raise _bad("provisional_games", f"{self.provisional_games} is outside 1-100")
        # A newcomer's sigma is 25/3 (8.33); one far under the sigma years of
        # games reach (about 2) would keep everyone provisional for good.
        if not 2.0 <= self.provisional_sigma <= 25.0:
            raise _bad("provisional_sigma", f"{self.provisional_sigma:g} is outside 2-25 (a newcomer's is 8.33)")
        if len(self.seasons) > SEASONS_MOST:
            raise _bad("seasons", f"{len(self.seasons)} seasons: at most {SEASONS_MOST}")
        names: dict[str, int] = {}
        ordered = sorted(enumerate(self.seasons), key=lambda s: s[1].start)
        for (i, earlier), (j, later) in zip(ordered, ordered[1:]):
            if later.start <= earlier.end:
                raise _bad(f"seasons[{max(i, j)}]", f"{later.name!r} ({later.start} to {later.end}) overlaps "
                                                    f"{earlier.name!r} ({earlier.start} to {earlier.end})")
        for i, season in enumerate(self.seasons):
            if season.name.casefold() in names:
                raise _bad(f"seasons[{i}].name", f"{season.name!r} is already seasons[{names[season.name.casefold()]}]'s name")
            names[season.name.casefold()] = i


class Config(Base):
    lang: Literal["en", "cs", "pl", "ru"] = "en"
    # A setup's Teach option starts on for a game the box has never finished
    # (``referee.box.flows.teacher``); false: it starts off until the table turns it on.
    teach: bool = True
    database: str = ""     # empty: the user's data folder, or /var/lib/referee as a service
    keypad: Keypad = msgspec.field(default_factory=Keypad)
    buzzer: Buzzer = msgspec.field(default_factory=Buzzer)
    displays: Displays = msgspec.field(default_factory=Displays)
    dice: Dice = msgspec.field(default_factory=Dice)
    web: Web = msgspec.field(default_factory=Web)
    sim: Sim = msgspec.field(default_factory=Sim)
    club: Club = msgspec.field(default_factory=Club)
    ladder: Ladder = msgspec.field(default_factory=Ladder)
    # Each game's own section ("[<game>]"), by the game's name, as its
    # module reads it (``check``, ``referee.sections``): ``game(name)``.
    games: dict[str, typing.Any] = msgspec.field(default_factory=lambda: {
        name: module.Section() for name, module in sections().items()})
    BUILT: ClassVar[frozenset[str]] = frozenset({"games"})   # keys ``check`` builds, never the file's

    def game(self, name: str) -> typing.Any:
        """The game's own section, as the file gives it or at its defaults."""
        found = self.games.get(name)
        return found if found is not None else sections()[name].Section()

    def tables(self) -> dict:
        """The configuration as a file's tables hold it, which ``parse``
        reads back: each game's section at the top, beside the house's, and
        lists where the types hold tuples (a file's arrays)."""
        raw = _as_file(msgspec.to_builtins(self))
        return {**{key: value for key, value in raw.items() if key not in self.BUILT}, **raw["games"]}

    def __post_init__(self):
        # Two devices on one pin fail in ways nothing explains later, so it is
        # said here.  Displays on one bus share its pins; everything else owns
        # its pin alone.
        used: dict[int, tuple[str, str]] = {}
        for owner, key, pin in self._pins():
            if used.get(pin, (owner,))[0] != owner:
                raise _bad(key, f"GPIO {pin} is already used by {used[pin][0]}", other=used[pin][1])
            used[pin] = owner, key
        panels: dict[tuple, str] = {}
        for name in DISPLAYS:
            d = getattr(self.displays, name)
            if d.driver == "i2c":
                other = panels.setdefault(("i2c", d.bus, d.address), name)
                if other != name:
                    raise _bad(f"displays.{name}.address",
                               f"{d.address:#04x} on I2C bus {d.bus} is already displays.{other}'s address",
                               other=f"displays.{other}.address")
            elif d.driver == "spi":
                other = panels.setdefault(("spi", d.bus, d.device), name)
                if other != name:
                    raise _bad(f"displays.{name}.device",
                               f"chip select {d.device} of SPI{d.bus} is already displays.{other}'s",
                               other=f"displays.{other}.device")

    def _pins(self):
        """(owner, key, BCM pin) for every pin the configuration uses."""
        for name in DISPLAYS:
            d = getattr(self.displays, name)
            bus = PINMAP["i2c"].get(str(d.bus))
            if d.driver == "i2c" and bus is not None:
                for line in ("sda", "scl"):
                    yield f"I2C bus {d.bus}", f"displays.{name}.bus", bus[line]
            elif d.driver == "spi":
                wiring = SPI_BUSES.get(d.bus, {})
                for line in ("mosi", "miso", "sclk", f"ce{d.device}"):
                    if line in wiring:
                        yield f"SPI{d.bus}", f"displays.{name}.bus", wiring[line]
                yield "the SPI panels' data/command line", f"displays.{name}.dc", d.dc
                yield "the SPI panels' reset line", f"displays.{name}.reset", d.reset
        kp = self.keypad
        for name in ("rows", "cols"):
            for i, pin in enumerate(getattr(kp, name)):
                yield f"keypad.{name}[{i}]", f"keypad.{name}[{i}]", pin
        yield "keypad.team1", "keypad.team1", kp.team1
        yield "keypad.team2", "keypad.team2", kp.team2
        if self.buzzer.driver != "none":
            yield "buzzer.pin", "buzzer.pin", self.buzzer.pin

    @property
    def database_path(self) -> str:
        if self.database:
            return self.database
        state = os.environ.get("STATE_DIRECTORY")  # set by systemd's StateDirectory=
        if state:
            return os.path.join(state.split(":")[0], "referee.db")
        data = os.environ.get("XDG_DATA_HOME", os.path.expanduser("~/.local/share"))
        return os.path.join(data, "tabletop-referee", "referee.db")


def _as_file(value):
    """Builtins as a file's tables hold them: tuples as arrays."""
    if isinstance(value, dict):
        return {k: _as_file(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_as_file(v) for v in value]
    return value


MOST_BYTES = 1 << 20    # a configuration is a few hundred bytes; letter tables are files of their own


def load(path: str | None) -> Config:
    """The configuration in ``path`` (None: all defaults); ``ConfigError``
    names every mistake, one line each, with the line of the file."""
    config, error = load_kept(path)
    if error is not None:
        raise error
    return config


def load_kept(path: str | None) -> tuple[Config, ConfigError | None]:
    """What a box starts with: the configuration in ``path`` with every
    value it refuses left at its default, and what it refused (None:
    nothing).  A table with a line that is not TOML is left out whole
    (``referee.config_text``), and a file that cannot be read at all
    leaves every value at its default: the box starts either way, and
    says why on its screens."""
    if path is None:
        return Config(), None
    from referee.config_text import readable
    from referee.files import Unfit, read_small
    name = os.path.basename(path)
    try:
        data = read_small(path, MOST_BYTES)[0]
    except FileNotFoundError:
        return Config(), _unread(path, "no such file")
    except Unfit as exc:   # a FIFO would hold the start for good, /dev/zero fill the memory
        return Config(), _unread(path, str(exc))
    except OSError as exc:
        return Config(), _unread(path, f"cannot be read: {exc.strerror}")
    raw, text, unread = readable(data)
    _beside(raw, os.path.dirname(os.path.abspath(path)))
    config, problems = check(raw)
    lines = _lines(text)
    problems = [Problem(u.table, f"{u.text}; {_left(u.table)}", u.line) for u in unread] + \
        [p._replace(line=_line_of(p.key, lines) or _line_of(p.other, lines)) for p in problems]
    error = _error(problems, name)
    if error is not None:
        error.path = os.path.abspath(path)
    return config, error


def _left(table: str) -> str:
    return f"[{table}] is left at its defaults" if table else "the keys above the first table are left at their defaults"


def _unread(path: str, why: str) -> ConfigError:
    """A file of which nothing can be read: every value at its default."""
    error = ConfigError(f"{path}: {why}", (Problem("", why),))
    error.path = os.path.abspath(path)
    return error


def _beside(raw: dict, folder: str) -> None:
    """Paths of games' sections relative to the configuration file's
    folder, as its owner reads them, whatever folder the box starts in
    (a section module's ``beside``)."""
    for name, module in sections().items():
        if isinstance(raw.get(name), dict) and hasattr(module, "beside"):
            module.beside(raw[name], folder)


def sections() -> dict[str, types.ModuleType]:
    """The modules of games' own sections of the file, by the game's name
    (the catalogue's ``section``), loaded when first asked for."""
    from referee import catalogue
    return {game.name: importlib.import_module(game.section) for game in catalogue.GAMES.values() if game.section}


def parse(raw: dict, name: str = "config.toml") -> Config:
    """The configuration in ``raw``; ``ConfigError`` names every mistake,
    one line each."""
    config, problems = check(raw)
    error = _error(problems, name)
    if error is not None:
        raise error
    return config


def _error(problems: list[Problem], name: str) -> ConfigError | None:
    if not problems:
        return None
    return ConfigError("\n".join(f"{name}: {p}" for p in problems), tuple(problems))


def check(raw: dict) -> tuple[Config, list[Problem]]:
    """The configuration ``raw`` holds, every value it refuses at its
    default, and every mistake.

    Each key is read by a decoder of its own type and each table built by
    its own checks, so that every mistake is found, not the first, and
    each is said in this module's words whatever words msgspec uses."""
    games = sections()
    problems, config = _table(raw, Config, "", elsewhere=tuple(games))
    for name, module in games.items():
        if isinstance(raw, dict) and name in raw:
            found, section = _read(raw[name], module.Section, name)
            problems += found
            if section is not _NOTHING and config is not None:
                config.games[name] = section
    return config, problems


def _table(raw, kind: type, where: str, elsewhere: tuple[str, ...] = ()) -> tuple[list[Problem], typing.Any]:
    """Every mistake in the table ``raw`` of type ``kind`` at ``where``,
    and the ``kind`` built of its sound keys (None: it cannot be built,
    for a key it needs is missing or refused); ``elsewhere``: keys of the
    table read by others (games' sections)."""
    if not isinstance(raw, dict):
        return [Problem(where, f"expected a table, got {_what(raw)}")], _default(kind)
    hints = typing.get_type_hints(kind)
    fields = [f for f in kind.__struct_fields__ if f not in getattr(kind, "BUILT", ())]
    known = [*fields, *elsewhere]
    found: list[Problem] = []
    sound: dict = {}
    for key, value in raw.items():
        at = _join(where, key)
        if key in elsewhere:
            continue
        if key not in fields:
            near = difflib.get_close_matches(key, known, n=1)
            hint = f"; did you mean `{near[0]}`?" if near else f"; the keys here are {', '.join(known)}"
            found.append(Problem(at, f"unknown key{hint}"))
            continue
        wrong, decoded = _read(value, hints[key], at)
        found += wrong
        if decoded is not _NOTHING:
            sound[key] = decoded
    needed = [f.name for f in msgspec.structs.fields(kind) if f.required and f.name not in sound]
    if needed:
        missing = [n for n in needed if n not in raw]
        if missing:
            found.append(Problem(where, f"needs {', '.join(f'`{n}`' for n in missing)}"))
        return found, None
    seen: dict[tuple[str, str], int] = {}
    while True:
        try:
            return found, kind(**sound)
        except Refused as exc:
            times = seen[exc.key, exc.other] = seen.get((exc.key, exc.other), 0) + 1
            if times == 1:
                found.append(Problem(_join(where, exc.key), exc.text, other=_join(where, exc.other) if exc.other else ""))
                if not any(_forget(sound, kind, key) for key in (exc.key, exc.other) if key):
                    return found, _default(kind)
            elif times == 2 and exc.other and _forget(sound, kind, exc.other):
                # The default that stood in for the refused value is refused
                # too (the keypad's own pins under SPI1): the other side of
                # the clash takes its default instead; the mistake is said once.
                continue
            else:
                return found, _default(kind)
        except TypeError:   # a key it needs was refused
            return found, None


def _default(kind: type):
    try:
        return kind()
    except TypeError:   # a table with keys it needs (a season)
        return None


def _forget(sound: dict, kind: type, key: str) -> bool:
    """Take the refused ``key`` (``rows[2]``, ``displays.main.address``)
    out of the table ``sound`` of ``kind``: its default then stands.
    False if it was not there to take out."""
    first = re.split(r"[.\[]", key, maxsplit=1)[0]
    rest = key[len(first):].lstrip(".")
    if first not in sound:
        return False
    inner = sound[first]
    if not rest or rest.startswith("[") or not isinstance(inner, Base):
        del sound[first]
        return True
    values = {f: getattr(inner, f) for f in inner.__struct_fields__}
    if not _forget(values, type(inner), rest):
        return False
    try:
        sound[first] = type(inner)(**values)
    except Refused:
        del sound[first]
    return True


_NOTHING = object()


def _read(value, kind, key: str) -> tuple[list[Problem], typing.Any]:
    """``value`` decoded as ``kind``, and what is wrong with it (then the
    value is ``_NOTHING``, and the key's default stands)."""
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if isinstance(kind, type) and issubclass(kind, Base):
        found, built = _table(value, kind, key)
        return found, _NOTHING if built is None else built
    if origin is Literal:
        if any(type(value) is type(a) and value == a for a in args):
            return [], value
        allowed = ", ".join(_toml(a) for a in args)
        return [Problem(key, f"{_toml(value)} is not one of {allowed}")], _NOTHING
    if origin in (typing.Union, types.UnionType):
        for each in args:
            wrong, decoded = _read(value, each, key)
            if not wrong:
                return [], decoded
        return [Problem(key, f"expected {_kind(kind)}, got {_what(value)}")], _NOTHING
    if origin is tuple:
        if not isinstance(value, list):
            return [Problem(key, f"expected {_kind(kind)}, got {_what(value)}")], _NOTHING
        each = [args[0]] * len(value) if len(args) == 2 and args[1] is Ellipsis else list(args)
        if len(each) != len(value):
            return [Problem(key, f"expected {_kind(kind)}, got {len(value)} values")], _NOTHING
        found, items = [], []
        for i, (item, of) in enumerate(zip(value, each)):
            wrong, decoded = _read(item, of, f"{key}[{i}]")
            found += wrong
            items.append(decoded)
        if found:
            return found, _NOTHING
        return [], tuple(items)
    try:   # a value's own decoder: whether it passes, never its words
        return [], msgspec.convert(value, kind)
    except msgspec.ValidationError:
        return [Problem(key, f"expected {_kind(kind)}, got {_what(value)}")], _NOTHING


def _kind(kind) -> str:
    """What a key of type ``kind`` takes, as a maker reads it."""
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return f"a list of {_kind(args[0])} values"
        return f"a list of {len(args)} {_kind(args[0])} values" if len(set(args)) == 1 else f"a list of {len(args)} values"
    if origin in (typing.Union, types.UnionType):
        return " or ".join(_kind(a) for a in args if a is not type(None))
    return {int: "a whole number", float: "a number", str: "text in quotes", bool: "true or false",
            dt.date: "a date (2026-09-01)"}.get(kind, "a table")


def _what(value) -> str:
    """A TOML value's kind, as a maker reads it."""
    if isinstance(value, bool):
        return f"{str(value).lower()}"
    if isinstance(value, int):
        return f"the whole number {value}"
    if isinstance(value, float):
        return f"the number {value:g}"
    if isinstance(value, str):
        return f"the text {_toml(value)}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, dt.datetime):
        return "a date with a time"
    if isinstance(value, dt.date):
        return "a date"
    return "a time"


def _toml(value) -> str:
    return f'"{value}"' if isinstance(value, str) else str(value).lower() if isinstance(value, bool) else str(value)


def _join(where: str, key: str) -> str:
    return f"{where}.{key}" if where else key


# A table's header, [a.b] or [[a.b]], and a key's line, a = or a.b =; a
# part of either is bare or quoted.
_PART = r"""(?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*')"""
_HEADER = re.compile(rf"\s*(\[\[?)\s*({_PART}(?:\s*\.\s*{_PART})*)\s*\]")
_KEY = re.compile(rf"\s*({_PART}(?:\s*\.\s*{_PART})*)\s*=")


def _parts(dotted: str) -> list[str]:
    return [p.strip("\"'") for p in re.findall(_PART, dotted)]


def _lines(text: str) -> dict[str, int]:
    """The line of the file that sets each key, its table's header for a
    table: ``keypad.rows``, ``ladder.seasons[1].name``."""
    at: dict[str, int] = {}
    table: list[str] = []
    arrays: dict[str, int] = {}
    quoted = False   # inside a string of many lines
    for number, line in enumerate(text.splitlines(), 1):
        if not quoted and (header := _HEADER.match(line)):
            parts = _parts(header[2])
            if header[1] == "[[":
                name = ".".join(parts)
                arrays[name] = arrays.get(name, -1) + 1
                parts[-1] = f"{parts[-1]}[{arrays[name]}]"
            table = parts
            for end in range(1, len(table) + 1):   # [displays.main] names displays too
                at.setdefault(".".join(table[:end]), number)
        elif not quoted and (key := _KEY.match(line)):
            at.setdefault(".".join(table + _parts(key[1])), number)
        if (line.count('"""') + line.count("\'\'\'")) % 2:
            quoted = not quoted
    return at


def _line_of(key: str, lines: dict[str, int]) -> int | None:
    """The line that sets ``key``, or the nearest table around it that
    the file names."""
    while key:
        if key in lines:
            return lines[key]
        outer = _LAST.sub("", key)
        key = "" if outer == key else outer
    return None


_LAST = re.compile(r"(\.[^.\[]*|\[\d+\])$")   # a key's last part: .name or [2]
