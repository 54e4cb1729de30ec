"""A program's output as a terminal shows it (terminal_text): a long progress line costs its length, not its
length times its carriage returns, and right-to-left text keeps its isolates and embeddings unmarked."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tinyrag_desktop.tools import console_text
from tinyrag_desktop.tools.console_text import terminal_text


def _overwritten_by_each_part(line: str) -> str:
    """The carriage returns as a terminal does them, one part at a time over the whole line (the old way)."""
    shown = ""
    for part in line.split("\r"):
        shown = part + shown[len(part):]
    return shown


@given(st.text(alphabet="ab\r€", max_size=40))
def test_a_line_s_carriage_returns_leave_what_a_terminal_leaves(line: str) -> None:
    assert console_text._overwritten(line) == _overwritten_by_each_part(line)


class _Counted(str):
    """A str that counts the characters each slice and join of it makes."""

    made = 0

    def __getitem__(self, key):  # type: ignore[override]
        part = _Counted(str.__getitem__(self, key))
        _Counted.made += len(part)
        return part

    def __add__(self, other):  # type: ignore[override]
        joined = _Counted(str.__add__(self, other))
        _Counted.made += len(joined)
        return joined

    def split(self, *args):  # type: ignore[override]
        return [_Counted(part) for part in str.split(self, *args)]


def test_a_long_line_with_many_carriage_returns_is_read_once() -> None:
    # A 1 MB line and 100,000 "\r" took 13 s on the window's thread: each part copied the whole line so far.
    _Counted.made = 0
    small = _Counted("a" * 10_000 + "\rb" * 1_000)
    assert console_text._overwritten(small) == "b" + "a" * 9_999
    assert _Counted.made <= 3 * len(small), _Counted.made  # was 10 million characters made for 12,000
    assert terminal_text("a" * 1_000_000 + "\rb" * 100_000) == "b" + "a" * 999_999


def test_right_to_left_output_keeps_its_isolates_and_an_override_is_still_marked() -> None:
    # A translated program (Fluent) wraps each name in U+2068 ... U+2069: each showed as a mark, for the model too.
    fluent = "שלום \u2068Dana\u2069, \u202bעולם\u202c\n"
    assert terminal_text(fluent + "\x07") == fluent + "␇"
    assert terminal_text("\u2066x\u202ey\u2069") == "\u2066x‹U+202E›y\u2069"
    assert terminal_text("\u202devil") == "‹U+202D›evil"
