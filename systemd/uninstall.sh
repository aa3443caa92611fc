#!/bin/sh
# Takes away what systemd/install.sh put on the Pi.  The score log and the
# configuration stay unless --purge is given.
set -eu

PREFIX=/opt/referee
ETC=/etc/referee
STATE=/var/lib/referee
UNITS="referee-club referee-web referee"
MODULES=/etc/modules-load.d/referee.conf
BEGIN="# >>> tabletop-referee >>>"
END="# <<< tabletop-referee <<<"

usage() {
    cat <<EOF
Usage: sudo systemd/uninstall.sh [--purge]

Stops and removes the services referee and referee-web, the program in $PREFIX,
/usr/local/bin/referee, the list of modules loaded at boot (i2c-dev,
cdc_acm) and the lines the installer added to /boot/firmware/config.txt.  Kept: the score log in $STATE,
the configuration in $ETC and the user referee, so that installing
again carries on where the box was.  The Debian packages stay too: other
programs may use them.

  --purge      remove the score log, the configuration and the user as well
  -h, --help   show this text
EOF
}

say() { printf '==> %s\n' "$*"; }
die() { printf 'uninstall.sh: %s\n' "$*" >&2; exit 1; }

PURGE=no
for arg in "$@"; do
    case $arg in
        -h|--help) usage; exit 0 ;;
        --purge) PURGE=yes ;;
        *) usage >&2; exit 2 ;;
    esac
done
[ "$(id -u)" -eq 0 ] || die "run it as root: sudo $0"

say "Services"
for unit in $UNITS; do
    if [ -f "/etc/systemd/system/$unit.service" ]; then
        systemctl disable --now --quiet "$unit.service" || true
        rm -f "/etc/systemd/system/$unit.service"
        echo "    $unit stopped and removed"
    else
        echo "    $unit not installed"
    fi
done
systemctl daemon-reload

say "Program"
rm -rf "$PREFIX"
if [ -L /usr/local/bin/referee ]; then
    rm -f /usr/local/bin/referee
fi
echo "    $PREFIX and /usr/local/bin/referee removed"

say "I2C and the dice module's USB serial"
rm -f "$MODULES"
for boot in /boot/firmware/config.txt /boot/config.txt; do
    if [ -f "$boot" ] && grep -qxF "$BEGIN" "$boot"; then
        sed -i "/^$BEGIN\$/,/^$END\$/d" "$boot"
        echo "    our lines taken out of $boot (the buses stay on until the next reboot)"
    fi
done

if [ "$PURGE" = yes ]; then
    say "Score log, configuration and user (--purge)"
    rm -rf "$STATE" "$ETC"
    if getent passwd referee >/dev/null; then
        userdel referee
    fi
    echo "    removed; comitup and /etc/comitup.conf stay (sudo apt purge comitup takes them)"
else
    say "Kept"
    echo "    the score log in $STATE and the configuration in $ETC"
    echo "    comitup and /etc/comitup.conf, the box's own Wi-Fi (sudo apt purge comitup takes them)"
    echo "    (sudo systemd/uninstall.sh --purge removes them and the user referee)"
fi
