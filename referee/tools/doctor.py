"""``referee doctor``: is this box built and set up right?

It looks at every part the configuration names and prints one line per
check, a fault with what to do about it::

    ok    board: Raspberry Pi 5 Model B Rev 1.0
    ok    I2C bus 1: on, 400 kHz
    FAIL  display team1: no answer at 0x3d on I2C bus 1. Fix: check its four wires ...
    ok    dice module: Pico e6614103e7 answers, firmware 1.0; rolled 2d8: 3 7

``ok`` and ``warn`` pass; one ``FAIL`` makes the exit status 1; ``skip``
names what the configuration leaves out.  Every panel that answers shows
its own name, so the maker sees which is which, and the buzzer beeps once.

The devices must be free: while referee.service runs, the doctor checks only
what it can without disturbing the game on the table.  Run as root on an
installed box (``sudo referee doctor``), it checks as the service runs: its
unit's user and groups, its environment (``LG_WD``, where lgpio keeps its
notification pipes, and the pin library), its runtime folder as the working
folder, and its score log; from whatever folder it was started in.  On a simulated box it checks the
simulated parts, so every fault can be tried on a laptop.

Each check is a function of what it looks at (paths, a pin factory, a way to
make a panel) and returns a ``Finding``; ``examine`` runs the checks a
configuration needs on a ``Machine``.
"""
from __future__ import annotations

# Each check imports the driver it tries inside itself (lazily): a library
# that is missing or fails to load fails that one check, with its reason,
# and every other check still runs.
import asyncio
import errno
import glob
import grp
import ipaddress
import logging
import os
import pwd
import re
import shlex
import shutil
import socket
import subprocess
import tempfile
import time
import warnings
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Literal
from urllib.parse import urlsplit

from referee.config import DISPLAYS, PINMAP, Config, Display

if TYPE_CHECKING:   # the doctor loads the simulators only when a part is simulated
    from hal.sim.oled import SimulatedSSD1306

SERVICE = "referee"                 # systemd/referee.service: the unit and its User=
SERVICE_STATE = "/var/lib/referee"  # its StateDirectory=, where the score log is kept
LOW_SPACE = 50_000_000   # bytes: below this the card is about to refuse saves
BOOT_CONFIG = "/boot/firmware/config.txt"
CORE_FIXED = "core_freq_fixed=1"   # the core clock, and the I2C clock divided from it, held steady
UNIT = "/etc/systemd/system/referee.service"     # where systemd/install.sh puts the unit
# What systemd/referee.service gives the box, for a box whose unit is not
# installed (yet): read from the unit when it is.
SERVICE_RUNTIME = "/run/referee"    # its RuntimeDirectory= and WorkingDirectory=
SERVICE_ENVIRONMENT = {"LG_WD": SERVICE_RUNTIME, "GPIOZERO_PIN_FACTORY": "lgpio"}
MODULES_LOAD = "/etc/modules-load.d/referee.conf"  # the kernel modules it loads at boot
COMITUP = "/usr/sbin/comitup"       # Debian's comitup: the box's Wi-Fi at any house (referee.box.wifi)
COMITUP_CONF = "/etc/comitup.conf"  # root's alone: it holds the hotspot's password
# The boards the build guide covers; the 400 and 500 begin like the 4 and 5.
BOARDS = ("Raspberry Pi Zero 2 W", "Raspberry Pi 4", "Raspberry Pi 5")
BEEP = 0.2  # seconds
log = logging.getLogger(__name__)


Status = Literal["ok", "warn", "FAIL", "skip"]


@dataclass(frozen=True)
class Finding:
    status: Status
    subject: str   # what was looked at: "display team1"
    detail: str    # what was found
    fix: str = ""  # what to do about it

    def __str__(self) -> str:
        line = f"{self.status:<5} {self.subject}: {self.detail}"
        return f"{line}. Fix: {self.fix}" if self.fix else line


def _fail(subject: str, detail: str, fix: str = "") -> Finding:
    return Finding("FAIL", subject, detail, fix)


# --- the board and its buses ----------------------------------------------------

def board(model_path: str = "/proc/device-tree/model") -> Finding:
    try:
        with open(model_path, "rb") as f:
            model = f.read().rstrip(b"\0").decode(errors="replace").strip()
    except FileNotFoundError:
        return _fail("board", f"not a Raspberry Pi ({model_path} is missing)",
                     'run the doctor on the box itself, or simulate every device (driver = "sim")')
    if model.startswith(BOARDS):
        return Finding("ok", "board", model)
    if model.startswith("Raspberry Pi"):
        return Finding("warn", "board", f"{model}: not one of the boards the build guide covers",
                       "the 40-pin header is the same, so the wiring holds; an older board may be slow")
    return _fail("board", f"{model} is not a Raspberry Pi")


def boot_lines(config: Config | None = None) -> list[str]:
    """The lines /boot/firmware/config.txt needs for the buses the
    configuration uses (all of the pin map's, without one)."""
    panels = [getattr(config.displays, n) for n in DISPLAYS] if config else []
    buses = {str(d.bus) for d in panels if d.driver == "i2c"} if config else set(PINMAP["i2c"])
    lines = [line for bus in sorted(buses) for line in _bus_lines(bus)]
    spi: dict[int, int] = {}  # SPI bus -> chip selects it needs
    for d in panels:
        if d.driver == "spi":
            spi[d.bus] = max(spi.get(d.bus, 0), d.device + 1)
    if 0 in spi:
        lines.append("dtparam=spi=on")  # SPI0, with both its chip selects
    if 1 in spi:
        # SPI1 has no dtparam; its overlay comes with 1, 2 or 3 chip selects.
        lines.append(f"dtoverlay=spi1-{spi[1]}cs")
    return lines


def _bus_lines(bus: str) -> list[str]:
    wiring = PINMAP["i2c"].get(bus)
    if wiring is None:
        return []  # a bus of the maker's own: they know its line
    if wiring.get("overlay") == "i2c-gpio":
        return [f"dtoverlay=i2c-gpio,bus={bus},i2c_gpio_sda={wiring['sda']},i2c_gpio_scl={wiring['scl']}"]
    if "hz" not in wiring:
        return ["dtparam=i2c_arm=on"]
    # The SoC's I2C clock is divided from the VPU core clock, which the
    # firmware scales with load; the kernel divides for its highest rate,
    # so at idle a Pi 3, Zero 2 W or 4 runs the bus slower (on a Pi 3 at
    # 5/8 of the rate asked: raspberrypi/firmware#1281).  core_freq_fixed=1
    # holds that clock at its highest (Raspberry Pi's config.txt
    # documentation, overclocking options); a Pi 5's I2C is on RP1 and is
    # not divided from it.
    return ["dtparam=i2c_arm=on", f"dtparam=i2c_arm_baudrate={wiring['hz']}", CORE_FIXED]


def i2c_bus(bus: int, dev: str = "/dev", adapters: str = "/sys/class/i2c-adapter",
            boot_config: str = BOOT_CONFIG, model: str = "/proc/device-tree/model") -> Finding:
    subject = f"I2C bus {bus}"
    node = os.path.join(dev, f"i2c-{bus}")
    lines = _bus_lines(str(bus))
    if not os.path.exists(node):
        add = " and ".join(f"`{line}`" for line in lines) or "the line that enables it"
        return _fail(subject, f"{node} is missing",
                     f"add {add} to {BOOT_CONFIG}, load i2c-dev (systemd/install.sh does both), and reboot")
    try:
        os.close(os.open(node, os.O_RDWR))
    except PermissionError:
        return _fail(subject, f"no permission to open {node}",
                     "the user needs the group i2c: sudo usermod -aG i2c USER")
    except OSError as exc:
        return _fail(subject, f"cannot open {node}: {exc.strerror}")
    node_info = os.path.join(adapters, f"i2c-{bus}", "of_node")
    if b"i2c-gpio" in _read(os.path.join(node_info, "compatible")):
        return Finding("ok", subject, "on (i2c-gpio, in software)")
    raw = _read(os.path.join(node_info, "clock-frequency"))
    if len(raw) != 4:
        return Finding("ok", subject, "on")
    hz = int.from_bytes(raw, "big")
    wanted = (PINMAP["i2c"].get(str(bus)) or {}).get("hz", 0)
    if hz < wanted:
        # A whole frame is 1 KiB plus framing: four times slower at 100 kHz.
        return Finding("warn", subject, f"on, but at {hz // 1000} kHz",
                       f"add `dtparam=i2c_arm_baudrate={wanted}` to {BOOT_CONFIG} and reboot")
    if wanted and _core_scales(boot_config, model):
        # The device tree holds the rate asked; the bus itself follows the core clock (see _bus_lines).
        return Finding("warn", subject, f"on, {hz // 1000} kHz asked, but slower while the core clock idles",
                       f"add `{CORE_FIXED}` to {BOOT_CONFIG} and reboot")
    return Finding("ok", subject, f"on, {hz // 1000} kHz")


def _core_scales(boot_config: str, model: str) -> bool:
    """Whether the core clock, and with it the SoC's I2C clock, moves with
    load: on a Pi before the 5 whose boot configuration neither fixes it
    nor forces turbo.  Unknown (no such files: not a Pi) counts as not."""
    name = _read(model).rstrip(b"\0").decode(errors="replace")
    text = _read(boot_config).decode(errors="replace")
    if not name.startswith("Raspberry Pi") or re.match(r"Raspberry Pi (5|500|Compute Module 5)", name) or not text:
        return False
    settings = {"".join(line.split("#", 1)[0].split()) for line in text.splitlines()}
    return not settings & {CORE_FIXED, "force_turbo=1"}


def _read(path: str) -> bytes:
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return b""


def fonts() -> Finding:
    from referee.box.screen import FONTS, FontMissing, font
    try:
        for kind in FONTS:
            font(kind)
    except FontMissing as exc:
        return _fail("fonts", str(exc))
    return Finding("ok", "fonts", "misc-fixed and Terminus found")


# --- the devices ----------------------------------------------------------------

class _NoRetry:
    """What the doctor gives a display instead of a clock: it looks once."""

    def __call__(self, delay, fn, *args):
        return self

    def cancel(self) -> None:
        pass


def display(name: str, cfg, make: Callable) -> Finding:
    """Bring up one panel with ``make`` (what the service would do) and show
    the panel's name on it."""
    from luma.core.error import DevicePermissionError
    from hal.display import Display
    subject = f"display {name}"
    where = _where(cfg)
    try:
        panel = Display(name, make, _NoRetry(), cfg.controller, cfg.rotate)
    except DevicePermissionError as exc:
        return _fail(subject, str(exc), f"the user needs the group {'spi' if cfg.driver == 'spi' else 'i2c'}")
    if panel.online:
        panel.show(_name_card(name))
    online = panel.online
    panel.close()
    if online:
        return Finding("ok", subject, f"{cfg.controller.upper()} answers {where} and shows its name now")
    return _fail(subject, f"no answer {where}", _display_fix(cfg))


def _where(cfg) -> str:
    if cfg.driver == "i2c":
        return f"at {cfg.address:#04x} on I2C bus {cfg.bus}"
    if cfg.driver == "spi":
        return f"on SPI {cfg.bus}.{cfg.device}"
    return "on the simulated bus"


def _display_fix(cfg) -> str:
    if cfg.driver == "sim":
        return "the simulated panel is set to fail"
    if cfg.driver == "spi":
        return f"check its wires: SPI{cfg.bus}, DC on GPIO {cfg.dc}, RES on GPIO {cfg.reset}"
    wiring = PINMAP["i2c"].get(str(cfg.bus))
    lines = f" (VCC to 3V3, GND, SDA to GPIO {wiring['sda']}, SCL to GPIO {wiring['scl']})" if wiring else ""
    jumper = f" and that its address jumper is moved to {cfg.address:#04x}" if cfg.address != 0x3C else ""
    return (f"check its four wires{lines}{jumper}; "
            f"`i2cdetect -y {cfg.bus}` lists the addresses that answer")


def _name_card(name: str):
    from PIL import Image
    from referee.box.screen import FontMissing, Screen, render
    try:
        return render(Screen("referee doctor", big=name))
    except FontMissing:
        return Image.new("1", (128, 64), 1)  # all lit: still says "this one works"


def keypad(rows, cols, factory=None) -> Finding:
    """With no row selected every column must read high; then each row in
    turn must pull no column low (no key is down, no wires touch).  A wire
    that is off shows only when a key is pressed: try each in the box."""
    from gpiozero import DigitalInputDevice, DigitalOutputDevice
    from hal.keys import LAYOUT

    def check(stack: ExitStack) -> Finding:
        # As the box scans (hal.keys): a row not being read is left alone, an
        # input, never driven high, so two keys held in one column short nothing.
        ins = [stack.enter_context(DigitalInputDevice(p, pull_up=True, pin_factory=factory)) for p in cols]
        low = [pin for pin, col in zip(cols, ins) if col.is_active]
        if low:
            return _fail("keypad", f"column GPIO {_pins(low)} reads low with no row selected",
                         "that column's wire touches ground: check the ribbon and the header")
        for r, pin in enumerate(rows):
            with DigitalOutputDevice(pin, active_high=False, initial_value=True, pin_factory=factory):
                down = [c for c, col in enumerate(ins) if col.is_active]
            if down:
                keys = ", ".join(LAYOUT[r][c] for c in down)
                return _fail("keypad", f"key {keys} reads as held down",
                             f"let go of the keypad; if nobody touches it, row R{r + 1} (GPIO {rows[r]}) "
                             f"touches column C{down[0] + 1} (GPIO {cols[down[0]]})")
        return Finding("ok", "keypad", f"rows GPIO {_pins(rows)} and columns GPIO {_pins(cols)} read, no key down")
    return _on_pins("keypad", check)


def buttons(teams: dict[str, int], factory=None) -> Finding:
    from gpiozero import Button

    def check(stack: ExitStack) -> Finding:
        devices = {name: stack.enter_context(Button(pin, pull_up=True, bounce_time=None, pin_factory=factory))
                   for name, pin in teams.items()}
        pressed = [name for name, button in devices.items() if button.is_pressed]
        where = ", ".join(f"{name} on GPIO {pin}" for name, pin in teams.items())
        if pressed:
            return _fail("team buttons", f"{' and '.join(pressed)} reads as pressed ({where})",
                         "let go; if nobody presses it, its wire is on the NC lug: move it to NO")
        return Finding("ok", "team buttons", f"{where}, not pressed")
    return _on_pins("team buttons", check)


def buzzer(pin: int, band, factory=None, wait: Callable[[float], None] = time.sleep) -> Finding:
    """One beep in the middle of the buzzer's band, where it is loudest."""
    from gpiozero import TonalBuzzer
    from gpiozero.tones import Tone
    from hal.buzzer import frequency

    def check(stack: ExitStack) -> Finding:
        hz = frequency(0.5, band)
        device = stack.enter_context(TonalBuzzer(pin, mid_tone=Tone.from_frequency(hz), pin_factory=factory))
        device.play(Tone.from_frequency(hz))
        wait(BEEP)
        device.stop()
        return Finding("ok", "buzzer", f"GPIO {pin} played {hz:.0f} Hz for {BEEP} s: a short beep")
    return _on_pins("buzzer", check)


def _pins(pins) -> str:
    return ", ".join(map(str, pins))


def _on_pins(subject: str, check: Callable[[ExitStack], Finding]) -> Finding:
    """``check(stack)``, its devices closed afterwards.  Whatever the pin
    library raises is the finding, with the reason it gave in its warnings."""
    with warnings.catch_warnings(record=True) as caught, ExitStack() as stack:
        warnings.simplefilter("always")
        try:
            return check(stack)
        except Exception as exc:   # noqa: BLE001  whatever the library raises is the finding
            return _pin_fault(subject, exc, [str(w.message) for w in caught])


def _pin_fault(subject: str, exc: Exception, warned: list[str]) -> Finding:
    """The pin library's failure, said with its cause and only the fix
    that cause has."""
    from gpiozero.exc import BadPinFactory
    text = (str(exc) or type(exc).__name__).rstrip("!.")
    if warned:
        text += f" ({warned[0]})"
    name = os.path.basename(str(getattr(exc, "filename", "") or ""))
    user = pwd.getpwuid(os.geteuid()).pw_name
    if isinstance(exc, OSError) and name.startswith(".lgd-nfy"):
        # lgpio makes a pipe in $LG_WD (else the working folder) and opens it
        # from the working folder: both must be a folder this user may write.
        where = os.environ.get("LG_WD") or os.getcwd()
        return _fail(subject, f"lgpio cannot make its notification pipe in {where} as {user} ({exc.strerror})",
                     f"run it where {user} may write, with LG_WD naming that folder, as referee.service "
                     f"does (LG_WD={SERVICE_RUNTIME}); sudo referee doctor does so itself")
    if isinstance(exc, PermissionError):
        fix = f"the user {user} needs the group gpio: sudo usermod -aG gpio {user}"
    elif "busy" in text.lower() or "in use" in text.lower():
        fix = "another program holds the pin; if it is the box, sudo systemctl stop referee first"
    elif "PWM" in text:
        fix = "the pin library cannot make tones on this pin: gpiozero's default, lgpio (python3-lgpio), can on any"
    elif isinstance(exc, ImportError) or (isinstance(exc, BadPinFactory) and "lgpio" in " ".join(warned)):
        fix = "the pin library lgpio is missing: sudo apt install python3-lgpio"
    else:
        fix = "the pin library said so, for a cause the doctor does not know: please report it, with this line"
    return _fail(subject, text, fix)


def _pins_chosen() -> bool:
    """gpiozero was given pins of another kind (its mock pins, say)."""
    from gpiozero import Device
    return Device.pin_factory is not None or os.environ.get("GPIOZERO_PIN_FACTORY", "lgpio") != "lgpio"


def gpio_chips(dev: str = "/dev") -> Finding | None:
    """None if the kernel offers GPIO chips; else why no pin can be opened."""
    if glob.glob(os.path.join(dev, "gpiochip*")):
        return None
    return _fail("pins", f"no {dev}/gpiochip*: this machine has no GPIO pins",
                 "run the doctor on the box's Raspberry Pi itself")


# --- the dice module ----------------------------------------------------------

def dice_module(port: str, timeout: float = 3.0) -> Finding:
    """Find the module, wait for its HELLO, and roll 2d8 on it."""
    subject = "dice module"
    path = _find(port)
    if path is None:
        return _fail(subject, f"nothing at {port}",
                     "plug the Pico in with a USB data cable (a charging-only cable has no data lines); "
                     "a new Pico needs MicroPython and the firmware first: hardware/dice-module.md")
    if "://" not in path and not os.access(path, os.R_OK | os.W_OK):
        return _fail(subject, f"no permission to open {path}",
                     "the user needs the group dialout: sudo usermod -aG dialout USER")
    with _heard("hal") as heard:
        answer = asyncio.run(_greet(path, timeout))
    said = f" (it said: {heard[-1]})" if heard else ""
    if answer is None:
        return _fail(subject, f"{path} did not say hello within {timeout:g} s{said}",
                     "flash the firmware again (make flash) and close any serial monitor (Thonny, screen) "
                     "that has the port")
    (firmware, board_id), roll = answer
    if roll.source != "module":
        return _fail(subject, f"Pico {board_id} said hello (firmware {firmware}) but did not roll{said}",
                     "flash the firmware again (make flash)")
    rolled = " ".join(map(str, roll.values))
    return Finding("ok", subject, f"Pico {board_id} answers, firmware {firmware}; rolled 2d8: {rolled}")


def dice_access(proc_devices: str = "/proc/devices", unit: str = UNIT,
                modules_load: str = MODULES_LOAD) -> Finding:
    """What the sandboxed service meets, which the doctor (outside the
    sandbox) does not: systemd turns ``DeviceAllow=char-ttyACM`` into a
    device number from /proc/devices when the unit starts, and drops it
    without a word if cdc_acm has not registered ttyACM by then."""
    subject = "dice module access"
    if not os.path.exists(unit):
        return Finding("skip", subject, f"{unit} is not installed: no sandbox to check")
    with open(unit) as f:
        allowed = [line.split("=", 1)[1].split() for line in f if line.startswith("DeviceAllow=")]
    if not any(rule and rule[0] == "char-ttyACM" for rule in allowed):
        return _fail(subject, f"{unit} has no DeviceAllow=char-ttyACM: the service may not open the Pico",
                     "install the unit again: sudo systemd/install.sh")
    if not _char_device("ttyACM", proc_devices):
        return _fail(subject, "cdc_acm is not loaded (no ttyACM in /proc/devices), so a service started now "
                     "loses DeviceAllow=char-ttyACM and gets 'Operation not permitted' on the Pico "
                     "until it is restarted",
                     "sudo modprobe cdc_acm && sudo systemctl restart referee; "
                     f"systemd/install.sh lists cdc_acm in {modules_load} so that it loads at boot")
    if "cdc_acm" not in _read(modules_load).decode(errors="replace").split():
        return Finding("warn", subject, f"cdc_acm is loaded now but not listed in {modules_load}: after a "
                       "reboot the service may start before the Pico is found, and lose it",
                       "run systemd/install.sh again")
    return Finding("ok", subject, f"cdc_acm loaded (ttyACM in {proc_devices}) and at boot; "
                   "the unit allows char-ttyACM")


def _char_device(name: str, proc_devices: str) -> bool:
    text = _read(proc_devices).decode(errors="replace")
    chars = text.split("Block devices:")[0]
    return any(line.split()[1:] == [name] for line in chars.splitlines() if line.strip()[:1].isdigit())


def _find(port: str) -> str | None:
    if "://" in port:
        return port
    if glob.has_magic(port):
        found = sorted(glob.glob(port))
        return found[0] if found else None
    return port if os.path.exists(port) else None


async def _greet(port: str, timeout: float):
    from hal.dice_serial import SerialDice
    dice = SerialDice(port, timeout=timeout, poll=0.1)
    online = asyncio.Event()
    dice.on_status = lambda status: online.set() if status == "online" else None
    dice.start(asyncio.get_running_loop())
    try:
        await asyncio.wait_for(online.wait(), timeout)
        return dice.module, await dice.roll(2, 8)
    except TimeoutError:
        return None
    finally:
        dice.close()


@contextmanager
def _heard(name: str):
    """What the drivers under ``name`` log meanwhile, kept for the finding
    instead of printed between the doctor's lines."""
    heard: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record):
            heard.append(record.getMessage())

    logger = logging.getLogger(name)
    keep, propagate, level = Keep(logging.WARNING), logger.propagate, logger.level
    logger.addHandler(keep)
    logger.propagate = False
    logger.setLevel(logging.WARNING)
    try:
        yield heard
    finally:
        logger.removeHandler(keep)
        logger.propagate, logger.level = propagate, level


# --- storage and the network ---------------------------------------------------

def database(path: str, made_by_box: bool = False) -> Finding:
    """``made_by_box``: the folder is the user's data folder, which the box
    makes when it is missing.  Any other folder must be there: a missing
    one is a drive not mounted, or a service that never started."""
    subject = "score log"
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        if made_by_box:
            return Finding("ok", subject, f"{path} will be made at the first start")
        fix = ("the service makes it when it first starts: sudo systemctl start referee" if folder == SERVICE_STATE
               else f"create it (mkdir -p {folder}) or mount the drive it is on")
        return _fail(subject, f"folder {folder} does not exist", fix)
    try:
        with tempfile.TemporaryFile(dir=folder):
            pass
        if os.path.exists(path):
            with open(path, "r+b"):
                pass
    except OSError as exc:
        user = pwd.getpwuid(os.geteuid()).pw_name
        if exc.errno == errno.EROFS:   # no file mode helps: the card itself is mounted read-only
            fix = (f"the card is mounted read-only, as after a file system error: check it (sudo dmesg), "
                   f"then sudo mount -o remount,rw $(stat -c %m {folder})")
        elif folder == SERVICE_STATE and user != SERVICE:
            fix = f"run the doctor with sudo, so that it looks as the user {SERVICE}"
        else:
            fix = f"make {folder} writable for {user}"
        return _fail(subject, f"{user} cannot write {path}: {exc.strerror}", fix)
    free = shutil.disk_usage(folder).free
    said = f"{path} is writable{'' if os.path.exists(path) else ' (a new one)'}, {free / 1e6:,.0f} MB free"
    if free < LOW_SPACE:
        return Finding("warn", subject, said, "the card is nearly full: the box refuses keys it cannot save; "
                       "free some space (sudo journalctl --vacuum-size=50M, old files)")
    return Finding("ok", subject, said)


def phones(config: Config, choice=None, state: str | None = None) -> Finding:
    """The address the QR codes carry, and why that one (``state``:
    comitup's, see ``wifi_state``)."""
    from referee.box import wifi
    web = config.web
    if web.public_url:
        host = urlsplit(web.public_url).hostname or ""
        if _loopback(host):
            return Finding("warn", "address", f"phones are sent to {web.public_url} ([web] public_url), "
                           "which on a phone is the phone itself", "set [web] public_url to this box's address")
        return Finding("ok", "address", f"phones are sent to {web.public_url} ([web] public_url)")
    if web.host not in ("0.0.0.0", "::", ""):
        if _loopback(web.host):
            return Finding("warn", "address", f"phones are sent to {web.host}:{web.port} ([web] host), "
                           "which only this box can open",
                           '[web] host = "0.0.0.0" serves every network, or set [web] public_url')
        return Finding("ok", "address", f"phones are sent to {web.host}:{web.port} ([web] host)")
    local = f"; or {wifi.local_name()}:{web.port} where phones know .local names"
    if state == "HOTSPOT":
        return Finding("ok", "address", f"phones are sent to {wifi.HOTSPOT_ADDRESS}:{web.port} "
                       f"(the box's own Wi-Fi, comitup's hotspot){local}")
    from referee.box import address
    try:
        choice = choice or address.this_box()
    except OSError as exc:   # a system that refuses the interface query: the box falls back, as said here
        return Finding("warn", "address", f"the address cannot be looked up ({exc}): phones are sent to "
                       "the last address the box found, or to 127.0.0.1 if it found none",
                       "set [web] public_url to the address phones reach this box at")
    if choice.interface == "lo":
        return Finding("warn", "address", f"phones are sent to {choice.address}: {choice.why}",
                       "join the box to the table's Wi-Fi (on comitup's page, hardware/BUILD.md "
                       "\"Game night away from home\"), or set [web] public_url")
    return Finding("ok", "address", f"phones are sent to {choice.address}:{web.port} "
                   f"({choice.interface}, {choice.why}){local}")


def wifi_state(database_path: str, installed: bool) -> Finding:
    """comitup's last word to the box, through its callback."""
    from referee.box import wifi
    path = wifi.beside(database_path, wifi.STATE_FILE)
    state = wifi.read_state(path)
    if state is None:
        if not installed:
            return Finding("skip", "Wi-Fi", "no comitup: the network is the system's business")
        return Finding("warn", "Wi-Fi", f"no word from comitup in {path}",
                       "is comitup running? systemctl status comitup; sudo systemd/install.sh registers "
                       "its callback")
    if state == "HOTSPOT":
        spot = wifi.read_hotspot(wifi.beside(database_path, wifi.HOTSPOT_FILE))
        name = f" {spot.name}" if spot else ""
        return Finding("ok", "Wi-Fi", f"HOTSPOT: the box's own Wi-Fi{name} is open; phones join it, "
                       f"and on {wifi.COMITUP_PAGE} join the box to the home Wi-Fi")
    if state == "CONNECTING":
        return Finding("ok", "Wi-Fi", "CONNECTING: comitup is trying the Wi-Fi networks it knows")
    return Finding("ok", "Wi-Fi", "CONNECTED: on a Wi-Fi network the box knows")


def read_root_file(path: str) -> str | None:
    """A file only root may read, read before the doctor becomes the
    service's user; None if it cannot be read."""
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except (OSError, UnicodeDecodeError):
        return None


def comitup(program: str = COMITUP, conf_path: str = COMITUP_CONF, text: str | None = None) -> Finding:
    """Is comitup installed, and set up as systemd/comitup-setup.sh does?"""
    import configparser
    subject = "comitup"
    again = "sudo systemd/install.sh (it runs systemd/comitup-setup.sh)"
    if not os.path.exists(program):
        return Finding("warn", subject, f"not installed ({program} is missing): at a house whose Wi-Fi the box "
                       "does not know, phones cannot reach it", again)
    if not os.path.exists(conf_path):
        return _fail(subject, f"{conf_path} is missing: the hotspot would be open to all", again)
    text = text if text is not None else read_root_file(conf_path)
    if text is None:
        return Finding("warn", subject, f"installed; {conf_path} cannot be read by this user",
                       "run the doctor with sudo")
    settings = configparser.ConfigParser()   # as comitup reads it: one section, made up
    try:
        settings.read_string("[DEFAULT]\n" + text)
    except configparser.Error as exc:
        return _fail(subject, f"comitup cannot read {conf_path}: {exc}", again)
    conf = settings.defaults()
    mode = os.stat(conf_path).st_mode & 0o777
    faults = []
    if mode & 0o077:
        faults.append(f"{conf_path} is mode {mode:04o}, readable by others: it holds the hotspot's password")
    name, password = conf.get("ap_name", ""), conf.get("ap_password", "")
    if not name.startswith("referee-"):
        faults.append(f"ap_name is {name or 'not set'!r}, not referee-<nnn>")
    if not 8 <= len(password) <= 63:
        faults.append("ap_password is not 8 to 63 characters: the hotspot would be open to all")
    if conf.get("web_service", ""):
        faults.append(f"web_service is {conf['web_service']!r}: comitup would stop it on its hotspot")
    callback = conf.get("external_callback", "")
    if not callback or not os.access(callback, os.X_OK):
        faults.append(f"its external_callback {callback or '(none)'} is not an executable file")
    elif os.stat(callback).st_uid == 0:
        faults.append(f"{callback} is root's: comitup would run it as root")
    if faults:
        return _fail(subject, "; ".join(faults), again)
    owner = pwd.getpwuid(os.stat(callback).st_uid).pw_name
    return Finding("ok", subject, f"installed; {conf_path} ({mode:04o}): hotspot {name} with a WPA2 password, "
                   f"states to {callback} (run as {owner})")


def _loopback(host: str) -> bool:
    if host.lower() == "localhost" or host.lower().endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def web_port(host: str, port: int) -> Finding:
    subject = "web"
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as s:
        # As the web server will: a connection of a moment ago does not count.
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
        except PermissionError:
            return _fail(subject, f"port {port} needs root, which the service does not have",
                         "choose a port above 1023 in [web] port, e.g. 8080")
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                return _fail(subject, f"port {port} is taken by another program",
                             f"stop it or choose another [web] port; `sudo ss -ltnp 'sport = :{port}'` names it")
            if exc.errno == errno.EADDRNOTAVAIL:
                return _fail(subject, f"{host} is not an address of this box",
                             '[web] host = "0.0.0.0" listens on every network')
            return _fail(subject, f"cannot listen on {host}:{port}: {exc.strerror}")
    return Finding("ok", subject, f"port {port} on {host} is free")


def service_running() -> bool | None:
    """Whether referee.service runs; None where systemd does not."""
    if not (os.path.isdir("/run/systemd/system") and shutil.which("systemctl")):
        return None
    return subprocess.run(["systemctl", "is-active", "--quiet", f"{SERVICE}.service"], check=False).returncode == 0


# --- all of it --------------------------------------------------------------------

@dataclass
class Machine:
    """Where the doctor looks.  The defaults are the real box; a simulated
    box and the tests put their own parts in."""
    model: str = "/proc/device-tree/model"
    boot_config: str = BOOT_CONFIG
    dev: str = "/dev"
    adapters: str = "/sys/class/i2c-adapter"
    pin_factory: object = None                  # gpiozero's default pin library
    panels: dict = field(default_factory=dict)  # display name -> simulated controller
    dice_port: str | None = None                # the simulated module's port
    dice_timeout: float = 3.0
    service_running: bool | None = None
    wait: Callable[[float], None] = time.sleep
    proc_devices: str = "/proc/devices"
    unit: str = UNIT
    modules_load: str = MODULES_LOAD
    comitup: str = COMITUP
    comitup_conf: str = COMITUP_CONF
    comitup_text: str | None = None   # the file, read while still root (see read_root_file)
    checked_as: Finding | None = None  # how root became the service (see as_service_user)


def examine(config: Config, machine: Machine | None = None) -> list[Finding]:
    machine = machine or Machine()
    panels = {n: getattr(config.displays, n) for n in DISPLAYS}
    drivers = {config.keypad.driver, config.buzzer.driver, config.dice.driver, *(d.driver for d in panels.values())}
    simulated = drivers <= {"sim", "none", "software"}
    found = [Finding("ok", "board", "simulated devices: no Raspberry Pi needed") if simulated else board(machine.model)]
    if machine.checked_as is not None:
        found.append(machine.checked_as)
    busy = machine.service_running
    if busy:
        found.append(Finding("warn", "service", "referee.service is running and has the devices, "
                             "so the doctor leaves them be",
                             "sudo systemctl stop referee, run the doctor, then sudo systemctl start referee"))
    found.append(fonts())
    dead = set()
    for bus in sorted({d.bus for d in panels.values() if d.driver == "i2c"}):
        found.append(i2c_bus(bus, machine.dev, machine.adapters, machine.boot_config, machine.model))
        if found[-1].status == "FAIL":
            dead.add(bus)
    if busy:
        found.append(Finding("skip", "devices", "in use by the running service"))
    else:
        with _heard("hal"):
            found += _devices(config, machine, dead)
    if config.dice.driver == "serial":
        found.append(dice_access(machine.proc_devices, machine.unit, machine.modules_load))
    own_folder = not (config.database or os.environ.get("STATE_DIRECTORY"))
    found.append(database(config.database_path, made_by_box=own_folder))
    if not busy:
        found.append(web_port(config.web.host, config.web.port))
    from referee.box import wifi
    installed = os.path.exists(machine.comitup)
    state = wifi.read_state(wifi.beside(config.database_path, wifi.STATE_FILE))
    if installed or state is not None or not simulated:   # a laptop's own network is its own business
        found.append(comitup(machine.comitup, machine.comitup_conf, machine.comitup_text))
        found.append(wifi_state(config.database_path, installed))
    found.append(phones(config, state=state))
    if not simulated:
        found.append(wall_clock(machine.dev))
    return found


def wall_clock(dev: str = "/dev", synchronised: Callable[[], bool] | None = None) -> Finding:
    """Where tonight's dates come from: the network, the optional DS3231
    (pin map's ``[rtc]``), or else the first phone to open a page."""
    from referee import clock
    rtc = PINMAP["rtc"]
    if (synchronised or clock.synchronised)():
        return Finding("ok", "clock", "set from the network (NTP)")
    if os.path.exists(os.path.join(dev, "rtc0")):
        return Finding("ok", "clock", f"no network time; the real-time clock {os.path.join(dev, 'rtc0')} keeps it")
    return Finding("warn", "clock", "no network time and no real-time clock: tonight's games are dated by "
                   "the first phone that opens a page",
                   f"fit a DS3231 on I2C bus {rtc['bus']} ({rtc['address']:#04x}) and add "
                   f"`{rtc['overlay']}` to {BOOT_CONFIG}, or give the box a network")


def _devices(config: Config, machine: Machine, dead_buses: set[int]) -> list[Finding]:
    from hal.sim.oled import SimulatedSSD1306
    found = []
    for name in DISPLAYS:
        cfg = getattr(config.displays, name)
        if cfg.driver == "none":
            found.append(Finding("skip", f"display {name}", 'driver = "none"'))
            continue
        if cfg.driver == "i2c" and cfg.bus in dead_buses:
            found.append(_fail(f"display {name}", f"not reachable while I2C bus {cfg.bus} is not there (above)"))
            continue
        panel = machine.panels.setdefault(name, SimulatedSSD1306()) if cfg.driver == "sim" else None
        found.append(_guarded(f"display {name}", _panel_check(name, cfg, panel)))
    kp, bz = config.keypad, config.buzzer
    teams = {"team1": kp.team1, "team2": kp.team2}
    sim = None
    if machine.pin_factory is None and "sim" in (kp.driver, bz.driver):
        from hal.sim.pins import SimulatedPins
        sim = SimulatedPins(kp.rows, kp.cols, teams, bz.pin if bz.driver == "sim" else None).factory
    pad = machine.pin_factory or (sim if kp.driver == "sim" else None)
    tone = machine.pin_factory or (sim if bz.driver == "sim" else None)
    # Real pins with no chip to open: each part is told why, not the pin library's guess.
    chips = gpio_chips(machine.dev) if None in (pad, tone) and not _pins_chosen() else None

    def with_pins(subject: str, pins: object, check: Callable[[], Finding]) -> Finding:
        if pins or chips is None:
            return check()
        return _fail(subject, chips.detail, chips.fix)
    found.append(with_pins("keypad", pad, lambda: keypad(kp.rows, kp.cols, pad)))
    found.append(with_pins("team buttons", pad, lambda: buttons(teams, pad)))
    if bz.driver == "none":
        found.append(Finding("skip", "buzzer", 'driver = "none"'))
    else:
        found.append(with_pins("buzzer", tone, lambda: buzzer(bz.pin, bz.band, tone, machine.wait)))
    if sim is not None:
        sim.close()
    found.append(_guarded("dice module", lambda: _dice(config, machine)))
    return found


def _guarded(subject: str, check: Callable[[], Finding]) -> Finding:
    """A check that raised is a finding too: the doctor goes on to the
    next part and names this one, rather than ending in a traceback."""
    try:
        return check()
    except Exception as exc:
        log.exception("checking %s", subject)
        return _fail(subject, f"the check itself failed: {type(exc).__name__}: {exc}",
                     "please report it, with this line")


def _panel_check(name: str, cfg: Display, panel: SimulatedSSD1306 | None) -> Callable[[], Finding]:
    # The panel is made inside the guard: a driver that cannot open it is a finding.
    return lambda: display(name, cfg, _maker(name, cfg, panel))


def _maker(name: str, cfg, panel) -> Callable:
    if cfg.driver != "sim":
        from referee.box.devices import panel_factory  # the service's own way to make a panel
        return panel_factory(cfg, {}, name)
    from referee.box.devices import controller
    kind = controller(cfg.controller)
    return lambda: kind(panel, rotate=cfg.rotate)


def _dice(config: Config, machine: Machine) -> Finding:
    driver = config.dice.driver
    if driver == "software":
        return Finding("skip", "dice module", 'driver = "software": dice are rolled by the box')
    if driver == "serial":
        return dice_module(config.dice.port, machine.dice_timeout)
    if machine.dice_port is not None:
        return dice_module(machine.dice_port, machine.dice_timeout)
    from hal.sim.dice_module import SimulatedDiceModule
    with SimulatedDiceModule() as module:
        return dice_module(module.port, machine.dice_timeout)


@dataclass(frozen=True)
class ServiceRun:
    """How systemd runs the box: its unit's user, environment and folders."""
    user: str = SERVICE
    environment: dict = field(default_factory=lambda: dict(SERVICE_ENVIRONMENT))
    runtime: str = SERVICE_RUNTIME   # RuntimeDirectory=, made for the service at its start
    working: str = SERVICE_RUNTIME   # WorkingDirectory=


def service_run(unit: str = UNIT) -> ServiceRun:
    """The settings of the installed unit (systemd's %t is /run, %S
    /var/lib); the shipped unit's where it is not installed."""
    try:
        with open(unit, encoding="utf-8") as f:
            text = f.read()
    except OSError:
        return ServiceRun()
    specifiers = {"%t": "/run", "%S": "/var/lib", "%%": "%"}

    def expand(value: str) -> str:
        for spec, path in specifiers.items():
            value = value.replace(spec, path)
        return value
    user, environment, runtime, working = SERVICE, {}, "", ""
    for line in text.splitlines():
        key, _, value = line.strip().partition("=")
        if key == "User":
            user = value
        elif key == "Environment":
            for assignment in shlex.split(value):
                name, _, setting = assignment.partition("=")
                environment[name] = expand(setting)
        elif key == "RuntimeDirectory" and value:
            runtime = os.path.join("/run", value.split()[0])
        elif key == "WorkingDirectory":
            working = expand(value.lstrip("-"))
    return ServiceRun(user, environment, runtime, working or runtime)


def as_service_user(run: ServiceRun | None = None) -> Finding | None:
    """Root on an installed box becomes the service's user, with its
    groups, its environment and its working folder (its runtime folder made
    as systemd makes it when the service is not running), so that each check
    meets what the service meets.  The finding says how it looks."""
    run = run or service_run()
    try:
        user = pwd.getpwnam(run.user)
    except KeyError:
        return None  # not installed yet: look as root
    if run.runtime and not os.path.isdir(run.runtime):
        # As systemd makes it at the service's start; systemd takes it over then.
        os.makedirs(run.runtime, mode=0o755)
        os.chown(run.runtime, user.pw_uid, user.pw_gid)
    if os.geteuid() == 0:
        os.initgroups(run.user, user.pw_gid)
        os.setgid(user.pw_gid)
        os.setuid(user.pw_uid)
    os.environ["HOME"] = user.pw_dir
    os.environ.update(run.environment)
    try:
        os.chdir(run.working)
    except OSError as exc:
        return _fail("service user", f"{run.user} cannot enter {run.working}, the service's working folder: "
                     f"{exc.strerror}", f"sudo chown {run.user} {run.working}")
    groups = " ".join(sorted(grp.getgrgid(g).gr_name for g in os.getgroups() if g != user.pw_gid))
    said = " ".join(f"{k}={v}" for k, v in sorted(run.environment.items()))
    return Finding("ok", "service user", f"checking as {run.user} (groups {groups or 'none'}) in {run.working}"
                   f"{', ' + said if said else ''}, as referee.service runs")


def run(config: Config, machine: Machine | None = None, out=print) -> int:
    """Print the findings; 1 if any failed."""
    findings = examine(config, machine)
    for finding in findings:
        out(str(finding))
    failed = sum(f.status == "FAIL" for f in findings)
    out(f"{len(findings)} checks, {failed} failed" if failed else f"{len(findings)} checks, all well")
    return 1 if failed else 0
