"""Quitting while work is under way asks once: an answer being written, a Go program run from an answer, an
import into the knowledge base.

Quit closed the window at once: the answer was cut short (kept, marked as stopped), a running tool or Go
program stopped, an import stopped between two sources. Nothing was lost that the user could not get back,
but nothing said it either, and a Ctrl+Q meant for another window cut a long answer short. Now the close
asks first, saying what would stop and what is kept. Cancel is the default, for Enter and Esc alike: a key
pressed by mistake must not cut an answer short; Quit is Alt+Q. With nothing under way, Quit quits without
a question.

When what it names ends while the question is open (the answer finished, the import done), the question says so
(checked twice a second: three kinds of work end three ways): it does not quit by itself. The question is there
because a Quit may have been meant for another window; quitting once the answer is in would turn that slip into
a quit nobody confirmed. With nothing left under way it asks "Quit now?", still with Cancel the default.
"""

from __future__ import annotations

import logging

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QMessageBox, QPushButton

from ..sentences import listed
from .close_question import QuestionAtClose

log = logging.getLogger(__name__)

TITLE = "Quit tinyRAG Desktop?"
_FOLLOW_MS = 500  # how often the open question looks whether what it names has ended


class BusyAtClose(QuestionAtClose):
    """The window's close, held by a question while an answer, a Go run or an import is under way."""

    def _reason(self) -> list[str]:
        """What is under way: "answer", "go" and "import", in that order; [] when nothing is."""
        win = self._win
        if win.waiting.closing:  # aclose has run already: everything is stopped
            return []
        panel = win.kb_dock.widget() if win.kb_dock is not None else None
        going = {"answer": win.bridge.is_running(), "go": win.view.runs_going(),
                 "import": panel is not None and panel.is_importing()}
        return [what for what, on in going.items() if on]

    def _question(self, going: list[str]) -> tuple[QMessageBox, QPushButton, QPushButton]:
        box = QMessageBox(QMessageBox.Icon.Warning, TITLE, "", QMessageBox.StandardButton.NoButton, self._win)
        box.setObjectName("quitWhileBusy")
        box.setAccessibleName(TITLE)
        self._say(box, going, going)
        quit_ = box.addButton("&Quit", QMessageBox.ButtonRole.DestructiveRole)
        quit_.setAccessibleName("Quit now")
        cancel = box.addButton("&Cancel", QMessageBox.ButtonRole.RejectRole)
        cancel.setAccessibleName("Cancel: keep working")
        follow = QTimer(box)  # goes with the question
        follow.timeout.connect(lambda: self._follow(box, going))
        follow.start(_FOLLOW_MS)
        return box, quit_, cancel

    def _say(self, box: QMessageBox, going: list[str], asked: list[str]) -> None:
        """Put the words for what is ``going`` (of what was ``asked`` about as the question opened) in ``box``."""
        if going:
            text, details = busy_words(going, self._import_done(), self._win.waiting.counts(), self._elsewhere(),
                                       self._win._saver.stop_keeps_earlier())
        else:
            text, details = ended_words(asked)
        if (text, details) == (box.text(), box.informativeText()):
            return
        box.setText(text)
        box.setInformativeText(details)
        box.setAccessibleDescription(f"{text} {details}")  # said whole as it opens, before the focused button

    def _follow(self, box: QMessageBox, asked: list[str]) -> None:
        """The open question's words, kept true as what it names ends (or an import moves on)."""
        if self.box is not box:
            return
        try:
            self._say(box, self._reason(), asked)
        except Exception:  # noqa: BLE001 (the chat history unreadable): the words stay as they were
            log.exception("could not tell what is still under way")

    def _elsewhere(self) -> str:
        """The title of the chat whose answer is written, when it is not the one open ("" when it is)."""
        win = self._win
        return "" if win._stream_chat in (None, win.chat_id) else win.waiting.answering_title()

    def _import_done(self) -> tuple[int, int] | None:
        win = self._win
        progress = win.kb_dock.widget().import_progress() if win.kb_dock is not None else None
        return (progress.done, progress.total) if progress is not None and progress.total else None


def ended_words(asked: list[str]) -> tuple[str, str]:
    """The question once nothing is under way any more, for what was ``asked`` about (see busy_words)."""
    said = {"answer": "the answer is finished", "go": "the Go program has ended", "import": "the import is done"}
    parts = [said[what] for what in asked]
    text = listed(parts)
    return f"{text[0].upper()}{text[1:]}. Quit now?", "Nothing is running any more: quitting now cuts nothing short."


def busy_words(going: list[str], imported: tuple[int, int] | None = None, waiting: tuple[int, int] = (0, 0),
               elsewhere: str = "", keeps_earlier: bool = False) -> tuple[str, str]:
    """The question, and what quitting does, for what is ``going`` (see BusyAtClose._reason); ``imported``:
    the running import's (done, total) sources, when known; ``waiting``: the questions and the new answers
    (Regenerate, Retry) waiting their turn; ``elsewhere``: the title of the chat being answered, when it is not
    the one open; ``keeps_earlier``: the answer is a Regenerate still shorter than the answer it replaces, which
    stays if it is stopped now (see AnswerSaver.stop_keeps_earlier)."""
    said = {"answer": "an answer is still being written" + (f" in “{elsewhere}”" if elsewhere else ""),
            "go": "a Go program is still running",
            "import": "the knowledge base import is still running"
                      + (f" ({imported[0]:,} of {imported[1]:,} sources done)" if imported else "")}
    parts = [said[what] for what in going]
    text = listed(parts) + ". Quit anyway?"
    details = []
    if "answer" in going:
        details.append("Quitting stops the new answer and any tool it is running; it is still shorter than the "
                       "answer it was to replace, which stays in the chat." if keeps_earlier else
                       "Quitting stops the answer and any tool it is running; what it has written so far stays in "
                       "the chat, marked as stopped.")
        details += waiting_words(*waiting)
    if "go" in going:
        details.append("The program is stopped; what it printed is not saved with the chat.")
    if "import" in going:
        details.append("The import stops after the source it is storing: the sources stored so far are kept, "
                       "the next start says how far it got, and adding the same files again imports the rest.")
    return text[0].upper() + text[1:], " ".join(details)


def waiting_words(questions: int, answers: int) -> list[str]:
    """What quitting does to the ``questions`` and the new ``answers`` (Regenerate, Retry) waiting for the
    answer being written: a waiting question is stored with its stand-in, and a Regenerate's old answer stays."""
    said = []
    if questions:
        said.append("The question waiting for it stays in its chat" if questions == 1 else
                    f"The {questions} questions waiting for it stay in their chats")
        said[-1] += ", not asked, with Retry."
    if answers:
        waits = "waiting too" if questions else "waiting for it"
        said.append(f"The new answer {waits} is not written: its chat keeps the answer it had." if answers == 1
                    else f"The {answers} new answers {waits} are not written: their chats keep the answers they had.")
    return said
