"""Enter on a focused button that opens a menu opens it, as Space does: on an answer's "Choose a model…" it did
nothing (Qt's push buttons take Enter in a dialog only), nor on the status bar's model button or the knowledge
panel's Add. The error's other buttons take Enter too."""

from __future__ import annotations

from PySide6.QtCore import QTimer, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QAbstractButton, QMenu

from tests.sse_server import ScriptedLLMServer, Status, Stream

from .conftest import ask_and_wait, tokens, wait_signal, wait_until

MODELS = ("llama3.2:latest", "qwen2.5:7b")


def _opens_on_enter(button: QAbstractButton, menu: QMenu) -> bool:
    """Press Enter on ``button``, focused; whether ``menu`` opened (closed again at once: a tool button's menu
    holds the key press until it closes)."""
    opened = []

    def shown():
        opened.append(True)
        QTimer.singleShot(0, menu.close)

    menu.aboutToShow.connect(shown)
    try:
        button.setFocus(Qt.FocusReason.TabFocusReason)
        assert button.hasFocus()
        QTest.keyClick(button, Qt.Key.Key_Return)
        QTest.keyClick(button, Qt.Key.Key_Enter, Qt.KeyboardModifier.KeypadModifier)
    finally:
        menu.aboutToShow.disconnect(shown)
        menu.close()
    return opened == [True, True]


def test_enter_on_choose_a_model_opens_the_model_menu_and_enter_on_retry_asks_again(make_window, qloop, qtbot):
    with ScriptedLLMServer(models=MODELS) as server:
        win = make_window(server.base_url, chat_model="llama3")
        qloop.run(wait_until(lambda: win.status.reach.text() == "model missing"))
        server.queue(Status(404, {"error": {"message": "model 'llama3' not found"}}))
        assert qloop.run(ask_and_wait(win, "hello?")) == "error"
        with qtbot.waitActive(win):
            win.activateWindow()
        answer = win.view.answers()[-1]
        assert answer.model_button.isVisible()
        assert _opens_on_enter(answer.model_button, win.status.model_menu)
        # the status bar's model button, the same menu
        assert _opens_on_enter(win.status.model, win.status.model_menu)
        win.choose_model("llama3.2:latest")
        server.queue(Stream(tokens("Hello.")))
        finished = wait_signal(win.answerFinished)
        answer.retry_button.setFocus(Qt.FocusReason.TabFocusReason)
        QTest.keyClick(answer.retry_button, Qt.Key.Key_Return)
        assert qloop.run(finished) == "done" and win.view.answers()[-1].content() == "Hello."


def test_enter_on_the_knowledge_panels_add_opens_its_menu(make_window, server, qloop, qtbot):
    win = make_window(server.base_url)
    win.kb_dock.show()
    with qtbot.waitActive(win):
        win.activateWindow()
    panel = win.kb_dock.widget()
    assert _opens_on_enter(panel.add_button, panel.add_button.menu())
