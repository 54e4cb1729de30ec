"""Qt's font database warnings stay off the terminal: Settings lists the Wikipedia languages in their own
scripts, and on a system without a Devanagari font Qt said seven times that OpenType support was missing."""

from __future__ import annotations

from PySide6.QtCore import QtMsgType, qInstallMessageHandler

def test_opening_settings_says_nothing_about_missing_fonts(make_window, server, qtbot):
    said: list[tuple[str, str]] = []

    def handler(kind: QtMsgType, context, message: str) -> None:
        said.append((getattr(context, "category", None) or "", message))

    previous = qInstallMessageHandler(handler)
    try:
        win = make_window(server.base_url)
        dialog = win.open_settings()
        qtbot.waitExposed(dialog)
        dialog.grab()  # drawn, with the languages' names measured
        dialog.reject()
    finally:
        qInstallMessageHandler(previous)
    assert not [(category, message) for category, message in said if category.startswith("qt.text.font")]
