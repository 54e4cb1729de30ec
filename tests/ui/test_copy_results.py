"""Copy answer and Export show what each call returned (its first lines), not only that it ran: the value
a calculation gave, a program's output. A failed or skipped call shows its reason alone."""

from __future__ import annotations

from tinyrag_desktop.chat_export import answer_markdown, export_html, export_markdown
from tinyrag_desktop.chats import ChatInfo, StoredMessage, StoredTool


def _answer(*tools: StoredTool) -> StoredMessage:
    return StoredMessage(2, "assistant", "It is 33.", tools=tools)


CALC = StoredTool("c1", "calculate", "3 * (17 + 5) / 2", "ok", source="calculator", result="3 * (17 + 5) / 2 = 33")
OUTPUT = "".join(f"line {n}\n" for n in range(100))
GO = StoredTool("c2", "nanogo", "package main…", "ok", "source", source="nanoGo", result=OUTPUT)


def test_a_copied_answer_shows_the_value_and_the_first_lines_of_an_output() -> None:
    text = answer_markdown(_answer(CALC, GO))
    assert "> ```text\n> 3 * (17 + 5) / 2 = 33\n> ```" in text
    shown = [line for line in text.splitlines() if line.startswith("> line ")]
    assert shown == [f"> line {n}" for n in range(8)]
    left = len(OUTPUT.strip("\n")) - len("\n".join(f"line {n}" for n in range(8)))
    assert f"> *({left:,} more characters of the result left out)*" in text


def test_backticks_in_a_result_do_not_end_its_block_and_failed_calls_show_no_result() -> None:
    ticks = StoredTool("c3", "url_fetch", "http://x", "ok", "url", source="http://x", result="use ```code``` here")
    failed = StoredTool("c4", "url_fetch", "http://y", "error", "url", error="The page was not found (404).",
                        result="not shown")
    text = answer_markdown(_answer(ticks, failed))
    assert "> ````text\n> use ```code``` here\n> ````" in text
    assert "not shown" not in text and "The page was not found (404)." in text


def test_export_shows_the_results_too() -> None:
    chat = ChatInfo("1", "Sums", "", "2026-01-01", "2026-01-01")
    question = StoredMessage(1, "user", "What is it?")
    md = export_markdown(chat, [question, _answer(CALC, GO)])
    assert "> 3 * (17 + 5) / 2 = 33" in md and "> line 7" in md and "> line 8" not in md
    page = export_html(chat, [question, _answer(CALC, GO)])
    assert '<pre class="out" dir="auto">3 * (17 + 5) / 2 = 33</pre>' in page
    assert "line 7\n</pre>" not in page and "line 7</pre>" in page and "more characters of the result left out" in page


def test_a_tool_that_is_off_is_copied_as_off_with_its_setting() -> None:
    off = StoredTool("c5", "nanogo", "package main", "error", "source", error=(
        "The tool nanogo is disabled: enable 'Allow Go code (nanoGo)' in Settings or pass --allow-nanogo."))
    text = answer_markdown(_answer(off))
    assert "> ✗ **Go program** (off)\n> ```go\n> package main\n> ```" in text  # the program in a go block
    assert "> This tool is off. Turn on “Allow Go code (nanoGo)” in Settings to use it." in text
    assert "--allow-nanogo" not in text


def test_spaces_a_result_ends_its_lines_with_are_not_said_to_be_left_out() -> None:
    # A program printing padded columns ("%-10s"): all of it is shown, so nothing is said to be left out.
    padded = StoredTool("c6", "nanogo", "package main…", "ok", "source", source="nanoGo",
                        result="a         \nb         \nc         \n")
    text = answer_markdown(_answer(padded))
    assert "> a\n> b\n> c\n" in text and "left out" not in text
    one_more = StoredTool("c7", "nanogo", "package main…", "ok", "source", source="nanoGo",
                          result="".join(f"line {n}   \n" for n in range(8)) + "x  \n")
    text = answer_markdown(_answer(one_more))
    assert "> *(2 more characters of the result left out)*" in text  # the line break and "x"
    last = StoredTool("c8", "nanogo", "package main…", "ok", "source", source="nanoGo",
                      result="".join(f"line {n}\n" for n in range(8)) + "\n")
    assert "left out" not in answer_markdown(_answer(last))


def test_one_character_left_out_is_said_in_the_singular() -> None:
    from tinyrag_desktop.tool_copy import left_out

    assert left_out(1, "of the result") == "1 more character of the result left out"
    assert left_out(1234, "of the error") == "1,234 more characters of the error left out"
