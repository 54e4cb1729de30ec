"""A question to a model the server lacks ("The server has no model called “llama3”. It has: …") offered only
Open Settings. Its error now offers the server's models under a "Choose a model…" button (the status bar's
model menu), and that menu marks the chosen model the server lacks."""

from __future__ import annotations

from PySide6.QtWidgets import QPushButton

from tests.sse_server import ScriptedLLMServer, Status, free_port
from tinyrag_desktop.ui.settings_dialog import SettingsDialog

from .conftest import ask_and_wait, keep_picture, wait_until

MODELS = ("llama3.2:latest", "qwen2.5:7b", "nomic-embed-text")


def _menu(win) -> dict[str, object]:
    win.status.model_menu.aboutToShow.emit()  # as opening the menu does
    return {a.text(): a for a in win.status.model_menu.actions() if a.text()}


def test_the_error_opens_the_model_menu_and_a_pick_is_used_at_retry(make_window, qloop):
    with ScriptedLLMServer(models=MODELS) as server:
        win = make_window(server.base_url, chat_model="llama3")
        qloop.run(wait_until(lambda: win.status.reach.text() == "model missing"))
        server.queue(Status(404, {"error": {"message": "model 'llama3' not found"}}))
        assert qloop.run(ask_and_wait(win, "hello?")) == "error"
        answer = win.view.answers()[-1]
        button = answer.findChild(QPushButton, "errorChooseModel")
        assert button is not None and button.isVisible()
        assert answer.settings_button.isVisible()  # the long way stays
        keep_picture(win, "missing_model_error.png")
        button.click()
        menu = win.status.model_menu
        qloop.run(wait_until(menu.isVisible))
        assert abs(menu.geometry().top() - button.mapToGlobal(button.rect().bottomLeft()).y()) <= 2
        keep_picture(menu, "missing_model_menu.png")
        items = {a.text(): a for a in menu.actions() if a.text()}
        assert "llama3 (not on this server)" in items and items["llama3 (not on this server)"].isChecked()
        assert "llama3.2:latest" in items and "nomic-embed-text" not in items
        items["llama3.2:latest"].trigger()
        menu.hide()
        assert win.settings["chat_model"] == "llama3.2:latest"


def test_the_menu_marks_only_a_model_the_server_lacks(make_window, qloop):
    with ScriptedLLMServer(models=MODELS) as server:
        win = make_window(server.base_url, chat_model="llama3")
        qloop.run(wait_until(lambda: win.status.reach.text() == "model missing"))
        assert [t for t in _menu(win) if "not on this server" in t] == ["llama3 (not on this server)"]
        win.choose_model("llama3.2")  # Ollama's "llama3.2" is its "llama3.2:latest"
        qloop.run(wait_until(lambda: win.status.state == "ok"))
        assert not [t for t in _menu(win) if "not on this server" in t]
    down = make_window(f"http://127.0.0.1:{free_port()}/v1", chat_model="llama3", data_dir=win.data_dir.parent / "d2")
    qloop.run(wait_until(lambda: down.status.state == "down"))
    assert "llama3" in _menu(down)  # nothing listed: nothing known to be missing


def test_other_errors_offer_no_model_choice(make_window, server, qloop):
    win = make_window(server.base_url)
    server.queue(Status(500, {"error": {"message": "boom"}}))
    assert qloop.run(ask_and_wait(win, "Hi")) == "error"
    assert win.view.answers()[-1].findChild(QPushButton, "errorChooseModel").isHidden()


def test_the_error_names_the_button_beside_it_and_large_text_puts_the_buttons_below(make_window, qloop, qapp):
    """It said "…Choose one in Settings." beside the "Choose a model…" button, and at 18 pt in a 1000 px window
    its three buttons squeezed the message into a column five lines tall."""
    from PySide6.QtGui import QFont

    before = QFont(qapp.font())
    large = QFont(before)
    large.setPointSize(18)
    with ScriptedLLMServer(models=MODELS) as server:
        win = make_window(server.base_url, chat_model="llama3")
        win.resize(1000, 760)
        qloop.run(wait_until(lambda: win.status.reach.text() == "model missing"))
        server.queue(Status(404, {"error": {"message": "model 'llama3' not found"}}))
        assert qloop.run(ask_and_wait(win, "hello?")) == "error"
        answer = win.view.answers()[-1]
        assert answer.error.endswith("Choose one of those to use instead.") and "in Settings" not in answer.error
        box, message = answer._error_box, answer._error_label
        assert not box.below()  # at the usual size the buttons stay beside it
        assert message.geometry().right() < answer.model_button.geometry().left()
        qapp.setFont(large)
        try:
            qloop.run(wait_until(lambda: answer.model_button.fontInfo().pointSize() == 18))
            qloop.run(wait_until(box.below))
            keep_picture(win, "missing_model_large.png")
            assert answer.model_button.geometry().top() >= message.geometry().bottom()
            lines = message.height() / message.fontMetrics().lineSpacing()
            assert lines < 4, lines
        finally:
            qapp.setFont(before)


def _error_buttons(win) -> list[str]:
    answer = win.view.answers()[-1]
    shown = [b for b in answer.findChildren(QPushButton) if b.parent() is answer._error_box and b.isVisible()]
    return [b.text() for b in sorted(shown, key=lambda b: (b.y(), b.x()))]  # as they read


def test_the_error_keeps_its_buttons_when_its_chat_is_opened_again_and_after_a_restart(make_window, qloop,
                                                                                       tmp_path):
    # Stored as shown ("Choose one of those to use instead."), the error lost its "in Settings": opened again,
    # it offered Choose a model… and Retry, without the Open Settings it had.
    data = tmp_path / "data"
    with ScriptedLLMServer(models=MODELS) as server:
        win = make_window(server.base_url, chat_model="ghost", data_dir=data, reopen_last=True)
        server.queue(Status(404, {"error": {"message": "model 'ghost' not found"}}))
        assert qloop.run(ask_and_wait(win, "hello?")) == "error"
        shown = _error_buttons(win)
        assert shown == ["Choose a model…", "Open Settings", "Retry"]
        chat = win.chat_id
        win.new_chat()
        win.open_chat(chat)
        qloop.run(wait_until(lambda: not win.loading and win.view.answers()))
        assert _error_buttons(win) == shown
        win.close()
        again = make_window(server.base_url, chat_model="ghost", data_dir=data, reopen_last=True)
        qloop.run(wait_until(lambda: again.chat_id == chat and not again.loading and again.view.answers()))
        assert _error_buttons(again) == shown
        again.view.answers()[-1].settings_button.click()
        dialog = again.findChild(SettingsDialog)
        assert dialog is not None and dialog.isVisible()
        dialog.reject()
