"""How `ask` prints its events: the answer and a status line per tool call for a person, or JSON lines."""

from __future__ import annotations

import re
import time
import unicodedata
from typing import Any, Callable, TextIO

from .cliterm import BIDI_CONTROLS
from .cliterm import columns as _columns
from .cliterm import isatty as _isatty
from .cliterm import json_line
from .cliterm import same_file as _same_file
from .engine.prompts import closing_note
from .source_list import SourceEntry, cited_as, numbered_from_one
from .tools.registry import SOURCE_TOOLS

_ICONS = {"ok": "✓", "error": "✗", "skipped": "⤼"}
_HALF = re.compile("[\ud800-\udfff]")  # half a character (a lone surrogate), in a JSON line only in a string
_HOLD = None  # in the held text: a tool block was taken out here
# After a tool block, text that starts so needs no space before it ("is <block>." reads "is.", not "is .").
_CLOSING = tuple(".,;:!?)]\n")
_VALUE_CHARS = 80  # the most of a result a ✓ line shows when it goes to no terminal
_VALUE_CELLS = 12  # on a narrow terminal: the least of it kept before the call's input is cut
_QUERY_CHARS, _QUERY_CELLS = 60, 6  # the most of a call's input a status line shows; the least, when narrow
# Seconds with no word from the model (a server that loads it first, one that took the request and hangs)
# before a terminal is told that the model is being waited for: until then, nothing at all was on it.
WAIT_NOTE_AFTER = 5.0


# The kind of the `error` event `ask --jsonl` ends with when stopped (Ctrl+C, SIGINT): no `done` follows.
INTERRUPTED = "interrupted"
STOPPED = "Stopped."  # what `ask` says on standard error when stopped, and that event's message


class JsonPrinter:
    def __init__(self, out: TextIO) -> None:
        self.out = out

    def show(self, event: Any) -> None:
        if getattr(event, "progress", False):  # not one of DESIGN's events (tool_writing): its outcome follows
            return
        line = json_line(event.to_json(), self.out)
        # half a character (a lone surrogate) can be written in no encoding: JSON's own escape says it exactly
        self.out.write(_HALF.sub(lambda half: f"\\u{ord(half.group()):04x}", line) + "\n")
        self.out.flush()

    def interrupted(self) -> None:
        """The last line when `ask` is stopped: a consumer that only saw the lines end could not tell a stop
        from a crash. The engine was cut off where it was, so there are no counts for a `done`."""
        from .engine import EngineError

        self.show(EngineError(STOPPED, INTERRUPTED))

    def close(self) -> None:
        """Each event is written whole as it comes: nothing waits."""


class TextPrinter:
    """The answer as it streams on stdout; one short status line per tool call on stderr.

    Where both reach one place (a terminal, ``> log 2>&1``) they share its lines: a status line starts a line
    of its own, and what the model writes on while its calls run is held until their results are in (printed
    as it came, it put "⟳" and "✓" lines inside its words), then resumes at the start of a line. Anywhere, a
    block taken out of the text leaves one space, not the two around it."""

    def __init__(self, out: TextIO, err: TextIO, clock: Callable[[], float] = time.monotonic) -> None:
        self.out, self.err = out, err
        # The break before a status line is for the eye: only when both reach the same place; the answer
        # written to a file (> out 2>/dev/null) stays as the model wrote it.
        self.shared = _same_file(out, err)
        self.tty = _isatty(out)
        self.width = _columns(err) if _isatty(err) else 0  # a ✓ line's preview is cut to fit it
        self.at_line_start = True
        self.pending = ""  # the spaces the text so far ends with, written when more text follows
        self.joined = False  # a tool block was taken out just before the text that comes next
        self.resume = False  # status lines were written since the answer's last text (to the same place)
        self.gap = False  # the text resumed after them began with a line break
        self.started: set[str] = set()
        # A line while a tool block is being written, on a terminal only: a slow model took tens of seconds
        # over a Go program with nothing on the screen (logs and files stay as they were).
        self.say_writing = _isatty(err)
        self.writing: set[str] = set()  # the calls said as being written
        # On a terminal only, as the line above: a person waits in front of it and can press Ctrl+C; a log
        # or a script reading stderr gets no line that tells it which keys to press.
        self.say_waiting = _isatty(err)
        self.clock = clock
        self.waiting_since: float | None = clock()  # since when nothing came from the model (None: it writes)
        self.waiting_said = False
        self.after_tools = False  # the model is waited for to go on after its calls' results
        self.thinking = False  # it sent reasoning, which `ask` does not print
        self.running: set[str] = set()
        self.held: list[str | None] = []  # the text written while calls run, and where their blocks were
        self.answered = False  # any of the answer's text shown
        self.opening = True  # before the answer's first words: its blank lines are not printed
        self.sources: dict[str, None] = {}  # in order, each once
        self.numbers: dict[str, int] = {}  # the number the model was given for each document (see tools.rag)
        self.said: list[str] = []  # the answer's text, for the numbers it cites (see _sources)

    # -- the answer ---------------------------------------------------------------------------------

    def _write(self, text: str) -> None:
        if text:
            self.out.write(_terminal_safe(text) if self.tty else text)
            self.out.flush()
            self.at_line_start = text.endswith("\n")

    def _text(self, text: str) -> None:
        if self.held or (self.shared and self.running):
            self.held.append(text)
        else:
            self._answer(text)

    def _block(self) -> None:
        """A tool block was taken out of the text here."""
        if self.held or (self.shared and self.running):
            self.held.append(_HOLD)
        else:
            self.joined = True

    def close(self) -> None:
        """The answer stops here (Ctrl+C while a call runs): the words held back for its status line are
        the model's too, so they are printed, not dropped."""
        self._release()

    def _release(self) -> None:
        held, self.held = self.held, []
        for item in held:
            if item is _HOLD:
                self.joined = True
            else:
                self._answer(item)

    def _answer(self, text: str) -> None:
        if self.resume:  # at the start of a line, after status lines: no space, at most one blank line
            body = text.lstrip()
            self.gap = self.gap or "\n" in text[: len(text) - len(body)]
            if not body:
                return
            text, self.resume, self.gap = ("\n" if self.gap else "") + body, False, False
        elif self.joined:
            if text.startswith((" ", "\t")) and (self.pending or self.at_line_start):
                text = text.lstrip(" \t")
            elif text.startswith(_CLOSING):
                self.pending = ""
            if not text:
                return
        whole = self.pending + text
        body = whole.rstrip(" \t")
        self.pending = whole[len(body):]
        if body:
            self._write(body)
            self.joined = False

    # -- the status lines ---------------------------------------------------------------------------

    def _status(self, line: str) -> None:
        if self.shared:
            if not self.at_line_start:
                self._write("\n")
            self.pending = ""
            self.resume = True
        self.err.write(line + "\n")
        self.err.flush()

    def _result_line(self, event: Any) -> str:
        from .tool_words import DISABLED

        # Results come as calls end, not in the order they started: each line names its call's input.
        if event.status == "ok":
            value, notes = _outcome(event)
            took = f" ({event.elapsed_ms / 1000:.1f} s)" if event.elapsed_ms >= 1000 else ""
            return self._fit(f"✓ {_one_line(event.tool)}", _one_line(event.query), value, took,
                             [_one_line(n) for n in notes])
        status, detail = event.status, event.error or ""
        if status == "error" and detail.startswith(DISABLED.format(tool=event.tool)):
            status, detail = "off", detail[len(DISABLED.format(tool=event.tool)):]  # as the window says it
        icon = _ICONS.get("error" if status == "off" else status, "?")  # ✗, as the window's card and --jsonl say
        # the name as the model wrote it (an unknown tool's): "\x1b]0;…" in it set the terminal's title
        return f"{icon} {_one_line(event.tool)} “{_preview(event.query, 60)}” {status}: {_preview(detail, 160)}"

    def _fit(self, head: str, query: str, value: str, took: str, notes: list[str]) -> str:
        """``head “query” value took notes`` on one line: the value cut to the terminal's width (else to
        _VALUE_CHARS), then the query; notes that leave no room go on a line of their own below."""
        value, query = _one_line(value), _cut_cells(query, _QUERY_CHARS)
        tail = took + "".join(f" {note}" for note in notes)
        if not self.width:
            return f"{head} “{query}” {_cut_cells(value, _VALUE_CHARS)}{tail}"
        line = self._fitted(head, query, value, tail)
        if line is None and notes:
            line = self._fitted(head, query, value, took)
            if line is not None:
                line += "\n  " + " ".join(notes)
        return line or _cut_cells(f"{head} “{query}” {value}{tail}", self.width)

    def _fitted(self, head: str, query: str, value: str, tail: str) -> str | None:
        room = self.width - _cells(f"{head} “” ") - _cells(tail)
        if room < _QUERY_CELLS + 4:  # not even "→ x…" (4 cells) beside the input's first letters
            return None
        least = min(_VALUE_CELLS, _cells(value), room - _QUERY_CELLS)
        if room - _cells(query) < least:
            query = _cut_cells(query, room - least)
        return f"{head} “{query}” {_cut_value(value, room - _cells(query))}{tail}"

    # -- waiting for the model ----------------------------------------------------------------------

    def tick(self) -> float:
        """Say once, on its own line, that the model is being waited for, when nothing came from it for
        WAIT_NOTE_AFTER seconds (before its first words, or after its calls' results); the seconds until
        this is worth asking again."""
        if self.waiting_since is None or self.waiting_said or not self.say_waiting:
            return WAIT_NOTE_AFTER
        left = self.waiting_since + WAIT_NOTE_AFTER - self.clock()
        if left > 0:
            return left
        self.waiting_said = True
        if self.thinking:
            what = "the model is thinking before it answers…"
        else:
            what = f"waiting for the model to {'go on' if self.after_tools else 'start answering'}…"
        self._status(f"{what} (Ctrl+C to stop)")  # a line of its own: the words that follow start the next
        return WAIT_NOTE_AFTER

    def _wait(self) -> None:
        self.waiting_since, self.waiting_said, self.after_tools = self.clock(), False, True

    def _heard(self) -> None:
        self.waiting_since = None

    # -- the events ---------------------------------------------------------------------------------

    def show(self, event: Any) -> None:
        name = event.event
        if name == "text" and getattr(event, "aside", False):  # the engine's word on the text above: stdout
            self._release()                                     # stays the answer (as the window marks it)
            self._status(event.text.strip().strip("*"))
            return
        if name in ("tool_writing", "tool_start", "error", "done") or (name == "text" and event.text.strip()):
            self._heard()
        if name == "text":
            # the blank lines a reply starts with, or has after its reasoning's </think>, are no answer
            text = event.text.lstrip("\r\n") if self.opening else event.text
            self.opening = self.opening and not text
            self._text(text)
            self.said.append(text)
            self.answered = self.answered or bool(event.text.strip())
        elif name == "reasoning":  # not printed: the wait's line says the model is thinking
            self.thinking = True
        elif name == "route":
            # the prompt's passages are numbered by document, in this order (tools.rag.format_hits)
            self.numbers.update({location: n for n, location in enumerate(event.sources, start=1)})
            if event.problem:
                self._status(f"warning: {event.problem} Answering without it.")
        elif name == "retract" and event.channel == "text":  # printed already: say what it was
            self._release()
            if not self.at_line_start:  # a </think> mid-line ("…is 42.</think>It is 42."): the answer's own line
                self._write("\n")
            self.pending = ""
            self._status("(the text above was the model's reasoning; its answer follows)")
            self.answered = False
            self.said = []
            self.opening = True
        elif name == "tool_writing":
            if event.dropped:  # shown as text: the next block may be written under its id
                self.writing.discard(event.id)
            elif self.say_writing and event.id not in self.writing:
                self.writing.add(event.id)
                self._status(f"⟳ writing {_one_line(event.tool)[:60]} call…")
        elif name == "tool_start":
            self._block()
            self.started.add(event.id)
            self.running.add(event.id)
            line = f"⟳ {_one_line(event.tool)}: {_preview(event.query)}"
            self._status(_cut_cells(line, self.width) if self.width else line)
        elif name == "tool_result":
            if event.id not in self.started:  # refused: its block is where its line goes
                self._block()
            self.running.discard(event.id)
            self._status(self._result_line(event))
            if event.tool in SOURCE_TOOLS and event.status == "ok":
                locations = [line.strip() for line in event.source.splitlines() if line.strip()]
                self.sources.update(dict.fromkeys(locations))
                if event.tool == "rag_knowledge":
                    from .tools.rag import cited_numbers

                    for location, numbers in cited_numbers(event.result, locations).items():
                        self.numbers.setdefault(location, numbers[0])
            if not self.running:
                self._release()
                self._wait()  # the model is asked again with the results
        elif name == "error":
            self._release()
            self._status(f"error: {_terminal_safe(event.message)}")  # the server's words in it: escaped
        elif name == "done":
            self._release()
            if not self.at_line_start:
                self._write("\n")
            self._not_run(event.transcript, getattr(event, "round_starts", ()))
            self._sources(event)

    def _not_run(self, transcript: str, round_starts: tuple[int, ...]) -> None:
        """Why each tool call shown as text (an invalid block, spec rule 3) was not run: the window says it
        after the block; `ask` printed the block as the model wrote it and said nothing. Each round's text is
        read on its own, as the engine read it (a call left open in one does not take in the next)."""
        if "<tool" not in transcript:
            return
        from .markdown_prep import NOT_RUN, invalid_blocks, round_pieces

        for piece in round_pieces(transcript, round_starts):
            for _, reason in invalid_blocks(piece)[1]:
                self._status(NOT_RUN.format(reason=_one_line(reason)))

    def _sources(self, event: Any) -> None:
        # As the window's Sources line: the knowledge-base passages the answer drew on first, on stderr
        # with the status lines, so that stdout stays the answer alone.
        # No answer (the server down, the model missing): nothing drew on them.
        found = {**dict.fromkeys(event.sources), **self.sources}
        if found and self.answered:
            # with the number the answer cites each by, as the window's line shows it: "[1] guide.md"
            # (numbered from 1 when the answer cites no number at all, as the window's line: source_list)
            order = sorted(found, key=lambda loc: self.numbers.get(loc, len(self.numbers) + 1))
            numbered = numbered_from_one([SourceEntry(loc, (self.numbers[loc],) if loc in self.numbers else ())
                                          for loc in order], "".join(self.said))
            # a file's name can hold escape codes or bidi controls: escaped, as the answer's are
            self.err.write("Sources:\n" + "".join(
                f"  {cited_as(entry.numbers) + ' ' if entry.numbers else ''}{_one_line(entry.location)}\n"
                for entry in numbered))
            self.err.flush()


def _outcome(event: Any) -> tuple[str, list[str]]:
    """What a call's ✓ line says of its result: its value ("= 42", "→ the page's first words"), and the
    notes that say how it ended (a command's exit status, a program's output cut at its limit)."""
    result, query = event.result, event.query.strip()
    if event.tool == "shell":
        from .tools.shell import status_note

        note = status_note(event.query, result)
        head = f"$ {query}\n"
        body = result.split("\n", 2)[2] if result.startswith(head) and result.count("\n") >= 2 else result
        body = "\n".join(line for line in body.split("\n") if line not in ("--- stdout ---", "--- stderr ---"))
    else:
        note = closing_note(result)
        body = result.rstrip()[: -len(note)] if note else result
    if event.tool == "calculate" and body.startswith(query + " "):
        return body[len(query) + 1:], [note] if note else []  # "= 42", "≈ 4.02…e+2567"
    return "→ " + (_one_line(body) or "(nothing)"), [note] if note else []


# Bidi embeddings, overrides and isolates (LRE…RLO, LRI…PDI): they reorder the text after them, so that a
# name or a line reads otherwise than its characters run ("Trojan Source"); shown escaped (\u202e).
def _terminal_safe(text: str) -> str:
    """The model's text with its control characters shown escaped (\\x1b), so that it cannot drive the
    terminal (set its title, clear it, move the cursor) nor reorder what follows (bidi controls, \\u202e);
    line breaks and tabs are kept, as kb search shows a passage's."""
    if text.isprintable():
        return text
    text = text.replace("\r\n", "\n")
    return "".join(repr(ch)[1:-1] if (unicodedata.category(ch) == "Cc" and ch not in "\n\t")
                   or ch in BIDI_CONTROLS else ch for ch in text)


def _one_line(text: str) -> str:
    """``text`` on one line, its control characters shown escaped: a status line never drives the terminal."""
    return _terminal_safe(" ".join(text.split()))


def _cell(ch: str) -> int:
    if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def _cells(text: str) -> int:
    """How many terminal columns ``text`` takes (a CJK character two, a combining mark none)."""
    return sum(_cell(ch) for ch in text)


def _cut_cells(text: str, cells: int) -> str:
    """``text`` in at most ``cells`` columns, ending in "…" when cut."""
    if _cells(text) <= cells:
        return text
    kept, used = [], 0
    for ch in text:
        used += _cell(ch)
        if used > cells - 1:
            break
        kept.append(ch)
    return "".join(kept).rstrip() + "…"


def _cut_value(value: str, cells: int) -> str:
    """A result's value ("→ the output", "= 42") in at most ``cells`` columns, its mark and space kept: cut
    as any text, "→ 字x" in four columns was "→…", as if nothing came."""
    if _cells(value) <= cells or value[1:2] != " " or cells < 3:
        return _cut_cells(value, cells)
    return value[:2] + _cut_cells(value[2:], cells - _cells(value[:2]))


def _preview(text: str, limit: int = 80) -> str:
    text = _one_line(text)
    return text if len(text) <= limit else text[: limit - 1] + "…"
