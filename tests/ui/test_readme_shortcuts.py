"""The README's keyboard shortcuts against the window: each key it names is bound, each menu key is named."""

from __future__ import annotations

import re
from pathlib import Path

from PySide6.QtGui import QAction, QKeySequence, QShortcut
from PySide6.QtWidgets import QLabel

from tinyrag_desktop.ui.menus import shortcut_rows

README = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
_ARROWS = {"Down": "↓", "Up": "↑", "Left": "←", "Right": "→"}


def _readme_keys() -> set[str]:
    """The key combinations the README names in bold: **Ctrl+Shift+K**, **F1**, **Shift+Down**."""
    keys = re.findall(r"\*\*((?:Ctrl|Alt|Shift)\+[^*\s]+|F\d+)\*\*", README)
    return {re.sub(r"\b(Down|Up|Left|Right)$", lambda m: _ARROWS[m[1]], key) for key in keys}


def _portable(sequence: QKeySequence) -> str:
    return sequence.toString(QKeySequence.SequenceFormat.PortableText)


def _bound_keys(win) -> set[str]:
    """The keys the window acts on: its actions' and shortcuts', the Help list's (keys of a place, such as
    Ctrl+Home in an answer), the labels' Alt+letter, and the platform's Copy."""
    bound = {_portable(key) for action in win.findChildren(QAction) for key in action.shortcuts()}
    bound |= {_portable(shortcut.key()) for shortcut in win.findChildren(QShortcut)}
    for _name, keys in shortcut_rows(win.menus.all):
        bound |= {part.split(" in ")[0].strip() for part in keys.split(" / ")}
    for label in win.findChildren(QLabel):
        letter = re.search(r"&(\w)", label.text().replace("&&", ""))
        if label.buddy() is not None and letter:
            bound.add(f"Alt+{letter[1].upper()}")
    bound |= {_portable(key) for key in QKeySequence.keyBindings(QKeySequence.StandardKey.Copy)}
    return bound - {""}


def test_every_key_the_readme_names_is_bound_in_the_window(make_window, server):
    win = make_window(server.base_url)
    named = _readme_keys()
    assert {"Ctrl+N", "F2", "Ctrl+Shift+K", "Alt+P", "Shift+↓"} <= named  # the README is read as it should be
    assert named - _bound_keys(win) == set()


def test_every_menu_shortcut_is_in_the_readme(make_window, server):
    win = make_window(server.base_url)
    items = [item for menu in win.menuBar().actions() for item in menu.menu().actions()]
    menu_keys = {_portable(item.shortcut()) for item in items if not item.shortcut().isEmpty()}
    assert {"Ctrl+N", "Ctrl+Q", "F1"} <= menu_keys
    said = _readme_keys() | set(re.findall(r"\*\*(Esc)\*\*", README))
    assert menu_keys - said == set()
