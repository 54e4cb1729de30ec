"""The pieces an answer is made of: Markdown text segments and the collapsed "Thinking" section."""

from __future__ import annotations

import asyncio
import re
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping

import shiboken6
from PySide6.QtCore import QEvent, QMimeData, QRect, QRectF, QSize, Qt, QTimer, QUrl, Signal
from PySide6.QtGui import (QColor, QDesktopServices, QFontMetrics, QGuiApplication, QPainter, QPaintEvent, QPalette,
                           QTextCursor, QTextFormat, QTextOption, QTextTable)
from PySide6.QtWidgets import (QApplication, QFrame, QPlainTextEdit, QSizePolicy, QTextBrowser, QToolButton, QToolTip,
                               QVBoxLayout, QWidget)

from .gorun import GoRuns, run_limits
from .markdown_render import BREAK_POINT, DARK, LIGHT, Palette, RunView, render
from .theme import colors, paint_focus_ring

SettingsSource = Callable[[], Mapping[str, Any]]
# A code block's header as selected text: its language (or "code") and its links
_CODE_HEADER = re.compile(r"^\S{1,40}[ \xa0]{2}Copy code(?:[ \xa0]{2}(?:Run|Stop))?[ \xa0]*(?:\n|$)", re.M)

WEB_SCHEMES = ("http", "https", "mailto")  # the links of an answer that open (in the browser or mail app)
ACTIONS = ("copy-code", "run-go", "stop-go")  # the links a segment handles itself
# A picture on this computer (an image the answer shows, by its path) opens in the desktop's viewer; no
# other local file does: a link the model wrote must not start a program or a script.
PICTURE_SUFFIXES = frozenset({".png", ".jpg", ".jpeg", ".gif", ".webp", ".bmp", ".svg", ".tif", ".tiff", ".ico",
                              ".avif", ".heic"})
CANNOT_OPEN = "(this location cannot be opened)"
TIP_WIDTH = 560  # pixels: a longer address is shortened in its middle


def local_picture(url: QUrl) -> Path | None:
    """The picture file on this computer that ``url`` names (a file: address or an absolute path), if it is one
    and is there; else None."""
    if url.isLocalFile():
        path = Path(url.toLocalFile())
    elif not url.scheme() and url.path().startswith("/") and not url.host():
        path = Path(url.path(QUrl.ComponentFormattingOption.FullyDecoded))
    else:
        return None
    try:
        return path if path.suffix.lower() in PICTURE_SUFFIXES and path.is_file() else None
    except OSError:
        return None


def link_opens(url: QUrl) -> bool:
    """Whether a click on a link of an answer to ``url`` opens it."""
    return url.scheme().lower() in WEB_SCHEMES or local_picture(url) is not None


def link_tip(href: str, metrics: QFontMetrics | None = None, width: int = TIP_WIDTH) -> str:
    """Where the link ``href`` of an answer leads, as its tooltip and the status bar say it: the address (a long
    one shortened in its middle, so its site and its file both show), and whether a click cannot open it."""
    if not href or QUrl(href).scheme() in ACTIONS:
        return ""  # Copy code, Run, Stop say what they do
    shown = (metrics or QFontMetrics(QToolTip.font())).elidedText(href, Qt.TextElideMode.ElideMiddle, width)
    return shown if link_opens(QUrl(href)) else f"{shown}\n{CANNOT_OPEN}"


_SLACK = 3  # pixels a block may stand out on the right (a table's border) before it scrolls sideways
_BAR = 5  # the height of the bar under a block that scrolls sideways


@dataclass(slots=True)
class _Wide:
    """A block wider than the answer, in the segment's pixels and text positions."""

    top: float  # from its top (below a code block's header, which stays)...
    bottom: float  # ...to under its bar: the band it is painted in, scrolled
    box: float  # where its box ends (its bar goes under it)
    right: float  # how wide it is
    first: int
    last: int


class MarkdownSegment(QTextBrowser):
    """A run of answer text rendered from Markdown; as tall as its content, never scrolling itself.

    ``set_markdown`` re-renders only this segment. The streaming view keeps segments short (see
    ``markdown_render.freeze_point``), so a re-render costs the same at the 100th token as at the 10,000th.
    ``settings`` returns the window's current settings: whether Go blocks get a Run link is read from it at
    each render, so turning ``allow_nanogo`` on or off applies without a restart.
    """

    codeCopied = Signal(str)
    runChanged = Signal(int)  # a Go block's run started or ended (its number in this segment)
    linkHovered = Signal(str)  # the address of the link under the mouse, shortened; "" when it leaves it

    def __init__(self, parent: QWidget | None = None, palette: Palette = LIGHT,
                 settings: SettingsSource | None = None) -> None:
        super().__init__(parent)
        self._palette = palette
        self._settings = settings
        self._markdown = ""
        self._render_prefix = ""
        self._render_suffix = ""
        self._codes: tuple[str, ...] = ()
        self._runs: GoRuns | None = None  # made at the first Run: most segments never have one
        self.continues: MarkdownSegment | None = None  # the segment whose last code block goes on here
        self.setObjectName("answerText")
        self.setOpenLinks(False)
        self.anchorClicked.connect(self._on_anchor)
        self.highlighted.connect(self._on_hover)
        self._hovered = False
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setFocusPolicy(Qt.FocusPolicy.ClickFocus)  # Tab goes to cards and buttons, not every paragraph
        self.setWordWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        self.viewport().setAutoFillBackground(False)
        pal = self.palette()
        pal.setColor(QPalette.ColorRole.Base, Qt.GlobalColor.transparent)
        self.setPalette(pal)
        self.document().setDocumentMargin(0)
        self.document().documentLayout().documentSizeChanged.connect(self._fit)
        self.setAccessibleName("Answer text")
        self.setFixedHeight(1)
        # Code keeps its lines and a table its words: a block wider than the answer scrolls sideways on its
        # own (shift+wheel, a sideways wheel or swipe, its bar, Left and Right), the rest stays put.
        self.setWordWrapMode(QTextOption.WrapMode.WordWrap)
        self._wide: list[_Wide] = []
        self._shift: list[int] = []  # how far each wide block is scrolled, by its order in the segment
        self._held: int | None = None  # the wide block a mouse press began in (a selection being dragged)
        self._bar_drag: tuple[int, float, int] | None = None  # a bar being dragged: block, press x, its shift
        self._hbar_set = 0  # the offset Qt is told while it paints or handles the mouse for a wide block
        self._revealed: tuple[int, int] | None = None  # the find bar's current match last scrolled to
        self._rendering = False
        self._over_bar = False
        self.horizontalScrollBar().valueChanged.connect(self._hbar_moved)
        self.cursorPositionChanged.connect(self._cursor_moved)

    def _fit(self, size) -> None:
        height = int(size.height() + 0.999) + 2
        if height != self.height():
            self.setFixedHeight(height)
        self._measure()

    def sizeHint(self) -> QSize:  # noqa: N802
        return QSize(400, self.height())

    def markdown(self) -> str:
        """The Markdown source of this segment exactly as streamed."""
        return self._markdown

    def set_frame(self, prefix: str, suffix: str) -> None:
        """Text rendered around the source: a code fence carried over from the previous segment."""
        self._render_prefix, self._render_suffix = prefix, suffix

    def set_markdown(self, text: str) -> None:
        self._markdown = text
        run_go = self._run_allowed(text)
        rendered = render(self._render_prefix + text + self._render_suffix, self._palette, run_go=run_go,
                          runs=self._runs.views() if self._runs else None,
                          partial=(bool(self._render_prefix), bool(self._render_suffix)),
                          carried=self._carried() if run_go else "")
        self._codes = rendered.code_blocks
        self._rendering = True  # the text cursor goes back to the start: no wide block follows it there
        self.setHtml(rendered.html)
        self._rendering = False
        self.setAccessibleDescription(text[:500])
        # Code blocks carry links (Copy code, Run): then Tab reaches this segment and walks its links.
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus if self._codes else Qt.FocusPolicy.ClickFocus)

    def _run_allowed(self, text: str) -> bool:
        if self._settings is None or "```" not in text and "~~~" not in text and not self._render_prefix:
            return False
        return run_limits(self._settings()) is not None

    def _carried(self) -> str:
        """The code of the earlier pieces of a block the streaming view cut (its first block continues it)."""
        prev = self.continues
        if prev is None or not self._render_prefix or not prev.code_blocks():
            return ""
        last = prev.code_blocks()[-1]
        return (prev._carried() if len(prev.code_blocks()) == 1 else "") + last

    def run_source(self, index: int) -> str:
        """The code Run runs for block ``index``: a cut block's earlier pieces included."""
        return (self._carried() if index == 0 else "") + self._codes[index]

    def refresh(self) -> None:
        """Render again with the current settings (``allow_nanogo`` may have changed)."""
        if self._markdown:
            self.set_markdown(self._markdown)

    # running Go blocks -------------------------------------------------------------------------------
    def run_go(self, index: int) -> asyncio.Task[None] | None:
        """Run Go block ``index`` in the sandbox; the task, or None when running is not allowed now."""
        limits = run_limits(self._settings()) if self._settings else None
        if limits is None or not 0 <= index < len(self._codes):
            self.refresh()  # the settings changed since the link was drawn: take it away
            return None
        if self._runs is None:
            self._runs = GoRuns(self._run_changed)
            runs = self._runs
            self.destroyed.connect(lambda *_: runs.cancel_all())
        return self._runs.start(index, self.run_source(index), limits)

    def stop_go(self, index: int) -> bool:
        return bool(self._runs and self._runs.stop(index))

    def run_views(self) -> dict[int, RunView]:
        """Each run Go block's last run (a ``markdown_render.RunView``), by block number."""
        return self._runs.views() if self._runs else {}

    def cancel_runs(self) -> list[asyncio.Task[None]]:
        """Stop every run of this segment (its answer or chat is closing); the cancelled tasks."""
        return self._runs.cancel_all() if self._runs else []

    def _run_changed(self, index: int) -> None:
        if not shiboken6.isValid(self):
            return
        self.refresh()
        self.runChanged.emit(index)

    def set_palette_colours(self, palette: Palette) -> None:
        if palette is not self._palette:
            self._palette = palette
            self.refresh()

    def code_blocks(self) -> tuple[str, ...]:
        return self._codes

    def copy_code(self, index: int) -> str:
        code = self._codes[index]
        QGuiApplication.clipboard().setText(code)
        self.codeCopied.emit(code)
        return code

    def _on_anchor(self, url: QUrl) -> None:
        action = {"copy-code": self.copy_code, "run-go": self.run_go, "stop-go": self.stop_go}.get(url.scheme())
        if action is not None:
            try:
                action(int(url.path()))
            except (ValueError, IndexError):
                pass
            return
        picture = local_picture(url)
        if picture is not None:
            QDesktopServices.openUrl(QUrl.fromLocalFile(str(picture)))
        elif url.scheme().lower() in WEB_SCHEMES:
            QDesktopServices.openUrl(url)

    def _on_hover(self, url: QUrl) -> None:
        tip = link_tip(url.toString(), self.fontMetrics()) if not url.isEmpty() else ""
        if tip or self._hovered:
            self._hovered = bool(tip)
            self.linkHovered.emit(tip.replace("\n", " "))

    def viewportEvent(self, event) -> bool:  # noqa: N802
        if event.type() == QEvent.Type.ToolTip:
            # A link shows where it goes before it is clicked (Qt shows nothing for a link by itself).
            with self._shifted(self._wide_at(event.pos().y())):
                tip = link_tip(self.anchorAt(event.pos()))
            if tip:
                QToolTip.showText(event.globalPos(), tip, self.viewport())
            else:
                QToolTip.hideText()
                event.ignore()
            return True
        return super().viewportEvent(event)


    # wide blocks, scrolled sideways one by one ------------------------------------------------------
    # Qt's text view scrolls all of its text or none. Each wide block is painted, and handles the mouse,
    # with Qt's sideways offset set to that block's own for the while (its scroll bar kept hidden and at 0),
    # so one block moves and the paragraphs around it stay where they are.
    def _measure(self) -> None:
        """Find the blocks wider than the answer (a code block, a table, a line that cannot wrap)."""
        doc = self.document()
        width = self.viewport().width()
        old = self._wide
        self._wide = []
        if doc.size().width() > width + _SLACK:
            layout = doc.documentLayout()
            block = doc.begin()
            while block.isValid():
                frame = doc.frameAt(block.position())
                if frame is None or frame.parentFrame() is None:  # a paragraph, heading or list item
                    rect = layout.blockBoundingRect(block)
                    lines = block.layout()
                    right = max((lines.lineAt(i).x() + lines.lineAt(i).naturalTextWidth()
                                 for i in range(lines.lineCount())), default=0.0)
                    if right > width + _SLACK:
                        end = block.position() + block.length() - 1
                        self._wide.append(_Wide(rect.top(), rect.bottom(), rect.bottom(), right, block.position(), end))
                    block = block.next()
                    continue
                while frame.parentFrame().parentFrame() is not None:
                    frame = frame.parentFrame()
                after = doc.findBlock(frame.lastPosition() + 1)
                right = layout.frameBoundingRect(frame).width()
                if right > width + _SLACK:
                    first = doc.findBlock(frame.firstPosition())
                    last = doc.findBlock(max(frame.firstPosition(), frame.lastPosition() - 1))
                    fmt = frame.format() if isinstance(frame, QTextTable) else None
                    edge = fmt.cellPadding() + fmt.border() + fmt.cellSpacing() if fmt else 0
                    top = layout.blockBoundingRect(first).top() - edge - 1
                    if "Copy code" in first.text() and first.next().blockFormat().nonBreakableLines():
                        top = layout.blockBoundingRect(first.next()).top()  # its header stays: Copy code, Run
                    box = layout.blockBoundingRect(last).bottom() + edge
                    self._wide.append(_Wide(top, box + _BAR + 3, box, right, frame.firstPosition(),
                                            frame.lastPosition()))
                if not after.isValid():
                    break
                block = after
        # Each block keeps how far it was scrolled while the answer streams and re-renders around it (a
        # render lays the text out in steps: a block may be missing, or narrower, for a moment).
        self._shift += [0] * (len(self._wide) - len(self._shift))
        if old or self._wide:
            self.viewport().update()

    def _most(self, wide: "_Wide") -> int:
        return max(0, int(wide.right + 0.999) + 1 - self.viewport().width())

    def _at(self, index: int) -> int:
        """How far wide block ``index`` is scrolled now (no further than its end at this width)."""
        return min(self._shift[index], self._most(self._wide[index]))

    def wide_blocks(self) -> list[tuple[int, int, int]]:
        """The blocks that scroll sideways: their first and last positions in the text, and how far each is
        scrolled (pixels)."""
        return [(w.first, w.last, self._at(i)) for i, w in enumerate(self._wide)]

    def scroll_wide(self, index: int, pixels: int) -> int:
        """Scroll wide block ``index`` to ``pixels`` from its start (kept within it); where it is now."""
        shift = max(0, min(int(pixels), self._most(self._wide[index])))
        if shift != self._shift[index]:
            changed = shift != self._at(index)
            self._shift[index] = shift
            if changed:
                self.viewport().update()
        return shift

    def _wide_at(self, y: float) -> int | None:
        return next((i for i, w in enumerate(self._wide) if w.top <= y < w.bottom), None)

    def _wide_holding(self, position: int) -> int | None:
        return next((i for i, w in enumerate(self._wide) if w.first <= position <= w.last), None)

    def _set_hbar(self, shift: int) -> None:
        bar = self.horizontalScrollBar()
        self._hbar_set = shift
        blocked = bar.blockSignals(True)
        bar.setValue(self._hbar_value(shift))
        bar.blockSignals(blocked)

    def _hbar_value(self, shift: int) -> int:
        bar = self.horizontalScrollBar()
        return bar.maximum() - shift if self.isRightToLeft() else shift

    @contextmanager
    def _shifted(self, index: int | None):
        """Qt's offset set to wide block ``index``'s while Qt handles an event there (back to 0 after)."""
        shift = self._at(index) if index is not None and index < len(self._wide) else 0
        if not shift:
            yield
            return
        self._set_hbar(shift)
        try:
            yield
        finally:
            self._set_hbar(0)

    def _hbar_moved(self, _value: int) -> None:
        # Qt scrolled the whole text sideways (keeping the cursor in view): each block scrolls on its own.
        if self.horizontalScrollBar().value() != self._hbar_value(self._hbar_set):
            self._set_hbar(0)
            self.viewport().update()

    def scrollContentsBy(self, dx: int, dy: int) -> None:  # noqa: N802
        self.viewport().update()  # never moves the painted text as a whole

    def _cursor_moved(self) -> None:
        """Keyboard link navigation or a selection dragged past the edge: the wide block scrolls to show it."""
        if self._wide and not self._rendering and self.hasFocus():
            self._reveal(self.textCursor().position(), self.textCursor().position())

    def _reveal(self, start: int, end: int) -> None:
        index = self._wide_holding(start)
        if index is None:
            return
        cursor = QTextCursor(self.document())
        xs = []
        for position in (start, end):
            cursor.setPosition(position)
            rect = self.cursorRect(cursor)
            if rect.center().y() < self._wide[index].top:
                return  # a code block's header (Copy code, Run): it does not scroll
            xs.append(rect.x() + self._hbar_set)  # in the text, not on screen
        shift, width, margin = self._at(index), self.viewport().width(), 24
        if min(xs) - shift < 0:
            shift = min(xs) - margin
        elif max(xs) - shift > width - 4:
            shift = max(xs) - width + margin
        self.scroll_wide(index, shift)

    def setExtraSelections(self, selections) -> None:  # noqa: N802
        """The find bar's marks; its current match (the one with its own text colour) scrolled into view."""
        super().setExtraSelections(selections)
        if not self._wide:
            return
        current = next((s for s in selections if s.format.hasProperty(QTextFormat.Property.ForegroundBrush)), None)
        place = (current.cursor.selectionStart(), current.cursor.selectionEnd()) if current else None
        if place is not None and place != self._revealed:
            self._reveal(*place)
        self._revealed = place

    def paintEvent(self, event) -> None:  # noqa: N802
        moved = [(w, self._at(i)) for i, w in enumerate(self._wide) if self._at(i)]
        if not moved:
            super().paintEvent(event)
        else:
            area = event.rect()
            top = area.top()
            for wide, shift in moved:  # bands from top to bottom: between wide blocks, then one
                for y0, y1, offset in ((top, int(wide.top), 0), (int(wide.top), int(wide.bottom + 0.999), shift)):
                    band = area.intersected(QRect(area.left(), y0, area.width(), y1 - y0))
                    if band.isEmpty():
                        continue
                    self._set_hbar(offset)
                    super().paintEvent(QPaintEvent(band))
                top = max(top, int(wide.bottom + 0.999))
            rest = area.intersected(QRect(area.left(), top, area.width(), area.bottom() + 1 - top))
            self._set_hbar(0)
            if not rest.isEmpty():
                super().paintEvent(QPaintEvent(rest))
        if self._wide:
            self._paint_bars()

    def _bar_rects(self, index: int) -> tuple[QRectF, QRectF]:
        """Wide block ``index``'s scroll bar under it: its track and its thumb."""
        wide, width = self._wide[index], self.viewport().width()
        track = QRectF(1, wide.box + 2, width - 2, _BAR)
        part = width / max(wide.right, 1.0)
        thumb = QRectF(1 + self._at(index) * part, track.top(), max(24.0, (width - 2) * part), _BAR)
        return track, thumb

    def _paint_bars(self) -> None:
        painter = QPainter(self.viewport())
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(Qt.PenStyle.NoPen)
        colour = QColor(self._palette.muted)
        for i in range(len(self._wide)):
            track, thumb = self._bar_rects(i)
            colour.setAlpha(40)
            painter.setBrush(colour)
            painter.drawRoundedRect(track, _BAR / 2, _BAR / 2)
            colour.setAlpha(150)
            painter.setBrush(colour)
            painter.drawRoundedRect(thumb, _BAR / 2, _BAR / 2)
        painter.end()

    def wheelEvent(self, event) -> None:  # noqa: N802
        """Shift+wheel, a sideways wheel or a swipe scrolls a wide block under the mouse sideways; the wheel
        itself scrolls the conversation, as over any other text."""
        angle, pixels = event.angleDelta(), event.pixelDelta()
        across = abs(angle.x()) > abs(angle.y()) or (not pixels.isNull() and abs(pixels.x()) > abs(pixels.y()))
        shift_wheel = bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier) and angle.y() != 0
        if not across and not shift_wheel:
            super().wheelEvent(event)
            return
        index = self._wide_at(event.position().y())
        if index is None:
            event.ignore()
            return
        if not pixels.isNull():
            step = pixels.x() if across else pixels.y()
        else:
            notches = (angle.x() if across else angle.y()) / 120
            step = notches * QApplication.wheelScrollLines() * self.fontMetrics().height()
        before = self._at(index)
        if self.scroll_wide(index, before - round(step)) == before:
            event.ignore()  # at its end already
        else:
            event.accept()

    def keyPressEvent(self, event) -> None:  # noqa: N802
        index = self._wide_holding(self.textCursor().position()) if self._wide else None
        keys = {Qt.Key.Key_Left: -1, Qt.Key.Key_Right: 1}
        if index is not None and event.key() in keys and not event.modifiers():
            self.scroll_wide(index, self._at(index) + keys[event.key()] * 4 * self.fontMetrics().averageCharWidth())
            event.accept()
            return
        super().keyPressEvent(event)

    def mousePressEvent(self, event) -> None:  # noqa: N802
        y = event.position().y()
        for i in range(len(self._wide)):
            track, thumb = self._bar_rects(i)
            if event.button() == Qt.MouseButton.LeftButton and track.adjusted(0, -3, 0, 3).contains(event.position()):
                if not thumb.adjusted(0, -3, 0, 3).contains(event.position()):  # the track: a page that way
                    page = self.viewport().width() * 0.9
                    self.scroll_wide(i, self._at(i) + (page if event.position().x() > thumb.left() else -page))
                self._bar_drag = (i, event.position().x(), self._at(i))
                event.accept()
                return
        self._held = self._wide_at(y)
        with self._shifted(self._held):
            super().mousePressEvent(event)

    def mouseMoveEvent(self, event) -> None:  # noqa: N802
        if self._bar_drag is not None:
            index, x, shift = self._bar_drag
            wide = self._wide[index] if index < len(self._wide) else None
            if wide is not None:
                self.scroll_wide(index, shift + (event.position().x() - x) * wide.right / self.viewport().width())
            event.accept()
            return
        over = not event.buttons() and any(self._bar_rects(i)[0].adjusted(0, -3, 0, 3).contains(event.position())
                                           for i in range(len(self._wide)))
        if over != self._over_bar:  # an arrow over a bar, as over any scroll bar; the text's own cursor off it
            self._over_bar = over
            self.viewport().setCursor(Qt.CursorShape.ArrowCursor if over else Qt.CursorShape.IBeamCursor)
        if over:
            event.accept()
            return
        held = self._held if event.buttons() else self._wide_at(event.position().y())
        with self._shifted(held):
            super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event) -> None:  # noqa: N802
        if self._bar_drag is not None:
            self._bar_drag = None
            event.accept()
            return
        with self._shifted(self._held if self._held is not None else self._wide_at(event.position().y())):
            super().mouseReleaseEvent(event)
        self._held = None

    def mouseDoubleClickEvent(self, event) -> None:  # noqa: N802
        with self._shifted(self._wide_at(event.position().y())):
            super().mouseDoubleClickEvent(event)

    def contextMenuEvent(self, event) -> None:  # noqa: N802
        with self._shifted(self._wide_at(event.pos().y())):
            super().contextMenuEvent(event)

    def timerEvent(self, event) -> None:  # noqa: N802
        with self._shifted(self._held):  # a selection dragged past the edge goes on by itself
            super().timerEvent(event)

    def resizeEvent(self, event) -> None:  # noqa: N802
        super().resizeEvent(event)
        self._measure()

    def hasHeightForWidth(self) -> bool:  # noqa: N802
        return False

    def focusInEvent(self, event) -> None:  # noqa: N802
        super().focusInEvent(event)
        # Tab lands on the first link (Shift+Tab on the last), not on the text around it: that first stop
        # showed nothing at all, and a keyboard user could not tell where the focus had gone.
        reason = event.reason()
        if reason in (Qt.FocusReason.TabFocusReason, Qt.FocusReason.BacktabFocusReason) and \
                not self.textCursor().hasSelection():
            super().focusNextPrevChild(reason == Qt.FocusReason.TabFocusReason)

    def loadResource(self, kind: int, url: QUrl):  # noqa: N802
        # Answers are model output: never let them make the view read local files or images.
        return None

    def createMimeDataFromSelection(self) -> QMimeData:  # noqa: N802
        """The selection as copied or dragged, without the break points put into long words to let them wrap
        (a hash or a base64 blob selected and copied must be the one the answer wrote), nor a code block's
        "python  Copy code" line. All of it (Ctrl+A) is copied as text in the Markdown it was written in: a
        table's cells came one a line ("a", "b", "1", "2")."""
        data = super().createMimeDataFromSelection()
        if data.hasHtml():
            data.setHtml(data.html().replace(BREAK_POINT, ""))
        if data.hasText():
            cursor = self.textCursor()
            if cursor.selectionStart() == 0 and cursor.selectionEnd() >= self.document().characterCount() - 1:
                data.setText(self._render_prefix + self._markdown + self._render_suffix)
            else:
                data.setText(_CODE_HEADER.sub("", data.text().replace(BREAK_POINT, "")))
        return data


class _Toggle(QToolButton):
    """The "Thinking" toggle, with a focus ring a keyboard user can see."""

    def paintEvent(self, event) -> None:  # noqa: N802
        super().paintEvent(event)
        paint_focus_ring(self)


class ThinkingSection(QFrame):
    """The model's reasoning: a "Thinking" toggle above the answer, collapsed by default."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("thinking")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 4)
        layout.setSpacing(2)
        self.toggle = _Toggle(self)
        self.toggle.setObjectName("thinkingToggle")
        self.toggle.setText("Thinking")
        self.toggle.setCheckable(True)
        self.toggle.setArrowType(Qt.ArrowType.RightArrow)
        self.toggle.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.toggle.setAutoRaise(True)
        self.toggle.toggled.connect(self._on_toggle)
        self.toggle.setAccessibleName("Thinking, collapsed")
        self.toggle.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.body = QPlainTextEdit(self)
        self.body.setObjectName("thinkingText")
        self.body.setReadOnly(True)
        self.body.setFrameShape(QFrame.Shape.NoFrame)
        pal = self.body.palette()
        pal.setColor(QPalette.ColorRole.Base, colors().note)
        pal.setColor(QPalette.ColorRole.Text, colors().muted)
        self.body.setPalette(pal)
        self.body.setAccessibleName("Model reasoning")
        self.body.hide()
        layout.addWidget(self.toggle)
        layout.addWidget(self.body)
        # The reasoning as it came: Qt's plain text changes it (a no-break space becomes a space, "\r\n" and
        # U+2028 a line break), so what is stored, and what take_back compares, is this.
        self._text: list[str] = []
        self._since: float | None = None  # when the first reasoning streamed in (time.monotonic)
        self._last = 0.0  # when the last of it came

    def append(self, text: str, live: bool = True, since: float | None = None) -> None:
        """Add reasoning; ``live``: as it streams (the toggle says "Thinking…" and then how long it took),
        not read back from a stored chat; ``since``: when it began, if before now (it streamed as answer
        text until its </think> showed what it was)."""
        # Appending at the end costs the same however long the reasoning already is.
        cursor = self.body.textCursor()
        cursor.movePosition(QTextCursor.MoveOperation.End)
        cursor.insertText(text)
        self._text.append(text)
        if live:
            self._last = time.monotonic()
            if self._since is None:
                self._since = self._last if since is None else since
            self.toggle.setText("Thinking…")
        self._fit()

    def settle(self) -> None:
        """The reasoning is over (the answer began, or ended): the toggle says how long it took."""
        if self._since is not None and self.toggle.text() == "Thinking…":
            seconds = round(self._last - self._since)
            self.toggle.setText("Thought for a moment" if seconds < 1 else f"Thought for {seconds} s")

    def take_back(self, text: str) -> str:
        """Remove ``text`` from the end of the reasoning (it was the answer after all); what is left."""
        whole = self.text()
        if text and whole.endswith(text):
            whole = whole[: len(whole) - len(text)]
            self._text = [whole]
            self.body.setPlainText(whole)
            self._fit()
        return whole

    def _fit(self) -> None:
        # As tall as the reasoning (in wrapped lines), up to a limit; then it scrolls.
        doc = self.body.document()
        lines = sum(doc.findBlockByNumber(i).layout().lineCount() or 1 for i in range(min(doc.blockCount(), 40)))
        spacing = self.body.fontMetrics().lineSpacing()
        self.body.setFixedHeight(min(220, max(1, lines) * spacing + 14))

    def text(self) -> str:
        if len(self._text) > 1:
            self._text[:] = ["".join(self._text)]
        return self._text[0] if self._text else ""

    def _on_toggle(self, on: bool) -> None:
        self.toggle.setArrowType(Qt.ArrowType.DownArrow if on else Qt.ArrowType.RightArrow)
        self.toggle.setAccessibleName(f"Thinking, {'expanded' if on else 'collapsed'}")
        self.body.setVisible(on)
        if on:
            QTimer.singleShot(0, self._fit)  # line wrapping is known once the text box has its width


def palette_for(dark: bool) -> Palette:
    return DARK if dark else LIGHT
