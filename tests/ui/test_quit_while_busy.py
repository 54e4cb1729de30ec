"""Quitting while an answer is written, a Go program runs or an import runs asks once, Quit / Cancel (Cancel
the default, Esc's too); Quit keeps the answer so far, stopped, and ends cleanly. With nothing under way Quit
quits at once. Before, Ctrl+Q, the close button and the system's Quit closed at once, cutting them short."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, QEvent, Qt
from PySide6.QtGui import QAccessible, QColor
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMessageBox

from tests.sse_server import Gate, Stream
from tinyrag_desktop.ui.busy_close import busy_words

from .conftest import held_answer, tokens, wait_signal, wait_until
from .test_run_go import FOREVER, _go_segment, _workers

STORY = "Hello there, this is a long answer."


def _boxes(win) -> list[QMessageBox]:
    return [box for box in win.findChildren(QMessageBox, "quitWhileBusy") if box.isVisible()]


def _ctrl_q(win, qtbot) -> None:
    """Ctrl+Q pressed in the window, as a person does."""
    with qtbot.waitActive(win):
        win.activateWindow()
    QTest.keyClick(QApplication.focusWidget() or win, Qt.Key.Key_Q, Qt.KeyboardModifier.ControlModifier)


def _asked(win, qtbot) -> QMessageBox:
    """The question, once open, and the active window (as the window system makes it: offscreen Qt does not
    always, and a key pressed went to the window under it)."""
    qtbot.waitUntil(lambda: len(_boxes(win)) == 1)
    box = _boxes(win)[0]
    qtbot.waitUntil(lambda: bool(box.isActiveWindow() or box.activateWindow()))  # (None: waitUntil's "passed")
    return box


def _stored_answer(data: Path) -> tuple[str, str]:
    with sqlite3.connect(data / "chats.sqlite3") as db:
        return db.execute("SELECT content, status FROM messages WHERE role = 'assistant'").fetchone()


def _quit_and_stored(box, win, qtbot, qloop, finished, gate, data: Path) -> tuple[str, str]:
    """Quit answered (Alt+Q) to the question ``box`` while an answer is held open (``gate``): the window closed,
    the answer ended as stopped, the app's end awaited; the assistant answer then stored."""
    QTest.keyClick(box, Qt.Key.Key_Q, Qt.KeyboardModifier.AltModifier)  # &Quit
    qtbot.waitUntil(lambda: not win.isVisible())
    assert qloop.run(finished) == "stopped"
    qloop.run(win.aclose())
    gate.opened.set()
    return _stored_answer(data)


@pytest.mark.parametrize("how", ["ctrl_q", "close_button"])  # the system's Quit: test_quit_while_busy_app
def test_quitting_while_an_answer_is_written_asks_first_and_cancel_keeps_it_going(make_window, server, qloop,
                                                                                  qtbot, how):
    win = make_window(server.base_url)
    gate, finished = held_answer(win, server)
    qloop.run(wait_until(lambda: win.view.answers() and "Hell" in win.view.answers()[-1].copy_markdown()))
    if how == "ctrl_q":
        _ctrl_q(win, qtbot)
    else:  # the window manager's close asks the window as Qt's close() does
        win.close()
    box = _asked(win, qtbot)
    assert win.isVisible()
    assert box.text() == "An answer is still being written. Quit anyway?"
    assert "what it has written so far stays in the chat, marked as stopped" in box.informativeText()
    assert [b.text() for b in box.buttons()] == ["&Quit", "&Cancel"] or \
        sorted(b.text() for b in box.buttons()) == ["&Cancel", "&Quit"]
    assert box.defaultButton().text() == "&Cancel" and box.escapeButton() is box.defaultButton()
    QTest.keyClick(box, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not _boxes(win))
    assert win.isVisible() and win.bridge.is_running()  # still writing
    gate.opened.set()
    assert qloop.run(finished) == "done"
    win.close()  # nothing under way now: closes without a question
    assert not win.isVisible() and not _boxes(win)


def test_quit_keeps_the_answer_so_far_marked_as_stopped(make_window, server, qloop, qtbot, tmp_path):
    data = tmp_path / "data"
    win = make_window(server.base_url, data_dir=data)
    gate, finished = held_answer(win, server)
    qloop.run(wait_until(lambda: win.view.answers() and "Hell" in win.view.answers()[-1].copy_markdown()))
    _ctrl_q(win, qtbot)
    box = _asked(win, qtbot)
    win.close()  # asked again (the close button, a second Ctrl+Q) while the question is open: still one
    win.close()
    assert _boxes(win) == [box] and box.isVisible()
    assert [b for b in box.buttons() if b.text() == "&Quit"][0].accessibleName() == "Quit now"
    assert QAccessible.queryAccessibleInterface(box).text(QAccessible.Text.Name) == "Quit tinyRAG Desktop?"
    content, status = _quit_and_stored(box, win, qtbot, qloop, finished, gate, data)
    assert status == "stopped" and content.startswith("Hell") and content != STORY


def test_the_open_question_says_so_when_the_answer_finishes_and_still_asks(make_window, server, qloop, qtbot):
    # Before, the question went on saying "An answer is still being written" after the answer was in
    win = make_window(server.base_url)
    gate, finished = held_answer(win, server)
    qloop.run(wait_until(lambda: win.view.answers() and "Hell" in win.view.answers()[-1].copy_markdown()))
    _ctrl_q(win, qtbot)
    box = _asked(win, qtbot)
    gate.opened.set()
    assert qloop.run(finished) == "done"
    qtbot.waitUntil(lambda: box.text() == "The answer is finished. Quit now?")
    assert "nothing" in box.informativeText() and "nothing" in box.accessibleDescription()
    assert win.isVisible() and box.isVisible()  # a Quit meant for another window does not quit by itself
    assert box.defaultButton().text() == "&Cancel"
    win.busy_at_close.close_button.click()
    qtbot.waitUntil(lambda: not win.isVisible())


def test_nothing_under_way_quits_without_a_question(make_window, server, qloop, qtbot):
    server.queue(Stream(tokens(STORY)))
    win = make_window(server.base_url)
    win.ask("Tell me a story")
    qloop.run(wait_until(lambda: not win.bridge.is_running()))
    _ctrl_q(win, qtbot)
    qtbot.waitUntil(lambda: not win.isVisible())
    assert not _boxes(win)


def test_ctrl_c_or_sigterm_while_an_answer_is_written_closes_without_asking(make_window, server, qloop, qtbot):
    win = make_window(server.base_url)
    gate, finished = held_answer(win, server)
    qloop.run(wait_until(lambda: win.view.answers() and "Hell" in win.view.answers()[-1].copy_markdown()))
    win.close_unasked()
    assert not win.isVisible() and not _boxes(win)
    assert qloop.run(finished) == "stopped"
    gate.opened.set()


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc to see child processes")
def test_quitting_while_a_go_program_runs_asks_and_quit_stops_it(make_window, server, qloop, qtbot):
    server.queue(Stream(tokens(FOREVER)))
    win = make_window(server.base_url, allow_nanogo=True, tool_timeout=60.0)
    win.ask("An endless Go loop")
    qloop.run(wait_until(lambda: not win.bridge.is_running()))
    task = _go_segment(win.view.answers()[-1]).run_go(0)
    qloop.run(wait_until(_workers, timeout=10))
    win.close()
    box = _asked(win, qtbot)
    assert box.text() == "A Go program is still running. Quit anyway?"
    win.busy_at_close.close_button.click()
    qtbot.waitUntil(lambda: not win.isVisible())
    qloop.run(win.aclose())
    assert task.cancelled()
    qloop.run(wait_until(lambda: not _workers(), timeout=5))


def test_quitting_during_an_import_asks_with_how_far_it_is(make_window, server, qloop, qtbot, tmp_path):
    folder = tmp_path / "docs"
    folder.mkdir()
    for n in range(40):
        (folder / f"note{n:02d}.md").write_text(f"# Note {n}\n\nWords about herons, number {n}.\n", encoding="utf-8")
    win = make_window(server.base_url, data_dir=tmp_path / "data")
    win.kb_dock.show()
    panel = win.kb_dock.widget()
    release = threading.Event()  # the import waits at its third source: it is under way when asked

    def hold(progress) -> None:
        if threading.current_thread() is not threading.main_thread() and progress.done >= 3:
            release.wait(30)

    panel._relay.progress.connect(hold, Qt.ConnectionType.DirectConnection)
    try:
        panel.import_items([str(folder)])
        qloop.run(wait_until(lambda: panel.import_progress() is not None and panel.import_progress().done >= 3))
        win.close()
        box = _asked(win, qtbot)
        assert box.text() == "The knowledge base import is still running (3 of 40 sources done). Quit anyway?"
        assert "the sources stored so far are kept" in box.informativeText()
        box.defaultButton().click()  # Cancel
        qtbot.waitUntil(lambda: not _boxes(win))
        assert win.isVisible() and panel.is_importing()
    finally:
        release.set()
        panel.shutdown()


def test_the_words_name_everything_under_way():
    text, details = busy_words(["answer", "go", "import"], (12, 1500), waiting=(2, 0))
    assert text == ("An answer is still being written, a Go program is still running and the knowledge base "
                    "import is still running (12 of 1,500 sources done). Quit anyway?")
    assert "The 2 questions waiting for it stay in their chats, not asked, with Retry." in details
    assert busy_words(["import"])[0] == "The knowledge base import is still running. Quit anyway?"
    assert busy_words(["answer"], elsewhere="Plans")[0] == "An answer is still being written in “Plans”. Quit anyway?"


def _busy_with_unsent_text_not_saved(make_window, server, qloop, monkeypatch):
    """A window writing an answer (held open: the Gate, and the awaitable of its end), with text in the composer
    that cannot be saved (a full disk)."""
    import errno

    import tinyrag_desktop.ui.composer as composer

    def full(*_args, **_kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    win = make_window(server.base_url, reopen_last=True)
    gate, finished = held_answer(win, server)
    qloop.run(wait_until(lambda: win.view.answers() and "Hell" in win.view.answers()[-1].copy_markdown()))
    monkeypatch.setattr(composer, "write_whole", full)
    win.composer.setPlainText("a question typed on a full disk")
    return win, gate, finished


def _closed_and_quit_to_the_answer(win, qtbot) -> QMessageBox:
    """Closed, Quit answered to the question about the answer: the question about the unsent text, once open."""
    win.close()
    _asked(win, qtbot)
    win.busy_at_close.close_button.click()  # Quit: the unsent text is asked about next
    qtbot.waitUntil(lambda: win.drafts_at_close.box is not None and win.drafts_at_close.box.isVisible())
    return win.drafts_at_close.box


def test_with_unsent_text_not_saved_too_each_question_is_asked_once_in_turn(make_window, server, qloop, qtbot,
                                                                            monkeypatch):
    win, gate, finished = _busy_with_unsent_text_not_saved(make_window, server, qloop, monkeypatch)
    _closed_and_quit_to_the_answer(win, qtbot).defaultButton().click()  # Keep the window open: asks both again
    qtbot.waitUntil(lambda: win.drafts_at_close.box is None)
    assert win.isVisible()
    _closed_and_quit_to_the_answer(win, qtbot)
    win.drafts_at_close.close_button.click()  # Close anyway: closed, with no question about the answer again
    qtbot.waitUntil(lambda: not win.isVisible())
    assert not _boxes(win) and win.drafts_at_close.box is None
    assert qloop.run(finished) == "stopped"
    gate.opened.set()


def test_the_systems_quit_while_the_unsent_text_question_is_open_brings_it_to_the_front(make_window, server, qloop,
                                                                                         qtbot, monkeypatch):
    # macOS's Dock Quit or logging out, after Quit was answered to the question about the answer: Qt closed the
    # open question first, as Esc ("Keep the window open"), which forgot that Quit, and the answer was asked again
    win, gate, finished = _busy_with_unsent_text_not_saved(make_window, server, qloop, monkeypatch)
    box = _closed_and_quit_to_the_answer(win, qtbot)
    quit_event = QEvent(QEvent.Type.Quit)
    quit_event.setAccepted(False)  # as macOS's is sent: accepted, the app quits
    QCoreApplication.sendEvent(QCoreApplication.instance(), quit_event)
    qloop.run(wait_until(lambda: True))  # what the Quit posted runs
    assert not quit_event.isAccepted()  # the system is told the app stays (the logout waits)
    assert not _boxes(win) and win.drafts_at_close.box is box and box.isVisible() and win.isVisible()
    win.drafts_at_close.close_button.click()  # Close anyway: closed, with no question about the answer again
    qtbot.waitUntil(lambda: not win.isVisible())
    assert not _boxes(win) and qloop.run(finished) == "stopped"
    gate.opened.set()


def test_an_answer_written_in_another_chat_is_named(make_window, server, qloop, qtbot):
    win = make_window(server.base_url)
    gate, finished = held_answer(win, server, "Tell me a story")
    qloop.run(wait_until(lambda: win.view.answers() and "Hell" in win.view.answers()[-1].copy_markdown()))
    win.new_chat()  # it goes on out of sight
    win.close()
    box = _asked(win, qtbot)
    assert box.text() == "An answer is still being written in “Tell me a story”. Quit anyway?"
    box.defaultButton().click()
    gate.opened.set()
    assert qloop.run(finished) == "done"


@pytest.mark.parametrize(("waiting", "said"), [
    ((1, 0), "The question waiting for it stays in its chat, not asked, with Retry."),
    ((3, 0), "The 3 questions waiting for it stay in their chats, not asked, with Retry."),
    ((0, 1), "The new answer waiting for it is not written: its chat keeps the answer it had."),
    ((0, 2), "The 2 new answers waiting for it are not written: their chats keep the answers they had."),
    ((1, 1), "The question waiting for it stays in its chat, not asked, with Retry. The new answer waiting too is "
             "not written: its chat keeps the answer it had."),
    ((2, 3), "The 2 questions waiting for it stay in their chats, not asked, with Retry. The 3 new answers waiting "
             "too are not written: their chats keep the answers they had."),
])
def test_the_words_for_what_waits_agree_with_how_many_and_what_it_is(waiting, said):
    assert busy_words(["answer"], waiting=waiting)[1].endswith(f"marked as stopped. {said}")


@pytest.mark.parametrize("waiting", ["a regenerate", "a regenerate and a question"])
def test_the_quit_question_says_what_a_waiting_regenerate_and_question_become(make_window, server, qloop, qtbot,
                                                                             waiting):
    """With an answer written in one chat and a Regenerate waiting in another, Ctrl+Q said "The question
    waiting for it stay in their chats, not asked, with Retry."."""
    server.queue(Stream(tokens("Red.")))
    win = make_window(server.base_url)
    finished = wait_signal(win.answerFinished)
    assert win.ask("What colour are apples?")
    assert qloop.run(finished) == "done"
    apples = win.chat_id
    win.new_chat()
    gate, finished = held_answer(win, server)
    qloop.run(wait_until(lambda: "Hell" in win.view.answers()[-1].content()))
    win.open_chat(apples)  # the story goes on out of sight
    qloop.run(wait_until(lambda: not win.loading and win.view.answers()))
    assert win.regenerate()  # waits for the story
    server.queue(Stream(tokens("Green.")))
    if waiting == "a regenerate and a question":
        win.new_chat()
        win.composer.setPlainText("And bananas?")
        assert win.send()  # waits too
        server.queue(Stream(tokens("Yellow.")))
    assert win.waiting.counts() == ((1, 1) if waiting == "a regenerate and a question" else (0, 1))
    _ctrl_q(win, qtbot)
    box = _asked(win, qtbot)
    new_answer = "The new answer waiting {} is not written: its chat keeps the answer it had."
    if waiting == "a regenerate":
        assert box.informativeText().endswith("marked as stopped. " + new_answer.format("for it"))
    else:
        assert box.informativeText().endswith("The question waiting for it stays in its chat, not asked, with "
                                              "Retry. " + new_answer.format("too"))
    box.defaultButton().click()  # Cancel
    qtbot.waitUntil(lambda: not _boxes(win))
    gate.opened.set()
    assert qloop.run(finished) == "done"
    qloop.run(wait_until(lambda: not win.waiting.chats() and not win.bridge.is_running()))


@pytest.mark.parametrize(("old", "kept"), [("Red.", False),
                                           ("Red, or green, or yellow: apples come in many colours.", True)])
def test_quitting_during_a_regenerate_says_which_answer_stays(make_window, server, qloop, qtbot, tmp_path, old, kept):
    """A Regenerate stopped while its new answer is shorter leaves the old one stored: the question said the new
    answer's first words would stay, marked as stopped."""
    data = tmp_path / "data"
    server.queue(Stream(tokens(old)))
    win = make_window(server.base_url, data_dir=data)
    finished = wait_signal(win.answerFinished)
    assert win.ask("What colour are apples?")
    assert qloop.run(finished) == "done"
    gate = Gate()
    server.queue(Stream(tokens(STORY), gate=gate))  # held open after its first words
    finished = wait_signal(win.answerFinished)
    assert win.regenerate()
    qloop.run(wait_until(lambda: "Hell" in win.view.answers()[-1].content()))
    _ctrl_q(win, qtbot)
    box = _asked(win, qtbot)
    shorter = "it is still shorter than the answer it was to replace, which stays in the chat"
    assert (shorter in box.informativeText()) == kept
    assert ("what it has written so far stays in the chat, marked as stopped" in box.informativeText()) != kept
    content, status = _quit_and_stored(box, win, qtbot, qloop, finished, gate, data)
    if kept:  # as it was: the new answer's first words were not stored
        assert (content, status) == (old, "done")
    else:
        assert status == "stopped" and content.startswith("Hell")


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_quit_question_has_the_apps_buttons_cancel_in_blue(make_window, server, qloop, qtbot, theme):
    # Qt's plain grey buttons stood out beside the shell question's, which are the app's own
    from tinyrag_desktop.ui.theme import colors

    win = make_window(server.base_url, theme=theme)
    gate, finished = held_answer(win, server)
    qloop.run(wait_until(lambda: win.view.answers() and "Hell" in win.view.answers()[-1].copy_markdown()))
    win.close()
    box = _asked(win, qtbot)
    cancel, quit_ = box.defaultButton(), win.busy_at_close.close_button
    qtbot.waitUntil(lambda: cancel.isVisible() and cancel.width() > 20)
    fill = cancel.grab().toImage().pixelColor(6, cancel.height() // 2)
    assert abs(fill.blue() - QColor(colors().accent).blue()) < 40 and fill.blue() > fill.red() + 100, fill.name()
    edge = quit_.grab().toImage().pixelColor(0, quit_.height() // 2)
    assert edge.red() > edge.blue() + 60, edge.name()  # the error colour's border, as Run and Stop
    quit_.click()
    qtbot.waitUntil(lambda: not win.isVisible())
    assert qloop.run(finished) == "stopped"
    gate.opened.set()
