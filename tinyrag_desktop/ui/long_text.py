"""What the window lays out of a paragraph, line or table row too long to lay out at once: its start, and a note
that says how much more there is (Copy and Export keep all of it, from the answer's source; Find in chat looks in
what is left out, see Cut). No Qt here.

A single line of 2 MB took 2.3 s to show, a table row of 5,000 columns 1.9 s, and 20,000 "&amp;" in one
paragraph 1.6 s (Python-Markdown rebuilds the paragraph's text at each entity, code span or emphasis it reads):
the window froze meanwhile, and again at each frame while such a text streamed in. A stored answer's long table
shows its first rows, the others when asked (see table_folds)."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from ..markdown_prep import LIST_ITEM_RE, QUOTE_RE, TABLE_DELIMITER_RE, fence_after

# Characters of a paragraph (a block of lines with no blank one) shown at most: some 10 ms to lay out.
BLOCK_SHOWN = 10_000
# Characters of a line of code shown at most: coloured, it costs some 6 ms a thousand to show.
CODE_LINE_SHOWN = 5_000
# Columns of a table shown at most: Qt lays out some 12 cells a millisecond, every row of them.
TABLE_COLUMNS = 100
# Cells of a stored answer's table shown at first (of its first TABLE_COLUMNS columns): 10 rows of 100 columns,
# 250 of 4. Joined into one table once rendered, they are laid out at once, some 0.05 ms a cell (see table_folds).
TABLE_CELLS_SHOWN = 1_000
SHOW_ROWS = "show-rows"  # the link that shows a long table's rows not shown (see fold_note)
COPY_CODE = "Copy code"  # a code block's link (markdown_render.render): it copies all of the code
# Stands for the note of each cut while Markdown is converted (see notes_shown), numbered.
_MARK = "TINYRAGMORE{}X"
_MARK_RE = re.compile(r"TINYRAGMORE(\d+)X")
_BAR_RE = re.compile(r"(?<!\\)\|")  # a cell's edge ("\|" is a bar in a cell)
_LEAD_RE = re.compile(r"[ \t>]*")  # a line's indent: in lists, in quotes
# How far back from the cut a space is looked for, so that a word is not cut in two.
_WORD_BACK = 200
# A link or an address that a cut at the end would leave unfinished: "[the docs](http://exa", "https://exa"
_OPEN_LINK_RE = re.compile(r"(?:\[[^\[\]\n]*\]\(<?[^)\s]*|<?\bhttps?://[^\s<>]*)\Z")
_FLAG_HALF, _FLAG_HALF_END = "\U0001f1e6", "\U0001f1ff"  # a flag is two of these ("regional indicators")


@dataclass(slots=True)
class Cut:
    """A cut: the ``note`` shown in place of what it leaves out ("… (1,980,000 more characters, the Copy button
    keeps all)"), and the text ``left`` out, in pieces (a table's rows cut after its hundredth column each add
    theirs to its header's note), which Find in chat looks in; ``code``: the text is code, not Markdown."""

    note: str
    left: list[str]
    code: bool = False

    def text(self) -> str:
        return "\n".join(self.left)


def cut_long(text: str) -> tuple[str, list[Cut]]:
    """``text`` with each paragraph longer than BLOCK_SHOWN characters cut there and each table row of more than
    TABLE_COLUMNS cells cut after them, a mark in place of what is left out; and the cuts the marks stand for.
    Code, fenced or indented, is left to code_cut. An ordinary answer's text is returned as it is."""
    if len(text) <= BLOCK_SHOWN and text.count("|") <= TABLE_COLUMNS:
        return text, []
    out: list[str] = []
    notes: list[Cut] = []
    fence, block, in_list = "", [], False  # the lines of the block being read (outside code); whether in a list
    for line in text.split("\n"):
        was, fence = fence, fence_after(fence, line)
        if not (was or fence) and line.strip():
            block.append(line)
            continue
        out += _block_cut(block, notes, in_list)
        in_list = _list_goes_on(block[0], in_list) if block else in_list
        block = []
        out.append(line)
    out += _block_cut(block, notes, in_list)
    return ("\n".join(out), notes) if notes else (text, [])


def code_cut(code: str) -> tuple[str, dict[int, Cut]]:
    """``code`` as its block shows it, each line longer than CODE_LINE_SHOWN characters cut there (Copy code
    keeps all of it); and the cut whose note to put after each line cut, by its number (see lines_noted). A
    minified script of 2 MB on one line took 22 s to colour and lay out."""
    if len(code) <= CODE_LINE_SHOWN:
        return code, {}
    lines = code.split("\n")
    shown = [line[:_whole_letters(line, CODE_LINE_SHOWN)] for line in lines]
    notes = {n: Cut(more_note(len(line) - len(start), "character", COPY_CODE), [line[len(start):]], code=True)
             for n, (line, start) in enumerate(zip(lines, shown)) if len(start) < len(line)}
    return ("\n".join(shown), notes) if notes else (code, {})


def lines_noted(coloured: str, notes: dict[int, Cut], colour: str) -> str:
    """The coloured HTML of code_cut's code (a line of it a line of code) with its notes after the lines they
    belong to, in the ``colour`` of muted words: put after the colouring, which read a note in the code as code."""
    if not notes:
        return coloured
    lines = coloured.split("\n")
    for number, cut in notes.items():
        if number < len(lines):
            lines[number] += f' <span style="color:{colour}">{cut.note}</span>'
    return "\n".join(lines)


def notes_shown(body: str, notes: list[Cut], colour: str) -> str:
    """The converter's HTML with each mark of cut_long as its note, in the ``colour`` of muted words."""
    if not notes:
        return body

    def note(match: re.Match[str]) -> str:
        number = int(match.group(1))
        if number >= len(notes):  # the model's own text, not a mark of ours
            return match.group(0)
        return f'<span style="color:{colour}">{notes[number].note}</span>'

    return _MARK_RE.sub(note, body)


def shown_above(head: str, cuts: list[Cut]) -> str:
    """Nothing, for the converter's HTML of the ``head``er row of a long table's piece, which the piece above shows
    (see markdown_render.render's ``headless``): what the cuts marked in it leave out of that row is not this
    piece's text (the cells its rows leave out are)."""
    for number in {int(n) for n in _MARK_RE.findall(head)}:
        if number < len(cuts):
            del cuts[number].left[:1]  # (the row's own; the other rows' follow)
    return ""


def _block_cut(block: list[str], notes: list[Cut], in_list: bool) -> list[str]:
    """The lines of ``block`` as shown: a table's rows cut after TABLE_COLUMNS cells and BLOCK_SHOWN characters,
    each paragraph (or item of a list) cut after BLOCK_SHOWN characters. Code indented by 4 spaces is left whole
    (see code_cut); so is text indented that far under a list item's."""
    if not block or _indented_code(block[0], in_list):
        return block
    if len(block) >= 2 and "|" in block[0] and TABLE_DELIMITER_RE.match(block[1][_LEAD_RE.match(block[1]).end():]):
        return _table_cut(block, notes)
    if sum(map(len, block)) <= BLOCK_SHOWN:
        return block
    out, item = [], 0  # each item of a tight list is a paragraph of its own: a list of 400 short ones is whole
    for i, line in enumerate(block[1:], 1):
        if LIST_ITEM_RE.match(line[quote.end():] if (quote := QUOTE_RE.match(line)) else line):
            out += _paragraph_cut(block[item:i], notes)
            item = i
    return out + _paragraph_cut(block[item:], notes)


def _paragraph_cut(block: list[str], notes: list[Cut]) -> list[str]:
    """The lines of a paragraph, cut after BLOCK_SHOWN characters in all, not counting the spaces and quote marks
    that indent its lines (at a space near there, if any): a list nested hundreds deep is shown whole."""
    sizes = [_size(line) + 1 for line in block]
    whole = sum(sizes) - 1
    if whole <= BLOCK_SHOWN:
        return block
    kept, room = [], BLOCK_SHOWN
    for line, size in zip(block, sizes):
        if size > room:
            kept.append(line[:_cut_point(line, len(line) - size + 1, room)].rstrip())
            break
        kept.append(line)
        room -= size
    left = [block[len(kept) - 1][len(kept[-1]):], *block[len(kept):]]
    kept[-1] += " " + _more(notes, left, whole - sum(_size(line) + 1 for line in kept) + 1, "character")
    return kept


def _cut_point(line: str, lead: int, room: int) -> int:
    """Where to cut ``line``, whose text starts at ``lead``, to show ``room`` characters of it at most: at a space
    near there (a word is not cut in two), before a link or an address that would go on past the cut (it would
    lead to a shortened one), never between a letter and its accents nor inside an emoji or a flag."""
    at = lead + room
    space = line.rfind(" ", max(lead, at - _WORD_BACK), at)
    at = space if space > lead else _whole_letters(line, at)
    if at < len(line) and not line[at].isspace() and (link := _OPEN_LINK_RE.search(line, max(lead, at - room), at)):
        at = link.start()
    return at


def _whole_letters(line: str, at: int) -> int:
    """``at``, or the start of the letter with its accents, or of the emoji sequence or flag, that it would cut."""
    if at >= len(line):
        return len(line)
    while at > 0 and joins_previous(line[at - 1], line[at]):
        at -= 1
    flags = 0
    while at - flags > 0 and _FLAG_HALF <= line[at - flags - 1] <= _FLAG_HALF_END:
        flags += 1
    return at - (flags % 2 if _FLAG_HALF <= line[at] <= _FLAG_HALF_END else 0)


def joins_previous(before: str, char: str) -> bool:
    """Whether ``char`` belongs to the letter or emoji before it (an accent, a variation selector, a joiner)."""
    return (unicodedata.category(char) in ("Mn", "Me", "Mc", "Cf") or before == "\u200d"
            or "\U0001f3fb" <= char <= "\U0001f3ff")  # a skin-tone modifier


def _indented_code(line: str, in_list: bool) -> bool:
    """Whether the block starting with ``line`` is code indented by 4 spaces or a tab (in a quote too): in a list,
    Python-Markdown reads a block indented by 4 as more of the item, one indented by 8 as its code."""
    text = line[quote.end():] if (quote := QUOTE_RE.match(line)) else line
    if _indent(text) < (8 if in_list else 4):
        return False
    return not (in_list and LIST_ITEM_RE.match(text.lstrip(" \t")))


def _list_goes_on(line: str, in_list: bool) -> bool:
    """Whether a list goes on after the block starting with ``line``: it is an item, or indented under one."""
    text = line[quote.end():] if (quote := QUOTE_RE.match(line)) else line
    return in_list if _indent(text) >= 4 else bool(LIST_ITEM_RE.match(text))


def _indent(text: str) -> int:
    spaces = len(text) - len(text.lstrip(" \t"))
    return len(text[:spaces].expandtabs(4))


def _size(line: str) -> int:
    """The characters of ``line`` that are laid out: not the quote marks and spaces that indent it."""
    return len(line) - _LEAD_RE.match(line).end()


def _table_cut(rows: list[str], notes: list[Cut]) -> list[str]:
    """A table's ``rows`` as shown: as many of its first TABLE_COLUMNS columns as the header shows in BLOCK_SHOWN
    characters (one at least), and the note of the others in the header's last cell."""
    ends = _cell_ends(rows[0]) if len(rows[0]) > BLOCK_SHOWN or rows[0].count("|") > TABLE_COLUMNS else []
    columns = min(TABLE_COLUMNS, len(ends))
    while columns > 1 and ends[columns - 1] > BLOCK_SHOWN:
        columns -= 1
    if not ends or columns == len(ends):
        columns = TABLE_COLUMNS
    wide: list[Cut] = []  # the header's cut of the columns not shown, which the other rows' cells join
    return [_row_cut(row, notes, number, columns, wide) for number, row in enumerate(rows)]


def _cell_ends(row: str) -> list[int]:
    """Where each cell of a table's ``row`` ends: at the bar after it, or at the row's end."""
    lead = _LEAD_RE.match(row).end()
    bars = [m.start() for m in _BAR_RE.finditer(row, lead)]
    ends = bars[1:] if row.startswith("|", lead) else bars
    end = len(row.rstrip())
    return ends if ends and ends[-1] == end - 1 else ends + [end]


def _row_cut(row: str, notes: list[Cut], number: int, columns: int, wide: list[Cut]) -> str:
    """Row ``number`` of a table (0: its header, 1: its rule) with its first ``columns`` cells and one more: in
    the header, the note of the columns not shown (put in ``wide``; the cells of the rows under it not shown are
    its too). Cells still longer than BLOCK_SHOWN are cut there."""
    ends = _cell_ends(row) if row.count("|") >= columns else []
    kept, last = row, ""
    if len(ends) > columns:
        kept, rest = row[:ends[columns - 1]], row[ends[columns - 1]:]
        last = "---" if number == 1 else "…"
        if number == 0:
            last = _more(notes, [rest], len(ends) - columns, "column")
            # on one line: wrapped in a column as narrow as its words, it made the header row tall
            notes[-1].note = notes[-1].note.replace(" ", "\u00a0")
            wide.append(notes[-1])
        elif number > 1 and wide:
            wide[0].left.append(rest)
        last = f"| {last} |"
    if len(kept) > BLOCK_SHOWN and number != 1:
        at = _whole_letters(kept, BLOCK_SHOWN)
        kept = kept[:at] + " " + _more(notes, [kept[at:]], len(kept) - at, "character")
    return kept + last


def _more(notes: list[Cut], left: list[str], more: int, what: str) -> str:
    """The mark of a note that ``more`` characters or columns, ``left``, are not shown."""
    notes.append(Cut(more_note(more, what), left))
    return _MARK.format(len(notes) - 1)


def more_note(more: int, what: str, copy: str = "the Copy button") -> str:
    """The note that ``more`` characters (or columns: ``what``) are not shown, and that ``copy`` keeps them: the
    answer's Copy button, not a selection copied (it copies what is shown)."""
    return f"… ({more:,} more {what}{'s' if more != 1 else ''}, {copy} keeps all)"


@dataclass(frozen=True, slots=True)
class Fold:
    """The rows of a long table that a stored answer does not show at first: ``rows``, their Markdown as written,
    which go on from the table's ``header`` (its header row and rule, each with its line end); ``total`` is how
    many rows the table has."""

    header: str
    rows: str
    total: int

    def hidden(self) -> int:
        """How many rows it holds (the table's last may have no line end)."""
        return self.rows.count("\n") + (not self.rows.endswith("\n"))


def table_folds(text: str) -> list[str | Fold]:
    """``text`` in parts, the rows of each long table past its first TABLE_CELLS_SHOWN cells as a Fold; joined, the
    parts' text is ``text``. A stored table of 130 columns and 250 rows took 5 to 8 s to show, every cell
    converted, laid out and drawn (some 0.2 ms each), and held 70 MB more while its chat was open. Only a table at
    the left margin whose lines start with a bar is folded, the kind the streaming view cuts in pieces
    (markdown_cuts.table_cut): the rows shown when asked go on from there."""
    if text.count("|") <= TABLE_CELLS_SHOWN:  # (each cell of such a table has a bar before it)
        return [text]
    lines = text.split("\n")
    parts: list[str | Fold] = []
    fence, i, at, kept = "", 0, 0, 0  # at: where line i starts; kept: where the part being read starts
    while i < len(lines):
        was, fence = fence, fence_after(fence, lines[i])
        if was or fence or i + 2 >= len(lines) or not _table_starts(lines[i], lines[i + 1]):
            at += len(lines[i]) + 1
            i += 1
            continue
        end = i + 2
        while end < len(lines) and lines[end].startswith("|"):
            end += 1
        columns = min(TABLE_COLUMNS, lines[i].strip().strip("|").count("|") + 1)
        shown = max(1, TABLE_CELLS_SHOWN // columns)
        size = sum(len(line) + 1 for line in lines[i:end])
        if end - i - 2 > shown:
            fold_at = at + sum(len(line) + 1 for line in lines[i:i + 2 + shown])
            rows = text[fold_at:min(at + size, len(text))]
            parts += [text[kept:fold_at], Fold(f"{lines[i]}\n{lines[i + 1]}\n", rows, end - i - 2)]
            kept = fold_at + len(rows)
        at += size
        i = end
    return [*parts, text[kept:]] if parts else [text]


def _table_starts(line: str, rule: str) -> bool:
    """Whether a table at the left margin, its lines starting with a bar, starts with ``line`` and ``rule``."""
    return line.startswith("|") and rule.startswith("|") and TABLE_DELIMITER_RE.match(rule) is not None


def fold_note(fold: Fold, colour: str, link: str) -> tuple[str, str]:
    """The note that stands under a table for its rows not shown, in words and in HTML: how many, and a link
    that shows them all."""
    note, show = more_note(fold.hidden(), "row"), f"Show all {fold.total:,} rows"
    link = f'<a style="color:{link}" href="{SHOW_ROWS}:0">{show}</a>'
    return f"{note} · {show}", f'<p style="color:{colour}">{note} · {link}</p>'
