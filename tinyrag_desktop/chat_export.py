"""A chat written out: an answer as the Copy button and Copy last answer put it on the clipboard, a whole chat
exported as Markdown or as one standalone HTML page. Each tool call is written where it was, as its card
shows it (see tool_copy.py). No Qt."""

from __future__ import annotations

import html
import re
import threading
from typing import Iterable

from .chats import ChatInfo, StoredMessage, StoredTool
from .entities import unescape
from .mail_links import safe_mailto
from .source_list import message_sources, sources_html, sources_markdown
from .markdown_prep import (FENCE_RE, INVALID_MARK_RE, LONE_BRACKET, NOT_RUN, as_plain_text, blocks_apart, code_spans,
                            invalid_blocks, lift_fences, lone_brackets, nest_lists, put_back_fences,
                            register_images_as_links, register_task_boxes)
from .tool_copy import code_span, fenced, markdown_safe, skipped_runs, tool_html, tool_markdown
from .written_calls import shown_segments

# Marks that end or break a sentence: written right after a tool block ("see <tool …>…</tool>. Then"),
# they belong to the text before the call, as the window shows them (ui/answer_rendering.py).
TRAILING_MARKS = ".,;:!?…)]»”’"


def marks_attached(segments: list[str | StoredTool]) -> list[str | StoredTool]:
    """``segments`` with the marks that open a text after a tool call moved to the end of the text before
    it; where that text ends a line or a sentence already, or there is none, they are dropped."""
    out: list[str | StoredTool] = []
    before: int | None = None  # where in ``out`` the text before the last call is
    after_call = False
    for seg in segments:
        if not isinstance(seg, str):
            if not after_call:
                before = len(out) - 1 if out and isinstance(out[-1], str) else None
            after_call = True
            out.append(seg)
            continue
        if after_call:
            rest = seg.lstrip(TRAILING_MARKS)
            marks = seg[:len(seg) - len(rest)]
            if marks and before is not None:
                kept = str(out[before]).rstrip(" \t")
                if kept and kept[-1] not in "\n.,;:!?…":
                    out[before] = kept + marks
            seg, after_call = rest, not rest
        out.append(seg)
    return out


# An answer the app's closing cut (a crash, a kill) is stored with an error that starts with these words
# (ui.answer_saving.INTERRUPTED): the window shows it with Retry, which a file has not.
APP_CLOSED = "The app closed before this answer was finished"
ANSWER_STOPPED = "Answer stopped"
STOPPED_EARLY = "Stopped before the model answered"
CUT_BY_CLOSING = "The answer was cut off: the app closed"
STILL_WRITING = "The answer is still being written"  # under a copy of an answer that streams (see answer_markdown)


def answer_end(message: StoredMessage) -> tuple[str, str]:
    """How an answer ended, in words that fit a file: ``("note", words)`` for one stopped or cut off by the
    app's closing, ``("error", its error)`` for one that failed, ``("", "")`` for one that finished. The window
    says it with the footer's "stopped", the line in place of an answer that never came, or the error."""
    if message.status == "answering":
        return "note", STILL_WRITING
    if message.error and message.error.startswith(APP_CLOSED):
        return "note", CUT_BY_CLOSING
    if message.error:
        return "error", message.error
    if message.status == "stopped" or (message.stats or {}).get("outcome") == "stopped":
        empty = not message.content.strip() and not message.tools and not message.reasoning
        return "note", STOPPED_EARLY if empty else ANSWER_STOPPED
    return "", ""


def end_markdown(message: StoredMessage) -> str:
    """The line under an answer that did not finish ("*[Answer stopped]*", its error); "" under one that did."""
    kind, words = answer_end(message)
    return f"> **Error:** {words}" if kind == "error" else f"*[{words}]*" if kind else ""


def answer_markdown(message: StoredMessage) -> str:
    """An answer as Markdown, tool calls as quotes where they were, and how it ended when it did not
    finish (Copy answer uses this). A message with the status "answering" is one still being written (the
    window's copy of it, never a stored one): its calls that have not ended run, and its end line says so."""
    live = message.status == "answering"
    parts = [text_markdown(seg) if isinstance(seg, str) else tool_markdown(seg, live=live)
             for seg in skipped_runs(marks_attached(shown_segments(message)))]
    return "\n\n".join(p for p in parts + [end_markdown(message)] if p) + "\n"


def text_markdown(text: str) -> str:
    """An answer's text as Markdown, with each tool block the engine did not run (spec rule 3: shown as text)
    as the window shows it: in code, then why. Written raw, a viewer took its tags for HTML and showed only
    the words between them ("Bad ones: 1+1 and and ls")."""
    text, found = invalid_blocks(text.strip())
    if not found:
        return text
    pieces = INVALID_MARK_RE.split(text)  # text, a block's number, text, …
    out = pieces[0]
    for number, after in zip(pieces[1::2], pieces[2::2]):
        if int(number) >= len(found):  # the model's own text, not a mark of ours: as written
            out += f"TINYRAGINVALIDBLOCK{number}X{after}"
            continue
        raw, reason = found[int(number)]
        why = f"*{markdown_safe(NOT_RUN.format(reason=reason))}*"
        if "\n" in raw:  # a block of its own, its lines kept: a "# x" line in it is no heading
            out = f"{out.rstrip()}\n\n" + "\n".join(fenced(raw)) + f"\n\n{why}\n\n{after.lstrip()}"
        else:
            out += f"{code_span(raw)} {why}{after}"
    return out.strip()


# Outside code: an HTML tag the model wrote (<img src=…>, <script>, <iframe>, <style>…: a name, then its
# attributes), the "!" that makes a link an image (not one escaped: after an even run of backslashes), a
# mailto: address.
# A tag runs to its first ">" ("<img src='?d=x&y=<'>" too: a "<" inside stopped the match, and the tag was
# left to load); a "<" left that could still open one (a tag never closed, "<!--") is written &lt;.
# (not an autolink's: <https://…> stays a link, a mailto: one losing its attach= below)
_RAW_TAG_RE = re.compile(r"((?:</?[A-Za-z][A-Za-z0-9-]*(?:[\s/][^>]*)?>)+)"
                         r"|<(?=[A-Za-z/!?])(?![A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>]*>)")
# A link's address, which a viewer decodes before it follows it: "mailto\:" and "mailto&#58;" are mailto:.
_LINK_ADDRESS_RE = re.compile(r"(\]\(\s*<?)([^\s()<>]+)")
_IMAGE_RE = re.compile(r"(?<!\\)((?:\\\\)*)!\[")
_MAILTO_RE = re.compile(r"mailto:[^\s()<>\[\]\"'`]*", re.I)


def inert_markdown(text: str) -> str:
    """The model's Markdown as a file keeps it, without what would load or act when the file is viewed (an
    editor's preview, a Markdown viewer): each raw HTML tag in a code span (the window shows it as text too),
    each image as a link to its address (``\\![chart](https://…)``: a remote image told its server that the
    file was read, with whatever the model put in its address), a mailto: address without attach= and the
    like (see mail_links). Code blocks (fenced at the top level) and code spans are kept as written; a block
    left open is closed."""
    out: list[str] = []
    fence = ""  # the marker of the code block the lines are in ("" outside one)
    plain: list[str] = []
    for line in text.split("\n"):
        # (one in a list or a quote is not taken for one: its lines are made inert too, which costs a code span
        # in the code at worst; taken for one, the lines after the list or quote would not be)
        marker = FENCE_RE.match(line)
        if fence:
            out.append(line)
            if marker and marker.group(1)[0] == fence[0] and len(marker.group(1)) >= len(fence) \
                    and not marker.group(2).strip():
                fence = ""
        elif marker and not (marker.group(1)[0] == "`" and "`" in marker.group(2)):  # ```x``` is a code span
            out.append(_inert("\n".join(plain))) if plain else None
            plain = []
            out.append(line)
            fence = marker.group(1)
        else:
            plain.append(line)
    if plain:
        out.append(_inert("\n".join(plain)))
    if fence:  # never closed (an answer stopped in it): closed here, or the rest of the file would be code
        out.append(fence)
    return "\n".join(out)


def _inert(text: str) -> str:
    """Markdown text outside code blocks made inert (see inert_markdown); its code spans are kept."""
    pieces, at = [], 0
    for start, end, _ticks in code_spans(text):
        pieces += [_inert_words(text[at:start]), text[start:end]]
        at = end
    pieces.append(_inert_words(text[at:]))
    return "".join(pieces)


def _inert_words(text: str) -> str:
    text = _RAW_TAG_RE.sub(lambda m: code_span(m.group(1)) if m.group(1) else "&lt;", text)
    text = _IMAGE_RE.sub(lambda m: f"{m.group(1)}\\![", text)  # "!" then a link
    text = _LINK_ADDRESS_RE.sub(_safe_address, text)
    return _MAILTO_RE.sub(lambda m: safe_mailto(m.group(0)), text)


def _safe_address(match: re.Match[str]) -> str:
    """A link's address as a viewer reads it (its entities and backslash escapes undone) when that is a
    mailto: one, without the fields it should not carry; any other address as written."""
    read = re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", unescape(match.group(2)))
    if not read[:7].lower() == "mailto:":
        return match.group(0)
    return match.group(1) + safe_mailto(read)


def question_text(text: str) -> str:
    """A question as the window shows it: as typed (plain text, not Markdown), without the blank lines and
    spaces around it; the first line's indentation kept."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    while lines and not lines[0].strip():
        lines.pop(0)
    return "\n".join(lines).rstrip()


# In a line of a question: what Markdown would take for its marks (emphasis, code, links, HTML, an entity),
# and, at the line's start, for a block (heading, quote, list, fence, table, a heading's underline).
_MD_INLINE = re.compile(r"[\\`*_\[\]<>]|&(?=#?\w+;)")
_MD_BLOCK = re.compile(r"^(?:[#>+=|~-]|\d{1,9}(?=[.)]))")


def plain_markdown(text: str) -> str:
    """A question (plain text) written as Markdown that shows it as typed: its marks escaped, each line
    break kept (a backslash at a line's end: CommonMark's hard break), a line's leading spaces as no-break
    spaces (four ordinary ones made it code). Paragraphs stay apart by one blank line."""
    out: list[str] = []
    for line in question_text(text).split("\n"):
        body = line.lstrip(" \t")
        if not body.strip():
            if out and out[-1]:
                out[-1] = out[-1].removesuffix("\\")
                out.append("")
            continue
        indent = line[:len(line) - len(body)].replace("\t", "    ").replace(" ", "\u00a0")
        body = _MD_INLINE.sub(lambda m: "\\" + m.group(0), body.rstrip())
        number = _MD_BLOCK.match(body)
        if number and number.group(0)[:1].isdigit():  # "1." starts a list: "1\." does not
            body = f"{number.group(0)}\\{body[number.end():]}"
        elif number:
            body = "\\" + body
        out.append(f"{indent}{body}\\")
    if out:
        out[-1] = out[-1].removesuffix("\\")
    return "\n".join(out)


def export_markdown(chat: ChatInfo, messages: Iterable[StoredMessage]) -> str:
    """The chat as Markdown: questions (as typed, see plain_markdown), answers, each tool call as a quote
    (see tool_markdown), and under each answer the Sources list its window shows (see source_list)."""
    out = [f"# {chat.title}", ""]
    if chat.persona:
        out += [f"*Persona: {chat.persona}*", ""]
    for m in messages:
        if m.role == "user":
            out += ["## You", "", plain_markdown(m.content), ""]
            continue
        out += ["## Assistant", ""]
        for seg in skipped_runs(marks_attached(shown_segments(m))):
            if not isinstance(seg, str) or seg.strip():
                # a file is viewed, its images loaded: inert (Copy gives the Markdown as written)
                out += [inert_markdown(text_markdown(seg)) if isinstance(seg, str) else tool_markdown(seg), ""]
        if end := end_markdown(m):
            out += [end, ""]
        if sources := sources_markdown(*message_sources(m), links=True):  # what its [1] and [2] are
            out += [sources.rstrip("\n"), ""]
    return "\n".join(out).rstrip() + "\n"


_HTML_CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;max-width:50rem;
margin:2rem auto;padding:0 1rem;line-height:1.55;color:#1d2330;background:#fff}
h1{font-size:1.5rem}.msg{margin:1.2rem 0;padding:.8rem 1rem;border-radius:10px}
.user{background:#eef3ff}.assistant{background:#fafafa;border:1px solid #e5e7eb}
.who{font-size:.8rem;font-weight:600;color:#6b7280;text-transform:uppercase;letter-spacing:.05em}
pre{background:#f6f8fa;padding:.7rem;border-radius:6px;overflow:auto}code{font-family:"DejaVu Sans Mono",monospace}
table{border-collapse:collapse}td,th{border:1px solid #d1d5db;padding:.25rem .5rem}
.tool{border:1px solid #d1d5db;border-radius:8px;padding:.4rem .7rem;margin:.5rem 0;font-size:.9rem}
.tool.error{border-color:#dc2626}.tool .q{font-family:monospace;color:#4b5563}.err{color:#b91c1c}
.tool pre.out,.tool pre.src{margin:.3rem 0 0;padding:.4rem .6rem;font-size:.85rem}.end{color:#6b7280}
pre{tab-size:4}code.raw{white-space:pre-wrap}.why{color:#4b5563}.not-run{color:#6b7280;font-size:.85rem}
.asked{white-space:pre-wrap;overflow-wrap:anywhere;tab-size:4;margin:.3rem 0 0}
.sources{margin-top:.6rem;font-size:.9rem}.sources ul{list-style:none;margin:.2rem 0;padding:0}.sources li{overflow-wrap:anywhere}
"""

# Arabic, Hebrew or Persian read right to left. Each paragraph, heading, list item and table cell takes the
# direction of its first letter (unicode-bidi: plaintext; a paragraph is aligned on that side), and a list,
# a table or a quote as a whole the direction of its first words (dir="auto": its markers, columns and
# indent on that side, and its items and cells aligned with it, whatever their own direction). Without them
# a browser laid them out left to right, the words of a sentence in the wrong order. Code stays left to
# right wherever it is (dir="ltr" also keeps its words from deciding a list's direction); a tool's output
# takes each line's own (an article quoted, or a program's output). The items and cells are not given
# dir="auto" themselves: a list's own "auto" skips what has a dir, and came out left to right.
_BIDI_CSS = """
h1,h2,h3,h4,h5,h6,p,li,dt,dd,th,td,caption{unicode-bidi:plaintext;text-align:start}
li:dir(ltr),li:dir(ltr)>p,dt:dir(ltr),dd:dir(ltr),td:dir(ltr){text-align:left}
li:dir(rtl),li:dir(rtl)>p,dt:dir(rtl),dd:dir(rtl),td:dir(rtl){text-align:right}
th,caption{text-align:center}pre{text-align:left}
"""
_BLOCKS = re.compile(r"<(ul|ol|dl|table|blockquote)(?=[\s>])(?![^>]*\sdir=)")
_CODE = re.compile(r"<(pre|code)(?=[\s>])(?![^>]*\sdir=)")


def _directions(body: str) -> str:
    """``body`` (HTML the export made: every text in it escaped) with the reading directions of its lists,
    tables and quotes, and of its code."""
    return _CODE.sub(r'<\1 dir="ltr"', _BLOCKS.sub(r'<\1 dir="auto"', body))


_URL_ATTR = re.compile(r'\b(href|src)="(?!https?:|mailto:|#)[^"]*"', re.I)
_MAILTO_ATTR = re.compile(r'\bhref="(mailto:[^"]*)"', re.I)


_converters = threading.local()  # one Markdown converter a thread: making one cost 1.2 ms a message


def _markdown_html(text: str) -> str:
    """Markdown → HTML for the export: raw HTML in messages stays text, links only http(s)/mailto."""
    md = getattr(_converters, "md", None)
    if md is None:
        import markdown

        md = markdown.Markdown(extensions=["fenced_code", "tables", "sane_lists", "codehilite"],
                               extension_configs={"codehilite": {"noclasses": True, "guess_lang": False}})
        md.preprocessors.deregister("html_block")
        md.inlinePatterns.deregister("html")
        register_task_boxes(md)  # "- [ ] a task" as ☐, as the window shows it
        register_images_as_links(md)  # a link to it, never loaded when the file is opened (as the window)
        _converters.md = md
    md.reset()
    # as the window shows it: a list or table right under a line of text is not run into that line
    text, lifted, _ = lift_fences(text)  # code fenced in a list item, which fenced_code leaves as text
    try:
        body = md.convert(lone_brackets(nest_lists(blocks_apart(text)))).replace(LONE_BRACKET, "[")
    except RecursionError:  # nested deeper than the caps of markdown_prep know: the text as written
        body = as_plain_text(text)
        _converters.md = None  # its parser was left inside the lists it was reading: every later list ran on
    body = put_back_fences(body, lifted)
    body = _URL_ATTR.sub(lambda m: f'{m.group(1)}="#"', body)
    body = _MAILTO_ATTR.sub(lambda m: f'href="{html.escape(safe_mailto(unescape(m.group(1))))}"', body)
    return _directions(body)


def _text_html(text: str) -> str:
    """An answer's text as HTML, each tool block the engine did not run in code with why, as the window
    shows it (see text_markdown)."""
    text, found = invalid_blocks(text)

    def shown(match: re.Match[str]) -> str:
        if int(match.group(1)) >= len(found):  # the model's own text, not a mark of ours
            return match.group(0)
        raw, reason = found[int(match.group(1))]
        return (f'<code class="raw" dir="ltr">{html.escape(raw)}</code> '
                f'<span class="not-run">{html.escape(NOT_RUN.format(reason=reason))}</span>')

    return INVALID_MARK_RE.sub(shown, _markdown_html(text))


def export_html(chat: ChatInfo, messages: Iterable[StoredMessage]) -> str:
    """The chat as one standalone HTML file (inline styles, no scripts, no external files), each answer's
    Sources list under it with a link to each file or page (which loads nothing until it is clicked)."""
    esc = html.escape
    body = [f"<h1>{esc(chat.title)}</h1>"]
    for m in messages:
        if m.role == "user":
            # as typed, as the window shows it: its lines and indentation kept, its marks no Markdown
            body.append(f'<div class="msg user"><div class="who">You</div>'
                        f'<p class="asked">{esc(question_text(m.content))}</p></div>')
            continue
        parts = [_text_html(seg) if isinstance(seg, str) else tool_html(seg) for seg in skipped_runs(shown_segments(m))]
        kind, words = answer_end(m)
        if kind == "error":
            parts.append(f'<p class="err"><b>Error:</b> <span dir="auto">{esc(words)}</span></p>')
        elif kind:
            parts.append(f'<p class="end"><em>[{esc(words)}]</em></p>')
        parts.append(sources_html(*message_sources(m)))  # what its [1] and [2] are, as the window lists them
        body.append(f'<div class="msg assistant"><div class="who">Assistant</div>{"".join(parts)}</div>')
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{esc(chat.title)}</title><style>{_HTML_CSS}{_BIDI_CSS}</style></head><body>\n"
            + "\n".join(body) + "\n</body></html>\n")
