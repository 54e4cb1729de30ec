"""What a screen reader is told of widgets Qt cannot describe by itself: a painted card that opens and closes
is a button with an open or closed state, and a change away from the focus (a tool done) is announced.

Qt describes a QFrame as a frame ("Border") with only a "SetFocus" action, whatever it does on Space. The
accessibility factory below gives the classes registered with :func:`expander` a button's role, the
expandable and expanded states, and Press and Toggle actions that open or close them as Space does.

Orca 43 takes no announcements, and Qt's AT-SPI bridge passes no expanded or collapsed change on: what the user
waits for where the focus is goes into the focused widget's description too (:func:`tell`), which Orca says as
it changes.
"""

from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtGui import (QAccessible, QAccessibleActionInterface, QAccessibleAnnouncementEvent,
                           QAccessibleEvent, QAccessibleStateChangeEvent)
from PySide6.QtWidgets import QAccessibleWidget, QWidget

_EXPANDERS: set[str] = set()  # class names (Qt's, as the factory is given them) of widgets that open and close
_installed = False


class _ExpanderInterface(QAccessibleWidget):
    """A widget with ``expanded`` and ``set_expanded(on)``, described as a button that opens and closes."""

    def __init__(self, widget: QWidget) -> None:
        super().__init__(widget, QAccessible.Role.Button)

    def state(self) -> QAccessible.State:
        state = super().state()
        on = bool(getattr(self.widget(), "expanded", False))
        state.expandable = True
        state.expanded = on
        state.collapsed = not on
        return state

    def actionNames(self) -> list[str]:  # noqa: N802 - Qt's name
        return [QAccessibleActionInterface.pressAction(), QAccessibleActionInterface.toggleAction(),
                *super().actionNames()]

    def localizedActionDescription(self, name: str) -> str:  # noqa: N802 - Qt's name
        if name in self._opening():
            return "Hide the details" if getattr(self.widget(), "expanded", False) else "Show the details"
        return super().localizedActionDescription(name)

    def keyBindingsForAction(self, name: str) -> list[str]:  # noqa: N802 - Qt's name
        return ["Space"] if name in self._opening() else super().keyBindingsForAction(name)

    def doAction(self, name: str) -> None:  # noqa: N802 - Qt's name
        widget = self.widget()
        if name in self._opening() and widget is not None:
            widget.set_expanded(not widget.expanded)
            return
        super().doAction(name)

    @staticmethod
    def _opening() -> tuple[str, str]:
        return QAccessibleActionInterface.pressAction(), QAccessibleActionInterface.toggleAction()


def _factory(key: str, obj: QObject) -> QAccessibleWidget | None:
    # Called for every object a screen reader asks about: anything not registered is left to Qt at once.
    if key in _EXPANDERS and isinstance(obj, QWidget):
        return _ExpanderInterface(obj)
    return None


def expander(cls: type[QWidget]) -> type[QWidget]:
    """Class decorator: describe ``cls`` (with ``expanded`` and ``set_expanded``) as a button that opens."""
    global _installed
    _EXPANDERS.add(cls.__name__)
    if not _installed:
        QAccessible.installFactory(_factory)
        _installed = True
    return cls


def expanded_changed(widget: QWidget) -> None:
    """Tell a screen reader that ``widget`` was opened or closed (it reads the new state)."""
    changed = QAccessible.State()
    changed.expanded = True
    changed.collapsed = True
    _send(QAccessibleStateChangeEvent(widget, changed))


def tell(widget: QWidget, text: str) -> None:
    """Have a screen reader say ``text``, news for the user working in ``widget`` (a count as they search): as
    its description, which Orca says as it changes on the focus (Orca 43 takes no announcements), and, with the
    focus elsewhere (on a button beside it), as an announcement. Said once either way."""
    if widget.accessibleDescription() == text:
        return
    widget.setAccessibleDescription(text)
    if text and not widget.hasFocus():
        announce(widget, text)


def announce(widget: QWidget, text: str) -> None:
    """Have a screen reader say ``text`` when it is done speaking (for a change away from the focus)."""
    _send(QAccessibleAnnouncementEvent(widget, text))


def _send(event: QAccessibleEvent) -> None:
    """Hand ``event`` to Qt's accessibility (nothing happens while no screen reader listens)."""
    QAccessible.updateAccessibility(event)
