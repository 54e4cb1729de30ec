"""Messages the window shows name the setting to change, not the command-line flag a window cannot take."""

from __future__ import annotations

import httpx
import pytest

from tests.sse_server import Status
from tinyrag_desktop.engine.llm import LLMClient
from tinyrag_desktop.engine.events import ToolFinished
from tinyrag_desktop.settings import defaults
from tinyrag_desktop.ui.answer import AnswerWidget
from tinyrag_desktop.tool_words import window_words

from .conftest import ask_and_wait


def _refused() -> Exception:
    """The client's own error for a refused API key, as the command line prints it."""
    return LLMClient(httpx.AsyncClient(), "http://127.0.0.1:9/v1", "")._status_error(401, "", what="list models")


@pytest.mark.parametrize(("reply", "chat_model", "expected"), [
    (Status(401, {"error": {"message": "invalid key"}}), "scripted", "Set it in Settings."),
    (Status(404, {"error": {"message": "model 'missing' not found"}}), "missing", "Choose one of those to use instead."),
], ids=["api-key", "model"])
def test_an_answers_error_names_the_setting_not_the_flag(make_window, server, qloop, reply, chat_model, expected):
    # It said "Set it in Settings (or pass --api-key)." under the question: no one can pass a flag there.
    server.queue(reply)
    win = make_window(server.base_url, chat_model=chat_model)
    assert qloop.run(ask_and_wait(win, "Hello")) == "error"
    answer = win.view.answers()[-1]
    assert expected in answer.error and "--" not in answer.error
    assert "--" not in answer._error_label.text()


def test_the_status_bar_and_test_connection_name_the_setting_not_the_flag(qloop, qtbot):
    from PySide6.QtWidgets import QMainWindow

    from tinyrag_desktop.ui.settings_connection import _test_failure
    from tinyrag_desktop.ui.status import ServerStatus

    assert "(or pass --api-key)" in str(_refused())  # the command line keeps its flag
    window = QMainWindow()
    qtbot.addWidget(window)
    status = ServerStatus(window.statusBar())

    async def refuse(base_url: str, key: str) -> list[str]:
        raise _refused()

    qloop.run(status.check(refuse, defaults()))
    assert status.reach.text() == "API key refused"
    assert status.reason.endswith("Set it in Settings.") and "--" not in status.reach.toolTip()
    said = _test_failure(_refused())
    assert said.startswith("Connected, but ") and "--" not in said


def test_a_tool_reason_with_a_flag_reads_without_it_on_the_card(qtbot):
    answer = AnswerWidget()
    qtbot.addWidget(answer)
    card = answer.tool_finished(ToolFinished(
        "s1", "shell", "ls", "", "The shell tool is off: enable 'Allow shell commands' in Settings or pass "
        "--allow-shell-exec.", 0, "error", 0))
    assert card.note == "The shell tool is off: enable 'Allow shell commands' in Settings."
    assert "--" not in card.details_text() and "--" not in card.toolTip()


@pytest.mark.parametrize(("text", "said"), [
    ("correct the Server URL in Settings (or --base-url).", "correct the Server URL in Settings."),
    ("Choose one in Settings (or pass --model).", "Choose one in Settings."),
    ("enable 'Allow Go code (nanoGo)' in Settings or pass --allow-nanogo.",
     "enable 'Allow Go code (nanoGo)' in Settings."),
    ("Use `ls --all` (or `--help`).", "Use `ls --all` (or `--help`)."),  # a command the model wrote stays
    # the knowledge base's advice, as the rag_knowledge tool's card and the knowledge panel show it
    ("Move it elsewhere, or use another data folder (--data-dir).",
     "Move it elsewhere, or quit tinyRAG and start it with another data folder."),
    ("Use another data folder (--data-dir), or make the folder writable.",
     "Quit tinyRAG and start it with another data folder, or make the folder writable."),
])
def test_window_words(text, said):
    assert window_words(text) == said
