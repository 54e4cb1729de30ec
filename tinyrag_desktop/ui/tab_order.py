"""Where Tab stops in the main window, in its layout order, whatever order the widgets were made in."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget, QMainWindow, QWidget


def tab_stops(window: QMainWindow, regions: list[QWidget], dock: QDockWidget | None) -> list[QWidget]:
    """The chats, the chat's header, a notice, the conversation and its answers from the top, the message box
    (``regions``, in that order), the knowledge panel where it is docked (first when on the left), the status
    bar's model button. Within each part, Qt's own order (answers arrange theirs: cards, code links, sources,
    then Copy and Regenerate)."""
    regions = list(regions)
    if dock is not None and not dock.isFloating():  # a floating panel is a window of its own
        area = window.dockWidgetArea(dock)
        first = area in (Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.TopDockWidgetArea)
        regions = [dock, *regions] if first else [*regions, dock]
    regions.append(window.statusBar())
    groups: list[list[QWidget]] = [[] for _ in regions]
    tab = Qt.FocusPolicy.TabFocus
    widget = window.nextInFocusChain()
    while widget is not window and widget is not None:
        # Stops of their own only: a widget with a focus proxy (the panel, its tabs) hands it on.
        if widget.focusPolicy() & tab and widget.focusProxy() is None and widget.isVisible() \
                and widget.isEnabled():
            for group, region in zip(groups, regions):
                if region.isAncestorOf(widget):
                    group.append(widget)
                    break
        widget = widget.nextInFocusChain()
    return [w for group in groups for w in _by_message(group)]


def _by_message(stops: list[QWidget]) -> list[QWidget]:
    """``stops`` with those in the conversation in the order of its messages, each message's own kept as they
    are: earlier messages shown later ("Show earlier messages") were made last, and Tab came to them after the
    newer ones below."""
    places = [(i, _message_of(w)) for i, w in enumerate(stops)]
    inside = [(i, at) for i, at in places if at is not None]
    out = list(stops)
    for slot, (i, _at) in zip([i for i, _at in inside], sorted(inside, key=lambda place: place[1])):
        out[slot] = stops[i]
    return out


def _message_of(widget: QWidget) -> int | None:
    """The place in the conversation's column of the message ``widget`` is in (None: it is in none)."""
    child, parent = widget, widget.parentWidget()
    while parent is not None and parent.objectName() != "chatColumn":
        child, parent = parent, parent.parentWidget()
    return parent.layout().indexOf(child) if parent is not None and parent.layout() is not None else None
