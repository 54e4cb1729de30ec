"""ChatView (`chatView`): the scrolling conversation, questions and answers in one centred column."""

from __future__ import annotations

import asyncio
from typing import Callable

import shiboken6
from PySide6.QtCore import QEvent, QRect, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import (QFrame, QHBoxLayout, QLabel, QPlainTextEdit, QPushButton, QScrollArea, QTextEdit,
                               QToolButton, QVBoxLayout, QWidget)

from ..chats import StoredMessage
from .answer import AnswerWidget
from .composer import NEW_LINE
from .focus_ring import FocusRing
from .markdown_render import LIGHT, Palette, warm_up
from .question_bubble import QuestionText, UserBubble
from .segments import SettingsSource
from .theme import colors

COLUMN_MAX = 860  # px: lines longer than this are hard to read
_SIDE = 16  # px between the column and the view's sides, as between the message box and the window's
BURY_SLICE = 8  # messages of a cleared chat deleted per turn of the event loop
# What an empty chat says; in a narrow chat (large text) it wraps between the keys' hints, not inside one.
_EMPTY_HINT = ("Ask anything. Tools run inline and show\N{NO-BREAK SPACE}as\N{NO-BREAK SPACE}cards.\n"
               + " · ".join(hint.replace(" ", "\N{NO-BREAK SPACE}")
                            for hint in ("Enter sends", NEW_LINE, "Esc stops")))
_LATEST_GAP = 4  # px above and below "Latest", in its strip under the conversation
HINT_WHOLE_UP_TO = 300  # px: the empty chat's hint keeps its lines whole up to this width (the usual font's)


class _EmptyHint(QLabel):
    """The empty chat's hint. Never wrapped, its lines were the chat's minimum width, 663 px at 20 pt: with the
    knowledge panel beside it the window was wider than a 1,024 px screen. It asks for its whole lines up to
    HINT_WHOLE_UP_TO (so at the usual font the window is as narrow as before) and wraps in a narrower chat.
    ``shown`` says when it comes into sight and goes: the message box's hint leaves the keys to it meanwhile."""

    shown = Signal(bool)

    def showEvent(self, event) -> None:  # noqa: N802
        super().showEvent(event)
        self.shown.emit(True)

    def hideEvent(self, event) -> None:  # noqa: N802
        super().hideEvent(event)
        self.shown.emit(False)

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        hint = super().minimumSizeHint()  # wrapped: its longest word
        metrics = self.fontMetrics()
        whole = max(metrics.horizontalAdvance(line) for line in self.text().split("\n"))
        return QSize(max(hint.width(), min(whole, HINT_WHOLE_UP_TO)), hint.height())


_widgets_warm = False


def _warm_widgets(parent: QWidget) -> None:
    """Build and lay out one answer with a card and code once, offscreen of the user's eye, at start-up.

    The first rich-text layout loads fonts and the first card renders its SVG icon; done here, that cost
    (~40 ms) does not land on the first streamed answer as a stall.
    """
    global _widgets_warm
    if _widgets_warm:
        return
    _widgets_warm = True
    from ..engine.events import ToolStarted

    answer = AnswerWidget(parent)
    answer.append_text("**Warm** `up`\n\n```python\nx = 1\n```\n")
    answer.flush()
    answer.tool_started(ToolStarted("warm", "calculate", "1 + 1"))
    answer.resize(600, 400)
    answer.layout().activate()
    for seg in answer.segments():
        seg.document().size()
    answer.grab()
    answer.hide()
    answer.deleteLater()


class _CanvasLayout(QHBoxLayout):
    """The canvas's row: the column between two stretches, in margins worked out for each width it is given
    (ChatView._column_margins), so that the column is as wide with the scroll bar as without it. The scroll
    area asks the height for the width it may give before it gives it: that one is worked out the same way."""

    def __init__(self, canvas: QWidget, margins: Callable[[int], tuple[int, int]]) -> None:
        super().__init__(canvas)
        self._margins = margins
        self.setContentsMargins(_SIDE, 16, _SIDE, 16)

    def setGeometry(self, rect: QRect) -> None:  # noqa: N802 - Qt's name
        left, right = self._margins(rect.width())
        now = self.contentsMargins()
        if (now.left(), now.right()) != (left, right):
            self.setContentsMargins(left, 16, right, 16)
        super().setGeometry(rect)

    def heightForWidth(self, width: int) -> int:  # noqa: N802 - Qt's name
        left, right = self._margins(width)
        now = self.contentsMargins()
        return super().heightForWidth(width - left - right + now.left() + now.right())


class ChatView(QScrollArea):
    """Holds the column; follows the stream while the user is at the bottom, stays put when they scroll up.

    A long chat is shown from its last messages; ``earlierWanted`` asks for the ones before them when the
    user scrolls to the top or presses "Show earlier messages" (see MainWindow.show_earlier).
    """

    answerAdded = Signal(object)
    earlierWanted = Signal()
    cleared = Signal()  # emptied for another chat (the find bar lets go of what it marked)
    emptyHintShown = Signal(bool)  # the empty chat's hint, with the keys, came into sight (True) or went

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        warm_up()
        self.setObjectName("chatView")
        self.setAccessibleName("Conversation")
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.palette_colours: Palette = LIGHT
        self.show_route = False
        self.settings_source: SettingsSource | None = None  # the window's current settings (Run links)
        outer = QWidget(self)
        outer.setObjectName("chatCanvas")
        outer.setAutoFillBackground(True)  # the palette's Window colour; no style sheet here (see theme.py)
        h = _CanvasLayout(outer, self._column_margins)
        self._column = QWidget(outer)
        self._column.setObjectName("chatColumn")
        self._column.setMaximumWidth(COLUMN_MAX)
        self._items = QVBoxLayout(self._column)
        self._items.setContentsMargins(0, 0, 0, 0)
        self._items.setSpacing(14)
        self._items.addStretch(1)
        self._empty = _EmptyHint(_EMPTY_HINT, self._column)
        self._empty.setObjectName("emptyHint")
        self._empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self._empty.setWordWrap(True)
        self._empty.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self._empty.setContentsMargins(0, 120, 0, 0)
        self._empty.shown.connect(self.emptyHintShown)
        self._items.insertWidget(0, self._empty)
        self._graveyard: list[QWidget] = []  # a cleared chat's widgets, deleted a few at a time (_bury)
        self._earlier = QPushButton("Show earlier messages", self._column)
        self._earlier.setObjectName("showEarlier")
        self._earlier.setFlat(True)
        self._earlier.clicked.connect(self.earlierWanted)
        self._earlier.hide()
        self._items.insertWidget(0, self._earlier)
        self._from_bottom: int | None = None  # kept while earlier messages go in above (hold_position)
        self._anchor: tuple[QWidget, Callable[[], QRect], int] | None = None  # kept in view (see reveal)
        self._expected = -1
        h.addStretch(0)
        h.addWidget(self._column, 100)
        h.addStretch(0)
        self.setWidget(outer)
        outer.installEventFilter(self)  # its minimum width is the conversation's: see minimumSizeHint
        _warm_widgets(self._column)
        self._follow = True
        # Arrows and Page keys scroll the conversation when it has the focus: show that it has.
        self._ring = FocusRing(self, self, lambda: self.viewport().geometry())
        bar = self.verticalScrollBar()
        bar.valueChanged.connect(self._on_scrolled)
        bar.rangeChanged.connect(self._on_range)
        # Scrolled up to read, the user saw the answer go on out of sight with no way back but the scroll bar.
        self.latest = QToolButton(self)
        self.latest.setObjectName("toLatest")
        self.latest.setText("Latest")
        self.latest.setArrowType(Qt.ArrowType.DownArrow)
        self.latest.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.latest.setAccessibleName("Go to the latest message")
        self.latest.setToolTip("Go to the end of the conversation (End)")
        self.latest.setCursor(Qt.CursorShape.PointingHandCursor)
        self.latest.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # End does it from the keyboard
        self.latest.clicked.connect(self.scroll_to_bottom)
        self.latest.hide()
        self.viewport().installEventFilter(self)  # its size places "Latest"

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        """As narrow as the conversation can be laid out, scroll bar included: a scroll area's own minimum
        knows nothing of its content, so a splitter squeezed the view below it and, with no horizontal scroll
        bar, the answers, the question and Regenerate were cut off on the right instead of wrapping."""
        hint = super().minimumSizeHint()
        canvas = self.widget()
        if canvas is None:
            return hint
        # the column's own minimum, in its margins at the narrowest, whether the bar shows or not: taken with
        # the margins of the moment, it changed by the bar's width as the bar came and went, and the window's
        # minimum width with it, twice an answer (a window manager's size hints sent again each time)
        margins = canvas.layout().contentsMargins()
        column = canvas.minimumSizeHint().width() - margins.left() - margins.right()
        bar = max(_SIDE, self.verticalScrollBar().sizeHint().width())
        return QSize(max(hint.width(), column + _SIDE + bar + 2 * self.frameWidth()), hint.height())

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 - Qt's name
        if watched is self.widget() and event.type() == QEvent.Type.LayoutRequest:
            # an answer or a card came or went: the minimum width may have changed. It walks every answer
            # built, which a live chat bounds (chat_trim): asked later instead, a window narrowed meanwhile
            # stopped at the old minimum.
            self.updateGeometry()
        elif watched is self.viewport() and event.type() == QEvent.Type.Resize:
            self._place_latest()
        return super().eventFilter(watched, event)

    def _column_margins(self, width: int) -> tuple[int, int]:
        """The canvas's left and right margins at ``width``: the column where it is with the scroll bar or
        without, above the message box, centred in the whole width, clear of the room the bar takes (as wide
        as the margin, or wider with large fonts) whether it shows or not. Centred beside the bar, the answer
        moved 7 px to the left when it grew past the window's height; a column wider without the bar than
        with it was shorter, and at a height a few pixels from the view's, the scroll area showed the bar,
        then hid it, then showed it, without end, until the program crashed. Right to left, the bar and its
        room are on the left (a layout's margins are not mirrored: the column jumped 14 px as the bar came)."""
        whole = max(width, self.width() - 2 * self.frameWidth())
        bar = max(_SIDE, self.verticalScrollBar().sizeHint().width())
        start = _SIDE + max(0, min(bar - _SIDE, whole - bar - _SIDE - COLUMN_MAX))  # centred while it can be
        end = max(0, width - (whole - bar))
        return (end, start) if self.isRightToLeft() else (start, end)

    def has_focus_ring(self) -> bool:
        """True while the conversation shows that it has the keyboard focus."""
        return self._ring.isVisible()

    def _on_scrolled(self, value: int) -> None:
        bar = self.verticalScrollBar()
        if value != self._expected:  # the user scrolled: what they see now is theirs to keep
            self._from_bottom = None
            self._anchor = None
        self._follow = value >= bar.maximum() - 24 and self._from_bottom is None
        if value == 0 < bar.maximum() and self._earlier.isVisible():
            self.earlierWanted.emit()
        self._place_latest()

    def _place_latest(self) -> None:
        """Show "Latest" at the bottom of the view while a quarter of a screen or more is below it, in a strip
        of its own under the text: floating over it, it hid the ends of the lines there, and a match the find
        bar went to. The strip comes and goes with it; a shorter view has more below it, a taller one less,
        so it does not come and go at one place."""
        bar = self.verticalScrollBar()
        below = bar.maximum() - bar.value()
        show = below > max(48, self.viewport().height() // 4)
        hint = self.latest.sizeHint()
        if show and self.latest.isHidden():  # in the theme's colours of the moment
            accent = colors().accent.name()
            self.latest.setStyleSheet(f"QToolButton {{ background: {accent}; color: white; border: none; "
                                      "border-radius: 12px; padding: 4px 12px 4px 8px; }")
            hint = self.latest.sizeHint()
        if show == self.latest.isHidden():
            self.latest.setVisible(show)
            self.setViewportMargins(0, 0, 0, hint.height() + 2 * _LATEST_GAP if show else 0)
        if show:
            self.latest.setGeometry((self.width() - hint.width()) // 2,  # under the column's middle
                                    self.viewport().geometry().bottom() + 1 + _LATEST_GAP, hint.width(), hint.height())

    def keyPressEvent(self, event) -> None:  # noqa: N802 - Qt's name
        """Home and End go to the conversation's start and end (a scroll area moves only by arrows and pages)."""
        if event.key() == Qt.Key.Key_Home:
            self.verticalScrollBar().setValue(0)  # at the top, the page before is built (earlierWanted)
        elif event.key() == Qt.Key.Key_End:
            self.scroll_to_bottom()
        else:
            super().keyPressEvent(event)

    def set_has_earlier(self, on: bool) -> None:
        """Whether messages before the first one shown are left to show."""
        self._earlier.setVisible(on)

    def hold_position(self) -> None:
        """Earlier messages are about to go above: what is on the screen stays there, however tall they
        turn out (their heights settle over several layout passes), until the user scrolls."""
        bar = self.verticalScrollBar()
        self._from_bottom = bar.maximum() - bar.value()
        self._follow = False

    def reveal(self, widget: QWidget, rect: Callable[[], QRect]) -> None:
        """Scroll ``rect()`` (in ``widget``'s coordinates: a match the find bar went to) into view, unless it
        is in view already, a third of the way down; it stays where it was put while the heights of the
        messages around it settle (a page just built above, an answer streaming below), until the user
        scrolls."""
        if isinstance(widget.parentWidget(), QuestionText):  # a match below a long question's fold opens it
            widget.parentWidget().unfold_to(rect())
        height = self.viewport().height()
        offset = self._top_of(widget, rect()) - self.verticalScrollBar().value()  # from the view's top
        if offset < 0 or offset + rect().height() > height:
            offset = height // 3
        self._hold(widget, rect, offset)

    def place(self) -> tuple[int, int] | None:
        """Where the user has scrolled to: the number of the message at the top of the view, and how far its
        top is below the view's (negative: above); None while the view keeps to the latest message."""
        if self._follow:
            return None
        top = self.verticalScrollBar().value()
        for i, item in enumerate(self._widgets()):
            y = self._top_of(item, item.rect())
            if y + item.height() > top:
                return i, y - top
        return None

    def go_to_place(self, place: tuple[int, int] | None) -> None:
        """Scroll back to a ``place`` (see :meth:`place`), kept while the heights settle, until the user
        scrolls; to the latest message for None (or a message no longer there)."""
        items = self._widgets()
        if place is None or place[0] >= len(items):
            self.scroll_to_bottom()
            return
        item = items[place[0]]
        self._hold(item, item.rect, place[1])

    def reading_place(self) -> tuple[int, float] | None:
        """As :meth:`place`, with how far down that message the view's top is as a share of its height (0: at
        its top): a place that still holds once the width, the font or the theme changed the message's height."""
        place = self.place()
        if place is None:
            return None
        height = self._widgets()[place[0]].height()
        return place[0], min(1.0, max(0.0, -place[1] / max(1, height)))

    def go_to_reading_place(self, number: int, share: float) -> None:
        """Scroll back to a :meth:`reading_place`, kept while the heights settle (answers' text rendered a slice
        at a time), until the user scrolls; to the latest message when there is no message ``number``."""
        items = self._widgets()
        if not 0 <= number < len(items):
            self.scroll_to_bottom()
            return
        item = items[number]
        self._hold(item, lambda: QRect(0, round(share * item.height()), 1, 1), 0)

    def _hold(self, widget: QWidget, rect: Callable[[], QRect], offset: int) -> None:
        self._anchor = (widget, rect, offset)
        self._from_bottom = None
        self._follow = False
        self._to_anchor()

    def _top_of(self, widget: QWidget, rect: QRect) -> int:
        return widget.mapTo(self.widget(), rect.topLeft()).y()

    def _to_anchor(self) -> None:
        widget, rect, offset = self._anchor
        if not shiboken6.isValid(widget) or not self.widget().isAncestorOf(widget):
            self._anchor = None
            return
        bar = self.verticalScrollBar()
        self._expected = max(0, min(bar.maximum(), self._top_of(widget, rect()) - offset))
        bar.setValue(self._expected)

    def _on_range(self, _lo: int, hi: int) -> None:
        if self._anchor is not None:
            self._to_anchor()
        elif self._from_bottom is not None:
            self._expected = max(0, hi - self._from_bottom)
            self.verticalScrollBar().setValue(self._expected)
        elif self._follow:
            self.verticalScrollBar().setValue(hi)
        self._place_latest()  # more came below what the user reads

    def scroll_to_bottom(self) -> None:
        self._follow = True
        self._from_bottom = self._anchor = None
        bar = self.verticalScrollBar()
        bar.setValue(bar.maximum())

    def _insert(self, widget: QWidget, at: int | None = None) -> None:
        """Add ``widget`` at the end, or as message number ``at`` from the top."""
        self._empty.hide()
        where = self._items.count() - 1 if at is None else self._items.indexOf(self._empty) + 1 + at
        self._items.insertWidget(where, widget)

    def add_question(self, text: str, at: int | None = None) -> UserBubble:
        bubble = UserBubble(text, self._column)
        row = QWidget(self._column)
        lay = QHBoxLayout(row)
        lay.setContentsMargins(60, 0, 0, 0)
        lay.addStretch(1)
        lay.addWidget(bubble)
        self._insert(row, at)
        if at is None:
            self.scroll_to_bottom()
        return bubble

    def add_answer(self, shown: bool = True) -> AnswerWidget:
        """A new answer at the end; or, not ``shown``, one of a chat not open, kept out of sight (as
        :meth:`clear` keeps one) until its chat is opened (:meth:`attach`)."""
        answer = AnswerWidget(self._column, self.palette_colours, self.show_route, self.settings_source)
        if shown:
            self._insert(answer)
        else:
            answer.hide()
        self.answerAdded.emit(answer)
        return answer

    def add_note(self, note: QWidget) -> None:
        """A line about the conversation (a question waiting its turn) at its end."""
        self._insert(note)
        note.show()
        self.scroll_to_bottom()

    def add_stored(self, message: StoredMessage, at: int | None = None, later: bool = False) -> QWidget:
        """Show a stored message at the end, or as message number ``at`` from the top (an earlier one); with
        ``later``, an answer's text is left for its ``build_step``."""
        if message.role == "user":
            return self.add_question(message.content, at)
        answer = AnswerWidget.from_stored(message, self._column, self.palette_colours, self.show_route,
                                          self.settings_source, later=later)
        self._insert(answer, at)
        self.answerAdded.emit(answer)
        return answer

    def remove(self, widget: QWidget) -> None:
        for item in self._widgets():
            if item is widget or widget.parent() is item:
                if isinstance(item, AnswerWidget):
                    item.cancel_runs()
                self._items.removeWidget(item)
                item.hide()
                item.deleteLater()
                return

    def remove_from(self, bubble: UserBubble) -> list[QWidget]:
        """Remove ``bubble``'s question and everything after it (its answer); returns what was removed."""
        items = self._widgets()
        start = next((i for i, item in enumerate(items) if item is bubble or item.isAncestorOf(bubble)), None)
        if start is None:
            return []
        removed = items[start:]
        for item in removed:
            if isinstance(item, AnswerWidget):
                item.cancel_runs()
            self._items.removeWidget(item)
            item.hide()
            item.deleteLater()
        if not self._widgets():
            self._empty.show()
        return removed

    def clear(self, keep: QWidget | None = None) -> None:
        """Empty the conversation for another chat. ``keep`` (the answer still streaming, whose chat is
        being left) is taken out of it but not deleted: it goes on filling in, out of sight, until it is
        shown again (:meth:`attach`) or, once stored, deleted."""
        self.cancel_runs()
        self._from_bottom = self._anchor = None
        self._earlier.hide()
        gone = self._widgets()
        for item in gone:
            self._items.removeWidget(item)
            item.hide()
        self._empty.show()
        self._bury([item for item in gone if item is not keep])
        self.cleared.emit()

    def following(self) -> bool:
        """Whether the view keeps to the latest message (the user has not scrolled up)."""
        return self._follow

    def drop_first(self, count: int) -> None:
        """Take the first ``count`` messages out (deleted a few per turn of the loop) and offer "Show
        earlier messages" in their place: a live chat of hundreds of answers held every one of their widgets."""
        gone = self._widgets()[:count]
        for item in gone:
            if isinstance(item, AnswerWidget):
                item.cancel_runs()
            self._items.removeWidget(item)
            item.hide()
        self._bury(gone)
        self.set_has_earlier(True)

    def attach(self, answer: AnswerWidget) -> None:
        """Show again, at the end, an answer :meth:`clear` kept."""
        self._insert(answer)
        answer.show()

    def _bury(self, widgets: list[QWidget]) -> None:
        """Delete ``widgets`` (out of the layout and hidden) a few per turn of the loop: a long chat's
        hundred answers destroyed at once, as the next chat opened, froze the window for 100 ms."""
        burying = bool(self._graveyard)
        self._graveyard.extend(widgets)
        if self._graveyard and not burying:
            # a lambda: PySide keeps a weak reference to the view for each timer given its own method, for as
            # long as the view lives (one more at every chat opened)
            QTimer.singleShot(1, self, lambda: self._bury_some())

    def _bury_some(self) -> None:
        batch, self._graveyard = self._graveyard[:BURY_SLICE], self._graveyard[BURY_SLICE:]
        for widget in batch:
            widget.deleteLater()
        if self._graveyard:
            QTimer.singleShot(1, self, lambda: self._bury_some())

    def answers(self) -> list[AnswerWidget]:
        return [w for w in self._widgets() if isinstance(w, AnswerWidget)]

    def questions(self) -> list[UserBubble]:
        return [b for w in self._widgets() for b in w.findChildren(UserBubble)]

    def message_texts(self) -> list[tuple[int, QTextEdit | QPlainTextEdit]]:
        """The text the find bar looks in, top to bottom: each question's, and each answer's reasoning (shown
        or not) and Markdown segments, with the number of the message they belong to among those shown."""
        out: list[tuple[int, QTextEdit | QPlainTextEdit]] = []
        for i, item in enumerate(self._widgets()):
            if isinstance(item, AnswerWidget):
                thinking = item.thinking()
                out += [(i, thinking.body)] if thinking is not None else []
                out += [(i, seg) for seg in item.segments()]
            else:
                out += [(i, bubble.text_view) for bubble in item.findChildren(UserBubble)]
        return out

    def _widgets(self) -> list[QWidget]:
        out = []
        for i in range(self._items.count()):
            w = self._items.itemAt(i).widget()
            if w is not None and w is not self._empty and w is not self._earlier:
                out.append(w)
        return out

    def runs_going(self) -> bool:
        """Whether a Go block of the conversation is running now (Run)."""
        return any(answer.runs_going() for answer in self.answers())

    def cancel_runs(self) -> list[asyncio.Task[None]]:
        """Stop every Go block run in the conversation (the chat or window is closing); the tasks."""
        return [task for answer in self.answers() for task in answer.cancel_runs()]

    def refresh_run_links(self) -> None:
        """``allow_nanogo`` changed: draw the Run links of the Go blocks on screen again."""
        for answer in self.answers():
            answer.refresh_run_links()

    def set_show_route(self, on: bool) -> None:
        self.show_route = on
        for answer in self.answers():
            answer.set_show_route(on)
