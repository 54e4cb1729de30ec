"""A call the model left open at the end of a round is a block of its own: the next round's words are not in it.

The engine parses each round on its own. The window, Copy, Export and `ask` parsed the whole answer at once,
so round 2's "</tool>" closed round 1's call: one code span from "<tool" to round 2's "</tool>", with a reason
the engine never gave ("the <query> element is not closed"), and no paragraph break between the rounds."""

from __future__ import annotations

from tests.sse_server import Stream
from tinyrag_desktop.chat_export import export_html, export_markdown
from tinyrag_desktop.chats import ChatStore

from .conftest import ask_and_wait, tokens, wait_until

CALL = '<tool name="calculate"><query>2+2'
ROUND_2 = "Oops, I forgot the closing </tool> tag. Anyway, 2+2 is 4."
REASON = "the block was not closed with </tool> before the end"


def _shown(answer) -> str:
    return "\n".join(seg.toPlainText() for seg in answer.segments())


def _check_shown(answer) -> None:
    text = _shown(answer)
    assert f"{CALL}\n(a tool call not run: {REASON})" in text.replace(" (a tool", "\n(a tool"), text
    assert "not closed with </tool> before the end)\n\nOops" in text or "end)\nOops" in text, text
    assert "<query> element is not closed" not in text
    html = "".join(seg.toHtml() for seg in answer.segments())
    assert "Oops, I forgot" in html and "2+2\n\nOops" not in html and "2+2 Oops" not in html


def test_a_call_left_open_in_round_one_leaves_round_two_as_text(make_window, server, qloop):
    server.queue(Stream(tokens(f"Let me compute {CALL}")), Stream(tokens(ROUND_2)))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, "What is 2+2?")) == "done"
    answer = win.view.answers()[-1]
    _check_shown(answer)
    copied = answer.copy_markdown()
    assert "<query>2+2` *(a tool call not run: the block was not closed with" in copied
    assert "element is not closed" not in copied and "before the end)*\n\nOops, I forgot" in copied
    stored = ChatStore(win.data_dir).messages(win.chat_id)[-1]
    info = ChatStore(win.data_dir).get_chat(win.chat_id)
    for exported in (export_markdown(info, [stored]), export_html(info, [stored])):
        assert "not closed with" in exported and "element is not closed" not in exported
        assert "Oops, I forgot" in exported
    chat = win.chat_id
    win.new_chat()
    win.open_chat(chat)
    qloop.run(wait_until(lambda: not win.loading and len(win.view.answers()) == 1))
    again = win.view.answers()[-1]
    _check_shown(again)
    assert again.copy_markdown() == copied


def test_each_round_left_in_an_open_call_gets_its_own_block_and_reason():
    from tinyrag_desktop.markdown_prep import invalid_blocks

    text = (f"Let me compute {CALL}\n\n{ROUND_2}\n\nAnd the page: <tool name=\"url_fetch\"><url>https://a.example\n\n"
            "Sorry, </tool> again.")
    shown, found = invalid_blocks(text)
    assert found == [(CALL, REASON), ('<tool name="url_fetch"><url>https://a.example', REASON)]
    assert "\n\nOops, I forgot the closing </tool> tag." in shown and "\n\nSorry, </tool> again." in shown
    # a call whose input has a blank line of its own and is closed is still one call, not cut
    assert invalid_blocks('<tool name="calculate"><query>2+\n\n2</query></tool>')[1] == []
