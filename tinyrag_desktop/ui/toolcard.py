"""ToolCard: one tool block of an answer, with its icon, name, query preview and a live status badge."""

from __future__ import annotations

import html

from PySide6.QtCore import Property, Qt, Signal
from PySide6.QtGui import QFontDatabase, QKeyEvent, QMouseEvent, QPalette
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QSizePolicy, QVBoxLayout, QWidget

from .icons import STATUS_WORDS, StatusBadge, tool_pixmap

# The engine says ok/error/skipped; the card (and DESIGN's `status` property) says done/error/skipped.
_FROM_ENGINE = {"ok": "done", "error": "error", "skipped": "skipped", "running": "running", "done": "done"}
_RESULT_SHOWN = 6000  # characters of a result shown in the expanded card; the rest is summarised


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _seconds(ms: int) -> str:
    return f"{ms / 1000:.1f} s" if ms >= 100 else f"{ms} ms"


class _ElidedLabel(QLabel):
    """A one-line label that ends in … when it does not fit, instead of widening the card."""

    def __init__(self, text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._full = ""
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.setMinimumWidth(40)
        self.set_full_text(text)

    def set_full_text(self, text: str) -> None:
        self._full = text
        self._elide()

    def resizeEvent(self, event) -> None:  # noqa: N802
        super().resizeEvent(event)
        self._elide()

    def _elide(self) -> None:
        self.setText(self.fontMetrics().elidedText(self._full, Qt.TextElideMode.ElideRight, max(self.width(), 40)))


class ToolCard(QFrame):
    """A card whose badge turns from running to done, error or skipped; click or Space shows details."""

    statusChanged = Signal(str)
    expandedChanged = Signal(bool)

    def __init__(self, call_id: str, tool: str, query: str, param: str = "query",
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.call_id = call_id
        self._tool = tool
        self._query = query
        self._param = param
        self._status = "running"
        self._source = ""
        self._error: str | None = None
        self._result = ""
        self._result_bytes = 0
        self._elapsed_ms = 0
        self._expanded = False
        self._details: QLabel | None = None  # built on first expand: 1,000 cards should stay light

        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)

        outer = QVBoxLayout(self)
        outer.setContentsMargins(10, 6, 10, 6)
        outer.setSpacing(2)
        row = QHBoxLayout()
        row.setSpacing(8)
        self._icon = QLabel(self)
        self._icon.setPixmap(tool_pixmap(tool, self.palette().color(QPalette.ColorRole.Text),
                                         16, self.devicePixelRatioF()))
        self._icon.setFixedSize(18, 18)
        self._name = QLabel(f"<b>{html.escape(tool)}</b>", self)
        self._preview = _ElidedLabel(_one_line(query), self)
        self._preview.setObjectName("toolQuery")
        self._preview.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self._meta = QLabel("", self)
        self._meta.setObjectName("toolMeta")
        self._badge = StatusBadge("running", self)
        row.addWidget(self._icon)
        row.addWidget(self._name)
        row.addWidget(self._preview, 1)
        row.addWidget(self._meta)
        row.addWidget(self._badge)
        outer.addLayout(row)
        self._note = _ElidedLabel("", self)
        self._note.setObjectName("toolNote")
        self._note.hide()
        outer.addWidget(self._note)
        self._describe()

    # DESIGN's properties --------------------------------------------------------------------------
    def _get_tool_name(self) -> str:
        return self._tool

    def _get_query_preview(self) -> str:
        return self._preview._full

    def _get_status(self) -> str:
        return self._status

    tool_name = Property(str, _get_tool_name, constant=True)
    query_preview = Property(str, _get_query_preview, constant=True)
    status = Property(str, _get_status, notify=statusChanged)

    @property
    def error(self) -> str | None:
        return self._error

    @property
    def query(self) -> str:
        return self._query

    @property
    def expanded(self) -> bool:
        return self._expanded

    def finish(self, status: str, *, source: str = "", error: str | None = None, result: str = "",
               result_bytes: int = 0, elapsed_ms: int = 0) -> None:
        """Apply the block's one result; ``status`` may be the engine's (ok/error/skipped) or the card's."""
        self._status = _FROM_ENGINE.get(status, "error")
        self._source, self._error, self._result = source, error, result
        self._result_bytes, self._elapsed_ms = result_bytes, elapsed_ms
        self._badge.set_status(self._status)
        if self._status == "skipped":
            self._meta.setText("skipped")
        elif elapsed_ms:
            self._meta.setText(_seconds(elapsed_ms))
        if error and self._status in ("error", "skipped"):
            self._note.set_full_text(_one_line(error))
            self._note.show()
        self.setProperty("state", self._status)  # QSS colours the border per state
        self.style().unpolish(self)
        self.style().polish(self)
        self._describe()
        if self._details is not None:
            self._details.setText(self._details_html())
        self.statusChanged.emit(self._status)

    def mark_stopped(self) -> None:
        """The answer was stopped while this tool ran."""
        if self._status == "running":
            self.finish("error", error="Stopped before the tool finished.")

    def _describe(self) -> None:
        words = STATUS_WORDS.get(self._status, self._status)
        self.setAccessibleName(f"Tool {self._tool}, {words}")
        detail = f"{self._param}: {_one_line(self._query)[:200]}"
        if self._error:
            detail += f". {'Reason' if self._status == 'skipped' else 'Error'}: {self._error}"
        elif self._source:
            detail += f". Source: {self._source}"
        self.setAccessibleDescription(f"{words}. {detail}. Press Space to "
                                      f"{'hide' if self._expanded else 'show'} details.")
        self.setToolTip(f"{self._tool}: {words}")

    # expanding ------------------------------------------------------------------------------------
    def set_expanded(self, on: bool) -> None:
        if on == self._expanded:
            return
        self._expanded = on
        if on and self._details is None:
            self._details = QLabel(self)
            self._details.setObjectName("toolDetails")
            self._details.setWordWrap(True)
            self._details.setTextFormat(Qt.TextFormat.RichText)
            self._details.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse
                                                  | Qt.TextInteractionFlag.LinksAccessibleByMouse)
            self._details.setOpenExternalLinks(True)
            self._details.setText(self._details_html())
            self.layout().addWidget(self._details)
        if self._details is not None:
            self._details.setVisible(on)
        self._describe()
        self.expandedChanged.emit(on)

    def details_text(self) -> str:
        """What the expanded card shows, as plain text (tests and the clipboard use it)."""
        parts = [f"{self._param.capitalize()}:\n{self._query}"]
        if self._source:
            parts.append(f"Source: {self._source}")
        if self._error:
            parts.append(f"{'Reason' if self._status == 'skipped' else 'Error'}: {self._error}")
        elif self._result:
            parts.append(f"Result:\n{self._result}")
        elif self._status == "running":
            parts.append("Running…")
        return "\n\n".join(parts)

    def _details_html(self) -> str:
        esc = html.escape
        out = [f"<p><b>{esc(self._param.capitalize())}</b><br><code style='white-space:pre-wrap'>"
               f"{esc(self._query)}</code></p>"]
        if self._source:
            src = esc(self._source)
            link = f"<a href='{src}'>{src}</a>" if self._source.startswith(("http://", "https://")) else src
            out.append(f"<p><b>Source</b><br>{link}</p>")
        if self._error:
            label = "Reason" if self._status == "skipped" else "Error"
            out.append(f"<p><b>{label}</b><br>{esc(self._error)}</p>")
        elif self._result:
            shown = self._result[:_RESULT_SHOWN]
            more = len(self._result) - len(shown)
            tail = f"<br><i>… {more:,} more characters</i>" if more > 0 else ""
            out.append(f"<p><b>Result</b> ({self._result_bytes:,} bytes)<br>"
                       f"<span style='white-space:pre-wrap'>{esc(shown)}</span>{tail}</p>")
        elif self._status == "running":
            out.append("<p><i>Running…</i></p>")
        return "".join(out)

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        if event.button() == Qt.MouseButton.LeftButton and (
                self._details is None or not self._details.geometry().contains(event.position().toPoint())):
            self.set_expanded(not self._expanded)
            event.accept()
            return
        super().mousePressEvent(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802
        if event.key() in (Qt.Key.Key_Space, Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.set_expanded(not self._expanded)
            event.accept()
            return
        super().keyPressEvent(event)
