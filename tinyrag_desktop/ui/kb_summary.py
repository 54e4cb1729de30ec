"""The knowledge panel's status line and import summary: how an import's outcome is worded, and the box that
shows it (capped in height, scrolling inside, with a button to close it).

A folder's summary names up to eight failed or skipped files with their reasons: at 400 pixels tall it took
two thirds of the panel and left the list three rows, and nothing put it away. The box now grows to a third
of the panel at most (the rest scrolls) and its × puts the summary away.
"""

from __future__ import annotations

import re
from dataclasses import fields
from pathlib import Path

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QScrollArea, QSizePolicy, QStyle, QToolButton, QVBoxLayout, QWidget

from ..kb import ImportReport
from ..kb.import_report import Failure
from ..kb.models import hide_password
from ..kb.store_file import WINDOW_SUSPECTED
from ..sentences import after_colon
from ..tool_words import window_words
from .sources import source_label

REASONS_SHOWN = 8  # failed or skipped files named beneath an import's summary; the tooltip has TIP_MOST
_LEAST_LINES = 2  # the box is never made lower than this many lines of text (when it has them)


class StatusLabel(QLabel):
    """A word-wrapped label whose text never sets the panel's width: a word too long to wrap (a file's name
    without spaces) made the panel, and the window it is docked in, as wide as that word (1,252 pixels for
    one name), and a long summary's lines widened the dock by a third. Names are shortened in the middle too
    (short_location), so that such a word is whole at least. (An Ignored size policy did the same, but a
    narrow dock then showed a blank band under the list.)"""

    textChanged = Signal()
    IDLE = "Drop files, folders or links here to import them."

    def __init__(self, text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.notice = ""  # what show_idle says in place of the drop hint (put away with the summary's ×)
        self.setTextFormat(Qt.TextFormat.PlainText)  # file names and errors as written (plain_text), set first
        self.setText(text)

    def show_idle(self, listed: bool, notice: str | None = None) -> None:
        """Unless it says what an import or a Delete did: ``notice`` (the disk is full: nothing can be saved;
        None: the one given last, "": none now), else the drop hint under a list of sources, nothing under an
        empty one, whose own text says it with Add (both said "drop files, folders or links here")."""
        if notice is None:
            notice = self.notice
        if self.text() in ("", self.IDLE, self.notice):
            self.setText(notice or (self.IDLE if listed else ""))
        self.notice = notice

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        return QSize(0, super().minimumSizeHint().height())

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        hint = super().sizeHint()
        return QSize(min(hint.width(), self.fontMetrics().averageCharWidth() * 40), hint.height())

    def setText(self, text: str, tip: str = "") -> None:  # noqa: N802 - Qt's name
        """Show ``text``, with ``tip`` as its tooltip: the tooltip of an import's failures stayed on the
        lines said after it ("1 source removed.", the next import's progress)."""
        super().setText(text)
        self.setToolTip(tip)
        self.textChanged.emit()


class SummaryBox(QFrame):
    """``label`` in a box as tall as its text, up to ``cap`` pixels (then it scrolls), with a × that puts a
    summary or a message away (``dismissed``: the panel puts its idle line back). The × is hidden while
    ``busy``: the line then shows the import's progress."""

    dismissed = Signal()

    def __init__(self, label: StatusLabel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("kbSummary")
        self.label = label
        self.busy = False
        self._cap = 10_000
        self.area = QScrollArea()
        self.area.setObjectName("kbSummaryScroll")
        self.area.setFrameShape(QFrame.Shape.NoFrame)
        self.area.setWidgetResizable(True)
        self.area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.area.setWidget(label)
        # A Tab stop only while the summary scrolls (its arrows scroll it), named: it was an unnamed stop
        # ("filler") that Tab passed through under the drop hint too.
        self.area.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.area.setAccessibleName("Import summary")
        self.area.viewport().setAutoFillBackground(False)
        label.setAutoFillBackground(False)
        label.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.close_button = QToolButton()
        self.close_button.setObjectName("kbSummaryClose")
        self.close_button.setText("×")
        self.close_button.setAutoRaise(True)
        self.close_button.setToolTip("Close this summary")
        self.close_button.setAccessibleName("Close the summary")
        self.close_button.clicked.connect(self.dismiss)
        self.close_button.hide()
        # The reasons past the first eight were only in the tooltip, which the keyboard cannot open.
        self.more_button = QToolButton()
        self.more_button.setObjectName("kbSummaryAll")
        self.more_button.setText("Show all")
        self.more_button.setAccessibleName("Show every file's reason")
        self.more_button.clicked.connect(self.show_whole)
        self.more_button.hide()
        self._whole: tuple[str, str] | None = None  # (the summary as shown, with every reason)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(2)
        row.addWidget(self.area, 1)
        side = QVBoxLayout()
        side.addWidget(self.close_button, 0, Qt.AlignmentFlag.AlignRight)
        side.addWidget(self.more_button)
        side.addStretch(1)
        row.addLayout(side)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        label.textChanged.connect(self._changed)
        self._changed()

    def set_cap(self, pixels: int) -> None:
        """The box's greatest height (the panel gives it a third of its own)."""
        least = self.label.fontMetrics().lineSpacing() * _LEAST_LINES + 4
        cap = max(pixels, least)
        if cap != self._cap:
            self._cap = cap
            self._fit()

    def set_busy(self, busy: bool) -> None:
        self.busy = busy
        self._changed()

    def dismiss(self) -> None:
        """Put the summary away: the line says what it says when there is nothing to report (see
        StatusLabel.show_idle: the drop hint, or nothing under an empty list)."""
        if self.label.text() == self.label.notice:
            self.label.notice = ""
        self.label.setText("")
        self.dismissed.emit()

    def set_whole(self, text: str) -> None:
        """The summary shown with every reason (see whole_summary): Show all puts it in the box."""
        self._whole = (self.label.text(), text) if text and text != self.label.text() else None
        self._changed()

    def show_whole(self) -> None:
        if self._whole is None:
            return
        had_focus = self.more_button.hasFocus()
        self.label.setText(self._whole[1], self.label.toolTip())  # hides the button: another summary is shown
        if had_focus:  # hidden, it gave the focus out of the panel: to the reasons (they scroll), or to ×
            scrolls = self.area.focusPolicy() != Qt.FocusPolicy.NoFocus
            (self.area if scrolls else self.close_button).setFocus(Qt.FocusReason.OtherFocusReason)

    def _changed(self) -> None:
        self.close_button.setVisible(not self.busy and self.label.text() not in ("", self.label.IDLE))
        self.more_button.setVisible(not self.busy and self._whole is not None and self.label.text() == self._whole[0])
        self._fit()

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        self._fit()

    def _fit(self) -> None:
        # From the box's own width, less the × when it shows: the scroll area's is the old one until the
        # layout runs, and a line that the × made wrap was cut in half at 300 pixels tall.
        width = self.width()
        if not self.close_button.isHidden() or not self.more_button.isHidden():
            side = max(b.sizeHint().width() for b in (self.close_button, self.more_button) if not b.isHidden())
            width -= side + self.layout().spacing()
        needed = self._height_for(width)
        height = min(needed, self._cap)
        if needed > height:  # it scrolls: its lines wrap beside the scroll bar
            bar = self.area.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent, None, self.area)
            needed = self._height_for(width - bar)
        self.area.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded if needed > height
                                             else Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.area.setFocusPolicy(Qt.FocusPolicy.StrongFocus if needed > height else Qt.FocusPolicy.NoFocus)
        self.area.setAccessibleDescription(self.label.text() if needed > height else "")
        if self.area.minimumHeight() != height or self.area.maximumHeight() != height:
            self.area.setFixedHeight(height)
            self.layout().invalidate()
            self.updateGeometry()  # the panel's column lays the box out again, at its new height

    def _height_for(self, width: int) -> int:
        needed = self.label.heightForWidth(max(width, 40))
        return needed if needed >= 0 else self.label.sizeHint().height()


_IMPORT_AGAIN = "import your documents again"
_TERMINAL_SUSPECTED = "kb add or kb remove in a terminal, perhaps"


def in_window(message: str) -> str:
    """A knowledge-base message worded for the window (see markdown_render.window_words: no --data-dir, a
    flag no one can give a window); importing the documents again is done with Add; the program holding a
    lock the window waited for is no longer the window itself ("the tinyRAG window importing or deleting,
    perhaps", as kb add guesses it), which cannot be waiting for itself."""
    text = window_words(message).replace(_IMPORT_AGAIN, f"{_IMPORT_AGAIN} with Add")
    return text.replace(WINDOW_SUSPECTED, _TERMINAL_SUSPECTED)


# Words that start a reason as names, kept with their capital after a colon.
OFFLINE_NOTE = ("Web pages and Wikipedia articles need the network, which is off: turn on “Network tools” "
                "in Settings (Tools tab), then import them again.")


TIP_MOST = 30  # lines of a summary's tooltip


ALL_MOST = 500  # reasons Show all lists (the box scrolls; a label of 10,000 wrapped lines is slow to lay out)


def summary(report: ImportReport, dropped_note: str = "") -> tuple[str, str]:
    """An import's summary as the panel shows it, and its tooltip: what it did, then the failures, what
    was skipped and why (a scanned PDF has no text; a folder's pictures are no documents: "1 skipped" alone
    left a person guessing), the sources removed as their files were deleted from the folder imported
    again (kb add names them), and the notes on sources imported (an encoding guessed). The first eight
    beneath it, all of them in the tooltip, and with Show all (whole_summary)."""
    reasons = _reasons(report)
    tip = [f"{showable(f.location)}: {after_colon(in_window(f.reason))}" for _, f in reasons[:TIP_MOST]]
    if len(reasons) > TIP_MOST:  # 134 lines made a tooltip 5,606 px tall, most of it off the screen
        tip.append(f"… and {len(reasons) - TIP_MOST} more")
    return _summary_text(report, reasons, REASONS_SHOWN, dropped_note), "\n".join(tip)


def whole_summary(report: ImportReport, dropped_note: str = "") -> str:
    """The summary with every reason (the first ALL_MOST): what Show all shows, "" when summary() shows
    them all already."""
    reasons = _reasons(report)
    return _summary_text(report, reasons, ALL_MOST, dropped_note) if len(reasons) > REASONS_SHOWN else ""


def _reasons(report: ImportReport) -> list[tuple[str, Failure]]:
    reasons = [("✗", f) for f in report.failed] + [("–", f) for f in report.skipped]
    gone = "removed, as it was deleted from its folder"
    reasons += [("−", failure(location, gone)) for location in report.removed]
    reasons += [("!", f) for f in report.notes]  # imported, with a caveat (an encoding guessed, a line passed over)
    return reasons


def _summary_text(report: ImportReport, reasons: list[tuple[str, Failure]], most: int, dropped_note: str) -> str:
    lines = [report.in_words()]
    lines += [f"{mark} {short_location(f.location)}: {after_colon(in_window(f.reason))}"
              for mark, f in reasons[:most]]
    if len(reasons) > most:  # "(hover to see them all)" was said to the keyboard too: Show all is a button
        listed = "them" if len(reasons) <= ALL_MOST else f"the first {ALL_MOST}"
        lines.append(f"… and {len(reasons) - most} more" + (f" (Show all lists {listed})" if most < ALL_MOST else ""))
    if report.offline:  # the window's own setting forbade it: say where to allow it
        lines.append(OFFLINE_NOTE)
    if dropped_note:
        lines.append(dropped_note)
    return "\n".join(lines)


def joined(first: ImportReport, then: ImportReport) -> ImportReport:
    """What two imports, one after the other, did together."""
    together = ImportReport()
    for item in fields(ImportReport):  # every list, so that a field added to the report is not lost here
        if isinstance(getattr(first, item.name), list):
            setattr(together, item.name, getattr(first, item.name) + getattr(then, item.name))
    together.chunks = first.chunks + then.chunks
    together.updated_chunks = first.updated_chunks + then.updated_chunks
    together.embedding_problem = then.embedding_problem or first.embedding_problem
    together.cancelled, together.stopped, together.not_tried = then.cancelled, then.stopped, then.not_tried
    return together


def short_location(location: str) -> str:
    """A failed or skipped item as its summary names it: a file by its name (the tooltip has the whole path),
    a web page by its host and path (it was by the path's last part: "✗ page: the server answered 404")."""
    if not location.strip():
        return "(nothing given)"
    location = showable(location)
    if location.lower().startswith(("http://", "https://")):
        return source_label(location)
    return elided(Path(location).name if Path(location).is_absolute() else location)


_UNDECODED = re.compile("[\ud800-\udfff]")


def showable(location: str) -> str:
    """``location`` as the panel shows it: a web address's password as *** (``https://ann:***@host/``, as
    kb add shows it: it was shown whole in the summary's tooltip), and the bytes of a file name that is not
    UTF-8 (Python's lone surrogates) as �: Qt dropped them, and "bad\\xffname.md" was listed as
    "badname.md", a name no file has."""
    return hide_password(_UNDECODED.sub("\ufffd", location))


def elided(text: str, limit: int = 60) -> str:
    """``text`` cut in the middle to at most ``limit`` characters: a name's start and its end (its type)."""
    if len(text) <= limit:
        return text
    head = (limit - 1) * 2 // 3
    return text[:head] + "…" + text[len(text) - (limit - 1 - head):]


def failure(location: str, reason: str):
    from ..kb.ingest import Failure

    return Failure(location, reason)
