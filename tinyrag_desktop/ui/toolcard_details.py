"""A tool card's open part: the details view, their text and HTML, the sources linked in them."""

from __future__ import annotations

import html
from typing import Callable

from PySide6.QtCore import QSize, QSizeF, Qt, QUrl
from PySide6.QtGui import QFont, QPalette, QTextCursor, QTextDocument, QTextOption
from PySide6.QtWidgets import QFrame, QSizePolicy, QTextBrowser, QWidget

from ..hidden_text import marked
from ..tool_words import result_words, split_advice, tool_title, writing_call_words
from ..tools.nanogo_tool import output_heading
from ..tools.rag import code_pieces
from .access import expanded_changed
from .focus_ring import FocusRing
from .kb_results import set_code_tabs
from .markdown_render import MONO_FAMILY
from .sources import SOURCE_TOOLS, open_source, source_url, split_sources
from .theme import colors

_PROGRAM_TOOLS = frozenset({"shell", "nanogo"})  # their results are a program's output: shown in the code type
_RESULT_SHOWN = 6000  # characters of a result shown in the expanded card; the rest is summarised
_LINES_SHOWN = 120  # and lines: 6,000 characters of short lines made a card 3,000 pixels tall
# The heading over the block's input, by its element: "Url" read oddly, and nanogo's <source> was headed
# "Source" just above "Source: nanoGo", where the result came from.
_INPUT_HEADINGS = {"query": "Query", "url": "URL", "source": "Code"}
# A tool whose <query> is no search: the shell's is a command and the calculator's an expression.
_TOOL_HEADINGS = {"shell": "Command", "calculate": "Expression"}
_SO_FAR = "Output so far"  # over what a running program or command has printed, in its open card
# Over the inputs of a card standing for several calls of one tool.
_PLURAL_HEADINGS = {"Query": "Queries", "Expression": "Expressions", "Command": "Commands", "URL": "URLs"}
# The result in a card's description (see brief): its first lines, at most this many characters of them.
_BRIEF_LINES, _BRIEF_CHARS = 3, 300


def brief(text: str) -> str:
    """``text`` said in short: its first _BRIEF_LINES lines that hold something, one after another, cut at a
    word after _BRIEF_CHARS characters, and how many lines are left ("… 40 more lines"); "" for no words."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    said = ""
    for line in lines[:_BRIEF_LINES]:  # "; " between lines, or a space after one that ends a sentence
        said += ("" if not said else " " if said[-1] in ".!?;:," else "; ") + line
    if len(said) > _BRIEF_CHARS:
        said = said[:_BRIEF_CHARS].rsplit(" ", 1)[0] + "…"
    more = len(lines) - _BRIEF_LINES
    return f"{said} … {more:,} more line{'' if more == 1 else 's'}" if more > 0 else said


def _section(heading: str, body: str, direction: str = "") -> str:
    stated = f" dir='{direction}'" if direction else ""
    return f"<p style='margin-bottom:0'><b>{heading}</b></p><p{stated} style='margin-top:0'>{body}</p>"


def _closing_note(text: str) -> str:
    """The bracketed note a tool ends its result with ("[The output was cut at 64 KB …]"), or ""."""
    last = text.rstrip().rsplit("\n", 1)[-1].strip()
    return last if last.startswith("[") and last.endswith("]") and len(last) < 300 else ""


def _cut(text: str, chars: int, lines: int, from_end: bool = False) -> str:
    """At most ``chars`` characters and ``lines`` lines of ``text``, from its start (or its end)."""
    if from_end:
        shown = text[-chars:] if chars else ""
        return "\n".join(shown.rsplit("\n", lines)[-lines:]) if shown.count("\n") >= lines else shown
    shown = text[:chars]
    return "\n".join(shown.split("\n", lines)[:lines]) if shown.count("\n") >= lines else shown


# What cuts a text into pieces, each with whether it is code (tools.rag.code_pieces).
_Pieces = Callable[[str], list[tuple[str, bool]]]


def _set(text: str, mono: bool, pieces: _Pieces | None = None) -> str:
    """``text`` as HTML, its lines and spaces kept; ``mono``: in the code type; ``pieces`` say which parts of
    it are code: a program's passage in the font of an answer's code blocks, its indentation lined up."""
    if pieces is not None:
        return "".join(f"<span style=\"white-space:pre-wrap; font-family:{MONO_FAMILY}\">{html.escape(piece)}</span>"
                       if code else _set(piece, False) for piece, code in pieces(text))
    pre = "<code style='white-space:pre-wrap'>{}</code>" if mono else "<span style='white-space:pre-wrap'>{}</span>"
    return pre.format(html.escape(text))


def _lines(heading: str, text: str, direction: str = "", *, end_too: bool = False, mono: bool = False,
           pieces: _Pieces | None = None) -> str:
    """``text`` under ``heading`` with its lines and tabs kept, cut at _RESULT_SHOWN characters or
    _LINES_SHOWN lines like a result: a Go program's 64 KB of output ran on as one paragraph, 8,000 pixels
    tall. The note a cut text ends with ("[The output was cut at 64 KB …]") stays in sight. ``end_too``:
    a third from the start and the rest from the end, for a command, whose end (its error, its summary)
    is what matters most. ``mono``: in the code type, as a program's output lines up (columns, tables);
    ``pieces``: some parts of it are (see _set)."""
    esc = html.escape
    shown = _cut(text, _RESULT_SHOWN, _LINES_SHOWN)
    if len(shown) < len(text) and end_too:
        head = _cut(text, _RESULT_SHOWN // 3, _LINES_SHOWN // 3)
        end = _cut(text[len(head):], _RESULT_SHOWN - len(head), _LINES_SHOWN - _LINES_SHOWN // 3, from_end=True)
        more = len(text) - len(head) - len(end)
        body = (_set(head.rstrip("\n"), mono) + f"<br><i>… {more:,} more characters</i><br>"
                + _set(end.lstrip("\n"), mono))
        return _section(heading, body, direction)
    more = len(text) - len(shown)
    tail = ""
    if more > 0:
        note = _closing_note(text)
        tail = (f"<p style='margin-top:0'><i>… {more:,} more characters"
                f"{esc(' ' + note) if note and note not in shown else ''}</i></p>")
    return _section(heading, _set(shown, mono, pieces), direction) + tail


def _code_font(base: QFont) -> QFont:
    """The font Qt's rich text sets ``<code>`` in, in a document whose text is in ``base``."""
    doc = QTextDocument()
    doc.setDefaultFont(base)
    doc.setHtml("<code>x</code>")
    cursor = QTextCursor(doc)
    cursor.setPosition(1)
    return cursor.charFormat().font()


class ToolDetails(QTextBrowser):
    """The expanded card's text, as tall as its content. It wraps anywhere: a label wraps only between
    words, so a long URL, Go line or result with no space in it was cut off at the card's right edge."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName("toolDetails")
        self.setAccessibleName("Details")  # a label with no name, to a screen reader
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        # Tab comes here after the card, and the keyboard reads it as the mouse does: the arrows move a caret
        # through it, Shift selects, Ctrl+C copies (Tab first visits its links). Reached by a click only, a
        # keyboard or screen reader user could neither read a result line by line nor copy a part of it.
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextBrowserInteraction
                                     | Qt.TextInteractionFlag.TextSelectableByKeyboard)
        self.setWordWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        # A link is one of the call's sources, opened as the Sources line under the answer opens them: a file
        # moved since it was imported is said in the status bar (see ToolCard.openFailed), and only http(s)
        # and file locations are opened.
        self.setOpenLinks(False)
        self.anchorClicked.connect(self._open)
        self.viewport().setAutoFillBackground(False)
        self.viewport().setCursor(Qt.CursorShape.IBeamCursor)
        pal = self.palette()
        pal.setColor(QPalette.ColorRole.Base, Qt.GlobalColor.transparent)
        self.setPalette(pal)
        self.document().setDocumentMargin(0)
        # a tab four of the code type's spaces wide, as in the answer's code blocks
        set_code_tabs(self.document(), _code_font(self.document().defaultFont()))
        self._held = False  # its text is being replaced: no shrinking to the empty document's height meanwhile
        self.document().documentLayout().documentSizeChanged.connect(self._fit)
        self.setFixedHeight(1)

    def replace_html(self, text: str) -> None:
        """Show ``text`` instead: setHtml empties the document first, and the card (and the conversation's
        scroll range under a place the user scrolled to) shrank to nothing and grew back with each update."""
        self._held = True
        try:
            self.setHtml(text)
        finally:
            self._held = False
        self._fit(self.document().size())

    def _open(self, url: QUrl) -> None:
        card = self.parentWidget()
        if isinstance(card, DetailsMixin):  # the card it is in
            card.open_source_at(url.toString())

    def _fit(self, size: QSizeF) -> None:
        height = int(size.height() + 0.999) + 2
        if height != self.height() and not (self._held and height < self.height()):
            self.setFixedHeight(height)

    def sizeHint(self) -> QSize:  # noqa: N802
        return QSize(200, self.height())

    def minimumSizeHint(self) -> QSize:  # noqa: N802
        return QSize(50, self.height())

    def loadResource(self, kind: int, url: QUrl):  # noqa: N802
        # A result is outside text: never let it make the card read local files or images.
        return None


class DetailsMixin:
    """ToolCard's details, shown when it is opened (mixed into it, see toolcard.py)."""

    def _inputs_heading(self) -> str:
        """The heading over the inputs of a grouped card: "Expressions", or "Calls" for several tools."""
        if len({(card._tool, card._param) for card in self._calls()}) > 1:
            return "Calls"
        heading = self._input_heading()
        return _PLURAL_HEADINGS.get(heading, heading)

    def _inputs(self) -> list[str]:
        several = self._inputs_heading() == "Calls"
        return [f"{tool_title(card._tool)}: {card._query}" if several else card._query for card in self._calls()]

    # expanding ------------------------------------------------------------------------------------
    def set_expanded(self, on: bool) -> None:
        if on == self._expanded:
            return
        self._expanded = on
        if on and self._details is None:
            self._details = details = ToolDetails(self)
            details.setAccessibleName(f"Details of {self.title}")
            details.setHtml(self._details_html())
            self._layout.addWidget(details)
            self.pin_details()
            FocusRing(self, details, lambda: details.geometry().adjusted(-4, -2, 4, 2), radius=4)
        elif on and self._phase == "running":  # it printed more while it was closed
            self.refresh_details()
        if self._details is not None:
            self._details.setVisible(on)
        self._relayout()
        self.update()  # the header's note comes or goes
        # Qt's AT-SPI bridge passes no expanded or collapsed change on (only checked, active, enabled and
        # focused ones): Orca 43 never said "expanded". It says the focused card's description as it changes:
        # that begins with the new state, until the card next takes the focus (see focusInEvent).
        self._toggled = True
        self._describe()
        expanded_changed(self)  # for the bridges that pass it on
        self.expandedChanged.emit(on)

    def pin_details(self) -> None:
        """Put the opened details right after the card in the window's Tab order: made last, they came after
        every other stop, and the answer's order of its stops, set again as it ends, puts its next stop
        right after the card (Qt moves no child along with its parent)."""
        if self._details is not None:
            QWidget.setTabOrder(self, self._details)

    def focusNextPrevChild(self, forward: bool) -> bool:  # noqa: N802 - Qt's name
        self.pin_details()  # Tab or Shift+Tab from the card or its details (see pin_details)
        return super().focusNextPrevChild(forward)

    def refresh_details(self) -> None:
        """Show the details anew (a result came, more output): a selection in them is kept where it still
        fits, and their height goes from the old text's to the new one's at once (see replace_html)."""
        if self._details is None:
            return
        cursor = self._details.textCursor()
        anchor, position = cursor.anchor(), cursor.position()
        self._details.replace_html(self._details_html())
        if anchor != position:
            last = self._details.document().characterCount() - 1
            cursor = QTextCursor(self._details.document())
            cursor.setPosition(min(anchor, last))
            cursor.setPosition(min(position, last), QTextCursor.MoveMode.KeepAnchor)
            self._details.setTextCursor(cursor)

    def details_text(self) -> str:
        """What the expanded card shows, as plain text (tests and the clipboard use it)."""
        parts = ([f"{self._inputs_heading()}:\n" + "\n".join(self._inputs())] if self._folded else
                 [f"{self._input_heading()}:\n{self._query}"])
        if self._source:
            many = len(split_sources(self._source)) > 1
            parts.append(f"Sources:\n{self._source.strip()}" if many else f"Source: {self._source.strip()}")
        if self._error:
            parts.append(f"{self._reason_heading()}: {self._reason()}")
            if self._printed():
                parts.append(f"{output_heading(self._error)}:\n{self._printed()}")
        elif self._result:
            parts.append(f"Result:\n{result_words(self._tool, self._result)}")
        elif self._phase == "running":
            parts.append(f"{_SO_FAR}:\n{self.printed_so_far()}" if self.printed_so_far() else "Running…")
        elif self._phase == "writing":
            parts = [f"{self._writing_line()} {self._meta_text}".strip()]
        return "\n\n".join(parts)

    def _brief_result(self) -> str:
        """The result in short, for the card's description: what the open card shows under Result, or the
        output a failed or stopped program printed ("" for none). Without it, a screen reader heard the code
        or the query of a Go program, a command or a search, and never what came of it."""
        if self._error:
            printed = self._printed()
            return f"{output_heading(self._error)}: {brief(printed)}" if brief(printed) else ""
        result = result_words(self._tool, self._result)
        if self._tool == "calculate" and result.startswith(self._query.strip() + " "):  # not the expression again
            result = result[len(self._query.strip()):].strip().removeprefix("= ")
        return f"Result: {brief(result)}" if self._phase == "done" and brief(result) else ""

    def _source_links(self) -> dict[str, str]:
        """Each source the details show as a link, and the address of its link: files, pages and articles
        of a tool that reads documents (a calculation's "calculator" is no place)."""
        if self._tool not in SOURCE_TOOLS:
            return {}
        return {line: url.toString() for line in split_sources(self._source) if (url := source_url(line)) is not None}

    def open_source_at(self, address: str) -> bool:
        """Open the source whose link in the details goes to ``address``, as the Sources line under the answer
        does; when it cannot be opened (a file moved since), say why with ``openFailed``."""
        location = next((loc for loc, link in self._source_links().items() if link == address), None)
        if location is None:  # no link of ours (the details hold no other)
            return False
        problem = open_source(location)
        if problem:
            self.openFailed.emit(problem)
        return problem is None

    def _writing_line(self) -> str:
        return writing_call_words(self._tool)  # "Writing Go code…": it said "Writing a nanogo call…"

    def _input_heading(self) -> str:
        if self._param == "query" and self._tool in _TOOL_HEADINGS:
            return _TOOL_HEADINGS[self._tool]
        return _INPUT_HEADINGS.get(self._param, self._param.capitalize())

    def _details_html(self) -> str:
        # Each heading is a paragraph of its own, and so is each value: Qt finds a paragraph's direction
        # from its first letter, so a query or result in Arabic or Hebrew reads right to left, and the
        # English heading above it no longer forces it left to right.
        esc = html.escape
        if self._folded:  # each call's input, one paragraph each (a Go program has several lines)
            out = [f"<p style='margin-bottom:0'><b>{esc(self._inputs_heading())}</b></p>" + "".join(
                "<p style='margin-top:0;margin-bottom:0'><code style='white-space:pre-wrap'>"
                f"{esc(marked(q))}</code></p>" for q in self._inputs()) + "<p style='margin-top:0'></p>"]
        else:
            out = [_section(esc(self._input_heading()),
                            f"<code style='white-space:pre-wrap'>{esc(marked(self._query))}</code>")]
        if self._source:
            # one per line: a search's passages came from several documents ("a.md b.txt" ran together). A
            # file, a page or an article is a link that opens it; "calculator" or "nanoGo" says what ran.
            lines, links = split_sources(self._source), self._source_links()
            out.append(_section("Source" if len(lines) == 1 else "Sources", "<br>".join(
                f"<a href='{esc(links[line])}'>{esc(line)}</a>" if line in links else esc(line) for line in lines)))
        if self._error:
            # The error is the app's own sentence: it reads in the window's direction even when it starts
            # with the model's Hebrew or Arabic ("“ש” is not something the calculator understands). The
            # advice given to the model after it ("Available tools: …", with a tool block to copy) is set
            # apart: it is the model's reading, not the reason.
            direction = "rtl" if self.layoutDirection() == Qt.LayoutDirection.RightToLeft else "ltr"
            reason, advice = (self._reason(), "") if self.denied or self.off else split_advice(self._reason())
            # its lines kept (a compile error lists one per line), and cut like a result
            out.append(_lines(self._reason_heading(), reason, direction))
            if advice:
                out.append(_section("The model was told", f"<span style='color:{colors().muted.name()}'>"
                                                          f"{esc(advice)}</span>", direction))
            if self._printed():  # what the program printed before it failed: as lines, under its own heading
                out.append(_lines(output_heading(self._error), self._printed(), mono=True))
        elif self._result:
            out.append(_lines("Result", result_words(self._tool, self._result), end_too=self._tool == "shell",
                              mono=self._tool in _PROGRAM_TOOLS, pieces=code_pieces if self._tool == "rag_knowledge" else None))
        elif self._phase == "running" and self.printed_so_far():
            # what it printed until now, cut as a finished command's output is: its start and its latest lines
            out.append(_lines(_SO_FAR, self.printed_so_far(), end_too=True, mono=True))
        elif self._phase == "running":
            out.append("<p><i>Running…</i></p>")
        elif self._phase == "writing":
            out = [f"<p><i>{esc(self._writing_line())} {esc(self._meta_text)}</i></p>"]
        return "".join(out)
