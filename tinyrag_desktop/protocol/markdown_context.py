"""Where in Markdown a place of the text is, read from the text before it: shared by the parser and the think splitter.

Both read a stream, so they decide from what came before alone (``WINDOW`` characters of it at most), and any
cut of the stream decides the same. ``code_indent`` says, as CommonMark does, whether a line is a line of an
indented code block: four columns in, after a blank line or at the start of the text (not a paragraph's next
line), or four more than the content of the list item it continues ("- a", a blank line, then "····x" is the
item's second paragraph, not code).
"""

from __future__ import annotations

import re

WINDOW = 1024  # characters before a place that are read to decide it

# A list item's line: a bullet or a number, then a space (or nothing more on the line).
_ITEM = re.compile(r"([ \t]*)([-*+]|\d{1,9}[.)])([ \t]+|$)")
_HEADING = re.compile(r" {0,3}#{1,6}(?:[ \t]|$)")


def cols(indent: str) -> int:
    """The columns a line's leading spaces and tabs take, a tab to the next stop of four."""
    n = 0
    for c in indent:
        n = n + 1 if c == " " else n + 4 - n % 4
    return n


def code_indent(before: str) -> int | None:
    """The columns a line after ``before`` (the text before it, up to and with its line break; "" at the start
    of the text) must be indented by to be a line of indented code; None when it continues a paragraph."""
    lines = before.split("\n")[:-1]
    if not lines:
        return 4
    if lines[-1].strip() and not _HEADING.match(lines[-1]):
        return None  # a paragraph's next line (a "lazy" one): never code
    for k in range(len(lines) - 1, -1, -1):  # the list item it may continue: the nearest one above
        line = lines[k]
        if not line.strip():
            continue
        item = _ITEM.match(line)
        if item is not None:
            gap = len(item.group(3).expandtabs(4))
            return cols(item.group(1)) + len(item.group(2)) + (gap if 1 <= gap <= 4 else 1) + 4
        if line[0] not in " \t" and (k == 0 or not lines[k - 1].strip()):
            return 4  # a paragraph at the margin, after a blank line: any list above ended there
    return 4
