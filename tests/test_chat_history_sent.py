"""What of a chat's stored answers goes back to the model: a blank answer is no assistant turn, and a stopped
one is marked as stopped, not given back as if it were complete."""

from __future__ import annotations

from tinyrag_desktop.chat_history import ENDED_ON_CALLS, STOPPED_HERE, UNANSWERED
from tinyrag_desktop.chats import ChatStore, StoredTool


def _store(tmp_path) -> tuple[ChatStore, str]:
    store = ChatStore(tmp_path)
    return store, store.new_chat().id


def test_a_blank_answer_goes_back_as_not_answered_not_as_an_empty_turn(tmp_path):
    # {"role": "assistant", "content": "\n\n  "} went with every later question: strict chat templates
    # refuse an empty assistant turn, and it shows a small model an answer of nothing
    store, chat = _store(tmp_path)
    store.add_user_message(chat, "Hello?")
    store.add_assistant_message(chat, "\n\n  ", status="error", error="The model sent an empty answer.")
    store.add_user_message(chat, "Are you there?")
    assert store.history(chat) == [{"role": "user", "content": "Hello?"},
                                   {"role": "assistant", "content": UNANSWERED},
                                   {"role": "user", "content": "Are you there?"}]
    store.close()


def test_a_stopped_answer_is_marked_stopped_and_a_finished_one_is_not(tmp_path):
    store, chat = _store(tmp_path)
    store.add_user_message(chat, "Tell me about roses.")
    store.add_assistant_message(chat, "Roses like sun. More words here. More", status="stopped")
    store.add_user_message(chat, "Just the short version?")
    store.add_assistant_message(chat, "Sun and water.")
    store.add_user_message(chat, "Thanks.")
    sent = store.history(chat)
    assert sent[1] == {"role": "assistant", "content": f"Roses like sun. More words here. More\n\n{STOPPED_HERE}"}
    assert sent[3] == {"role": "assistant", "content": "Sun and water."}
    assert [m["role"] for m in sent] == ["user", "assistant"] * 2 + ["user"]
    store.close()


def test_an_answer_stopped_while_its_tool_ran_ends_on_the_stopped_mark(tmp_path):
    store, chat = _store(tmp_path)
    store.add_user_message(chat, "What is 2**200?")
    call = '<tool name="calculate"><query>2**200</query></tool>'
    store.add_assistant_message(chat, "Let me compute.", transcript=f"Let me compute. {call}", status="stopped",
                                tools=[StoredTool("call_1", "calculate", "2**200", "running", round=1)])
    store.add_user_message(chat, "Again?")
    sent = store.history(chat)
    assert [m["role"] for m in sent] == ["user", "assistant", "user", "assistant", "user"]
    assert sent[2]["content"].startswith("<tool_results>") and sent[3]["content"] == STOPPED_HERE
    assert ENDED_ON_CALLS not in str(sent)
    store.close()
