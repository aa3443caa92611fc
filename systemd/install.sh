#!/bin/sh
# Installs Tabletop Referee from this checkout as the service "referee" on
# Raspberry Pi OS (Bookworm or newer).  Safe to run again: after `git pull`
# it updates the program and keeps an edited configuration.
set -eu

PREFIX=/opt/referee
VENV=$PREFIX/venv
ETC=/etc/referee
UNITS="referee referee-web"
CLUB_UNIT=/etc/systemd/system/referee-club.service
MODULES=/etc/modules-load.d/referee.conf
MODULE_LIST="i2c-dev cdc_acm"
PACKAGES="python3-venv python3-pip python3-lgpio fonts-terminus-otb xfonts-base i2c-tools fonts-dejavu-core"
USER_GROUPS="gpio i2c spi dialout"
BEGIN="# >>> tabletop-referee >>>"
END="# <<< tabletop-referee <<<"

usage() {
    cat <<EOF
Usage: sudo systemd/install.sh [--no-boot-config] [--no-wifi]

Installs Tabletop Referee from this checkout as a service:
  - the Debian packages it needs: $PACKAGES
  - a system user "referee" in the groups $USER_GROUPS
  - the program in a virtual environment (nothing goes into the system's
    Python) at the versions of requirements/lock-<machine>.txt, each wheel
    checked against its sha256, and \`referee\` on the PATH.  $VENV is a
    link to the version's venv in $PREFIX/venvs: an update is made beside
    the one in use, swapped in at once, and swapped back if the services
    do not come up on it; the version before is kept for one update
  - $ETC/config.toml from config.pi.toml, unless one is there already
  - the I2C lines in /boot/firmware/config.txt, and the modules i2c-dev
    and cdc_acm (the dice module's USB serial) loaded at every boot
  - comitup, so that phones reach the box at any house: it joins a Wi-Fi
    the box knows or opens the box's own (referee-<nnn>, with a password
    made here), where a phone joins the box to the home Wi-Fi
    (systemd/comitup-setup.sh writes /etc/comitup.conf)
  - the services referee (the box) and referee-web (the phones' pages),
    in /etc/systemd/system, enabled and started (only enabled where
    systemd is not running, as in a card's image being prepared: they
    start at its first boot)

  --no-boot-config   leave /boot/firmware/config.txt alone
  --no-wifi          leave the Wi-Fi alone: no comitup
  -h, --help         show this text

systemd/uninstall.sh takes it away again.
EOF
}

say() { printf '==> %s\n' "$*"; }
die() { printf 'install.sh: %s\n' "$*" >&2; exit 1; }

BOOT_CONFIG=yes
WIFI=yes
for arg in "$@"; do
    case $arg in
        -h|--help) usage; exit 0 ;;
        --no-boot-config) BOOT_CONFIG=no ;;
        --no-wifi) WIFI=no ;;
        *) usage >&2; exit 2 ;;
    esac
done

[ "$(id -u)" -eq 0 ] || die "run it as root: sudo $0"
REPO=$(cd "$(dirname "$0")/.." && pwd)
[ -f "$REPO/config.pi.toml" ] || die "run it from a checkout of the repository"
command -v apt-get >/dev/null || die "this needs Raspberry Pi OS (or Debian): apt-get is missing"

# Where systemd is not running, as in a card's image being prepared in a
# chroot or a container, services are enabled and start at the first boot
# (the test sd_booted() makes).
if [ -d /run/systemd/system ]; then RUNNING=yes; else RUNNING=no; fi

say "Debian packages"
missing=""
for pkg in $PACKAGES; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing="$missing $pkg"
done
LGPIO_WHEEL=""
if [ -n "$missing" ]; then
    apt-get update -qq
    # python3-lgpio, the pin library, is Raspberry Pi OS's own package: plain
    # Debian on a Pi has none, and the venv then takes lgpio's wheel (PyPI
    # has it for 64-bit; piwheels for 32-bit).
    case " $missing " in
        *" python3-lgpio "*)
            if ! apt-cache show python3-lgpio >/dev/null 2>&1; then
                missing=$(echo "$missing" | sed 's/ python3-lgpio//')
                LGPIO_WHEEL=lgpio
                echo "    python3-lgpio is not in this system's archives (it is Raspberry Pi OS's): lgpio comes as a wheel"
            fi ;;
    esac
fi
if [ -n "$missing" ]; then
    echo "    installing:$missing"
    # Without what they only recommend: python3-pip's is a compiler
    # (build-essential, python3-dev), hundreds of MB on the card for a venv
    # installed from wheels only (--only-binary=:all:).
    # shellcheck disable=SC2086  # one word per package
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null
else
    echo "    all there"
fi
python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
    || die "Python 3.11 or newer is needed: Raspberry Pi OS Bookworm has it"

say "User referee"
if ! getent passwd referee >/dev/null; then
    useradd --system --user-group --home-dir /var/lib/referee --no-create-home \
        --shell /usr/sbin/nologin --comment "Tabletop Referee" referee
    echo "    made"
fi
for group in $USER_GROUPS; do
    if getent group "$group" >/dev/null; then
        usermod -a -G "$group" referee
    else
        echo "    no group $group on this system: skipped"
    fi
done
echo "    groups: $(id -nG referee)"

say "Program in $PREFIX/venvs"
# Each version's venv is made whole beside the one the units run, and
# swapped in at once once it is (systemd/venv-swap.sh): a failed pip leaves
# the running version as it was.
# shellcheck disable=SC1091  # checked on its own
. "$REPO/systemd/venv-swap.sh"
# Built from a copy, so that the checkout gets no root-owned build files.
build=$(mktemp -d)
trap 'rm -rf "$build"' EXIT
tar -C "$REPO" --exclude=.git --exclude=.venv --exclude='*.egg-info' --exclude=build -cf - . | tar -C "$build" -xf -
# The versions tried, each wheel checked against its sha256: the lock of
# this machine (scripts/lock.py writes them).
LOCK="$REPO/requirements/lock-$(uname -m).txt"
[ -f "$LOCK" ] || echo "    no lock for $(uname -m): the versions are pyproject.toml's ranges"
# Never a compiler: a Pi Zero 2 W would take an hour, or fail.  On 64-bit
# every package has a wheel on PyPI.  On 32-bit (armv7l) msgspec, Pillow,
# psutil and cbor2 have none there, and Debian's are missing (msgspec) or
# too old (Pillow 9.4), so they come from piwheels, the Raspberry Pi's own:
# Raspberry Pi OS names it in /etc/pip.conf, and it is named here too for
# an image without that file.  hardware/BUILD.md has scripts/check-wheels's
# account of both.
PIWHEELS=https://www.piwheels.org/simple
case $(uname -m) in
    armv7l|armv6l)
        wheels="--extra-index-url $PIWHEELS"
        # Said before pip tries, and in words: pip would retry for minutes
        # and then name one package.
        python3 -c "import urllib.request; urllib.request.urlopen('$PIWHEELS/pip/', timeout=20)" 2>/dev/null \
            || die "32-bit ARM ($(uname -m)): PyPI has no wheel of msgspec, Pillow, psutil or cbor2 for it, and piwheels ($PIWHEELS), where Raspberry Pi OS gets them, cannot be reached from here. Connect the box to the internet and run this again, or write the 64-bit Raspberry Pi OS to the card (every wheel is on PyPI there); Debian's packages do not fill the gap (Bookworm has no python3-msgspec, and its python3-pil 9.4 is older than the Pillow 10 the box needs)."
        ;;
    *) wheels="" ;;
esac
# --only-binary: a package without a wheel stops the install, saying which.
pip_log=$(mktemp)
# shellcheck disable=SC2086  # one word per option
# Failed: the venv not built, or built and lgpio's wheel (when Debian has
# no python3-lgpio) not taken into it.
if ! { NEW=$(venv_build "$PREFIX" "$LOCK" "$build" $wheels 2>"$pip_log") \
        && { [ -z "$LGPIO_WHEEL" ] || "$NEW/bin/python" -m pip install --quiet --disable-pip-version-check --only-binary=:all: $wheels $LGPIO_WHEEL 2>>"$pip_log"; }; }; then
    cat "$pip_log" >&2
    nowheel=$(sed -n 's/.*No matching distribution found for \([^ ]*\).*/\1/p' "$pip_log" | head -n 1)
    [ -z "${NEW:-}" ] || rm -rf "$NEW"
    # A registry out of reach is said so, not taken for a missing wheel.
    if grep -q "Could not fetch URL\|NewConnectionError\|SSLError" "$pip_log"; then
        rm -f "$pip_log"
        die "pip could not reach the package index (its words above): the box needs the internet for this; the version installed before is untouched"
    fi
    rm -f "$pip_log"
    [ -z "$nowheel" ] || die "no wheel of $nowheel for $(uname -m) and Python $(python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])'), and this installer never compiles (a Pi would take an hour, or fail): hardware/BUILD.md, \"Wheels only\", says where the wheels come from"
    die "pip could not install the box (its words above); the version installed before is untouched"
fi
rm -f "$pip_log"
ln -sf "$VENV/bin/referee" /usr/local/bin/referee
echo "    $("$NEW/bin/referee" --version), in $NEW"

say "Configuration $ETC/config.toml"
install -d -m 0755 "$ETC"
if [ ! -e "$ETC/config.toml" ]; then
    install -m 0644 "$REPO/config.pi.toml" "$ETC/config.toml"
    echo "    installed"
elif cmp -s "$REPO/config.pi.toml" "$ETC/config.toml"; then
    echo "    unchanged"
else
    install -m 0644 "$REPO/config.pi.toml" "$ETC/config.pi.toml"
    echo "    kept yours; the shipped one is beside it as config.pi.toml"
fi
"$NEW/bin/referee" check-config "$ETC/config.toml" >/dev/null \
    || { rm -rf "$NEW"; die "fix $ETC/config.toml (the line above says where), then run this again"; }

REBOOT=no
say "I2C"
if [ "$BOOT_CONFIG" = no ]; then
    echo "    /boot/firmware/config.txt left alone (--no-boot-config)"
else
    boot=/boot/firmware/config.txt
    [ -f "$boot" ] || boot=/boot/config.txt
    lines=$("$NEW/bin/referee" doctor --config "$ETC/config.toml" --boot-config)
    if [ ! -f "$boot" ]; then
        echo "    no /boot/firmware/config.txt here; the box needs these lines in it:"
        echo "$lines" | sed 's/^/        /'
    else
        # Our block goes last and opens with [all], so no filter above it
        # ([pi4], [cm5], ...) decides whether it counts.
        new=$(mktemp)
        sed "/^$BEGIN\$/,/^$END\$/d" "$boot" >"$new"
        if [ -n "$lines" ]; then
            printf '%s\n[all]\n%s\n%s\n' "$BEGIN" "$lines" "$END" >>"$new"
        fi
        if cmp -s "$new" "$boot"; then
            echo "    $boot already has its lines"
            rm -f "$new"
        else
            cp "$boot" "$boot.before-referee"
            cat "$new" >"$boot"
            rm -f "$new"
            echo "    added to $boot (the old one: $boot.before-referee):"
            echo "$lines" | sed 's/^/        /'
            REBOOT=yes
        fi
    fi
fi
# cdc_acm before the service starts: systemd turns DeviceAllow=char-ttyACM
# into a device number when the unit starts and silently drops it while the
# module is not loaded (a Pico plugged in later would then be refused).
# shellcheck disable=SC2086  # one word per module
wanted=$(printf '%s\n' $MODULE_LIST)
if ! [ -f "$MODULES" ] || [ "$(cat "$MODULES")" != "$wanted" ]; then
    echo "$wanted" >"$MODULES"
fi
for module in $MODULE_LIST; do
    modprobe "$module" 2>/dev/null || echo "    $module loads at the next boot"
done

say "Wi-Fi anywhere: comitup"
if [ "$WIFI" = no ]; then
    echo "    left alone (--no-wifi)"
else
    before=$(cksum /etc/comitup.conf 2>/dev/null || true)
    # Before the package: comitup starts as it is installed, and must find
    # the hotspot's password already there.
    "$REPO/systemd/comitup-setup.sh" --user referee
    if ! dpkg-query -W -f='${Status}' comitup 2>/dev/null | grep -q "install ok installed"; then
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
            -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold comitup >/dev/null
        if [ "$RUNNING" = yes ]; then
            echo "    comitup installed and started"
        else
            echo "    comitup installed: it starts at the next boot"
        fi
    elif [ "$(cksum /etc/comitup.conf)" != "$before" ]; then
        # Not restarted here: over SSH on the Wi-Fi, that would cut this very session.
        REBOOT=yes
    fi
    [ "$RUNNING" = no ] || systemctl is-active --quiet NetworkManager \
        || echo "    NetworkManager is not running: comitup needs it (Raspberry Pi OS Bookworm has it)"
fi

say "Services"
for unit in $UNITS; do
    install -m 0644 "$REPO/systemd/$unit.service" "/etc/systemd/system/$unit.service"
done
# The club publisher waits for [club] in the configuration (README, "Club night").
install -m 0644 "$REPO/systemd/referee-club.service" "$CLUB_UNIT"
[ "$RUNNING" = no ] || systemctl daemon-reload
for unit in $UNITS; do
    systemctl enable --quiet "$unit.service"
done
# Up: each unit started (both tell systemd when they are ready, so a start
# that fails fails the restart) and still active a while later.
units_up() {
    # shellcheck disable=SC2086  # one word per unit
    systemctl restart $UNITS || return 1
    sleep 10
    for unit in $UNITS; do
        systemctl is-active --quiet "$unit.service" || return 1
    done
}
if [ "$RUNNING" = yes ]; then
    if ! venv_swap "$PREFIX" "$NEW" units_up; then
        die "the new version did not come up (journalctl -u referee -u referee-web says why): the version before runs again"
    fi
    echo "    $UNITS enabled and started on $NEW (the version before is kept for one update)"
else
    venv_swap "$PREFIX" "$NEW" true
    echo "    $UNITS enabled: systemd is not running here, they start at the next boot"
fi
if [ "$RUNNING" = yes ] && systemctl is-enabled --quiet referee-club.service 2>/dev/null; then
    systemctl restart referee-club.service
    echo "    the club publisher restarted"
fi

say "Done"
if [ "$REBOOT" = yes ]; then
    echo "    Reboot once, for the I2C buses and comitup's settings: sudo reboot"
fi
echo "    Check the box:    sudo referee doctor"
echo "    Follow its log:   journalctl -u referee -u referee-web -f"
