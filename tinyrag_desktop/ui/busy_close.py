"""Quitting while work is under way asks once: an answer being written, a Go program run from an answer, an
import into the knowledge base.

Quit closed the window at once: the answer was cut short (kept, marked as stopped), a running tool or Go
program stopped, an import stopped between two sources. Nothing was lost that the user could not get back,
but nothing said it either, and a Ctrl+Q meant for another window cut a long answer short. Now the close
asks first, saying what would stop and what is kept. Cancel is the default, for Enter and Esc alike: a key
pressed by mistake must not cut an answer short; Quit is Alt+Q. With nothing under way, Quit quits without
a question.
"""

from __future__ import annotations

from PySide6.QtWidgets import QMessageBox, QPushButton

from .close_question import QuestionAtClose

TITLE = "Quit tinyRAG Desktop?"


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
        text, details = busy_words(going, self._import_done(), len(self._win.waiting.chats()), self._elsewhere())
        box = QMessageBox(QMessageBox.Icon.Warning, TITLE, text, QMessageBox.StandardButton.NoButton, self._win)
        box.setObjectName("quitWhileBusy")
        box.setInformativeText(details)
        box.setAccessibleName(TITLE)
        box.setAccessibleDescription(f"{text} {details}")  # said whole as it opens, before the focused button
        quit_ = box.addButton("&Quit", QMessageBox.ButtonRole.DestructiveRole)
        quit_.setAccessibleName("Quit now")
        cancel = box.addButton("&Cancel", QMessageBox.ButtonRole.RejectRole)
        cancel.setAccessibleName("Cancel: keep working")
        return box, quit_, cancel

    def _elsewhere(self) -> str:
        """The title of the chat whose answer is written, when it is not the one open ("" when it is)."""
        win = self._win
        return "" if win._stream_chat in (None, win.chat_id) else win.waiting.answering_title()

    def _import_done(self) -> tuple[int, int] | None:
        win = self._win
        progress = win.kb_dock.widget().import_progress() if win.kb_dock is not None else None
        return (progress.done, progress.total) if progress is not None and progress.total else None


def busy_words(going: list[str], imported: tuple[int, int] | None = None, waiting: int = 0,
               elsewhere: str = "") -> tuple[str, str]:
    """The question, and what quitting does, for what is ``going`` (see BusyAtClose._reason); ``imported``:
    the running import's (done, total) sources, when known; ``waiting``: questions waiting their turn;
    ``elsewhere``: the title of the chat being answered, when it is not the one open."""
    said = {"answer": "an answer is still being written" + (f" in “{elsewhere}”" if elsewhere else ""),
            "go": "a Go program is still running",
            "import": "the knowledge base import is still running"
                      + (f" ({imported[0]:,} of {imported[1]:,} sources done)" if imported else "")}
    parts = [said[what] for what in going]
    text = (", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else parts[0]) + ". Quit anyway?"
    details = []
    if "answer" in going:
        details.append("Quitting stops the answer and any tool it is running; what it has written so far stays in "
                       "the chat, marked as stopped.")
        if waiting:
            details.append(f"{'The question' if waiting == 1 else f'The {waiting} questions'} waiting for it "
                           "stay in their chats, not asked, with Retry.")
    if "go" in going:
        details.append("The program is stopped; what it printed is not saved with the chat.")
    if "import" in going:
        details.append("The import stops after the source it is storing: the sources stored so far are kept, "
                       "the next start says how far it got, and adding the same files again imports the rest.")
    return text[0].upper() + text[1:], " ".join(details)
