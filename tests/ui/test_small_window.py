"""The window at its narrowest: the chats list gives way before the chat, and nothing is cut off on the right."""

from __future__ import annotations

from PySide6.QtCore import QPoint
from PySide6.QtWidgets import QApplication

from tests.sse_server import Stream

from .conftest import ask_and_wait, drag_dock_edge, tokens, wait_until

ANSWER = ("Here is a fairly long answer that must wrap within the visible width of the conversation, however "
          "narrow the window is made.\n\n- a list item with several words in it\n\n"
          "```python\nprint('hello world, this is a long code line that may need to wrap')\n```\n")
QUESTION = "What does a question bubble look like when the question is a bit longer than usual?"


def _right_edge_in_view(win, widget) -> int:
    """The right edge of ``widget`` in the conversation's viewport."""
    return widget.mapTo(win.view.viewport(), QPoint(widget.width(), 0)).x()


def _narrowest(win, qloop) -> None:
    """Make the window as small as it goes, about 421x300 (the chats list folds on the way)."""
    win.resize(421, 300)
    qloop.run(wait_until(lambda: not win.sidebar.isVisible()))
    win.resize(421, 300)
    qloop.run(wait_until(lambda: win.width() == 421 and win.height() == 300))


def _nothing_cut_off(win) -> None:
    viewport = win.view.viewport().width()
    answer = win.view.answers()[-1]
    bubble = win.view.questions()[-1]
    assert answer.regenerate_button.isVisible() and answer.copy_button.isVisible()
    for widget in (answer, answer.regenerate_button, bubble, *answer.segments()):
        assert _right_edge_in_view(win, widget) <= viewport, (type(widget).__name__, viewport)
    for label in (win.status.reach, win.status.model):  # "reachable · 2 models" was cut to "2 model"
        assert label.width() >= label.sizeHint().width(), label.objectName()
        assert label.geometry().right() <= win.statusBar().contentsRect().right()


def test_at_its_narrowest_the_window_folds_the_chats_list_and_cuts_nothing_off(make_window, server, qloop):
    server.queue(Stream(tokens(ANSWER)))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, QUESTION)) == "done"
    qloop.run(wait_until(lambda: win.status.state == "ok"))
    _narrowest(win, qloop)
    # The chats list gave way: it took half the width, and the chat was cut off on the right.
    assert not win.sidebar.isVisible() and not win.menus.show_sidebar.isChecked()
    qloop.run(wait_until(lambda: win.view.width() >= win.width() - 2))
    _nothing_cut_off(win)
    assert win.status.server.text().startswith("Server: http://127.0.0.1:")  # cut in the painting only
    assert win.status.server.is_elided() and win.status.server.toolTip() == win.status.server.text()

    win.resize(1180, 780)  # wide again: the list comes back as it was
    qloop.run(wait_until(lambda: win.sidebar.isVisible()))
    assert win.menus.show_sidebar.isChecked() and not win.status.server.is_elided()


def test_the_chats_list_shown_by_hand_in_the_narrowest_window_leaves_the_chat_room_to_wrap(make_window, server,
                                                                                          qloop, tmp_path):
    server.queue(Stream(tokens(ANSWER)))
    data = tmp_path / "narrow"
    win = make_window(server.base_url, data_dir=data)
    assert qloop.run(ask_and_wait(win, QUESTION)) == "done"
    _narrowest(win, qloop)
    win.save_layout()  # folded by the width, the list is still wanted at the next start
    assert win._layout_settings().value("show_chats", type=bool) is True
    win.menus.show_sidebar.trigger()  # Ctrl+B: the user wants the list even so
    # The window widens as little as the list beside the chat's minimum needs; the chat is not squeezed.
    qloop.run(wait_until(lambda: win.sidebar.isVisible() and win.view.width() >= win.view.minimumSizeHint().width()))
    assert win.width() < 480 and win.view.widget().width() <= win.view.viewport().width()
    _nothing_cut_off(win)
    win.resize(1180, 780)
    _narrowest(win, qloop)  # the list folds again when the window gets narrow again


def test_the_knowledge_panel_docked_beside_the_chat_folds_the_chats_list_before_the_chat(make_window, server, qloop):
    win = make_window(server.base_url)
    win.resize(1000, 700)
    win.kb_dock.show()
    qloop.run(wait_until(lambda: win.kb_dock.isVisible() and win.splitter.width() < 700))
    assert win.sidebar.isVisible()  # 1000 px leave the list, the chat and the panel room enough
    win.resize(900, 700)  # the window is wide enough without the panel, not with it
    qloop.run(wait_until(lambda: not win.sidebar.isVisible()))
    assert not win.menus.show_sidebar.isChecked()
    # With the list folded the window goes as narrow as the chat and the panel need: it went no narrower
    # than 795 px, the list kept beside them.
    win.resize(300, 700)
    qloop.run(wait_until(lambda: win.width() == win.minimumWidth()))
    assert win.width() < 700 and win.view.width() >= win.view.minimumSizeHint().width()
    win.kb_dock.hide()  # the panel closed: the list has its room again
    qloop.run(wait_until(lambda: win.sidebar.isVisible()))
    assert win.menus.show_sidebar.isChecked()


def test_the_knowledge_panel_opened_in_a_narrow_window_takes_at_most_two_fifths_of_it(make_window, server, qloop):
    # At 800 px it took 370, the conversation was squeezed to 400 and the chats list was folded away
    win = make_window(server.base_url)
    win.resize(800, 500)
    win.kb_dock.show()
    qloop.run(wait_until(lambda: win.kb_dock.isVisible() and win.kb_dock.width() <= 320))
    assert win.kb_dock.width() >= 280 and win.view.width() > 400


def test_a_question_with_a_long_unbroken_word_wraps_in_its_bubble_and_lets_the_window_narrow(make_window, server,
                                                                                             qloop):
    # A pasted address, hash or log line has no space to wrap at: the question's label could not break it,
    # so the window could no longer be made narrower than about 1080 px, and the word ran past the bubble.
    address = "https://example.org/" + "a" * 160 + "/index.html"
    question = f"Why does this page not load?\n{address}"
    server.queue(Stream(tokens(ANSWER)))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, question)) == "done"
    _narrowest(win, qloop)
    _nothing_cut_off(win)
    text = win.view.questions()[-1].text_view
    assert text.document().size().width() <= text.viewport().width()  # within the bubble, not past it
    doc = text.document()
    lines = [doc.findBlockByNumber(n).layout().lineCount() for n in range(doc.blockCount())]
    assert lines[0] >= 1 and lines[1] >= 3  # the address wrapped
    assert text.height() >= text.document().size().height()  # every line shows
    text.selectAll()
    text.copy()
    assert QApplication.clipboard().text() == question  # copied as typed: no break characters put in


def test_the_knowledge_panel_opened_in_a_wide_window_takes_a_share_of_it_until_the_user_sizes_it(
        make_window, server, qloop):
    # at 384 px in a 1,920 px window its titles were cut to "tinyRAG Desk…ubleshooting" beside an empty chat
    from tinyrag_desktop.ui.dock_width import DOCK_MOST, DOCK_SHARE

    win = make_window(server.base_url)
    win.resize(1920, 900)
    qloop.run(wait_until(lambda: win.width() == 1920))
    dock = win.kb_dock
    dock.show()
    wanted = min(DOCK_MOST, int(1920 * DOCK_SHARE))
    qloop.run(wait_until(lambda: abs(dock.width() - wanted) <= 4))
    qloop.run(drag_dock_edge(win, dock, wanted - 450))  # the user drags it to 450 px
    qloop.run(wait_until(lambda: abs(dock.width() - 450) <= 4 and dock.width_keeper.chosen))
    dock.hide()
    dock.show()
    qloop.run(wait_until(lambda: dock.isVisible()))
    for _ in range(3):  # the widening, had it been due, comes at the next turn of the loop
        QApplication.processEvents()
    assert abs(dock.width() - 450) <= 4  # the width the user chose stays



def test_a_window_made_800_wide_with_the_panel_open_is_800_wide(make_window, server, qloop, tmp_path):
    # The chats list (170 px), the chat with a long source's link (351 px) and the panel (274 px) asked for
    # 805 px together: made 800 px wide, the window came out 805, the list folded all the same, and the
    # window stayed 805 once the panel was closed.
    from tinyrag_desktop.kb import Importer, open_store

    data, docs = tmp_path / "data", tmp_path / "docs"
    docs.mkdir()
    note = docs / "note-00-a-rather-long-file-name-for-the-list-topic-and-more.md"
    note.write_text("# Note\n\nThe engine streams tokens. Tools run at once.\n", encoding="utf-8")
    with open_store(data) as kb:
        Importer(kb).run([str(note)])
    server.queue(Stream(tokens('<tool name="rag_knowledge"><query>engine streams tokens</query></tool>\n')),
                 Stream(tokens("All done. The engine streams tokens [1].")))
    win = make_window(server.base_url, data_dir=data)
    assert qloop.run(ask_and_wait(win, "What does the engine stream, and how many tools run?")) == "done"
    assert win.view.answers()[-1].sources_row.links()
    win.resize(1200, 820)
    win.kb_dock.show()
    qloop.run(wait_until(lambda: win.kb_dock.isVisible() and win.sidebar.isVisible()))
    beside = win.sidebar.minimumWidth() + win.view.minimumSizeHint().width() + win.kb_dock.minimumSizeHint().width()
    assert beside > 790, "the three fit in 800 px anyway: the test shows nothing"
    win.resize(800, 600)
    qloop.run(wait_until(lambda: not win.sidebar.isVisible()))
    assert win.width() == 800
    assert win.view.width() >= win.view.minimumSizeHint().width()  # nothing of the chat cut off
    win.kb_dock.hide()
    qloop.run(wait_until(lambda: win.sidebar.isVisible()))
    assert win.width() == 800


def test_ctrl_b_beside_the_docked_panel_widens_the_window_within_the_screen(make_window, server, qloop):
    # With room on the screen the window widens for the list, as before, and the panel stays.
    win = make_window(server.base_url)
    screen = win.screen().availableGeometry()
    win.resize(750, 700)
    qloop.run(wait_until(lambda: win.width() == 750))
    win.kb_dock.show()
    qloop.run(wait_until(lambda: win.kb_dock.isVisible() and not win.sidebar.isVisible()))
    win.menus.show_sidebar.trigger()  # Ctrl+B
    qloop.run(wait_until(lambda: win.sidebar.isVisible() and win.width() > 750))
    assert win.kb_dock.isVisible() and screen.contains(win.frameGeometry()), (win.frameGeometry(), screen)
