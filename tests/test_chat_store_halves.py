"""Text from outside in the chat history: half characters (lone surrogates) are stored as U+FFFD, and never fail
a save; JSON another program stored nested past reading is read as none."""

from __future__ import annotations

from pathlib import Path

from tinyrag_desktop.chats import DB_FILE, ChatStore, StoredTool


def test_an_answer_holding_half_a_character_anywhere_is_saved(tmp_path: Path) -> None:
    # The window saved the answer with the model's name "a\ud800" from settings.json: UnicodeEncodeError from
    # SQLite in add_assistant_message, a traceback, and a window that no longer ended on SIGTERM
    store = ChatStore(tmp_path)
    chat = store.new_chat("Title \ud800", persona="P\udc00")
    store.add_user_message(chat.id, "Question \ud800?")
    tool = StoredTool("c1", "echo", "q\ud800", "ok", result="r\udfff", anchors=("a\ud800", None))
    store.add_assistant_message(chat.id, "Hi \ud800", transcript="T\ud800", reasoning="R\ud800",
                                stats={"model": "a\ud800"}, route={"why\ud800": ["x\ud800"]}, error="E\ud800",
                                tools=[tool])
    store.rename(chat.id, "Renamed \ud800")
    store.close()
    store = ChatStore(tmp_path)
    (chat,) = store.list_chats()
    question, answer = store.messages(chat.id)
    assert (chat.title, chat.persona, question.content) == ("Renamed \ufffd", "P\ufffd", "Question \ufffd?")
    assert (answer.content, answer.transcript, answer.reasoning, answer.error) == ("Hi \ufffd", "T\ufffd", "R\ufffd",
                                                                                   "E\ufffd")
    assert answer.stats == {"model": "a\ufffd"} and answer.route == {"why\ufffd": ["x\ufffd"]}
    (saved,) = answer.tools
    assert (saved.query, saved.result, saved.anchors) == ("q\ufffd", "r\ufffd", ("a\ufffd", None))
    store.close()


def test_stored_json_nested_past_reading_is_read_as_none(tmp_path: Path) -> None:
    # another program's write, 100,000 "[" deep: opening the chat ended in a RecursionError
    import sqlite3

    store = ChatStore(tmp_path)
    chat = store.new_chat("Title")
    store.add_assistant_message(chat.id, "Hi", stats={"model": "m"}, tools=[StoredTool("c1", "echo", "q", "ok",
                                                                                        anchors=("a",))])
    store.close()
    with sqlite3.connect(tmp_path / DB_FILE) as db:
        db.execute("UPDATE messages SET stats=?", ("[" * 100_000,))
        db.execute("UPDATE tool_calls SET anchors=?", ("[" * 100_000,))
    db.close()
    store = ChatStore(tmp_path)
    (answer,) = store.messages(chat.id)
    assert answer.stats is None and answer.tools[0].anchors == ()
    store.close()
