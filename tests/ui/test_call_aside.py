"""A call written in another app's format shows as the model wrote it, then why it did not run."""

from __future__ import annotations

from tests.sse_server import Stream
from tinyrag_desktop.engine import advice

from .conftest import ask_and_wait, tokens

WRITTEN = '<tool_call>\n{"name": "calculate", "arguments": {"query": "6*7"}}\n</tool_call>'


def test_the_reader_is_told_why_a_call_in_another_format_did_not_run(make_window, server, qloop):
    server.queue(Stream(tokens("Let me compute.\n" + WRITTEN, 4)),
                 Stream(tokens('<tool name="calculate"><query>6*7</query></tool>', 4)), Stream(tokens("It is 42.", 3)))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, "what is 6*7?")) == "done"
    answer = win.view.answers()[-1]
    shown = "\n".join(seg.toPlainText() for seg in answer.segments())
    # Before, the JSON stood in the answer with no word, above the card.
    assert advice.FOREIGN_ASIDE in shown and "*(" not in shown  # set in italics, not with its stars
    assert shown.index('"name": "calculate"') < shown.index(advice.FOREIGN_ASIDE) < shown.index("It is 42.")


def test_a_wrapper_around_a_call_and_a_second_end_tag_leave_no_loose_markup(make_window, server, qloop):
    # Some models wrap their calls in <tools>…</tools>, or close one twice: the tags stood around the card.
    call = '<tool name="calculate"><query>6*7</query></tool>'
    server.queue(Stream(tokens(f"Let me compute.\n<tools>\n{call}</tool>\n</tools>", 4)),
                 Stream(tokens("It is 42.\n```xml\n<tools>\n</tool>\n```\nDone.", 3)))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, "what is 6*7?")) == "done"
    first, second = [seg.toPlainText() for seg in win.view.answers()[-1].segments()]
    assert first == "Let me compute."
    assert second.startswith("It is 42.") and second.rstrip().endswith("Done.")
    assert "<tools>\n</tool>" in second  # in code, as written
