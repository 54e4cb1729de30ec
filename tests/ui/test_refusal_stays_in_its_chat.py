"""Enter pressed while the open chat answers says "Still answering: press Esc to stop…" for 6 s. After a switch
to another chat it stayed there, where Esc stops nothing: it goes with the chat it was about."""

from __future__ import annotations

from tests.sse_server import Gate, Stream

from .conftest import tokens, wait_signal, wait_until


def test_still_answering_goes_when_another_chat_is_opened(make_window, server, qloop):
    win = make_window(server.base_url)
    gate = Gate()
    server.queue(Stream(tokens("Hello there, this is a long answer."), gate=gate))
    finished = wait_signal(win.answerFinished)
    win.composer.setPlainText("Tell me a story")
    assert win.send()
    qloop.run(wait_until(lambda: win.view.answers() and win.view.answers()[-1].content()))
    win.composer.setPlainText("And another")
    assert not win.send()  # refused: this chat is answering
    assert win.statusBar().currentMessage().startswith("Still answering")
    win.new_chat()
    win.grab().save("/tmp/ui44a/refusal_other_chat.png")
    assert not win.statusBar().currentMessage().startswith("Still answering")
    assert "Esc" not in win.statusBar().currentMessage()
    gate.opened.set()
    assert qloop.run(finished) == "done"


def test_a_message_said_after_it_stays_when_the_chat_changes(make_window, server, qloop):
    win = make_window(server.base_url)
    gate = Gate()
    server.queue(Stream(tokens("Hello there, this is a long answer."), gate=gate))
    finished = wait_signal(win.answerFinished)
    win.composer.setPlainText("Tell me a story")
    assert win.send()
    qloop.run(wait_until(lambda: win.view.answers() and win.view.answers()[-1].content()))
    win.composer.setPlainText("And another")
    assert not win.send()
    win.statusBar().showMessage("Copied to the clipboard", 3000)  # something else said since: not ours to clear
    win.new_chat()
    assert win.statusBar().currentMessage() == "Copied to the clipboard"
    gate.opened.set()
    assert qloop.run(finished) == "done"
