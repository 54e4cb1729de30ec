"""A long question is shown folded to its first lines, with "Show all (3,000 lines)" and "Show less": a
3,000-line log sent as a question made the conversation 41,518 px tall, with no way to fold it."""

from __future__ import annotations

from PySide6.QtGui import QAccessible
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication

from tests.sse_server import Stream
from tinyrag_desktop.ui.question_bubble import FOLD_LINES, UserBubble

from .conftest import ask_and_wait, tokens, wait_until

LOG = "\n".join(f"log line {n}: something happened at module x.y.z with value {n * 7}" for n in range(3000))


def _lines_tall(bubble: UserBubble) -> float:
    return bubble.text_view.height() / bubble.text_view.fontMetrics().lineSpacing()


def test_a_long_question_shows_its_first_lines_and_opens_and_folds_by_mouse_and_keyboard(
        make_window, server, qloop, qtbot, tmp_path):
    server.queue(Stream(tokens("I read your log. It has 3000 lines.")))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, LOG)) == "done"
    sent = [m["content"] for m in server.requests[-1]["messages"] if m["role"] == "user"][-1]
    assert sent.startswith(LOG)  # the model reads the whole question
    [bubble] = win.view.questions()
    button = bubble.fold_button
    assert button.isVisible() and button.text() == "Show all (3,000 lines)"
    assert FOLD_LINES - 1 <= _lines_tall(bubble) <= FOLD_LINES + 1, _lines_tall(bubble)
    assert win.view.widget().height() < 2000  # it was 41,518 px
    win.grab().save(str(tmp_path / "folded.png"))

    canvas = win.view.viewport()
    pressed_at = button.mapTo(canvas, QPoint(0, 0)).y()
    fold = bubble.text_view.fold_height
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)  # the mouse opens it
    assert button.text() == "Show less" and _lines_tall(bubble) > 2900
    assert bubble.text_view.height() >= bubble.text_view.document().size().height() - 1
    qloop.run(wait_until(lambda: bubble.height() > 40_000))
    # what was under the fold is where the button was, not the conversation's end, 3,000 lines below
    under_fold = bubble.text_view.viewport().mapTo(canvas, QPoint(0, fold)).y()
    assert abs(under_fold - pressed_at) < 40, (under_fold, pressed_at)
    win.grab().save(str(tmp_path / "opened.png"))
    button.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.keyClick(button, Qt.Key.Key_Space)  # and the keyboard folds it again
    assert button.text() == "Show all (3,000 lines)" and _lines_tall(bubble) <= FOLD_LINES + 1
    qloop.run(wait_until(lambda: bubble.height() < 1000))
    assert button.hasFocus() and not button.visibleRegion().isEmpty()  # in view, though it was far below
    qtbot.keyClick(button, Qt.Key.Key_Space)
    assert button.text() == "Show less"
    qtbot.keyClick(button, Qt.Key.Key_Space)

    # a screen reader reads the control, and what it does
    face = QAccessible.queryAccessibleInterface(button)
    assert face.role() == QAccessible.Role.Button
    assert face.text(QAccessible.Text.Name) == "Show all of the question, 3,000 lines"
    assert "Folded" in QAccessible.queryAccessibleInterface(bubble.text_view).text(QAccessible.Text.Description)


def test_select_all_copies_the_whole_question_and_leaves_it_folded_and_the_arrows_open_it(
        make_window, server, qloop, qtbot):
    server.queue(Stream(tokens("Read.")))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, LOG)) == "done"
    [bubble] = win.view.questions()
    view = bubble.text_view
    view.setFocus(Qt.FocusReason.TabFocusReason)
    qtbot.keyClick(view, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClick(view, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    assert QApplication.clipboard().text() == LOG
    assert view.is_folded() and view.verticalScrollBar().value() == 0  # its first lines still shown
    assert view.toPlainText() == LOG and bubble.text() == LOG
    # the caret walked down past the fold opens the question: what it comes to is seen
    qtbot.keyClick(view, Qt.Key.Key_Home, Qt.KeyboardModifier.ControlModifier)
    for _ in range(FOLD_LINES + 1):
        qtbot.keyClick(view, Qt.Key.Key_Down)
    assert not view.is_folded() and bubble.fold_button.text() == "Show less"


def test_a_long_question_from_the_history_comes_folded_and_a_find_below_the_fold_opens_it(
        make_window, server, qloop, qtbot):
    server.queue(Stream(tokens("Read.")))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, LOG)) == "done"
    chat = win.chat_id
    win.new_chat()
    win.open_chat(chat)
    qloop.run(wait_until(lambda: not win.loading and len(win.view.questions()) == 1))
    [bubble] = win.view.questions()
    assert bubble.text_view.is_folded() and bubble.fold_button.text() == "Show all (3,000 lines)"
    assert _lines_tall(bubble) <= FOLD_LINES + 1

    win.composer.setFocus()
    qtbot.keyClick(win.composer, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    win.find_bar.box.setText("value 20993")  # on the last line
    assert win.find_bar.count.text() == "1 of 1"
    assert not bubble.text_view.is_folded()


def test_a_question_a_few_lines_long_is_shown_whole(qtbot):
    bubble = UserBubble("\n".join(f"line {n}" for n in range(FOLD_LINES + 4)))
    qtbot.addWidget(bubble)
    bubble.resize(500, 400)
    bubble.show()
    qtbot.waitExposed(bubble)
    assert not bubble.fold_button.isVisible() and not bubble.text_view.is_folded()
    assert _lines_tall(bubble) >= FOLD_LINES + 3
