"""Links in an answer's text, Copy code and Go's Run and Stop among them: what a click does, where one leads, Tab."""

from __future__ import annotations

import asyncio
from pathlib import Path

import shiboken6
from PySide6.QtCore import QEvent, Qt, QTimer, QUrl
from PySide6.QtGui import QDesktopServices, QFontMetrics, QGuiApplication, QTextCursor
from PySide6.QtWidgets import QToolTip, QWidget

from ..mail_links import safe_mailto
from .access import announce
from .focus_ring import RingAround
from .gorun import GoRuns, run_limits
from .long_text import SHOW_ROWS
from .markdown_render import ACTION_SCHEMES, COPIED, COPY_CODE, RunView
from .plain_text import plain_tip

WEB_SCHEMES = ("http", "https", "mailto")  # the links of an answer that open (in the browser or mail app)
ACTIONS = ACTION_SCHEMES  # the links a segment handles itself (render's own only: see _NoActionLinks)
# A picture on this computer (an image the answer shows, by its path) opens in the desktop's viewer; no
# other local file does: a link the model wrote must not start a program or a script.
PICTURE_SUFFIXES = frozenset({".png", ".jpg", ".jpeg", ".gif", ".webp", ".bmp", ".svg", ".tif", ".tiff", ".ico",
                              ".avif", ".heic"})
CANNOT_OPEN = "(this location cannot be opened)"
COPIED_MS = 2000  # how long a code block's link says "Copied ✓" after a click
TIP_WIDTH = 560  # pixels: a longer address is shortened in its middle


def local_picture(url: QUrl) -> Path | None:
    """The picture file on this computer that ``url`` names (a file: address or an absolute path), if it is one
    and is there; else None."""
    if url.isLocalFile():
        path = Path(url.toLocalFile())
    elif not url.scheme() and url.path().startswith("/") and not url.host():
        path = Path(url.path(QUrl.ComponentFormattingOption.FullyDecoded))
    else:
        return None
    try:
        return path if path.suffix.lower() in PICTURE_SUFFIXES and path.is_file() else None
    except OSError:
        return None


def link_opens(url: QUrl) -> bool:
    """Whether a click on a link of an answer to ``url`` opens it."""
    return url.scheme().lower() in WEB_SCHEMES or local_picture(url) is not None


def link_tip(href: str, metrics: QFontMetrics | None = None, width: int = TIP_WIDTH) -> str:
    """Where the link ``href`` of an answer leads, as its tooltip and the status bar say it: the address (a long
    one shortened in its middle, so its site and its file both show), and whether a click cannot open it."""
    if not href or QUrl(href).scheme() in ACTIONS:
        return ""  # Copy code, Run, Stop say what they do
    shown = (metrics or QFontMetrics(QToolTip.font())).elidedText(href, Qt.TextElideMode.ElideMiddle, width)
    return shown if link_opens(QUrl(href)) else f"{shown}\n{CANNOT_OPEN}"


class LinksMixin:
    """MarkdownSegment's links: clicked, hovered, and reached with Tab (mixed into it, see segments.py)."""

    @property
    def _keyboard_focus(self) -> bool:
        """The focus came by the keyboard: the caret's line is marked (see paintEvent), the text ringed."""
        return getattr(self, "_by_keys", False)

    @_keyboard_focus.setter
    def _keyboard_focus(self, on: bool) -> None:
        self._by_keys = on
        self._mark_focus()

    def _mark_focus(self) -> None:
        """Ring the text while it has the keyboard's focus: the caret and the faint band on its line alone hardly
        showed where Tab had gone (the ring is outside the text, over the page: nothing to read is covered)."""
        on = self._keyboard_focus and self.hasFocus()
        ring = getattr(self, "_ring", None)
        if on and ring is None:
            ring = self._ring = RingAround(self)
        if ring is not None:
            ring.set_shown(on)

    def say_link(self) -> None:
        """Have a screen reader say the link Tab selected in the text, "Link: the guide": Orca said "Answer text
        selected" for the first link and nothing for the others (it ignores a label's new name)."""
        cursor = self.textCursor()
        at = cursor.selectionStart() if self.hasFocus() and cursor.hasSelection() else -1
        if at >= 0 and at in self._links() and at != getattr(self, "_link_said", -1):
            announce(self, f"Link: {' '.join(cursor.selectedText().split())}")
        self._link_said = at

    def _on_anchor(self, url: QUrl) -> None:
        action = {"copy-code": self.copy_code, "run-go": self.run_go, "stop-go": self.stop_go,
                  SHOW_ROWS: lambda _: self.rowsAsked.emit()}.get(url.scheme())
        if action is not None:
            try:
                action(int(url.path()))
            except (ValueError, IndexError):
                pass
            return
        picture = local_picture(url)
        if picture is not None:
            QDesktopServices.openUrl(QUrl.fromLocalFile(str(picture)))
        elif url.scheme().lower() == "mailto":  # without attach= and other fields a mail program may act on
            QDesktopServices.openUrl(QUrl.fromEncoded(safe_mailto(bytes(url.toEncoded()).decode()).encode()))
        elif url.scheme().lower() in WEB_SCHEMES:
            QDesktopServices.openUrl(url)

    def _on_hover(self, url: QUrl) -> None:
        tip = link_tip(url.toString(), self.fontMetrics()) if not url.isEmpty() else ""
        if tip or self._hovered:
            self._hovered = bool(tip)
            self.linkHovered.emit(tip.replace("\n", " "))

    def viewportEvent(self, event) -> bool:  # noqa: N802
        if event.type() == QEvent.Type.ToolTip:
            # A link shows where it goes before it is clicked (Qt shows nothing for a link by itself).
            with self._shifted(self._wide_at(event.pos().y())):
                tip = link_tip(self.anchorAt(event.pos()))
            if tip:
                QToolTip.showText(event.globalPos(), plain_tip(tip), self.viewport())
            else:
                QToolTip.hideText()
                event.ignore()
            return True
        return super().viewportEvent(event)

    def focusInEvent(self, event) -> None:  # noqa: N802
        super().focusInEvent(event)
        # Tab lands on the first link (Shift+Tab on the last), not on the text around it: that first stop
        # showed nothing at all, and a keyboard user could not tell where the focus had gone.
        # The answer's reading stop takes Tab on its caret, to read from there; Shift+Tab from below lands on
        # its last link first.
        reason = event.reason()
        if reason != Qt.FocusReason.MouseFocusReason and reason != Qt.FocusReason.ActiveWindowFocusReason:
            self._keyboard_focus = True
            self.viewport().update()
        forward = reason == Qt.FocusReason.TabFocusReason
        if (forward or reason == Qt.FocusReason.BacktabFocusReason) and not self.textCursor().hasSelection() \
                and not (self._reading_stop and (forward or not self._links())):
            super().focusNextPrevChild(forward)
        self._mark_focus()
        self.say_link()

    def focusOutEvent(self, event) -> None:  # noqa: N802
        super().focusOutEvent(event)
        if event.reason() != Qt.FocusReason.ActiveWindowFocusReason:
            self._link_said = -1  # the focus went elsewhere (a click): coming back, the link is said again
            if self._keyboard_focus:
                self._keyboard_focus = False
                self.viewport().update()
        self._mark_focus()  # (gone with the window's focus, back with it)

    def focusNextPrevChild(self, forward: bool) -> bool:  # noqa: N802
        moved = self._next_stop(forward)
        self.say_link()  # Qt selects a link with no selectionChanged
        return moved

    def _next_stop(self, forward: bool) -> bool:
        if self.hasFocus() and not self.focusPolicy() & Qt.FocusPolicy.TabFocus and self.stop_beside is not None \
                and not self._link_beyond(forward):
            # the caret went on into this segment, no Tab stop: Tab goes on from its place in the answer (it
            # went to the window's first stop, out of the answer)
            stop = self.stop_beside(forward)
            if stop is not None:
                stop.setFocus(Qt.FocusReason.TabFocusReason if forward else Qt.FocusReason.BacktabFocusReason)
                return True
        # Shift+Tab from the reading stop's first link comes back to its caret at the start, where Tab left it
        if not forward and self._reading_stop and self.hasFocus() and self.textCursor().hasSelection() \
                and self.key_wide() is None and self._first_stop():
            self._quietly(QTextCursor(self.document()))
            self.viewport().update()
            return True
        if self.hasFocus() and not self.textCursor().hasSelection() and self.key_wide() is None:
            return self._from_caret(forward)
        return super().focusNextPrevChild(forward)

    def _from_caret(self, forward: bool) -> bool:
        """Tab (Shift+Tab) from a caret with nothing selected: to the first link or wide block after it (the
        last before it), else out of the segment. Qt looks from the text's start (end) then: Shift+Tab from the
        caret at the start went round the links for ever, and the answer's card and question were unreachable."""
        at = self.textCursor().position()
        if forward:
            beyond = any(s >= at for s in self._links()) or any(w[0] >= at for w in self.wide_blocks())
        else:
            beyond = any(s < at for s in self._links()) or any(w[1] < at for w in self.wide_blocks())
        if not beyond:
            return QWidget.focusNextPrevChild(self, forward)  # the window's next stop (see MainWindow)
        edge = QTextCursor(self.document())  # one letter before (after) the caret: Qt looks on from there
        if forward and at > 0:
            edge.setPosition(at - 1)
            edge.setPosition(at, QTextCursor.MoveMode.KeepAnchor)
        elif not forward and at < self.document().characterCount() - 1:
            edge.setPosition(at)
            edge.setPosition(at + 1, QTextCursor.MoveMode.KeepAnchor)
        self._quietly(edge)
        return super().focusNextPrevChild(forward)

    def _link_beyond(self, forward: bool) -> bool:
        """Whether a link follows the caret (precedes it): Tab (Shift+Tab) goes to it first."""
        cursor = self.textCursor()
        if forward:
            return any(at >= cursor.selectionEnd() for at in self._links())
        return any(at < cursor.selectionStart() for at in self._links())

    def _first_stop(self) -> bool:
        """Whether the link selected is the first place Tab stops at in this segment (no link nor wide block
        before it)."""
        start = self.textCursor().selectionStart()
        return not any(at < start for at in self._links()) and not any(w[0] < start for w in self.wide_blocks())


class CodeBlocksMixin:
    """MarkdownSegment's code blocks: copied and run (mixed into it, see segments.py)."""

    def _run_allowed(self, text: str) -> bool:
        if self._settings is None or "```" not in text and "~~~" not in text and not self._render_prefix:
            return False
        return run_limits(self._settings()) is not None

    def _carried(self) -> str:
        """The code of the earlier pieces of a block the streaming view cut (its first block continues it)."""
        prev = self.continues
        if prev is None or not self._render_prefix or not prev.code_blocks():
            return ""
        last = prev.code_blocks()[-1]
        return (prev._carried() if len(prev.code_blocks()) == 1 else "") + last

    def run_source(self, index: int) -> str:
        """The code Run runs for block ``index``: a cut block's earlier pieces included."""
        return (self._carried() if index == 0 else "") + self._codes[index]

    # running Go blocks -------------------------------------------------------------------------------
    def run_go(self, index: int) -> asyncio.Task[None] | None:
        """Run Go block ``index`` in the sandbox; the task, or None when running is not allowed now."""
        limits = run_limits(self._settings()) if self._settings else None
        if limits is None or not 0 <= index < len(self._codes):
            self.refresh()  # the settings changed since the link was drawn: take it away
            return None
        if self._runs is None:
            self._runs = GoRuns(self._run_changed)
            runs = self._runs
            self.destroyed.connect(lambda *_: runs.cancel_all())
        return self._runs.start(index, self.run_source(index), limits)

    def stop_go(self, index: int) -> bool:
        return bool(self._runs and self._runs.stop(index))

    def run_views(self) -> dict[int, RunView]:
        """Each run Go block's last run (a ``markdown_render.RunView``), by block number."""
        return self._runs.views() if self._runs else {}

    def has_runs(self) -> bool:
        """Whether a Go block of this segment has been run (its output is shown under it)."""
        return self._runs is not None

    def runs_going(self) -> bool:
        """Whether a Go block of this segment is running now."""
        return bool(self._runs and self._runs.running())

    def cancel_runs(self) -> list[asyncio.Task[None]]:
        """Stop every run of this segment (its answer or chat is closing); the cancelled tasks."""
        return self._runs.cancel_all() if self._runs else []

    def _run_changed(self, index: int) -> None:
        if not shiboken6.isValid(self):
            return
        self.refresh()
        self.runChanged.emit(index)

    def code_blocks(self) -> tuple[str, ...]:
        return self._codes

    def whole_code(self, index: int) -> str:
        """Block ``index``'s code, with the rest of a block the view cut into pieces, before and after it (a
        block too long to join again: see AnswerWidget._join_cut_blocks)."""
        code, seg = self.run_source(index), self
        while index == len(seg._codes) - 1 and seg.continued_by is not None:
            after = seg.continued_by
            if (not shiboken6.isValid(after) or after.continues is not seg or not after._codes
                    or after._render_prefix.lstrip().startswith("|")):
                break
            seg, index = after, 0
            code += seg._codes[0]
        return code

    def copy_code(self, index: int) -> str:
        code = self.whole_code(index)  # Copy code in any piece of a cut block copies all of it
        QGuiApplication.clipboard().setText(code)
        # The link says it was done, where the eye is: the status bar's words alone went unseen.
        if self._copied not in (-1, index):
            self._relabel(self._copied, COPY_CODE)
        self._copied = index
        self._relabel(index, COPIED)
        if self._copied_timer is None:
            self._copied_timer = QTimer(self)
            self._copied_timer.setSingleShot(True)
            self._copied_timer.timeout.connect(self._copied_done)
        self._copied_timer.start(COPIED_MS)
        self.codeCopied.emit(code)
        return code

    @property
    def copied(self) -> int:
        """The code block whose link says "Copied ✓" now (-1: none)."""
        return self._copied

    def _copied_done(self) -> None:
        index, self._copied = self._copied, -1
        if index >= 0:
            self._relabel(index, COPY_CODE)
            self._measure()  # a wide block measured meanwhile (a resize) finds its header by "Copy code"

    def _relabel(self, index: int, words: str) -> None:
        """Put ``words`` in place of the Copy code link of block ``index``, in the text as it is: rendered
        again, a link reached with Tab lost the focus, and a wide block its sideways scroll."""
        href = f"copy-code:{index}"
        block = self.document().begin()
        while block.isValid():
            for piece in block:
                fragment = piece.fragment()
                if fragment.isValid() and fragment.charFormat().anchorHref() == href:
                    self._replace(fragment.position(), fragment.length(), words, fragment.charFormat())
                    return
            block = block.next()

    def _replace(self, start: int, length: int, words: str, fmt) -> None:
        mine = self.textCursor()  # the link the keyboard is on stays the one it is on
        on_link = mine.hasSelection() and mine.selectionStart() == start and mine.selectionEnd() == start + length
        edit = QTextCursor(self.document())
        edit.setPosition(start)
        edit.setPosition(start + length, QTextCursor.MoveMode.KeepAnchor)
        edit.insertText(words, fmt)
        if on_link:
            mine.setPosition(start)
            mine.setPosition(start + len(words), QTextCursor.MoveMode.KeepAnchor)
            self._quietly(mine)
