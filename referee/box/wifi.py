"""How phones reach the box at any house: comitup's state, and the box's
own Wi-Fi.

comitup (Debian's package, on NetworkManager) joins the box to a Wi-Fi it
knows or, with none in reach, opens the box's own hotspot, where a phone
can join the box to the house's Wi-Fi on comitup's page.  At each change it
runs its ``external_callback`` with one argument, ``HOTSPOT``,
``CONNECTING`` or ``CONNECTED``, as the script file's owner.
systemd/install.sh registers ``systemd/comitup-callback`` there, owned by
the service's user, which writes the state to ``wifi`` beside the score
log; the box, which has no network of its own, looks at that file every
second (``Network``).  The hotspot's name and password come from
``hotspot.toml`` beside it, written by the installer with /etc/comitup.conf
(which only root may read).
"""
from __future__ import annotations

import ipaddress
import json
import logging
import os
import re
import socket
import tomllib
from dataclasses import dataclass

from referee.box import address
from referee.files import Unfit, read_small

log = logging.getLogger(__name__)

STATES = ("HOTSPOT", "CONNECTING", "CONNECTED")
# comitup's hotspot (its nm.py and dnsmasq files; comitup(8) gives the
# page's address): the box is 10.41.0.1, phones get 10.41.0.100-150.
HOTSPOT_ADDRESS = "10.41.0.1"
HOTSPOT_NETWORK = ipaddress.ip_network("10.41.0.0/24")
COMITUP_PAGE = f"http://{HOTSPOT_ADDRESS}/"
COMITUP_DATA = "/var/lib/comitup/comitup.json"   # its persistent number, the <nnn> of ap_name
STATE_FILE = "wifi"
HOTSPOT_FILE = "hotspot.toml"
STATE_BYTES = 64       # "CONNECTING" and a newline; anything longer is not comitup's
HOTSPOT_BYTES = 4096    # a name and a password of at most 63 characters, and comments
BOOT_TIME = "/proc/stat"
CHECK_SECONDS = 1.0     # the state file: a change is on the screens within 2 s
ADDRESS_SECONDS = 5.0   # the address, for a DHCP lease renewed with another one


def escape(text: str) -> str:
    """A field of a ``WIFI:`` code: backslash before \\ ; , : and "."""
    return re.sub(r'([\\;,:"])', r"\\\1", text)


def wifi_code(ssid: str, password: str) -> str:
    """What a phone's camera joins a WPA network with (the ``WIFI:`` QR
    code format of the ZXing project, which Android and iOS read)."""
    return f"WIFI:T:WPA;S:{escape(ssid)};P:{escape(password)};;"


@dataclass(frozen=True)
class Hotspot:
    name: str
    password: str


def beside(database_path: str, name: str) -> str:
    return os.path.join(os.path.dirname(os.path.abspath(database_path)), name)


def boot_time() -> float:
    """When this machine last booted (seconds since the epoch): the
    kernel's ``btime`` in /proc/stat, where psutil reads it too; read here
    so that the box need not hold psutil (about 1 MB) for one number."""
    with open(BOOT_TIME, encoding="ascii") as f:
        for line in f:
            if line.startswith("btime "):
                return float(line.split()[1])
    raise OSError(f"no btime in {BOOT_TIME}")


def read_state(path: str) -> str | None:
    """comitup's last state, as its callback wrote it; None: no word from
    comitup since this boot (not installed, or not yet started: what it
    said before the last boot is another evening's), or a file that is not
    comitup's (said in the log: the box looks again only once the file
    changes)."""
    try:
        data, st = read_small(path, STATE_BYTES)
    except Unfit as exc:
        log.warning("wifi: %s is %s: comitup's state is not read from it", path, exc)
        return None
    except OSError:
        return None
    if st.st_mtime < boot_time():
        return None
    word = data.decode("ascii", errors="replace").strip()
    return word if word in STATES else None


def expand(pattern: str, number: str, hostname: str) -> str:
    """``ap_name`` as comitup makes it the hotspot's name: ``<n>`` to
    ``<nnnn>`` become as many digits of its persistent number,
    ``<hostname>`` the host's name (comitup.conf(5))."""
    for n in range(4, 0, -1):
        pattern = pattern.replace(f"<{'n' * n}>", number[:n])
    return pattern.replace("<hostname>", hostname)


def read_hotspot(path: str) -> Hotspot | None:
    """The hotspot's name and password from ``hotspot.toml``; None when
    there is none or it cannot be read."""
    try:
        raw = tomllib.loads(read_small(path, HOTSPOT_BYTES)[0].decode("utf-8"))
        name, password = str(raw["name"]), str(raw["password"])
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, KeyError) as exc:
        if not isinstance(exc, FileNotFoundError):
            log.warning("wifi: cannot read %s: %s", path, exc)
        return None
    number = ""
    if "<n" in name:
        data = str(raw.get("comitup", COMITUP_DATA))
        try:
            number = str(json.loads(read_small(data, HOTSPOT_BYTES)[0])["id"])
        except (OSError, ValueError, KeyError, TypeError) as exc:
            log.warning("wifi: comitup's number is not in %s (%s): the hotspot's name is not known", data, exc)
            return None
    return Hotspot(expand(name, number, socket.gethostname()), password)


def local_name() -> str:
    """The name avahi-daemon gives this box on every network it is on."""
    return f"{socket.gethostname()}.local"


class Network:
    """comitup's state, the hotspot and the address phones are sent to,
    kept up to date on the box's clock; ``on_change()`` after each change."""

    def __init__(self, database_path: str, clock, on_change, look=address.this_box) -> None:
        self.state_path = beside(database_path, STATE_FILE)
        self.hotspot_path = beside(database_path, HOTSPOT_FILE)
        self.clock = clock
        self.on_change = on_change
        self.look = look
        self.state: str | None = None
        self.hotspot: Hotspot | None = None
        self.choice: address.Choice | None = None
        self._seen: tuple[int, int, int] | None = None   # the state file's (inode, size, mtime) when last read
        self._looked = None    # when the address was last looked up (clock.monotonic)
        self._failing = False  # the last look-up failed (said once, until one works again)
        self._handle = None

    def start(self) -> None:
        self.check()

    def close(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None

    def address(self) -> str:
        """Where phones reach the box now: on its own hotspot, comitup's
        address there; elsewhere, the address of the default route."""
        if self.state == "HOTSPOT":
            return HOTSPOT_ADDRESS
        if self.choice is None:
            self._refresh_address()
        # A look-up that fails falls back to this machine's own address.
        assert self.choice is not None
        return self.choice.address

    def check(self) -> None:
        try:
            changed = self._read()
        except Exception:   # noqa: BLE001  never the end of the box: look again at the next tick
            log.exception("wifi: looking at the network")
            changed = False
        self._handle = self.clock.call_later(CHECK_SECONDS, self.check)
        if changed:
            self.on_change()

    def _read(self) -> bool:
        try:
            st = os.stat(self.state_path)
            seen = (st.st_ino, st.st_size, st.st_mtime_ns)
        except OSError:
            seen = None
        changed = False
        if seen != self._seen:
            self._seen = seen
            state = read_state(self.state_path)
            if state != self.state:
                log.info("wifi: %s", state or "no word from comitup")
                self.state = state
                self.hotspot = read_hotspot(self.hotspot_path) if state == "HOTSPOT" else None
                self._looked = None   # the address changes with the network
                changed = True
        # Only once a screen has shown the address (``address()``): a box
        # whose page is at a configured host never looks, nor loads psutil.
        due = self.choice is not None and (
            self._looked is None or self.clock.monotonic() - self._looked >= ADDRESS_SECONDS - 1e-6)
        if due and self._refresh_address():
            changed = True
        return changed

    def _refresh_address(self) -> bool:
        before = self.choice
        self._looked = self.clock.monotonic()
        try:
            found = self.look()
        except Exception as exc:   # noqa: BLE001  a system that refuses the query: keep the last good address
            self._look_failed(exc)
            return False
        self.choice = found
        if self._failing:
            self._failing = False
            log.info("wifi: the address can be looked up again: %s (%s)", found.address, found.interface)
        elif before is not None and found.address != before.address:
            log.info("wifi: the address is now %s (%s)", found.address, found.interface)
        return before is not None and found != before

    def _look_failed(self, exc: Exception) -> None:
        """One line when look-ups start failing, not a traceback at every
        look (an ARM root under emulation refuses psutil's interface query
        each time); phones are sent to the last address found, or, with
        none yet, to this machine alone, as with no network."""
        if self.choice is None:
            self.choice = address.Choice("127.0.0.1", "lo", f"the address cannot be looked up: {exc}")
        if not self._failing:
            self._failing = True
            log.warning("wifi: cannot look up the address (%s: %s); phones are sent to %s until it can",
                        type(exc).__name__, exc, self.choice.address)
