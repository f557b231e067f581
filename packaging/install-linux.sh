#!/usr/bin/env bash
# Install bridgeview for the current user and register it with the desktop, so
# double-clicking a .pbn/.lin/.bri/... file opens it in bridgeview.
#
#   packaging/install-linux.sh              pip-install this checkout and register
#   packaging/install-linux.sh --no-pip     only register (bridgeview is already installed)
#   packaging/install-linux.sh --uninstall  remove what the registration added
#
# Options: --no-default (do not make bridgeview the default application for its
# types), --dry-run (print what would be done).  Environment: PYTHON (default
# python3), XDG_DATA_HOME (default ~/.local/share).
#
# The package is installed as a wheel (pip install .), which carries the fonts,
# icons and sample (resources/ as bridgeview/data), so the checkout may be moved
# or deleted afterwards.
# Files written: $XDG_DATA_HOME/applications/bridgeview.desktop,
# $XDG_DATA_HOME/mime/packages/bridgeview-mime.xml and
# $XDG_DATA_HOME/icons/hicolor/{16x16,...,256x256,scalable}/apps/bridgeview.{png,svg}.
# Desktop database tools (update-mime-database, update-desktop-database,
# gtk-update-icon-cache, xdg-mime) are used when present and skipped otherwise.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
PYTHON="${PYTHON:-python3}"
DATA="${XDG_DATA_HOME:-$HOME/.local/share}"
SIZES="16 32 48 64 128 256"

do_pip=1
do_default=1
uninstall=0
dry=0

usage() {
    sed -n '2,20p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
}

for arg in "$@"; do
    case "$arg" in
        --no-pip) do_pip=0 ;;
        --no-default) do_default=0 ;;
        --uninstall) uninstall=1 ;;
        --dry-run) dry=1 ;;
        -h|--help) usage; exit 0 ;;
        *) echo "install-linux.sh: unknown option $arg (try --help)" >&2; exit 2 ;;
    esac
done

say() { printf '%s\n' "$*"; }

# Run a command, or only print it with --dry-run.
run() {
    if [ "$dry" = 1 ]; then
        say "would run: $*"
    else
        "$@"
    fi
}

# Run a desktop database tool if it is installed; a failure is reported, not fatal.
optional() {
    local tool="$1"
    if ! command -v "$tool" >/dev/null 2>&1; then
        say "skipped: $tool is not installed"
        return 0
    fi
    run "$@" || say "warning: $* failed (exit $?); continuing"
}

refresh_databases() {
    if [ -d "$DATA/mime/packages" ]; then
        optional update-mime-database "$DATA/mime"
    fi
    optional update-desktop-database "$DATA/applications"
    if [ -d "$DATA/icons/hicolor" ]; then
        optional gtk-update-icon-cache --force --ignore-theme-index --quiet "$DATA/icons/hicolor"
    fi
}

mime_types() {
    sed -n 's/^MimeType=//p' "$HERE/linux/bridgeview.desktop" | tr ';' '\n' | sed '/^$/d'
}

if [ "$uninstall" = 1 ]; then
    run rm -f "$DATA/applications/bridgeview.desktop" "$DATA/mime/packages/bridgeview-mime.xml" \
        "$DATA/icons/hicolor/scalable/apps/bridgeview.svg"
    for size in $SIZES; do
        run rm -f "$DATA/icons/hicolor/${size}x${size}/apps/bridgeview.png"
    done
    refresh_databases
    say "bridgeview's desktop registration is removed (the Python package is left installed;"
    say "remove it with: $PYTHON -m pip uninstall bridgeview)"
    exit 0
fi

for f in linux/bridgeview.desktop linux/bridgeview-mime.xml; do
    [ -f "$HERE/$f" ] || { echo "install-linux.sh: missing packaging/$f" >&2; exit 1; }
done
for size in $SIZES; do
    [ -f "$ROOT/resources/icons/bridgeview-$size.png" ] || {
        echo "install-linux.sh: missing resources/icons/bridgeview-$size.png (run packaging/make_icons.py)" >&2
        exit 1
    }
done

# 1. the Python package (a wheel: it carries resources/, the checkout is not needed afterwards)
if [ "$do_pip" = 1 ]; then
    user=()
    # --user only outside a virtual environment (pip refuses it inside one)
    if [ "$("$PYTHON" -c 'import sys; print(int(sys.prefix == sys.base_prefix))')" = 1 ]; then
        user=(--user)
    fi
    run "$PYTHON" -m pip install ${user[@]+"${user[@]}"} "$ROOT"
fi

# 2. where the bridgeview command is: the launcher gets its full path, so it runs
#    even when ~/.local/bin or the virtual environment is not on the session's PATH.
#    Look where $PYTHON puts scripts first (a venv's own bin, else the user's), then PATH.
exe=""
while IFS= read -r dir; do
    if [ -n "$dir" ] && [ -x "$dir/bridgeview" ]; then
        exe="$dir/bridgeview"
        break
    fi
done < <("$PYTHON" -c '
import os, sys, sysconfig
system, user = sysconfig.get_path("scripts"), sysconfig.get_path("scripts", os.name + "_user")
print("\n".join([system, user] if sys.prefix != sys.base_prefix else [user, system]))' 2>/dev/null || true)
if [ -z "$exe" ]; then
    exe="$(command -v bridgeview 2>/dev/null || true)"
fi
exec_value="bridgeview"
tryexec_value="bridgeview"
if [ -n "$exe" ]; then
    case "$exe" in
        /*) ;;
        *) exe="$(cd "$(dirname "$exe")" && pwd)/$(basename "$exe")" ;;
    esac
    if printf '%s' "$exe" | grep -q '[^A-Za-z0-9/._+@=, -]'; then
        # the desktop Exec syntax would need escaping; rely on PATH instead
        say "note: $exe contains characters the launcher cannot quote; using plain 'bridgeview'"
    elif printf '%s' "$exe" | grep -q ' '; then
        exec_value="\"$exe\""
        tryexec_value="$exe"
    else
        exec_value="$exe"
        tryexec_value="$exe"
    fi
elif [ "$dry" != 1 ]; then
    echo "install-linux.sh: the bridgeview command was not found; install the package first" >&2
    echo "  ($PYTHON -m pip install $ROOT), or run without --no-pip" >&2
    exit 1
fi

# 3. the launcher, the MIME types and the icons
install_file() {  # src dest
    run mkdir -p "$(dirname "$2")"
    run cp "$1" "$2"
}

desktop="$DATA/applications/bridgeview.desktop"
run mkdir -p "$DATA/applications"
if [ "$dry" = 1 ]; then
    say "would write: $desktop (Exec=$exec_value %F)"
else
    sed -e "s|^Exec=bridgeview |Exec=$exec_value |" -e "s|^TryExec=bridgeview\$|TryExec=$tryexec_value|" \
        "$HERE/linux/bridgeview.desktop" > "$desktop"
fi
install_file "$HERE/linux/bridgeview-mime.xml" "$DATA/mime/packages/bridgeview-mime.xml"
install_file "$ROOT/resources/icons/bridgeview.svg" "$DATA/icons/hicolor/scalable/apps/bridgeview.svg"
for size in $SIZES; do
    install_file "$ROOT/resources/icons/bridgeview-$size.png" "$DATA/icons/hicolor/${size}x${size}/apps/bridgeview.png"
done

# 4. tell the desktop
refresh_databases
if [ "$do_default" = 1 ]; then
    if command -v xdg-mime >/dev/null 2>&1; then
        for type in $(mime_types); do
            run xdg-mime default bridgeview.desktop "$type" || say "warning: xdg-mime default failed for $type"
        done
    else
        say "skipped: xdg-mime is not installed (bridgeview is offered for its files, not made the default)"
    fi
fi

say "bridgeview is registered in $DATA: double-click a deal file, or run: $exec_value FILE..."
