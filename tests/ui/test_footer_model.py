"""Each answer's footer names the model asked for it: the model setting applies to every chat, so a chat can
hold the answers of several, and every footer read "0.4 s" alike."""

from __future__ import annotations

from tests.sse_server import ScriptedLLMServer, Stream
from tinyrag_desktop.ui.answer import footer_text

from .conftest import ask_and_wait, tokens, wait_until


def test_a_chat_answered_by_two_models_says_which_wrote_each_answer_also_when_opened_again(make_window, qloop):
    with ScriptedLLMServer(models=("scripted", "other-model")) as server:
        server.queue(Stream(tokens("From the first.")), Stream(tokens("From the second.")))
        win = make_window(server.base_url)
        assert qloop.run(ask_and_wait(win, "First question")) == "done"
        win.choose_model("other-model")
        assert qloop.run(ask_and_wait(win, "Second question")) == "done"
        footers = [a.footer() for a in win.view.answers()]
        assert [f.rsplit(" · ", 1)[1] for f in footers] == ["scripted", "other-model"]
        chat = win.chat_id
        win.new_chat()
        win.open_chat(chat)
        qloop.run(wait_until(lambda: not win.loading and len(win.view.answers()) == 2))
        assert [a.footer() for a in win.view.answers()] == footers  # stored with the answer


def test_with_no_model_chosen_the_footer_names_the_one_the_server_gave(make_window, qloop):
    # "Server default" in Settings: the footer read "0.3 s" alone, though the app asked the server's first
    # chat model (not its embedding model) by name.
    with ScriptedLLMServer(models=("nomic-embed-text", "qwen2.5-7b-instruct")) as server:
        server.queue(Stream(tokens("Hello.")))
        win = make_window(server.base_url, chat_model="")
        assert qloop.run(ask_and_wait(win, "Hi")) == "done"
        assert server.requests[-1]["model"] == "qwen2.5-7b-instruct"
        assert win.view.answers()[-1].footer().endswith(" s · qwen2.5-7b-instruct")


def test_a_model_file_is_said_by_its_name_as_the_status_bar_says_it():
    stats = {"rounds": 1, "tools_run": 0, "elapsed_ms": 1200, "outcome": "stopped",
             "model": "/home/me/models/qwen2.5-7b-instruct-q4_k_m.gguf"}
    assert footer_text(stats) == "1.2 s · qwen2.5-7b-instruct-q4_k_m · stopped"
    assert footer_text({**stats, "model": "llama3.2:3b"}) == "1.2 s · llama3.2:3b · stopped"
    assert footer_text({"rounds": 1, "tools_run": 0, "elapsed_ms": 1200}) == "1.2 s"  # the server's default
