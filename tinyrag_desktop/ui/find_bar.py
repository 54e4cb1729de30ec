"""FindBar (`findBar`): Find in chat (Ctrl+F): the words marked in the open chat's questions and answers.

The matches are looked for, paragraph by paragraph, in the documents of the text views as they are shown,
and marked with extra selections: nothing is rendered again, and a selection of the user's is left alone.
Only the matches near the screen are marked, more as the conversation scrolls. A long chat shows its last
page only (see MainWindow.open_chat): its messages not built yet are looked in as stored, and going past the
first match shown (Shift+Enter, or Enter when no match is shown) builds the pages down to the nearest
message above that holds the words, a page per turn of the event loop.

Text an answer does not show is looked in too, and its matches counted: the rows of a long table folded (going to
one shows them all, as its note's "Show all N rows" does, then selects it), and what is cut off a paragraph,
a table or a code line too long to lay out (the note that stands for it is marked, and the bar says the match is
in text not shown, with a button that copies the whole answer). An answer's reasoning is looked in whether its
Thinking is open or closed: going to a match in it opens it (as a click on "Thinking" does), and scrolls its box
to the match (the caret moved there: a selection of the user's in that box goes); what is cut off a line of it too
long to lay out is looked in as an answer's is, its note marked, with a button that copies the whole reasoning.
"""

from __future__ import annotations

from bisect import bisect_left
from typing import TYPE_CHECKING, Callable

import shiboken6
from PySide6.QtCore import QEvent, QPoint, Qt, QTimer
from PySide6.QtGui import QColor, QGuiApplication, QKeyEvent, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QLineEdit, QPlainTextEdit, QTextEdit, QToolButton, QWidget

from ..chat_find import search_words
from ..chats import StoredMessage
from ..search_text import fold
from . import access
from .find_matches import (LeftOut, Match, TextView, cursor_of, find_words, groups, holds, match_rect, order_key,
                           run_end, same_place, start_key)
from .icons import ArrowButton
from .segments import MarkdownSegment
from .thinking import ReasoningText, ThinkingSection
from .theme import colors

if TYPE_CHECKING:
    from .main_window import MainWindow

REFRESH_AFTER = 250  # ms after the conversation changed (an answer streaming, a page built) to mark again
LOAD_POLL = 5  # ms between looks at whether the page being built is done


class _FindBox(QLineEdit):
    """The words to find: Enter goes to the next match, Shift+Enter to the one before."""

    def __init__(self, bar: "FindBar") -> None:
        super().__init__(bar)
        self._bar = bar

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt's name
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self._bar.step(not event.modifiers() & Qt.KeyboardModifier.ShiftModifier)
        else:
            super().keyPressEvent(event)



class FindBar(QFrame):
    """The bar above the message box: the words, "n of m", Previous, Next and Close."""

    def __init__(self, win: "MainWindow", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("findBar")
        self.setAccessibleName("Find in chat")
        self._win = win
        self._view = win.view
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 2)
        row.setSpacing(4)
        self.box = access.caret_placed(_FindBox(self))
        self.box.setObjectName("findText")
        self.box.setPlaceholderText("Find in chat")
        self.box.setAccessibleName("Find in chat")
        self.box.setClearButtonEnabled(True)
        self.box.textChanged.connect(lambda _t: self._typed())
        self.count = QLabel("", self)
        self.count.setObjectName("findCount")
        self.count.setContentsMargins(6, 0, 6, 0)
        self.count.setWordWrap(True)  # its longest words on two lines in a narrow window, not a wider window
        self.prev_button = self._button("findPrevious", "Previous match (Shift+Enter, Shift+F3)",
                                        lambda: self.step(False), Qt.ArrowType.UpArrow)
        self.next_button = self._button("findNext", "Next match (Enter, F3)", lambda: self.step(True),
                                        Qt.ArrowType.DownArrow)
        # shown while the match gone to is in text too long to show: the answer's Copy keeps all of it (see _COPY)
        self.copy_button = self._button("findCopyAnswer", _COPY["cut"][1], self._copy_answer, text=_COPY["cut"][0])
        self.copy_button.hide()
        close = self._button("findClose", "Close (Esc)", self.close_bar, text="×")
        self.box.setMaximumWidth(self.box.fontMetrics().averageCharWidth() * 44)
        row.addWidget(self.box, 1)
        row.addWidget(self.prev_button)
        row.addWidget(self.next_button)
        row.addWidget(self.count)
        row.addWidget(self.copy_button)
        row.addStretch(0)
        row.addWidget(close)
        self._matches: list[Match] = []
        self._current = -1
        self._groups: list[tuple[TextView, int, int]] = []  # each view's matches: from, to (one past)
        self._marked: list[TextView] = []  # the text views that carry marks
        self._stored: tuple[str, list[tuple[int, str]]] | None = None  # a chat's messages: id, folded text
        self._left_out = LeftOut()  # each segment's text not shown
        self._turn = 0  # bumped when the bar closes or the chat goes: a page load under way gives up
        self._loading = ""  # what the bar waits for (earlier messages built, a table's rows shown), in words
        self._refresh = QTimer(self)
        self._refresh.setSingleShot(True)
        self._refresh.setInterval(REFRESH_AFTER)
        self._refresh.timeout.connect(lambda: self._search(show=False, tell=False))  # (not said: it streams)
        self._view.verticalScrollBar().rangeChanged.connect(lambda *_: self._changed())  # a page built
        self._view.answerAdded.connect(lambda answer: answer.rendered.connect(self._changed))  # more text
        # Only the text on screen, and a screen above and below, is marked: 50,000 matches marked at once
        # took seconds. More is marked as the conversation scrolls.
        self._paint_timer = QTimer(self)
        self._paint_timer.setSingleShot(True)
        self._paint_timer.setInterval(15)
        self._paint_timer.timeout.connect(self._paint)
        self._view.verticalScrollBar().valueChanged.connect(lambda _v: self._matches and self._paint_timer.start())
        self._view.cleared.connect(self._chat_left)
        # After MainWindow.open_chat (connected first): a search hit opened goes to the words
        win.sidebar.chatSelected.connect(self._hit_opened)
        self.hide()

    def event(self, event: QEvent) -> bool:
        """Esc, in the box or on a button, closes the bar and stops no answer (the window's Esc is Stop)."""
        if event.type() == QEvent.Type.ShortcutOverride and event.key() == Qt.Key.Key_Escape:
            event.accept()
            return True
        return super().event(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt's name
        if event.key() == Qt.Key.Key_Escape:
            self.close_bar()
        else:
            super().keyPressEvent(event)

    def _button(self, name: str, tip: str, slot: Callable[[], object], arrow: Qt.ArrowType | None = None,
                text: str = "") -> QToolButton:
        button = ArrowButton(arrow, self) if arrow is not None else QToolButton(self)  # an arrow as big as the text
        button.setObjectName(name)
        button.setAccessibleName(tip.split(" (")[0])
        button.setToolTip(tip)
        button.setAutoRaise(True)
        if arrow is None:
            button.setText(text)
        button.clicked.connect(slot)
        return button

    # opening and closing ------------------------------------------------------------------------------
    def open_bar(self) -> None:
        """Edit → Find in chat (Ctrl+F): the bar, its words selected, the focus in it, their matches marked."""
        self.show()
        self.box.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.box.selectAll()
        if self.box.text() and not self._matches:
            self._search(show=True)

    def close_bar(self) -> None:
        """Esc: the marks go, and the focus goes back to the message box."""
        self._let_go()
        self.hide()
        self._win.composer.setFocus(Qt.FocusReason.OtherFocusReason)

    def _chat_left(self) -> None:
        """Another chat (or a new one) takes the conversation: the bar closes, keeping its words."""
        self._stored = None
        self._left_out.clear()
        self._let_go()
        self.hide()

    def shown_again(self) -> None:
        """The chat was built again where it was (see recolour.py): the bar, closed with it, is back."""
        self.show()

    def search_again(self, current: int) -> None:
        """The chat built again is all there: its matches marked again, in the theme's colours, the one gone to
        (``current``) kept."""
        if self.isVisible() and self.words():
            self._search(show=False, tell=False)
            if 0 <= current < len(self._matches):
                self._mark(self._matches, current)
                self._say(False)

    def _let_go(self) -> None:
        self._turn += 1
        self._loading = ""
        self._refresh.stop()
        self._mark([], -1)

    def find_next(self) -> None:
        """F3: the next match (the bar opened first, if it was closed)."""
        self._step_from_key(True)

    def find_previous(self) -> None:
        """Shift+F3: the match before."""
        self._step_from_key(False)

    def _step_from_key(self, forward: bool) -> None:
        if not self.isVisible():
            self.open_bar()
        self.step(forward)

    # looking ------------------------------------------------------------------------------------------
    def words(self) -> str:
        return " ".join(self.box.text().split())

    def matches(self) -> list[tuple[TextView, QTextCursor]]:
        """The matches found, top to bottom: each one's text view and its selection."""
        return [(view, cursor_of(view, start, end)) for _n, _o, view, start, end, _h in self._matches]

    @property
    def current(self) -> int:
        """The number of the match gone to (from 0), or -1."""
        return self._current

    def in_text_not_shown(self) -> str:
        """Where the match gone to is when the answer does not show it: "rows" (of a long table folded), "cut"
        (text too long to lay out), "thinking" (the answer's reasoning, closed), "reasoning cut" (a line of the
        reasoning too long to lay out); else ""."""
        if not 0 <= self._current < len(self._matches):
            return ""
        _n, _o, view, _s, _e, part = self._matches[self._current]
        if _closed_thinking(view) is not None:
            return "thinking"
        if part is None:
            return ""
        return "rows" if part.rows else "reasoning cut" if isinstance(view, ReasoningText) else "cut"

    def _typed(self) -> None:
        self._turn += 1  # new words: a page load for the old ones is no longer wanted
        self._loading = ""
        self._search(show=True)

    def _changed(self) -> None:
        """The conversation changed (an answer grew, a page was built): look again soon, and every
        REFRESH_AFTER ms while it goes on changing (an answer streaming)."""
        if self.isVisible() and self.words() and not self._loading and not self._refresh.isActive():
            self._refresh.start()

    def _find(self) -> list[Match]:
        """The words' matches in the text shown and not shown, top to bottom (see find_matches)."""
        return find_words(self._view.message_texts(), self.words(), self._left_out)

    def _search(self, *, show: bool, tell: bool = True) -> None:
        """Find the words in the text shown and stay on the match gone to, or the next one (more letters
        typed; an answer streaming moved it); with none, and ``show``, go to the first one on screen, or the
        last above it. With ``show``, scroll to it."""
        old = self._place(self._current)
        found = self._find()
        self._mark(found, same_place(found, old) if old is not None or not show else self._first_in_view(found))
        if show:
            self._show_current()
        self._say(tell)

    def _place(self, index: int) -> tuple[TextView, int, int, int] | None:
        """Where match ``index`` is: its text view, its start, the view's order among those shown, and how many
        matches before it share its start (those in text not shown: at the note that stands for it)."""
        if not 0 <= index < len(self._matches):
            return None
        _n, order, view, start, _end, _h = self._matches[index]
        first = bisect_left(self._matches, order, 0, index, key=order_key)  # the first match in the view
        return view, start, order, index - bisect_left(self._matches, start, first, index, key=start_key)

    def _first_in_view(self, found: list[Match]) -> int:
        """The first match at or below the top of what is on screen; else the last one above it."""
        top = self._view.verticalScrollBar().value()
        canvas = self._view.widget()
        for first, after, view in groups(found):
            if (thinking := _closed_thinking(view)) is not None:  # its matches are where its toggle is
                if thinking.mapTo(canvas, QPoint(0, 0)).y() >= top:
                    return first
                continue
            if view.mapTo(canvas, QPoint(0, view.height())).y() < top:
                continue  # all of it above the screen
            i = first
            while i < after:
                if view.viewport().mapTo(canvas, match_rect(view, found[i][3]).topLeft()).y() >= top:
                    return i
                i = run_end(found, i, after)
        return len(found) - 1

    def step(self, forward: bool) -> None:
        """Enter / F3 (``forward``) or Shift+Enter / Shift+F3: the next match, or the one before; past the
        first one shown, the earlier messages that hold the words are built and the step goes on there. A match
        in a long table's rows not shown, or in a closed Thinking, is gone to by showing them first (Enter on one
        the words were typed onto stays on it)."""
        if not self.words() or self._loading:
            return
        self._search(show=False)  # an answer streaming may have moved or added matches
        count, at = len(self._matches), self._current
        above = self._stored_above()
        if above and (count == 0 or (at <= 0 and not forward) or (at == count - 1 and forward)):
            # back: the nearest message above that holds the words; on past the last match: round to the
            # chat's first one
            target = above[0] if forward and count else above[-1]
            first, shown = self._place(0), self._win.first_shown
            self._load_down_to(target, lambda: self._after_load(first, forward and bool(count), shown))
            return
        if count:
            if not (forward and self.in_text_not_shown() in ("rows", "thinking")):  # (Enter on one typed onto)
                self._current = (at + (1 if forward else -1)) % count if at >= 0 else (0 if forward else count - 1)
            if self.in_text_not_shown() == "rows":
                self._show_rows(self._current)
                return
            self._go_to(self._matches, self._current)
        self._say()

    def _show_rows(self, index: int) -> None:
        """Match ``index`` is in the rows of a long table not shown: show them (as its note's "Show all N rows"
        does, a few pieces a turn of the event loop), then go to it, now shown."""
        note = self._matches[index][2]
        answer = next((a for a in self._view.answers() if note in a.segments()), None)
        if not isinstance(note, MarkdownSegment) or answer is None:
            return
        note.rowsAsked.emit()

        def shown() -> None:
            found = self._find()
            self._go_to(found, min(index, len(found) - 1))  # the matches above it are where they were
            self._say()

        self._when(lambda: note.fold is None and not answer.building, shown, "Showing all rows…")

    def _after_load(self, first: tuple[TextView, int, int, int] | None, round_to_top: bool,
                    shown: int | None) -> None:
        """The pages down to the message wanted are built: go to the match just above the one that was
        first (``first``; None: there was none, so to the last), or, ``round_to_top``, to the first of all."""
        found = self._find()
        if round_to_top:
            index = 0 if found else -1
        elif first is None:
            index = len(found) - 1
        else:
            was_first = same_place(found, first)
            index = was_first - 1
            if index < 0 and self._stored_above() and self._win.first_shown != shown:
                # that message holds the words as stored only (in a link's address): look further up
                self._mark(found, was_first)
                self.step(False)
                return
        self._go_to(found, index)
        self._say()

    # a search hit opened from the chats list -----------------------------------------------------------
    def _hit_opened(self, chat_id: str) -> None:
        """A chat opened from the chats list while its search box had words: the bar opens on them, and
        goes to the first message that holds them (the pages down to it built first)."""
        words = " ".join(self._win.sidebar.search.text().split())
        if not words or chat_id != self._win.chat_id:
            return
        self._let_go()
        self._stored = None  # read again: the chat may have been open, and asked in, since it was read
        apart = search_words(words)  # as the search read them: "(tax)" is "tax", "tax-return" is "tax return"
        for words in dict.fromkeys([words, " ".join(apart), max(apart, key=len)]):
            ids = [i for i, text in self._stored_messages() if holds(text, words)]
            if ids:  # as typed, else the words apart ("capital France"): at the longest
                break
        if not ids:
            return  # only its title holds the words: it opens as any chat does
        self.box.blockSignals(True)  # no search of a page half built
        self.box.setText(words)
        self.box.blockSignals(False)
        self.show()

        def go() -> None:
            found = self._find()
            first = self._win.first_shown or 0
            number = sum(1 for i, _t in self._stored_messages() if first <= i < ids[0])  # its place shown
            self._go_to(found, next((i for i, match in enumerate(found) if match[0] >= number), len(found) - 1))
            self._say()

        self._load_down_to(ids[0], go)

    # the pages not built yet ----------------------------------------------------------------------------
    def _stored_messages(self) -> list[tuple[int, str]]:
        """The open chat's stored messages (id, text folded: see search_text), read once per chat opened."""
        chat_id = self._win.chat_id
        if chat_id is None:
            return []
        if self._stored is None or self._stored[0] != chat_id:
            messages: list[StoredMessage] = self._win.store.messages(chat_id)
            self._stored = (chat_id, [(m.id, fold(f"{m.reasoning}\n{m.content}")) for m in messages])
        return self._stored[1]

    def _stored_above(self) -> list[int]:
        """The ids of the messages above those shown (not built yet) that hold the words, as stored."""
        first = self._win.first_shown
        if first is None:
            return []
        words = self.words()
        return [i for i, text in self._stored_messages() if i < first and holds(text, words)]

    def _load_down_to(self, message_id: int | None, then: Callable[[], None]) -> None:
        """Build the pages above until message ``message_id`` is shown (the chat being opened first), a
        page per turn of the event loop, then ``then()``; given up if the bar closes or the chat goes."""

        def built() -> bool:  # (or the next page asked for)
            first = self._win.first_shown
            return not (self._win.loading or (message_id is not None and first is not None and first > message_id
                                              and self._win.show_earlier()))

        self._when(built, then, "Looking in earlier messages…")

    def _when(self, ready: Callable[[], bool], then: Callable[[], None], waiting: str) -> None:
        """``then()`` once ``ready()`` says so, asked every LOAD_POLL ms, the bar saying what it is ``waiting``
        for meanwhile; given up if the bar closes, the words change or the chat goes."""
        turn = self._turn
        self._loading = waiting
        self._say()

        def go_on() -> None:
            if turn != self._turn:
                return
            if not ready():
                QTimer.singleShot(LOAD_POLL, self, go_on)
                return
            self._loading = ""
            then()

        go_on()

    # marking --------------------------------------------------------------------------------------------
    def _mark(self, found: list[Match], current: int) -> None:
        """Take ``found`` as the matches, with ``current`` the one gone to, and mark those near the screen."""
        self._matches, self._current = found, current
        self._groups = [(view, first, after) for first, after, view in groups(found)]
        self._paint()

    def _paint(self) -> None:
        """Mark the matches on screen, and a screen above and below (the one gone to in a stronger colour);
        take the marks off the other text views."""
        self._paint_timer.stop()
        c = colors()
        every, this = QTextCharFormat(), QTextCharFormat()
        every.setBackground(QColor("#7a5c00") if c.dark else QColor("#fde68a"))
        this.setBackground(QColor("#f59e0b"))
        this.setForeground(QColor("#111111"))
        height = self._view.viewport().height()
        top = self._view.verticalScrollBar().value()
        canvas = self._view.widget()
        marked: list[TextView] = []
        for view, first, after in self._groups:
            if not shiboken6.isValid(view):
                continue
            y = view.mapTo(canvas, QPoint(0, 0)).y()
            if (y + view.height() < top - height or y > top + 2 * height) and not first <= self._current < after:
                continue
            selections = []
            i = first
            while i < after:  # (the matches in text not shown, at the note that stands for it: marked once)
                end = run_end(self._matches, i, after)
                selection = QTextEdit.ExtraSelection()
                selection.cursor = cursor_of(view, *self._matches[i][3:5])
                selection.format = this if i <= self._current < end else every
                selections.append(selection)
                i = end
            view.setExtraSelections(selections)
            marked.append(view)
        for view in self._marked:
            if shiboken6.isValid(view) and all(view is not other for other in marked):
                view.setExtraSelections([])
        self._marked = marked

    def _go_to(self, found: list[Match], index: int) -> None:
        """Take ``found`` as the matches and go to match ``index``: a closed Thinking that holds it is opened (as
        a click on "Thinking" does), and the match scrolled to."""
        if 0 <= index < len(found) and (thinking := _closed_thinking(found[index][2])) is not None:
            thinking.toggle.setChecked(True)
        self._mark(found, index)
        self._show_current()

    def _show_current(self) -> None:
        if not 0 <= self._current < len(self._matches):
            return
        _n, _o, view, start, _end, _h = self._matches[self._current]
        if (thinking := _closed_thinking(view)) is not None:  # (Enter opens it)
            self._view.reveal(thinking.toggle, thinking.toggle.rect)
            return
        if isinstance(view, QPlainTextEdit) and not view.viewport().rect().contains(match_rect(view, start)):
            view.setTextCursor(cursor_of(view, start, start))  # the reasoning scrolls in a box of its own
        self._view.reveal(view.viewport(), lambda: match_rect(view, start))

    def _say(self, tell: bool = True) -> None:
        """Show how many matches there are and which one is gone to ("2 of 5"), and, ``tell``, have a screen
        reader say it: it was never said (see access.tell)."""
        hidden = "" if self._loading else self.in_text_not_shown()
        if self._loading:
            text = self._loading
        elif not self.words():
            text = ""
        else:
            count, more = len(self._matches), bool(self._stored_above())
            if count:
                text = f"{self._current + 1} of {count}" if self._current >= 0 else f"{count} found"
                text += _HIDDEN_SAID[hidden]
                text += ", more above" if more else ""
            else:
                text = "Earlier in this chat: press Enter" if more else "Not found"
        self.count.setText(text)
        copy = _COPY.get(hidden)  # (its "Copied ✓" goes)
        self.copy_button.setVisible(copy is not None)
        if copy is not None:
            self.copy_button.setText(copy[0])
            self.copy_button.setToolTip(copy[1])
            self.copy_button.setAccessibleName(copy[1])
        if tell:
            access.tell(self.box, text)
        tips = [_HIDDEN_TIPS[hidden]] if hidden else []
        if "above" in text:
            tips.append("Earlier messages of this chat, not shown yet, hold these words too: going up past the first "
                        "match shows them.")
        self.count.setToolTip(" ".join(tips))

    def _copy_answer(self) -> None:
        """Copy answer: the whole answer holding the match gone to, as its own Copy does (with its text not
        shown, which a selection would leave out); Copy reasoning: the whole reasoning that holds it."""
        if not self.in_text_not_shown():
            return
        view = self._matches[self._current][2]
        if isinstance(view, ReasoningText) and isinstance(thinking := view.parentWidget(), ThinkingSection):
            QGuiApplication.clipboard().setText(thinking.text())
            copied = "The whole reasoning is copied"
        elif (answer := next((a for a in self._view.answers() if view in a.segments()), None)) is not None:
            answer.copy_markdown()
            copied = "The whole answer is copied"
        else:
            return
        self.copy_button.setText("Copied ✓")
        access.tell(self.copy_button, copied)


# What the count says of a match in text an answer does not show (see FindBar.in_text_not_shown), and its tooltip
_HIDDEN_SAID = {"rows": " in rows not shown: press Enter", "cut": ", in text not shown",
                "reasoning cut": ", in text not shown", "thinking": " in Thinking, closed: press Enter", "": ""}
_HIDDEN_TIPS = {
    "rows": "This match is in rows of a long table that are not shown yet: Enter shows them all and goes to it.",
    "cut": "This match is in text too long to show (the marked note says how much is left out there). Copy "
           "answer, or the answer's Copy button, copies all of it.",
    "reasoning cut": "This match is in a line of the model's reasoning too long to show (the marked note says how "
                     "much is left out there). Copy reasoning copies all of it.",
    "thinking": "This match is in the model's reasoning (Thinking), which is closed: Enter opens it and goes to it.",
}
# The button shown with a match in text too long to show, and what it does (its tooltip and accessible name)
_COPY = {"cut": ("Copy answer", "Copy the whole answer as Markdown, with the text not shown"),
         "reasoning cut": ("Copy reasoning", "Copy the whole reasoning, with the text not shown")}


def _closed_thinking(view: TextView) -> ThinkingSection | None:
    """The Thinking section whose reasoning ``view`` is, if it is closed."""
    thinking = view.parentWidget() if shiboken6.isValid(view) else None  # (a reasoning taken back goes)
    if isinstance(thinking, ThinkingSection) and view is thinking.body and not thinking.toggle.isChecked():
        return thinking
    return None
