"""What a screen reader is told of widgets Qt cannot describe by itself: a painted card that opens and closes
is a button with an open or closed state, and a change away from the focus (a tool done) is announced.

Qt describes a QFrame as a frame ("Border") with only a "SetFocus" action, whatever it does on Space. The
accessibility factory below gives the classes registered with :func:`expander` a button's role, the
expandable and expanded states, and Press and Toggle actions that open or close them as Space does.

Orca 43 takes no announcements, and Qt's AT-SPI bridge passes no expanded or collapsed change on: what the user
waits for where the focus is goes into the focused widget's description too (:func:`tell`), which Orca says as
it changes. Where Qt speaks AT-SPI (Linux), :func:`announce` shows a notification instead, which every Orca says
as it appears: the answer finished or failed, a tool done, were said by none before Orca 45.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import (QAccessible, QAccessibleActionInterface, QAccessibleAnnouncementEvent,
                           QAccessibleEvent, QAccessibleStateChangeEvent)
from PySide6.QtWidgets import QAccessibleWidget, QApplication, QLineEdit, QWidget

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

    def text(self, kind: QAccessible.Text) -> str:
        said = super().text(kind)
        if kind == QAccessible.Text.Name and not said and hasattr(self.widget(), "text"):
            return self.widget().text().replace("&", "")  # a button's own words, as Qt's button says them
        return said

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


class _Notice(QWidget):
    """A piece of news for a screen reader (AT-SPI): a notification, said by Orca as it is shown."""

    def __init__(self, parent: QWidget, text: str) -> None:
        super().__init__(parent)
        self.setObjectName("screenReaderNotice")
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.setGeometry(0, 0, 1, 1)  # paints nothing: it is there to be shown, not seen
        self.setAccessibleName(text)
        self.show()  # the "showing" change Orca says a notification on


# Notices kept per window: Orca reads a notice's name when it comes to its event, later; one notice said again
# with new words was read with the newest (a tool done, then the answer finished: "Answer finished" alone).
_NOTICES_KEPT = 4


def _factory(key: str, obj: QObject) -> QAccessibleWidget | None:
    # Called for every object a screen reader asks about: anything not registered is left to Qt at once.
    if key in _EXPANDERS and isinstance(obj, QWidget):
        return _ExpanderInterface(obj)
    if key == _Notice.__name__ and isinstance(obj, QWidget):
        return QAccessibleWidget(obj, QAccessible.Role.Notification)
    return None


def _install() -> None:
    global _installed
    if not _installed:
        QAccessible.installFactory(_factory)
        _installed = True


def expander(cls: type[QWidget]) -> type[QWidget]:
    """Class decorator: describe ``cls`` (with ``expanded`` and ``set_expanded``) as a button that opens."""
    _EXPANDERS.add(cls.__name__)
    _install()
    return cls


def caret_placed(edit: QLineEdit) -> QLineEdit:
    """``edit`` with its caret placed now, before it first takes the focus: Qt places it there, and tells of it
    before of the focus, and Orca 43 then took the box for the focus already and said nothing of it, neither its
    name nor "text" (an empty box at its first focus: the find bar, the API key)."""
    edit.setCursorPosition(edit.cursorPosition())
    return edit


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


def announce(widget: QWidget, text: str, *, urgent: bool = False) -> None:
    """Have a screen reader say ``text`` when it is done speaking (``urgent``: at once), for a change away from
    the focus: as a notification where Qt speaks AT-SPI (see the module's docstring), else an announcement."""
    if by_notification():
        if QAccessible.isActive():  # a screen reader listens
            _install()
            window = widget.window()
            kept = window.findChildren(_Notice, options=Qt.FindChildOption.FindDirectChildrenOnly)
            for old in kept[:-_NOTICES_KEPT + 1]:
                old.setParent(None)
                old.deleteLater()
            _Notice(window, text)
        return
    event = QAccessibleAnnouncementEvent(widget, text)
    if urgent:
        event.setPoliteness(QAccessible.AnnouncementPoliteness.Assertive)
    _send(event)


def by_notification() -> bool:
    """Whether news is said by a notification: Qt's AT-SPI bridge, on X11 or Wayland (Orca before 45 ignores
    Qt's announcements there); elsewhere (Windows, macOS, offscreen) Qt's announcement is said."""
    return QApplication.platformName() in ("xcb", "wayland")


def _send(event: QAccessibleEvent) -> None:
    """Hand ``event`` to Qt's accessibility (nothing happens while no screen reader listens)."""
    QAccessible.updateAccessibility(event)
