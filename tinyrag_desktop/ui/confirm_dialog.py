"""The shell tool's question: the exact command, Run or Deny, and "allow for this chat"; and how the window's
other questions open (open_question)."""

from __future__ import annotations

import asyncio
import html
import sqlite3
from typing import Callable

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QFontDatabase, QTextDocumentFragment
from PySide6.QtWidgets import (QAbstractButton, QCheckBox, QDialog, QDialogButtonBox, QLabel, QMessageBox,
                               QPlainTextEdit, QPushButton, QSizePolicy, QVBoxLayout, QWidget)

from ..hidden_text import visible_command
from ..tool_words import tool_title
from .focus_ring import FocusRing
from .theme import colors, style_sheet


_COMMAND_MOST = 140  # pixels: a longer command scrolls in its box
_SAID_MOST = 300  # characters of the command a screen reader says as the dialog opens


def open_question(box: QMessageBox, default: QPushButton, escape: QAbstractButton,
                  answered: Callable[[QMessageBox], None]) -> None:
    """Open ``box`` over its window without blocking it (answers go on streaming; a test answers it by its
    buttons), with Enter on ``default`` and Esc on ``escape``; ``answered(box)`` once it is answered."""
    box.setDefaultButton(default)
    box.setEscapeButton(escape)
    # Its buttons as the app's others, as the shell question's (Qt's grey ones stood out): the default in the
    # app's blue, a button that cuts work short (objectName "questionRisky") in the error colours as Stop
    if not default.objectName():
        default.setObjectName("questionDefault")
    box.setStyleSheet(style_sheet(colors().dark))
    box.setWindowModality(Qt.WindowModality.WindowModal)
    box.finished.connect(lambda _result: answered(box))
    box.open()


class ConfirmDialog(QDialog):
    """Asks before a tool runs something on this computer. Deny is the default button."""

    def __init__(self, tool: str, text: str, parent: QWidget | None = None, elsewhere: str = "") -> None:
        """``elsewhere``: the title of the chat asking, when it is not the one on screen (its answer goes on
        while another is read): the question names it, as "this chat" would read as the one open."""
        super().__init__(parent)
        self.setObjectName("confirmDialog")
        self.setWindowTitle("Run this command?")
        self.setMinimumWidth(480)
        layout = QVBoxLayout(self)
        where = f" (in the chat “{html.escape(elsewhere)}”, not the one open)" if elsewhere else ""
        # named by its card's title ("Shell command"), not the model's name for the tool ("shell")
        intro = QLabel(f"<b>{html.escape(tool_title(tool))}</b>: the model wants to run this on your "
                       f"computer{where}:", self)
        intro.setWordWrap(True)
        # A wrapped label is the one part of the dialog that grows in height, and centres its text in it: the
        # height the window had over its content (when it opens, before _fit_height; made taller by hand)
        # showed as an empty band above the question, 57 px of it. Its text stays at the top, and the room
        # left over goes above the buttons (the stretch below).
        intro.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        # What could hide a part of it (blank lines, a bidi override, a carriage return) shown as marks: the
        # dangerous part of a command must not sit out of sight while the rest is read (hidden_text)
        self.command = QPlainTextEdit(visible_command(text), self)
        self.command.setObjectName("confirmCommand")
        self.command.setReadOnly(True)
        self.command.setTabChangesFocus(True)  # as read-only text does already: said, not left to chance
        self.command.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.command.setAccessibleName("Command to run")
        FocusRing(self.command, self.command, radius=3)  # read-only, it showed no change at all with the focus
        # A screen reader reads the dialog's labels as it opens, then Deny: the command itself went unsaid
        said = self.command.toPlainText()
        said = said if len(said) <= _SAID_MOST else said[:_SAID_MOST] + "… (the rest in the box)"
        intro.setAccessibleName(f"{QTextDocumentFragment.fromHtml(intro.text()).toPlainText()} {said}")
        self.command.setMaximumHeight(_COMMAND_MOST)
        self.command.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.command.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        lines = len(text.splitlines())
        # Said when the box scrolls (see _fit_command): a thin scroll bar alone hid the lines below
        self.scroll_note = QLabel(f"The command has {lines} lines: scroll the box to read all of it before you "
                                  "run it." if lines > 1 else "The command is long: scroll the box to read all of "
                                  "it before you run it.", self)
        self.scroll_note.setObjectName("confirmScrollNote")
        self.scroll_note.setWordWrap(True)
        self.scroll_note.hide()
        self.allow_chat = QCheckBox("&Allow commands without asking for the rest of "
                                    + (f"“{elsewhere.replace('&', '&&')}”" if elsewhere else "this chat"), self)
        self.allow_chat.setObjectName("allowForChat")
        buttons = QDialogButtonBox(self)
        self.run_button = QPushButton("&Run", self)
        self.run_button.setObjectName("confirmRun")
        self.deny_button = QPushButton("&Deny", self)
        self.deny_button.setObjectName("confirmDeny")
        buttons.addButton(self.run_button, QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.addButton(self.deny_button, QDialogButtonBox.ButtonRole.RejectRole)
        # Alt+R, Alt+D and Alt+A: Run was three Tabs away from Deny, where the dialog opens
        self.deny_button.setDefault(True)
        self.deny_button.setAutoDefault(True)
        self.run_button.setAutoDefault(False)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(intro)
        layout.addWidget(self.scroll_note)
        layout.addWidget(self.command)
        layout.addWidget(self.allow_chat)
        layout.addStretch(1)
        layout.addWidget(buttons)
        self.setStyleSheet(style_sheet(colors().dark))  # its buttons as the app's others (Qt's grey ones stood out)
        self.deny_button.setFocus()

    def resizeEvent(self, event) -> None:  # noqa: N802
        super().resizeEvent(event)
        self._fit_command()

    def showEvent(self, event) -> None:  # noqa: N802
        super().showEvent(event)
        # Fitted now, before the window is put on the screen: it opened as tall as a command box of the most
        # lines (Qt's first size takes the box's hint), and only then shrank, if the window system let it.
        self._fit_height()
        QTimer.singleShot(0, self, self._fit_height)  # and again once the window system has given it its size

    def _fit_height(self) -> None:
        """No gaps around a short command: the window as tall as its content at its width (Qt sized it by the
        wrapped intro's hint for a narrower line, and the box's, seven lines tall)."""
        self._fit_command()
        layout = self.layout()
        layout.invalidate()
        layout.activate()  # now, not at the next event: the window's least height is still the box's old one
        if layout.hasHeightForWidth():
            self.resize(self.width(), layout.totalHeightForWidth(self.width()))

    def _fit_command(self) -> None:
        """The command's box as tall as its wrapped lines, up to _COMMAND_MOST (then it scrolls): "ls" sat at
        the top of a box seven lines tall."""
        box = self.command
        margin = int(box.document().documentMargin())
        width = max(50, box.viewport().width() - 2 * margin)
        fm = box.fontMetrics()
        text = box.toPlainText() or " "
        lines = sum(max(1, -(-fm.horizontalAdvance(line) // width)) for line in text.split("\n"))
        height = fm.lineSpacing() * max(2, lines) + 2 * (margin + box.frameWidth()) + 2
        box.setFixedHeight(min(_COMMAND_MOST, height))
        scrolls = height > _COMMAND_MOST
        if self.scroll_note.isHidden() == scrolls:
            self.scroll_note.setVisible(scrolls)
            if self.isVisible():  # the window fitted again, without the note's room or with it
                QTimer.singleShot(0, self, self._fit_height)


class Confirmer:
    """The ``confirm(tool, text)`` coroutine the engine hands to tools, with per-chat "always allow".

    One question at a time, in the order the calls came: two commands in one round run side by side, and
    each opened its dialog at once, the second on top of the first (answered first, out of order)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        self._parent = parent
        self._allowed_chats: set[str] = set()
        self._turn = asyncio.Lock()  # first come, first asked
        self.current: ConfirmDialog | None = None
        self.waiting = 0  # questions waiting for the one shown to be answered

    def allowed(self, chat_id: str | None) -> bool:
        return chat_id is not None and chat_id in self._allowed_chats

    async def confirm(self, tool: str, text: str, chat_id: str | None = None) -> bool:
        if self.allowed(chat_id):
            return True
        answer = getattr(self._parent, "_answer", None)
        card = self._card_asking(answer, tool, text)
        if card is not None:  # its spinner alone read as if the command were running
            card.set_waiting(True)
            answer.hold(card, True)  # not run until allowed (a Regenerate stopped now keeps the old answer)
        allowed = False
        try:
            self.waiting += 1
            try:
                await self._turn.acquire()
            finally:
                self.waiting -= 1
            try:
                # "allow for the rest of this chat" may have been ticked in the question before
                allowed = self.allowed(chat_id) or await self._ask(tool, text, chat_id)
                return allowed
            finally:
                self._turn.release()
        finally:
            if card is not None:
                try:
                    card.set_waiting(False)
                    answer.hold(card, not allowed)
                except RuntimeError:  # the card went with its answer (the chat was left)
                    pass

    @staticmethod
    def _card_asking(answer, tool: str, text: str):
        """The running card of the call this question is for, in ``answer``, the one being written (None if none)."""
        for card in answer.cards() if answer is not None else ():
            if (card.status == "running" and not card.waiting and card.tool_name == tool
                    and card.query.strip() == text.strip()):
                return card
        return None

    async def _ask(self, tool: str, text: str, chat_id: str | None) -> bool:
        dialog = ConfirmDialog(tool, text, self._parent, self._elsewhere(chat_id))
        self.current = dialog
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[int] = loop.create_future()
        dialog.finished.connect(lambda code: answer.done() or answer.set_result(code))
        dialog.open()  # window-modal, but the event loop (and the stream) keep running
        try:
            code = await answer
        except asyncio.CancelledError:
            dialog.reject()  # the answer was stopped while asking: close the question, run nothing
            raise
        finally:
            self.current = None
            dialog.deleteLater()
        ok = code == QDialog.DialogCode.Accepted.value
        if ok and dialog.allow_chat.isChecked() and chat_id is not None:
            self._allowed_chats.add(chat_id)
        return ok

    def _elsewhere(self, chat_id: str | None) -> str:
        """The title of ``chat_id`` when the window shows another chat ("" when it is the one open)."""
        window = self._parent
        if chat_id is None or getattr(window, "chat_id", chat_id) == chat_id:
            return ""
        try:
            chat = window.store.get_chat(chat_id)
        except sqlite3.Error:  # the history locked or damaged: the question still asks, without the title
            return "another chat"
        return chat.title if chat is not None and chat.title else "another chat"

    def for_chat(self, chat_id: str | None):
        """A ``confirm(tool, text)`` bound to one chat, as ToolContext.confirm expects."""

        async def confirm(tool: str, text: str) -> bool:
            return await self.confirm(tool, text, chat_id)

        return confirm
