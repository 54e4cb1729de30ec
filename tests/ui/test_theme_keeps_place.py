"""The theme changed with a chat open: its answers take the new colours (all of an answer streaming there
once it ends, see test_theme_while_answering), and the user keeps their place: the messages built, where
they had scrolled to, the question being edited, the find bar and the focus."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QApplication

from tests.sse_server import Gate, Stream
from tinyrag_desktop.chats import ChatStore
from tests.ui.conftest import ask_and_wait, keep_picture, tokens, wait_signal, wait_until

RICH = "Answer {n}.\n\n```python\ndef f():\n    return {n}\n```\n\n| a | b |\n|---|---|\n| {n} | x |\n"


def _light_share(widget) -> float:
    """The share of ``widget``'s pixels that are near white, as it is painted now."""
    image = widget.grab().toImage()
    light = sum(QColor(image.pixel(x, y)).lightness() > 200
                for y in range(0, image.height(), 2) for x in range(0, image.width(), 2))
    return light / max(1, (image.width() // 2) * (image.height() // 2))


def test_a_theme_changed_while_the_open_chat_answers_is_taken_once_the_answer_ends(make_window, server, qloop):
    win = make_window(server.base_url)
    server.queue(Stream(tokens(RICH.format(n=0), 16)))
    assert qloop.run(ask_and_wait(win, "Question 0")) == "done"
    gate = Gate()
    server.queue(Stream(tokens(RICH.format(n=1) + "more text", 16), gate=gate))
    finished = wait_signal(win.answerFinished)
    win.composer.setPlainText("Question 1")
    assert win.send()
    qloop.run(wait_until(lambda: win.view.answers()[-1].content()))
    win.find_bar.open_bar()
    win.find_bar.box.setText("return")
    win.apply_settings(win.settings.replace(theme="dark"))
    gate.opened.set()
    assert qloop.run(finished) == "done"
    qloop.run(wait_until(lambda: not win.loading))
    keep_picture(win, "fixtheme43_stream_after.png")
    answers = win.view.answers()
    assert len(answers) == 2
    assert all(_light_share(answer) < 0.01 for answer in answers), [_light_share(a) for a in answers]
    assert win.find_bar.isVisible()  # its marks on the text built again
    qloop.run(wait_until(lambda: [view.isVisible() for view, _c in win.find_bar.matches()] == [True, True]))


def test_a_theme_changed_on_an_idle_chat_keeps_the_place_the_edit_the_find_bar_and_the_focus(
        make_window, server, qloop, qtbot, monkeypatch):
    from tinyrag_desktop.ui import window_chats

    monkeypatch.setattr(window_chats, "HISTORY_PAGE", 6)
    win = make_window(server.base_url)
    win.resize(900, 600)
    for n in range(8):
        server.queue(Stream(tokens(RICH.format(n=n), 16)))
        assert qloop.run(ask_and_wait(win, f"Question {n}")) == "done"
    win.new_chat()
    win.open_chat(win.store.list_chats()[0].id)  # its last page of 6 messages, then the page before
    qloop.run(wait_until(lambda: not win.loading))
    assert win.show_earlier() == 6
    qloop.run(wait_until(lambda: not win.loading))
    assert len(win.view._widgets()) == 12 and win.first_shown is not None
    bar = win.view.verticalScrollBar()
    win.composer.setFocus()
    qtbot.keyClick(win.composer, Qt.Key.Key_Up)
    win.composer.setPlainText("Question 7, carefully rewritten")
    win.find_bar.open_bar()
    win.find_bar.box.setText("return")
    assert len(win.find_bar.matches()) == 6
    bar.setValue(bar.maximum() // 3)
    top = _top_message(win)
    assert top and 0 < bar.value() < bar.maximum() // 2  # up in the chat, not at its end
    opened = wait_signal(win.chatOpened)
    win.apply_settings(win.settings.replace(theme="dark"))
    qloop.run(opened)
    qloop.run(wait_until(lambda: _top_message(win) == top))  # the message at the top of the view stays there
    assert len(win.view._widgets()) == 12  # the page built above is still there
    assert win._editing and win.edit_hint.isVisible()
    assert win.composer.toPlainText() == "Question 7, carefully rewritten"
    assert win.find_bar.isVisible() and win.find_bar.box.text() == "return"
    qloop.run(wait_until(lambda: len(win.find_bar.matches()) == 6))
    assert QApplication.focusWidget() is win.find_bar.box
    assert all(_light_share(answer) < 0.01 for answer in win.view.answers())
    keep_picture(win, "fixtheme43_idle_after.png")


def test_a_theme_changed_on_a_short_chat_keeps_the_find_bars_match(make_window, server, qloop, tmp_path):
    """A chat short enough to be built at once: the bar, still closed with the chat left when it was built,
    searched nothing, and said "1 of 1" over no match marked."""
    data = tmp_path / "data"
    store = ChatStore(data)
    chat = store.new_chat("animals")
    store.add_user_message(chat.id, "Which animal?")
    store.add_assistant_message(chat.id, "The okapi, I think.", transcript="The okapi, I think.",
                                stats={"rounds": 1, "tools_run": 0, "elapsed_ms": 10})
    store.close()
    win = make_window(server.base_url, data_dir=data)
    win.open_chat(chat.id)
    qloop.run(wait_until(lambda: not win.loading))
    bar = win.find_bar
    bar.open_bar()
    bar.box.setText("okapi")
    assert (bar.current, len(bar.matches()), bar.count.text()) == (0, 1, "1 of 1")
    opened = wait_signal(win.chatOpened)
    win.apply_settings(win.settings.replace(theme="dark"))
    qloop.run(opened)
    qloop.run(wait_until(lambda: not win.loading))
    assert (bar.isVisible(), bar.current, len(bar.matches()), bar.count.text()) == (True, 0, 1, "1 of 1")
    view, cursor = bar.matches()[0]
    assert cursor.selectedText() == "okapi" and view.extraSelections()  # marked in the new colours


def _top_message(win) -> str:
    """The words of the message at the top of the view (the one the user reads from)."""
    top = win.view.verticalScrollBar().value()
    canvas = win.view.widget()
    for widget in win.view._widgets():
        if widget.mapTo(canvas, widget.rect().bottomLeft()).y() > top:
            bubbles = widget.findChildren(type(win.view.questions()[0]))
            return bubbles[0].text() if bubbles else widget.content()[:12]
    return ""
