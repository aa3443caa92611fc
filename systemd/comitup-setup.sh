#!/bin/sh
# The box's Wi-Fi at any house (hardware/BUILD.md, "Game night away from
# home"): comitup's configuration, the box's copy of its hotspot's name and
# password, and the callback through which comitup tells the box its state.
# systemd/install.sh runs it before it installs comitup, so that comitup
# never starts with a hotspot open to all.  Safe to run again: the password
# made the first time stays.
set -eu

ROOT=
OWNER=referee
STATE=/var/lib/referee
PREFIX=/opt/referee
AP_NAME="referee-<nnn>"
# No l, o, 0 or 1: read off a small screen, nothing is mistaken.
ALPHABET=abcdefghijkmnpqrstuvwxyz23456789
BEGIN="# >>> tabletop-referee >>>"
END="# <<< tabletop-referee <<<"
OURS='^[[:space:]]*(ap_name|ap_password|web_service|external_callback)[[:space:]]*[:=]'

usage() {
    cat <<USAGE
Usage: sudo systemd/comitup-setup.sh [--user NAME] [--root DIR]

Writes what comitup and the box need for the box's own Wi-Fi:
  /etc/comitup.conf             (root's, 0600) ap_name $AP_NAME, ap_password
                                made here once, external_callback, web_service
                                empty; other settings in it are kept
  $STATE/hotspot.toml (NAME's, 0600) the hotspot's name and password,
                                for the Wi-Fi QR code on the box's screen
  $PREFIX/comitup-callback  (NAME's, 0755) tells the box comitup's state

  --user NAME   the service's user, who owns the box's files and as whom
                comitup runs the callback (default: $OWNER)
  --root DIR    write everything under DIR, and name the files there
                (to check the result without touching this machine)
  -h, --help    show this text
USAGE
}

die() { printf 'comitup-setup.sh: %s\n' "$*" >&2; exit 1; }

while [ $# -gt 0 ]; do
    case $1 in
        -h|--help) usage; exit 0 ;;
        --user) [ $# -ge 2 ] || { usage >&2; exit 2; }; OWNER=$2; shift ;;
        --root) [ $# -ge 2 ] || { usage >&2; exit 2; }; mkdir -p "$2"; ROOT=$(cd "$2" && pwd); shift ;;
        *) usage >&2; exit 2 ;;
    esac
    shift
done
REPO=$(cd "$(dirname "$0")/.." && pwd)
GROUP=$(id -gn "$OWNER") || die "no user $OWNER"
CONF=$ROOT/etc/comitup.conf
CALLBACK=$ROOT$PREFIX/comitup-callback
HOTSPOT=$ROOT$STATE/hotspot.toml

install -d -m 0755 "$ROOT/etc" "$ROOT$PREFIX"
install -d -m 0755 -o "$OWNER" -g "$GROUP" "$ROOT$STATE"
umask 077

password=""
if [ -f "$CONF" ]; then
    password=$(sed -n -E 's/^[[:space:]]*ap_password[[:space:]]*[:=][[:space:]]*(.*[^[:space:]])[[:space:]]*$/\1/p' "$CONF" | tail -n 1)
fi
if [ ${#password} -lt 8 ] || [ ${#password} -gt 63 ]; then
    # WPA2 takes 8 to 63 characters; 10 of 32 are 50 bits, and fit the screen.
    password=$(LC_ALL=C tr -dc "$ALPHABET" </dev/urandom | head -c 10)
    echo "    a new password for the box's own Wi-Fi"
fi
case $password in
    *\'*|*%*) die "ap_password in $CONF has a ' or a %: choose one without, or delete the line for a new one" ;;
esac

new=$(mktemp "$CONF.XXXXXX")
if [ -f "$CONF" ]; then
    sed "/^$BEGIN\$/,/^$END\$/d" "$CONF" | grep -viE "$OURS" >"$new" || true
fi
cat >>"$new" <<CONF
$BEGIN
# The box's own Wi-Fi when no known one is in reach (systemd/comitup-setup.sh;
# the box keeps a copy of the name and password in $HOTSPOT).
ap_name: $AP_NAME
ap_password: $password
# Tells the box each state: HOTSPOT, CONNECTING or CONNECTED.
external_callback: $CALLBACK
# Empty: the score log's pages serve beside comitup's in every state.
web_service:
$END
CONF
chmod 0600 "$new"
if [ -f "$CONF" ] && cmp -s "$new" "$CONF"; then
    rm -f "$new"
    echo "    $CONF unchanged"
else
    mv -f "$new" "$CONF"
    echo "    $CONF written"
fi

new=$(mktemp "$HOTSPOT.XXXXXX")
cat >"$new" <<TOML
# The box's own Wi-Fi, as in /etc/comitup.conf, which only root may read:
# the Wi-Fi QR code on the score log screen.  systemd/comitup-setup.sh wrote it.
name = '$AP_NAME'
password = '$password'
# Where comitup keeps the number that stands for <nnn>.
comitup = '$ROOT/var/lib/comitup/comitup.json'
TOML
chown "$OWNER:$GROUP" "$new"
chmod 0600 "$new"
mv -f "$new" "$HOTSPOT"

new=$(mktemp "$CALLBACK.XXXXXX")
sed "s|^STATE_DIR=.*|STATE_DIR=$ROOT$STATE|" "$REPO/systemd/comitup-callback" >"$new"
# comitup runs it as the file's owner: the service's user, never root.
chown "$OWNER:$GROUP" "$new"
chmod 0755 "$new"
mv -f "$new" "$CALLBACK"
echo "    $HOTSPOT and $CALLBACK in place"
