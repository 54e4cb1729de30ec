"""A server that asks for an API key (vLLM or LM Studio started with --api-key): the first start said "No model
server has answered yet", "Still no model server", and of it "answered HTTP 401, not a model list". And an
error's Open Settings put the cursor in the Server URL, whichever field the error was about."""

from __future__ import annotations

import pytest

from tests.sse_server import ScriptedLLMServer, Status, free_port
from tinyrag_desktop.firstrun import KnownServer, probe_servers
from tinyrag_desktop.ui.settings_dialog import SettingsDialog

from .conftest import ask_and_wait, keep_picture, wait_until

_REFUSED = Status(401, {"error": {"message": "Invalid API key", "code": "invalid_api_key"}})


def _port(server: ScriptedLLMServer) -> int:
    return int(server.base_url.rsplit(":", 1)[1].split("/")[0])


def _locked_vllm(server: ScriptedLLMServer):
    server.pages["/v1/models"] = _REFUSED
    return lambda: probe_servers((KnownServer("Ollama", free_port()), KnownServer("vLLM", _port(server))))


def _open_dialog(win) -> SettingsDialog:
    [dialog] = [d for d in win.findChildren(SettingsDialog) if d.isVisible()]
    return dialog


def test_the_probe_says_a_server_asks_for_a_key(qloop):
    with ScriptedLLMServer() as vllm:
        result = qloop.run(_locked_vllm(vllm)())
    assert result.found is None and result.locked is not None
    assert result.locked.server_name == "vLLM" and result.locked.reason == "runs, but asks for an API key (HTTP 401)"
    assert result.summary().startswith(f"vLLM is running at {vllm.base_url} but asks for an API key: ")


def test_a_refusal_that_is_no_model_servers_does_not_name_the_server_of_its_port(make_window, qloop):
    with ScriptedLLMServer() as other:  # a proxy or a router's page on vLLM's port: "Forbidden", no JSON error
        other.pages["/v1/models"] = Status(403, "Forbidden")
        probe = lambda: probe_servers((KnownServer("vLLM", _port(other)),))  # noqa: E731
        result = qloop.run(probe())
        assert result.summary().startswith(f"A server at {other.base_url} asks for an API key: ")
        win = make_window(f"http://127.0.0.1:{free_port()}/v1", probe=probe, chat_model="")
        win.welcome.first_run()
        qloop.run(wait_until(win.welcome.visible))
        panel = win.welcome.panel
        qloop.run(wait_until(lambda: panel.key_button.isVisible()))
    intro = panel.intro.text()
    assert f"A server at {other.base_url} asks for an API key" in intro and "vLLM" not in intro
    assert "--api-key" not in intro  # nothing says how it was started


def test_a_first_start_names_the_server_and_opens_settings_at_its_key(make_window, qloop):
    with ScriptedLLMServer() as vllm:
        win = make_window(f"http://127.0.0.1:{free_port()}/v1", probe=_locked_vllm(vllm), chat_model="")
        win.welcome.first_run()
        qloop.run(wait_until(win.welcome.visible))
        panel = win.welcome.panel
        qloop.run(wait_until(lambda: panel.key_button.isVisible()))
        intro = panel.intro.text()
        assert f"vLLM is running at {vllm.base_url} but asks for an API key" in intro
        assert "No model server has answered" not in intro
        keep_picture(win, "welcome_api_key.png")

        panel.retry_button.click()  # Try again keeps saying it, and what each one answered
        qloop.run(wait_until(lambda: not panel.busy and "What was tried" in panel.status.text()))
        assert panel.status.text().startswith("Still waiting for an API key.")
        assert "runs, but asks for an API key (HTTP 401)" in panel.status.text()
        assert panel.key_button.isVisible() and "asks for an API key" in panel.intro.text()

        panel.key_button.click()
        dialog = _open_dialog(win)
        assert dialog.field("base_url").text() == vllm.base_url
        assert dialog._tabs.tabText(dialog._tabs.currentIndex()).replace("&", "") == "Model"
        assert dialog.focusWidget() is dialog.field("api_key")
        del vllm.pages["/v1/models"]  # (the scripted server takes any key)
        dialog.field("api_key").setText("sk-local")
        dialog.save_button.click()
        qloop.run(wait_until(lambda: not win.welcome.visible() and win.status.state == "ok"))
        assert win.settings["base_url"] == vllm.base_url and win.settings["api_key"] == "sk-local"


def test_on_a_first_start_the_status_bar_names_the_server_that_asks_for_a_key(make_window, qloop):
    # The page said "vLLM is running at … but asks for an API key" while the status bar said
    # "Server: 127.0.0.1:11434 · unreachable" in red: it checked the address the first run started with.
    with ScriptedLLMServer(models=("qwen2.5",)) as vllm:
        port = free_port()
        first = f"http://127.0.0.1:{port}/v1"  # (the default address, on a real first start)
        win = make_window(first, probe=_locked_vllm(vllm), chat_model="")
        win.welcome.first_run()
        qloop.run(wait_until(lambda: win.welcome.panel is not None and win.welcome.panel.key_button.isVisible()))
        qloop.run(wait_until(lambda: win.status.server.text() == f"Server: {vllm.base_url}"
                             and win.status.reach.text() == "API key refused"))
        assert win.status.state == "warn" and win.welcome.visible()
        assert win.settings["base_url"] == first  # nothing saved until a key is entered
        # the settings' address is still asked: an Ollama started there with a model is used at the next check
        with ScriptedLLMServer(models=("llama3.2:latest",), port=port) as ollama:
            win.welcome._again.timeout.emit()  # the check every 10 s
            qloop.run(wait_until(lambda: not win.welcome.visible() and win.status.state == "ok"))
            assert win.status.server.text() == f"Server: {ollama.base_url}"


@pytest.mark.parametrize("field", ["api_key", "chat_model", "base_url"])
def test_an_errors_open_settings_puts_the_cursor_in_the_field_to_fix(make_window, qloop, field):
    with ScriptedLLMServer(models=("llama3.2",)) as server:
        base_url = server.base_url if field != "base_url" else f"http://127.0.0.1:{free_port()}/v1"
        win = make_window(base_url, chat_model="ghost" if field == "chat_model" else "llama3.2")
        if field == "api_key":
            server.queue(_REFUSED)
        elif field == "chat_model":
            server.queue(Status(404, {"error": {"message": "model 'ghost' not found"}}))
        assert qloop.run(ask_and_wait(win, "Hello?")) == "error"
        answer = win.view.answers()[-1]
        assert answer.settings_button.isVisible()
        answer.settings_button.click()
        dialog = _open_dialog(win)
        assert dialog.focusWidget() is dialog.field(field), answer.error
        dialog.reject()
