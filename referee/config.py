"""The box's configuration: one TOML file, checked completely at start.

Without a file every device is simulated.  On the Pi the file lives at
``/etc/referee/config.toml``; ``config.example.toml`` lists every key.  A
mistake stops the start with one line naming the key, e.g.::

    config.toml: keypad.rows[2]: GPIO 40 does not exist (BCM 2-27)
"""
from __future__ import annotations

import os
import tomllib
from typing import Literal

import msgspec

DEFAULT_PATH = "/etc/referee/config.toml"


class ConfigError(Exception):
    pass


def _bad(key: str, message: str) -> ValueError:
    # msgspec adds where the failing table is; ``_readable`` adds the key.
    return ValueError(f"`{key}`: {message}")


def _gpio(pin: int, key: str) -> None:
    if not 2 <= pin <= 27:
        raise _bad(key, f"GPIO {pin} does not exist (BCM 2-27)")


class Base(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    pass


class Keypad(Base):
    driver: Literal["sim", "gpio"] = "sim"
    rows: tuple[int, ...] = (5, 6, 13, 19)
    cols: tuple[int, ...] = (12, 16, 20, 21)
    team1: int = 23
    team2: int = 24

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
    pin: int = 18

    def __post_init__(self):
        _gpio(self.pin, "pin")


class Display(Base):
    driver: Literal["sim", "i2c", "spi", "none"] = "sim"
    controller: Literal["ssd1306", "sh1106"] = "ssd1306"
    bus: int = 1          # I2C bus number, or SPI port
    address: int = 0x3C   # I2C address
    device: int = 0       # SPI chip select
    dc: int = 25          # SPI data/command pin
    reset: int = 27       # SPI reset pin
    rotate: Literal[0, 2] = 0
    contrast: int = 0xCF

    def __post_init__(self):
        if not 0x03 <= self.address <= 0x77:
            raise _bad("address", f"I2C address {self.address:#04x} is outside 0x03-0x77")
        if not 0 <= self.contrast <= 255:
            raise _bad("contrast", "runs from 0 to 255")


class Displays(Base):
    main: Display = msgspec.field(default_factory=Display)
    team1: Display = msgspec.field(default_factory=lambda: Display(address=0x3D))
    team2: Display = msgspec.field(default_factory=lambda: Display(bus=3))


class Dice(Base):
    driver: Literal["sim", "serial", "software"] = "sim"
    port: str = "/dev/serial/by-id/usb-MicroPython_Board_in_FS_mode-if00"


class Web(Base):
    host: str = "127.0.0.1"
    port: int = 8080
    public_url: str = ""   # what the QR codes point at; empty: this box's LAN address

    def __post_init__(self):
        if not 1 <= self.port <= 65535:
            raise _bad("port", f"{self.port} is outside 1-65535")


class Config(Base):
    lang: Literal["en", "cs", "pl", "ru"] = "en"
    database: str = ""     # empty: the user's data folder, or /var/lib/referee as a service
    keypad: Keypad = msgspec.field(default_factory=Keypad)
    buzzer: Buzzer = msgspec.field(default_factory=Buzzer)
    displays: Displays = msgspec.field(default_factory=Displays)
    dice: Dice = msgspec.field(default_factory=Dice)
    web: Web = msgspec.field(default_factory=Web)

    def __post_init__(self):
        used: dict[int, str] = {}
        pins = {f"keypad.rows[{i}]": p for i, p in enumerate(self.keypad.rows)}
        pins |= {f"keypad.cols[{i}]": p for i, p in enumerate(self.keypad.cols)}
        pins |= {"keypad.team1": self.keypad.team1, "keypad.team2": self.keypad.team2}
        if self.buzzer.driver != "none":
            pins["buzzer.pin"] = self.buzzer.pin
        for key, pin in pins.items():
            if pin in used:
                raise _bad(key, f"GPIO {pin} is already used by {used[pin]}")
            used[pin] = key

    @property
    def database_path(self) -> str:
        if self.database:
            return self.database
        state = os.environ.get("STATE_DIRECTORY")  # set by systemd's StateDirectory=
        if state:
            return os.path.join(state.split(":")[0], "referee.db")
        data = os.environ.get("XDG_DATA_HOME", os.path.expanduser("~/.local/share"))
        return os.path.join(data, "tabletop-referee", "referee.db")


def load(path: str | None) -> Config:
    """The configuration in ``path`` (None: all defaults)."""
    if path is None:
        return Config()
    name = os.path.basename(path)
    try:
        with open(path, "rb") as f:
            raw = tomllib.load(f)
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such file") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{name}: not valid TOML: {exc}") from None
    return parse(raw, name)


def parse(raw: dict, name: str = "config.toml") -> Config:
    try:
        return msgspec.convert(raw, Config)
    except msgspec.ValidationError as exc:
        raise ConfigError(f"{name}: {_readable(str(exc))}") from None


def _readable(message: str) -> str:
    # msgspec says "Expected `int`, got `str` - at `$.keypad.rows[0]`";
    # makers read "keypad.rows[0]: expected `int`, got `str`".
    text, sep, where = message.rpartition(" - at `")
    if not sep:
        text, where = message, ""
    key = where.rstrip("`").removeprefix("$").removeprefix(".")
    if text.startswith("Object contains unknown field"):
        text = f"`{text.split('`')[1]}`: unknown key"
    if text.startswith("`"):
        field, _, text = text[1:].partition("`: ")
        key = f"{key}.{field}" if key else field
        return f"{key}: {text}"
    return f"{key}: {text[0].lower()}{text[1:]}"
