"""Each chat keeps the words typed in it and not sent: they went along to the next chat opened."""

from __future__ import annotations

from tinyrag_desktop.chats import ChatStore

from .conftest import wait_until


def test_each_chat_keeps_the_words_typed_in_it_and_not_sent(make_window, server, qloop, tmp_path):
    # What was typed went along to whichever chat was opened next, and was sent there.
    data = tmp_path / "drafts"
    store = ChatStore(data)
    first, second = store.new_chat(), store.new_chat()
    store.add_user_message(first.id, "About apples")
    store.add_user_message(second.id, "About pears")
    store.close()
    win = make_window(server.base_url, data_dir=data)

    def open_chat(chat_id):
        win.open_chat(chat_id)
        qloop.run(wait_until(lambda: win.chat_id == chat_id and not win.loading))

    open_chat(first.id)
    win.composer.setPlainText("half a question on apples")
    open_chat(second.id)
    assert win.composer.toPlainText() == ""
    win.composer.setPlainText("and one on pears")
    win.new_chat()
    assert win.composer.toPlainText() == ""
    win.composer.setPlainText("something new")
    open_chat(first.id)
    assert win.composer.toPlainText() == "half a question on apples"
    assert win.composer.textCursor().atEnd()  # typing goes on where it stopped
    open_chat(second.id)
    assert win.composer.toPlainText() == "and one on pears"
    win.new_chat()
    assert win.composer.toPlainText() == "something new"
