"""A call the model left open at the end of a round is a block of its own: the next round's words are not in it.

The engine parses each round on its own. The window, Copy, Export and `ask` parsed the whole answer at once,
so round 2's "</tool>" closed round 1's call: one code span from "<tool" to round 2's "</tool>", with a reason
the engine never gave ("the <query> element is not closed"), and no paragraph break between the rounds."""

from __future__ import annotations

import re

from tests.sse_server import Stream
from tinyrag_desktop.chat_export import answer_markdown, export_html, export_markdown
from tinyrag_desktop.chats import ChatStore, StoredMessage

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


COPIED_REASON = "the block was not closed with `</tool>` before the end"  # as Copy writes it: its tag in code
GO = 'package main\n\nimport "fmt"\n\nfunc main() {\n\tfmt.Println("hi")\n}'
GO_CALL = f'<tool name="nanogo"><source>{GO}'


def _reopened(win, qloop):
    chat = win.chat_id
    win.new_chat()
    win.open_chat(chat)
    qloop.run(wait_until(lambda: not win.loading and len(win.view.answers()) == 1))
    return win.view.answers()[-1]


def _follows(answer, *parts: str) -> bool:
    """Whether the window shows ``parts`` one after the other, with only spaces or line breaks between them
    (inline code's line breaks are shown as spaces)."""
    return re.search(r"\s*".join(map(re.escape, parts)), _shown(answer)) is not None


def test_a_program_left_open_in_round_one_leaves_round_two_as_text(make_window, server, qloop):
    # A <source> holds blank lines of its own: no blank line tells where its round ended. The round the
    # window kept tells: round 2's "</tool>" closed the program in a block that took in its words, with a
    # reason the engine never gave ("the <source> element is not closed").
    server.queue(Stream(tokens(f"Let me run {GO_CALL}")), Stream(tokens(ROUND_2)))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, "Run hello world")) == "done"
    answer = win.view.answers()[-1]
    for shown in (answer, None):
        shown = shown or _reopened(win, qloop)
        text = _shown(shown)
        assert f"(a tool call not run: {REASON})" in text and "<source> element" not in text, text
        # the program, then why it did not run, then round 2's words in a paragraph (a segment) of their own
        assert _follows(shown, 'fmt.Println("hi")', "}", f"(a tool call not run: {REASON})\nOops, I forgot"), text
        copied = shown.copy_markdown()
        assert f"{GO}\n```\n\n*(a tool call not run: {COPIED_REASON})*\n\nOops, I forgot the closing" in copied, copied
    store = ChatStore(win.data_dir)
    stored, info = store.messages(win.chat_id)[-1], store.get_chat(win.chat_id)
    assert stored.stats["round_starts"] == [len(f"Let me run {GO_CALL}")]
    markdown, page = export_markdown(info, [stored]), export_html(info, [stored])
    assert f"{COPIED_REASON})*\n\nOops, I forgot the closing" in markdown and "<source>` element" not in markdown
    assert re.search(r"</code> <span class=\"not-run\">\(a tool call not run: the block was not closed with "
                     r"&lt;/tool&gt; before the end\)</span></p>\s*<p>Oops, I forgot", page), page


SAME_ROUND = 'Let me compute <tool name="calculate"><query>2+2\n\nthat is</tool> After all, 2+2 is 4.'
ENGINE_REASON = "the <query> element is not closed"  # what the engine told the model (parse_all)
COPIED_ENGINE_REASON = "the `<query>` element is not closed"


def test_a_call_with_a_blank_line_in_one_round_keeps_the_engines_reason(make_window, server, qloop):
    # The round is known: no blank line is taken for the end of one (which said "not closed with </tool> before
    # the end" of a block that was closed, and showed "that is</tool>" as the answer's words).
    from tinyrag_desktop.protocol import InvalidBlock, parse_all

    assert [e.reason for e in parse_all(SAME_ROUND) if isinstance(e, InvalidBlock)] == [ENGINE_REASON]
    server.queue(Stream(tokens(SAME_ROUND)))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, "What is 2+2?")) == "done"
    for shown in (win.view.answers()[-1], None):
        shown = shown or _reopened(win, qloop)
        text = _shown(shown)
        assert f"(a tool call not run: {ENGINE_REASON})" in text and "before the end" not in text, text
        assert _follows(shown, "2+2", "that is</tool>", f"(a tool call not run: {ENGINE_REASON})", "After all"), text
        copied = shown.copy_markdown()
        assert f"that is</tool>\n```\n\n*(a tool call not run: {COPIED_ENGINE_REASON})*\n\nAfter all" in copied
    store = ChatStore(win.data_dir)
    stored, info = store.messages(win.chat_id)[-1], store.get_chat(win.chat_id)
    assert stored.stats["round_starts"] == []
    for exported in (export_markdown(info, [stored]), export_html(info, [stored])):
        assert COPIED_ENGINE_REASON in exported or "the &lt;query&gt; element is not closed" in exported, exported
        assert "before the end" not in exported


def test_an_answer_stored_before_rounds_were_kept_still_cuts_a_call_left_open_at_a_blank_line():
    # Stored without its rounds' starts, an answer is read as before: a <query> or <url> left open ends at the
    # blank line the engine put before the next round's words.
    text = (f"Let me compute {CALL}\n\n{ROUND_2}\n\nAnd the page: <tool name=\"url_fetch\"><url>https://a.example\n\n"
            "Sorry, </tool> again.")
    old = StoredMessage(1, "assistant", text, stats={"rounds": 3, "tools_run": 0, "elapsed_ms": 5})
    copied = answer_markdown(old)
    assert copied.count("not closed with `</tool>` before the end)*") == 2 and "element is not closed" not in copied
    assert "\n\nOops, I forgot the closing </tool> tag." in copied and "\n\nSorry, </tool> again." in copied
    # a call whose input has a blank line of its own and is closed is still one call, not cut
    from tinyrag_desktop.markdown_prep import guessed_round_starts

    assert guessed_round_starts('<tool name="calculate"><query>2+\n\n2</query></tool>') == []
    # kept, the starts say where the rounds began, and nothing is guessed
    kept = StoredMessage(1, "assistant", SAME_ROUND, stats={"round_starts": []})
    assert f"*(a tool call not run: {COPIED_ENGINE_REASON})*" in answer_markdown(kept)
    assert "before the end)*" in answer_markdown(StoredMessage(1, "assistant", SAME_ROUND))


def test_an_answer_stored_before_rounds_were_kept_opens_as_before(qtbot):
    # An answer stored by an older version (no round_starts in its stats) is shown as Copy gives it: the
    # round's start guessed at the blank line after the call left open, each part in a segment of its own.
    from tinyrag_desktop.ui.answer import AnswerWidget

    old = StoredMessage(1, "assistant", f"Let me compute {CALL}\n\n{ROUND_2}",
                        stats={"rounds": 2, "tools_run": 0, "elapsed_ms": 5})
    answer = AnswerWidget.from_stored(old)
    qtbot.add_widget(answer)
    _check_shown(answer)
    assert answer.copy_markdown() == answer_markdown(old) and "round_starts" not in answer.as_stored().stats


def test_a_round_taken_back_in_part_keeps_its_own_segment(qtbot):
    # Round 2's first words were the model's reasoning (its template opened <think>): taken back, the text is
    # shown again from the start, and round 2 still starts a segment of its own where it began.
    from tinyrag_desktop.engine.events import Done
    from tinyrag_desktop.ui.answer import AnswerWidget

    answer = AnswerWidget()
    qtbot.add_widget(answer)
    answer.set_round(1)
    answer.append_text(f"Let me compute {CALL}")
    answer.set_round(2)
    answer.append_text("\n\n")
    answer.append_text("I should close it")
    answer.retract("I should close it", "text")
    answer.append_text(ROUND_2)
    answer.finish(Done(2, 0, 10))
    _check_shown(answer)
    assert answer.stats["round_starts"] == [len(f"Let me compute {CALL}")]


def test_a_program_left_open_in_an_answer_stored_before_rounds_were_kept_leaves_round_two_as_text(qtbot):
    # A <source> holds blank lines of its own, so none was taken for a round's end: reopened, an older answer
    # showed round 2's words in the program's block, "the <source> element is not closed". The round's end is
    # guessed at the blank line before the first sentence (no line of Go starts as one does).
    from tinyrag_desktop.ui.answer import AnswerWidget

    text = f"Let me run {GO_CALL}\n\n{ROUND_2}"
    old = StoredMessage(1, "assistant", text, stats={"rounds": 2, "tools_run": 0, "elapsed_ms": 5})
    new = StoredMessage(1, "assistant", text, stats={"rounds": 2, "tools_run": 0, "elapsed_ms": 5,
                                                     "round_starts": [len(f"Let me run {GO_CALL}")]})
    answer = AnswerWidget.from_stored(old)
    qtbot.add_widget(answer)
    shown = _shown(answer)
    assert f"(a tool call not run: {REASON})" in shown and "<source> element" not in shown, shown
    assert _follows(answer, 'fmt.Println("hi")', "}", f"(a tool call not run: {REASON})\nOops, I forgot"), shown
    assert answer.copy_markdown() == answer_markdown(old) == answer_markdown(new)


def test_no_round_end_is_guessed_in_a_program_whose_blank_lines_are_followed_by_go():
    from tinyrag_desktop.markdown_prep import guessed_round_starts

    whole = '<tool name="nanogo"><source>package main\n\nimport "fmt"\n\nfunc main() {\n\n\tfmt.Println(1)\n}'
    assert guessed_round_starts(whole) == []
    assert guessed_round_starts(f"{whole}\n\nThe program prints 1.") == [len(whole)]
    # words in a raw string or a block comment are the program's, not a next round's
    for inside in ('const help = `Usage: run it\n\nPrints the answer to the question.`\n',
                   "/* Notes\n\nThis program prints one. */\n"):
        assert guessed_round_starts(f'<tool name="nanogo"><source>{inside}func main() {{}}') == []
    # a program stopped in mid-line, at the end of the answer, stays whole
    assert guessed_round_starts('<tool name="nanogo"><source>package main\n\nfunc main() {\n\tfmt.Pri') == []
