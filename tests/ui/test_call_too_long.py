"""A tool block past the parser's 200,000 characters: the window sets it in code whole, to its </tool>, and says
why it was not run, as `ask` does; the model is asked again."""

from __future__ import annotations

from tests.sse_server import Stream

from .conftest import ask_and_wait

HUGE = '<tool name="calculate"><query>' + "1+" * 110_000 + "1</query></tool>"
REASON = "no </tool> within 200000 characters"


def test_a_block_past_the_limit_is_shown_in_code_with_why_it_was_not_run(make_window, server, qloop):
    # Its first 200,000 characters were plain text, its end in the prose, and no reason was given
    server.queue(Stream(["Try ", *(HUGE[at : at + 8192] for at in range(0, len(HUGE), 8192))]),
                 Stream(["It is 4."]))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, "What is 2+2?", timeout=60)) == "done"
    answer = win.view.answers()[-1]
    text = "\n".join(seg.toPlainText() for seg in answer.segments())
    assert text.count(f"(a tool call not run: {REASON})") == 1 and text.rstrip().endswith("It is 4.")
    copied = answer.copy_markdown()
    assert copied == f"Try `{HUGE}` *(a tool call not run: no `</tool>` within 200000 characters)*\n\nIt is 4.\n"
