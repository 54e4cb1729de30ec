"""The knowledge panel's imports: files, a folder, a web page or a Wikipedia article, chosen or dropped.

Imports run on a worker thread with their own database connection; the panel's relay QObject carries their
progress and report back to the GUI thread as queued signals. Cancel stops the import between sources,
so the list never shows a half-imported source.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Callable, Sequence

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QDialogButtonBox, QFileDialog, QInputDialog, QLineEdit

from ..kb import ImportItem, Importer, ImportReport, Progress, open_store
from ..kb.embed import Embedder
from ..kb.import_report import LISTING, WAITING
from ..kb.readers import SUPPORTED
from ..kb.store import db_path
from ..kb.unfinished import stopped_by_closing
from ..settings import Settings
from .kb_address import web_address_problem, with_scheme
from .kb_drop import items_from_urls, left_out, on_disk
from .kb_summary import (
    failure as _failure, in_window, joined as _joined, short_location as _short_location, summary, whole_summary,
)
from .plain_text import plain_tip
from .window_layout import start_folder


class _OnShow(QObject):
    """Calls ``then`` when its watched widget is shown, and once more after the show has run to its end
    (installed as its event filter): QInputDialog enables its OK button again as it shows."""

    def __init__(self, parent: QObject, then: Callable[[], None]) -> None:
        super().__init__(parent)
        self._then = then

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        if event.type() == QEvent.Type.Show:
            self._then()
            QTimer.singleShot(0, self._then)
        return False


# All files first, the dialog's default: a name filter is a wildcard, and none matches a name without an
# extension, so "Documents" hid README, COPYING, NEWS.Debian and Apache-2.0, which the import reads as text.
_FILE_FILTER = "All files (*);;Documents ({})".format(" ".join(f"*{ext} *{ext}.gz" for ext in sorted(SUPPORTED)))


class RunningImport:
    """The import running: what was asked and when, how many sources it found (from its worker thread),
    and its report once it ends; kept to leave a note when the app closes during it."""

    def __init__(self, items: Sequence[ImportItem | str]) -> None:
        self.asked = [str(getattr(item, "value", item)) for item in items]
        self.started = time.time()
        self.total = 0
        self.report: ImportReport | None = None

    def progressed(self, then: Callable[[Progress], object]) -> Callable[[Progress], None]:
        def on_progress(progress: Progress) -> None:
            self.total = progress.total
            then(progress)

        return on_progress


class ImportingMixin:
    """KnowledgePanel's imports (mixed into it, see kb_panel.py)."""

    asked_ended: tuple[str, ...] = ()  # what the imports that ended last were asked for (one report for all)

    def choose_files(self) -> None:
        paths, _ = QFileDialog.getOpenFileNames(self, "Add files to the knowledge base", self._start_folder(),
                                                _FILE_FILTER)
        if paths:
            self._last_folder = str(Path(paths[0]).parent)
            self.import_items([on_disk(path) for path in paths])

    def choose_folder(self) -> None:
        path = QFileDialog.getExistingDirectory(self, "Add a folder to the knowledge base", self._start_folder())
        if path:
            self._last_folder = path
            self.import_items([path])

    def _start_folder(self) -> str:
        """Where the file and folder dialogs open: where the last choice was, else the Documents folder (or
        home). They opened in the folder the app was started from: "/" from a desktop launcher."""
        return start_folder(self._last_folder)

    def ask_url(self) -> None:
        text = self._ask("Add a web page", "URL (http or https):", "https://example.org/guide.html",
                         check=web_address_problem)
        if text:
            self.import_items([ImportItem("url", with_scheme(text))])

    def ask_wikipedia(self) -> None:
        text = self._ask("Add a Wikipedia article", "Article title:", "e.g. Alan Turing")
        if text:
            self.import_items([ImportItem("wikipedia", text)])

    def _ask(self, title: str, label: str, example: str,
             check: Callable[[str], str] | None = None) -> str:
        """A line of text from a small dialog, stripped ("" when cancelled); its box is wide enough for an
        address (QInputDialog's own showed a dozen characters of one) and shows an example of what to type.
        With ``check`` (the text → what is wrong with it, or ""), OK waits for a text it accepts, and the
        reason shows in the dialog: "not a url" was taken, and refused only after the import began."""
        dialog = QInputDialog(self)
        dialog.setObjectName("kbAskDialog")
        dialog.setWindowTitle(title)
        dialog.setLabelText(label)
        dialog.setInputMode(QInputDialog.InputMode.TextInput)
        edit = dialog.findChild(QLineEdit)
        if edit is not None:
            edit.setPlaceholderText(example)
            edit.setMinimumWidth(edit.fontMetrics().averageCharWidth() * 60)
        if check is not None:
            def judge(text: str) -> None:
                problem = check(text.strip()) if text.strip() else ""
                box = dialog.findChild(QDialogButtonBox)  # made when the dialog is first laid out
                if box is not None:
                    box.button(QDialogButtonBox.StandardButton.Ok).setEnabled(bool(text.strip()) and not problem)
                dialog.setLabelText(f"{label}\n{problem}" if problem else label)

            dialog.textValueChanged.connect(judge)
            hook = _OnShow(dialog, lambda: judge(dialog.textValue()))  # showing enables OK again
            dialog.installEventFilter(hook)
        accepted = dialog.exec() == QInputDialog.DialogCode.Accepted
        text = dialog.textValue().strip()
        dialog.deleteLater()
        return text if accepted else ""

    def is_importing(self) -> bool:
        return self._worker is not None and self._worker.is_alive()

    def import_progress(self) -> Progress | None:
        """How far the running import is (None while it lists what to import, or when none runs)."""
        return self._progress if self.is_importing() else None

    def import_items(self, items: Sequence[ImportItem | str], force: bool = False) -> bool:
        """Start importing ``items`` off the GUI thread. While an import (or a Delete) runs they wait, and
        start when it is done: files dropped meanwhile are not lost. False when there is nothing to import."""
        if not items:
            return False
        if self._busy:
            self._waiting.append((list(items), force))
            self.status_label.setText(f"{self._waiting_note()} (they start when this is done)")
            return True
        settings = self.settings_provider()
        self._cancel = threading.Event()
        self._set_busy(True)
        self.progress_bar.setAccessibleName("Import progress")
        self.progress_bar.setRange(0, 0)  # until the files are listed and counted
        self.status_label.setText(LISTING)
        self._progress = None
        self._import = RunningImport(list(items))
        self._worker = threading.Thread(target=self._work, args=(list(items), settings, force, self._cancel),
                                        name="kb-import", daemon=True)
        self._worker.start()
        return True

    def _work(self, items: list, settings: Settings, force: bool, cancel: threading.Event) -> None:
        embedder = Embedder.from_settings(settings)
        try:
            kb = open_store(self.data_dir)
            assert kb is not None
            with kb:
                importer = Importer(kb, chunk_size=int(settings["chunk_size"]), settings=settings,
                                    on_progress=self._import.progressed(self._relay.progress.emit), cancel=cancel,
                                    embedder=embedder, force=force)
                report = importer.run(items)
        except Exception as exc:  # reported in the panel; the worker thread must never die silently
            report = ImportReport()
            report.failed.append(_failure("knowledge base", in_window(str(exc))))
        finally:
            if embedder is not None:
                embedder.close()
        self._import.report = report  # read by _on_quit: the queued signal is not delivered once the app quits
        self._relay.finished.emit(report)

    def cancel_import(self) -> None:
        if not self._busy:  # ended meanwhile (a click as it ended): nothing to cancel, nothing to say
            return
        self._cancel.set()
        self._waiting.clear()  # Cancel stops what was asked for, not only the part that has started
        self.status_label.setText(self._cancelling_text())  # stops inside a long file too: see ingest

    def _cancelling_text(self) -> str:
        """What the panel says from Cancel until the import ends, with how far it got."""
        progress = self._progress
        if progress is None or not progress.total:
            return "Cancelling…"
        return f"Cancelling… ({progress.done} of {progress.total} done)"  # as the progress line counts

    def _waiting_note(self) -> str:
        count = sum(len(items) for items, _ in self._waiting)
        return f"{count} more waiting" if count != 1 else "1 more waiting"

    def _start_waiting(self) -> bool:
        """Start the imports asked for while the panel was busy, all in one; False when there are none."""
        if not self._waiting:
            return False
        batches, self._waiting = self._waiting, []
        items = [item for batch, _ in batches for item in batch]
        return self.import_items(items, force=any(force for _, force in batches))

    def _stop_importing(self, timeout: float) -> None:
        self._waiting.clear()
        self._cancel.set()
        if self._worker is not None:
            self._worker.join(timeout)

    def _on_quit(self) -> None:
        # Every source is its own transaction, so even a thread cut off here leaves no half source;
        # waiting a little lets the current one finish instead of being rolled back. The search thread
        # stays: Qt says "about to quit" whenever its event loop ends, and a script that runs the loop
        # again (qasync's run_until_complete does, each time) found its searches dropped without a word.
        running = self._import if self.is_importing() and not self._cancel.is_set() else None
        waiting = [str(getattr(item, "value", item)) for items, _ in self._waiting for item in items]
        self._stop_importing(timeout=5.0)
        # Stopped by Quit, by closing the window or by SIGTERM, it ended in silence, and a folder half imported
        # looked imported: the next start says so, as it does after a crash (a note rather than a question
        # before quitting: SIGTERM and logging out cannot be asked, and adding the files again finishes it).
        # A thread still running now is cut off with the process, and the import's own mark says it.
        if running is not None and running.report is not None and running.report.cancelled:
            report = running.report
            stored = len(report.added) + len(report.updated) + len(report.unchanged)
            stopped_by_closing(db_path(self.data_dir), running.asked, running.total, stored, running.started,
                               waiting)

    def _on_progress(self, progress: Progress) -> None:
        # One source has no steps to count: a busy bar, not "0%" for the whole of a 49 MB file's import
        self.progress_bar.setRange(0, progress.total if progress.total > 1 else 0)
        self.progress_bar.setValue(progress.done)
        self._progress = progress
        if self._cancel.is_set():  # the next file's line replaced "Cancelling…" at once: Cancel seemed to do nothing
            self.status_label.setText(self._cancelling_text())
        elif progress.current:
            failed = f", {progress.failed} failed" if progress.failed else ""
            waiting = f" ({self._waiting_note()})" if self._waiting else ""
            # The file's name, not its whole path: a folder's long path wrapped over three lines, and the
            # panel jumped as they went from file to file.
            current = progress.current if progress.current == WAITING else _short_location(progress.current)
            self.status_label.setText(f"{progress.number} of {progress.total}{failed}{waiting}: {current}")

    def _on_finished(self, report: ImportReport) -> None:
        if self._worker is not None:
            self._worker.join()
            self._worker = None
        self._set_busy(False)
        # what the imports this report is of were asked for (read on importFinished: unfinished.finished_by)
        self.asked_ended = (*(self.asked_ended if self._earlier is not None else ()), *self._import.asked)
        if self._earlier is not None:  # the imports that waited for this one: one summary for them all
            report = _joined(self._earlier, report)
            self._earlier = None
        if self._waiting and not report.cancelled and not report.stopped:
            self._earlier = report
            self.refresh()
            self.sourcesChanged.emit()
            self._start_waiting()
            return
        self._waiting.clear()
        text, tip = summary(report, self._dropped_note)
        self.status_label.setText(text, plain_tip(tip))  # file names: as written
        self.summary.set_whole(whole_summary(report, self._dropped_note))
        self._dropped_note = ""
        self.refresh()
        self._warm_vectors()
        self._sources_changed_here()  # after the list is read: the results' search sees what it lists
        self.sourcesChanged.emit()
        self.importFinished.emit(report)

    # ---- drag and drop -----------------------------------------------------------------------------

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:  # noqa: N802 (Qt's name)
        if event.mimeData().hasUrls() or event.mimeData().hasText():
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:  # noqa: N802
        urls, text = event.mimeData().urls(), event.mimeData().text()
        items = items_from_urls(urls, text)
        self.tabs.setCurrentIndex(0)  # dropped on the Search tab, the import ran out of sight
        if items:
            self.import_items(items)
            event.acceptProposedAction()
        left = left_out(urls, text)
        if left:  # said after the import starts, so that its progress does not cover it at once
            note = (f"Not imported: {', '.join(left[:3])}{' …' if len(left) > 3 else ''}. Only files, folders and "
                    "http:// or https:// links can be dropped here.")
            self.status_label.setText(note)
            if self._busy:  # and again beneath the summary: the progress replaces it at once
                self._dropped_note = note
