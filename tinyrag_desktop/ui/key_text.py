"""Shortcut keys in words as the platform writes them: Ctrl+R on Linux and Windows, ⌘R on macOS.

Qt binds "Ctrl" to the Command key on macOS, so a hint written by hand ("Regenerate (Ctrl+R)") named a key
that does nothing there. Every hint that names a Ctrl shortcut asks Qt for the key's native text instead,
as the menus themselves do.
"""

from __future__ import annotations

from PySide6.QtGui import QKeySequence


def key_text(*keys: str | QKeySequence.StandardKey) -> str:
    """``keys`` (portable text such as "Ctrl+Shift+C", or a standard key: its first binding) in the
    platform's own words, several joined by " / " as the Help list writes them."""
    return " / ".join(QKeySequence(key).toString(QKeySequence.SequenceFormat.NativeText) for key in keys)
