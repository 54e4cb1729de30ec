"""The chat header's persona box, with its label: as wide as a short name, however long the persona's is."""

from __future__ import annotations

from typing import Collection, Iterable

from PySide6.QtCore import QEvent, QObject, QSize, Qt
from PySide6.QtWidgets import QComboBox, QLabel, QStyle, QStyleOptionComboBox, QSizePolicy, QStylePainter, QToolButton, QWidget

from .plain_text import plain_tip

# Characters of a persona's name the box shows; a longer one is cut with "…" (the open list shows it whole).
# An 80-character name made the box 525 px wide and cut the chat's title to "Please explain in …".
PERSONA_SHOWN = 22
_ABOUT = "The persona (system prompt) this chat answers with"


class _PersonaBox(QComboBox):
    """A combo box that cuts a long current name with "…" (Qt's own cuts it off mid-letter at its edge)."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.view().setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.currentTextChanged.connect(
            lambda name: self.setToolTip(plain_tip(f"{name}\n{_ABOUT}") if name else _ABOUT))

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        # as wide as the longest name, up to about PERSONA_SHOWN letters
        hint = super().sizeHint()
        return QSize(min(hint.width(), PERSONA_SHOWN * self.fontMetrics().averageCharWidth() + 40), hint.height())

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        # A narrow window may squeeze it to a few letters: the narrowest window stays as narrow as it was.
        hint = super().minimumSizeHint()
        return QSize(min(hint.width(), 8 * self.fontMetrics().averageCharWidth() + 40), hint.height())

    def showPopup(self) -> None:  # noqa: N802 - Qt's name
        # the open list as wide as its longest name (up to the window's width), not as the box
        widest = max((self.fontMetrics().horizontalAdvance(self.itemText(i)) for i in range(self.count())),
                     default=0)
        room = self.window().width() - 40 if self.window() is not None else widest
        self.view().setMinimumWidth(max(self.width(), min(widest + 40, room)))
        super().showPopup()

    def paintEvent(self, event) -> None:  # noqa: N802 - Qt's name
        painter = QStylePainter(self)
        option = QStyleOptionComboBox()
        self.initStyleOption(option)
        painter.drawComplexControl(QStyle.ComplexControl.CC_ComboBox, option)
        field = self.style().subControlRect(QStyle.ComplexControl.CC_ComboBox, option,
                                            QStyle.SubControl.SC_ComboBoxEditField, self)
        option.currentText = self.fontMetrics().elidedText(option.currentText, Qt.TextElideMode.ElideRight,
                                                           max(0, field.width() - 4))
        painter.drawControl(QStyle.ControlElement.CE_ComboBoxLabel, option)


def persona_box(parent: QWidget) -> tuple[QLabel, QComboBox]:
    """The "Persona" label (Alt+P goes to the box) and the box choosing the chat's persona."""
    box = _PersonaBox(parent)
    box.setObjectName("persona")
    box.setAccessibleName("Persona for this chat")
    box.setToolTip(_ABOUT)
    label = QLabel("&Persona", parent)
    label.setBuddy(box)
    return label, box


def fill_personas(box: QComboBox, names: Iterable[str]) -> str:
    """Offer ``names`` in the persona box, keeping its choice; the name of the chosen persona when it is no
    longer among them (the box then shows the first, as the chat now answers), else ""."""
    current = box.currentText()
    box.blockSignals(True)
    box.clear()
    box.addItems(list(names))
    box.blockSignals(False)
    if current and box.findText(current) >= 0:
        box.setCurrentText(current)
        return ""
    return current


def persona_gone_words(removed: str, now: str) -> str:
    """Said as a chat whose persona was removed is opened: short, the names cut, to be read whole in the
    status bar of an 800 px window (the longer words ended in "answers as “Assista…")."""
    return f"Persona “{_short(removed)}” removed: this chat uses “{_short(now)}”."


def _short(name: str, most: int = 16) -> str:
    return name if len(name) <= most else name[:most - 1].rstrip() + "…"


# Settings that take effect as they are saved; every other one from the next question on.
APPLIED_AT_ONCE = frozenset({"theme"})


def settings_saved_words(removed: str, now: str, changed: Collection[str] = ()) -> str:
    """What Save in Settings did; with the open chat's persona ``removed``, that the header switched to another,
    in words short enough for the status bar of an 800-pixel window (it was cut there). ``changed``: the
    settings whose values changed; "they apply to the next question" only when one of them does (after a
    theme changed, it was said of the theme already shown)."""
    if removed and now:
        return f"{persona_gone_words(removed, now)} Settings saved."
    at_once, later = bool(APPLIED_AT_ONCE & set(changed)), bool(set(changed) - APPLIED_AT_ONCE)
    if at_once and later:
        return "Settings saved; the theme applies now, the rest to the next question."
    if at_once:
        return "Settings saved; the new theme applies now."
    if later:
        return "Settings saved; they apply to the next question."
    return "Settings saved."


def edit_personas_button(parent: QWidget) -> QToolButton:
    """The small "Edit…" button beside the persona box: Settings at its Personas tab (the box offered the
    personas, and nothing there said where they are written)."""
    button = _Squeezable(parent)
    button.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)  # a tool button's is Fixed
    button.setObjectName("editPersonas")
    button.setText("Edit…")
    button.setAutoRaise(True)
    button.setToolTip("Edit personas (Settings → Personas)")
    button.setAccessibleName("Edit personas")
    # shown where there is room for it: in the narrowest window it asked 50 px more of its least width
    fits = _ShownBesideTitle(button, EDIT_TITLE_ROOM)
    parent.installEventFilter(fits)
    return button


# px the chat's title keeps beside the Edit… button, or the button is hidden. A header of 560 px or more
# showed it: in an 800 px window, with the chats list, the header is 546 px and the title had 300 to spare.
EDIT_TITLE_ROOM = 200


class _Squeezable(QToolButton):
    """A tool button that asks nothing of its row's least width (hidden before it would be squeezed): the
    window is narrowed before the header learns its new width."""

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        return QSize(0, super().minimumSizeHint().height())


class _ShownBesideTitle(QObject):
    """Shows ``widget`` only while the row it is in leaves the row's stretching widget (the chat's title) at
    least ``room`` px beside it and the row's other widgets at their preferred widths (a long persona's name
    widens its box)."""

    def __init__(self, widget: QWidget, room: int) -> None:
        super().__init__(widget)
        self._widget, self._room = widget, room

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt's name
        if event.type() in (QEvent.Type.Resize, QEvent.Type.LayoutRequest) and isinstance(watched, QWidget):
            fits = self._fits(watched)
            if fits is not None and fits != self._widget.isVisibleTo(watched):
                self._widget.setVisible(fits)
        return False

    def _fits(self, row: QWidget) -> bool | None:
        layout = row.layout()
        if layout is None:
            return None
        margins = layout.contentsMargins()
        used, shown = margins.left() + margins.right(), 0
        for index in range(layout.count()):
            widget = layout.itemAt(index).widget()
            if widget is None or widget is not self._widget and widget.isHidden():
                continue
            shown += 1
            if layout.stretch(index) == 0:
                used += widget.sizeHint().width()
        used += max(0, layout.spacing()) * max(0, shown - 1)
        return row.width() - used >= self._room
