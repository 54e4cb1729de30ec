"""Find in chat (Ctrl+F): the words marked in questions and answers, stepped through, found in a long chat's
pages not built yet, and gone to when a chats list search hit is opened."""

from __future__ import annotations

import asyncio

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QWidget

from tests.sse_server import Stream
from tinyrag_desktop.chats import ChatStore

from .conftest import ask_and_wait, keep_picture, tokens, wait_until


def _shot(win, name: str) -> None:
    keep_picture(win, name)


def _marked(win) -> dict[str, list[str]]:
    """Each text view's marked words, by the view's kind (questions, answers)."""
    out: dict[str, list[str]] = {"userText": [], "answerText": []}
    for _number, view in win.view.message_texts():
        out[view.objectName()] += [s.cursor.selectedText() for s in view.extraSelections()]
    return out


def _current_view(win):
    bar = win.find_bar
    return bar.matches()[bar.current][0]


def _question(win, text: str):
    return next(q for q in win.view.questions() if q.text() == text)


def _in_view(win, widget) -> bool:
    """True when ``widget``'s top is inside the conversation's visible area."""
    y = widget.mapTo(win.view.viewport(), widget.rect().topLeft()).y()
    return 0 <= y < win.view.viewport().height()


def _long_chat(tmp_path, monkeypatch, pairs: dict[int, str], total: int = 20):
    """A chat of ``total`` questions (the page shown holds 3 of them); question i says ``pairs[i]`` too."""
    from tinyrag_desktop.ui import window_chats

    monkeypatch.setattr(window_chats, "HISTORY_PAGE", 6)
    data = tmp_path / "long"
    store = ChatStore(data)
    chat = store.new_chat()
    for i in range(total):
        store.add_user_message(chat.id, f"Question {i} {pairs.get(i, '')}".strip())
        store.add_assistant_message(chat.id, f"Answer {i}\n\n" + "word " * 300)
    store.close()
    return data, chat.id


def test_ctrl_f_marks_the_words_in_questions_and_answers_and_steps_through_them(make_window, server, qloop,
                                                                                 qtbot):
    server.queue(Stream(tokens("An **Apple** a day; apples keep well.")),
                 Stream(tokens("Pears, not apples: `apple` is a word here too.")))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, "Tell me about apples")) == "done"
    assert qloop.run(ask_and_wait(win, "And pears?")) == "done"
    rendered = [seg.toHtml() for a in win.view.answers() for seg in a.segments()]
    bar = win.find_bar
    assert not bar.isVisible()

    win.composer.setFocus()
    qtbot.keyClick(win.composer, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)  # Edit → Find in chat
    assert bar.isVisible() and bar.box.hasFocus()
    bar.box.setText("APPLE")  # letter case aside
    assert _marked(win) == {"userText": ["apple"], "answerText": ["Apple", "apple", "apple", "apple"]}
    assert bar.count.text() == "1 of 5"  # the first one on screen
    assert [seg.toHtml() for a in win.view.answers() for seg in a.segments()] == rendered  # not re-rendered

    steps = [(Qt.Key.Key_Return, Qt.KeyboardModifier.NoModifier, "2 of 5"),
             (Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier, "1 of 5"),
             (Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier, "5 of 5"),  # round to the bottom
             (Qt.Key.Key_Return, Qt.KeyboardModifier.NoModifier, "1 of 5")]  # and back to the top
    for key, mods, said in steps:
        qtbot.keyClick(bar.box, key, mods)
        assert bar.count.text() == said
    assert _current_view(win).objectName() == "userText"  # the question's "apples" comes first
    current = [s for s in _current_view(win).extraSelections() if s.format.foreground().color().name() == "#111111"]
    assert len(current) == 1  # the match gone to is drawn apart from the others
    qtbot.keyClick(bar.box, Qt.Key.Key_F3)
    assert bar.count.text() == "2 of 5"
    qtbot.keyClick(bar.box, Qt.Key.Key_F3, Qt.KeyboardModifier.ShiftModifier)
    assert bar.count.text() == "1 of 5"
    bar.next_button.click()
    assert bar.count.text() == "2 of 5"
    bar.prev_button.click()
    assert bar.count.text() == "1 of 5"
    _shot(win, "find_in_chat.png")
    qtbot.keyClick(bar.box, Qt.Key.Key_Return)
    qtbot.keyClick(bar.box, Qt.Key.Key_Return)  # the first answer's "apples"
    qtbot.keyClicks(bar.box, "s")  # more letters: it stays on that match, not back at the top
    assert bar.count.text() == "2 of 3" and bar.matches()[bar.current][1].selectedText() == "apples"
    qtbot.keyClick(bar.box, Qt.Key.Key_Backspace)
    assert bar.count.text() == "3 of 5"

    bar.next_button.setFocus()
    qtbot.keyClick(bar.next_button, Qt.Key.Key_Escape)  # closes the bar, from its buttons too
    assert not bar.isVisible()
    assert _marked(win) == {"userText": [], "answerText": []}
    assert QApplication.focusWidget() is win.composer

    bar.box.setFocus()  # typing words no one sees does nothing; Ctrl+F brings them back, selected
    win.findChild(QAction, "actionFind").trigger()
    assert bar.box.selectedText() == "APPLE" and len(bar.matches()) == 5
    bar.box.setText("kiwi")
    assert bar.count.text() == "Not found" and bar.matches() == []


def test_a_long_chat_is_searched_in_its_pages_not_built_yet(make_window, server, qloop, tmp_path, monkeypatch,
                                                            qtbot):
    data, chat_id = _long_chat(tmp_path, monkeypatch, {3: "about zebras", 12: "Zebra stripes"})
    win = make_window(server.base_url, data_dir=data)
    win.open_chat(chat_id)
    qloop.run(wait_until(lambda: not win.loading))
    assert [q.text() for q in win.view.questions()] == ["Question 17", "Question 18", "Question 19"]
    bar = win.find_bar
    win.findChild(QAction, "actionFind").trigger()
    bar.box.setText("zebra")
    assert bar.matches() == [] and bar.count.text() == "Earlier in this chat: press Enter"

    qtbot.keyClick(bar.box, Qt.Key.Key_Return)  # builds the pages down to the nearest message that holds it
    qloop.run(wait_until(lambda: bar.count.text() == "1 of 1, more above"))
    question = _question(win, "Question 12 Zebra stripes")
    assert _current_view(win) is question.text_view
    qloop.run(asyncio.sleep(0.2))  # the heights of the pages built settle: the match stays in view
    assert _in_view(win, question)
    _shot(win, "find_in_chat_earlier_page.png")

    qtbot.keyClick(bar.box, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)  # on up, past the first
    qloop.run(wait_until(lambda: bar.count.text() == "1 of 2"))
    question = _question(win, "Question 3 about zebras")
    assert _current_view(win) is question.text_view
    qloop.run(asyncio.sleep(0.2))
    assert _in_view(win, question)
    qtbot.keyClick(bar.box, Qt.Key.Key_Return)
    assert bar.count.text() == "2 of 2"
    assert _current_view(win) is _question(win, "Question 12 Zebra stripes").text_view


def test_switching_chats_takes_the_marks_away(make_window, server, qloop, tmp_path, monkeypatch):
    data, chat_id = _long_chat(tmp_path, monkeypatch, {18: "zebra"})
    win = make_window(server.base_url, data_dir=data)
    win.open_chat(chat_id)
    qloop.run(wait_until(lambda: not win.loading))
    win.findChild(QAction, "actionFind").trigger()
    win.find_bar.box.setText("zebra")
    views = [view for view, _cursor in win.find_bar.matches()]
    assert len(views) == 1 and views[0].extraSelections()
    win.new_chat()
    assert not win.find_bar.isVisible() and not views[0].extraSelections()
    assert win.find_bar.matches() == []


def test_opening_a_search_hit_goes_to_the_first_message_holding_the_words(make_window, server, qloop, tmp_path,
                                                                          monkeypatch, qtbot):
    data, chat_id = _long_chat(tmp_path, monkeypatch, {4: "the giraffe", 9: "a Giraffe", 18: "giraffes"})
    win = make_window(server.base_url, data_dir=data)
    win.new_chat()
    win.sidebar.search.setText("giraffe")
    qloop.run(wait_until(lambda: win.sidebar.ids() == [chat_id] and win.sidebar.titles()))

    win.sidebar.search.setFocus()
    qtbot.keyClick(win.sidebar.search, Qt.Key.Key_Return)  # opens the first hit
    bar = win.find_bar
    qloop.run(wait_until(lambda: win.chat_id == chat_id and bar.isVisible() and bar.current >= 0))
    assert bar.box.text() == "giraffe" and bar.count.text() == "1 of 3"
    question = _question(win, "Question 4 the giraffe")
    assert _current_view(win) is question.text_view
    qloop.run(asyncio.sleep(0.2))
    assert _in_view(win, question)
    _shot(win, "find_from_chat_search_hit.png")
    win.findChild(QAction, "actionFindNext").trigger()  # F3: on to the next
    assert bar.count.text() == "2 of 3" and _current_view(win) is _question(win, "Question 9 a Giraffe").text_view
    assert win.sidebar.list.hasFocus()  # the list keeps the keys: Down opens the next hit

    other = win.store.new_chat().id  # a hit by its title only: it opens as any chat does
    win.store.add_user_message(other, "Zoo plans")
    win.store.rename(other, "Giraffe house")
    win.sidebar.search.setText("giraff")
    qloop.run(wait_until(lambda: set(win.sidebar.ids()) == {chat_id, other}))
    win.sidebar.list.setCurrentItem(win.sidebar.item_for(other))
    assert win.chat_id == other and not bar.isVisible()


def test_find_works_while_an_answer_streams(make_window, server, qloop):
    server.queue(Stream(tokens("A pear. " * 150, 8), delay=0.01))
    win = make_window(server.base_url)
    bar = win.find_bar

    async def scenario():
        finished = asyncio.ensure_future(ask_and_wait(win, "Pear?"))
        await wait_until(lambda: win.view.answers() and "pear" in win.view.answers()[-1].content()[:40])
        win.findChild(QAction, "actionFind").trigger()
        bar.box.setText("pear")
        assert bar.matches()
        await wait_until(lambda: len(win.view.answers()[-1].content()) > 200)
        assert win.bridge.is_running()
        bar.step(True)  # Enter: the matches are found again first, none stale
        assert len(bar.matches()) > 3 and bar.current == 1
        assert all(c.selectedText().lower() == "pear" for _v, c in bar.matches())
        found = len(bar.matches())
        await wait_until(lambda: len(bar.matches()) > found + 10)  # looked for again as it grows
        assert win.bridge.is_running() and bar.current == 1
        bar.box.setFocus()
        QTest.keyClick(bar.box, Qt.Key.Key_Escape)  # closes the bar; the answer goes on (Esc is Stop too)
        assert not bar.isVisible() and win.bridge.is_running() and not _marked(win)["answerText"]
        win.findChild(QAction, "actionFind").trigger()
        assert bar.isVisible() and bar.matches()
        assert await finished == "done"
        await wait_until(lambda: bar.count.text().endswith(" of 151"))

    qloop.run(scenario())


def test_marks_follow_the_scrolling_in_a_chat_full_of_matches(make_window, server, qloop, tmp_path):
    """Only the text near the screen is marked (50,000 marks at once took seconds); scrolled to, the rest is."""
    data = tmp_path / "rivers"
    store = ChatStore(data)
    chat = store.new_chat()
    for i in range(12):
        store.add_user_message(chat.id, f"Question {i}")
        store.add_assistant_message(chat.id, "The river bends here. " * 200)
    store.close()
    win = make_window(server.base_url, data_dir=data)
    win.open_chat(chat.id)
    qloop.run(wait_until(lambda: not win.loading))
    win.findChild(QAction, "actionFind").trigger()
    win.find_bar.box.setText("RIVER")
    first, later = win.view.answers()[0].segments()[0], win.view.answers()[-4].segments()[0]
    last = win.view.answers()[-1].segments()[0]
    assert len(win.find_bar.matches()) == 2400 and win.find_bar.count.text().endswith(" of 2400")
    assert len(last.extraSelections()) == 200 and first.extraSelections() == []
    win.view.verticalScrollBar().setValue(0)
    qloop.run(wait_until(lambda: len(first.extraSelections()) == 200))
    assert later.extraSelections() == []
    assert len(last.extraSelections()) == 200  # it holds the match gone to


def test_the_find_bar_leaves_the_narrowest_window_as_narrow(make_window, server, qloop, tmp_path, monkeypatch):
    """Its longest words ("Earlier in this chat: press Enter") wrap: on one line they asked 150 px more of the
    window's narrowest width, more than its 420 px under a large font."""
    data, chat_id = _long_chat(tmp_path, monkeypatch, {3: "about zebras"})
    win = make_window(server.base_url, data_dir=data)
    win.open_chat(chat_id)
    qloop.run(wait_until(lambda: not win.loading))
    win.resize(421, 500)
    qloop.run(wait_until(lambda: not win.sidebar.isVisible()))
    narrowest = win.layout().minimumSize().width()
    win.findChild(QAction, "actionFind").trigger()
    win.find_bar.box.setText("zebra")
    assert win.find_bar.count.text() == "Earlier in this chat: press Enter"
    qloop.run(asyncio.sleep(0.05))  # laid out again
    assert win.layout().minimumSize().width() <= narrowest + 20
    qloop.run(wait_until(lambda: win.width() == 421))
    bar = win.find_bar
    for widget in (bar.box, bar.count, bar.next_button, bar.findChild(QWidget, "findClose")):
        assert widget.mapTo(win, widget.rect().topRight()).x() <= win.width(), widget.objectName()
    _shot(win, "find_in_chat_narrow.png")


def test_a_search_hit_on_the_open_chat_finds_a_question_asked_since_it_was_opened(make_window, server, qloop,
                                                                                  tmp_path, monkeypatch):
    server.queue(Stream(tokens("Look both ways.")))
    data, chat_id = _long_chat(tmp_path, monkeypatch, {})
    win = make_window(server.base_url, data_dir=data)
    win.open_chat(chat_id)
    qloop.run(wait_until(lambda: not win.loading))
    win.findChild(QAction, "actionFind").trigger()
    win.find_bar.box.setText("zebra")  # the chat's messages, read as stored
    assert win.find_bar.count.text() == "Not found"
    assert qloop.run(ask_and_wait(win, "What is a zebra crossing?")) == "done"
    win.sidebar.search.setText("zebra crossing")
    qloop.run(wait_until(lambda: win.sidebar.ids() == [chat_id] and win.sidebar.titles()))
    win.sidebar.chatSelected.emit(chat_id)  # the open chat's hit, chosen in the list
    bar = win.find_bar
    qloop.run(wait_until(lambda: bar.isVisible() and bar.current >= 0))
    assert bar.count.text() == "1 of 1"
    assert _current_view(win) is _question(win, "What is a zebra crossing?").text_view


def test_a_search_hit_of_words_apart_opens_on_the_longest_of_them(make_window, server, qloop, tmp_path):
    # "crossing zebra" found the chat (each word somewhere in it), and the find bar opens on "crossing":
    # on the words as typed it would say "Not found".
    data = tmp_path / "apart"
    store = ChatStore(data)
    chat = store.new_chat()
    store.add_user_message(chat.id, "What is a zebra crossing?")
    store.add_assistant_message(chat.id, "A place to cross the road.")
    other = store.new_chat()
    store.add_user_message(other.id, "Tell me about zebras only")
    store.close()
    win = make_window(server.base_url, data_dir=data)
    win.sidebar.search.setText("crossing  Zebra")
    qloop.run(wait_until(lambda: win.sidebar.ids() == [chat.id]))
    win.open_chat(chat.id)
    win.sidebar.chatSelected.emit(chat.id)
    bar = win.find_bar
    qloop.run(wait_until(lambda: bar.isVisible() and bar.current >= 0))
    assert bar.box.text() == "crossing" and bar.count.text() == "1 of 1"


@pytest.mark.parametrize("typed, words", [("“crossing”", "crossing"), ("(zebra-crossing)?", "zebra crossing")])
def test_a_search_hit_for_words_typed_with_punctuation_opens_on_the_words(make_window, server, qloop, tmp_path,
                                                                         typed, words):
    # "“crossing”" found the chat, words compared without their punctuation, and the find bar, which looked
    # for it as typed, did not open; "(zebra-crossing)?" opened on "crossing" alone.
    data = tmp_path / "punct"
    store = ChatStore(data)
    chat = store.new_chat()
    store.add_user_message(chat.id, "Where is the zebra crossing?")
    store.add_assistant_message(chat.id, "A place to cross the road.")
    store.close()
    win = make_window(server.base_url, data_dir=data)
    win.sidebar.search.setText(typed)
    qloop.run(wait_until(lambda: win.sidebar.ids() == [chat.id]))
    win.open_chat(chat.id)
    win.sidebar.chatSelected.emit(chat.id)
    bar = win.find_bar
    qloop.run(wait_until(lambda: bar.isVisible() and bar.current >= 0))
    assert bar.box.text() == words and bar.count.text() == "1 of 1"
