"""A chats search hit found with its accents or case set aside ("cafe" for "Café") opens with the words marked
where they are written: the find bar looked for the words as typed, found nothing, and marked nothing."""

from __future__ import annotations

from PySide6.QtCore import Qt

from tinyrag_desktop.chats import ChatStore

from .conftest import wait_until
from .test_find_in_chat import _marked


def _chat(data, question: str, answer: str) -> str:
    store = ChatStore(data)
    chat = store.new_chat()
    store.add_user_message(chat.id, question)
    store.add_assistant_message(chat.id, answer)
    store.close()
    return chat.id


def test_a_hit_found_without_its_accents_opens_with_them_marked(make_window, server, qloop, qtbot, tmp_path):
    data = tmp_path / "data"
    chat_id = _chat(data, "Où est le café ?", "Le CAFÉ de Flore, et la Straße d'un autre café.")
    win = make_window(server.base_url, data_dir=data)
    win.new_chat()
    win.sidebar.search.setText("cafe")
    qloop.run(wait_until(lambda: win.sidebar.ids() == [chat_id] and win.sidebar.titles()))
    win.sidebar.search.setFocus()
    qtbot.keyClick(win.sidebar.search, Qt.Key.Key_Return)  # opens the first hit
    bar = win.find_bar
    qloop.run(wait_until(lambda: win.chat_id == chat_id and bar.isVisible() and bar.current >= 0))
    assert bar.count.text() == "1 of 3"
    assert _marked(win) == {"userText": ["café"], "answerText": ["CAFÉ", "café"]}
    bar.box.setText("STRASSE")  # and in the find bar itself
    assert _marked(win) == {"userText": [], "answerText": ["Straße"]}
    bar.box.setText("ou est")
    assert _marked(win) == {"userText": ["Où est"], "answerText": []}
