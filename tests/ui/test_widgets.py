"""ToolCard, MarkdownSegment and AnswerWidget driven by hand-made engine events, offscreen."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QGuiApplication, QTextCursor, QTextLength, QTextTable

from tinyrag_desktop.chats import StoredMessage, StoredTool
from tinyrag_desktop.engine.events import Done, Route, ToolFinished, ToolStarted
from tinyrag_desktop.ui.answer import AnswerWidget
from tinyrag_desktop.ui.markdown_render import DARK
from tinyrag_desktop.ui.segments import MarkdownSegment
from tinyrag_desktop.ui.toolcard import ToolCard


def _finished(id_, tool, query, status, error=None, result="", source=""):
    return ToolFinished(id_, tool, query, source, error, len(result), status, 12, result=result)


def test_tool_card_properties_and_states_in_words(qtbot):
    card = ToolCard("t1", "websearch", "tinyRAG   streaming\narchitecture")
    qtbot.addWidget(card)
    assert card.property("tool_name") == "websearch"
    assert card.property("query_preview") == "tinyRAG streaming architecture"
    assert card.property("status") == "running"
    assert card.accessibleName() == "Tool: Web search, running"
    with qtbot.waitSignal(card.statusChanged) as sig:
        card.finish("error", error="The search engine did not answer.")
    assert sig.args == ["error"] and card.status == "error"
    assert card.accessibleName() == "Tool: Web search, failed"
    assert "The search engine did not answer." in card.accessibleDescription()
    card2 = ToolCard("t2", "nanogo", "fmt.Println(1)", "source")
    qtbot.addWidget(card2)
    card2.finish("skipped", error="nanoGo is off in Settings.")
    assert card2.status == "skipped" and "Reason: nanoGo is off" in card2.accessibleDescription()


def test_tool_card_expands_on_click_and_space(qtbot):
    card = ToolCard("t1", "url_fetch", "https://example.org/a", "url")
    qtbot.addWidget(card)
    card.show()
    card.finish("ok", source="https://example.org/a", result="Example Domain text")
    qtbot.mouseClick(card, Qt.MouseButton.LeftButton)
    assert card.expanded
    details = card.details_text()
    assert "https://example.org/a" in details and "Example Domain text" in details
    card.setFocus()
    qtbot.keyClick(card, Qt.Key.Key_Space)
    assert not card.expanded


def test_answer_streams_in_order_with_cards_between_segments(qtbot):
    answer = AnswerWidget()
    qtbot.addWidget(answer)
    answer.show()
    answer.on_route(Route("tools", "asks for a sum", ("calculate",)))
    answer.append_reasoning("I should compute.")
    answer.append_text("Let me compute.\n\n")
    answer.tool_started(ToolStarted("c1", "calculate", "6 * 7"))
    answer.tool_finished(_finished("c1", "calculate", "6 * 7", "ok", result="42"))
    for piece in ["The ", "answer ", "is **42**."]:
        answer.append_text(piece)
    with qtbot.waitSignal(answer.rendered):
        pass
    answer.finish(Done(2, 1, 1500))
    assert answer.content() == "Let me compute.\n\nThe answer is **42**."
    [before, card, after] = answer.parts()
    assert isinstance(card, ToolCard) and card.status == "done"
    assert before.markdown() == "Let me compute.\n\n" and after.markdown() == "The answer is **42**."
    assert "The answer is 42." in after.toPlainText()  # rendered, not shown as raw Markdown
    assert answer.footer() == "2 rounds · 1 tool run · 1.5 s"
    assert answer.reasoning() == "I should compute."
    md = answer.to_markdown()
    assert md.index("Let me compute.") < md.index("**Calculator**") < md.index("The answer is")


def test_updates_are_coalesced_and_segments_stay_short(qtbot):
    answer = AnswerWidget()
    qtbot.addWidget(answer)
    answer.show()
    answer.render_times = []
    text = ("A paragraph of streamed words that keeps going for a while.\n\n" * 300)
    for i in range(0, len(text), 4):
        answer.append_text(text[i:i + 4])
    assert answer.render_times == []  # nothing renders until the frame timer fires
    with qtbot.waitSignal(answer.rendered, timeout=5000):
        pass
    # a burst is rendered in bounded steps, one segment closed per step, between which Qt stays responsive
    qtbot.waitUntil(lambda: not answer.has_pending(), timeout=5000)
    assert 1 < len(answer.render_times) <= len(answer.segments()) + 1
    assert "".join(s.markdown() for s in answer.segments()) == text
    assert max(len(s.markdown()) for s in answer.segments()) < 4000
    assert len(answer.segments()) > 5


def test_copy_code_block_and_answer_as_markdown(qtbot):
    answer = AnswerWidget()
    qtbot.addWidget(answer)
    answer.append_text("Run this:\n\n```sh\necho hi\n```\n")
    answer.flush()
    seg = answer.segments()[0]
    with qtbot.waitSignal(answer.copied) as sig:
        seg.copy_code(0)
    assert sig.args == ["echo hi\n"] and QGuiApplication.clipboard().text() == "echo hi\n"
    assert answer.copy_markdown().startswith("Run this:")


def test_a_long_word_selected_and_copied_has_no_break_points(qtbot):
    # the view puts zero-width spaces into a word too long for a line so that it wraps; a hash or a base64
    # blob selected with the mouse and copied must still be the one the answer wrote
    blob = "QmFzZTY0" * 60
    answer = AnswerWidget()
    qtbot.addWidget(answer)
    answer.append_text(f"The key is {blob} and that is all.")
    answer.flush()
    seg = answer.segments()[0]
    assert "\u200b" in seg.toPlainText()  # what is shown has break points
    seg.selectAll()
    seg.copy()
    assert QGuiApplication.clipboard().text() == f"The key is {blob} and that is all."
    assert "\u200b" not in QGuiApplication.clipboard().mimeData().html()
    cursor = seg.textCursor()  # part of it, selected with the mouse
    cursor.setPosition(4)
    cursor.setPosition(seg.document().characterCount() - 5, QTextCursor.MoveMode.KeepAnchor)
    seg.setTextCursor(cursor)
    seg.copy()
    assert QGuiApplication.clipboard().text() == f"key is {blob} and that is "


def test_a_selection_copies_code_without_its_header_and_all_of_a_segment_as_its_markdown(qtbot):
    # A selection across a code block copied its header ("python  Copy code") as if it were text, and a
    # table's cells came one a line.
    source = "Intro text.\n\n```python\nx = 1\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nEnd."
    answer = AnswerWidget()
    qtbot.addWidget(answer)
    answer.append_text(source)
    answer.flush()
    seg = answer.segments()[0]
    cursor = seg.textCursor()
    cursor.setPosition(3)
    cursor.setPosition(seg.document().characterCount() - 4, QTextCursor.MoveMode.KeepAnchor)
    seg.setTextCursor(cursor)
    seg.copy()
    assert QGuiApplication.clipboard().text().startswith("ro text.\nx = 1\n")
    seg.selectAll()  # Ctrl+A
    seg.copy()
    assert QGuiApplication.clipboard().text() == source


def test_stop_marks_running_cards_and_fail_shows_retry(qtbot):
    answer = AnswerWidget()
    qtbot.addWidget(answer)
    answer.show()
    answer.append_text("partial")
    card = answer.tool_started(ToolStarted("w1", "websearch", "q"))
    answer.stop(800)
    assert card.status == "skipped" and card.error == "Stopped before the tool finished."  # not a failure
    assert card._meta_text == "stopped"
    failed = answer.tool_started(ToolStarted("c1", "calculate", "1/0"))
    failed.finish("error", error="Division by zero.", elapsed_ms=0)
    assert failed._meta_text == "<1 ms"  # a failed call says how long it took, as a done one does
    assert answer.content() == "partial" and "stopped" in answer.footer()
    other = AnswerWidget()
    qtbot.addWidget(other)
    other.show()
    other.fail("The server at http://127.0.0.1:9/v1 is not reachable.")
    assert other.retry_button.isVisible() and other.error.startswith("The server")
    with qtbot.waitSignal(other.retryRequested):
        qtbot.mouseClick(other.retry_button, Qt.MouseButton.LeftButton)


def test_reopened_answer_looks_as_it_was(qtbot):
    tools = (StoredTool("a", "calculate", "2+2", "done", result="4", position=5),
             StoredTool("b", "nanogo", "x", "skipped", param="source", error="nanoGo is off.", position=5),
             StoredTool("c", "websearch", "y", "running", position=9))
    msg = StoredMessage(1, "assistant", "Sum: four", reasoning="hmm", route={"mode": "tools", "reason": "r"},
                        stats={"rounds": 1, "tools_run": 1, "elapsed_ms": 300}, tools=tools)
    answer = AnswerWidget.from_stored(msg)
    qtbot.addWidget(answer)
    assert [c.status for c in answer.cards()] == ["done", "skipped", "skipped"]  # stored mid-run: stopped
    assert answer.cards()[2].error == "Stopped before the tool finished."
    assert answer.content() == "Sum: four" and answer.reasoning() == "hmm"
    assert answer.footer().startswith("1 round")


def test_text_closed_by_cards_renders_later_but_in_its_place(qtbot):
    answer = AnswerWidget()
    qtbot.addWidget(answer)
    answer.show()
    first = "First part paragraph of text.\n\n" * 200
    second = "Second part paragraph here.\n\n" * 150
    answer.append_text(first)
    card1 = answer.tool_started(ToolStarted("a", "calculate", "1+1"))
    answer.append_text(second)
    card2 = answer.tool_started(ToolStarted("b", "calculate", "2+2"))
    answer.append_text("The end.")
    assert answer.has_pending()  # nothing rendered synchronously: the cards came at once
    qtbot.waitUntil(lambda: not answer.has_pending(), timeout=5000)
    parts = answer.parts()
    i1, i2 = parts.index(card1), parts.index(card2)
    assert "".join(p.markdown() for p in parts[:i1]) == first
    assert "".join(p.markdown() for p in parts[i1 + 1:i2]) == second
    assert [p.markdown() for p in parts[i2 + 1:]] == ["The end."]
    assert i1 > 2  # the long first part was cut into several segments, all before its card


def test_a_long_code_line_keeps_its_line_and_scrolls_sideways_in_a_narrow_answer(qtbot):
    segment = MarkdownSegment()
    qtbot.add_widget(segment)
    segment.resize(320, 200)
    segment.show()
    segment.set_markdown("```python\nprint('" + "a long string " * 30 + "END')\n```\n")
    code = next(b for b in _blocks(segment.document()) if "END" in b.text())
    assert code.layout().lineCount() == 1  # one line, not wrapped
    [(first, last, shift)] = segment.wide_blocks()  # it scrolls on its own
    assert first <= code.position() <= last and shift == 0
    assert segment.scroll_wide(0, 10_000) > 0


def _blocks(document):
    block = document.begin()
    while block.isValid():
        yield block
        block = block.next()


def _tables(frame):
    for child in frame.childFrames():
        if isinstance(child, QTextTable):
            yield child
        yield from _tables(child)


def test_a_quote_has_a_bar_down_its_left_side_and_a_nested_quote_its_own(qtbot):
    segment = MarkdownSegment(palette=DARK)
    qtbot.add_widget(segment)
    segment.resize(400, 100)
    segment.show()
    segment.set_markdown("The manual says:\n\n> Roles hold privileges.\n>\n> > Members inherit them.\n\nAfter.")
    quotes = list(_tables(segment.document().rootFrame()))
    assert len(quotes) == 2  # the quote, and the quote inside it
    for table in quotes:
        assert table.columns() == 2
        # as wide as the answer: a nested quote shrank to its words and wrapped ("Members inherit / them.")
        assert (table.format().width().type(), table.format().width().rawValue()) == (
            QTextLength.Type.PercentageLength, 100)
        assert table.cellAt(0, 0).format().background().color() == QColor(DARK.quote_bar)
        assert table.cellAt(0, 0).firstCursorPosition().block().text() == ""  # the bar holds no text
    outer, inner = quotes
    assert outer.cellAt(0, 1).firstCursorPosition().block().text() == "Roles hold privileges."
    assert inner.cellAt(0, 1).firstCursorPosition().block().text() == "Members inherit them."
    assert segment.toPlainText().splitlines()[0] == "The manual says:"
    assert segment.toPlainText().splitlines()[-1] == "After."


def test_an_answer_that_is_only_an_error_shows_no_counts_and_nothing_to_copy(qtbot):
    answer = AnswerWidget()
    qtbot.addWidget(answer)
    answer.show()
    answer.fail("The model server cannot be reached. Start Ollama (`ollama serve`) or check the URL.")
    assert answer.footer() == "" and not answer.copy_button.isVisible() and answer.retry_button.isVisible()
    # commands in backticks are shown as code, not with their backticks
    assert "<code>ollama serve</code>" in answer._error_label.text() and "`" not in answer._error_label.text()
    # nor an empty row under the error: it left a gap between the error and the next question
    assert answer._footer_row.isHidden()
    stored = AnswerWidget.from_stored(StoredMessage(2, "assistant", "", error="The server failed (500)."))
    qtbot.addWidget(stored)
    assert stored.error and stored._footer_row.isHidden()
    partial = AnswerWidget()
    qtbot.addWidget(partial)
    partial.show()
    partial.append_text("Half an answer")
    partial.fail("The stream was cut.")
    assert partial.copy_button.isVisible() and partial._footer_row.isVisible()


def test_the_message_box_hint_shrinks_rather_than_being_cut_in_a_narrow_window(qtbot):
    from tinyrag_desktop.ui.composer import PLACEHOLDER, SHORT_PLACEHOLDER, Composer

    box = Composer()
    qtbot.addWidget(box)
    box.resize(800, 60)
    box.show()
    qtbot.waitUntil(lambda: box.placeholderText() == PLACEHOLDER)
    box.resize(200, 60)  # a 520-pixel window leaves the box about this wide
    qtbot.waitUntil(lambda: box.placeholderText() == SHORT_PLACEHOLDER)
    box.resize(800, 60)
    qtbot.waitUntil(lambda: box.placeholderText() == PLACEHOLDER)


def test_a_code_block_shows_in_its_box_while_it_streams(qtbot):
    # It read "```python print(0) print(1)" as a paragraph until its closing fence came.
    answer = AnswerWidget()
    qtbot.addWidget(answer)
    answer.show()
    for piece in ("Here:\n\n```python\nprint(0)\npr", "in", "t(1)\n"):
        answer.append_text(piece)
        answer.flush()
        [seg] = answer.segments()
        assert "```" not in seg.toPlainText() and "print(0)" in seg.toPlainText()
    assert seg.code_blocks() == ("print(0)\nprint(1)\n",)
    answer.append_text("```\n\nDone.")
    answer.flush()
    assert seg.code_blocks() == ("print(0)\nprint(1)\n",) and seg.toPlainText().rstrip().endswith("Done.")
    assert answer.content() == "Here:\n\n```python\nprint(0)\nprint(1)\n```\n\nDone."  # as the model wrote it


def test_a_cleared_chat_leaves_at_once_and_is_deleted_a_few_messages_per_turn(qtbot):
    # Destroying a long chat's hundred answers in one go, as the next chat opened, froze the window for
    # 100 ms: they leave the layout and the screen at once, and are deleted a few per turn of the loop.
    from PySide6.QtCore import QCoreApplication, QEvent

    from tinyrag_desktop.ui.chat_view import BURY_SLICE, ChatView

    view = ChatView()
    qtbot.addWidget(view)
    for n in range(1, 31):
        view.add_stored(StoredMessage(2 * n, "user", f"Question {n}"))
        view.add_stored(StoredMessage(2 * n + 1, "assistant", f"Answer **{n}**"))
    answers = view.answers()
    assert len(answers) == 30
    gone: list[int] = []
    for n, answer in enumerate(answers):
        answer.destroyed.connect(lambda *_, n=n: gone.append(n))
    waiting: list[int] = []  # how many wait, at each turn that deletes some
    bury_some = view._bury_some
    view._bury_some = lambda: (waiting.append(len(view._graveyard)), bury_some())[1]
    view.clear()
    assert view.answers() == [] and view.questions() == []
    assert not any(answer.isVisible() for answer in answers) and gone == []
    for _ in range(500):
        if len(gone) == 30:
            break
        qtbot.wait(2)
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    assert sorted(gone) == list(range(30))
    assert waiting[0] == 60  # 30 questions and 30 answers
    assert all(0 < before - after <= BURY_SLICE for before, after in zip(waiting, waiting[1:] + [0]))
