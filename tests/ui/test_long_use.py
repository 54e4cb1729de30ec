"""A window used all day: what each answer leaves behind, and what it costs, must not grow with the chat."""

from __future__ import annotations

import gc
import weakref

from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QApplication, QPushButton

from tests.sse_server import Stream
from tinyrag_desktop.ui.answer import AnswerWidget

from .conftest import ask_and_wait, tokens, wait_signal, wait_until


def _weak_refs_to(obj) -> int:
    gc.collect()
    return sum(1 for o in gc.get_objects() if isinstance(o, weakref.ref) and o() is obj)


def test_answers_wired_to_the_window_and_deleted_leave_no_reference_behind(make_window, server):
    # the status bar's link display, a plain object's method connected to each answer, left PySide a weak
    # reference per answer for as long as the window lived
    win = make_window(server.base_url)
    before = _weak_refs_to(win.status)
    for _ in range(30):
        answer = AnswerWidget()
        win.wire_answer(answer)
        answer.deleteLater()
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    assert _weak_refs_to(win.status) <= before


def test_only_the_last_answer_offers_regenerate(make_window, server, qloop):
    win = make_window(server.base_url)
    for n in range(3):
        server.queue(Stream(tokens(f"Answer {n}.")))
        assert qloop.run(ask_and_wait(win, f"Question {n}")) == "done"
    offered = [a.regenerate_offered() for a in win.view.answers()]
    assert offered == [False, False, True]
    server.queue(Stream(tokens("Again.")))

    async def regenerate():
        finished = wait_signal(win.answerFinished)
        assert win.regenerate()
        assert [a.regenerate_offered() for a in win.view.answers()][:2] == [False, False]
        return await finished

    assert qloop.run(regenerate()) == "done"
    assert [a.regenerate_offered() for a in win.view.answers()] == [False, False, True]
    server.queue(Stream(tokens("Fourth.")))
    assert qloop.run(ask_and_wait(win, "Question 3")) == "done"
    assert [a.regenerate_offered() for a in win.view.answers()] == [False, False, False, True]


def test_a_live_chat_keeps_a_bounded_number_of_messages_built_and_shows_the_rest_again(make_window, server, qloop,
                                                                                      monkeypatch):
    # after 300 answers in one session the window held 12,000 widgets and 515 MB
    from tinyrag_desktop.ui import chat_trim

    monkeypatch.setattr(chat_trim, "LIVE_MOST", 8)
    monkeypatch.setattr(chat_trim, "LIVE_KEEP", 4)
    win = make_window(server.base_url)
    for n in range(7):
        server.queue(Stream(tokens(f"Answer {n}.")))
        assert qloop.run(ask_and_wait(win, f"Question {n}")) == "done"
        assert len(win.view._widgets()) <= 8
    assert [a.content() for a in win.view.answers()][-1] == "Answer 6."
    assert win.view.findChild(QPushButton, "showEarlier").isVisibleTo(win.view)
    while win.show_earlier():  # scrolled to the top: the earlier pages come back from the history
        qloop.run(wait_until(lambda: not win.loading))
    questions = [b.text_view.toPlainText() for b in win.view.questions()]
    assert questions == [f"Question {n}" for n in range(7)]
    assert [a.content() for a in win.view.answers()] == [f"Answer {n}." for n in range(7)]
    server.queue(Stream(tokens("Again.")))

    async def regenerate():  # the last one still regenerates
        finished = wait_signal(win.answerFinished)
        assert win.regenerate()
        return await finished

    assert qloop.run(regenerate()) == "done"
    assert [a.content() for a in win.view.answers()][-1] == "Again."


def test_a_live_chat_of_long_answers_keeps_a_bounded_number_of_characters_built(make_window, server, qloop,
                                                                               monkeypatch):
    # 79 answers of 30,000 characters and 20 cards each held 523 MB: fewer messages than LIVE_MOST
    from tinyrag_desktop.ui import chat_trim

    monkeypatch.setattr(chat_trim, "LIVE_MOST_CHARS", 2_000)
    monkeypatch.setattr(chat_trim, "LIVE_KEEP_CHARS", 1_000)
    win = make_window(server.base_url)
    answers = [f"Answer {n}: " + "long words " * 45 for n in range(8)]  # about 500 characters each
    for n, answer in enumerate(answers):
        server.queue(Stream(tokens(answer, 40)))
        assert qloop.run(ask_and_wait(win, f"Question {n}")) == "done"
        assert sum(len(a.content()) for a in win.view.answers()) <= 2_000
    built = [a.content() for a in win.view.answers()]
    assert built == answers[-len(built):] and len(built) == 2  # the latest, down to 1,000 characters
    while win.show_earlier():
        qloop.run(wait_until(lambda: not win.loading))
    assert [a.content() for a in win.view.answers()] == answers


def test_one_answer_longer_than_the_limit_stays_built_whole(make_window, server, qloop, monkeypatch):
    from tinyrag_desktop.ui import chat_trim

    monkeypatch.setattr(chat_trim, "LIVE_MOST_CHARS", 300)
    monkeypatch.setattr(chat_trim, "LIVE_KEEP_CHARS", 100)
    win = make_window(server.base_url)
    answers = ["Short.", "Long " * 100]
    for n, answer in enumerate(answers):
        server.queue(Stream(tokens(answer, 40)))
        assert qloop.run(ask_and_wait(win, f"Question {n}")) == "done"
    assert [a.content() for a in win.view.answers()] == [answers[1]]
    assert [b.text_view.toPlainText() for b in win.view.questions()] == ["Question 1"]


def test_closing_the_window_leaves_no_wal_or_shm_beside_the_knowledge_base(make_window, server, qloop, tmp_path):
    # the panel's read-only connection, which watches for changes, closed last and left both behind
    from tinyrag_desktop.kb import Importer, open_store

    data = tmp_path / "data"
    (tmp_path / "note.md").write_text("# Note\n\nThe backup runs at night.\n")
    with open_store(data) as kb:
        Importer(kb).run([str(tmp_path / "note.md")])
    win = make_window(server.base_url, data_dir=data)
    win.kb_dock.show()
    panel = win.kb_dock.widget()
    qloop.run(wait_until(lambda: panel.source_count() == 1))
    qloop.run(wait_until(lambda: panel._watch is not None))
    qloop.run(win.aclose())
    assert not (data / "knowledge.db-wal").exists() and not (data / "knowledge.db-shm").exists()


def test_opening_chats_again_and_again_leaves_no_reference_behind(qloop):
    # each chat opened buried the one before on a timer given the view's own method: PySide kept a weak
    # reference to the view per timer, for as long as the window lived
    from tinyrag_desktop.ui.chat_view import ChatView

    view = ChatView()
    before = _weak_refs_to(view)
    for n in range(20):
        view.add_question(f"Question {n}")
        view.clear()
        qloop.run(wait_until(lambda: not view._graveyard))
    assert _weak_refs_to(view) <= before
    view.deleteLater()
