"""Markdown as models write it, made ready for Python-Markdown, which the window and the HTML export both
render with: a list or table right under a line of text set apart from it, and nested lists re-indented
by the 4 spaces Python-Markdown nests by. No Qt here: chats.py's export uses it too."""

from __future__ import annotations

import re

# A fenced code block's opening or closing line: its marker, and what follows it (the language).
FENCE_RE = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$")
_LIST_ITEM_RE = re.compile(r"^( *)([-*+]|\d{1,9}[.)])( +|$)")


# What CommonMark lets start right under a line of text: a bullet item, or an ordered list from 1.
_INTERRUPTS_RE = re.compile(r"^([-*+]|1[.)]) +\S")
_TABLE_DELIMITER_RE = re.compile(r"^ {0,3}\|? *:?-+:? *(\| *:?-+:? *)*\|? *$")


def blocks_apart(text: str) -> str:
    """Put a blank line between a line of text and a list or table written right under it.

    Python-Markdown starts a list or a table only after a blank line; CommonMark and GitHub do not need one,
    and models rarely write it. "To install it:\n1. Download\n2. Run" ran together into one paragraph,
    "To install it: 1. Download 2. Run", and a table into a line of pipes. Lines in a list already (a
    lazy continuation line), in a table or in fenced code are left as they are.
    """
    lines = text.split("\n")
    out: list[str] = []
    fence = ""
    after_text = in_list = in_table = False  # since the last blank line
    for i, line in enumerate(lines):
        if fence:
            m = FENCE_RE.match(line)
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence) and not m.group(2).strip():
                fence = ""
            out.append(line)
            continue
        if not line.strip():
            after_text = in_list = in_table = False
            out.append(line)
            continue
        if m := FENCE_RE.match(line):
            fence, after_text = m.group(1), False
            out.append(line)
            continue
        table = not in_table and "|" in line and i + 1 < len(lines) and "|" in lines[i + 1] \
            and bool(_TABLE_DELIMITER_RE.match(lines[i + 1]))
        if after_text and not in_list and (table or _INTERRUPTS_RE.match(line)):
            out.append("")
        if table:
            in_table = True
        elif _LIST_ITEM_RE.match(line):
            in_list = True
        after_text = not in_table
        out.append(line)
    return "\n".join(out)


def nest_lists(text: str) -> str:
    """Re-indent nested list items by 4 spaces a level, the only indent Python-Markdown nests by.

    Models often nest by 2 or 3 spaces (CommonMark's rule: under the item's text); rendered as written,
    "  1. step" ran into the line above it. Text under an item moves with it; fenced code keeps its shape.
    """
    out: list[str] = []
    levels: list[tuple[int, int]] = []  # open items: (indent as written, indent as rendered)
    fence, shift = "", 0  # inside fenced code: its marker, and how far its lines move
    after_blank = False
    for line in text.split("\n"):
        stripped = line.lstrip(" ")
        indent = len(line) - len(stripped)
        if fence:
            if stripped.startswith(fence):
                fence = ""
            out.append(_shifted(line, shift))
            continue
        item = _LIST_ITEM_RE.match(line)
        if item and (levels or indent < 4):
            while levels and indent <= levels[-1][0]:
                levels.pop()
            new = levels[-1][1] + 4 if levels else 0
            levels.append((indent, new))
        elif levels and stripped and indent > levels[0][0]:
            # text under an item: under the deepest item it is indented past
            new = next(rendered + 4 for written, rendered in reversed(levels) if indent > written)
        else:
            new = 0 if levels else indent  # no deeper than the first item: moves left with it
            if stripped and after_blank:
                levels.clear()
        opening = FENCE_RE.match(" " * min(new, 3) + stripped) if not item else None
        if opening:
            fence, shift = opening.group(1), new - indent
        out.append(" " * new + stripped)
        after_blank = not stripped
    return "\n".join(out)


def _shifted(line: str, shift: int) -> str:
    if shift >= 0:
        return " " * shift + line
    return line[min(-shift, len(line) - len(line.lstrip(" "))):]
