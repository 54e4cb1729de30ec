"""The status bar's model button: its menu lists the server's models; a pick is saved and used next."""

from __future__ import annotations

from tests.sse_server import Stream, free_port
from tinyrag_desktop.settings import load_settings

from .conftest import ask_and_wait, tokens, wait_until


def _menu(win) -> dict[str, object]:
    win.status.model_menu.aboutToShow.emit()  # as opening the menu does, without a modal popup
    return {a.text(): a for a in win.status.model_menu.actions() if a.text()}


def test_picking_a_model_saves_it_and_the_next_answer_uses_it(make_window, server, qloop):
    server.queue(Stream(tokens("From the other model.")))
    win = make_window(server.base_url)
    qloop.run(wait_until(lambda: win.status.state == "ok"))
    assert win.status.model.text() == "Model: scripted ▾"
    items = _menu(win)
    assert list(items) == ["Server default", "scripted", "other-model"]
    assert items["scripted"].isChecked() and not items["other-model"].isChecked()
    items["other-model"].trigger()
    assert win.settings["chat_model"] == "other-model"
    settings, _warnings = load_settings(win.data_dir)
    assert settings["chat_model"] == "other-model"  # saved, as the settings dialog saves it
    assert win.status.model.text() == "Model: other-model ▾"
    assert "other-model" in win.statusBar().currentMessage()
    assert qloop.run(ask_and_wait(win, "Which model are you?")) == "done"
    assert server.requests[-1]["model"] == "other-model"
    assert _menu(win)["other-model"].isChecked()
    _menu(win)["Server default"].trigger()
    assert load_settings(win.data_dir)[0]["chat_model"] == ""
    assert win.status.model.text() == "Model: server default ▾"


def test_with_the_server_down_the_menu_says_why_it_lists_no_models(make_window, qloop):
    win = make_window(f"http://127.0.0.1:{free_port()}/v1")
    qloop.run(wait_until(lambda: win.status.state == "down"))
    items = _menu(win)
    assert "Server default" in items and "scripted" in items  # the model set stays choosable
    hint = next(a for text, a in items.items() if text.startswith("No models listed"))
    assert not hint.isEnabled()


def test_a_model_named_by_its_file_path_shows_its_file_name(make_window, server, qloop):
    # llama.cpp's server names its model by the .gguf path: whole, it took most of the status bar and cut
    # the messages beside it short
    path = "/home/someone/models/downloads/qwen2.5-7b-instruct-q4_k_m.gguf"
    win = make_window(server.base_url, chat_model=path)
    win.resize(900, 600)
    qloop.run(wait_until(lambda: win.status.state != "checking" and win.status.state != "unknown"))
    assert win.status.model.text() == "Model: qwen2.5-7b-instruct-q4_k_m ▾"
    assert path in win.status.model.toolTip()
    item = _menu(win)["qwen2.5-7b-instruct-q4_k_m"]
    assert item.isChecked() and path in item.toolTip()
    win.statusBar().showMessage("Settings saved; they apply to the next question.")
    assert win.status.model.width() < 300
