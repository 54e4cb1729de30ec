"""What the status bar says of a change to the chats that failed goes once a later change works: "A chat needs
a title; an empty one was given." stayed its 8 seconds after a rename that worked and a delete."""

from __future__ import annotations

from PySide6.QtCore import Qt

EMPTY_TITLE = "A chat needs a title; an empty one was given."


def _window(make_window):
    win = make_window("http://127.0.0.1:9/v1")
    for title in ("Oldest", "Middle", "Newest"):
        win.store.new_chat(title=title)
    win._refresh_chats()
    return win, dict(zip(win.sidebar.titles(), win.sidebar.ids()))


def test_a_rename_that_works_takes_away_why_one_did_not(make_window, qtbot):
    win, ids = _window(make_window)
    win.rename_chat(ids["Middle"], "   ")
    assert win.statusBar().currentMessage() == EMPTY_TITLE
    win.rename_chat(ids["Middle"], "Renamed")
    assert win.statusBar().currentMessage() == ""
    qtbot.waitUntil(lambda: "Renamed" in win.sidebar.titles())


def test_a_delete_takes_it_away_too_but_not_a_newer_message(make_window, qtbot):
    win, ids = _window(make_window)
    win.rename_chat(ids["Middle"], "")
    assert win.statusBar().currentMessage() == EMPTY_TITLE
    win.activateWindow()
    win.sidebar.list.setFocus()
    qtbot.waitUntil(win.sidebar.list.hasFocus)
    qtbot.keyClick(win.sidebar.list, Qt.Key.Key_Delete)
    assert win.statusBar().currentMessage() == ""
    # a message about something else, shown since, stays
    win.rename_chat(ids["Oldest"], "")
    win.statusBar().showMessage("Copied to the clipboard", 3000)
    win.delete_chat(ids["Oldest"])
    assert win.statusBar().currentMessage() == "Copied to the clipboard"
