"""An answer stopped before the model wrote anything says so, and offers nothing to copy."""

from __future__ import annotations

from tests.sse_server import Hang
from tinyrag_desktop.chats import ChatStore
from tinyrag_desktop.ui.answer import AnswerWidget

from .conftest import stop_once_sent


def test_stopped_while_waiting_for_the_model_says_so(make_window, server, qloop, qtbot):
    # Only "1 round · 0 tools run · 0.3 s · stopped" and a Copy button that copied nothing were left.
    server.queue(Hang(3))
    win = make_window(server.base_url)
    assert qloop.run(stop_once_sent(win, server, "Wait")) == "stopped"
    answer = win.view.answers()[-1]
    assert answer.note() == "Stopped before the model answered."
    assert not answer.copy_button.isVisible() and answer.regenerate_button.isVisible()
    again = AnswerWidget.from_stored(ChatStore(win.data_dir).messages(win.chat_id)[-1])
    qtbot.addWidget(again)
    again.show()
    assert again.note() == "Stopped before the model answered." and not again.copy_button.isVisible()


def test_an_answer_stopped_after_its_first_words_has_no_such_note(qtbot):
    answer = AnswerWidget()
    qtbot.addWidget(answer)
    answer.show()
    answer.begin()
    answer.append_text("Partly")
    answer.stop(300)
    assert answer.note() == "" and answer.copy_button.isVisible()
