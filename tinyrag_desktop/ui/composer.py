"""The composer (`composer`): Enter sends, Shift+Enter starts a new line; grows with its text up to a limit."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Callable

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QKeyEvent, QResizeEvent, QTextCursor
from PySide6.QtWidgets import QFrame, QPlainTextEdit, QWidget

from ..files import write_whole
from .access import tell
from .bidi import text_direction

log = logging.getLogger(__name__)

_MIN_LINES, _MAX_LINES = 2, 10
DRAFTS_FILE = "drafts.json"  # in the data folder: what was typed and not sent, by chat ("" a new chat)
# Its entry (no chat's id) for the drafts that rewrite their chat's last question (↑): by chat, that question's
# stored id. An older version passes it over (not words), and keeps the drafts as ordinary ones.
EDITS_KEY = "(editing)"
DRAFT_SAVE_MS = 1000  # written this long after typing stops
# The hint in the empty box, and what it shrinks to where the whole of it would not fit in its lines.
NEW_LINE = "Shift+Enter for a new line"  # the one wording, here and in the empty chat's hint (chat_view)
PLACEHOLDER = f"Ask anything…  (Enter sends, {NEW_LINE})"
SHORT_PLACEHOLDER = "Ask anything…"
_HINT_SLACK = 8  # pixels kept free right of the hint: the text cursor, and a font's overhang
HOW_TO = "Type a question. Enter sends, Shift+Enter starts a new line."  # what a screen reader is told of the box


class Composer(QPlainTextEdit):
    """Where a question is typed. ``submitted`` carries the text; the owner decides whether to send it."""

    submitted = Signal(str)
    editLastRequested = Signal()  # Up in the empty box: put the last question back in, to edit it
    escaped = Signal()  # Esc while no answer streams (the window's Stop takes Esc while one does)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("composer")
        self.setAccessibleName("Message")
        self.setAccessibleDescription(HOW_TO)
        self.setPlaceholderText(PLACEHOLDER)
        self.setTabChangesFocus(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.document().documentLayout().documentSizeChanged.connect(lambda _s: self._fit())
        self._fit()
        self.textChanged.connect(self._align)
        self._drafts: dict[str | None, str] = {}  # by chat (None: a new chat), the words typed, not sent
        self._chat: str | None = None  # the chat whose draft is in the box
        self._edits: dict[str, int] = {}  # by chat, the stored id of the last question its draft rewrites (↑)
        self._drafts_file: Path | None = None
        self._written: dict[str, str] = {}  # what the file holds: a draft not in it is lost at close
        self._remember: Callable[[str | None], None] | None = None
        self._keys_above = False  # the empty chat's hint above says the keys

    def keys_said_above(self, on: bool) -> None:
        """Whether the empty chat's hint above the box says the keys: while it does, the box's hint is
        "Ask anything…" alone (both said "Enter sends · Shift+Enter for a new line", one under the other)."""
        self._keys_above = on
        self._fit_hint()

    def keep_drafts_in(self, path: Path, remember: Callable[[str | None], None] | None = None) -> None:
        """Keep the drafts in ``path`` as well, written a second after typing stops, and read those kept
        there: a crash, a kill or a power cut no longer loses a long question being written. ``remember`` is
        told each chat opened (the window keeps it, to open it again at the next start)."""
        self._drafts_file, self._remember = path, remember
        try:
            kept = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError, RecursionError):  # damaged, a folder, or nested past reading
            kept = {}
        if isinstance(kept, dict):
            self._written = {chat: text for chat, text in kept.items()
                             if isinstance(chat, str) and isinstance(text, str) and text.strip()}
            self._drafts.update({(chat or None): text for chat, text in self._written.items()})
            edits = kept.get(EDITS_KEY)
            if isinstance(edits, dict):
                self._edits.update({chat: question for chat, question in edits.items()
                                    if chat in self._written and type(question) is int})
        self._save_timer = QTimer(self)
        self._save_timer.setSingleShot(True)
        self._save_timer.setInterval(DRAFT_SAVE_MS)
        self._save_timer.timeout.connect(self.save_drafts)
        self.textChanged.connect(self._save_timer.start)
        self.setPlainText(self._drafts.pop(self._chat, self.toPlainText()))

    def sent(self, chat_id: str | None) -> None:
        """The box's text was sent as a question of ``chat_id`` (a new chat has its id now): no draft is left
        of it, at once (killed within the second, the sent question came back as a draft), and the chat is
        the one to open again."""
        if chat_id != self._chat:
            self._chat = chat_id
            if self._remember is not None:
                self._remember(chat_id)
        self._drafts.pop(None, None)
        self.save_drafts()

    def _all_drafts(self) -> dict[str, str]:
        drafts = {chat or "": text for chat, text in self._drafts.items()}
        if self.toPlainText().strip():
            drafts[self._chat or ""] = self.toPlainText()
        return drafts

    def save_drafts(self) -> OSError | None:
        """Write the drafts (the box's own included) to the file ``keep_drafts_in`` named, whole or not at all;
        why it could not be, if it could not."""
        if self._drafts_file is None:
            return None
        drafts = self._all_drafts()
        edits = {chat: question for chat, question in self._edits.items() if chat in drafts}
        try:
            write_whole(self._drafts_file, json.dumps({**drafts, EDITS_KEY: edits} if edits else drafts,
                                                      ensure_ascii=False), private=True)
        except OSError as exc:  # a full disk: the drafts are still in the window (the window asks at close)
            log.warning("could not keep the drafts in %s: %s", self._drafts_file, exc)
            return exc
        self._written = drafts
        return None

    def chats(self) -> set[str]:
        """The chats holding a draft or an edit, here or in the file."""
        return {chat for chat in (*self._drafts, *self._edits, *self._written) if chat}

    def forget(self, chats: set[str]) -> None:
        """``chats`` are gone from the history for good: their drafts and edits go, from the file too (a
        deleted chat's unsent words stayed in it for good, shown nowhere). Not the box's own."""
        chats = chats - {self._chat or ""}
        for chat in chats:
            self._drafts.pop(chat, None)
            self._edits.pop(chat, None)
        if chats & set(self._written):
            self.save_drafts()

    def unsaved(self) -> list[str | None]:
        """The chats (None: a new chat) whose draft is not in the file as it is now: lost if the window closes."""
        if self._drafts_file is None:
            return []
        return [chat or None for chat, text in self._all_drafts().items()
                if _as_the_box_reads(self._written.get(chat, "")) != _as_the_box_reads(text)]

    def switch_draft(self, leaving: str | None, opening: str | None) -> None:
        """Keep what was typed and not sent in the chat being left, and bring back the one opened's: a draft
        went along to whichever chat was opened next, and was sent there."""
        text = self.toPlainText()
        if text.strip():
            self._drafts[leaving] = text
        else:
            self._drafts.pop(leaving, None)
        self._chat = opening
        self.setPlainText(self._drafts.pop(opening, ""))
        self.moveCursor(QTextCursor.MoveOperation.End)
        if self._remember is not None:
            self._remember(opening)

    def edit(self, chat_id: str, question_id: int | None) -> None:
        """The draft of ``chat_id`` rewrites its last question, stored as ``question_id`` (None: no longer):
        kept with the draft, in the file too, so that a restart resumes the edit (it came back as an
        ordinary draft, and Enter asked it as a new question under the old one)."""
        if question_id is None:
            self._edits.pop(chat_id, None)
        else:
            self._edits[chat_id] = question_id

    def edited(self, chat_id: str) -> int | None:
        """The stored id of the question the draft of ``chat_id`` rewrites (see ``edit``), if it does."""
        return self._edits.get(chat_id)

    def set_editing(self, words: str) -> None:
        """While the last question is edited in the box, a screen reader is told ``words`` (what Enter and Esc
        do now), as the box's description; "" when the edit ends: its usual description is back. The hint
        shown over the box was silent to it."""
        if words:
            tell(self, words)
        elif self.accessibleDescription() != HOW_TO:  # (a chat opened ends an edit, mostly none)
            self.setAccessibleDescription(HOW_TO)

    def _align(self) -> None:
        """Align the text by its direction, as a line edit (the find box) does: Arabic or Hebrew typed here ran
        right to left but sat at the left edge (a plain text box aligns every paragraph left)."""
        option = self.document().defaultTextOption()
        side = Qt.AlignmentFlag.AlignRight if text_direction(self.toPlainText()) == Qt.LayoutDirection.RightToLeft \
            else Qt.AlignmentFlag.AlignLeft
        if option.alignment() != side | Qt.AlignmentFlag.AlignAbsolute:
            option.setAlignment(side | Qt.AlignmentFlag.AlignAbsolute)
            self.document().setDefaultTextOption(option)

    def _fit(self) -> None:
        line = self.fontMetrics().lineSpacing()
        lines = max(_MIN_LINES, min(_MAX_LINES, int(self.document().size().height())))
        margins = self.contentsMargins()
        doc_margin = 2 * self.document().documentMargin()
        self.setFixedHeight(int(lines * line + doc_margin + margins.top() + margins.bottom() + 4))

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802
        super().resizeEvent(event)
        self._fit_hint()

    def _fit_hint(self) -> None:
        """The whole hint only where it fits on one line: wrapped, its last words were cut off at the bottom of
        the box in a narrow window, and at 700 px it ran onto a second line ("…for a new | line)"). Short
        too while the empty chat's hint above says the keys (keys_said_above)."""
        room = self.viewport().width() - 2 * self.document().documentMargin() - _HINT_SLACK
        fits = self.fontMetrics().horizontalAdvance(PLACEHOLDER) <= room
        hint = PLACEHOLDER if fits and not self._keys_above else SHORT_PLACEHOLDER
        if hint != self.placeholderText():
            self.setPlaceholderText(hint)
            # Qt repaints the box only when its hint comes or goes, not when its words change: the chat
            # coming back from the welcome page went on showing the keys in the box under the hint saying them.
            self.viewport().update()

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802
        if event.key() == Qt.Key.Key_Up and not event.modifiers() and not self.toPlainText():
            self.editLastRequested.emit()
            event.accept()
            return
        if event.key() == Qt.Key.Key_Escape:
            self.escaped.emit()
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            mods = event.modifiers()
            if mods & Qt.KeyboardModifier.ShiftModifier:
                self.insertPlainText("\n")
                event.accept()
                return
            if not (mods & (Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier)):
                text = self.toPlainText()
                if text.strip():
                    self.submitted.emit(text)
                event.accept()
                return
        super().keyPressEvent(event)


def _as_the_box_reads(text: str) -> str:
    """``text`` as the box gives it back once shown (QPlainTextEdit.toPlainText): CR LF, CR and the Unicode
    line and paragraph separators as a line end, a no-break space as a space. A drafts file written by hand
    or by an older version holds them, and its drafts, unchanged, counted as not saved."""
    for line_end in ("\r\n", "\r", "\u2028", "\u2029"):
        text = text.replace(line_end, "\n")
    return text.replace("\u00a0", " ")
