# shellcheck shell=sh
# Sourced by install.sh (and its tests): the program's virtual environments,
# each made whole beside the one in use, and swapped in at once.
#
# $PREFIX/venvs/<stamp> holds each version; $PREFIX/venv is a symbolic link
# to the one the units run (their ExecStart names $PREFIX/venv/bin/referee),
# replaced by one rename, so no start ever meets a half-installed venv.  A
# venv is made where it stays: its scripts name their Python by path.  The
# one before is kept for one update, to swap back to.

# venv_build PREFIX LOCK SOURCE [PIP OPTIONS...]: a new venv with the
# lock's packages (each wheel checked against its sha256) and SOURCE (the
# project; "" for none) without further dependencies; prints its path.  On
# failure nothing is left of it, and the venv in use is untouched.
venv_build() {
    vb_prefix=$1 vb_lock=$2 vb_source=$3
    shift 3
    vb_new="$vb_prefix/venvs/$(date +%Y%m%d-%H%M%S)-$$"
    mkdir -p "$vb_prefix/venvs"
    # The system's packages stay visible: lgpio comes from Debian, and so
    # does pip (python3-pip), which installs into the venv it is run by.  A
    # venv of its own pip would cost ensurepip's install on every update,
    # seconds of a Pi's CPU for a tool the units never use.
    python3 -m venv --system-site-packages --without-pip "$vb_new" >&2 || { rm -rf "$vb_new"; return 1; }
    if [ -f "$vb_lock" ]; then
        "$vb_new/bin/python" -m pip install --quiet --disable-pip-version-check --require-hashes --only-binary=:all: \
            "$@" -r "$vb_lock" >&2 || { rm -rf "$vb_new"; return 1; }
        vb_deps=--no-deps
    else
        vb_deps=""   # no lock for this machine: pyproject.toml's ranges
    fi
    if [ -n "$vb_source" ]; then
        # shellcheck disable=SC2086  # no word, or one
        "$vb_new/bin/python" -m pip install --quiet --disable-pip-version-check --only-binary=:all: $vb_deps "$@" \
            "$vb_source" >&2 || { rm -rf "$vb_new"; return 1; }
    fi
    echo "$vb_new"
}

# venv_point PREFIX TARGET: $PREFIX/venv names TARGET from now on, at once.
venv_point() {
    ln -sfn "$2" "$1/venv.next" && mv -T "$1/venv.next" "$1/venv"
}

# venv_swap PREFIX NEW UP...: point the units at NEW and run the command UP
# (restart the units and say whether they came up).  If they did not, the
# venv before is pointed at again, UP run again, and the answer is 1; the
# venv before NEW's is kept for one update, older ones go.
venv_swap() {
    vs_prefix=$1 vs_new=$2
    shift 2
    if [ -d "$vs_prefix/venv" ] && [ ! -L "$vs_prefix/venv" ]; then
        # An installer of before made the venv a folder: it can only come
        # back where it was made, so it is not swapped back to.
        rm -rf "$vs_prefix/venv"
    fi
    vs_old=$(readlink "$vs_prefix/venv" 2>/dev/null || true)
    venv_point "$vs_prefix" "$vs_new"
    if "$@"; then
        for vs_venv in "$vs_prefix"/venvs/*; do
            [ "$vs_venv" = "$vs_new" ] || [ "$vs_venv" = "$vs_old" ] || rm -rf "$vs_venv"
        done
        return 0
    fi
    if [ -n "$vs_old" ] && [ -d "$vs_old" ]; then
        venv_point "$vs_prefix" "$vs_old"
        "$@" || true
    fi
    rm -rf "$vs_new"
    return 1
}
