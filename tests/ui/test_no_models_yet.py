"""A server that answers but has no model yet: the status bar says "no models" in amber with how to get one,
not a green "reachable · 0 models"; a question says the same words."""

from __future__ import annotations

from PySide6.QtWidgets import QPushButton

from tests.sse_server import ScriptedLLMServer, Status, Stream

from .conftest import ask_and_wait


def test_a_server_without_models_is_said_with_how_to_get_one(make_window, qloop):
    with ScriptedLLMServer(models=()) as server:
        win = make_window(server.base_url, chat_model="")
        assert win.status.state == "warn" and win.status.reach.text() == "no models"
        assert "`ollama pull llama3.2`" in win.status.reason and "LM Studio" in win.status.reason
        assert qloop.run(ask_and_wait(win, "Hello?")) == "error"
        error = win.view.answers()[-1].error
        assert "has no models yet" in error and "ollama pull llama3.2" in error


def test_ollama_with_nothing_pulled_is_said_to_have_no_models(make_window):
    # Ollama's list of no models is "data": null: the status bar said the server was not OpenAI-compatible and
    # to check the Server URL, which was right
    with ScriptedLLMServer(models=()) as server:
        server.pages["/v1/models"] = {"object": "list", "data": None}
        win = make_window(server.base_url, chat_model="")
        assert win.status.state == "warn" and win.status.reach.text() == "no models"
        assert "`ollama pull llama3.2`" in win.status.reason


def test_llama_cpp_answers_whatever_name_is_set_and_is_not_said_missing(make_window):
    with ScriptedLLMServer(models=("/models/qwen2.5-7b-instruct-q4_k_m.gguf",)) as server:
        win = make_window(server.base_url, chat_model="qwen2.5")
        assert win.status.state == "ok" and win.status.reach.text() == "reachable · 1 chat model"
    with ScriptedLLMServer(models=("llama3.2:latest",)) as server:  # Ollama: the name must be one it has
        win = make_window(server.base_url, chat_model="qwen2.5")
        assert win.status.state == "warn" and win.status.reach.text() == "model missing"


def test_a_server_without_models_is_asked_again_until_one_is_pulled(make_window, qloop, monkeypatch):
    from tinyrag_desktop.ui import welcome

    from .conftest import wait_until

    monkeypatch.setattr(welcome, "RECHECK_MS", 200)
    with ScriptedLLMServer(models=()) as server:
        win = make_window(server.base_url, chat_model="")
        assert win.status.reach.text() == "no models"
        server.models.append("llama3.2:latest")  # `ollama pull llama3.2` finished
        qloop.run(wait_until(lambda: win.status.state == "ok", timeout=10))


def test_the_way_to_get_a_model_is_said_in_the_notice_bar_until_one_appears(make_window, qloop, monkeypatch):
    # First start with a server that answers but has no model: the only guidance was the tooltip of an amber
    # "no models" in the status bar.
    from tinyrag_desktop.ui import welcome

    from .conftest import wait_until

    monkeypatch.setattr(welcome, "RECHECK_MS", 200)
    with ScriptedLLMServer(models=()) as server:
        # beside a notice shown at start, which it does not replace
        win = make_window(server.base_url, chat_model="",
                          warnings=["settings.json: theme must be one of light, dark, system, not 'purple'."])
        qloop.run(wait_until(lambda: "has no models yet" in win.notice_bar.label.text()))
        said = win.notice_bar.label.text().split("\n")
        assert said == ["settings.json: theme must be one of light, dark, system, not 'purple'.",
                        f"The server at {server.base_url} has no models yet. Get one first: with Ollama, "
                        "“ollama pull llama3.2” in a terminal; with LM Studio, download and load a model in its "
                        "window."]
        assert win.notice_bar.isVisible()
        server.models.append("llama3.2:latest")  # `ollama pull llama3.2` finished
        qloop.run(wait_until(lambda: win.status.state == "ok", timeout=10))
        qloop.run(wait_until(lambda: "has no models yet" not in win.notice_bar.label.text()))
        # the notice it was shown beside stays
        assert win.notice_bar.isVisible() and win.notice_bar.label.text() == said[0]


def test_a_dismissed_no_models_notice_is_not_brought_back_by_the_next_checks(make_window, qloop, monkeypatch):
    from tinyrag_desktop.ui import welcome

    from .conftest import wait_until

    monkeypatch.setattr(welcome, "RECHECK_MS", 100)
    with ScriptedLLMServer(models=("nomic-embed-text",)) as server:  # an embedding model is none to chat with
        win = make_window(server.base_url, chat_model="")
        qloop.run(wait_until(win.notice_bar.isVisible))
        assert "has only embedding models (nomic-embed-text), none to chat with" in win.notice_bar.label.text()
        win.notice_bar.findChild(QPushButton, "dismissNotice").click()
        checks = []
        start_check = win.status.start_check
        win.status.start_check = lambda *args: checks.append(1) or start_check(*args)
        qloop.run(wait_until(lambda: len(checks) >= 2 and win.status._check.done(), timeout=10))
        assert win.status.reach.text() == "no chat models" and not win.notice_bar.isVisible()


def test_a_model_named_without_ollamas_latest_tag_is_not_said_missing(make_window):
    # "llama3.2" is what the README has users pull, and Ollama lists it as "llama3.2:latest": the status bar
    # said "model missing" in amber beside the model's answer
    with ScriptedLLMServer(models=("llama3.2:latest", "qwen2.5:7b")) as server:
        win = make_window(server.base_url, chat_model="llama3.2")
        assert win.status.state == "ok" and win.status.reach.text() == "reachable · 2 chat models"
        win = make_window(server.base_url, chat_model="qwen2.5")  # another tag than latest is another model
        assert win.status.state == "warn" and win.status.reach.text() == "model missing"


def test_settings_list_the_models_the_status_bar_found_and_say_the_saved_one_is_missing(make_window, qtbot):
    # With chat_model "nosuch:7b", the Chat model list held only "nosuch:7b" until "Test connection" was
    # pressed, though the status bar had the server's models already.
    with ScriptedLLMServer(models=("llama3.2:latest", "qwen2.5:7b", "nomic-embed-text")) as server:
        win = make_window(server.base_url, chat_model="nosuch:7b")
        assert win.status.reach.text() == "model missing"
        dialog = win.open_settings()
        assert dialog.models() == ["llama3.2:latest", "qwen2.5:7b"]
        assert dialog.field("chat_model").currentText() == "nosuch:7b"  # as saved, until the user chooses
        embed = dialog.field("embed_model")
        assert [embed.itemText(i) for i in range(embed.count())][0] == "nomic-embed-text"
        assert dialog.test_result.isVisibleTo(dialog) and dialog.test_result.property("failed")
        assert "has no model called “nosuch:7b”: choose one of llama3.2:latest, qwen2.5:7b" in dialog.test_result.text()
        dialog.field("chat_model").setCurrentText("qwen2.5:7b")  # the reason goes with the name it was about
        assert not dialog.test_result.isVisibleTo(dialog)
        dialog.reject()


def test_settings_with_the_server_default_model_keep_it_with_the_list_filled(make_window):
    with ScriptedLLMServer(models=("llama3.2:latest",)) as server:
        win = make_window(server.base_url, chat_model="")
        dialog = win.open_settings()
        assert dialog.models() == ["llama3.2:latest"] and dialog.field("chat_model").currentText() == ""
        assert not dialog.test_result.isVisibleTo(dialog)
        dialog.reject()


def test_a_server_that_lists_no_models_but_answers_is_reachable_and_answers(make_window, qloop):
    # Its /models a 404: "wrong address" in amber, "found nothing at that address … Check the Server URL", and
    # every question refused so, though its chat answered when a model was named
    with ScriptedLLMServer() as server:
        server.pages["/v1/models"] = Status(404, {"error": {"message": "not found"}})
        server.queue(*[Stream(["Hello."]) for _ in range(6)])  # the checks' one-token questions, and the answer
        win = make_window(server.base_url, chat_model="")
        assert win.status.state == "ok" and win.status.reach.text() == "reachable"
        assert "answers questions but does not list its models" in win.status.reason
        dialog = win.open_settings()
        qloop.run(dialog.test_connection())
        assert dialog.test_result.text().startswith(f"Connected. The server at {server.base_url} answers questions "
                                                    "but does not list its models")
        assert "With no Chat model set, questions go to the model it serves." in dialog.test_result.text()
        assert dialog.test_result.property("failed") is not True
        dialog.reject()
        assert qloop.run(ask_and_wait(win, "Hello?")) == "done"
        assert win.view.answers()[-1].copy_markdown().strip() == "Hello."


def test_a_server_that_lists_no_models_and_wants_one_named_asks_for_the_chat_model(make_window, qloop):
    # An old Ollama ("model is required" with none named) was a green "reachable", and every question failed
    with ScriptedLLMServer() as server:
        server.pages["/v1/models"] = Status(404, {"error": {"message": "404 page not found"}})
        server.queue(Status(400, {"error": {"message": "model is required"}}))
        win = make_window(server.base_url, chat_model="")
        assert win.status.state == "warn" and win.status.reach.text() == "set the Chat model"
        assert "It takes no question without a model named: set the Chat model in Settings" in win.status.reason
        dialog = win.open_settings()
        qloop.run(dialog.test_connection())
        assert dialog.test_result.property("failed") is True
        dialog.field("chat_model").setCurrentText("llama3.2")  # named: the same server is fine
        qloop.run(dialog.test_connection())
        assert dialog.test_result.property("failed") is not True
        assert dialog.test_result.text().endswith("Questions name the Chat model, “llama3.2”.")
        dialog.reject()


def test_a_server_that_lists_no_models_with_a_chat_model_set_says_questions_name_it(make_window):
    # "questions go to the model it serves" was said with a Chat model set, which every question names
    with ScriptedLLMServer() as server:
        server.pages["/v1/models"] = Status(404, {"error": {"message": "404 page not found"}})
        server.queue(Stream(["H"]))
        win = make_window(server.base_url, chat_model="qwen2.5:7b")
        assert win.status.state == "ok" and win.status.reach.text() == "reachable"
        assert win.status.reason.endswith("Questions name the Chat model, “qwen2.5:7b”.")
