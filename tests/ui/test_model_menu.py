"""The status bar's model button: its menu lists the server's models; a pick is saved and used next."""

from __future__ import annotations

from tests.sse_server import ScriptedLLMServer, Stream, free_port
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
    item = _menu(win)["qwen2.5-7b-instruct-q4_k_m (not on this server)"]  # it lists scripted, other-model
    assert item.isChecked() and path in item.toolTip()
    win.statusBar().showMessage("Settings saved; they apply to the next question.")
    assert win.status.model.width() < 300


def test_embedding_models_are_neither_offered_nor_counted_as_chat_models(make_window, qloop):
    # "reachable · 4 models", and nomic-embed-text offered to chat with, while Settings → Test connection
    # said "3 chat models … (and 1 embedding model …)"
    with ScriptedLLMServer(models=("llama3.2", "qwen2.5:7b-instruct", "nomic-embed-text")) as server:
        win = make_window(server.base_url, chat_model="llama3.2")
        qloop.run(wait_until(lambda: win.status.state == "ok"))
        assert win.status.reach.text() == "reachable · 2 chat models"
        assert win.status.reach.toolTip() == ("The server answers. 2 chat models: llama3.2, qwen2.5:7b-instruct "
                                              "(and 1 embedding model: nomic-embed-text).")
        assert list(_menu(win)) == ["Server default", "llama3.2", "qwen2.5:7b-instruct"]


def test_a_model_chosen_by_hand_that_looks_like_an_embedding_model_is_kept(make_window, qloop):
    with ScriptedLLMServer(models=("llama3.2", "nomic-embed-text")) as server:
        win = make_window(server.base_url, chat_model="nomic-embed-text")
        qloop.run(wait_until(lambda: win.status.state == "ok"))
        items = _menu(win)
        assert list(items) == ["Server default", "llama3.2", "nomic-embed-text"]
        assert items["nomic-embed-text"].isChecked() and "embedding model" in items["nomic-embed-text"].toolTip()
        assert win.status.reach.text() == "reachable · 2 chat models"


def test_a_server_with_only_embedding_models_has_none_to_chat_with(make_window, qloop):
    with ScriptedLLMServer(models=("nomic-embed-text",)) as server:
        win = make_window(server.base_url, chat_model="")
        qloop.run(wait_until(lambda: win.status.state == "warn"))
        assert win.status.reach.text() == "no chat models"
        assert win.status.reason.startswith(f"The server at {server.base_url} has only embedding models "
                                            "(nomic-embed-text), none to chat with. Get one first")
        items = _menu(win)
        assert list(items) == ["Server default", "No chat models listed: only embedding models (nomic-embed-text)"]
        # and a question is not sent to the embedding model as "the server's default"
        from .conftest import ask_and_wait

        assert qloop.run(ask_and_wait(win, "Hello?")) == "error"
        assert "has only embedding models (nomic-embed-text)" in win.view.answers()[-1].error
        assert server.requests == []


def test_the_status_bar_and_the_settings_say_an_empty_model_in_the_same_words(make_window, server, qloop):
    """"Model: server default" in the status bar, "(the server's first chat model)" in Settings: one thing
    said two ways. Both say "server default", and what it is."""
    win = make_window(server.base_url, chat_model="")
    assert win.status.model.text() == "Model: server default ▾"
    assert win.status.model.toolTip().startswith("Server default: the first chat model it lists")
    dialog = win.open_settings()
    placeholder = dialog.field("chat_model").lineEdit().placeholderText()
    assert placeholder == "(server default: the first chat model it lists)"
    assert "Server default" in _menu(win)
    dialog.reject()
