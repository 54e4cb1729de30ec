"""A command as the person asked to run it should see it: what would hide a part of it made visible.

A model (steered by a page or a document) can write a command whose dangerous part does not show where it is
asked about: 40 blank lines after ``ls -la`` put ``curl … | sh`` out of the box's sight, a right-to-left
override (U+202E) shows the characters after it in another order than they run, a carriage return or a
zero-width space hides itself. Here each such character is shown as a mark (``‹U+202E›``), and a run of
blank lines or spaces as its count (``‹40 blank lines›``); the command run is the one written.
"""

from __future__ import annotations

import re
import unicodedata

BLANK_LINES_KEPT = 2  # blank lines in a row inside a command shown as they are; more are said by their count
SPACES_KEPT = 16  # spaces or tabs in a row shown as they are (an indented script); more are counted

# control characters, format characters (bidi controls, zero-width spaces, soft hyphen), line and paragraph
# separators (Qt breaks the line at them), surrogates: none of them shows as itself
_HIDDEN = ("Cc", "Cf", "Zl", "Zp", "Cs")
# Spaces other than " " (no-break, ideographic, em…): a shell reads them as part of a word, but a run of
# them pushes what follows out of sight as ordinary spaces do; in a command each is marked, a long run
# counted (a card's query keeps them: "10 000" in a calculation is no trick).
_OTHER_SPACE = "\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000"
_SPACES = re.compile(r"[ \t%s]{%d,}" % (_OTHER_SPACE, SPACES_KEPT + 1))
_OTHER_SPACE_RE = re.compile(f"[{_OTHER_SPACE}]")


def mark(ch: str) -> str:
    """``ch`` as a visible mark: ‹U+202E›."""
    return f"‹U+{ord(ch):04X}›"


def first_hidden(text: str) -> str:
    """The first character in ``text`` that does not show as itself, as "U+202E"; "" when there is none."""
    return next((f"U+{ord(ch):04X}" for ch in text if unicodedata.category(ch) in _HIDDEN), "")


def marked(text: str) -> str:
    """``text`` with each character that does not show as itself as a mark (line breaks and tabs kept)."""
    return "".join(mark(ch) if ch not in "\n\t" and unicodedata.category(ch) in _HIDDEN else ch for ch in text)


# What makes a name (a source's title, a file's name) read otherwise than its letters run: a bidi override
# (U+202D, U+202E), and control characters (a tab or a line break is a space in a name). Embeddings and isolates
# (U+202A-202C, U+2066-2069) are a name's own, as other format characters are (a soft hyphen, the joiner of an
# emoji): Word, web pages and translated apps put them around a Latin name in a Hebrew or Arabic title. A command
# is held to more (marked, visible_command): each of them is marked there.
_REORDERS_OR_HIDES = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202d\u202e]")


def shown_name(text: str) -> str:
    """A name on one line, each character in it that would reorder the letters after it, or hide itself, as a
    mark: "invoice\u202egpj.exe" read "invoiceexe.jpg", now "invoice‹U+202E›gpj.exe"."""
    if _REORDERS_OR_HIDES.search(text) is None:
        return text
    return " ".join(_REORDERS_OR_HIDES.sub(lambda m: mark(m.group()), text).split())


def input_line(text: str) -> str:
    """A call's input on one line, a bidi override or a carriage return in it as a mark (‹U+202E›): a command
    read otherwise than it runs."""
    return " ".join(marked(text).split())


def _blank(count: int) -> str:
    return f"‹{count} blank line{'s' if count != 1 else ''}›"


def visible_command(text: str) -> str:
    """``text`` with its hidden characters as marks, a long run of spaces as ‹N spaces›, and blank lines before
    its first words, or more than BLANK_LINES_KEPT in a row, as ‹N blank lines› (a few at its end are left out:
    they hide nothing)."""
    shown_chars = _OTHER_SPACE_RE.sub(lambda m: mark(m.group()),
                                      marked(_SPACES.sub(lambda m: f"‹{len(m.group())} spaces›", text)))
    shown: list[str] = []
    run = 0  # blank lines met since the last line with words
    lines = shown_chars.split("\n")
    if len(lines) > 1 and not lines[-1]:
        lines.pop()  # the line break that ends the last line: no line of its own
    for line in lines:
        if not line.strip():
            run += 1
            continue
        if run:  # above the first words, any blank line pushes them down: counted
            shown += [_blank(run)] if not shown or run > BLANK_LINES_KEPT else [""] * run
        shown.append(line)
        run = 0
    if run > BLANK_LINES_KEPT or (run and not shown and text):  # at the end: only many (one is "\n")
        shown.append(_blank(run))
    return "\n".join(shown)
