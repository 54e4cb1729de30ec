"""Enter pressed while the open chat answers says "Still answering: press Esc to stop…" for 6 s. After a switch
to another chat it stayed there, where Esc stops nothing: it goes with the chat it was about."""

from __future__ import annotations

from .conftest import held_answer, keep_picture, wait_until


def test_still_answering_goes_when_another_chat_is_opened(make_window, server, qloop):
    win = make_window(server.base_url)
    gate, finished = held_answer(win, server)
    qloop.run(wait_until(lambda: win.view.answers() and win.view.answers()[-1].content()))
    story = win.chat_id
    win.composer.setPlainText("And another")
    assert not win.send()  # refused: this chat is answering
    assert win.statusBar().currentMessage().startswith("Still answering")
    win.new_chat()
    keep_picture(win, "refusal_other_chat.png")
    assert not win.statusBar().currentMessage().startswith("Still answering")
    assert "Esc" not in win.statusBar().currentMessage()
    # Said since, another message is not this one's to clear
    win.open_chat(story)
    win.composer.setPlainText("And another")
    assert not win.send() and win.statusBar().currentMessage().startswith("Still answering")
    win.statusBar().showMessage("Copied to the clipboard", 3000)
    win.new_chat()
    assert win.statusBar().currentMessage() == "Copied to the clipboard"
    gate.opened.set()
    assert qloop.run(finished) == "done"
