"""Names and titles in the order a person reads them: numbers by their value, letters casefolded (the
knowledge panel's Title column, and the files of a folder as it is imported)."""

from __future__ import annotations

import re
import unicodedata

# A number, or a section number ("1.4", "2.10.3"): one piece, its numbers compared in turn
_NUMBER = re.compile(r"(\d+(?:\.\d+)*)")


def natural_key(text: str) -> tuple[list[object], str, str]:
    """``text`` as a person sorts it: numbers by their value ("11.2" before "11.10", chapter 2 before 19),
    section numbers as a book orders them (1. < 1.1. < 1.4. < 2. < 10.), letters casefolded.

    A section number is one tuple of numbers, not a number, a "." and a number: split apart, "1. What Is"
    gave its text ". what is" where "1.4. Accessing" gave "." then 4, and ". what is" came after ".". Text
    and tuples alternate in the same places of every key (text first, maybe empty), so any two keys compare;
    the whole casefolded text settles ties ("2" and "02"), then the text itself: names equal but for case
    ("Notes.md" and "notes.md") come in the same order whatever order the folder listed them in."""
    folded = text.casefold()
    parts: list[object] = _NUMBER.split(folded)
    parts[1::2] = [tuple(_number_key(number) for number in section.split(".")) for section in parts[1::2]]
    return parts, folded, text


def _number_key(digits: str) -> tuple[int, str]:
    """Orders numbers by value, of any length and in any script's digits: ``int()`` refuses a number of over
    4,300 digits (a title of them stopped the sort), so a number is its count of digits, then its digits."""
    if not digits.isascii():
        digits = "".join(str(unicodedata.decimal(digit)) for digit in digits)
    digits = digits.lstrip("0")
    return len(digits), digits
