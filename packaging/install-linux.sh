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
rm -rf "$prefix/lib/tinyrag-desktop"
cp -R "$dist" "$prefix/lib/tinyrag-desktop"
ln -sf "$prefix/lib/tinyrag-desktop/tinyrag-desktop" "$prefix/bin/tinyrag-desktop"
sed "s|^Exec=.*|Exec=$prefix/bin/tinyrag-desktop|; s|^TryExec=.*|TryExec=$prefix/bin/tinyrag-desktop|" \
    "$entry" > "$prefix/share/applications/tinyrag-desktop.desktop"
for size in 16 24 32 48 64 128 256 512; do
    dir="$prefix/share/icons/hicolor/${size}x${size}/apps"
    mkdir -p "$dir"
    cp "$icons/tinyrag-desktop-$size.png" "$dir/tinyrag-desktop.png"
done
command -v update-desktop-database >/dev/null 2>&1 && update-desktop-database "$prefix/share/applications" || true
echo "Installed: $prefix/bin/tinyrag-desktop and a menu entry 'tinyRAG Desktop'."
