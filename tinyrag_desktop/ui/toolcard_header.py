"""A tool card's painted header: its title, icon, input, time, badge and the note under it, and their geometry."""

from __future__ import annotations

import re
import time

from PySide6.QtCore import QRectF, QSize, Qt, QTimer
from PySide6.QtGui import QColor, QFontMetrics, QPainter, QPainterPath, QPen

from ..hidden_text import input_line
from ..tool_words import tool_title
from .bidi import set_text_direction
from .icons import paint_badge, spinner_angle, tool_pixmap
from .theme import colors

_PAD, HEADER_ROW, _BADGE = 7, 22, 18  # header geometry in pixels (the row grows with a large font)
_INPUT_ROOM = 120  # pixels kept for the input beside the title before a word's time (see _paint_header) gives way
_LEFT_MIDDLE = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
RUNNING = "running"  # beside a running card's spinner, with the seconds so far (see running_words)
_CLOCK_MS = 1000  # how often a running card's seconds move on: once a second, not at each token


def running_words(seconds: float) -> str:
    """What a running card says beside its spinner: "running", then "running · 12 s", "running · 2 min 05 s"."""
    whole = int(seconds)
    if whole < 1:
        return RUNNING
    return f"{RUNNING} · {whole} s" if whole < 60 else f"{RUNNING} · {whole // 60} min {whole % 60:02d} s"


def one_line(text: str) -> str:
    return " ".join(text.split())


def two_lines(fm: QFontMetrics, text: str, room: int) -> list[str]:
    """``text`` broken between words into at most two lines of ``room`` pixels. A second line too long keeps
    the note's last clauses ("…To allow more, raise “Tool calls per round” in Settings → Limits."): a note ends
    with what to do; it is cut at its end when no whole clause fits (see _second_line). Unless
    the cut would take from a setting's name (“Turn on …tools” in Settings” at 18 pt): the note then takes
    as many lines as it needs, as the name is what it is for."""
    lines = _wrapped(fm, text, room)
    if len(lines) <= 2:
        return lines
    cut = [lines[0], _second_line(fm, " ".join(lines[1:]), room)]
    named = re.findall(r"“[^”]*”", text)
    return cut if all(name in " ".join(cut) for name in named) else lines


# Where a second line may start with "…": after a sentence's or a clause's punctuation, before a word (not
# "7!! is", where a "!" ends a number, nor "3. 5").
_CLAUSE_START = re.compile(r"[.,;:] (?=[^\s\d])")


def _second_line(fm: QFontMetrics, rest: str, room: int) -> str:
    """The second line of a note too long for two: its end from a clause's start ("…To allow more, raise …"),
    the first that fits, so it keeps what to do; with none, ``rest`` cut at its end. Words dropped from the
    middle of a clause changed what it said: "write (3!)!! for the double …(7!! is 7 × 5 × 3 × 1)" had lost
    "factorial"."""
    for start in _CLAUSE_START.finditer(rest):
        tail = "…" + rest[start.end():]
        if fm.horizontalAdvance(tail) <= room:
            return tail
    return fm.elidedText(rest, Qt.TextElideMode.ElideRight, room)


def _wrapped(fm: QFontMetrics, text: str, room: int) -> list[str]:
    """``text`` in lines of ``room`` pixels, broken between words (a word wider than that, anywhere)."""
    lines: list[str] = []
    line = ""
    for word in text.split(" "):
        longer = f"{line} {word}" if line else word
        if fm.horizontalAdvance(longer) <= room or not longer.strip():
            line = longer
            continue
        if line:
            lines.append(line)
        line = word
        while len(line) > 1 and fm.horizontalAdvance(line) > room:  # a word wider than the card: cut anywhere
            cut = len(line)
            while cut > 1 and fm.horizontalAdvance(line[:cut]) > room:
                cut -= 1
            lines.append(line[:cut])
            line = line[cut:]
    return [*lines, line] if line or not lines else lines


class HeaderMixin:
    """ToolCard's header, painted rather than built from child labels (mixed into it, see toolcard.py)."""

    _clock: QTimer | None = None  # while it runs: the seconds beside the spinner (only a spinner said nothing)
    _since = 0.0

    def _start_clock(self) -> None:
        """Count the seconds the tool runs from now (it started, or the user allowed it to)."""
        self._since = time.monotonic()
        if self._clock is None:
            self._clock = QTimer(self)
            self._clock.setInterval(_CLOCK_MS)
            self._clock.timeout.connect(self._tick)
        self._clock.start()
        self._meta_text = RUNNING

    def _stop_clock(self) -> None:
        if self._clock is not None:
            self._clock.stop()

    def _tick(self) -> None:
        if self._phase != "running":
            self._stop_clock()
            return
        if not self._meta_text.startswith(RUNNING):  # "waiting for you", or the lines printed so far, say it
            return
        # Not in its accessible name: a screen reader says a focused card's new name, once a second
        self._meta_text = running_words(time.monotonic() - self._since)
        self.update()

    def _header_height(self) -> int:
        lines = len(self._note_lines()) if self._note_shown() else 0
        return _PAD + self._row() + (lines * self.fontMetrics().height() + 2 if lines else 0) + _PAD

    def _note_lines(self, width: int | None = None) -> list[str]:
        """The closed card's note in two lines of the card's width, more only to keep a setting's name whole
        (see two_lines): cut to one line,
        the cut fell on what the note is for ("Turn on “Allow Go code (…", "in Settings → Lim…"). A running
        tool's last line of output is one line, cut at its end: the card keeps its height as lines come."""
        room = max(40, (width or self.width()) - 24)
        if self._output_note():
            return [QFontMetrics(self._mono).elidedText(self._note_text, Qt.TextElideMode.ElideRight, room)]
        return two_lines(self.fontMetrics(), self._note_text, room)

    def _output_note(self) -> bool:
        """True when the note is a running tool's last line of output (in the code type, as in the details)."""
        return self._phase == "running" and bool(self._printed_so_far)

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        if self._note_shown() and self._layout.contentsMargins().top() != self._header_height():
            self._relayout()  # the note takes one line more, or one less, at the new width

    def _note_shown(self) -> bool:
        """The reason is under the header while the card is closed; open, the details say it in full under
        "Error" or "Reason", and a second, cut-off copy above them was only noise."""
        return bool(self._note_text) and not self._expanded

    def _row(self) -> int:
        """The header row's height: 22 pixels, or more with a large font (its letters were cut off)."""
        return self._row_height

    def _relayout(self) -> None:
        # No minimum height of its own: its size policy makes its whole height (its sizeHint, with the details
        # when open) its minimum. A minimum of the header's height let a long conversation that is still being
        # written (none of its parts wraps by width yet) squeeze an opened card back to its header.
        self._layout.setContentsMargins(12, self._header_height(), 12, 8 if self._expanded else 0)
        self.updateGeometry()

    def sizeHint(self) -> QSize:  # noqa: N802
        hint = super().sizeHint()
        return QSize(max(hint.width(), 300), max(hint.height(), self._header_height()))

    def minimumSizeHint(self) -> QSize:  # noqa: N802
        return QSize(200, self._header_height())

    def paintEvent(self, event) -> None:  # noqa: N802
        c = colors()
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        # Focus wins over the red of a failed card: the ✗ badge and the red note still say it failed.
        border = c.accent if self.hasFocus() else c.error if self._painted_failed() else c.line
        pen = QPen(border, 2 if self.hasFocus() else 1)
        if self._phase in ("skipped", "writing") and not self.hasFocus():
            pen.setStyle(Qt.PenStyle.DashLine)
        painter.setPen(pen)
        painter.setBrush(c.card)
        painter.drawRoundedRect(QRectF(self.rect()).adjusted(1, 1, -1, -1), 8, 8)
        if self._selected:  # in a selection across the answer (Ctrl+A): tinted as its text is, which Copy copies
            tint = QColor(c.accent)
            tint.setAlpha(48)
            painter.fillPath(self._outline(), tint)
        self._paint_header(painter, c)
        painter.end()

    def _painted_failed(self) -> bool:
        """Whether the card is painted as a failure (red border and note): a denied command is none, the user
        chose it, nor a call to a tool that is off; their ✗ and "denied" or "off" say so, in no red, as the HTML
        export shows them."""
        return self._phase == "error" and not (self.denied or self.off)

    def _outline(self) -> QPainterPath:
        path = QPainterPath()
        path.addRoundedRect(QRectF(self.rect()).adjusted(1, 1, -1, -1), 8, 8)
        return path

    def set_selected(self, on: bool) -> None:
        """Show the card as part of a selection across its answer (see reading.Span): Copy copies it too."""
        if on != self._selected:
            self._selected = on
            self.update()

    def _title_width(self, fm: QFontMetrics, name: str, room: int) -> int:
        """How wide the title is drawn in ``room`` pixels left of the time and badge: whole, the input beside
        it cut first ("Knowledge ba…" was cut at a third of a narrow card while the query kept its room). Only
        a card standing for several tools cuts its list of names at a third, and any title that does not fit
        at all is cut."""
        wanted = fm.horizontalAdvance(name)
        if len({card._tool for card in self._calls()}) > 1:
            wanted = min(wanted, max(40, (self.width() - 24) // 3, fm.horizontalAdvance(tool_title(self._tool))))
        return max(0, min(wanted, room))

    def _paint_header(self, painter: QPainter, c) -> None:
        width = self.width()
        top, x, row = _PAD, 12, self._row()
        mid = top + row / 2
        # The icon and badge grow with the row, so with the text: at 18 pt they stayed 16 px beside 24 px letters.
        icon, badge = round(16 * row / HEADER_ROW), round(_BADGE * row / HEADER_ROW)
        painter.drawPixmap(x, int(mid - icon / 2), tool_pixmap(self._icon_tool(), c.text, icon,
                                                               self.devicePixelRatioF()))
        x += icon + 8
        right = width - 12 - badge
        paint_badge(painter, QRectF(right, mid - badge / 2, badge, badge), self.badge, spinner_angle())
        right -= 8
        if self._meta_text:
            painter.setFont(self._small)
            painter.setPen(c.warn if self.output_cut else c.muted)
            meta = self._meta_text
            # "output cut · 0.4 s" in a narrow card: the time gives way, so that the title and the input keep room
            if " · " in meta and (right - painter.fontMetrics().horizontalAdvance(meta) - x
                                  < QFontMetrics(self._bold).horizontalAdvance(self._names()) + _INPUT_ROOM):
                meta = meta.split(" · ", 1)[0]
            meta_w = painter.fontMetrics().horizontalAdvance(meta)
            painter.drawText(QRectF(right - meta_w, top, meta_w, row),
                             Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignRight, meta)
            right -= meta_w + 10
        painter.setFont(self._bold)
        painter.setPen(c.text)
        name = self._names()
        name_w = self._title_width(painter.fontMetrics(), name, int(right - x))
        if name_w < painter.fontMetrics().horizontalAdvance(name):
            name = painter.fontMetrics().elidedText(name, Qt.TextElideMode.ElideRight, name_w)
        painter.drawText(QRectF(x, top, name_w + 2, row), Qt.AlignmentFlag.AlignVCenter, name)
        x += name_w + 10
        if right - x > 20:
            painter.setFont(self._mono)
            painter.setPen(c.muted)
            shown = " · ".join(input_line(card._query) for card in self._calls())  # every input, while it fits
            if self._phase == "writing":
                painter.setFont(self.font())
                shown = self._writing_line()
            value = one_line(self._value())
            room = int(right - x) - (painter.fontMetrics().horizontalAdvance(" " + value) if value else 0)
            if value and room > 40:  # the expression gives way to its value, which is what was asked
                preview = painter.fontMetrics().elidedText(shown, Qt.TextElideMode.ElideRight, room) + " " + value
            else:
                preview = painter.fontMetrics().elidedText(shown, Qt.TextElideMode.ElideRight, int(right - x))
            # A query in Arabic or Hebrew keeps its word order; it stays where the layout puts it.
            align = set_text_direction(painter, preview, _LEFT_MIDDLE, self.layoutDirection())
            painter.drawText(QRectF(x, top, right - x, row), align, preview)
        if self._note_shown():
            painter.setFont(self._mono if self._output_note() else self.font())
            painter.setPen(c.errortext if self._painted_failed() else c.muted)
            fm = painter.fontMetrics()
            # The app's own sentence, in the window's direction (see _details_html), not its first letter's.
            painter.setLayoutDirection(self.layoutDirection())
            for i, line in enumerate(self._note_lines(width)):
                painter.drawText(QRectF(12, top + row + 1 + i * fm.height(), width - 24, fm.height()), _LEFT_MIDDLE,
                                 line)
