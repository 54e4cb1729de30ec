"""The open chat built again in the theme's colours (Settings → Theme, or the system's dark mode with the
theme "system"): its answers' code boxes and tables take their colours as they are built.

The theme can change by itself (the system's dark mode at dusk), so the user keeps their place: the same
messages built, the message at the top of the view where it was, the tool cards and Thinking sections they
opened, the message box as it was (a question being edited, a draft), the find bar open with its words, the
long tables whose rows they showed, and the focus. Built again as a chat opened afresh, the view went to the
end, the edit was cancelled and its words lost, the find bar closed, the focus went to the status bar, every
card and Thinking opened was folded again, and every long table too (even one shown whole as its answer
streamed in).

While it is built (a few slices of the event loop, see chat_loading) a picture of the chat as it was covers
the view: built in sight, its answers showed 30 px tall, cards empty and text over footers, and the view
went to its top and back, for 0.2 to 0.4 s at each change of the theme."""

from __future__ import annotations

from typing import TYPE_CHECKING

import shiboken6
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QApplication, QLabel, QWidget

if TYPE_CHECKING:
    from .answer import AnswerWidget
    from .main_window import MainWindow
    from .thinking import ThinkingToggle
    from .toolcard import ToolCard


def recolour_chat(win: "MainWindow", cover: QLabel | None = None) -> None:
    """Build the open chat again in the new colours, now, even while an answer streams in it.

    The answer streaming is not built again (from the history it would start over): the view keeps it as it
    keeps it for a chat left and opened again (ChatView.clear, then attach), so its text, cards, Stop and
    place go on. Its text takes the new colours at once (AnswerWidget.take_colours); the rest of it (cards'
    details, reasoning) once it ends, when its chat is built again. Until then the whole chat waited for
    that end, and the finished answers' code boxes and tables stayed light under light text. ``cover``: the
    picture of the chat taken before the colours changed (see cover_view)."""
    streaming = win._stream_chat
    if win._answer is not None:
        win._answer.take_colours(win.view.palette_colours)
    if streaming is not None and not win._recolour_due:
        win._recolour_due = True
        win._after_stream.append(lambda: _after_answer(win, streaming))
    if win.chat_id:
        rebuild_in_place(win, cover)
    elif cover is not None:
        cover.deleteLater()


def _after_answer(win: "MainWindow", streamed: str) -> None:
    win._recolour_due = False
    if win.chat_id == streamed:
        rebuild_in_place(win)


def rebuild_in_place(win: "MainWindow", cover: QLabel | None = None) -> None:
    """Build the open chat again where the user is in it, under ``cover`` (see cover_view) or a picture of it
    as it is now (see the module's docstring)."""
    chat, place, parts = win.chat_id, win.view.place(), _opened_parts(win)
    tables = [answer.tables_opened() for answer in win.view.answers()]
    bar = win.find_bar
    finding, current = bar.isVisible(), bar.current
    focus = QApplication.focusWidget()
    cover = cover or cover_view(win.view)
    waiting = [True]

    def done() -> None:
        """Built, or given up for another chat (Ctrl+N): the picture goes, the turn after the heights settled."""
        if waiting:
            waiting.clear()
            win.chatOpened.disconnect(opened)
            QTimer.singleShot(1, cover.deleteLater)

    def opened(chat_id: str) -> None:
        done()
        if chat_id != chat:
            return  # another chat opened meanwhile
        _open_again(win, parts, tables)
        win.view.go_to_place(place)
        if finding:  # built at once, within open_chat: the bar, closed with the chat left, is not back yet
            bar.shown_again()
        bar.search_again(current)
        if QApplication.focusWidget() is win.view:  # in the answer streaming, shown again only now
            _focus_back(focus)

    win.chatOpened.connect(opened)
    win.open_chat(chat, rebuild=True, in_place=True)
    if not win.loading:
        done()  # built at once, or nothing to build (the chat gone from the history)
    else:
        win.view.cleared.connect(done, Qt.ConnectionType.SingleShotConnection)
    if finding:
        bar.shown_again()
    if not _focus_back(focus) and focus is not None and win.isActiveWindow():
        win.view.setFocus()  # in a message built again: the conversation has it


def _foldables(answer: "AnswerWidget") -> list[tuple[int | str, "ThinkingToggle | ToolCard"]]:
    """What the user can open in ``answer``, each with its name in it: its Thinking, and its cards by number."""
    thinking = answer.thinking()
    return ([("thinking", thinking.toggle)] if thinking is not None else []) + list(enumerate(answer.cards()))


def _opened_parts(win: "MainWindow") -> set[tuple[int, int | str]]:
    """The parts opened in the chat shown: (the answer's number, "thinking" or the card's number in it)."""
    return {(i, name) for i, answer in enumerate(win.view.answers())
            for name, part in _foldables(answer) if part.expanded}


def _open_again(win: "MainWindow", opened: set[tuple[int, int | str]], tables: list[frozenset[int] | None]) -> None:
    """Open again the parts ``opened`` (see _opened_parts) of the chat built again, and show the rows of each
    answer's ``tables`` opened (see AnswerWidget.tables_opened)."""
    for i, answer in enumerate(win.view.answers()):
        for name, part in _foldables(answer):
            if (i, name) in opened:
                part.set_expanded(True)
        if i < len(tables):
            answer.open_tables(tables[i])


def cover_view(view: QWidget) -> QLabel:
    """A picture of ``view`` as it is, over it, until the chat built again under it is complete. Taken
    before the theme's colours change: taken after, its widgets showed some parts in the new colours and some
    in the old (the text of an open card dark on its new dark box)."""
    cover = QLabel(view)
    cover.setObjectName("chatCover")
    cover.setPixmap(view.grab())
    cover.setGeometry(view.rect())
    cover.show()
    return cover


def _focus_back(focus: QWidget | None) -> bool:
    """Give the focus back to ``focus``, if it is still there and shown."""
    if focus is not None and shiboken6.isValid(focus) and focus.isVisible():
        focus.setFocus()
        return True
    return False
