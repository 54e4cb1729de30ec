"""What the window lays out of a paragraph, line or table row too long to lay out at once: its start, and a note
that says how much more there is (Copy and Export keep all of it, from the answer's source). No Qt here.

A single line of 2 MB took 2.3 s to show, a table row of 5,000 columns 1.9 s, and 20,000 "&amp;" in one
paragraph 1.6 s (Python-Markdown rebuilds the paragraph's text at each entity, code span or emphasis it reads):
the window froze meanwhile, and again at each frame while such a text streamed in."""

from __future__ import annotations

import re

from ..markdown_prep import FENCE_RE, TABLE_DELIMITER_RE

# Characters of a paragraph (a block of lines with no blank one) shown at most: some 10 ms to lay out.
BLOCK_SHOWN = 10_000
# Characters of a line of code shown at most: coloured, it costs some 6 ms a thousand to show.
CODE_LINE_SHOWN = 5_000
# Columns of a table shown at most: Qt lays out some 12 cells a millisecond, every row of them.
TABLE_COLUMNS = 100
# Stands for the note of each cut while Markdown is converted (see notes_shown), numbered.
_MARK = "TINYRAGMORE{}X"
_MARK_RE = re.compile(r"TINYRAGMORE(\d+)X")
_BAR_RE = re.compile(r"(?<!\\)\|")  # a cell's edge ("\|" is a bar in a cell)
_LEAD_RE = re.compile(r"[ \t>]*")  # a line's indent: in lists, in quotes
# How far back from the cut a space is looked for, so that a word is not cut in two.
_WORD_BACK = 200


def cut_long(text: str) -> tuple[str, list[str]]:
    """``text`` with each paragraph longer than BLOCK_SHOWN characters cut there and each table row of more than
    TABLE_COLUMNS cells cut after them, a mark in place of what is left out; and the notes the marks stand for
    ("… (1,980,000 more characters, Copy keeps all)"). Code in a fenced block is left to code_cut.
    An ordinary answer's text is returned as it is."""
    if len(text) <= BLOCK_SHOWN and text.count("|") <= TABLE_COLUMNS:
        return text, []
    lines = text.split("\n")
    out: list[str] = []
    notes: list[str] = []
    fence, block = "", []  # the lines of the block being read (outside code)
    for line in lines:
        if fence:
            m = FENCE_RE.match(line)
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence) and not m.group(2).strip():
                fence = ""
            out.append(line)
        elif not line.strip() or (m := FENCE_RE.match(line)):
            out += _block_cut(block, notes)
            block = []
            fence = m.group(1) if line.strip() else ""
            out.append(line)
        else:
            block.append(line)
    out += _block_cut(block, notes)
    return ("\n".join(out), notes) if notes else (text, [])


def code_cut(code: str) -> tuple[str, dict[int, str]]:
    """``code`` as its block shows it, each line longer than CODE_LINE_SHOWN characters cut there (Copy code
    keeps all of it); and the note to put after each line cut, by its number (see lines_noted). A minified
    script of 2 MB on one line took 22 s to colour and lay out."""
    if len(code) <= CODE_LINE_SHOWN:
        return code, {}
    lines = code.split("\n")
    notes = {n: _note(len(line) - CODE_LINE_SHOWN, "character") for n, line in enumerate(lines)
             if len(line) > CODE_LINE_SHOWN}
    return ("\n".join(line[:CODE_LINE_SHOWN] for line in lines), notes) if notes else (code, {})


def lines_noted(coloured: str, notes: dict[int, str], colour: str) -> str:
    """The coloured HTML of code_cut's code (a line of it a line of code) with its notes after the lines they
    belong to, in the ``colour`` of muted words: put after the colouring, which read a note in the code as code."""
    if not notes:
        return coloured
    lines = coloured.split("\n")
    for number, note in notes.items():
        if number < len(lines):
            lines[number] += f' <span style="color:{colour}">{note}</span>'
    return "\n".join(lines)


def notes_shown(body: str, notes: list[str], colour: str) -> str:
    """The converter's HTML with each mark of cut_long as its note, in the ``colour`` of muted words."""
    if not notes:
        return body

    def note(match: re.Match[str]) -> str:
        number = int(match.group(1))
        if number >= len(notes):  # the model's own text, not a mark of ours
            return match.group(0)
        return f'<span style="color:{colour}">{notes[number]}</span>'

    return _MARK_RE.sub(note, body)


def _block_cut(block: list[str], notes: list[str]) -> list[str]:
    """The lines of ``block`` as shown: a table's rows cut after TABLE_COLUMNS cells and BLOCK_SHOWN characters,
    another block cut after BLOCK_SHOWN characters in all, not counting the spaces and quote marks that indent its
    lines (at a space near there, if any): a list nested hundreds deep is shown whole (see nest_lists)."""
    if len(block) >= 2 and "|" in block[0] and TABLE_DELIMITER_RE.match(block[1].strip()):
        return [_row_cut(row, notes, i) for i, row in enumerate(block)]
    sizes = [_size(line) + 1 for line in block]
    whole = sum(sizes) - 1
    if whole <= BLOCK_SHOWN:
        return block
    kept, room = [], BLOCK_SHOWN
    for line, size in zip(block, sizes):
        if size > room:
            at = len(line) - size + 1 + room
            end = line.rfind(" ", at - _WORD_BACK, at)
            kept.append(line[:end if end > at - room else at])
            break
        kept.append(line)
        room -= size
    kept[-1] += " " + _more(notes, whole - sum(_size(line) + 1 for line in kept) + 1, "character")
    return kept


def _size(line: str) -> int:
    """The characters of ``line`` that are laid out: not the quote marks and spaces that indent it."""
    return len(line) - _LEAD_RE.match(line).end()


def _row_cut(row: str, notes: list[str], number: int) -> str:
    """Row ``number`` of a table (0: its header, 1: its rule) with its first TABLE_COLUMNS cells and one more: in
    the header, the note of the columns not shown. A row still longer than BLOCK_SHOWN is cut there."""
    bars = [m.start() for m in _BAR_RE.finditer(row)] if row.count("|") > TABLE_COLUMNS else []
    opened = row.lstrip().startswith("|")
    cells = len(bars) + (0 if opened else 1) - (1 if row.rstrip().endswith("|") and len(bars) > 1 else 0)
    if cells > TABLE_COLUMNS:
        last = _more(notes, cells - TABLE_COLUMNS, "column") if number == 0 else "---" if number == 1 else "…"
        if number == 0:  # on one line: wrapped in a column as narrow as its words, it made the header row tall
            notes[-1] = notes[-1].replace(" ", "\u00a0")
        row = f"{row[:bars[TABLE_COLUMNS - (0 if opened else 1)]]}| {last} |"
    if len(row) > BLOCK_SHOWN and number != 1:
        row = row[:BLOCK_SHOWN] + " " + _more(notes, len(row) - BLOCK_SHOWN, "character")
    return row


def _more(notes: list[str], more: int, what: str) -> str:
    """The mark of a note that ``more`` characters or columns are not shown."""
    notes.append(_note(more, what))
    return _MARK.format(len(notes) - 1)


def _note(more: int, what: str) -> str:
    return f"… ({more:,} more {what}{'s' if more != 1 else ''}, Copy keeps all)"
