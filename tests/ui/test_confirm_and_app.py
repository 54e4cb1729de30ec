"""The shell tool's confirm dialog in the window, and the `--ask --screenshot` mode of the app."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from PySide6.QtGui import QImage

from tests.sse_server import ScriptedLLMServer, Stream, free_port

from .conftest import ask_and_wait, tokens, wait_until

SHELL = '<tool name="shell"><query>echo tinyrag-confirmed</query></tool>'


def _answer_confirm(win, qloop, button: str, allow_chat: bool = False):
    """Wait for the confirm dialog, check it shows the exact command, press Run or Deny."""
    async def go():
        await wait_until(lambda: win.confirmer.current is not None and win.confirmer.current.isVisible())
        dialog = win.confirmer.current
        assert dialog.command.toPlainText() == "echo tinyrag-confirmed"
        dialog.allow_chat.setChecked(allow_chat)
        (dialog.run_button if button == "run" else dialog.deny_button).click()
    return go()


def test_shell_commands_ask_first_and_run_only_when_allowed(make_window, server, qloop):
    server.queue(Stream(tokens(SHELL)), Stream(tokens("It printed the word.")),
                 Stream(tokens(SHELL.replace("confirmed", "denied"))), Stream(tokens("Denied.")))
    win = make_window(server.base_url, allow_shell_exec=True)

    async def ask_with(button, question):
        answer = ask_and_wait(win, question)
        import asyncio
        task = asyncio.ensure_future(answer)
        await _answer_confirm_cmd(win, button)
        return await task

    async def _answer_confirm_cmd(win, button):
        await wait_until(lambda: win.confirmer.current is not None and win.confirmer.current.isVisible())
        dialog = win.confirmer.current
        assert dialog.command.toPlainText().startswith("echo tinyrag-")
        assert dialog.deny_button.isDefault()
        (dialog.run_button if button == "run" else dialog.deny_button).click()

    assert qloop.run(ask_with("run", "Run echo")) == "done"
    [card] = win.view.answers()[-1].cards()
    assert card.status == "done" and "tinyrag-confirmed" in card.details_text()
    assert qloop.run(ask_with("deny", "Run echo again")) == "done"
    [card] = win.view.answers()[-1].cards()
    assert card.status == "error" and card.denied and card.meta == "denied"  # ✗, as the engine says; in its words


def test_allow_for_this_chat_skips_the_question_next_time(make_window, server, qloop):
    second = SHELL.replace("confirmed", "again")
    server.queue(Stream(tokens(SHELL)), Stream(tokens("ok")), Stream(tokens(second)), Stream(tokens("ok")))
    win = make_window(server.base_url, allow_shell_exec=True)

    async def first():
        import asyncio
        task = asyncio.ensure_future(ask_and_wait(win, "Run echo"))
        await _answer_confirm(win, qloop, "run", allow_chat=True)
        return await task

    assert qloop.run(first()) == "done"
    assert qloop.run(ask_and_wait(win, "Run it again")) == "done"  # no dialog this time
    [card] = win.view.answers()[-1].cards()
    assert card.status == "done" and "tinyrag-again" in card.details_text()


def _run_app(args: list[str], tmp_path: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "TINYRAG_DATA_DIR": str(tmp_path / "data")}
    return subprocess.run([sys.executable, "-m", "tinyrag_desktop", *args], env=env, capture_output=True,
                          text=True, timeout=120)


def test_ask_screenshot_saves_the_window_and_exits_0(tmp_path):
    with ScriptedLLMServer() as srv:
        srv.queue(Stream(tokens('<tool name="calculate"><query>6 * 7</query></tool>')),
                  Stream(tokens("It is **42**.")))
        shot = tmp_path / "window.png"
        done = _run_app(["--base-url", srv.base_url, "--model", "scripted", "--data-dir", str(tmp_path / "d"),
                         "--ask", "What is 6 * 7?", "--screenshot", str(shot), "--size", "900x600"], tmp_path)
    assert done.returncode == 0, done.stderr
    image = QImage(str(shot))
    assert (image.width(), image.height()) == (900, 600)
    assert len(srv.requests) == 2
    # The next start by hand reopened the scripted run's chat at its 900×600: window.ini was written.
    assert not (tmp_path / "d" / "window.ini").exists()


def test_ask_screenshot_exits_1_when_the_server_is_down(tmp_path):
    shot = tmp_path / "down.png"
    done = _run_app(["--base-url", f"http://127.0.0.1:{free_port()}/v1", "--data-dir", str(tmp_path / "d"),
                     "--ask", "Hello?", "--screenshot", str(shot)], tmp_path)
    assert done.returncode == 1, done.stderr
    assert shot.is_file() and not QImage(str(shot)).isNull()
    # A script sees why, not only the exit status: the answer's error, in words, on standard error.
    assert "error: The model server at http://127.0.0.1:" in done.stderr and "cannot be reached" in done.stderr
    assert "Traceback" not in done.stderr


def test_screenshot_without_ask_is_refused(tmp_path):
    done = _run_app(["--screenshot", str(tmp_path / "x.png")], tmp_path)
    assert done.returncode == 2 and "--ask" in done.stderr


def test_a_command_asked_by_a_chat_not_on_screen_names_that_chat(make_window, server, qloop):
    # The question opened over the chat being read and offered "the rest of this chat", which read as that
    # chat, while the command came from the one answering out of sight.
    from PySide6.QtWidgets import QLabel

    from .conftest import wait_signal

    server.queue(Stream(tokens("A."), delay=0.001), Stream(["Let me look. ", *tokens("x" * 400, 8), " ", SHELL],
                                                           delay=0.005), Stream(tokens("Done.")))
    win = make_window(server.base_url, allow_shell_exec=True)
    assert qloop.run(ask_and_wait(win, "About apples")) == "done"
    apples = win.chat_id

    async def scenario():
        win.new_chat()
        finished = wait_signal(win.answerFinished, timeout=20)
        win.ask("Clean my temp folder")
        await wait_until(lambda: win.view.answers() and win.view.answers()[-1].content())
        win.open_chat(apples)
        await wait_until(lambda: win.confirmer.current is not None and win.confirmer.current.isVisible())
        dialog = win.confirmer.current
        intro = dialog.findChildren(QLabel)[0].text()
        assert "(in the chat “Clean my temp folder”, not the one open)" in intro
        assert dialog.allow_chat.text() == "&Allow commands without asking for the rest of “Clean my temp folder”"
        dialog.deny_button.click()
        return await finished

    assert qloop.run(scenario(), timeout=30) == "done"
    assert win.chat_id == apples


def test_a_command_asked_by_the_chat_on_screen_says_this_chat(make_window, server, qloop):
    server.queue(Stream(tokens(SHELL)), Stream(tokens("Done.")))
    win = make_window(server.base_url, allow_shell_exec=True)

    async def scenario():
        import asyncio
        task = asyncio.ensure_future(ask_and_wait(win, "Run echo"))
        await wait_until(lambda: win.confirmer.current is not None and win.confirmer.current.isVisible())
        dialog = win.confirmer.current
        assert dialog.allow_chat.text() == "&Allow commands without asking for the rest of this chat"
        dialog.deny_button.click()
        return await task

    assert qloop.run(scenario()) == "done"
