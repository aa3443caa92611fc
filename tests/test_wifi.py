"""Issue 26: phones reach the box at any house.  comitup joins the box to a
Wi-Fi it knows or opens the box's own; through the callback the installer
registers, the box learns which, and its screens follow: the Wi-Fi code,
the score log's on the hotspot's address, comitup's page for the home
Wi-Fi.  Checked on the real paths: the installer's setup script against a
temporary root, the callback run as comitup runs it, a real ``referee run``.
"""
from __future__ import annotations

import configparser
import errno
import ipaddress
import json
import logging
import os
import pwd
import re
import socket
import subprocess
import sys
import tomllib
from pathlib import Path
from types import SimpleNamespace

import pytest
import zxingcpp
from PIL import Image

from processes import free_port, until
from referee import i18n
from referee.box import address, wifi
from referee.box.address import Choice
from referee.box.screen import W, key_line, qr_image
from referee.config import parse
from referee.testing import Table
from referee.tools import doctor
from referee.tools.doctor import Machine

ROOT = Path(__file__).resolve().parent.parent
SETUP = ROOT / "systemd" / "comitup-setup.sh"
CALLBACK = ROOT / "systemd" / "comitup-callback"
ME = pwd.getpwuid(os.geteuid()).pw_name
LANGS = ("en", "cs", "pl", "ru")


def unescape(field: str) -> str:
    return re.sub(r"\\(.)", r"\1", field)


def fields(code: str) -> dict[str, str]:
    """A ``WIFI:`` code's fields, split on the semicolons no backslash escapes."""
    assert code.startswith("WIFI:") and code.endswith(";;")
    parts = re.findall(r"((?:[^;\\]|\\.)*);", code[len("WIFI:"):-1])
    return {part[0]: unescape(part[2:]) for part in parts if part}


def scanned(image: Image.Image) -> list[str]:
    big = image.convert("L").resize((image.width * 4, image.height * 4), Image.Resampling.NEAREST)
    return [code.text for code in zxingcpp.read_barcodes(big)]


# --- the WIFI: code ------------------------------------------------------------------------

def test_the_wifi_code_escapes_backslash_semicolon_comma_colon_and_quote():
    assert wifi.escape('a\\b;c,d:e"f') == 'a\\\\b\\;c\\,d\\:e\\"f'
    assert wifi.wifi_code("referee-432", "k7mq2xv9ab") == "WIFI:T:WPA;S:referee-432;P:k7mq2xv9ab;;"
    assert wifi.wifi_code('my;box', 'p:w,"x"\\') == 'WIFI:T:WPA;S:my\\;box;P:p\\:w\\,\\"x\\"\\\\;;'
    for ssid, password in [('a;b', 'c,d:e"f\\g'), ("plain", "password"), (';;', '::,,')]:
        assert fields(wifi.wifi_code(ssid, password)) == {"T": "WPA", "S": ssid, "P": password}


def hotspot(folder: Path, name: str, password: str, number: str = "4321") -> None:
    """The files the installer and comitup leave beside the score log."""
    (folder / "comitup.json").write_text(json.dumps({"id": number}, indent=2))
    (folder / "hotspot.toml").write_text(f"name = {json.dumps(name)}\npassword = {json.dumps(password)}\n"
                                         f"comitup = {json.dumps(str(folder / 'comitup.json'))}\n")


def say(folder: Path, state: str) -> None:
    (folder / "wifi").write_text(state + "\n")


@pytest.mark.parametrize("ssid, password", [("referee-<nnn>", "k7mq2xv9ab"), ("a;b,c", 'x:y"z\\w;v')])
def test_the_wifi_code_on_the_screen_decodes_with_zxing_to_the_same_network(ssid, password):
    with Table(config={"web": {"host": "0.0.0.0"}}) as t:
        folder = Path(t.database).parent
        hotspot(folder, ssid, password)
        say(folder, "HOTSPOT")
        t.advance(wifi.CHECK_SECONDS)
        t.press("7")                                    # Score log: the Wi-Fi code first
        name = ssid.replace("<nnn>", "432")
        assert scanned(t.image("main")) == [wifi.wifi_code(name, password)]
        assert fields(scanned(t.image("main"))[0]) == {"T": "WPA", "S": name, "P": password}
        lines = t.box.shown["main"].lines          # for whoever cannot scan: the name, the password labelled
        assert t.box.shown["main"].title == "1. Wi-Fi"
        assert "".join(lines[:lines.index("Password:")]) == name and "".join(lines[lines.index("Password:") + 1:]) == password


def test_the_hotspot_pages_are_numbered_steps_and_its_name_breaks_at_its_hyphen():
    with Table(config={"web": {"host": "0.0.0.0"}}) as t:
        folder = Path(t.database).parent
        hotspot(folder, "referee-<nnn>", "k7mq2xv9ab")
        say(folder, "HOTSPOT")
        t.advance(wifi.CHECK_SECONDS)
        t.press("7")
        screen = t.box.shown["main"]
        assert (screen.title, screen.lines) == ("1. Wi-Fi", ("referee-", "432", "Password:", "k7mq2xv9ab"))
        titles = []
        for _ in range(4):
            t.press("D")
            titles.append(t.box.shown["main"].title)
        assert titles == ["2. Scores", "3. At home", "Table view", "1. Wi-Fi"]   # the table view's code: no step


# --- the screens follow the state --------------------------------------------------------------

def assert_fits(t: Table) -> None:
    for screen in t.box.shown.values():
        width = (W - qr_image(screen.qr).width - 4) // 6 if screen.qr else 21
        for text in (screen.title, *screen.lines, key_line(screen.keys)):
            assert len(text) <= width, screen.text


@pytest.mark.parametrize("lang", LANGS)
def test_the_score_log_screen_follows_each_state_within_2_s_in_every_language(lang):
    with Table(lang=lang, config={"web": {"host": "0.0.0.0", "port": 8080}}) as t:
        folder = Path(t.database).parent
        hotspot(folder, "referee-<nnn>", "k7mq2xv9ab")
        t.press("7")
        on_network = t.box.shown["main"].qr
        _ = i18n._
        say(folder, "HOTSPOT")
        t.advance(2.0)
        assert t.box.shown["main"].title == _("{n}. Wi-Fi").format(n=1) and t.box.shown["main"].qr.startswith("WIFI:")
        assert_fits(t)
        t.press("D")
        assert t.box.shown["main"].title == _("{n}. Scores").format(n=2)   # the pages are steps, numbered
        assert scanned(t.image("main")) == ["HTTP://10.41.0.1:8080/"]
        assert_fits(t)
        t.press("D")
        assert t.box.shown["main"].title == _("{n}. At home").format(n=3)
        assert scanned(t.image("main")) == [wifi.COMITUP_PAGE.upper()]
        assert "10.41.0.1/" in t.box.shown["main"].lines
        assert_fits(t)
        t.press("D")
        assert t.box.shown["main"].title == _("Table view")
        assert scanned(t.image("main")) == ["HTTP://10.41.0.1:8080/TABLE"]
        assert_fits(t)
        t.press("D")
        assert t.box.shown["main"].title == _("{n}. Wi-Fi").format(n=1)
        say(folder, "CONNECTING")
        t.advance(2.0)
        assert t.box.shown["main"].qr == "" and _("Joining a known Wi-Fi…").startswith(t.box.shown["main"].lines[0])
        assert_fits(t)
        say(folder, "CONNECTED")
        t.advance(2.0)
        assert t.box.shown["main"].qr == on_network != "HTTP://10.41.0.1:8080/"
    i18n.use("en")


def test_without_the_hotspots_password_the_hotspot_shows_its_pages_but_no_wifi_code():
    with Table(config={"web": {"host": "0.0.0.0"}}) as t:
        say(Path(t.database).parent, "HOTSPOT")
        t.advance(2.0)
        t.press("7")
        assert t.box.shown["main"].qr == "HTTP://10.41.0.1:8080/"
        t.press("D")
        assert t.box.shown["main"].qr == wifi.COMITUP_PAGE.upper()


def test_every_qr_code_follows_a_changed_address():
    with Table(config={"web": {"host": "0.0.0.0", "port": 8080}}) as t:
        t.box.network.look = lambda: Choice("192.168.1.20", "wlan0", "the default route's interface")
        t.advance(wifi.ADDRESS_SECONDS)
        t.start("decrypto")
        t.press("B")                                    # the phone pages: each team's QR code
        before = [scanned(t.image(team)) for team in ("team1", "team2")]
        assert all(found[0].startswith("HTTP://192.168.1.20:8080/T/") for found in before)
        t.box.network.look = lambda: Choice("192.168.1.57", "wlan0", "the default route's interface")  # DHCP
        t.advance(wifi.ADDRESS_SECONDS)
        after = [scanned(t.image(team)) for team in ("team1", "team2")]
        assert [found[0].replace("192.168.1.57", "192.168.1.20") for found in after] == [b[0] for b in before]
        say(Path(t.database).parent, "HOTSPOT")          # and onto the box's own Wi-Fi
        t.advance(wifi.CHECK_SECONDS)
        assert all(scanned(t.image(team))[0].startswith("HTTP://10.41.0.1:8080/T/") for team in ("team1", "team2"))


class Interfaces:
    """What psutil tells of the interfaces, planted: wlan0 at ``wlan0``
    behind the default route, or, with ``refused`` set, the error an ARM
    root under emulation answers psutil's interface query with."""

    def __init__(self, monkeypatch, tmp_path: Path) -> None:
        import psutil
        routes = tmp_path / "route"
        routes.write_text("Iface\tDestination\tGateway\tFlags\tRefCnt\tUse\tMetric\tMask\n"
                          "wlan0\t00000000\t0101A8C0\t0003\t0\t0\t600\t00000000\n")
        monkeypatch.setattr(address, "ROUTES", str(routes))
        self.sys_net = tmp_path / "sys-class-net"       # empty: sysfs cannot stand in for psutil
        monkeypatch.setattr(address, "SYS_NET", str(self.sys_net))
        monkeypatch.setattr(psutil, "net_if_addrs", self.addrs)
        monkeypatch.setattr(psutil, "net_if_stats", self.stats)
        self.wlan0 = "192.168.1.20"
        self.refused = False

    def addrs(self):
        found = {"lo": "127.0.0.1", "wlan0": self.wlan0}
        return {name: [SimpleNamespace(family=socket.AF_INET, address=ip)] for name, ip in found.items()}

    def stats(self):
        if self.refused:
            raise OSError(errno.ENOSYS, "Function not implemented (ioctl SIOCETHTOOL)")
        return {name: SimpleNamespace(isup=True) for name in ("lo", "wlan0")}


def test_where_psutil_is_refused_the_interfaces_flags_in_sysfs_find_the_address(
        monkeypatch, tmp_path, caplog):
    caplog.set_level(logging.INFO, wifi.__name__)
    system = Interfaces(monkeypatch, tmp_path)
    system.refused = True                               # as under qemu-user: no SIOCETHTOOL
    for name, flags in (("lo", "0x9"), ("wlan0", "0x1043")):     # IFF_UP, and IFF_RUNNING for wlan0
        (system.sys_net / name).mkdir(parents=True)
        (system.sys_net / name / "flags").write_text(flags + "\n")
    with Table(config={"web": {"host": "0.0.0.0", "port": 8080}}) as t:
        t.press("7")
        assert scanned(t.image("main")) == ["HTTP://192.168.1.20:8080/"]
        t.advance(60.0)
    assert said(caplog) == []
    (system.sys_net / "wlan0" / "flags").write_text("0x1002\n")  # the link taken down
    assert address.this_box().address == "127.0.0.1"


def said(caplog) -> list[tuple[str, str]]:
    """What the box logged of the network: (level, message); no traceback."""
    found = [r for r in caplog.records if r.name == wifi.__name__]
    assert [r.exc_info for r in found] == [None] * len(found)
    return [(r.levelname, r.getMessage()) for r in found]


def test_a_refused_address_look_up_is_one_line_and_the_qr_code_keeps_the_last_address(
        monkeypatch, tmp_path, caplog):
    caplog.set_level(logging.INFO, wifi.__name__)
    system = Interfaces(monkeypatch, tmp_path)
    with Table(config={"web": {"host": "0.0.0.0", "port": 8080}}) as t:
        t.press("7")                                    # the score log's QR code
        assert scanned(t.image("main")) == ["HTTP://192.168.1.20:8080/"]
        system.refused = True
        t.advance(60.0)                                 # a dozen looks, all refused
        assert scanned(t.image("main")) == ["HTTP://192.168.1.20:8080/"]
        assert said(caplog) == [("WARNING", "wifi: cannot look up the address (OSError: [Errno 38] Function not "
                                 "implemented (ioctl SIOCETHTOOL)); phones are sent to 192.168.1.20 until it can")]
        system.refused, system.wlan0 = False, "192.168.1.57"   # answered again, on a new lease
        t.advance(wifi.ADDRESS_SECONDS)
        assert scanned(t.image("main")) == ["HTTP://192.168.1.57:8080/"]
        system.refused = True
        t.advance(60.0)
        assert scanned(t.image("main")) == ["HTTP://192.168.1.57:8080/"]
        assert [line for _, line in said(caplog)[1:]] == [
            "wifi: the address can be looked up again: 192.168.1.57 (wlan0)",
            "wifi: cannot look up the address (OSError: [Errno 38] Function not implemented (ioctl SIOCETHTOOL)); "
            "phones are sent to 192.168.1.57 until it can"]


def test_refused_from_the_start_the_box_shows_this_machine_as_with_no_network(monkeypatch, tmp_path, caplog):
    caplog.set_level(logging.INFO, wifi.__name__)
    system = Interfaces(monkeypatch, tmp_path)
    system.refused = True
    with Table(config={"web": {"host": "0.0.0.0", "port": 8080}}) as t:
        t.advance(30.0)
        t.press("7")
        t.advance(30.0)
        assert scanned(t.image("main")) == ["HTTP://127.0.0.1:8080/"]
        assert len(said(caplog)) == 1
        system.refused = False
        t.advance(wifi.ADDRESS_SECONDS)
        assert scanned(t.image("main")) == ["HTTP://192.168.1.20:8080/"]
        assert said(caplog)[1:] == [("INFO", "wifi: the address can be looked up again: 192.168.1.20 (wlan0)")]


def test_the_local_name_is_written_under_the_address_where_it_fits_whole(monkeypatch):
    import socket
    monkeypatch.setattr(socket, "gethostname", lambda: "referee")
    with Table(config={"web": {"host": "0.0.0.0", "port": 8080}}) as t:
        say(Path(t.database).parent, "HOTSPOT")
        t.advance(wifi.CHECK_SECONDS)
        t.press("7")
        assert t.box.shown["main"].lines == ("10.41.0.1", ":8080/", "referee.", "local:8080")
        monkeypatch.setattr(socket, "gethostname", lambda: "raspberrypi")
        t.press("D")
        t.press("D")
        t.press("D")                                    # round again: drawn anew
        assert t.box.shown["main"].lines == ("10.41.0.1", ":8080/")   # never cut: a name typed must be whole


# --- the installer ----------------------------------------------------------------------------

def setup(root: Path, user: str = ME) -> subprocess.CompletedProcess:
    return subprocess.run(["sh", str(SETUP), "--root", str(root), "--user", user],
                          capture_output=True, text=True, check=True)


def comitup_conf(root: Path) -> dict[str, str]:
    """/etc/comitup.conf as comitup reads it (one made-up section)."""
    parser = configparser.ConfigParser()
    parser.read_string("[DEFAULT]\n" + (root / "etc" / "comitup.conf").read_text())
    return parser.defaults()


def test_the_installer_writes_comitups_configuration_for_the_box_alone(tmp_path):
    root = tmp_path / "root"
    (root / "etc").mkdir(parents=True)
    (root / "etc" / "comitup.conf").write_text("primary_wifi_device: wlan1\nap_name: comitup-<nnn>\n")
    setup(root)
    conf = comitup_conf(root)
    assert conf["ap_name"] == "referee-<nnn>" and conf["web_service"] == ""
    assert conf["primary_wifi_device"] == "wlan1"                     # the maker's own settings stay
    assert re.fullmatch(r"[a-km-np-z2-9]{10}", conf["ap_password"])   # WPA2: 8 to 63
    callback = Path(conf["external_callback"])
    assert callback == root / "opt" / "referee" / "comitup-callback"
    spot = root / "var" / "lib" / "referee" / "hotspot.toml"
    with open(spot, "rb") as f:
        assert tomllib.load(f) == {"name": "referee-<nnn>", "password": conf["ap_password"],
                                   "comitup": str(root / "var" / "lib" / "comitup" / "comitup.json")}
    for path, mode in [(root / "etc" / "comitup.conf", 0o600), (spot, 0o600), (callback, 0o755)]:
        assert path.stat().st_mode & 0o777 == mode, path
    assert spot.stat().st_uid == callback.stat().st_uid == os.geteuid()   # --user: the service's
    # Again, as after a git pull: the same password, nothing twice.
    setup(root)
    assert comitup_conf(root) == conf
    assert (root / "etc" / "comitup.conf").read_text().count("ap_password") == 1


def test_the_installer_runs_the_setup_before_installing_comitup_and_keeps_its_file():
    text = (ROOT / "systemd" / "install.sh").read_text()
    assert text.index("comitup-setup.sh") < text.index("apt-get install -y -qq \\\n")
    assert "--force-confold" in text and "--no-wifi" in text


def test_the_new_scripts_pass_shellcheck():
    from test_pi import tool
    done = subprocess.run([tool("shellcheck", "shellcheck"), str(SETUP), str(CALLBACK)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout


def test_the_web_unit_lets_in_phones_on_the_hotspot_and_the_box_stays_off_the_network():
    from test_pi import UNIT, WEB_UNIT, unit
    allowed = [ipaddress.ip_network(n) for n in unit(WEB_UNIT)["IPAddressAllow"][0].split()
               if n[0].isdigit() or ":" in n]
    assert any(wifi.HOTSPOT_NETWORK.subnet_of(n) for n in allowed if n.version == 4)
    assert unit(UNIT)["IPAddressDeny"] == ["any"] and "IPAddressAllow" not in unit(UNIT)


# --- comitup calls back; a real box listens ------------------------------------------------------

def as_comitup_calls(script: str, state: str) -> int:
    """As comitup's external_callback: the script and the state alone, as
    the script's owner and group, no supplementary groups, output dropped."""
    stats = os.stat(script)

    def demote():
        if os.geteuid() == 0:
            os.setgroups([])
            os.setgid(stats.st_gid)
            os.setuid(stats.st_uid)
    with open(os.devnull, "w") as nul:
        return subprocess.call([script, state], stdout=nul, stderr=subprocess.STDOUT, preexec_fn=demote,
                               env={"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"})


class Box:
    """``referee run`` on simulated devices, its screens read through the
    control socket, its files where the installer puts them under ``root``."""

    def __init__(self, root: Path, lang: str) -> None:
        import socket
        self.state = root / "var" / "lib" / "referee"
        self.control = str(root / "control.sock")
        self.port = free_port()
        config = root / "config.toml"
        config.write_text(f'database = "{self.state / "referee.db"}"\nlang = "{lang}"\n[dice]\ndriver = "software"\n'
                          f'[web]\nhost = "0.0.0.0"\nport = {self.port}\n[sim]\ncontrol = "{self.control}"\n')
        self.log = open(root / "box.log", "ab")
        self.process = subprocess.Popen([sys.executable, "-m", "referee.cli", "run", "--config", str(config)],
                                        stdin=subprocess.DEVNULL, stdout=self.log, stderr=self.log, cwd=ROOT)
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        until(self._connect, what="the box's start")
        self.hand = self.sock.makefile("rw", encoding="utf-8")

    def _connect(self) -> bool:
        try:
            self.sock.connect(self.control)
        except OSError:
            return False
        return True

    def ask(self, line: str) -> str:
        self.hand.write(line + "\n")
        self.hand.flush()
        return self.hand.readline().strip()

    def screen(self) -> str:
        return json.loads(self.ask("screen main"))

    def close(self) -> None:
        self.hand.close()
        self.sock.close()
        self.process.terminate()
        self.process.wait(10)
        self.log.close()


@pytest.mark.parametrize("lang", LANGS)
def test_each_comitup_state_through_the_registered_callback_reaches_a_running_box(tmp_path, lang):
    root = tmp_path / "root"
    setup(root)
    (root / "var" / "lib" / "comitup").mkdir(parents=True)
    (root / "var" / "lib" / "comitup" / "comitup.json").write_text('{\n  "id": "4321"\n}')
    script = comitup_conf(root)["external_callback"]
    password = comitup_conf(root)["ap_password"]
    i18n.use(lang)
    _ = i18n._
    box = Box(root, lang)
    try:
        assert box.ask("ready") == "ok"
        assert box.ask("press 7") == "ok"                              # the score log
        network = box.screen()
        assert network.startswith(f"[{_('Scores')}]") and "10.41.0.1" not in network
        assert as_comitup_calls(script, "HOTSPOT") == 0
        until(lambda: box.screen().startswith(f"[{_('{n}. Wi-Fi').format(n=1)}]"), what="the hotspot's Wi-Fi code")
        assert f"QR WIFI:T:WPA;S:referee-432;P:{password};;" in box.screen()
        assert box.ask("press D") == "ok"
        assert f"QR HTTP://10.41.0.1:{box.port}/" in box.screen()
        assert box.ask("press D") == "ok"
        assert box.screen().startswith(f"[{_('{n}. At home').format(n=3)}]") and "QR HTTP://10.41.0.1/" in box.screen()
        assert as_comitup_calls(script, "CONNECTING") == 0
        until(lambda: "QR" not in box.screen(), what="the box joining a known Wi-Fi")
        assert box.screen().startswith(f"[{_('Scores')}]")
        assert as_comitup_calls(script, "CONNECTED") == 0
        until(lambda: box.screen() == network, what="the box back on the network")
        assert as_comitup_calls(script, "SOMETHING") == 2                # not a state: nothing written
        assert (root / "var" / "lib" / "referee" / "wifi").read_text() == "CONNECTED\n"
    finally:
        box.close()
        i18n.use("en")


def test_a_state_from_before_this_boot_is_no_word_from_comitup(tmp_path):
    import psutil
    say(tmp_path, "HOTSPOT")
    assert wifi.read_state(str(tmp_path / "wifi")) == "HOTSPOT"
    before = psutil.boot_time() - 60
    os.utime(tmp_path / "wifi", (before, before))        # last evening, at another house
    assert wifi.read_state(str(tmp_path / "wifi")) is None


# --- the doctor ----------------------------------------------------------------------------------

@pytest.mark.parametrize("state, said", [
    ("HOTSPOT", "HOTSPOT: the box's own Wi-Fi referee-432 is open"),
    ("CONNECTING", "CONNECTING: comitup is trying the Wi-Fi networks it knows"),
    ("CONNECTED", "CONNECTED: on a Wi-Fi network the box knows"),
    (None, "no word from comitup in"),
])
def test_the_doctor_reports_the_wifi_state_the_address_and_comitup(tmp_path, state, said):
    root = tmp_path / "root"
    setup(root, "nobody" if os.geteuid() == 0 else ME)   # never root's: comitup would run it as root
    (root / "var" / "lib" / "comitup").mkdir(parents=True)
    (root / "var" / "lib" / "comitup" / "comitup.json").write_text('{"id": "4321"}')
    program = tmp_path / "comitup"
    program.write_text("")
    state_dir = root / "var" / "lib" / "referee"
    if state:
        say(state_dir, state)
    config = parse({"database": str(state_dir / "referee.db"), "web": {"host": "0.0.0.0", "port": 8080}})
    machine = Machine(wait=lambda s: None, comitup=str(program), comitup_conf=str(root / "etc" / "comitup.conf"))
    found = {f.subject: f for f in doctor.examine(config, machine)}
    assert found["Wi-Fi"].status == ("ok" if state else "warn") and said in found["Wi-Fi"].detail
    assert found["comitup"].status == "ok", found["comitup"]
    assert f"hotspot referee-<nnn> with a WPA2 password, states to {root}/opt/referee/comitup-callback" \
        in found["comitup"].detail
    if state == "HOTSPOT":
        assert found["address"].detail.startswith("phones are sent to 10.41.0.1:8080 (the box's own Wi-Fi")
    else:
        assert "10.41.0.1" not in found["address"].detail
    assert ".local:8080" in found["address"].detail or found["address"].status == "warn"


def test_the_doctor_fails_a_comitup_left_open_or_calling_back_as_root(tmp_path):
    program = tmp_path / "comitup"
    program.write_text("")
    conf = tmp_path / "comitup.conf"
    conf.write_text("ap_name: comitup-<nnn>\n")
    conf.chmod(0o644)
    found = doctor.comitup(str(program), str(conf))
    assert found.status == "FAIL"
    assert "readable by others" in found.detail and "not referee-<nnn>" in found.detail
    assert "open to all" in found.detail and "not an executable file" in found.detail
    assert doctor.comitup(str(tmp_path / "none"), str(conf)).status == "warn"   # not installed
