"""The welcome panel, offscreen: Try again runs the real probe against loopback servers; the built-in button."""

from __future__ import annotations

import asyncio
import os
from functools import partial

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402
from PySide6.QtCore import Qt  # noqa: E402

from tests.sse_server import ScriptedLLMServer, free_port  # noqa: E402
from tinyrag_desktop.firstrun import KnownServer, probe_servers  # noqa: E402
from tinyrag_desktop.localmodel import LocalModelError  # noqa: E402
from tinyrag_desktop.ui.welcome_panel import WelcomePanel  # noqa: E402


@pytest.fixture
def qloop(qapp):
    from tinyrag_desktop.ui.qtloop import TidyEventLoop, asyncgen_hooks

    loop = TidyEventLoop(qapp)
    asyncio.set_event_loop(loop)
    with asyncgen_hooks(loop):
        yield loop
        loop.run_until_complete(asyncio.sleep(0))
    loop.close()
    asyncio.set_event_loop(None)


def click_and_wait(loop, qtbot, button, signal, timeout: float = 10.0):
    """Click ``button`` and run the Qt/asyncio loop until ``signal`` fires; returns its arguments."""
    fut = loop.create_future()

    def fire(*args):
        if not fut.done():
            fut.set_result(args)

    signal.connect(fire)
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    return loop.run_until_complete(asyncio.wait_for(fut, timeout))


def _port(server: ScriptedLLMServer) -> int:
    return int(server.base_url.rsplit(":", 1)[1].split("/")[0])


def test_builtin_button_only_when_it_can_run(qtbot) -> None:
    without = WelcomePanel(builtin_note="llama.cpp is not installed: run pip install '.[local]'")
    qtbot.add_widget(without)
    without.show()
    assert not without.builtin_button.isVisible()
    assert "pip install '.[local]'" in without.builtin_label.text()

    async def start() -> tuple[str, str]:
        return "http://127.0.0.1:1/v1", "smol"

    with_builtin = WelcomePanel(start_builtin=start, builtin_note="SmolLM2-135M")
    qtbot.add_widget(with_builtin)
    with_builtin.show()
    assert with_builtin.builtin_button.isVisible() and "SmolLM2-135M" in with_builtin.builtin_label.text()
    texts = " ".join(w.text() for w in with_builtin.findChildren(type(with_builtin.title)))
    for words in ("Ollama", "LM Studio", "llama.cpp", "ollama pull", "llama-server"):
        assert words in texts


def test_try_again_finds_a_server_that_started_meanwhile(qtbot, qloop) -> None:
    with ScriptedLLMServer(models=("nomic-embed-text", "qwen2.5:0.5b")) as llm:
        servers = [KnownServer("Ollama", free_port()), KnownServer("LM Studio", _port(llm))]
        panel = WelcomePanel(probe=partial(probe_servers, servers, timeout=2.0))
        qtbot.add_widget(panel)
        panel.show()
        retried = []
        panel.retryRequested.connect(lambda: retried.append(True))
        (found,) = click_and_wait(qloop, qtbot, panel.retry_button, panel.serverFound)
    assert retried == [True]
    assert (found.server_name, found.model, found.base_url) == ("LM Studio", "qwen2.5:0.5b", llm.base_url)
    assert "Found LM Studio" in panel.status.text() and panel.retry_button.isEnabled()


def test_try_again_with_nothing_running_lists_what_was_tried(qtbot, qloop) -> None:
    servers = [KnownServer("Ollama", free_port()), KnownServer("Jan", free_port())]
    panel = WelcomePanel(probe=partial(probe_servers, servers, timeout=1.0))
    qtbot.add_widget(panel)
    found = []
    panel.serverFound.connect(found.append)
    panel.show()
    qtbot.mouseClick(panel.retry_button, Qt.MouseButton.LeftButton)
    assert panel.busy and not panel.retry_button.isEnabled()
    qloop.run_until_complete(asyncio.wait_for(panel._task, 10))
    assert found == []
    text = panel.status.text()
    assert "Still no model server" in text and "Ollama" in text and "Jan" in text
    assert "nothing answers there" in text and panel.retry_button.isEnabled()


def test_use_builtin_reports_ready_and_keeps_buttons_off_while_starting(qtbot, qloop) -> None:
    gate = asyncio.Event()

    async def start() -> tuple[str, str]:
        await gate.wait()
        return "http://127.0.0.1:5555/v1", "smollm2-135m-instruct"

    panel = WelcomePanel(start_builtin=start)
    qtbot.add_widget(panel)
    panel.show()
    qtbot.mouseClick(panel.builtin_button, Qt.MouseButton.LeftButton)
    qloop.run_until_complete(asyncio.sleep(0.05))
    assert not panel.builtin_button.isEnabled() and "Starting the built-in model" in panel.status.text()
    ready = qloop.create_future()
    panel.builtinReady.connect(lambda url, model: ready.done() or ready.set_result((url, model)))
    gate.set()
    assert qloop.run_until_complete(asyncio.wait_for(ready, 5)) == ("http://127.0.0.1:5555/v1",
                                                                      "smollm2-135m-instruct")
    assert panel.builtin_button.isEnabled() and "is running" in panel.status.text()


def test_use_builtin_failure_is_shown_in_words(qtbot, qloop) -> None:
    async def start() -> tuple[str, str]:
        raise LocalModelError("The model file /x.gguf does not exist.")

    panel = WelcomePanel(start_builtin=start)
    qtbot.add_widget(panel)
    panel.show()
    (message,) = click_and_wait(qloop, qtbot, panel.builtin_button, panel.builtinFailed)
    assert message == "The model file /x.gguf does not exist."
    assert "could not start" in panel.status.text() and panel.builtin_button.isEnabled()


def test_settings_button_asks_the_window_for_settings(qtbot) -> None:
    panel = WelcomePanel()
    qtbot.add_widget(panel)
    panel.show()
    with qtbot.waitSignal(panel.openSettingsRequested, timeout=2000):
        qtbot.mouseClick(panel.settings_button, Qt.MouseButton.LeftButton)
