"""The window on the real engine against a loopback server that streams scripted SSE in random pieces."""

from __future__ import annotations

import asyncio
import re
import gc
import json
import sys

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QPushButton, QWidget

from tests.sse_server import Raw, Status, Stream, free_port
from tinyrag_desktop.chats import ChatStore
from tinyrag_desktop.ui.toolcard import ToolCard

from .conftest import ask_and_wait, ask_then_stop, drag_dock_edge, tokens, wait_signal, wait_until

TWO_TOOLS = ('Let me compute both.\n<tool name="calculate"><query>6 * 7</query></tool>\n'
             '<tool name="calculate"><query>2 + 2</query></tool>\n')


def test_an_answer_with_two_tools_shows_two_cards_that_turn_done(make_window, server, qloop):
    server.queue(Stream(tokens(TWO_TOOLS)), Stream(tokens("The results are **42** and **4**.")))
    win = make_window(server.base_url)
    seen_running = []
    win.bridge.toolStarted.connect(lambda ev: seen_running.extend(
        c.status for c in win.view.answers()[-1].cards() if c.call_id == ev.id))
    assert qloop.run(ask_and_wait(win, "What is 6 * 7 and 2 + 2?")) == "done"
    answer = win.view.answers()[-1]
    cards = answer.findChildren(ToolCard)
    assert [c.property("tool_name") for c in cards] == ["calculate", "calculate"]
    assert [c.property("query_preview") for c in cards] == ["6 * 7", "2 + 2"]
    assert seen_running == ["running", "running"]
    assert [c.property("status") for c in cards] == ["done", "done"]
    assert "42" in cards[0].details_text() and "4" in cards[1].details_text()
    assert "The results are" in answer.content() and "<tool" not in answer.content()
    assert answer.footer().startswith("2 rounds · 2 tools run")
    # the second round was sent the results, and the stored transcript keeps the raw blocks
    stored = ChatStore(win.data_dir).messages(win.chat_id)
    assert '<tool name="calculate"><query>6 * 7</query></tool>' in stored[-1].transcript
    assert [t.status for t in stored[-1].tools] == ["done", "done"]


def test_a_failing_tool_shows_a_cross_with_its_message(make_window, server, qloop):
    server.queue(Stream(tokens('<tool name="calculate"><query>1 / 0</query></tool>')),
                 Stream(tokens("That division has no value.")))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, "What is 1 / 0?")) == "done"
    [card] = win.view.answers()[-1].cards()
    assert card.status == "error" and card.error
    assert "failed" in card.accessibleName() and card.error in card.accessibleDescription()
    assert card.note == card.error and card.height() > card.minimumSizeHint().height() - 1


def test_nanogo_off_ends_the_block_with_the_reason(make_window, server, qloop):
    server.queue(Stream(tokens('<tool name="nanogo"><source>fmt.Println(1)</source></tool>')),
                 Stream(tokens("I cannot run Go here.")))
    win = make_window(server.base_url, allow_nanogo=False)
    assert qloop.run(ask_and_wait(win, "Run fmt.Println(1) in Go")) == "done"
    [card] = win.view.answers()[-1].cards()
    assert card.status in ("error", "skipped") and card.error
    assert "nanogo" in card.error.lower()


def test_stop_mid_stream_keeps_what_arrived(make_window, server, qloop):
    long = "word " * 2000
    server.queue(Stream(tokens(long), delay=0.002))
    win = make_window(server.base_url)

    def stop():
        assert win.stop_button.isVisible()
        win.stop_button.click()

    assert qloop.run(ask_then_stop(win, "Talk a lot", lambda a: len(a.content()) > 100, stop)) == "stopped"
    answer = win.view.answers()[-1]
    kept = answer.content()
    assert 100 < len(kept) < len(long) and long.startswith(kept)
    assert "stopped" in answer.footer() and win.send_button.isVisible()
    stored = ChatStore(win.data_dir).messages(win.chat_id)[-1]
    assert stored.status == "stopped" and stored.content == kept


def test_server_down_shows_an_inline_error_and_retry_uses_new_settings(make_window, server, qloop):
    win = make_window(f"http://127.0.0.1:{free_port()}/v1")
    assert qloop.run(ask_and_wait(win, "Hello?")) == "error"
    answer = win.view.answers()[-1]
    assert answer.error and "Traceback" not in answer.error and "127.0.0.1" in answer.error
    assert answer.retry_button.isVisible()
    qloop.run(wait_until(lambda: win.status.state == "down"))
    assert win.status.reach.text() == "unreachable" and "127.0.0.1" in win.status.reason
    # point the window at a live server; Retry asks again with the new settings, no restart
    server.queue(Stream(tokens("Hello from the live server.")))
    win.apply_settings(win.settings.replace(base_url=server.base_url))

    async def retry():
        fut = wait_signal(win.answerFinished)
        win.view.answers()[-1].retry_button.click()
        return await fut

    assert qloop.run(retry()) == "done"
    assert len(win.view.answers()) == 1
    assert win.view.answers()[0].content() == "Hello from the live server."
    qloop.run(wait_until(lambda: win.status.state == "ok"))


def test_model_missing_is_reported_in_words(make_window, server, qloop):
    server.queue(Status(404, {"error": {"message": "model 'nope' not found"}}))
    win = make_window(server.base_url)
    win.settings = win.settings.replace(chat_model="nope")
    assert qloop.run(ask_and_wait(win, "Hi")) == "error"
    assert "nope" in win.view.answers()[-1].error


def test_stream_cut_halfway_keeps_the_text_and_says_so(make_window, server, qloop):
    server.queue(Stream(tokens("This answer will be cut off before it ends properly."), cut_after=5))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, "Hi")) == "error"
    answer = win.view.answers()[-1]
    assert answer.content().startswith("This answer will be") and answer.error
    assert answer.retry_button.isVisible()


def test_reasoning_sits_collapsed_above_the_answer(make_window, server, qloop):
    server.queue(Stream(tokens("Paris."), reasoning=tokens("The capital of France is Paris.")))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, "Capital of France?")) == "done"
    answer = win.view.answers()[-1]
    assert answer.reasoning() == "The capital of France is Paris."
    assert answer._thinking.isVisible() and not answer._thinking.body.isVisible()
    assert answer.content() == "Paris."
    # how long it thought, not "Thinking (31 characters)"; read back from the chat, just "Thinking"
    assert answer._thinking.toggle.text() in ("Thought for a moment", "Thought for 1 s")
    chat = win.chat_id
    win.new_chat()
    win.open_chat(chat)
    qloop.run(wait_until(lambda: not win.loading and win.view.answers()))
    assert win.view.answers()[-1]._thinking.toggle.text() == "Thinking"


def test_route_is_shown_only_with_view_show_routing(make_window, server, qloop):
    server.queue(Stream(tokens("42")))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, "calculate 6 * 7")) == "done"
    answer = win.view.answers()[-1]
    assert answer.route["mode"] == "tools" and not answer._route_label.isVisible()
    win.menus.show_routing.trigger()
    assert answer._route_label.isVisible() and "tools" in answer._route_label.text()
    assert answer._route_label.text().startswith("Route, guessed from the question: ")  # a guess, not a fact


def test_composer_enter_sends_and_shift_enter_adds_a_line(make_window, server, qloop, qtbot):
    server.queue(Stream(tokens("Received.")))
    win = make_window(server.base_url)
    qtbot.keyClicks(win.composer, "line one")
    qtbot.keyClick(win.composer, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClicks(win.composer, "line two")
    assert win.composer.toPlainText() == "line one\nline two"

    async def send():
        fut = wait_signal(win.answerFinished)
        qtbot.keyClick(win.composer, Qt.Key.Key_Return)
        return await fut

    assert qloop.run(send()) == "done"
    assert win.composer.toPlainText() == ""
    assert [b.text() for b in win.view.questions()] == ["line one\nline two"]
    last = server.requests[-1]["messages"][-1]
    assert last["role"] == "user" and last["content"].startswith("line one\nline two")


def test_a_chat_survives_closing_and_reopening_the_window(make_window, server, qloop, tmp_path):
    server.queue(Stream(tokens(TWO_TOOLS)), Stream(tokens("Done: 42 and 4.")))
    data = tmp_path / "keep"
    win = make_window(server.base_url, data_dir=data)
    assert qloop.run(ask_and_wait(win, "Two sums please")) == "done"
    chat_id = win.chat_id
    qloop.run(win.aclose())
    win.close()
    again = make_window(server.base_url, data_dir=data)
    assert again.sidebar.ids() == [chat_id] and again.sidebar.titles() == ["Two sums please"]
    again.sidebar.list.setCurrentItem(again.sidebar.item_for(chat_id))
    assert again.chat_id == chat_id
    [answer] = again.view.answers()
    assert [c.status for c in answer.cards()] == ["done", "done"]
    assert answer.content().endswith("Done: 42 and 4.")
    assert [q.text() for q in again.view.questions()] == ["Two sums please"]
    # the next question carries the history, answers as their transcripts
    server.queue(Stream(tokens("Sure.")))
    assert qloop.run(ask_and_wait(again, "And 1 + 1?")) == "done"
    sent = server.requests[-1]["messages"]
    at = next(i for i, m in enumerate(sent) if m["content"] == "Two sums please")
    assert sent[at + 1]["role"] == "assistant" and "<tool name=\"calculate\">" in sent[at + 1]["content"]
    assert sent[-1]["role"] == "user" and sent[-1]["content"].startswith("And 1 + 1?")


def test_regenerate_replaces_the_last_answer(make_window, server, qloop):
    server.queue(Stream(tokens("First try.")), Stream(tokens("Second try.")))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, "Say something")) == "done"

    async def regen():
        fut = wait_signal(win.answerFinished)
        win.view.answers()[-1].regenerate_button.click()
        return await fut

    assert qloop.run(regen()) == "done"
    assert [a.content() for a in win.view.answers()] == ["Second try."]
    stored = ChatStore(win.data_dir).messages(win.chat_id)
    assert [m.content for m in stored] == ["Say something", "Second try."]


def test_persona_is_chosen_per_chat(make_window, server, qloop):
    server.queue(Stream(tokens("Step one…")), Stream(tokens("Short.")))
    win = make_window(server.base_url)
    win.persona.setCurrentText("Teacher")
    assert qloop.run(ask_and_wait(win, "Explain RAG")) == "done"
    teacher_chat = win.chat_id
    assert "step by step" in server.requests[-1]["messages"][0]["content"]
    win.new_chat()
    win.persona.setCurrentText("Concise")
    assert qloop.run(ask_and_wait(win, "Explain RAG again")) == "done"
    assert "terse" in server.requests[-1]["messages"][0]["content"]
    win.open_chat(teacher_chat)
    assert win.persona.currentText() == "Teacher"


def test_a_chat_whose_persona_was_removed_answers_as_the_first_one_and_says_so(make_window, server, qloop):
    server.queue(Stream(tokens("Step one…")), Stream(tokens("Short.")), Stream(tokens("Again.")))
    win = make_window(server.base_url)
    win.persona.setCurrentText("Teacher")
    assert qloop.run(ask_and_wait(win, "Explain RAG")) == "done"
    teacher_chat = win.chat_id
    win.new_chat()
    win.persona.setCurrentText("Concise")
    assert qloop.run(ask_and_wait(win, "Explain RAG again")) == "done"
    personas = dict(win.settings["personas"])
    del personas["Teacher"]
    win.apply_settings(win.settings.replace(personas=personas))
    win.open_chat(teacher_chat)  # it showed Concise, the persona of the chat open before, and answered so
    assert win.persona.currentText() == "Assistant"
    assert "Persona “Teacher” removed: this chat uses “Assistant”" in win.statusBar().currentMessage()
    assert qloop.run(ask_and_wait(win, "Once more")) == "done"
    assert server.requests[-1]["messages"][0]["content"].startswith(personas["Assistant"])


def test_sidebar_new_rename_delete_undo_and_search(make_window, server, qloop, qtbot):
    server.queue(Stream(tokens("A.")), Stream(tokens("B.")))
    win = make_window(server.base_url)
    assert not win.sidebar.empty_hint.isHidden() and "No chats yet" in win.sidebar.empty_hint.text()
    assert qloop.run(ask_and_wait(win, "About apples")) == "done"
    assert win.sidebar.empty_hint.isHidden()
    first = win.chat_id
    qtbot.keyClick(win, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)
    assert win.chat_id is None and win.view.answers() == []
    assert qloop.run(ask_and_wait(win, "About bananas")) == "done"
    assert win.sidebar.titles() == ["About bananas", "About apples"]
    win.rename_chat(first, "Fruit notes")
    qloop.run(wait_until(lambda: "Fruit notes" in win.sidebar.titles()))
    win.delete_chat(first)
    assert win.sidebar.ids() == [win.chat_id] and win.sidebar.undo_bar.isVisible()
    win.sidebar.undo_button.click()
    assert first in win.sidebar.ids() and win.chat_id == first
    win.sidebar.search.setText("banana")
    qloop.run(wait_until(lambda: win.sidebar.titles() == ["About bananas"]))
    win.sidebar.search.setText("cherries")
    qloop.run(wait_until(lambda: win.sidebar.titles() == []))
    assert not win.sidebar.empty_hint.isHidden() and win.sidebar.empty_hint.text() == "No chats match."


def test_export_markdown_and_html(make_window, server, qloop, tmp_path, monkeypatch):
    server.queue(Stream(tokens(TWO_TOOLS)), Stream(tokens("Here:\n\n```python\nprint(42)\n```\n")))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, "Sums and code")) == "done"
    import threading

    from tinyrag_desktop.ui import export

    threads = []
    for name in ("export_html", "export_markdown"):  # made in a thread: a long chat froze the window 20 s
        real = getattr(export, name)
        monkeypatch.setattr(export, name, lambda *a, real=real: threads.append(threading.current_thread()) or real(*a))
    md = qloop.run(win.export_chat(tmp_path / "chat.md", "md")).read_text()
    html = qloop.run(win.export_chat(tmp_path / "chat.html", "html")).read_text()
    assert "## You" in md and "**Calculator** `6 * 7` (done)" in md and "```python" in md
    assert html.startswith("<!DOCTYPE html>") and "Calculator" in html and "print" in html
    assert len(threads) == 2 and threading.main_thread() not in threads


def test_settings_dialog_round_trips_to_disk_and_refuses_bad_values(make_window, server, qloop, qtbot):
    win = make_window(server.base_url)
    dialog = win.open_settings()
    assert dialog.objectName() == "settingsDialog"
    nanogo = dialog.findChild(type(dialog.field("allow_nanogo")), "allowNanogo")
    shell = dialog.findChild(type(dialog.field("allow_shell_exec")), "allowShellExec")
    assert nanogo is not None and shell is not None and not nanogo.isChecked()
    dialog.field("base_url").setText("ftp://nowhere")
    assert not dialog.save_button.isEnabled() and "http://" in dialog._fields["base_url"].validate()
    dialog.field("max_tools_total").setText("500")
    assert "at most 50" in " ".join(dialog.revalidate())
    dialog.field("base_url").setText(server.base_url)
    dialog.field("max_tools_total").setText("7")
    nanogo.setChecked(True)
    dialog.field("theme").setCurrentText("Dark")
    qloop.run(dialog.test_connection())
    assert dialog.models() == ["scripted", "other-model"] and "Connected" in dialog.test_result.text()
    dialog.field("chat_model").setCurrentText("other-model")
    assert dialog.save_button.isEnabled()
    with qtbot.waitSignal(win.settingsApplied):
        dialog.save_button.click()
    on_disk = json.loads((win.data_dir / "settings.json").read_text())
    assert on_disk["allow_nanogo"] is True and on_disk["max_tools_total"] == 7
    assert on_disk["chat_model"] == "other-model" and on_disk["theme"] == "dark"
    assert win.settings["chat_model"] == "other-model"
    server.queue(Stream(tokens("ok")))
    assert qloop.run(ask_and_wait(win, "Which model?")) == "done"
    assert server.requests[-1]["model"] == "other-model"  # applied to the next request


def test_test_connection_reports_a_dead_server(make_window, server, qloop):
    win = make_window(server.base_url)
    dialog = win.open_settings()
    dialog.field("base_url").setText(f"http://127.0.0.1:{free_port()}/v1")
    qloop.run(dialog.test_connection())
    assert dialog.test_result.text().startswith("Could not connect:")
    assert "127.0.0.1" in dialog.test_result.text()
    # The command to type shows as code, as in the answer's error: not with Markdown's backticks around it.
    assert "`" not in dialog.test_result.text() and "<code>ollama serve</code>" in dialog.test_result.text()


def test_a_long_chat_opens_in_slices_without_freezing(make_window, server, qloop, tmp_path, monkeypatch):
    from tinyrag_desktop.ui import window_chats
    from tinyrag_desktop.chats import StoredTool

    data = tmp_path / "long"
    store = ChatStore(data)
    chat = store.new_chat()
    for i in range(6):
        store.add_user_message(chat.id, f"Question {i}")
        store.add_assistant_message(chat.id, f"Answer {i}\n\n" + "word " * 3000,
                                    tools=[StoredTool(f"c{i}", "calculate", "1+1", "done", result="2", position=9)])
    store.close()
    monkeypatch.setattr(window_chats, "LOAD_BUDGET", 0.0)  # one message per event-loop turn
    win = make_window(server.base_url, data_dir=data)
    # Between two slices the window answers: a waiting timer gets its turn, as input does. Each slice was
    # a queued call, which Qt runs before the timers due; the first two then ran back to back.
    order: list[str] = []
    step = win._load_step
    monkeypatch.setattr(win, "_load_step", lambda *a, **k: (order.append("slice"), step(*a, **k))[1])
    ticker = QTimer()
    ticker.setInterval(0)
    ticker.timeout.connect(lambda: order.append("tick") if order and order[-1] != "tick" else None)

    async def scenario():
        fut = wait_signal(win.chatOpened)
        ticker.start()
        win.open_chat(chat.id)
        assert win.loading and len(win.view.questions()) == 1  # the rest follows on later turns
        return await fut

    assert qloop.run(scenario()) == chat.id
    ticker.stop()
    slices = "".join("s" if what == "slice" else "t" for what in order)
    assert slices.count("s") >= 11 and "ss" not in slices, slices
    assert not win.loading and len(win.view.answers()) == 6
    assert [a.cards()[0].status for a in win.view.answers()] == ["done"] * 6
    assert win.view.answers()[-1].regenerate_button.isVisibleTo(win.view.answers()[-1])


def test_a_very_long_chat_shows_its_last_page_and_earlier_pages_as_it_is_scrolled_up(make_window, server, qloop,
                                                                                       tmp_path, monkeypatch):
    """A chat of months is not built whole on opening (1,000 questions took 15 s and 28,000 widgets): its
    last page is, and scrolling to the top builds the page before, keeping in view what was on screen."""
    from tinyrag_desktop.ui import window_chats

    monkeypatch.setattr(window_chats, "HISTORY_PAGE", 6)
    data = tmp_path / "months"
    store = ChatStore(data)
    chat = store.new_chat()
    for i in range(10):
        store.add_user_message(chat.id, f"Question {i}")
        store.add_assistant_message(chat.id, f"Answer {i}\n\n" + "word " * 400)
    store.close()
    win = make_window(server.base_url, data_dir=data)
    read = []  # how many messages each read of the chat gave
    real_messages = win.store.messages
    monkeypatch.setattr(win.store, "messages", lambda *a, **k: read.append(len(m := real_messages(*a, **k))) or m)

    win.open_chat(chat.id)
    qloop.run(wait_until(lambda: not win.loading))
    texts = lambda: [q.text() for q in win.view.questions()]  # noqa: E731
    assert texts() == ["Question 7", "Question 8", "Question 9"]
    assert read == [6]  # the page shown, not the chat's 20 messages
    assert win.view.findChild(QPushButton, "showEarlier").isVisible()
    first = win.view.questions()[0]
    bar = win.view.verticalScrollBar()
    bar.setValue(0)  # scrolled to the top: the page before is built above
    qloop.run(wait_until(lambda: not win.loading))
    qloop.run(asyncio.sleep(0.1))
    assert texts() == [f"Question {i}" for i in range(4, 10)]
    assert first.mapTo(win.view.viewport(), first.rect().topLeft()).y() >= 0  # what was on screen stays
    assert bar.value() > 0
    assert win.show_earlier() == 6  # "Show earlier messages" does the same, a page at a time
    qloop.run(wait_until(lambda: not win.loading))
    assert win.show_earlier() == 2
    qloop.run(wait_until(lambda: not win.loading))
    assert texts() == [f"Question {i}" for i in range(10)]
    assert not win.view.findChild(QPushButton, "showEarlier").isVisible()
    assert len(win.view.answers()) == 10 and win.show_earlier() == 0
    assert read == [6, 6, 6, 2]
    # the last answer is still the one Regenerate and Edit act on, and the only one that offers it (the
    # answers of an earlier page showed a Regenerate that did nothing)
    assert [a.regenerate_button.isVisibleTo(a) for a in win.view.answers()] == [False] * 9 + [True]


def test_an_invalid_block_shows_as_plain_text_not_a_card(make_window, server, qloop):
    server.queue(Stream(tokens('Trying: <tool name=""><query>x</query></tool> done.')))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, "Hi")) == "done"
    answer = win.view.answers()[-1]
    assert answer.cards() == []
    shown = "".join(s.toPlainText() for s in answer.segments())
    assert '<tool name=""><query>x</query></tool>' in shown


def test_window_layout_and_routing_toggle_come_back(make_window, server, qloop, tmp_path):
    data = tmp_path / "layout"
    win = make_window(server.base_url, data_dir=data)
    win.resize(900, 640)
    win.menus.show_routing.trigger()
    win.close()  # saves window.ini beside the settings
    again = make_window(server.base_url, data_dir=data)
    assert again.menus.show_routing.isChecked() and again.view.show_route
    assert again._layout_settings().value("geometry") is not None


def test_a_long_chat_title_is_shortened_not_widening_the_window(make_window, server, qloop):
    win = make_window(server.base_url)
    title = "What is 2+2 and 1/0? Show a table and some code, and explain every step at length please " * 2
    win.title_label.setText(title)
    win.resize(700, 500)
    qloop.run(wait_until(lambda: win.width() == 700))
    assert win.minimumSizeHint().width() < 700
    assert win.title_label.text() == title  # only the painting is cut
    assert win.title_label.is_elided() and win.title_label.toolTip() == title
    win.title_label.setText("Short")
    assert not win.title_label.is_elided() and win.title_label.toolTip() == ""


def test_a_server_error_mid_stream_leaves_no_traceback_on_the_console(make_window, server, qloop, monkeypatch):
    unraisable = []  # what Python would print as "Exception ignored in: …"
    monkeypatch.setattr(sys, "unraisablehook", unraisable.append)
    hello = 'data: {"choices": [{"delta": {"content": "Hello"}}]}\n\n'
    server.queue(Raw([hello, 'data: {"error": {"message": "CUDA out of memory"}}\n\n']))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, "Hello?")) == "error"
    assert "CUDA out of memory" in win.view.answers()[-1].error
    qloop.run(asyncio.sleep(0.2))
    gc.collect()  # an async generator left open would be finalised here, outside any task
    qloop.run(asyncio.sleep(0.2))
    assert [u.exc_value for u in unraisable] == []


def test_the_knowledge_panel_and_a_hidden_chat_list_come_back_on_the_next_start(make_window, server, qloop,
                                                                                 tmp_path):
    data = tmp_path / "docks"
    win = make_window(server.base_url, data_dir=data)
    win.kb_dock.show()
    qloop.run(wait_until(lambda: win.kb_dock.isVisible()))
    qloop.run(asyncio.sleep(0.05))  # at its first width
    qloop.run(drag_dock_edge(win, win.kb_dock, win.kb_dock.width() - 330))  # the user makes it 330 px wide
    win.menus.show_sidebar.trigger()
    qloop.run(wait_until(lambda: win.kb_dock.width() == 330 and not win.sidebar.isVisible()))
    win.close()
    again = make_window(server.base_url, data_dir=data)
    qloop.run(wait_until(lambda: again.kb_dock.isVisible()))
    assert again.dockWidgetArea(again.kb_dock) == Qt.DockWidgetArea.RightDockWidgetArea
    assert abs(again.kb_dock.width() - 330) <= 2
    assert not again.sidebar.isVisible() and not again.menus.show_sidebar.isChecked()


def test_the_knowledge_panel_opened_the_first_time_shows_the_sources_titles(make_window, server, qloop, tmp_path):
    # Docked at its first width, the Title column got what Type, Chunks and Imported left: about 50 pixels,
    # so the four user guide sources all read "tinyR…" and could not be told apart.
    from PySide6.QtWidgets import QStyleOptionViewItem

    from tinyrag_desktop.kb import Importer, open_store

    data = tmp_path / "first"
    data.mkdir()
    names = ("getting started", "tools", "the knowledge base", "settings and troubleshooting")
    for i, name in enumerate(names):
        (data / f"guide{i}.md").write_text(f"# tinyRAG Desktop user guide: {name}\n\nSome text about {name}.\n")
    with open_store(data) as kb:
        assert not Importer(kb).run([str(data / f"guide{i}.md") for i in range(4)]).failed
    win = make_window(server.base_url, data_dir=data)
    win.kb_dock.show()
    view = win.kb_dock.widget().sources_view
    qloop.run(wait_until(lambda: view.topLevelItemCount() == 4 and view.isVisible()))
    qloop.run(asyncio.sleep(0.05))  # one layout pass for the column widths
    mode = Qt.TextElideMode.ElideRight  # as the cell paints it
    option = QStyleOptionViewItem()
    delegate = view.itemDelegateForColumn(0)
    if delegate is not None:
        delegate.initStyleOption(option, view.model().index(0, 0))
        mode = option.textElideMode
    shown = [view.fontMetrics().elidedText(view.topLevelItem(i).text(0), mode, view.columnWidth(0) - 12)
             for i in range(4)]
    assert len(set(shown)) == 4, shown  # each title can be told apart
    assert all(len(text.replace("…", "")) >= 10 for text in shown), shown  # and read


def test_undo_of_a_delete_shows_the_chat_it_reopens_as_the_current_one_in_the_list(make_window, server, qloop):
    # Undo reopened the chat but left no row selected: the list did not say which chat was open.
    server.queue(Stream(tokens("A.")), Stream(tokens("B.")))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, "About apples")) == "done"
    win.new_chat()
    assert qloop.run(ask_and_wait(win, "About bananas")) == "done"
    bananas = win.chat_id
    win.delete_chat(bananas)
    assert win.chat_id is None and win.sidebar.current_id() is None
    win.sidebar.undo_button.click()
    qloop.run(wait_until(lambda: win.chat_id == bananas and not win.loading))
    assert win.sidebar.current_id() == bananas
    assert win.sidebar.list.currentItem().isSelected()


def test_right_click_on_a_day_heading_offers_no_chat_actions(make_window, server, qloop):
    # The "Today" heading got the chat menu: its Export exported whichever chat was open, and Rename and
    # Delete did nothing.
    from PySide6.QtWidgets import QMenu

    server.queue(Stream(tokens("A.")))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, "About apples")) == "done"
    heading = win.sidebar.list.item(0)
    assert heading.text() == "Today" and win.sidebar.headings() == ["Today"]
    win.sidebar.list.customContextMenuRequested.emit(win.sidebar.list.visualItemRect(heading).center())
    assert [m for m in win.sidebar.findChildren(QMenu) if m.isVisible()] == []
    chat = win.sidebar.item_for(win.chat_id)
    win.sidebar.list.customContextMenuRequested.emit(win.sidebar.list.visualItemRect(chat).center())
    [menu] = [m for m in win.sidebar.findChildren(QMenu) if m.isVisible()]
    assert "Export as HTML…" in [a.text() for a in menu.actions()]
    menu.close()


def test_a_narrow_window_cuts_nothing_off_the_conversation(make_window, server, qloop):
    # The conversation has no horizontal scroll bar. At 520 px the answer's footer line (then "1 round · 0
    # tools run · 0.0 s", Copy, Regenerate) made the column wider than the view: the question, the answer's text
    # and Regenerate were cut off at the right.
    server.queue(Stream(tokens("Just a short plain answer with several words in it so that it wraps.")))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, "A question that is moderately long, like the ones people type")) == "done"
    win.resize(520, 600)
    qloop.run(wait_until(lambda: not win.sidebar.isVisible()))  # folded at this width (test_small_window.py)
    win.menus.show_sidebar.trigger()  # shown by hand, the list leaves the conversation under 300 px
    qloop.run(wait_until(lambda: win.view.viewport().width() < 300))
    qloop.run(asyncio.sleep(0.05))
    assert win.view.widget().width() <= win.view.viewport().width()
    answer = win.view.answers()[-1]
    right = answer.regenerate_button.mapTo(win.view.viewport(), answer.regenerate_button.rect().topRight())
    assert right.x() < win.view.viewport().width()
    # and the footer wraps between its parts, never inside one ("0.1" on one line, "s" on the next)
    label = answer._footer.text()
    assert all(" " not in part for part in label.split("\u00a0· "))
    assert re.fullmatch(r"\d+\.\d s · scripted", answer.footer())  # a plain answer: its time and model


def test_a_search_hit_in_the_chats_own_title_is_not_shown_twice(make_window, server, qloop):
    # The first question names the chat, so searching one of its words listed the title and, under it, the
    # same words again as the matching text.
    server.queue(Stream(tokens("Use flour, water and salt.")))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, "How do I bake bread?")) == "done"
    win.sidebar.search.setText("bread")
    qloop.run(wait_until(lambda: win.sidebar.titles() == ["How do I bake bread?"] and win.sidebar.headings() == []))
    assert win.sidebar.item_for(win.chat_id).text() == "How do I bake bread?"
    win.sidebar.search.setText("salt")  # found in the answer: the matching words say why it is listed
    qloop.run(wait_until(lambda: "salt" in win.sidebar.item_for(win.chat_id).text()))
    assert win.sidebar.item_for(win.chat_id).text().startswith("How do I bake bread?\n")


def test_a_persona_renamed_in_settings_keeps_its_chats(make_window, server, qloop, monkeypatch):
    from PySide6.QtWidgets import QInputDialog, QPushButton

    server.queue(Stream(tokens("Step one…")), Stream(tokens("Short.")))
    win = make_window(server.base_url)
    win.persona.setCurrentText("Teacher")
    assert qloop.run(ask_and_wait(win, "Explain RAG")) == "done"
    teacher_chat = win.chat_id
    dialog = win.open_settings()
    dialog.persona_list.setCurrentRow(list(win.settings["personas"]).index("Teacher"))
    monkeypatch.setattr(QInputDialog, "getText", staticmethod(lambda *a, **k: ("Tutor", True)))
    dialog.findChild(QPushButton, "renamePersona").click()
    assert dialog.persona_list.currentItem().text() == "Tutor"
    dialog.save_button.click()
    assert list(win.settings["personas"]) == ["Assistant", "Concise", "Tutor"]  # in its place
    assert win.persona.currentText() == "Tutor" and ChatStore(win.data_dir).get_chat(teacher_chat).persona == "Tutor"
    win.new_chat()
    win.open_chat(teacher_chat)
    assert win.persona.currentText() == "Tutor"
    assert qloop.run(ask_and_wait(win, "And again")) == "done"
    assert "step by step" in server.requests[-1]["messages"][0]["content"]


def test_in_a_very_wide_window_the_message_box_is_as_wide_as_the_conversation_and_under_it(make_window, server,
                                                                                          qloop):
    # The conversation's column stops at COLUMN_MAX, centred; the message box ran the whole 2,300 px.
    from PySide6.QtCore import QPoint
    from PySide6.QtWidgets import QFrame

    from tinyrag_desktop.ui.chat_view import COLUMN_MAX

    server.queue(Stream(tokens("An answer.")))
    win = make_window(server.base_url)
    win.resize(2560, 900)
    assert qloop.run(ask_and_wait(win, "A question")) == "done"
    box = win.findChild(QFrame, "composerBox")
    column = win.view.findChild(QWidget, "chatColumn")
    left = lambda w: w.mapTo(win, QPoint(0, 0)).x()  # noqa: E731
    assert box.width() == column.width() == COLUMN_MAX
    assert abs(left(box) - left(column)) <= 16  # under it (the conversation's scroll bar aside)
    win.resize(700, 900)
    qloop.run(wait_until(lambda: box.width() < COLUMN_MAX))
    assert box.width() >= win.view.width() - 40  # a narrow window: the whole width, as before


@pytest.mark.parametrize("width", [1000, 1001, 1919, 640])
def test_the_conversation_stays_in_place_above_the_message_box_when_its_scroll_bar_shows(make_window, server, qloop,
                                                                                           width):
    # Centred beside the scroll bar, the column (and a streaming answer in it) jumped 7 px to the left the moment
    # it grew past the window's height, out of line with the message box under it.
    from PySide6.QtCore import QPoint
    from PySide6.QtWidgets import QFrame

    win = make_window(server.base_url)
    win.resize(width, 700)
    box = win.findChild(QFrame, "composerBox")
    column = win.view.findChild(QWidget, "chatColumn")
    bar = win.view.verticalScrollBar()
    place = lambda w: (w.mapTo(win, QPoint(0, 0)).x(), w.width())  # noqa: E731
    win.view.add_question("The first question")
    qloop.run(wait_until(lambda: column.isVisible() and box.isVisible() and place(column) == place(box)))
    before = place(column)
    assert not bar.isVisible()
    for _ in range(12):
        win.view.add_question("Another question\n" * 8)
    qloop.run(wait_until(lambda: bar.isVisible() and column.height() > win.view.viewport().height()))
    assert place(column) == before == place(box), (place(column), before, place(box))
