"""Render resources/icons/app.svg into the app icons each OS wants: PNGs, a Windows .ico, a macOS .icns.

Run once after the SVG changes (the outputs are committed, so a build needs no image library):
    QT_QPA_PLATFORM=offscreen .venv/bin/python packaging/make_icons.py
Both container formats hold plain PNG images, which every supported Windows and macOS version reads.
"""

from __future__ import annotations

import struct
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SVG = ROOT / "resources" / "icons" / "app.svg"
OUT = ROOT / "resources" / "icons" / "app"
PNG_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)
ICNS_TYPES = {16: b"icp4", 32: b"icp5", 64: b"icp6", 128: b"ic07", 256: b"ic08", 512: b"ic09"}


def render_png(size: int) -> bytes:
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QRectF, Qt
    from PySide6.QtGui import QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    image = QImage(size, size, QImage.Format.Format_ARGB32)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    QSvgRenderer(str(SVG)).render(painter, QRectF(0, 0, size, size))
    painter.end()
    data = QByteArray()
    buf = QBuffer(data)
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buf, "PNG")
    return bytes(data.data())


def ico(pngs: dict[int, bytes]) -> bytes:
    """An ICO file whose entries are PNG images (Windows Vista and later)."""
    header = struct.pack("<HHH", 0, 1, len(pngs))
    offset = 6 + 16 * len(pngs)
    entries, blobs = b"", b""
    for size, png in sorted(pngs.items()):
        side = 0 if size >= 256 else size  # 0 means 256 in the directory entry
        entries += struct.pack("<BBBBHHII", side, side, 0, 0, 1, 32, len(png), offset)
        blobs += png
        offset += len(png)
    return header + entries + blobs


def icns(pngs: dict[int, bytes]) -> bytes:
    """An ICNS file with PNG-typed entries (macOS 10.7 and later)."""
    body = b"".join(ICNS_TYPES[s] + struct.pack(">I", 8 + len(p)) + p for s, p in sorted(pngs.items()))
    return b"icns" + struct.pack(">I", 8 + len(body)) + body


def main() -> int:
    from PySide6.QtGui import QGuiApplication

    app = QGuiApplication.instance() or QGuiApplication(sys.argv[:1])  # noqa: F841 (painting needs one)
    OUT.mkdir(parents=True, exist_ok=True)
    pngs = {size: render_png(size) for size in PNG_SIZES}
    for size, png in pngs.items():
        (OUT / f"tinyrag-desktop-{size}.png").write_bytes(png)
    (OUT / "tinyrag-desktop.ico").write_bytes(ico({s: pngs[s] for s in ICO_SIZES}))
    (OUT / "tinyrag-desktop.icns").write_bytes(icns({s: pngs[s] for s in ICNS_TYPES}))
    print(f"wrote {len(pngs)} PNGs, tinyrag-desktop.ico and tinyrag-desktop.icns to {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
