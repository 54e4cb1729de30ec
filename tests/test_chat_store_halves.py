"""Half characters (lone surrogates) from outside reach the chat history as U+FFFD, and never fail a save."""

from __future__ import annotations

from pathlib import Path

from tinyrag_desktop.chats import ChatStore, StoredTool


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
