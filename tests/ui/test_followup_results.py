"""A follow-up question in the window sends the earlier answer's tool results with it: "what was 2**200
again?" came to a model that saw only the earlier call's bare block, and had to run it again or guess."""

from __future__ import annotations

from tests.sse_server import Stream
from tinyrag_desktop.chats import ChatStore

from .conftest import ask_and_wait, tokens

BIG = str(2**200)
CALL = '<tool name="calculate"><query>2**200</query></tool>'


def test_a_follow_up_carries_the_earlier_answers_result_as_results_not_as_its_words(make_window, server, qloop):
    server.queue(Stream(tokens(f"Let me compute. {CALL}")), Stream(tokens("It is a 61-digit number.")),
                 Stream(tokens("It was the number above.")))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, "What is 2**200?")) == "done"
    assert qloop.run(ask_and_wait(win, "What was 2**200 again?")) == "done"

    sent = server.requests[-1]["messages"]
    asked = max(n for n, m in enumerate(sent) if m["content"] == "What is 2**200?")
    earlier = sent[asked + 1:]
    assert [m["role"] for m in earlier] == ["assistant", "user", "assistant", "user"]
    assert earlier[0]["content"] == f"Let me compute. {CALL}"
    assert earlier[1]["content"].startswith("<tool_results>") and BIG in earlier[1]["content"]
    assert earlier[2]["content"] == "It is a 61-digit number."
    assert earlier[3]["content"].startswith("What was 2**200 again?")
    assert not any(BIG in m["content"] for m in sent if m["role"] == "assistant")
    # the window stored the round each call was made in, which is what lets the answer be split
    stored = ChatStore(win.data_dir).messages(win.chat_id)
    assert [t.round for t in stored[1].tools] == [1]
