"""The card image's build (scripts/make-image), on what it writes: the base
it accepts, the settings it puts in the image's root.  Building and booting
an image takes minutes as root (`make image`); these check its logic."""
from __future__ import annotations

import base64
import configparser
import hashlib
import importlib.machinery
import importlib.util
import lzma
import pathlib
import shutil
import subprocess
import zipfile

import pytest

from referee.tools import doctor

ROOT = pathlib.Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def make_image():
    loader = importlib.machinery.SourceFileLoader("make_image", str(ROOT / "scripts" / "make-image"))
    module = importlib.util.module_from_spec(importlib.util.spec_from_loader("make_image", loader))
    loader.exec_module(module)
    return module


def unit(text: str) -> configparser.ConfigParser:
    parsed = configparser.ConfigParser(strict=False, interpolation=None)
    parsed.optionxform = str
    parsed.read_string(text)
    return parsed


def test_a_downloaded_base_is_checked_by_its_sha256_and_unpacked(make_image, tmp_path, monkeypatch):
    monkeypatch.setattr(make_image, "BUILD", tmp_path / "build")
    card = b"\0" * 4096 + b"a card's partitions"
    packed = tmp_path / "2025-05-13-raspios-bookworm-arm64-lite.img.xz"
    packed.write_bytes(lzma.compress(card))
    digest = hashlib.sha256(packed.read_bytes()).hexdigest()
    plain = make_image.fetch_base(str(packed), digest)
    assert plain.name == "2025-05-13-raspios-bookworm-arm64-lite.img" and plain.read_bytes() == card
    with pytest.raises(SystemExit, match=f"has sha256 {digest}, not 0000"):
        make_image.fetch_base(str(packed), "0000")


def test_a_base_named_by_its_address_needs_its_sha256(make_image, tmp_path, monkeypatch):
    monkeypatch.setattr(make_image, "BUILD", tmp_path / "build")
    with pytest.raises(SystemExit, match="needs its sha256"):
        make_image.fetch_base("https://downloads.raspberrypi.com/raspios_lite_arm64/images/x.img.xz", None)


RASPIOS_FSTAB = ("proc            /proc           proc    defaults          0       0\n"
                 "PARTUUID=0c3ab52a-01  /boot/firmware  vfat    defaults          0       2\n"
                 "PARTUUID=0c3ab52a-02  /               ext4    defaults,noatime  0       1\n")


def test_the_score_logs_partition_is_mounted_where_the_service_keeps_it(make_image):
    fstab = make_image.with_data(RASPIOS_FSTAB)
    assert fstab.startswith(RASPIOS_FSTAB)
    assert fstab.splitlines()[-1].split() == ["LABEL=referee-data", doctor.SERVICE_STATE, "ext4",
                                              "defaults,noatime", "0", "2"]
    assert make_image.with_data(fstab) == fstab   # built again: one line
    grow = unit(make_image.GROW_UNIT)
    # Grown before either unit opens the score log, once the partition is mounted.
    assert {"referee.service", "referee-web.service"} <= set(grow["Unit"]["Before"].split())
    assert grow["Unit"]["Requires"] == "var-lib-referee.mount"
    mount = subprocess.run(["systemd-escape", "--path", "--suffix=mount", doctor.SERVICE_STATE],
                           capture_output=True, text=True, check=True).stdout.strip()
    assert mount == grow["Unit"]["Requires"]


def test_the_grow_script_passes_shellcheck_and_grows_partition_then_file_system(make_image, tmp_path):
    script = tmp_path / "referee-grow-data"
    script.write_text(make_image.GROW_DATA)
    shellcheck = shutil.which("shellcheck")
    if shellcheck:
        done = subprocess.run([shellcheck, str(script)], capture_output=True, text=True, check=False)
        assert done.returncode == 0, done.stdout
    lines = [line for line in make_image.GROW_DATA.splitlines() if line and not line.startswith("#")]
    steps = [line.split()[0] if not line.startswith("echo") else "sfdisk" for line in lines[1:]]
    assert steps[-3:] == ["sfdisk", "partx", "resize2fs"]
    assert "referee-data" in make_image.GROW_DATA


def test_ssh_starts_only_when_the_boot_partition_asks_for_it(make_image):
    ssh = unit(make_image.SSH_UNIT)
    assert ssh["Unit"]["ConditionPathExists"] == "/boot/firmware/ssh"
    assert ssh["Service"]["ExecStart"] == "/bin/systemctl start ssh.service"


def test_the_root_is_overlaid_and_the_other_partitions_are_not(make_image):
    # overlayroot's own format: a shell assignment; recurse=0 leaves the boot
    # and data partitions written through.
    assert make_image.OVERLAYROOT == 'overlayroot="tmpfs:recurse=0"\n'


def test_the_stand_in_has_raspberry_pi_os_lites_layout(make_image):
    assert make_image.BOOT_START * make_image.SECTOR == 4 * 2**20
    assert make_image.BOOT_MB == 512
    assert "auto_initramfs=1" in make_image.STANDIN_CONFIG.splitlines()


def test_the_images_venv_is_checked_against_the_aarch64_lock_pin_by_pin(make_image):
    lock = (ROOT / "requirements" / "lock-aarch64.txt").read_text()
    pins = [line.split(" ")[0] for line in lock.splitlines() if "==" in line]
    as_locked = [*pins, "tabletop-referee==0.1", "lgpio==0.2.2.0", "pip==23.0.1"]
    assert make_image.from_lock(as_locked) == []
    # pip's names as the venv spells them (Pillow, not pillow) are the lock's.
    assert make_image.from_lock([p.replace("pillow", "Pillow") for p in as_locked]) == []
    name, version = pins[0].split("==")
    drifted = [f"{name}==0.0.1", *pins[1:]]
    assert make_image.from_lock(drifted) == [f"{name}=={version} (the image has 0.0.1)"]
    assert make_image.from_lock(pins[1:]) == [f"{name}=={version} (the image has none)"]


def a_wheel(folder: pathlib.Path, name: str, version: str) -> pathlib.Path:
    """A wheel of one empty module ``name`` at ``version``, as an index serves it."""
    path = folder / f"{name}-{version}-py3-none-any.whl"
    info = f"{name}-{version}.dist-info"
    files = {f"{name}/__init__.py": "",
             f"{info}/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n",
             f"{info}/WHEEL": "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n"}
    record = [f"{n},sha256={base64.urlsafe_b64encode(hashlib.sha256(t.encode()).digest()).rstrip(b'=').decode()},"
              f"{len(t.encode())}" for n, t in files.items()]
    with zipfile.ZipFile(path, "w") as z:
        for n, t in files.items():
            z.writestr(n, t)
        z.writestr(f"{info}/RECORD", "\n".join([*record, f"{info}/RECORD,,"]) + "\n")
    return path


def test_the_images_venv_as_the_installer_makes_it_is_read_with_setuptools(make_image, tmp_path):
    # The installer's venv (systemd/venv-swap.sh): no pip of its own, the
    # system's pip installing into it, setuptools among the lock's pins.
    # What the image's check reads from it has every pin, setuptools too.
    index = tmp_path / "index"
    index.mkdir()
    made = [a_wheel(index, "setuptools", "99.1"), a_wheel(index, "tinyunit", "1.0")]
    lock = tmp_path / "lock.txt"
    lock.write_text("".join(f"{w.name.split('-')[0]}=={w.name.split('-')[1]} "
                            f"--hash=sha256:{hashlib.sha256(w.read_bytes()).hexdigest()}\n" for w in made))
    built = subprocess.run(["sh", "-c", f'. "{ROOT / "systemd" / "venv-swap.sh"}"; '
                            'venv_build "$1" "$2" "" --no-index --find-links "$3"', "sh",
                            str(tmp_path / "opt"), str(lock), str(index)],
                           capture_output=True, text=True, timeout=300, check=False)
    assert built.returncode == 0, built.stderr
    venv = pathlib.Path(built.stdout.strip())
    assert not list(venv.glob("lib/python*/site-packages/pip"))   # no pip of its own
    freeze = subprocess.run([str(venv / "bin" / "python"), *make_image.FREEZE], capture_output=True, text=True,
                            timeout=300, check=True).stdout.splitlines()
    assert sorted(freeze) == ["setuptools==99.1", "tinyunit==1.0"]
    assert make_image.from_lock(freeze, lock) == []
