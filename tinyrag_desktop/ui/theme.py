"""Light and dark themes: a Fusion palette plus the style sheet in ``resources/themes``, and the fonts."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication

from .icons import resource
from .markdown_render import DARK, LIGHT, Palette


def is_dark(theme: str) -> bool:
    """``system`` follows the desktop's colour scheme where Qt can read it, else light."""
    if theme in ("light", "dark"):
        return theme == "dark"
    hints = QGuiApplication.styleHints()
    return hints.colorScheme() == Qt.ColorScheme.Dark


def _variables(name: str) -> dict[str, str]:
    out: dict[str, str] = {}
    path = resource("themes", f"{name}.qss")
    if path.is_file():
        for line in path.read_text(encoding="utf-8").splitlines():
            key, sep, value = line.partition("=")
            if sep and key.startswith("@"):
                out[key.strip()] = value.strip()
    return out


def style_sheet(dark: bool) -> str:
    base = resource("themes", "base.qss")
    if not base.is_file():
        return ""
    text = base.read_text(encoding="utf-8")
    # Longest names first, so @errorbg is not read as @error followed by "bg".
    for key, value in sorted(_variables("dark" if dark else "light").items(), key=lambda kv: -len(kv[0])):
        text = text.replace(key, value)
    return text


def _palette(dark: bool) -> QPalette:
    pal = QPalette()
    v = _variables("dark" if dark else "light")
    bg = QColor(v.get("@bg", "#1e2027" if dark else "#ffffff"))
    text = QColor(v.get("@text", "#e6e8ee" if dark else "#1d2330"))
    base = QColor(v.get("@input", bg.name()))
    alt = QColor(v.get("@side", bg.name()))
    accent = QColor(v.get("@accent", "#2563eb"))
    muted = QColor(v.get("@muted", "#6b7280"))
    role = QPalette.ColorRole
    for r, c in ((role.Window, bg), (role.WindowText, text), (role.Base, base), (role.AlternateBase, alt),
                 (role.Text, text), (role.Button, alt), (role.ButtonText, text), (role.ToolTipBase, alt),
                 (role.ToolTipText, text), (role.Highlight, accent), (role.HighlightedText, QColor("white")),
                 (role.Link, accent), (role.PlaceholderText, muted)):
        pal.setColor(r, c)
    pal.setColor(QPalette.ColorGroup.Disabled, role.Text, muted)
    pal.setColor(QPalette.ColorGroup.Disabled, role.ButtonText, muted)
    pal.setColor(QPalette.ColorGroup.Disabled, role.WindowText, muted)
    return pal


def apply_theme(app: QApplication, theme: str) -> Palette:
    """Apply ``light``, ``dark`` or ``system``; returns the colours rendered Markdown should use."""
    dark = is_dark(theme)
    app.setStyle("Fusion")  # the same look on every platform, and it honours the palette fully
    app.setPalette(_palette(dark))
    app.setStyleSheet(style_sheet(dark))
    return DARK if dark else LIGHT
