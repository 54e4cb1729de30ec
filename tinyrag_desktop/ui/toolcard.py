"""ToolCard: one tool block of an answer, with its icon, name, query preview and a live status badge."""

from __future__ import annotations

import html

from PySide6.QtCore import Property, QRectF, QSize, QSizeF, Qt, QUrl, Signal
from PySide6.QtGui import (QFont, QFontDatabase, QFontMetrics, QKeyEvent, QMouseEvent, QPainter, QPalette, QPen,
                           QTextOption)
from PySide6.QtWidgets import QFrame, QSizePolicy, QTextBrowser, QVBoxLayout, QWidget

from ..hidden_text import marked
from ..tools.nanogo_tool import KEEPS_OUTPUT, OUTPUT_BEFORE, OUTPUT_CUT, output_heading, split_output
from ..tools.rag import EMPTY_MESSAGE, NO_MATCH
from ..tool_words import (DENIED_NOTE, LIMIT, for_a_person, limit_setting, off_note, sentence, split_advice, window_words,
                          writing_call_words)
from ..tools.shell import DENIED, status_note
from .access import announce, expanded_changed, expander
from .bidi import set_text_direction
from .icons import GENERIC_TOOL, STATUS_WORDS, paint_badge, shared_spinner, spinner_angle, tool_pixmap
from .plain_text import plain_tip
from .sources import SOURCE_TOOLS, open_source, source_url, split_sources
from .theme import colors

# The engine says ok/error/skipped; the card (and DESIGN's `status` property) says done/error/skipped.
_FROM_ENGINE = {"ok": "done", "error": "error", "skipped": "skipped", "running": "running", "done": "done"}
_PROGRAM_TOOLS = frozenset({"shell", "nanogo"})  # their results are a program's output: shown in the code type
_RESULT_SHOWN = 6000  # characters of a result shown in the expanded card; the rest is summarised
_LINES_SHOWN = 120  # and lines: 6,000 characters of short lines made a card 3,000 pixels tall
STOPPED = "Stopped before the tool finished."  # the reason on a card whose answer was stopped mid-run
_PAD, _ROW, _BADGE = 7, 22, 18  # header geometry in pixels (the row grows with a large font)
# The heading over the block's input, by its element: "Url" read oddly, and nanogo's <source> was headed
# "Source" just above "Source: nanoGo", where the result came from.
_INPUT_HEADINGS = {"query": "Query", "url": "URL", "source": "Code"}
# A tool whose <query> is no search: the shell's is a command and the calculator's an expression.
_TOOL_HEADINGS = {"shell": "Command", "calculate": "Expression"}
_LEFT_MIDDLE = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
# What a card is titled: the tool in a person's words. The name the model calls it by ("rag_knowledge",
# "nanogo") read as code, and the open card said "Source: nanoGo" under a title "nanogo". A tool this version
# does not know keeps the name the model wrote. The model's name stays in the tooltip and `tool_name`.
TOOL_TITLES = {"rag_knowledge": "Knowledge base", "websearch": "Web search", "wikipedia": "Wikipedia",
               "url_fetch": "Web page", "calculate": "Calculator", "nanogo": "Go program",
               "shell": "Shell command"}


def tool_title(tool: str) -> str:
    """The title of a card for a call of ``tool``: "Calculator" for calculate, an unknown name as it is."""
    return TOOL_TITLES.get(tool, tool)


def _done_note(tool: str, query: str, result: str) -> str:
    """What the closed card of a call that ran says under its tick ("" mostly): a search that found nothing
    (the tick alone read as if the knowledge base had answered), a command that ended with an error status
    or was stopped (it read as a plain success), Go output cut at its limit."""
    if tool == "shell":
        return status_note(query, result)
    if tool == "nanogo" and result.endswith(OUTPUT_CUT):
        return OUTPUT_CUT.strip("[]")
    if tool != "rag_knowledge":
        return ""
    if result.startswith(EMPTY_MESSAGE):
        return "The knowledge base is empty: add documents in the Knowledge base panel (View → Knowledge base)."
    if NO_MATCH in result:
        return "No passage in the knowledge base matched these words."
    return ""


# A calculation's value beside its expression on the closed card ("3 * (17 + 5) / 2 = 33"), when short.
_VALUE_SHOWN = 40
# While the user is asked whether a command may run (the shell's Run / Deny), the card says so.
WAITING = "waiting for you"
_WAITING_NOTE = "Waiting for you to allow or deny this command."


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _input_line(text: str) -> str:
    """A call's input on one line, a bidi override or a carriage return in it as a mark (‹U+202E›): a command
    read otherwise than it runs."""
    return _one_line(marked(text))


def _two_lines(fm: QFontMetrics, text: str, room: int) -> list[str]:
    """``text`` broken between words into at most two lines of ``room`` pixels. A second line too long is cut
    at its start ("…raise “Tool calls per round” in Settings → Limits."): a note ends with what to do."""
    if fm.horizontalAdvance(text) <= room:
        return [text]
    words, first = text.split(" "), ""
    for i, word in enumerate(words):
        longer = f"{first} {word}" if first else word
        if fm.horizontalAdvance(longer) > room:
            if not first:  # a first word wider than the card: cut anywhere
                cut = len(word)
                while cut > 1 and fm.horizontalAdvance(text[:cut]) > room:
                    cut -= 1
                first, rest = text[:cut], text[cut:]
            else:
                rest = " ".join(words[i:])
            if fm.horizontalAdvance(rest) <= room:
                return [first, rest]
            tail = rest.split(" ")  # whole words dropped from its start, not letters
            while len(tail) > 1 and fm.horizontalAdvance("…" + " ".join(tail)) > room:
                tail.pop(0)
            return [first, fm.elidedText("…" + " ".join(tail), Qt.TextElideMode.ElideLeft, room)]
        first = longer
    return [first]


# The engine's reasons for not running a call that may come many times in a row: what the grouped card says.
_DUPLICATE = "duplicate call: "
_PLURAL_HEADINGS = {"Query": "Queries", "Expression": "Expressions", "Command": "Commands", "URL": "URLs"}


def _group_note(count: int, reason: str, tool: str) -> str:
    """What a card standing for ``count`` calls skipped for one ``reason`` says: "5 more calls skipped: at
    most 3 tool calls per round. To allow more, raise …" (more: calls beyond the ones that ran)."""
    if found := LIMIT.match(reason):
        more = "" if found.group(1) == "no tool calls" else " more"  # at a limit of 0, none ran
        return f"{count}{more} calls skipped: {reason.split(': ', 1)[1].rstrip('.')}{limit_setting(reason)}"
    if reason.startswith(_DUPLICATE):
        return f"{count} calls skipped: {window_words(reason[len(_DUPLICATE):]).rstrip('.')}."
    return f"{count} calls skipped. {for_a_person(reason, tool).rstrip('.')}."


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


def _lines(heading: str, text: str, direction: str = "", *, end_too: bool = False, mono: bool = False) -> str:
    """``text`` under ``heading`` with its lines and tabs kept, cut at _RESULT_SHOWN characters or
    _LINES_SHOWN lines like a result: a Go program's 64 KB of output ran on as one paragraph, 8,000 pixels
    tall. The note a cut text ends with ("[The output was cut at 64 KB …]") stays in sight. ``end_too``:
    a third from the start and the rest from the end, for a command, whose end (its error, its summary)
    is what matters most. ``mono``: in the code type, as a program's output lines up (columns, tables)."""
    esc = html.escape
    pre = "<code style='white-space:pre-wrap'>{}</code>" if mono else "<span style='white-space:pre-wrap'>{}</span>"
    shown = _cut(text, _RESULT_SHOWN, _LINES_SHOWN)
    if len(shown) < len(text) and end_too:
        head = _cut(text, _RESULT_SHOWN // 3, _LINES_SHOWN // 3)
        end = _cut(text[len(head):], _RESULT_SHOWN - len(head), _LINES_SHOWN - _LINES_SHOWN // 3, from_end=True)
        more = len(text) - len(head) - len(end)
        body = (pre.format(esc(head.rstrip("\n"))) + f"<br><i>… {more:,} more characters</i><br>"
                + pre.format(esc(end.lstrip("\n"))))
        return _section(heading, body, direction)
    more = len(text) - len(shown)
    tail = ""
    if more > 0:
        note = _closing_note(text)
        tail = (f"<p style='margin-top:0'><i>… {more:,} more characters"
                f"{esc(' ' + note) if note and note not in shown else ''}</i></p>")
    return _section(heading, pre.format(esc(shown)), direction) + tail


def writing_words(chars: int, lines: int) -> str:
    """How much of a call's input has come: "12 lines so far", or "345 characters so far" on one line; ""
    before any (it said "34 characters so far" of a search's tags before a word of it had come)."""
    return f"{lines:,} lines so far" if lines > 1 else f"{chars:,} characters so far" if chars else ""


def _seconds(ms: int) -> str:
    return f"{ms / 1000:.1f} s" if ms >= 100 else f"{ms} ms"


class _Details(QTextBrowser):
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
        self.setFocusPolicy(Qt.FocusPolicy.ClickFocus)  # selectable by mouse; Tab goes from card to card
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
        self.document().documentLayout().documentSizeChanged.connect(self._fit)
        self.setFixedHeight(1)

    def _open(self, url: QUrl) -> None:
        card = self.parentWidget()
        if isinstance(card, ToolCard):
            card.open_source_at(url.toString())

    def _fit(self, size: QSizeF) -> None:
        height = int(size.height() + 0.999) + 2
        if height != self.height():
            self.setFixedHeight(height)

    def sizeHint(self) -> QSize:  # noqa: N802
        return QSize(200, self.height())

    def minimumSizeHint(self) -> QSize:  # noqa: N802
        return QSize(50, self.height())

    def loadResource(self, kind: int, url: QUrl):  # noqa: N802
        # A result is outside text: never let it make the card read local files or images.
        return None


@expander  # a screen reader hears a button that opens and closes, not a frame
class ToolCard(QFrame):
    """A card whose badge turns from running to done, error or skipped; click or Space shows details."""

    statusChanged = Signal(str)
    expandedChanged = Signal(bool)
    openFailed = Signal(str)  # why a source linked in the details could not be opened, in words

    def __init__(self, call_id: str, tool: str, query: str, param: str = "query",
                 parent: QWidget | None = None, status: str = "running") -> None:
        super().__init__(parent)
        self.call_id = call_id
        self._tool = tool
        self._query = query
        self._param = param
        self._phase = status  # running, done, error, skipped; or "writing": the model is writing the call
        self._source = ""
        self._error: str | None = None
        self._result = ""
        self._result_bytes = 0
        self._elapsed_ms = 0
        self._printed_so_far: list[str] = []  # what the running tool printed (tool_output): kept if stopped
        self._waiting = False
        self._expanded = False
        self._toggled = False  # just opened or closed: its description says so first (see set_expanded)
        self._details: _Details | None = None  # built on first expand: 1,000 cards should stay light
        # Calls skipped right after this one for the same reason: this card stands for them (see fold).
        self._folded: list[ToolCard] = []
        self.folded_into: ToolCard | None = None

        self._note_text = ""
        self._meta_text = ""
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        # The header (icon, name, preview, time, badge, note) is painted, not built from child labels:
        # a long chat holds a thousand cards, and each child widget costs memory (see paintEvent).
        # The system's fixed font comes at its own size (often 9 pt): sized like the card's text instead,
        # so the query does not shrink beside its name when the desktop's text is made larger.
        self._mono = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        if self.font().pointSizeF() > 0:
            self._mono.setPointSizeF(self.font().pointSizeF() * 0.95)
        self._bold = QFont(self.font())
        self._bold.setBold(True)
        self._small = QFont(self.font())
        self._small.setPointSizeF(max(7.0, self.font().pointSizeF() * 0.9))
        self._row_height = max(_ROW, QFontMetrics(self._bold).height() + 4)
        self._layout = QVBoxLayout(self)
        self._layout.setSpacing(0)
        self._relayout()
        shared_spinner().add(self)
        self._describe()

    def _header_height(self) -> int:
        lines = len(self._note_lines()) if self._note_shown() else 0
        return _PAD + self._row() + (lines * self.fontMetrics().height() + 2 if lines else 0) + _PAD

    def _note_lines(self, width: int | None = None) -> list[str]:
        """The closed card's note in at most two lines of the card's width (see _two_lines): cut to one line,
        the cut fell on what the note is for ("Turn on “Allow Go code (…", "in Settings → Lim…")."""
        return _two_lines(self.fontMetrics(), self._note_text, max(40, (width or self.width()) - 24))

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        if self._note_shown() and self.contentsMargins().top() != self._header_height():
            self._relayout()  # the note takes one line more, or one less, at the new width

    def _note_shown(self) -> bool:
        """The reason is under the header while the card is closed; open, the details say it in full under
        "Error" or "Reason", and a second, cut-off copy above them was only noise."""
        return bool(self._note_text) and not self._expanded

    def _row(self) -> int:
        """The header row's height: 22 pixels, or more with a large font (its letters were cut off)."""
        return self._row_height

    def _relayout(self) -> None:
        self._layout.setContentsMargins(12, self._header_height(), 12, 8 if self._expanded else 0)
        self.setMinimumHeight(self._header_height())
        self.updateGeometry()

    def sizeHint(self) -> QSize:  # noqa: N802
        hint = super().sizeHint()
        return QSize(max(hint.width(), 300), max(hint.height(), self._header_height()))

    def minimumSizeHint(self) -> QSize:  # noqa: N802
        return QSize(200, self._header_height())

    # DESIGN's properties --------------------------------------------------------------------------
    def _get_tool_name(self) -> str:
        return self._tool

    def _get_query_preview(self) -> str:
        return _input_line(self._query)

    def _get_status(self) -> str:
        return "running" if self._phase == "writing" else self._phase  # DESIGN's four: a call written runs

    def _get_phase(self) -> str:
        return self._phase

    tool_name = Property(str, _get_tool_name, constant=True)
    query_preview = Property(str, _get_query_preview, notify=statusChanged)  # "" while the call is written
    status = Property(str, _get_status, notify=statusChanged)  # running, done, error or skipped (DESIGN)
    # The finer state the card shows: ``status``'s, or "writing" while the model is still writing the call
    # (dashed, "being written"; its status is "running").
    phase = Property(str, _get_phase, notify=statusChanged)

    @property
    def error(self) -> str | None:
        return self._error

    @property
    def query(self) -> str:
        return self._query

    @property
    def source(self) -> str:
        """Where the result came from: for a reading tool, one location per line."""
        return self._source

    @property
    def result(self) -> str:
        return self._result

    @property
    def note(self) -> str:
        """The one-line reason under the header of a failed or skipped card ("" if none; shown while the
        card is closed)."""
        return self._note_text

    @property
    def stopped(self) -> bool:
        """True when the answer was stopped while this tool ran (see ``mark_stopped``)."""
        return self._phase == "skipped" and self._error is not None and self._error_words() == STOPPED

    @property
    def denied(self) -> bool:
        """True when the user pressed Deny in the confirm dialog: the tool never ran."""
        return self._error == DENIED

    @property
    def off(self) -> bool:
        """True for a call to a tool switched off in Settings: it never ran. Its status is error, as the engine
        says; the card says "off" and which setting turns it on."""
        return off_note(self._error, self._tool) is not None

    @property
    def foldable(self) -> bool:
        """True for a call the engine did not run (a limit, a repeat): a run of them with one reason is
        shown as one card. Not a stopped, denied or switched-off one: those are said one by one."""
        return (self._phase == "skipped" and bool(self._error) and not self.stopped and not self.denied
                and not self.off)

    def folded(self) -> list["ToolCard"]:
        """The cards this one stands for besides itself (hidden), in order."""
        return list(self._folded)

    def fold(self, card: "ToolCard") -> None:
        """Stand for ``card`` too: a call skipped right after this one for the same reason. It is hidden;
        this card counts it, and shows its input when opened."""
        self._folded.append(card)
        card.folded_into = self
        card.hide()
        self._note_text = _group_note(len(self._folded) + 1, self._error or "", self._tool)
        self._meta_text = f"{len(self._folded) + 1} skipped"
        self._relayout()
        self.update()
        self._describe()
        if self._details is not None:
            self._details.setHtml(self._details_html())

    def _calls(self) -> list["ToolCard"]:
        return [self, *self._folded]

    def _names(self) -> str:
        """The tool's title; the titles of all, for a card standing for calls of several tools."""
        return ", ".join(dict.fromkeys(tool_title(card._tool) for card in self._calls()))

    def _icon_tool(self) -> str:
        """Whose icon the header shows: the tool's, or the generic tool's for a card standing for calls of
        several ("Calculator, Web page" showed the calculator's alone, as if both calls were calculations)."""
        tools = {card._tool for card in self._calls()}
        return self._tool if len(tools) == 1 else GENERIC_TOOL

    def _own_names(self) -> str:
        """The names the model called the tools by ("rag_knowledge"), where they differ from the titles."""
        names = [tool for tool in dict.fromkeys(card._tool for card in self._calls()) if tool_title(tool) != tool]
        return ", ".join(names)

    @property
    def title(self) -> str:
        """What the card's header says the tool is ("Calculator"; "Calculator, Web search" for a group)."""
        return self._names()

    def _inputs_heading(self) -> str:
        """The heading over the inputs of a grouped card: "Expressions", or "Calls" for several tools."""
        if len({(card._tool, card._param) for card in self._calls()}) > 1:
            return "Calls"
        heading = self._input_heading()
        return _PLURAL_HEADINGS.get(heading, heading)

    def _inputs(self) -> list[str]:
        several = self._inputs_heading() == "Calls"
        return [f"{tool_title(card._tool)}: {card._query}" if several else card._query for card in self._calls()]

    @property
    def meta(self) -> str:
        """The word or time right of the header: how long it took, "skipped", "stopped" or "denied"."""
        return self._meta_text

    @property
    def expanded(self) -> bool:
        return self._expanded

    @property
    def waiting(self) -> bool:
        """True while the user is asked whether this call may run (see ``set_waiting``)."""
        return self._waiting

    def set_waiting(self, on: bool) -> None:
        """Say on the running card that it waits for the user's answer (the shell's Run / Deny question),
        not for the command: the spinner alone read as if the command were running."""
        on = bool(on) and self._phase == "running"
        if on == self._waiting:
            return
        self._waiting = on
        self._meta_text = WAITING if on else ""
        self._note_text = _WAITING_NOTE if on else ""
        self._relayout()
        self.update()
        self._describe()

    def set_writing(self, param: str, chars: int, lines: int) -> None:
        """How much of the call the model has written so far (the card of a call being written)."""
        self._param = param or self._param
        self._meta_text = writing_words(chars, lines)
        self.update()
        self._describe()

    def begin_run(self, query: str, param: str) -> None:
        """The call being written is whole and runs: the card becomes its running card."""
        self._query, self._param, self._phase, self._meta_text = query, param, "running", ""
        self._relayout()
        self.update()
        self._describe()
        self.statusChanged.emit(self.status)

    def _error_words(self) -> str:
        """The error without what came with it: the output a failed Go program printed (shown apart, as
        lines), and for url_fetch the address the header shows already (the reason came after it, cut off)."""
        error = self._error or ""
        if self._tool in KEEPS_OUTPUT:
            return split_output(error)[0]
        own = f": {self._query.strip()}"
        if self._tool == "url_fetch" and self._query.strip() and error.endswith(own) and len(error) > len(own):
            return error[: -len(own)].rstrip(" .") + "."
        return error

    def _printed(self) -> str:
        """The output a Go program or a command printed before its error or a Stop ("" for anything else)."""
        return split_output(self._error or "")[1] if self._tool in KEEPS_OUTPUT else ""

    def _value(self) -> str:
        """A calculation's result after its expression (" = 33"), when short: shown on the closed card."""
        if self._tool != "calculate" or self._phase != "done":
            return ""
        expr = self._query.strip()
        if not self._result.startswith(expr + " "):
            return ""
        value = self._result[len(expr):]
        if len(value) > _VALUE_SHOWN:  # "≈ 4.02387260077094e+2567", without "(a whole number of 2,568 digits)"
            value = value.split(" (", 1)[0]
        return value if len(value) <= _VALUE_SHOWN and "\n" not in value else ""

    def finish(self, status: str, *, source: str = "", error: str | None = None, result: str = "",
               result_bytes: int = 0, elapsed_ms: int = 0, ran: bool = True) -> None:
        """Apply the block's one result; ``status`` may be the engine's (ok/error/skipped) or the card's.
        A denied command comes as an error and shows as skipped: the user's choice, nothing failed. A call to a
        tool that is off is an error, as the engine's tool_result says (✗), its words saying "off" and how to
        turn it on (a chat stored when it showed as skipped reads the same). ``ran`` is False for a call the
        engine refused before running it (an unknown or disabled tool): no time shown."""
        off = off_note(error, self._tool) is not None
        was_running = self._phase == "running"
        self._phase = "skipped" if error == DENIED else "error" if off else _FROM_ENGINE.get(status, "error")
        self._source, self._error, self._result = source, error, result
        self._result_bytes, self._elapsed_ms = result_bytes, elapsed_ms
        self._waiting = False
        self._note_text = ""
        if self._phase != "running":
            shared_spinner().discard(self)
        if off:  # said beside the ✗, as "denied" and "stopped" are: it was no failure of the tool
            self._meta_text = "off"
        elif self._phase == "skipped":
            said = split_output(error or "")[0] if self._tool in KEEPS_OUTPUT else error or ""  # with its output
            self._meta_text = {STOPPED: "stopped", DENIED: "denied"}.get(said, "skipped")
        elif self._phase != "running":  # done or failed: how long it took, either way
            # no time beside a call refused before it ran (an unknown tool): "<1 ms" said it had run
            self._meta_text = "" if not ran else _seconds(elapsed_ms) if elapsed_ms else "<1 ms"
        if error and self._phase in ("error", "skipped"):
            self._note_text = _one_line(self._reason() if self.denied or off
                                        else for_a_person(self._error_words(), self._tool))
        elif self._phase == "done":
            self._note_text = _done_note(self._tool, self._query, result)
        self._relayout()
        self.update()
        self._describe()
        if self._details is not None:
            self._details.setHtml(self._details_html())
        if was_running and self._phase != "running" and self._live():
            # ✓ or ✗ came while the focus was elsewhere (the message box, the answer): said, as it is seen
            announce(self, self.accessibleName() + (f". {self._note_text}" if self._note_text else ""))
        self.statusChanged.emit(self.status)

    def _live(self) -> bool:
        """True while the answer holding this card streams (not rebuilt from the history)."""
        widget = self.parentWidget()
        while widget is not None and not hasattr(widget, "streaming"):
            widget = widget.parentWidget()
        return bool(widget is not None and widget.streaming)

    def add_output(self, text: str) -> None:
        """More of what the running tool printed (a Go program's or a command's): kept should the answer be stopped."""
        self._printed_so_far.append(text)

    def printed_so_far(self) -> str:
        return "".join(self._printed_so_far)

    def mark_stopped(self) -> None:
        """The answer was stopped while this tool ran: not a failure of the tool, so the neutral state. What it
        printed so far is kept, as a program stopped at the time limit keeps it."""
        if self._phase == "running":
            printed = self.printed_so_far() if self._tool in KEEPS_OUTPUT else ""
            self.finish("skipped", error=STOPPED + (f"{OUTPUT_BEFORE}{printed}" if printed else ""))

    def _reason_heading(self) -> str:
        """Over the reason in the open card: "Error" for a failure, "Reason" for a call not run by choice or
        setting (skipped, denied, a tool that is off)."""
        return "Reason" if self._phase == "skipped" or self.off else "Error"

    def _reason(self) -> str:
        """The error or reason as the open card shows it: whole, as a sentence."""
        if self._folded:
            return self._note_text
        if self.denied:
            return DENIED_NOTE
        return off_note(self._error, self._tool) or (sentence(window_words(self._error_words()), self._tool)
                                                      + limit_setting(self._error))

    def _describe(self) -> None:
        words = "denied" if self.denied else "off" if self.off else STATUS_WORDS.get(self._phase, self._phase)
        if self._folded:
            self.setAccessibleName(f"Tools: {self._names()}, {words}, {len(self._folded) + 1} calls")
            detail = f"{self._inputs_heading()}: {'; '.join(_input_line(q) for q in self._inputs())[:400]}"
        elif self._phase == "writing":
            self.setAccessibleName(f"Tool: {self._names()}, {words}")
            detail = f"{self._writing_line()} {self._meta_text}".strip()
        else:
            self.setAccessibleName(f"Tool: {self._names()}, {words}")
            detail = f"{self._input_heading()}: {_input_line(self._query)[:200]}"
        if self._error:
            # Only the reason: what the model was told after it ("Write for example: <tool name=…>") was read
            # aloud, markup and all.
            reason = self._reason() if self.denied or self.off else split_advice(self._reason())[0]
            detail += f". {self._reason_heading()}: {reason}"
        elif self._source:  # several, one a line: said as a list, not with a line break in the middle
            many = len(split_sources(self._source)) > 1
            detail += f". Source{'s' if many else ''}: {'; '.join(split_sources(self._source))}"
        if self._value():
            detail += f". Result: {self._value().strip().removeprefix('= ')}"  # "Result: = 42" was read
        toggled = ("Expanded. " if self._expanded else "Collapsed. ") if self._toggled else ""
        self.setAccessibleDescription(f"{toggled}{words}. {detail.rstrip('.')}. Press Space to "
                                      f"{'hide' if self._expanded else 'show'} details.")
        tip = f"{self._names()}: {words}"
        if self._own_names():  # the name the model wrote in its tool block, as in the answer's raw text
            tip += f"\nTool name: {self._own_names()}"
        self.setToolTip(plain_tip(f"{tip}\n{self._note_text}" if self._note_text else tip))

    # expanding ------------------------------------------------------------------------------------
    def set_expanded(self, on: bool) -> None:
        if on == self._expanded:
            return
        self._expanded = on
        if on and self._details is None:
            self._details = _Details(self)
            self._details.setHtml(self._details_html())
            self._layout.addWidget(self._details)
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
            parts.append(f"Result:\n{self._result}")
        elif self._phase == "running":
            parts.append("Running…")
        elif self._phase == "writing":
            parts = [f"{self._writing_line()} {self._meta_text}".strip()]
        return "\n\n".join(parts)

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
            out.append(_lines("Result", self._result, end_too=self._tool == "shell",
                              mono=self._tool in _PROGRAM_TOOLS))
        elif self._phase == "running":
            out.append("<p><i>Running…</i></p>")
        elif self._phase == "writing":
            out = [f"<p><i>{esc(self._writing_line())} {esc(self._meta_text)}</i></p>"]
        return "".join(out)

    def paintEvent(self, event) -> None:  # noqa: N802
        c = colors()
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        # Focus wins over the red of a failed card: the ✗ badge and the red note still say it failed.
        border = c.accent if self.hasFocus() else c.error if self._phase == "error" else c.line
        pen = QPen(border, 2 if self.hasFocus() else 1)
        if self._phase in ("skipped", "writing") and not self.hasFocus():
            pen.setStyle(Qt.PenStyle.DashLine)
        painter.setPen(pen)
        painter.setBrush(c.card)
        painter.drawRoundedRect(QRectF(self.rect()).adjusted(1, 1, -1, -1), 8, 8)
        self._paint_header(painter, c)
        painter.end()

    def _paint_header(self, painter: QPainter, c) -> None:
        width = self.width()
        top, x, row = _PAD, 12, self._row()
        mid = top + row / 2
        painter.drawPixmap(x, int(mid - 8), tool_pixmap(self._icon_tool(), c.text, 16, self.devicePixelRatioF()))
        x += 16 + 8
        painter.setFont(self._bold)
        painter.setPen(c.text)
        fm = painter.fontMetrics()
        name = self._names()
        name_w, most = fm.horizontalAdvance(name), max(40, (width - 24) // 3)  # several tools' names: cut
        if name_w > most:
            name = fm.elidedText(name, Qt.TextElideMode.ElideRight, most)
            name_w = fm.horizontalAdvance(name)
        painter.drawText(QRectF(x, top, name_w + 2, row), Qt.AlignmentFlag.AlignVCenter, name)
        x += name_w + 10
        right = width - 12 - _BADGE
        paint_badge(painter, QRectF(right, mid - _BADGE / 2, _BADGE, _BADGE), self._phase, spinner_angle())
        right -= 8
        if self._meta_text:
            painter.setFont(self._small)
            painter.setPen(c.muted)
            meta_w = painter.fontMetrics().horizontalAdvance(self._meta_text)
            painter.drawText(QRectF(right - meta_w, top, meta_w, row),
                             Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignRight, self._meta_text)
            right -= meta_w + 10
        if right - x > 20:
            painter.setFont(self._mono)
            painter.setPen(c.muted)
            shown = " · ".join(_input_line(card._query) for card in self._calls())  # every input, while it fits
            if self._phase == "writing":
                painter.setFont(self.font())
                shown = self._writing_line()
            value = _one_line(self._value())
            room = int(right - x) - (painter.fontMetrics().horizontalAdvance(" " + value) if value else 0)
            if value and room > 40:  # the expression gives way to its value, which is what was asked
                preview = painter.fontMetrics().elidedText(shown, Qt.TextElideMode.ElideRight, room) + " " + value
            else:
                preview = painter.fontMetrics().elidedText(shown, Qt.TextElideMode.ElideRight, int(right - x))
            # A query in Arabic or Hebrew keeps its word order; it stays where the layout puts it.
            align = set_text_direction(painter, preview, _LEFT_MIDDLE, self.layoutDirection())
            painter.drawText(QRectF(x, top, right - x, row), align, preview)
        if self._note_shown():
            painter.setFont(self.font())
            painter.setPen(c.errortext if self._phase == "error" else c.muted)
            fm = painter.fontMetrics()
            # The app's own sentence, in the window's direction (see _details_html), not its first letter's.
            painter.setLayoutDirection(self.layoutDirection())
            for i, line in enumerate(self._note_lines(width)):
                painter.drawText(QRectF(12, top + row + 1 + i * fm.height(), width - 24, fm.height()), _LEFT_MIDDLE,
                                 line)

    def hideEvent(self, event) -> None:  # noqa: N802
        shared_spinner().discard(self)
        super().hideEvent(event)

    def showEvent(self, event) -> None:  # noqa: N802
        if self._phase in ("running", "writing"):
            shared_spinner().add(self)
        super().showEvent(event)

    def focusInEvent(self, event) -> None:  # noqa: N802
        if self._toggled:  # before the focus is told: its states say expanded or collapsed on their own
            self._toggled = False
            self._describe()
        super().focusInEvent(event)
        self.update()

    def focusOutEvent(self, event) -> None:  # noqa: N802
        super().focusOutEvent(event)
        self.update()

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        if event.button() == Qt.MouseButton.LeftButton and (
                self._details is None or not self._details.geometry().contains(event.position().toPoint())):
            self.set_expanded(not self._expanded)
            event.accept()
            return
        super().mousePressEvent(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802
        if event.key() in (Qt.Key.Key_Space, Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.set_expanded(not self._expanded)
            event.accept()
            return
        super().keyPressEvent(event)


class WritingSlot:
    """The card of the call the model is writing (engine.events.ToolWriting), last in an answer's column
    until the block is whole: then it becomes that call's card (``take``), or it goes (``drop``) when the
    block turns out no call, its text coming instead, or when the answer ends inside it."""

    def __init__(self, body: QVBoxLayout, parent: QWidget) -> None:
        self._body, self._parent = body, parent
        self.card: ToolCard | None = None
        self.raw = ""  # the block's text as the card last counted it: kept as text when the answer is stopped

    def show(self, ev) -> bool:
        """Show or update the card ``ev`` says; True when a card was made."""
        if ev.dropped or (self.card is not None and self.card.call_id != ev.id):
            self.drop()
            if ev.dropped:
                return False
        made = self.card is None
        if made:
            self.card = ToolCard(ev.id, ev.tool, "", ev.param, self._parent, status="writing")
            self._body.addWidget(self.card)
        self.card.set_writing(ev.param, ev.chars, ev.lines)
        self.raw = ev.raw
        return made

    def index(self) -> int:
        """Where text shown now goes in the column: before the card (-1, the end, when there is none)."""
        return self._body.indexOf(self.card) if self.card is not None else -1

    def take(self, call_id: str, query: str, param: str) -> ToolCard | None:
        """The card, now running call ``call_id`` (None if that call was not the one being written)."""
        card, self.card, self.raw = self.card, None, ""
        if card is not None and card.call_id != call_id:
            self.card = card
            self.drop()
            return None
        if card is not None:
            card.begin_run(query, param)
        return card

    def drop(self) -> bool:
        """Take the card away; True if there was one."""
        card, self.card, self.raw = self.card, None, ""
        if card is None:
            return False
        self._body.removeWidget(card)
        card.hide()
        card.deleteLater()
        return True
