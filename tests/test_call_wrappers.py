"""Lines that only wrap or close a tool call ("<tools>", a second "</tool>") are left out of the answer as shown
(window, copy, export), never inside fenced code; everything else is kept as written."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tinyrag_desktop.chat_export import text_markdown
from tinyrag_desktop.markdown_prep import invalid_blocks

WRAPPERS = ["<tools>", "</tools>", "</tool>", "  </tool> ", "   <tools>"]


def test_wrapper_lines_go_and_the_words_around_them_stay() -> None:
    text = "Let me compute.\n<tools>\n\n</tools>\nIt is 42.\n</tool>\nDone, with </tool> in a sentence."
    shown, found = invalid_blocks(text)
    assert found == [] and shown == "Let me compute.\n\nIt is 42.\nDone, with </tool> in a sentence."


def test_an_example_in_indented_code_keeps_its_lines() -> None:
    # "    <tools>" is a line of an indented code block: the example lost its wrapper lines.
    text = "Example:\n\n    <tools>\n    </tools>\n\tend </tool>\n\t</tool>\n"
    assert invalid_blocks(text) == (text, [])


def test_an_invalid_block_inside_a_wrapper_is_still_marked_and_the_wrapper_goes() -> None:
    shown, found = invalid_blocks('<tools>\n<tool name=""><query>x</query></tool>\n</tools>\nNo call.')
    assert len(found) == 1 and "<tools>" not in shown and "</tools>" not in shown and shown.endswith("No call.")


def test_the_copy_of_an_answer_leaves_them_out_too() -> None:
    assert text_markdown("Here.\n</tool>\nIt is 4.") == "Here.\nIt is 4."


plain = st.text(st.characters(codec="utf-8", exclude_characters="\r\n\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029<`~"),
                max_size=12)


@given(st.lists(st.one_of(plain, st.sampled_from(WRAPPERS)), max_size=25))
def test_only_the_wrapper_lines_go(parts: list[str]) -> None:
    shown, found = invalid_blocks("\n".join(parts))
    lines = [p + "\n" for p in parts[:-1]] + parts[-1:]  # a wrapper line goes with its line break
    assert found == [] and shown == "".join(line for line, p in zip(lines, parts) if p not in WRAPPERS)


@given(st.lists(st.one_of(plain, st.sampled_from(WRAPPERS)), max_size=25), st.sampled_from(["```", "~~~", "````xml"]))
def test_nothing_in_fenced_code_goes(parts: list[str], fence: str) -> None:
    text = "Before.\n" + fence + "\n" + "\n".join(parts) + "\n" + fence.rstrip("xml") + "\nAfter.\n</tools>\n"
    shown, found = invalid_blocks(text)
    assert found == [] and shown == text[: -len("</tools>\n")]
