"""A selection dragged with the mouse across an answer's segments, and the text menu's Select All of the answer.

Qt's text view selects in its own text only: a drag from a paragraph down into a code block the streaming view
had cut into the next segment (answer_rendering.py) stopped at the paragraph's end. The segment a drag began in keeps
the mouse (as Qt gives it) and, while the mouse is over another segment of the answer, hands the selection to the
answer's :class:`reading.Span`, the one the keyboard's Shift+Down and Ctrl+A use: the segments between are
selected whole, a card between them with them, and Copy copies all of it in order. Back over the segment it
began in, the drag is Qt's own again (and a double-click's word by word selection always is). At the chat's top
or bottom edge the conversation scrolls on while the button is held. :class:`DragAcross` is mixed into
``MarkdownSegment``.
"""

from __future__ import annotations

from typing import Protocol

from PySide6.QtCore import QPoint, QPointF, Qt, QTimer
from PySide6.QtWidgets import QApplication, QMenu, QScrollArea, QTextEdit, QWidget

EDGE_STEP_MOST = 40  # pixels the conversation scrolls at a time while a drag is past its edge
EDGE_REPEAT_MS = 40  # how often it scrolls on while the mouse stays there


class SpanLike(Protocol):
    """What a segment needs of the answer's selection across its segments (reading.Span)."""

    def segments(self) -> list[QTextEdit]: ...
    def drag(self, began: QTextEdit, anchor: int, seg: QTextEdit, position: int) -> None: ...
    def drop(self, seg: QTextEdit) -> None: ...
    def clear(self) -> None: ...
    def active(self) -> bool: ...


def point_at(segments: list[QTextEdit], where: QPointF) -> tuple[QTextEdit, int] | None:
    """The segment of ``segments`` (shown, top to bottom) and the place in its text at the screen point ``where``,
    in reading order: a point below a segment's text (a card, the gap, below the answer) is its end, a point
    above the first segment its start. None when no segment is shown."""
    shown = [seg for seg in segments if seg.isVisible()]
    if not shown:
        return None
    seg = shown[0]
    for candidate in shown:
        if candidate.viewport().mapFromGlobal(where).y() >= 0:
            seg = candidate
    local = seg.viewport().mapFromGlobal(where)
    if local.y() < 0:
        return seg, 0
    if local.y() >= seg.viewport().height():
        return seg, seg.document().characterCount() - 1
    return seg, seg.place_at(local.toPoint())


def _scroll_area(widget: QWidget) -> QScrollArea | None:
    area = widget.parentWidget()
    while area is not None and not isinstance(area, QScrollArea):
        area = area.parentWidget()
    return area


class DragAcross:
    """Mouse selection across an answer's segments (mixed into MarkdownSegment before SidewaysBlocks; call
    _init_drag). ``span``: the answer's selection across its segments, set by the answer (None: on its own)."""

    def _init_drag(self) -> None:
        self.span: SpanLike | None = None
        self._drag_from: int | None = None  # where a left press began a selection in this segment
        self._drag_to: QTextEdit | None = None  # the other segment the drag is in now
        self._drag_at = QPointF()  # the mouse on screen, last seen while dragging
        self._edge_timer: QTimer | None = None  # made at the first drag past the chat's edge

    def mousePressEvent(self, event) -> None:  # noqa: N802
        super().mousePressEvent(event)
        self._end_drag()
        # a press on a selection may drag its text away (Qt's own), and Shift extends it: no selection begins
        if event.button() == Qt.MouseButton.LeftButton and self._bar_drag is None \
                and not event.modifiers() & Qt.KeyboardModifier.ShiftModifier and not self.textCursor().hasSelection():
            self._drag_from = self.textCursor().position()

    def mouseDoubleClickEvent(self, event) -> None:  # noqa: N802
        self._end_drag()  # a double-click's selection goes on word by word, in this segment
        super().mouseDoubleClickEvent(event)

    def mouseMoveEvent(self, event) -> None:  # noqa: N802
        if self._drag_from is not None and self.span is not None and event.buttons() & Qt.MouseButton.LeftButton:
            self._drag_at = event.globalPosition()
            if self._drag_step():
                event.accept()
                return
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event) -> None:  # noqa: N802
        target = self._drag_to
        self._end_drag()
        super().mouseReleaseEvent(event)
        if target is not None and self.span is not None and self.span.active() and target in self.span.segments():
            # the caret is where the drag ended: Shift and the arrows go on from there, as after Shift+Down
            target.setFocus(Qt.FocusReason.MouseFocusReason)
            event.accept()

    def focusOutEvent(self, event) -> None:  # noqa: N802
        super().focusOutEvent(event)
        # a click elsewhere (another message, a card, the conversation) ends a selection across the segments;
        # the focus going to another segment of the answer (the end of a drag, a right click in it) does not
        if event.reason() == Qt.FocusReason.MouseFocusReason and self.span is not None and self.span.active() \
                and QApplication.focusWidget() not in self.span.segments():
            self.span.clear()

    def contextMenuEvent(self, event) -> None:  # noqa: N802
        menu = self.text_menu(event.pos())
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        menu.popup(event.globalPos())
        event.accept()

    def text_menu(self, pos: QPoint) -> QMenu:
        """Qt's text menu for the point ``pos`` (in the segment), its Select All selecting the whole answer."""
        wide = self._wide_at(pos.y())
        shift = self._at(wide) if wide is not None and wide < len(self._wide) else 0
        # the point in the text (a wide block scrolled sideways counted): the link there is the one Qt offers
        menu = self.createStandardContextMenu(pos + QPoint(shift, 0))
        every = next((action for action in menu.actions() if action.objectName() == "select-all"), None)
        if every is not None and self.span is not None:
            every.triggered.disconnect()  # Qt's: this segment's text only
            every.triggered.connect(lambda: self.selectOut.emit("all"))  # as Ctrl+A here
        return menu

    def _drag_step(self) -> bool:
        """Select from the press to the mouse; whether the mouse is over another segment (then this did it)."""
        where, past = self._edge(self._drag_at)
        found = point_at(self.span.segments(), where)
        # past the edge over this segment's own text, Qt's own drag scrolls to its caret; over anything else
        # (another segment, a card, the gap between), the view scrolls on here
        if past and not (found is not None and found[0] is self and self._over_text(where)):
            self._scroll_on(past)  # the text under the edge moves in: select to it
            found = point_at(self.span.segments(), where)
        else:
            self._stop_edge()
        if found is None or found[0] is self:
            if self._drag_to is not None:  # back in the segment it began in: Qt's own selection again
                self._drag_to = None
                self.span.drop(self)
            return False
        self._drag_to = found[0]
        self.span.drag(self, self._drag_from, *found)
        return True

    def _over_text(self, where: QPointF) -> bool:
        return 0 <= self.viewport().mapFromGlobal(where).y() < self.viewport().height()

    def _edge(self, where: QPointF) -> tuple[QPointF, float]:
        """``where`` kept within the conversation's view, and how far past its top (< 0) or bottom (> 0) it is."""
        area = _scroll_area(self)
        if area is None:
            return where, 0.0
        view = area.viewport()
        local = view.mapFromGlobal(where)
        past = local.y() - (view.height() - 1) if local.y() >= view.height() else min(0.0, local.y())
        local.setY(min(max(local.y(), 0.0), view.height() - 1.0))
        return view.mapToGlobal(local), past

    def _scroll_on(self, past: float) -> None:
        """The conversation scrolls a step towards the mouse past its edge, and on while it stays there."""
        area = _scroll_area(self)
        bar = area.verticalScrollBar()
        step = max(4, min(EDGE_STEP_MOST, int(abs(past))))
        bar.setValue(bar.value() + (step if past > 0 else -step))
        if self._edge_timer is None:
            self._edge_timer = QTimer(self)
            self._edge_timer.setInterval(EDGE_REPEAT_MS)
            self._edge_timer.timeout.connect(self._drag_step)
        if not self._edge_timer.isActive():
            self._edge_timer.start()

    def _stop_edge(self) -> None:
        if self._edge_timer is not None:
            self._edge_timer.stop()

    def _end_drag(self) -> None:
        self._drag_from, self._drag_to = None, None
        self._stop_edge()
