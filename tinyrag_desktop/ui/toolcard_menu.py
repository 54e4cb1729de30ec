"""A tool card's context menu: a right click on its header and, on a focused card, the Menu key or Shift+F10.

A card had no menu of its own: the keyboard's menu keys opened nothing on it, while they did on the answer's
text and the message box. It offers what a reader of the card may want elsewhere: to open or close it, and
its input, its result (or why it has none) and all its details as text.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QMenu

from ..tool_words import result_words

if TYPE_CHECKING:
    from .toolcard import ToolCard


def card_menu(card: "ToolCard") -> QMenu:
    """The menu for ``card``: Open or Close details, then a Copy for each part it has."""
    menu = QMenu(card)
    menu.setObjectName("toolCardMenu")
    toggle = menu.addAction("Close details" if card.expanded else "Open details")
    toggle.triggered.connect(lambda: card.set_expanded(not card.expanded))
    menu.addSeparator()
    if card.query:
        _copy(menu, "Copy input", lambda: card.query)
    if card.result:
        _copy(menu, "Copy result", lambda: result_words(card.tool_name, card.result))
    elif card.note:  # failed, skipped, off or denied: why there is no result
        _copy(menu, "Copy reason", lambda: card.note)
    _copy(menu, "Copy all details", card.details_text)
    return menu


def _copy(menu: QMenu, words: str, text: Callable[[], str]) -> None:
    menu.addAction(words).triggered.connect(lambda: QGuiApplication.clipboard().setText(text()))
