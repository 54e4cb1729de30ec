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


def test_every_menu_item_the_readme_names_is_in_that_menu(make_window, server):
    # "Edit → Edit last question", "Help → Open log folder", "File → Export chat as Markdown…"
    win = make_window(server.base_url)
    menus = {menu.text().replace("&", ""): {item.text().replace("&", "").split("\t")[0]
                                            for item in menu.menu().actions()}
             for menu in win.menuBar().actions()}
    named = re.findall(r"\b(File|Edit|View|Help) → ([A-Z][^(),;*:\n]*?)(?=\s*[(),;*:\n]|\s+or\b|\s+\(|$)", README)
    assert len(named) >= 6, named
    missing = [f"{menu} → {item}" for menu, item in named
               if not any(text.rstrip("…") == item.strip().rstrip("…") for text in menus[menu])]
    assert missing == [], (missing, menus)


def test_the_settings_tabs_and_fields_the_readme_names_are_the_dialogs(qapp):
    # "Settings → Limits: Context to use", "Settings → Tools", "“Longest reply (tokens)” in Settings → Advanced"
    from tinyrag_desktop.settings import defaults
    from tinyrag_desktop.ui.settings_dialog import SettingsDialog
    from tinyrag_desktop.ui.settings_fields import label_for

    dialog = SettingsDialog(defaults())
    try:
        tabs = dialog._tabs
        fields = {tabs.tabText(i).replace("&", ""): set() for i in range(tabs.count())}
        advanced = sorted(name for name, index in dialog._tab_of.items() if tabs.tabText(index) == "Advanced")
        for name, index in dialog._tab_of.items():
            fields[tabs.tabText(index).replace("&", "")].add(label_for(name))
    finally:
        dialog.deleteLater()
    said = re.findall(r"Settings → ([A-Z][a-z]+)(?:: ([^)|]*))?", README)
    assert len(said) >= 6, said
    for tab, labels in said:
        assert tab in fields, (tab, list(fields))
        for label in filter(None, labels.split(", ")):
            assert any(field.startswith(label) for field in fields[tab]), (tab, label, fields[tab])
    for label in re.findall(r"[*'“]+([A-Z][^*'”]+)[*'”]+ in Settings", README):
        assert any(field.startswith(label) for labels in fields.values() for field in labels), label
    listed = re.search(r"has the tabs (.*?) and (\w+)\.", " ".join(README.split()))
    assert listed, "the Settings section no longer lists the tabs"
    names = re.sub(r" \([^)]*\)", "", listed[1]).split(", ") + [listed[2]]
    assert names == list(fields)
    assert sorted(re.findall(r"`(\w+)`", listed[1].split("Advanced (", 1)[1])) == advanced
