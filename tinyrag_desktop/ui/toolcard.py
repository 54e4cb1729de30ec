"""ToolCard: one tool block of an answer, with its icon, name, query preview and a live status badge."""

from __future__ import annotations

import time

from PySide6.QtCore import Property, QPoint, Qt, QTimer, Signal
from PySide6.QtGui import QContextMenuEvent, QFont, QFontDatabase, QFontMetrics, QKeyEvent, QMouseEvent
from PySide6.QtWidgets import QFrame, QSizePolicy, QVBoxLayout, QWidget

from ..tools.console_text import terminal_text
from ..tools.nanogo_tool import KEEPS_OUTPUT, OUTPUT_BEFORE, OUTPUT_CUT, split_output
from ..tool_words import (DENIED_NOTE, LIMIT, NOTHING_FOUND, OUTPUT_CUT_WORD, for_a_person, found_nothing,
                          limit_setting, off_note, output_was_cut, sentence, split_advice, tool_title, window_words)
from ..tools.shell import DENIED, status_note
from ..written_calls import STOPPED_WRITING
from .access import announce, expander
from .icons import GENERIC_TOOL, STATUS_WORDS, shared_spinner
from .plain_text import plain_tip
from .sources import split_sources
from .toolcard_details import DetailsMixin, ToolDetails
from .toolcard_header import HEADER_ROW, HeaderMixin, input_line, one_line, running_words
from .toolcard_menu import card_menu

# The engine says ok/error/skipped; the card (and DESIGN's `status` property) says done/error/skipped.
_FROM_ENGINE = {"ok": "done", "error": "error", "skipped": "skipped", "running": "running", "done": "done"}
STOPPED = "Stopped before the tool finished."  # the reason on a card whose answer was stopped mid-run
PROGRESS_MS = 250  # the least time between two showings of what a running tool printed (see add_output)


def _done_note(tool: str, query: str, result: str) -> str:
    """What the closed card of a call that ran says under its tick ("" mostly): a search that found nothing
    (the tick alone read as if the knowledge base had answered), a command that ended with an error status
    or was stopped (it read as a plain success), Go output cut at its limit."""
    if tool == "shell":
        return status_note(query, result)
    if tool == "nanogo" and result.endswith(OUTPUT_CUT):
        return OUTPUT_CUT.strip("[]")
    return found_nothing(tool, result)


# A calculation's value beside its expression on the closed card ("3 * (17 + 5) / 2 = 33"), when short.
_VALUE_SHOWN = 40
# While the user is asked whether a command may run (the shell's Run / Deny), the card says so.
WAITING = "waiting for you"
_WAITING_NOTE = "Waiting for you to allow or deny this command."


# The engine's reasons for not running a call that may come many times in a row: what the grouped card says.
_DUPLICATE = "duplicate call: "


def _group_note(count: int, reason: str, tool: str) -> str:
    """What a card standing for ``count`` calls skipped for one ``reason`` says: "5 more calls skipped: at
    most 3 tool calls per round. To allow more, raise …" (more: calls beyond the ones that ran)."""
    if found := LIMIT.match(reason):
        more = "" if found.group(1) == "no tool calls" else " more"  # at a limit of 0, none ran
        return f"{count}{more} calls skipped: {reason.split(': ', 1)[1].rstrip('.')}{limit_setting(reason)}"
    if reason.startswith(_DUPLICATE):
        return f"{count} calls skipped: {window_words(reason[len(_DUPLICATE):]).rstrip('.')}."
    return f"{count} calls skipped. {for_a_person(reason, tool).rstrip('.')}."


def writing_words(chars: int, lines: int) -> str:
    """How much of a call's input has come: "12 lines so far", or "345 characters so far" on one line; ""
    before any (it said "34 characters so far" of a search's tags before a word of it had come)."""
    return f"{lines:,} lines so far" if lines > 1 else f"{chars:,} characters so far" if chars else ""


def _seconds(ms: int) -> str:
    return f"{ms / 1000:.1f} s" if ms >= 100 else f"{ms} ms"


@expander  # a screen reader hears a button that opens and closes, not a frame
class ToolCard(HeaderMixin, DetailsMixin, QFrame):
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
        self._cleaned_so_far = (0, "")  # printed_so_far's text, and of how many of those pieces
        self._progress_due = False  # its lines are shown on the card soon (see add_output)
        self._waiting = False
        self._expanded = False
        self._selected = False  # in a selection across the answer's text (see set_selected)
        self._toggled = False  # just opened or closed: its description says so first (see set_expanded)
        self._details: ToolDetails | None = None  # built on first expand: 1,000 cards should stay light
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
        self._row_height = max(HEADER_ROW, QFontMetrics(self._bold).height() + 4)
        self._layout = QVBoxLayout(self)
        self._layout.setSpacing(0)
        self._relayout()
        shared_spinner().add(self)
        if status == "running":
            self._start_clock()
        self._describe()


    # DESIGN's properties --------------------------------------------------------------------------
    def _get_tool_name(self) -> str:
        return self._tool

    def _get_query_preview(self) -> str:
        return input_line(self._query)

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
    def nothing_found(self) -> bool:
        """True for a knowledge base search that ran and found nothing (an empty knowledge base, no passage
        matched). The search worked, so its badge is the ✓ of done (spec: ✓ or ✗); the word beside it, "nothing
        found", and the note under it say what it found, so the tick does not read as an answer."""
        return self._phase == "done" and bool(found_nothing(self._tool, self._result))

    @property
    def output_cut(self) -> bool:
        """True for a run that finished but was stopped at its output limit (see tool_words.output_was_cut):
        its ✓ has "output cut" beside it, in the warning colour, and the note under it says what was kept."""
        return self._phase == "done" and output_was_cut(self._tool, self._query, self._result)

    def _tick_word(self) -> str:
        """The word beside the ✓ of a search that found nothing or a run whose output was cut ("" for others)."""
        return NOTHING_FOUND if self.nothing_found else OUTPUT_CUT_WORD if self.output_cut else ""

    @property
    def badge(self) -> str:
        """The state the header's badge shows: ✓ done, ✗ error (a denied command too, as the engine says it),
        – skipped, or the spinner (spec: "The badge updates to ✓ (done) or ✗ (error) via the tool_result")."""
        return self._phase

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
        self.refresh_details()

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
        if on:
            self._meta_text = WAITING
        else:  # allowed: it runs from now
            self._start_clock()
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
        self._query, self._param, self._phase = query, param, "running"
        self._start_clock()
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
        return terminal_text(split_output(self._error or "")[1]) if self._tool in KEEPS_OUTPUT else ""

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
        A denied command, and a call to a tool that is off, are errors, as the engine's tool_result says (✗), their
        words saying "denied" or "off" (and how to turn it on) rather than a failure's (a chat stored when they
        showed as skipped reads the same). ``ran`` is False for a call the engine refused before running it (an
        unknown or disabled tool): no time shown."""
        off = off_note(error, self._tool) is not None
        was_running = self._phase == "running"
        self._phase = "error" if off or error == DENIED else _FROM_ENGINE.get(status, "error")
        self._source, self._error, self._result = source, error, result
        self._result_bytes, self._elapsed_ms = result_bytes, elapsed_ms
        self._waiting = False
        self._note_text = ""
        if self._phase != "running":
            shared_spinner().discard(self)
            self._stop_clock()
        if off or self.denied:  # said beside the ✗, as "stopped" is beside the –: it was no failure of the tool
            self._meta_text = "off" if off else "denied"
        elif self._phase == "skipped":
            said = split_output(error or "")[0] if self._tool in KEEPS_OUTPUT else error or ""  # with its output
            self._meta_text = {STOPPED: "stopped", STOPPED_WRITING: "stopped"}.get(said, "skipped")
        elif self._phase != "running":  # done or failed: how long it took, either way
            # no time beside a call refused before it ran (an unknown tool): "<1 ms" said it had run
            took = "" if not ran else _seconds(elapsed_ms) if elapsed_ms else "<1 ms"
            # beside its badge, as "stopped" or "off" is, and its time after it as every finished card's (a cut
            # Go run had none): the note under it says why
            self._meta_text = " · ".join(filter(None, (self._tick_word(), took)))
        if error and self._phase in ("error", "skipped"):
            self._note_text = one_line(self._reason() if self.denied or off
                                        else for_a_person(self._error_words(), self._tool))
        elif self._phase == "done":
            self._note_text = _done_note(self._tool, self._query, result)
        self._relayout()
        self.update()
        self._describe()
        self.refresh_details()
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
        """More of what the running tool printed (a Go program's or a command's): kept should the answer be
        stopped, and shown on the card, closed or open, at most every PROGRESS_MS (a program printing a line a
        millisecond would otherwise repaint it, and lay its details out, a thousand times a second)."""
        self._printed_so_far.append(text)
        if self._phase == "running" and not self._progress_due:
            self._progress_due = True
            QTimer.singleShot(PROGRESS_MS, self, self._show_progress)

    def _show_progress(self) -> None:
        """Say on the running card how many lines it printed and the last of them: its spinner alone read as
        if nothing came, while a program had printed twenty lines."""
        self._progress_due = False
        if self._phase != "running":
            return
        lines = self.printed_so_far().splitlines()
        self._meta_text = (f"{len(lines):,} line{'' if len(lines) == 1 else 's'} so far" if lines
                           else running_words(time.monotonic() - self._since))
        last = next((one_line(line) for line in reversed(lines) if line.strip()), "")
        grown = bool(last) != bool(self._note_text)
        self._note_text = last
        if grown:  # the note's line comes once; after that only its words change
            self._relayout()
        self.update()
        self._describe()
        if self._expanded:  # the open card showed "Running…" until the program ended, however much it printed
            self.refresh_details()

    def printed_so_far(self) -> str:
        """What the program printed until now, as a terminal shows it (terminal_text), cleaned once for each
        piece that came: a progress tick and the open card's details ask for it several times."""
        if self._cleaned_so_far[0] != len(self._printed_so_far):
            self._cleaned_so_far = (len(self._printed_so_far), terminal_text("".join(self._printed_so_far)))
        return self._cleaned_so_far[1]

    def mark_stopped(self) -> None:
        """The answer was stopped while this tool ran: not a failure of the tool, so the neutral state. What it
        printed so far is kept, as a program stopped at the time limit keeps it."""
        if self._phase == "running":
            printed = self.printed_so_far() if self._tool in KEEPS_OUTPUT else ""
            self.finish("skipped", error=STOPPED + (f"{OUTPUT_BEFORE}{printed}" if printed else ""))

    def _reason_heading(self) -> str:
        """Over the reason in the open card: "Error" for a failure, "Reason" for a call not run by choice or
        setting (skipped, denied, a tool that is off)."""
        return "Reason" if self._phase == "skipped" or self.off or self.denied else "Error"

    def _reason(self) -> str:
        """The error or reason as the open card shows it: whole, as a sentence."""
        if self._folded:
            return self._note_text
        if self.denied:
            return DENIED_NOTE
        return off_note(self._error, self._tool) or (sentence(window_words(self._error_words()), self._tool)
                                                      + limit_setting(self._error))

    def _describe(self) -> None:
        words = "denied" if self.denied else "off" if self.off else STATUS_WORDS.get(self.badge, self._phase)
        if self._tick_word():  # the tick's word, and the one beside it
            words += f", {self._tick_word()}"
        if self._folded:
            self.setAccessibleName(f"Tools: {self._names()}, {words}, {len(self._folded) + 1} calls")
            detail = f"{self._inputs_heading()}: {'; '.join(input_line(q) for q in self._inputs())[:400]}"
        elif self._phase == "writing":
            self.setAccessibleName(f"Tool: {self._names()}, {words}")
            detail = f"{self._writing_line()} {self._meta_text}".strip()
        else:
            self.setAccessibleName(f"Tool: {self._names()}, {words}")
            detail = f"{self._input_heading()}: {input_line(self._query)[:200]}"
        if self._phase == "running" and self._printed_so_far and self._note_text:  # its output so far
            detail += f". Printed {self._meta_text}, the last line: {self._note_text[:200]}"
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
        elif self._brief_result() and not self._folded:
            detail += f". {self._brief_result().rstrip('.')}"
        toggled = ("Expanded. " if self._expanded else "Collapsed. ") if self._toggled else ""
        keys = "Press Space to hide details, Tab to read them." if self._expanded else "Press Space to show details."
        self.setAccessibleDescription(f"{toggled}{words}. {detail.rstrip('.')}. {keys}")
        tip = f"{self._names()}: {words}"
        if self._own_names():  # the name the model wrote in its tool block, as in the answer's raw text
            tip += f"\nTool name: {self._own_names()}"
        self.setToolTip(plain_tip(f"{tip}\n{self._note_text}" if self._note_text else tip))


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

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:  # noqa: N802
        """Its menu (see toolcard_menu): from the keyboard, under the header's title, where the focus is seen."""
        at = event.globalPos()
        if event.reason() == QContextMenuEvent.Reason.Keyboard:
            at = self.mapToGlobal(QPoint(12, self._row() + 7))
        menu = card_menu(self)
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        menu.popup(at)
        event.accept()

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
