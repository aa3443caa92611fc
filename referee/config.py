"""The box's configuration: one TOML file, checked completely at start.

Without a file every device is simulated.  On the Pi the file lives at
``/etc/referee/config.toml``; ``config.example.toml`` lists every key.  A
mistake stops the start with one line naming the key, e.g.::

    config.toml: keypad.rows[2]: GPIO 40 does not exist (BCM 2-27)

and every mistake of the file is said at once, a misspelt key with the key
it is closest to, so that a maker fixes the file in one go.
"""
from __future__ import annotations

import datetime as dt
import difflib
import os
import re
import tomllib
import typing
from importlib import resources
from typing import ClassVar, Literal
from urllib.parse import urlsplit

import msgspec

from games import osmisifry as _osmisifry

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


class ConfigError(Exception):
    pass


def _bad(key: str, message: str) -> ValueError:
    # msgspec adds where the failing table is; ``_readable`` adds the key.
    return ValueError(f"`{key}`: {message}")


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


class Osmisifry(Base):
    # The letter tables of the owners' printed editions, offered at setup
    # beside the bundled ones: TOML files as games/data/letters-cs.toml is
    # written (``name``, and ``rows``: 8 rows of 8 letters A-Z).  A path is
    # absolute or relative to the configuration file's folder.  [OS-1]
    # [ruling] A letter may stand in many cells, as printed tables made for
    # letter frequencies have it; two tables by one name are refused, since
    # the setup form could not tell them apart.
    letter_tables: tuple[str, ...] = ()

    def __post_init__(self):
        names = {_osmisifry.builtin_table(code).name: "a bundled table" for code in _osmisifry.TABLES}
        for i, path in enumerate(self.letter_tables):
            key = f"letter_tables[{i}]"
            try:
                table = read_letter_table(path)
            except ValueError as exc:
                raise _bad(key, f"{path}: {exc}") from None
            if table.name in names:
                raise _bad(key, f"{path}: the name {table.name!r} is already {names[table.name]}'s; "
                                "give the table a name of its own")
            names[table.name] = key

    def tables(self) -> tuple[_osmisifry.Table, ...]:
        """The configured tables, read anew: what setup offers now."""
        return tuple(read_letter_table(path) for path in self.letter_tables)


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


def read_letter_table(path: str) -> _osmisifry.Table:
    """A letter table file, named by its ``name`` or else its file name;
    ``ValueError`` says what is wrong with it."""
    if not os.path.exists(path):
        raise ValueError("no such file")
    if not os.path.isfile(path):
        raise ValueError("not a file")
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise ValueError(f"cannot be read ({exc})") from None
    table = _osmisifry.load_table(text)
    if not table.name.strip():
        table = _osmisifry.Table(table.rows, os.path.splitext(os.path.basename(path))[0])
    return table


class Config(Base):
    lang: Literal["en", "cs", "pl", "ru"] = "en"
    database: str = ""     # empty: the user's data folder, or /var/lib/referee as a service
    keypad: Keypad = msgspec.field(default_factory=Keypad)
    buzzer: Buzzer = msgspec.field(default_factory=Buzzer)
    displays: Displays = msgspec.field(default_factory=Displays)
    dice: Dice = msgspec.field(default_factory=Dice)
    web: Web = msgspec.field(default_factory=Web)
    sim: Sim = msgspec.field(default_factory=Sim)
    club: Club = msgspec.field(default_factory=Club)
    osmisifry: Osmisifry = msgspec.field(default_factory=Osmisifry)
    ladder: Ladder = msgspec.field(default_factory=Ladder)

    def __post_init__(self):
        # Two devices on one pin fail in ways nothing explains later, so it is
        # said here.  Displays on one bus share its pins; everything else owns
        # its pin alone.
        used: dict[int, str] = {}
        for owner, key, pin in self._pins():
            if used.get(pin, owner) != owner:
                raise _bad(key, f"GPIO {pin} is already used by {used[pin]}")
            used[pin] = owner
        panels: dict[tuple, str] = {}
        for name in DISPLAYS:
            d = getattr(self.displays, name)
            if d.driver == "i2c":
                other = panels.setdefault(("i2c", d.bus, d.address), name)
                if other != name:
                    raise _bad(f"displays.{name}.address",
                               f"{d.address:#04x} on I2C bus {d.bus} is already displays.{other}'s address")
            elif d.driver == "spi":
                other = panels.setdefault(("spi", d.bus, d.device), name)
                if other != name:
                    raise _bad(f"displays.{name}.device",
                               f"chip select {d.device} of SPI{d.bus} is already displays.{other}'s")

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


MOST_BYTES = 1 << 20    # a configuration is a few hundred bytes; letter tables are files of their own


def load(path: str | None) -> Config:
    """The configuration in ``path`` (None: all defaults)."""
    if path is None:
        return Config()
    from referee.files import Unfit, read_small
    name = os.path.basename(path)
    try:
        raw = tomllib.loads(read_small(path, MOST_BYTES)[0].decode("utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such file") from None
    except Unfit as exc:   # a FIFO would hold the start for good, /dev/zero fill the memory
        raise ConfigError(f"{path}: {exc}") from None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot be read: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{name}: not UTF-8 text (byte {exc.start})") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{name}: not valid TOML: {exc}") from None
    _beside(raw, os.path.dirname(os.path.abspath(path)))
    return parse(raw, name)


def _beside(raw: dict, folder: str) -> None:
    """Letter table paths relative to the configuration file's folder, as
    its owner reads them, whatever folder the box starts in."""
    tables = raw.get("osmisifry", {}).get("letter_tables") if isinstance(raw.get("osmisifry"), dict) else None
    if isinstance(tables, list):
        raw["osmisifry"]["letter_tables"] = [os.path.join(folder, p) if isinstance(p, str) and p else p
                                             for p in tables]


def parse(raw: dict, name: str = "config.toml") -> Config:
    """The configuration in ``raw``; ``ConfigError`` names every mistake,
    one line each."""
    try:
        return msgspec.convert(raw, Config)
    except msgspec.ValidationError as exc:
        first = _readable(str(exc))
    problems = _problems(raw, Config, "")[0] or [first]
    raise ConfigError("\n".join(f"{name}: {p}" for p in problems))


def _problems(raw, kind: type, where: str) -> tuple[list[str], dict]:
    """Every mistake in the table ``raw`` of type ``kind`` at ``where``,
    and the part of ``raw`` that is sound.

    msgspec stops at the first, so each key is tried alone (the others at
    their defaults, which are sound), then the table's sound keys together
    for what two keys say only together (two devices on one pin)."""
    if not isinstance(raw, dict):
        return [_readable(_error(raw, kind), where)], {}
    hints = typing.get_type_hints(kind)
    fields = kind.__struct_fields__
    found, sound = [], {}
    for key, value in raw.items():
        if key not in fields:
            near = difflib.get_close_matches(key, fields, n=1)
            hint = f"; did you mean `{near[0]}`?" if near else f"; the keys here are {', '.join(fields)}"
            found.append(f"{_join(where, key)}: unknown key{hint}")
        elif isinstance(hints[key], type) and issubclass(hints[key], Base):
            inner, sound[key] = _problems(value, hints[key], _join(where, key))
            found += inner
        elif error := _error({key: value}, kind):
            found.append(_readable(error, where))
        else:
            sound[key] = value
    if error := _error(sound, kind):
        found.append(_readable(error, where))
        sound = {}
    return found, sound


def _error(raw, kind: type) -> str:
    try:
        msgspec.convert(raw, kind)
    except msgspec.ValidationError as exc:
        return str(exc)
    return ""


def _join(where: str, key: str) -> str:
    return f"{where}.{key}" if where else key


def _readable(message: str, table: str = "") -> str:
    # msgspec says "Expected `int`, got `str` - at `$.keypad.rows[0]`";
    # makers read "keypad.rows[0]: expected `int`, got `str`".
    text, sep, where = message.rpartition(" - at `")
    if not sep:
        text, where = message, ""
    key = where.rstrip("`").removeprefix("$")
    key = (table + key if key.startswith("[") else _join(table, key.removeprefix("."))) if key else table
    if text.startswith("Invalid enum value"):
        allowed = _allowed(key)
        if allowed:
            got = text.split(" ", 3)[3]
            got = f'"{got[1:-1]}"' if got.startswith("'") else got
            text = f"{got} is not one of {allowed}"
    if text.startswith("Object contains unknown field"):
        text = f"`{text.split('`')[1]}`: unknown key"
    if text.startswith("`"):
        field, _, text = text[1:].partition("`: ")
        key = f"{key}.{field}" if key else field
        return f"{key}: {text}"
    return f"{key}: {text[0].lower()}{text[1:]}"


def _allowed(key: str) -> str:
    """The values a Literal key takes, as a config file writes them:
    ``"ssd1306", "sh1106"``; "" if ``key`` is not such a key."""
    kind = Config
    for part in key.split("."):
        hints = typing.get_type_hints(kind) if isinstance(kind, type) else {}
        if part not in hints:
            return ""
        kind = hints[part]
    if typing.get_origin(kind) is not Literal:
        return ""
    return ", ".join(f'"{v}"' if isinstance(v, str) else str(v) for v in typing.get_args(kind))
