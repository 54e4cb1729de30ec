"""A chat whose stored answer is very long (a list of thousands of items, a long table, a long code block)
opens at once: the answer's text is rendered a few segments a turn of the event loop, the lowest answer first,
cut as while it streamed. A 10,000-item list, rendered whole when its chat opened, froze the window for 2 s,
a 1.2 MB one for 9 s, each time. Copy, export and Find in chat still see the whole text."""

from __future__ import annotations

from PySide6.QtCore import QTimer
from PySide6.QtGui import QGuiApplication

from tests.sse_server import Stream
from tinyrag_desktop.chats import ChatStore
from tinyrag_desktop.ui import window_chats
from tinyrag_desktop.ui.answer import AnswerWidget

from .conftest import tokens, wait_signal, wait_until

LIST = "".join(f"- item {i} with **bold** and `code`\n" for i in range(3000))
TABLE = "Rows:\n\n| id | name | city |\n|---|---|---|\n" + "".join(
    f"| {i} | name {i} | city {i % 37} |\n" for i in range(2500)) + "\nThat is all.\n"
CODE = "Here:\n\n```python\n" + "".join(f"value_{i} = compute({i}, {i * 7 % 100})\n" for i in range(2500)) + "```\n"


def _chat(tmp_path, answers: list[str]) -> tuple:
    data = tmp_path / "data"
    store = ChatStore(data)
    chat = store.new_chat("long")
    for n, text in enumerate(answers):
        store.add_user_message(chat.id, f"Question {n}")
        store.add_assistant_message(chat.id, text, transcript=text, stats={"rounds": 1, "tools_run": 0,
                                                                             "elapsed_ms": 10})
    messages = store.messages(chat.id)
    store.close()
    return data, chat.id, messages


def _shown(answer: AnswerWidget) -> int:
    """How many characters of the answer's text its segments show so far."""
    return sum(len(seg.markdown()) for seg in answer.segments())


def _open_watched(win, qloop, chat_id: str) -> list[list[int]]:
    """Open the chat with a timer scheduled just before; what each answer showed when it fired (then the
    chat is let finish loading)."""
    seen: list[list[int]] = []
    QTimer.singleShot(0, lambda: seen.append([_shown(a) for a in win.view.answers()]))
    win.open_chat(chat_id)
    qloop.run(wait_until(lambda: not win.loading and seen, timeout=60))
    return seen


def _same_as_whole(answer: AnswerWidget, message) -> None:
    """The answer built a few segments a turn shows what one built at once shows."""
    whole = AnswerWidget.from_stored(message)
    try:
        assert [s.markdown() for s in answer.segments()] == [s.markdown() for s in whole.segments()]
        assert [s.toPlainText() for s in answer.segments()] == [s.toPlainText() for s in whole.segments()]
        # (a long table's rows not shown at first are in the note that stands for them: see test_table_folds)
        assert "".join(s.fold.rows if s.fold else s.markdown() for s in answer.segments()) == message.content
    finally:
        whole.deleteLater()


def _opened(qloop, make_window, server, tmp_path, text: str) -> AnswerWidget:
    """The answer of a chat of one answer, ``text``, opened in a window: not all of it was shown at the loop's first
    turn, and in the end it shows what one built at once shows."""
    data, chat_id, messages = _chat(tmp_path, [text])
    win = make_window(server.base_url, data_dir=data)
    seen = _open_watched(win, qloop, chat_id)
    answer = win.view.answers()[-1]
    assert seen[0][-1] < len(text)
    _same_as_whole(answer, messages[1])
    return answer


def test_a_long_list_opens_a_few_segments_a_turn_and_ends_as_rendered_at_once(qloop, make_window, server,
                                                                              tmp_path):
    data, chat_id, messages = _chat(tmp_path, [LIST])
    win = make_window(server.base_url, data_dir=data)
    seen = _open_watched(win, qloop, chat_id)
    answer = win.view.answers()[-1]
    assert seen[0][-1] < len(LIST)  # the timer's turn came before the list was all rendered
    assert not answer.building and len(answer.segments()) > 10
    _same_as_whole(answer, messages[1])
    bar = win.view.verticalScrollBar()
    assert bar.maximum() > 0 and bar.value() == bar.maximum()  # at the end of the answer, as before
    assert answer.copy_markdown().startswith(LIST.rstrip("\n"))  # Copy: the whole text
    assert QGuiApplication.clipboard().text().startswith(LIST.rstrip("\n"))


def test_find_in_chat_typed_while_a_long_list_is_built_finds_its_last_item(qloop, make_window, server, tmp_path):
    data, chat_id, _messages = _chat(tmp_path, [LIST])
    win = make_window(server.base_url, data_dir=data)
    seen: list[int] = []
    QTimer.singleShot(0, lambda: seen.append(_shown(win.view.answers()[-1])))
    win.open_chat(chat_id)
    win.find_bar.open_bar()
    win.find_bar.box.setText("item 2999 with")
    qloop.run(wait_until(lambda: not win.loading and seen and len(win.find_bar.matches()) == 1, timeout=60))
    assert seen[0] < len(LIST)
    view, cursor = win.find_bar.matches()[0]
    assert cursor.selectedText() == "item 2999 with" and view is win.view.answers()[-1].segments()[-1]


def test_a_long_table_opens_in_pieces_a_turn_at_a_time(qloop, make_window, server, tmp_path):
    answer = _opened(qloop, make_window, server, tmp_path, TABLE)
    # its first thousand cells, then the others when asked (see test_table_folds), a few pieces a turn
    note = answer.segments()[1]
    assert note.toPlainText().endswith("Show all 2,500 rows")
    seen = []
    QTimer.singleShot(0, lambda: seen.append(sum(s.document().toPlainText().count("name ") for s in answer.segments())))
    answer.show_rows(note)
    qloop.run(wait_until(lambda: not answer.building and seen, timeout=60))
    # 7,500 cells: too many to lay out as one table again at once, its pieces stay, their columns lined up
    pieces = answer.segments()
    assert len(pieces) > 10 and pieces[0].link_below is not None
    assert all(piece.link_above is pieces[0].link_below for piece in pieces[1:-1])
    assert "".join(s.markdown() for s in pieces) == TABLE
    rows = sum(s.document().toPlainText().count("name ") for s in answer.segments())
    assert seen[0] < rows == 2500  # every row shown once (the pieces are drawn without the header row)


def test_a_long_code_block_opens_in_pieces_and_copy_code_copies_all_of_it(qloop, make_window, server, tmp_path):
    answer = _opened(qloop, make_window, server, tmp_path, CODE)
    code = CODE.split("```python\n", 1)[1].rsplit("```", 1)[0]
    pieces = [s for s in answer.segments() if s.code_blocks()]
    assert len(pieces) > 3
    for piece in (pieces[0], pieces[len(pieces) // 2], pieces[-1]):  # Copy code in any piece: all of it
        assert piece.copy_code(0) == code
        assert QGuiApplication.clipboard().text() == code


def _watch(win, answers) -> tuple[QTimer, list[list[int]]]:
    """What ``answers()`` show at each turn of the event loop, from now on."""
    turns: list[list[int]] = []
    ticker = QTimer()
    ticker.setInterval(0)
    ticker.timeout.connect(lambda: turns.append([_shown(a) for a in answers()]))
    ticker.start()
    return ticker, turns


def test_a_chat_of_long_answers_builds_the_lowest_first_and_an_earlier_page_from_its_end(
        qloop, make_window, server, tmp_path, monkeypatch):
    monkeypatch.setattr(window_chats, "HISTORY_PAGE", 8)  # four exchanges a page
    texts = [f"Answer {n}:\n\n" + "".join(f"- point {n}.{i} of this answer\n" for i in range(400)) for n in range(8)]
    data, chat_id, _messages = _chat(tmp_path, texts)
    win = make_window(server.base_url, data_dir=data)
    ticker, turns = _watch(win, win.view.answers)
    win.open_chat(chat_id)
    qloop.run(wait_until(lambda: not win.loading, timeout=60))
    ticker.stop()
    answers = win.view.answers()
    assert [a.content() for a in answers] == texts[4:]
    # the lowest answer, the one in view, was rendered first: the ones above it waited
    first = next(shown for shown in turns if len(shown) == 4 and any(shown))
    assert first[-1] > 0 and first[:-1] == [0, 0, 0]
    assert all(_shown(a) == len(a.content()) for a in answers)
    bar = win.view.verticalScrollBar()
    assert bar.value() == bar.maximum()

    bar.setValue(bar.maximum() // 2)  # the user reads in the middle; then the page above is built
    below = bar.maximum() - bar.value()
    ticker, turns = _watch(win, lambda: win.view.answers()[:-4])
    assert win.show_earlier() == 8
    qloop.run(wait_until(lambda: not win.loading, timeout=60))
    ticker.stop()
    answers = win.view.answers()
    assert [a.content() for a in answers] == texts
    first = next(shown for shown in turns if len(shown) == 4 and any(shown))
    assert first[-1] > 0 and first[:-1] == [0, 0, 0]  # the page from its end, next to what was read
    assert all(_shown(a) == len(a.content()) for a in answers)
    assert bar.maximum() - bar.value() == below  # what was on the screen stayed there


def test_a_question_asked_while_a_long_answer_is_built_leaves_it_rendering_a_few_segments_a_turn(
        qloop, make_window, server, tmp_path):
    data, chat_id, messages = _chat(tmp_path, [LIST])
    server.queue(Stream(tokens("A short answer.")))
    win = make_window(server.base_url, data_dir=data)
    win.open_chat(chat_id)
    answer = win.view.answers()[-1]
    assert win.loading
    seen: list[int] = []
    QTimer.singleShot(0, lambda: seen.append(_shown(answer)))
    finished = wait_signal(win.answerFinished, timeout=30)
    assert win.ask("And then?")  # the chat is placed whole at once; the list's text is not rendered at once
    assert not win.loading and _shown(answer) < len(LIST)
    assert qloop.run(finished, timeout=60) == "done"
    qloop.run(wait_until(lambda: _shown(answer) == len(LIST), timeout=60))
    assert seen[0] < len(LIST) and not answer.building
    _same_as_whole(answer, messages[1])
    assert win.view.answers()[-1].content() == "A short answer."
    assert [w.text() for w in win.view.questions()] == ["Question 0", "And then?"]
