"""Help opens the user guide, the data folder and the log folder; F1's list names each key once, by heading."""

from __future__ import annotations

from collections import Counter

import pytest
from PySide6.QtGui import QAction, QDesktopServices
from PySide6.QtWidgets import QDialog, QLabel

from tinyrag_desktop.firstrun import guide_files
from tinyrag_desktop.ui.menus import shortcut_groups, shortcut_rows

from tests.url_handler import OpenedUrls


@pytest.fixture
def opened():
    """The file: addresses the window asks the desktop to open, kept instead of opened."""
    handler = OpenedUrls()
    QDesktopServices.setUrlHandler("file", handler, "open")
    try:
        yield handler
    finally:
        QDesktopServices.unsetUrlHandler("file")


def _help(win) -> dict[str, QAction]:
    menu = next(a.menu() for a in win.menuBar().actions() if a.text() == "&Help")
    return {a.text().replace("&", ""): a for a in menu.actions() if not a.isSeparator()}


def test_help_opens_the_guide_the_data_folder_and_the_log_folder(make_window, server, opened, tmp_path):
    win = make_window(server.base_url, data_dir=tmp_path / "data")
    items = _help(win)
    assert list(items) == ["User guide", "Keyboard shortcuts", "Open data folder", "Open log folder",
                           "About tinyRAG Desktop"]
    items["User guide"].trigger()
    items["Open data folder"].trigger()
    items["Open log folder"].trigger()
    assert [url.toLocalFile() for url in opened.urls] == [
        str(guide_files()[0]), str(tmp_path / "data"), str(tmp_path / "data" / "logs")]
    assert guide_files()[0].name == "01-getting-started.md"
    assert (tmp_path / "data" / "logs").is_dir()  # made if the log had not been written yet


def test_f1_names_each_key_once_under_headings(make_window, server, qtbot):
    win = make_window(server.base_url)
    rows = shortcut_rows(win.menus.all)
    names = [name for name, _keys in rows]
    assert [name for name, count in Counter(names).items() if count > 1] == []
    f2 = [name for name, keys in rows if "F2" in keys]
    assert f2 == ["Rename chat"]  # "Rename / delete the selected chat: F2 / Delete" said F2 a second time
    assert dict(rows)["Delete the chat selected in the chats list"] == "Delete"
    groups = shortcut_groups(win.menus.all)
    assert [heading for heading, _rows in groups] == ["Asking", "Chats", "Finding", "Moving around", "Window"]
    assert sorted(row for _heading, group in groups for row in group) == sorted(rows)  # every row, once
    assert dict(groups)["Chats"][:2] == [("New chat", "Ctrl+N"), ("Search chats", "Ctrl+K")]
    with qtbot.waitSignal(win.findChild(QAction, "actionShortcuts").triggered):
        win.findChild(QAction, "actionShortcuts").trigger()
    dialog = win.findChild(QDialog, "shortcutsDialog")
    text = dialog.findChild(QLabel).text()
    assert "<b>Finding</b>" in text and text.index("<b>Asking</b>") < text.index("<b>Chats</b>")
    dialog.reject()
