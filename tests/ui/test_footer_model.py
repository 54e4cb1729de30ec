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


def _lines(label) -> list[str]:
    """The lines of ``label`` as Qt wraps its text at its width, as written (no joiners, plain spaces)."""
    from PySide6.QtGui import QTextLayout, QTextOption

    text = label.text()
    layout = QTextLayout(text, label.font())
    layout.setTextOption(QTextOption(label.alignment()))
    option = layout.textOption()
    option.setWrapMode(QTextOption.WrapMode.WordWrap)
    layout.setTextOption(option)
    layout.beginLayout()
    lines = []
    while (line := layout.createLine()).isValid():
        line.setLineWidth(label.contentsRect().width())
        lines.append(text[line.textStart():line.textStart() + line.textLength()])
    layout.endLayout()
    return [line.replace("\u2060", "").replace("\u00a0", " ").strip() for line in lines]


def test_the_footer_breaks_between_its_parts_and_shortens_a_name_wider_than_the_line(qtbot):
    # At 800 px with the knowledge panel open the footer wrapped inside the model's name: "qwen2.5:7b-" on
    # one line, "instruct" on the next.
    from tinyrag_desktop.ui.answer_footer import FooterLabel

    label = FooterLabel()
    qtbot.addWidget(label)
    parts = ["2 rounds", "3 tools run", "5.0 s", "qwen2.5:7b-instruct"]
    label.set_footer(" · ".join(parts))
    label.show()
    name = label.fontMetrics().horizontalAdvance(parts[-1])
    broken = []
    for width in range(name + 10, 400, 7):  # each width at which the name fits on a line
        label.resize(width, 200)
        lines = _lines(label)
        if len(lines) > 1:
            broken.append(width)
        for line in lines:  # every line is whole parts, and the dot stays after the part before it
            assert not line.startswith("·"), (width, lines)
            assert all(part in parts for part in line.rstrip(" ·").split(" · ")), (width, lines)
    assert broken, "the footer never wrapped: the test shows nothing"
    label.resize(name - 20, 200)  # narrower than the name: shortened in its middle, not broken
    lines = _lines(label)
    assert any(line.startswith("qwen") and "…" in line for line in lines), lines
    assert all(label.fontMetrics().horizontalAdvance(line) <= label.contentsRect().width() for line in lines)
    assert label.full_text() == " · ".join(parts)
    assert label.minimumSizeHint().width() < name  # the name does not set the conversation's minimum width
