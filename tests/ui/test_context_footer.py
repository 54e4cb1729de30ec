"""A chat longer than the model's context: the answer's footer says how many of its first messages were not
sent, and its tooltip why and what to do; the same after the chat is opened again."""

from __future__ import annotations

from tests.sse_server import ScriptedLLMServer, Stream
from tinyrag_desktop.ui.answer import footer_text

from .conftest import ask_and_wait, tokens, wait_until


def test_a_long_chat_answer_says_its_first_messages_were_not_sent(make_window, qloop, tmp_path):
    with ScriptedLLMServer(models=("scripted",)) as server:
        server.pages["/props"] = {"default_generation_settings": {"n_ctx": 2048}}
        win = make_window(server.base_url)
        chat = win.store.new_chat()
        for n in range(30):
            win.store.add_user_message(chat.id, f"Question {n} about the garden. " * 4)
            win.store.add_assistant_message(chat.id, f"Answer {n}: water the roses in the morning. " * 15)
        win._refresh_chats()
        win.open_chat(chat.id)
        qloop.run(wait_until(lambda: not win.loading))
        server.queue(Stream(tokens("Prune them in March.")))
        assert qloop.run(ask_and_wait(win, "And when do I prune?")) == "done"
        answer = win.view.answers()[-1]
        left = int(answer.stats["left_out"])
        assert 0 < left < 60 and answer.stats["window"] == 2048
        assert answer.footer().endswith(f"{left} earlier messages not read")
        tip = answer._footer.toolTip()
        assert "about 2,048 tokens" in tip and f"first {left} messages" in tip and "OLLAMA_CONTEXT_LENGTH" in tip
        assert answer._footer.accessibleDescription() == tip
        sent = server.requests[-1]["messages"]
        assert sent[0]["role"] == "system" and sent[-1]["content"] == "And when do I prune?"
        answer.grab().save(str(tmp_path / "footer.png"))
        footer = answer.footer()
        win.new_chat()
        win.open_chat(chat.id)
        qloop.run(wait_until(lambda: not win.loading and win.view.answers()))
        again = win.view.answers()[-1]
        assert again.footer() == footer and again._footer.toolTip() == tip


def test_footer_words_for_one_and_for_none():
    stats = {"rounds": 1, "tools_run": 0, "elapsed_ms": 1500}
    assert footer_text(stats) == "1.5 s"
    assert footer_text({**stats, "left_out": 1, "window": 4096}) == "1.5 s · 1 earlier message not read"


def test_a_follow_up_gets_the_earlier_answer_without_all_its_pages_and_the_footer_says_so(make_window, qloop):
    # "and in euros?" on a 4k model went with none of the chat, "2 earlier messages not read" said of a chat
    # of two: the answer was left out with its tools' pages, though its words alone fitted
    from tinyrag_desktop.chats import StoredTool

    page = "The Rhine cruise from Basel to Amsterdam costs 1,890 dollars per person, meals included. " * 60
    calls = "".join(f'<tool name="fetch_url"><url>https://cruises.example/{n}</url></tool>' for n in range(3))
    words = ("The Rhine cruise costs **1,890 dollars** per person. " + "The cabins are comfortable. " * 200).strip()
    with ScriptedLLMServer(models=("scripted",)) as server:
        server.pages["/props"] = {"default_generation_settings": {"n_ctx": 4096}}
        win = make_window(server.base_url)
        chat = win.store.new_chat()
        win.store.add_user_message(chat.id, "Compare these three cruise pages for me.")
        tools = [StoredTool(f"call_{n}", "fetch_url", f"https://cruises.example/{n}", "done", param="url",
                            source=f"https://cruises.example/{n}", result=page, position=n, round=1)
                 for n in range(3)]
        win.store.add_assistant_message(chat.id, words, transcript=calls + words, tools=tools)
        win._refresh_chats()
        win.open_chat(chat.id)
        qloop.run(wait_until(lambda: not win.loading))
        server.queue(Stream(tokens("About 1,740 euros.")))
        assert qloop.run(ask_and_wait(win, "and in euros?")) == "done"
        sent = [m["content"] for m in server.requests[-1]["messages"]]
        assert sent[-3:-1] == [sent[-3], words] and sent[-3].startswith("<tool_results>")
        assert "Compare these three cruise pages for me." in sent
        answer = win.view.answers()[-1]
        assert answer.footer().endswith("1 earlier answer read in part")
        assert "not read" not in answer.footer()
        tip = answer._footer.toolTip()
        assert "about 4,096 tokens" in tip and "an earlier answer was sent shorter" in tip and "first" not in tip
        assert answer._footer.accessibleDescription() == tip


def test_footer_words_for_answers_read_in_part():
    stats = {"rounds": 1, "tools_run": 0, "elapsed_ms": 1500}
    assert footer_text({**stats, "shortened": 2, "window": 4096}) == "1.5 s · 2 earlier answers read in part"
    assert footer_text({**stats, "left_out": 4, "shortened": 1}) == (
        "1.5 s · 4 earlier messages not read · 1 earlier answer read in part")
