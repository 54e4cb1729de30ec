"""A tool call written out as its card shows it: mark, title, input, how it ended, why, where its result came
from and the start of it; a Markdown quote for Copy and the Markdown export (tool_markdown), a box for the HTML
export (tool_html). chat_export.py writes the rest of the answer around them. No Qt."""

from __future__ import annotations

import html
import re
from typing import Sequence

from .chats import StoredTool
from .markdown_prep import code_spans
from .tool_words import (DENIED_NOTE, NOTHING_FOUND, OUTPUT_CUT_WORD, for_a_person, found_nothing, off_note,
                         output_was_cut, result_words, source_is_the_tool, tool_title)
from .tools.console_text import terminal_text
from .tools.nanogo_tool import KEEPS_OUTPUT, output_heading, split_output
from .tools.shell import DENIED
from .written_calls import STOPPED_WRITING

# A call stored as "running" was stopped while it ran (an answer is stored once it has ended); only a copy of
# an answer still being written (StoredMessage.status "answering") has calls that run.
_STATUS_WORDS = {"ok": "done", "done": "done", "error": "failed", "skipped": "skipped", "running": "stopped"}
_STATUS_MARK = {"ok": "✓", "done": "✓", "error": "✗", "skipped": "–", "running": "■"}
_RUNNING_MARK = "⟳"
# The language of a call's input written as a code block, by its element or its tool (else "text").
_INPUT_LANGS = {"source": "go", "nanogo": "go", "shell": "sh"}


_TAG_LIKE_RE = re.compile(r"<tool\b.*?</tool\s*>|</?[A-Za-z][^<>]*>", re.S)


def markdown_safe(text: str) -> str:
    """Plain words put into a Markdown document, with each tag-like run (a ``<tool …>…</tool>`` example,
    ``<query>``) in a code span: a Markdown renderer reads those as HTML and shows nothing of them.
    Code spans already in the text are kept as they are."""
    out, at = [], 0
    for start, end, _ticks in code_spans(text):
        out += [_TAG_LIKE_RE.sub(_code_span, text[at:start]), text[start:end]]
        at = end
    out.append(_TAG_LIKE_RE.sub(_code_span, text[at:]))
    return "".join(out)


def _code_span(match: re.Match[str]) -> str:
    return code_span(match.group(0))


def code_span(code: str) -> str:
    """``code`` as a Markdown code span, its backticks longer than any run of them in it."""
    ticks = "`" * (max((len(run) for run in re.findall("`+", code)), default=0) + 1)
    pad = " " if code.startswith("`") or code.endswith("`") else ""
    return f"{ticks}{pad}{code}{pad}{ticks}"


def _status(tool: StoredTool, live: bool = False) -> tuple[str, str]:
    """The mark and the word for how a call ended, or that it runs (``live``: its answer is still being
    written). A command the user denied was their choice: ✗ "denied", as its card says, not "failed" (the
    engine's status for it, which the mark keeps). A search that found nothing: ✓ "nothing found"."""
    if live and tool.status == "running" and not tool.error:
        return _RUNNING_MARK, "running"
    if tool.error == DENIED:
        return _STATUS_MARK["error"], "denied"
    if tool.error == STOPPED_WRITING:  # the user stopped the answer while the model wrote the call
        return _STATUS_MARK["skipped"], "stopped"
    if tool.status in ("ok", "done") and found_nothing(tool.tool, tool.result):  # as its card: its tick and words
        return _STATUS_MARK["done"], NOTHING_FOUND
    if tool.status in ("ok", "done") and output_was_cut(tool.tool, tool.query, tool.result):
        return _STATUS_MARK["done"], OUTPUT_CUT_WORD
    if off_note(tool.error, tool.tool) is not None:  # as the card says it: ✗, as the engine's error, and "off"
        return _STATUS_MARK["error"], "off"
    return _STATUS_MARK.get(tool.status, "?"), _STATUS_WORDS.get(tool.status, tool.status)


def _reason(tool: StoredTool) -> str:
    """Why a call did not run as asked, as its card says it: the user's words for a denied command, the
    setting for a tool that is off, no advice meant for the model ("Available tools: …")."""
    if tool.error == DENIED:
        return DENIED_NOTE
    return off_note(tool.error, tool.tool) or for_a_person(_error_words(tool), tool.tool)


def _error_words(tool: StoredTool) -> str:
    """A call's error without the output a failed Go program printed before it (see _printed)."""
    return split_output(tool.error or "")[0] if tool.tool in KEEPS_OUTPUT else tool.error or ""


def _printed(tool: StoredTool) -> str:
    """What a failed Go program printed before its error, which its card shows under a heading of its own."""
    return terminal_text(split_output(tool.error or "")[1]).strip("\n") if tool.tool in KEEPS_OUTPUT else ""


def _in_block(tool: StoredTool) -> bool:
    """True for an input written whole in a code block: a Go program (on one line, cut at 120 characters,
    its first // comment took the rest with it), or any input of several lines."""
    return tool.param == "source" or tool.tool == "nanogo" or "\n" in tool.query.strip()


def _input_lang(tool: StoredTool) -> str:
    return _INPUT_LANGS.get(tool.param) or _INPUT_LANGS.get(tool.tool, "text")


def skipped_runs(segments: Sequence[str | StoredTool]) -> list[str | StoredTool | list[StoredTool]]:
    """``segments`` with each run of calls the engine skipped for one reason (nothing but blank text between
    them) as one list: eight calculations with a limit of three read as five identical lines, as the window
    showed five cards before it grouped them (ui/answer.py). Not a denied command or a call to a tool that is
    off, stored as skipped in a chat saved by an earlier version: the window says those one by one (✗)."""
    out: list[str | StoredTool | list[StoredTool]] = []
    for seg in segments:
        if (isinstance(seg, StoredTool) and seg.status == "skipped" and seg.error and seg.error != DENIED
                and off_note(seg.error, seg.tool) is None):
            at = len(out) - 1
            while at >= 0 and isinstance(out[at], str) and not str(out[at]).strip():
                at -= 1
            before = out[at] if at >= 0 else None
            last = before[-1] if isinstance(before, list) else before
            if isinstance(last, StoredTool) and last.status == "skipped" and last.error == seg.error:
                del out[at + 1:]  # the blank text between them
                out[at] = [*before, seg] if isinstance(before, list) else [last, seg]
                continue
        out.append(seg)
    return out


def tool_markdown(tool: StoredTool | list[StoredTool], *, live: bool = False) -> str:
    """One tool call (or a run of skipped ones, see skipped_runs) as a Markdown quote: mark, tool, input and
    status in words on its first line, a Go program or an input of several lines whole in a code block under
    it, then why it did not run as asked, or where its result came from and the start of it. Every line is
    in the quote. ``live``: its answer is still being written, so a call without an end is running."""
    if isinstance(tool, list):
        names = _titles(tool)
        if not any(_in_block(t) for t in tool):
            queries = " · ".join(f"`{_quoted_query(t.query, 40)}`" for t in tool)
            return (f"> {_STATUS_MARK['skipped']} **{names}** {queries} ({len(tool)} skipped)\n"
                    f"> {markdown_safe(_reason(tool[0]))}")
        lines = [f"> {_STATUS_MARK['skipped']} **{names}** ({len(tool)} skipped)"]
        for t in tool:
            lines += _quoted(fenced(t.query.strip("\n"), _input_lang(t)))
        return "\n".join([*lines, f"> {markdown_safe(_reason(tool[0]))}"])
    mark, words = _status(tool, live)
    if _in_block(tool):
        lines = [f"> {mark} **{_titles([tool])}** ({words})", *_quoted(fenced(tool.query.strip("\n"), _input_lang(tool)))]
    else:
        lines = [f"> {mark} **{_titles([tool])}** `{_quoted_query(tool.query, 120)}` ({words})"]
    if tool.error:
        # the app's plain sentence, which may quote XML ("calculate takes <query>"): a Markdown renderer
        # would read that as HTML and show nothing of it. Its lines after the first (a compiler's, one an
        # error) in a code block: joined, they ran into one; unquoted, they left the quote.
        first, _, rest = _reason(tool).partition("\n")
        lines.append(f"> {markdown_safe(first)}")
        lines += _quoted_excerpt(rest, "of the error")
        if _printed(tool):
            lines += [f"> {output_heading(tool.error)}:", *_quoted_excerpt(_printed(tool), "of the output")]
    elif len(_sources(tool)) == 1:
        lines.append(f"> source: {_sources(tool)[0]}")
    elif _sources(tool):  # a search's passages from several documents: one a line, each in the quote
        lines += ["> sources:", *(f"> - {where}" for where in _sources(tool))]
    if tool.status in ("ok", "done"):  # as it came: a page's Markdown or a program's output is not this document's
        lines += _quoted_excerpt(result_words(tool.tool, tool.result), "of the result")
    return "\n".join(lines)


def _sources(tool: StoredTool) -> list[str]:
    """Where a call's result came from, one location a line (a knowledge base search may name several); none
    for a source that only names the tool ("calculator" under the title "Calculator")."""
    lines = (line.strip() for line in tool.source.splitlines())
    return [line for line in lines if line and not source_is_the_tool(tool.tool, line)]


def _titles(tools: list[StoredTool]) -> str:
    """The calls' tools as their cards title them ("Calculator", "Go program"), each once."""
    return ", ".join(dict.fromkeys(tool_title(t.tool) for t in tools))


def _titles_html(tools: list[StoredTool]) -> str:
    """The titles in bold, the names the model called the tools by in their tooltip, as the card's has them."""
    names = [t for t in dict.fromkeys(t.tool for t in tools) if tool_title(t) != t]
    said = f' title="{html.escape(", ".join(names))}"' if names else ""
    return f"<b{said}>{html.escape(_titles(tools))}</b>"


def fenced(text: str, lang: str = "text") -> list[str]:
    """``text`` as the lines of a fenced code block, its fence longer than any run of backticks in it."""
    fence = "`" * max(3, 1 + max((len(run) for run in re.findall(r"`+", text)), default=0))
    return [f"{fence}{lang}", *text.split("\n"), fence]


def _quoted(lines: list[str]) -> list[str]:
    return [f"> {line}" for line in lines]


def _quoted_excerpt(text: str, what: str) -> list[str]:
    """The start of ``text`` (see excerpt) as quoted lines of a code block, and how much was left out."""
    shown, more = excerpt(text)
    if not shown:
        return []
    return _quoted(fenced("\n".join(shown))) + ([f"> *({left_out(more, what)})*"] if more else [])


RESULT_LINES, RESULT_CHARS = 8, 600  # how much of a call's result a copy or an export shows


def excerpt(text: str) -> tuple[list[str], int]:
    """The start of ``text`` (a result, the lines of an error), at most RESULT_LINES lines and RESULT_CHARS
    characters; and how many characters were left out."""
    if not text.strip():
        return [], 0
    # Lines are shown without the spaces they end with (a program's padded columns), so those are not
    # counted as left out either: "(27 more characters left out)" was said of a whole result.
    text = "\n".join(line.rstrip() for line in text.split("\n")).strip("\n")
    shown: list[str] = []
    used = 0
    for line in text.split("\n")[:RESULT_LINES]:
        line = line[: RESULT_CHARS - used]
        shown.append(line)
        used += len(line) + 1
        if used >= RESULT_CHARS:
            break
    return shown, max(0, len(text) - sum(len(line) + 1 for line in shown) + 1)


def left_out(more: int, what: str) -> str:
    """"12 more characters of the result left out", "1 more character …": the note under an excerpt."""
    return f"{more:,} more character{'' if more == 1 else 's'} {what} left out"


def _quoted_query(query: str, most: int) -> str:
    """A call's query on one line, at most ``most`` characters, fit for a Markdown code span."""
    query = query.replace("\n", " ")
    if len(query) > most:
        query = query[:most - 1] + "…"
    return query.replace("`", "ˋ")


def tool_html(tool: StoredTool | list[StoredTool]) -> str:
    """A tool call (or a run of calls skipped for one reason) as a box, with what tool_markdown writes."""
    esc = html.escape
    if isinstance(tool, list):
        head = f'{_STATUS_MARK["skipped"]} {_titles_html(tool)}'
        if any(_in_block(t) for t in tool):
            head += f" ({len(tool)} skipped)" + "".join(_input_html(t) for t in tool)
        else:
            queries = " · ".join(f'<span class="q" dir="auto">{esc(t.query)}</span>' for t in tool)
            head += f" {queries} ({len(tool)} skipped)"
        return f'<div class="tool">{head}<div class="why">{esc(_reason(tool[0]))}</div></div>'
    mark, words = _status(tool)
    failed = tool.status == "error" and words not in ("denied", "off")
    if _in_block(tool):
        head, detail = f"({esc(words)})", _input_html(tool)
    else:
        head, detail = f'<span class="q" dir="auto">{esc(tool.query)}</span> ({esc(words)})', ""
    if tool.error:
        first, _, rest = _reason(tool).partition("\n")
        detail += f'<div class="{"err" if failed else "why"}">{esc(first)}</div>' + _excerpt_html(rest, "of the error")
        if _printed(tool):
            detail += (f'<div class="why">{output_heading(tool.error)}:</div>'
                       + _excerpt_html(_printed(tool), "of the output"))
    elif _sources(tool):
        many = len(_sources(tool)) > 1
        detail += f"<div>source{'s' if many else ''}: {'<br>'.join(esc(where) for where in _sources(tool))}</div>"
    if tool.status in ("ok", "done"):
        detail += _excerpt_html(result_words(tool.tool, tool.result), "of the result")
    return f'<div class="{"tool error" if failed else "tool"}">{mark} {_titles_html([tool])} {head}{detail}</div>'


def _input_html(tool: StoredTool) -> str:
    """A Go program (or an input of several lines) whole, its lines and tabs as written."""
    return (f'<pre class="src" dir="ltr"><code class="language-{_input_lang(tool)}">'
            f"{html.escape(tool.query.strip(chr(10)))}</code></pre>")


def _excerpt_html(text: str, what: str) -> str:
    shown, more = excerpt(text)
    if not shown:
        return ""
    return f'<pre class="out" dir="auto">{html.escape(chr(10).join(shown))}</pre>' + (
        f'<div class="why">({left_out(more, what)})</div>' if more else "")
