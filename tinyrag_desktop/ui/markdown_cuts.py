"""Where the streaming view may cut an answer's Markdown into segments, and a long table's pieces made one again."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..markdown_prep import FENCE_RE as _FENCE_RE
from ..markdown_prep import TABLE_DELIMITER_RE, fence_after
from .markdown_render import RTL_CHAR

# A line that continues the previous block (list items, indented text, tables, quotes) must not start a
# new segment: rendered alone it would lose its list numbering or table header.
_CONTINUES_RE = re.compile(r"^(\s|[-*+] |\d+[.)] |\||>)")
_ITEM_RE = re.compile(r"^([-*+]|\d{1,9}[.)]) +\S")  # an item of a list at the left margin
# Cells of a table the streaming view renders in one segment at most (see table_cut): a render costs about
# 0.06 ms a cell (Markdown, then Qt's layout of the whole table), so a piece of a long table costs some 10 ms.
TABLE_CELLS = 150


@dataclass(frozen=True, slots=True)
class Cut:
    """Where to close the active segment: ``text[:at]`` is frozen (with ``close`` appended for rendering)
    and the rest continues in a new segment that renders with ``reopen`` in front."""

    at: int
    close: str = ""
    reopen: str = ""


def _fence_state(lines: list[str], opener: str) -> tuple[str, list[int], list[int]]:
    """Walk lines; return the fence still open at the end ("" if none), the indexes of cuttable lines, and
    those of lines that start an item of a list at the left margin (cuttable in a long list only)."""
    fence = opener
    safe: list[int] = []
    items: list[int] = []
    for i, line in enumerate(lines):
        was, fence = fence, fence_after(fence, line)
        if was or fence:
            continue
        if i > 0 and not lines[i - 1].strip() and line.strip() and not _CONTINUES_RE.match(line):
            safe.append(i)
        elif i > 0 and _ITEM_RE.match(line):
            items.append(i)
    return fence, safe, items


def _offsets(lines: list[str], indexes: list[int], least: int) -> list[int]:
    """The character offsets of the lines at ``indexes`` (in order), those from ``least`` on."""
    offsets, at, i = [], 0, 0
    for index in indexes:
        while i < index:
            at += len(lines[i]) + 1
            i += 1
        if at >= least:
            offsets.append(at)
    return offsets


def freeze_point(text: str, *, opener: str = "", soft: int = 1500, hard: int = 4000,
                 cells: int = TABLE_CELLS) -> Cut | None:
    """A place to cut ``text`` (the active segment, whose render starts with ``opener``) or None.

    Past ``soft`` characters the last blank line before an ordinary paragraph is chosen (outside code).
    Past ``hard`` characters inside one long code block, the block is cut at its last full line and
    reopened with the same fence, so even a 30,000-character program streams at a flat cost. A table at the
    end of the text with ``cells`` cells or more (or past ``hard`` characters) is cut before the row being
    written, and reopened with its header row and rule (see table_cut).
    """
    table = table_cut(text, opener, hard, cells)
    if len(text) < soft and table is None:
        return None
    lines = text.split("\n")
    opener_line = opener.split("\n", 1)[0]
    fence_opener = _FENCE_RE.match(opener_line)  # a code block goes on from the segment before (not a table)
    fence, safe, items = _fence_state(lines[:-1], fence_opener.group(1) if fence_opener else "")
    if fence:  # bars in a code block are code
        table = None
    if len(text) < soft:
        return table
    offsets = _offsets(lines, safe, soft // 3)
    if not offsets and table is not None:
        return table
    if not offsets and not fence and len(text) >= hard:
        # One long list (a blank line between items makes a list go on): cut before an item, which renders
        # as the same list going on (an ordered one's next segment starts at its number). Uncut, each render
        # drew the whole list again: a 150 KB list stalled the window 0.3 s a frame, an 800 KB one 8 s.
        offsets = _offsets(lines, items, soft // 3)
    if offsets:
        # The largest piece that stays under ``hard``: a burst of text becomes several small segments,
        # each rendered once, instead of one big render that would stall the window.
        fitting = [o for o in offsets if o <= hard]
        return Cut(fitting[-1] if fitting else offsets[0])
    if fence and len(text) >= hard:
        at = len(text) - len(lines[-1])  # keep the growing line in the new segment
        reopen = _last_opener(lines[:-1], opener_line if fence_opener else "")
        # Not right after the block's fence: cut there, its first line alone as long as ``hard`` (a minified
        # script) left an empty box above the block, with its own Copy code
        if at > 0 and not (len(lines) > 1 and lines[-2].strip() == reopen and _FENCE_RE.match(lines[-2])):
            return Cut(at, close=("" if text[:at].endswith("\n") else "\n") + fence, reopen=reopen + "\n")
    return None


def table_cut(text: str, opener: str = "", hard: int = 4000, cells: int = TABLE_CELLS) -> Cut | None:
    """Where to cut a long table that ends ``text`` while it streams (None if none ends it, or it is short).

    A table is one block that cannot be frozen until it ends, and Qt lays out every cell of a table again at
    each change: a table of a thousand rows took a fifth of a second a render, the window stalled at each
    frame. Its rows written so far are frozen instead, and the row being written goes on in a new segment
    that renders with the header row and rule in front (``reopen``), drawn without them (render's
    ``headless``). Only a table at the left margin whose rows start with a bar is cut (the usual kind); the
    answer joins the pieces into one table when it ends (AnswerWidget._join_cut_blocks).
    """
    lines = text.split("\n")
    end = len(lines) - 1  # the last line may still be growing: the cut goes before it
    start = end
    while start > 0 and lines[start - 1].startswith("|"):
        start -= 1
    if start == end:
        return None
    if start == 0 and opener.startswith("|"):  # the rows go on from a table cut before
        header = opener.split("\n")[:2]
        rows = end
    elif end - start >= 3 and TABLE_DELIMITER_RE.match(lines[start + 1]) and "|" in lines[start + 1]:
        header = lines[start:start + 2]
        rows = end - start - 2
    else:
        return None
    at = len(text) - len(lines[-1])
    # its cells so far (a bar in a cell's code or escaped counts too: the count only says when to cut)
    columns = header[0].strip().strip("|").count("|") + 1
    if at < hard and rows * columns < cells:
        return None
    # Many rows at once (a stored answer, a burst): the cut goes where a stream would have made it, after the
    # row that reached ``cells`` or ``hard``; drawn whole, 200 rows took 80 ms.
    first = end - rows
    offset = len(text) - len("\n".join(lines[first:]))
    for i in range(first, end - 1):
        offset += len(lines[i]) + 1
        if (i - first + 1) * columns >= cells or offset >= hard:
            at = offset
            break
    return Cut(at, reopen="\n".join(header) + "\n")


_ROW_CELL = re.compile(r"<t[hd](?=[ >])")


def fix_columns(html: str, widths: tuple[float, ...], last: bool = False) -> str:
    """``html`` with the columns of its first Markdown table (``last``: its last) as wide as ``widths`` (pixels,
    one for each column, in the order Qt lays them out: a right-to-left table's cells are in the opposite order
    already). Qt takes a cell's width as its column's (at least as wide as its longest word); the widths go on
    the cells of the table's first row."""
    start = html.rfind('<table border="1"') if last else html.find('<table border="1"')
    if start < 0:
        return html
    row = html.find("<tr>", start)
    end = html.find("</tr>", row)
    if row < 0 or end < 0:
        return html
    if len(_ROW_CELL.findall(html, row, end)) != len(widths):
        return html
    cells = iter(widths)
    marked = _ROW_CELL.sub(lambda m: f'{m.group(0)} width="{next(cells):.2f}"', html[row:end])
    return html[:row] + marked + html[end:]


# A link reference definition ("[1]: https://…"): a link in one piece may be defined in another
_REFERENCE_RE = re.compile(r"^ {0,3}\[[^\]]+\]:", re.M)


def joined_table(pieces: list[str], sources: list[str], headers: list[str]) -> str | None:
    """The HTML of a long table cut while it streamed, from its pieces' HTML (each rendered on its own, see
    table_cut), Markdown (``sources``) and the header each but the first was rendered under (``headers``): the
    first piece's up to the end of its last table's rows, the rows of the pieces between, then the last piece's
    from the end of its rows. Markdown's conversion of a thousand rows again cost 70 ms of the join at the end of
    the answer. None where the pieces may render otherwise than their whole text: a code block (numbered from 0
    in each piece), right-to-left text (a table's direction is its first cell's), a link reference (defined in
    another piece), a piece that is not rows of the one table, or a table that is not only rows under its
    header (a line of text right under a row is one more row; under it, rows cut as a table of their own)."""
    while len(pieces) > 1 and not sources[-1]:  # cut where the text ends (a stored table's shown rows): empty
        pieces, sources, headers = pieces[:-1], sources[:-1], headers[:-1]
    if any(RTL_CHAR.search(part) or "copy-code:" in part for part in pieces) or _REFERENCE_RE.search(
            "".join(sources)) or len(set(headers[1:])) != 1:
        return None
    block = ("\n" + sources[0]).rstrip("\n").rsplit("\n\n", 1)[-1].lstrip("\n")  # the first piece's table
    if not block.startswith(headers[1]) or not all(line.startswith("|") for line in block.split("\n")):
        return None
    end = pieces[0].rfind("</tbody>")
    out = [pieces[0][:end]]
    for i, part in enumerate(pieces[1:], 1):
        start, stop = part.find("<tbody>\n"), part.find("</tbody>")
        if not part.startswith('<table border="1"') or "<thead>" in part[:stop] or start < 0 or end < 0 or (
                i < len(pieces) - 1 and part.count("<table") != 1):
            return None
        # The last piece may hold no row: the table ended where it was cut, with a blank line, and Python-Markdown
        # put in an empty one. A piece that starts with another line than a row's may be read otherwise alone.
        if sources[i].startswith("|"):
            out.append(part[start + len("<tbody>\n"):stop])
        elif i < len(pieces) - 1 or sources[i].split("\n", 1)[0].strip():
            return None
    out.append(pieces[-1][pieces[-1].find("</tbody>"):])
    return "".join(out)


def _last_opener(lines: list[str], default: str) -> str:
    opener = default
    fence = _FENCE_RE.match(default).group(1) if default else ""
    for line in lines:
        was, fence = fence, fence_after(fence, line)
        if fence and not was:
            opener = line.strip()
    return opener
