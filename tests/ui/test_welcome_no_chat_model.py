"""A server that runs but lists only embedding models (an Ollama with only nomic-embed-text): the welcome page
said "No model server has answered yet" and "Still no model server", and only Try again noticed a model pulled
meanwhile (the check every 10 s asked only the address in Settings)."""

from __future__ import annotations

from tests.sse_server import ScriptedLLMServer, free_port
from tinyrag_desktop.firstrun import KnownServer, probe_servers

from .conftest import keep_picture, wait_until


def _port(server: ScriptedLLMServer) -> int:
    return int(server.base_url.rsplit(":", 1)[1].split("/")[0])


def test_the_page_names_the_server_without_a_chat_model_and_uses_it_once_it_has_one(make_window, qloop):
    with ScriptedLLMServer(models=("nomic-embed-text",)) as ollama:
        def probe():
            return probe_servers((KnownServer("Ollama", _port(ollama)),))

        mine = f"http://127.0.0.1:{free_port()}/v1"
        win = make_window(mine, probe=probe, chat_model="")
        qloop.run(wait_until(win.welcome.visible))
        panel = win.welcome.panel
        panel.retry_button.click()
        qloop.run(wait_until(lambda: not panel.busy and "What was tried" in panel.status.text()))
        keep_picture(win, "welcome_embed_only.png")
        intro = panel.intro.text()
        assert "No model server has answered" not in intro
        assert f"Ollama is running at {ollama.base_url}, but has no chat model yet" in intro
        assert "ollama pull llama3.2" in intro and "nomic-embed-text" in intro
        assert panel.status.text().startswith("Still no chat model.")

        ollama.models.append("llama3.2:latest")  # pulled meanwhile
        win.welcome._again.timeout.emit()  # the check every 10 s

        async def found_and_checked():
            await wait_until(lambda: not win.welcome.visible())
            await wait_until(lambda: win.status.state == "ok")

        qloop.run(found_and_checked())
        assert win.settings["base_url"] == ollama.base_url and win.settings["chat_model"] == "llama3.2:latest"


def test_a_first_start_says_so_before_try_again(make_window, qloop, tmp_path):
    with ScriptedLLMServer(models=("nomic-embed-text",)) as ollama:
        def probe():
            return probe_servers((KnownServer("LM Studio", _port(ollama)),))

        win = make_window(f"http://127.0.0.1:{free_port()}/v1", probe=probe, chat_model="")
        win.welcome.first_run()
        qloop.run(wait_until(win.welcome.visible))
        qloop.run(wait_until(lambda: "is running" in win.welcome.panel.intro.text()))
        intro = win.welcome.panel.intro.text()
        assert f"LM Studio is running at {ollama.base_url}" in intro and "load one in LM Studio" in intro


def test_a_save_that_keeps_the_address_leaves_what_try_again_found(make_window, qloop):
    """Settings → Save with only the theme changed: the page went from "Still no chat model. What was tried:
    …lists only embedding models" to "Asked just now, and the address you saved did not answer… Is the server
    running?", beside an intro saying Ollama runs. Only a new address is asked again."""
    with ScriptedLLMServer(models=("nomic-embed-text",)) as ollama:
        def probe():
            return probe_servers((KnownServer("Ollama", _port(ollama)),))

        win = make_window(f"http://127.0.0.1:{free_port()}/v1", probe=probe, chat_model="")
        qloop.run(wait_until(win.welcome.visible))
        panel = win.welcome.panel
        panel.retry_button.click()
        qloop.run(wait_until(lambda: not panel.busy and "What was tried" in panel.status.text()))
        found = panel.status.text()
        assert found.startswith("Still no chat model.")
        checks: list[str] = []
        checked = win.welcome.server_checked
        win.welcome.server_checked = lambda state: (checks.append(state), checked(state))  # type: ignore[method-assign]
        assert win.apply_settings(win.settings.replace(theme="dark"))
        qloop.run(wait_until(lambda: checks))
        assert panel.status.text() == found and "did not answer" not in panel.status.text()

        dead = f"http://127.0.0.1:{free_port()}/v1"  # a new address is still asked, and said
        assert win.apply_settings(win.settings.replace(base_url=dead))
        qloop.run(wait_until(lambda: "did not answer" in panel.status.text()))
        assert dead in panel.status.text()


def test_on_a_first_start_the_status_bar_names_the_server_the_page_found(make_window, qloop):
    # The page said "LM Studio is running at …:58673, but has no chat model yet" while the status bar said
    # "Server: 127.0.0.1:11434 · unreachable" in red: it checked the address the first run started with.
    with ScriptedLLMServer(models=("nomic-embed-text",)) as studio:
        def probe():
            return probe_servers((KnownServer("LM Studio", _port(studio)),))

        first = f"http://127.0.0.1:{free_port()}/v1"  # (the default address, on a real first start)
        win = make_window(first, probe=probe, chat_model="")
        win.welcome.first_run()
        qloop.run(wait_until(lambda: "is running" in win.welcome.panel.intro.text()
                             if win.welcome.panel else False))
        qloop.run(wait_until(lambda: win.status.reach.text() == "no chat models"))
        assert win.status.server.text() == f"Server: {studio.base_url}" and win.status.state == "warn"
        assert "nomic-embed-text" in win.status.reason
        assert win.welcome.visible()  # the page stays, with how to get a chat model
        assert f"LM Studio is running at {studio.base_url}" in win.welcome.panel.intro.text()
        # the page says it: not said twice (the bar may show the user guide's import, ending about now)
        assert "nomic-embed-text" not in (win.notice_bar.label.text() if win.notice_bar.isVisible() else "")
        keep_picture(win, "first_start_no_chat_model.png")
        assert win.settings["base_url"] == first  # nothing saved until it has a chat model

        studio.models.append("qwen2.5-7b-instruct")  # loaded meanwhile
        win.welcome._again.timeout.emit()  # the check every 10 s
        qloop.run(wait_until(lambda: not win.welcome.visible() and win.status.state == "ok"))
        assert win.settings["base_url"] == studio.base_url and win.settings["chat_model"] == "qwen2.5-7b-instruct"
        assert win.status.server.text() == f"Server: {studio.base_url}"


def _first_start_finding(studio: ScriptedLLMServer, make_window, qloop, first: str, chat_model: str):
    """A first start whose search finds ``studio`` as LM Studio, running without a chat model, and whose
    settings' address is ``first`` (Ollama's usual address, on a real first start)."""
    def probe():
        return probe_servers((KnownServer("LM Studio", _port(studio)),))

    win = make_window(first, probe=probe, chat_model=chat_model)
    win.welcome.first_run()
    qloop.run(wait_until(lambda: win.status.server.text() == f"Server: {studio.base_url}"
                         and win.status.state == "warn"))
    assert win.welcome.visible()
    return win


def test_an_ollama_started_with_a_model_beside_lm_studio_without_one_is_used_at_the_next_check(make_window, qloop):
    # Once the status bar named LM Studio, the settings' address (Ollama's) was no longer asked: `ollama serve`
    # with a model pulled left the page there until Try again was pressed.
    with ScriptedLLMServer(models=("nomic-embed-text",)) as studio:
        port = free_port()
        win = _first_start_finding(studio, make_window, qloop, f"http://127.0.0.1:{port}/v1", "")
        with ScriptedLLMServer(models=("llama3.2:latest",), port=port) as ollama:  # started now
            win.welcome._again.timeout.emit()  # the check every 10 s
            qloop.run(wait_until(lambda: not win.welcome.visible() and win.status.state == "ok"))
            assert win.status.server.text() == f"Server: {ollama.base_url}"
            assert win.settings["base_url"] == ollama.base_url


def test_a_first_start_with_a_model_named_uses_the_server_found_once_it_has_another(make_window, qloop):
    # `tinyrag --model llama3.2` on a first start: LM Studio loading qwen made the check say "model missing",
    # and the page stayed for good.
    with ScriptedLLMServer(models=("nomic-embed-text",)) as studio:
        win = _first_start_finding(studio, make_window, qloop, f"http://127.0.0.1:{free_port()}/v1", "llama3.2")
        studio.models.append("qwen2.5-7b-instruct")  # loaded meanwhile
        win.welcome._again.timeout.emit()
        qloop.run(wait_until(lambda: not win.welcome.visible() and win.status.state == "ok"))
        assert win.settings["base_url"] == studio.base_url and win.settings["chat_model"] == "qwen2.5-7b-instruct"
        assert win.status.server.text() == f"Server: {studio.base_url}"
