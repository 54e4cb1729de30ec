#!/usr/bin/env sh
# Install a built bundle for the current user: the folder under ~/.local/lib, a launcher on the PATH, the
# .desktop entry and the icons, so the app shows in the desktop's menu. Undo with --uninstall.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
dist="${DIST:-$here/dist/tinyrag-desktop}"
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
mkdir -p "$prefix/lib" "$prefix/bin" "$prefix/share/applications"
rm -rf "$prefix/lib/tinyrag-desktop"
cp -R "$dist" "$prefix/lib/tinyrag-desktop"
ln -sf "$prefix/lib/tinyrag-desktop/tinyrag-desktop" "$prefix/bin/tinyrag-desktop"
sed "s|^Exec=.*|Exec=$prefix/bin/tinyrag-desktop|; s|^TryExec=.*|TryExec=$prefix/bin/tinyrag-desktop|" \
    "$here/packaging/tinyrag-desktop.desktop" > "$prefix/share/applications/tinyrag-desktop.desktop"
for size in 16 24 32 48 64 128 256 512; do
    dir="$prefix/share/icons/hicolor/${size}x${size}/apps"
    mkdir -p "$dir"
    cp "$here/resources/icons/app/tinyrag-desktop-$size.png" "$dir/tinyrag-desktop.png"
done
command -v update-desktop-database >/dev/null 2>&1 && update-desktop-database "$prefix/share/applications" || true
echo "Installed: $prefix/bin/tinyrag-desktop and a menu entry 'tinyRAG Desktop'."
