#!/usr/bin/env sh
# Install a built bundle for the current user: the folder under ~/.local/lib, a launcher on the PATH, the
# .desktop entry and the icons, so the app shows in the desktop's menu. Undo with --uninstall.
# Runs from a source checkout (packaging/install-linux.sh, after `make bundle`) and from the bundle's own
# folder, where the spec puts a copy beside the executable (./install-linux.sh in the unpacked archive).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
if [ -x "$here/tinyrag-desktop" ] && [ -d "$here/_internal" ]; then
    dist="${DIST:-$here}"                          # in the bundle folder
else
    dist="${DIST:-$here/../dist/tinyrag-desktop}"  # in packaging/ of a source checkout
fi
prefix="${PREFIX:-$HOME/.local}"
case "$prefix" in
    *"
"*) echo "The install folder's name has a line break, which a menu entry cannot name: choose another PREFIX." >&2
        exit 1 ;;
esac

# A path as the .desktop file's Exec= takes it (Desktop Entry spec, "The Exec key"): in double quotes, with
# ", `, $ and \ escaped by a backslash and % doubled (it starts a field code); then each backslash doubled once
# more, as the value is a string whose escapes are read first. Unquoted, a folder with a space in its name
# split the command in two, and the menu entry started nothing.
desktop_exec() {
    printf '%s' "$1" | sed -e 's/[\\"`$]/\\&/g' -e 's/%/%%/g' -e 's/\\/\\\\/g' | { printf '"'; cat; printf '"'; }
}

# A path as a .desktop string value (TryExec=) takes it: its backslashes doubled.
desktop_string() {
    printf '%s' "$1" | sed -e 's/\\/\\\\/g'
}

# Whether the folder $1 is on PATH, by its real path (a link to it counts).
on_path() {
    real=$(cd "$1" && pwd -P) || return 1
    old_ifs=$IFS
    IFS=:
    set -f
    for dir in $PATH; do
        if [ -n "$dir" ] && [ "$(cd "$dir" 2>/dev/null && pwd -P)" = "$real" ]; then
            IFS=$old_ifs
            set +f
            return 0
        fi
    done
    IFS=$old_ifs
    set +f
    return 1
}

if [ "${1:-}" = "--uninstall" ]; then
    rm -rf "$prefix/lib/tinyrag-desktop" "$prefix/bin/tinyrag-desktop" \
        "$prefix/share/applications/tinyrag-desktop.desktop"
    for size in 16 24 32 48 64 128 256 512; do
        rm -f "$prefix/share/icons/hicolor/${size}x${size}/apps/tinyrag-desktop.png"
    done
    echo "tinyRAG Desktop removed from $prefix (your data folder is kept)."
    exit 0
fi
[ -x "$dist/tinyrag-desktop" ] || { echo "No bundle at $dist: run 'make bundle' first." >&2; exit 1; }
# the icons the bundle carries (_internal/resources), else the checkout's; the menu entry beside this script
icons="$dist/_internal/resources/icons/app"
[ -f "$icons/tinyrag-desktop-256.png" ] || icons="$here/../resources/icons/app"
entry="$here/tinyrag-desktop.desktop"
[ -f "$entry" ] || entry="$dist/tinyrag-desktop.desktop"
[ -f "$entry" ] || { echo "No tinyrag-desktop.desktop beside $0 or in $dist." >&2; exit 1; }
[ -f "$icons/tinyrag-desktop-256.png" ] || { echo "No icons in $dist/_internal/resources/icons/app." >&2; exit 1; }
if [ -d "$prefix/lib/tinyrag-desktop" ] && \
    [ "$(cd "$dist" && pwd -P)" = "$(cd "$prefix/lib/tinyrag-desktop" && pwd -P)" ]; then
    echo "$dist is the installed copy already; run this script from the unpacked archive." >&2
    exit 1
fi
mkdir -p "$prefix/lib" "$prefix/bin" "$prefix/share/applications"
prefix=$(cd "$prefix" && pwd)  # PREFIX=inst: the link and the menu entry need the whole path
rm -rf "$prefix/lib/tinyrag-desktop"
cp -R "$dist" "$prefix/lib/tinyrag-desktop"
ln -sf "$prefix/lib/tinyrag-desktop/tinyrag-desktop" "$prefix/bin/tinyrag-desktop"
# awk reads the paths from its environment as they are (-v would read backslashes in them as escapes)
EXEC_LINE="Exec=$(desktop_exec "$prefix/bin/tinyrag-desktop")" \
TRY_EXEC_LINE="TryExec=$(desktop_string "$prefix/bin/tinyrag-desktop")" \
    awk '/^Exec=/ { print ENVIRON["EXEC_LINE"]; next } /^TryExec=/ { print ENVIRON["TRY_EXEC_LINE"]; next } { print }' \
    "$entry" > "$prefix/share/applications/tinyrag-desktop.desktop"
for size in 16 24 32 48 64 128 256 512; do
    dir="$prefix/share/icons/hicolor/${size}x${size}/apps"
    mkdir -p "$dir"
    cp "$icons/tinyrag-desktop-$size.png" "$dir/tinyrag-desktop.png"
done
command -v update-desktop-database >/dev/null 2>&1 && update-desktop-database "$prefix/share/applications" || true
echo "Installed: $prefix/bin/tinyrag-desktop and a menu entry 'tinyRAG Desktop'."
case "$prefix" in  # the spec's %% in Exec=: GLib looks for the program under that name, and finds none
    *%*) echo "Note: GNOME's menu does not start programs from a folder with % in its name: install with another PREFIX to see the entry there." >&2 ;;
esac
on_path "$prefix/bin" || echo "Note: $prefix/bin is not on your PATH, so typing tinyrag-desktop in a terminal will not find it (the menu entry works): add that folder to PATH in your shell's profile." >&2
