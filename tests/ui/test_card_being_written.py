"""A tool call the model is still writing shows its card at once, "being written", not only when </tool> comes."""

from __future__ import annotations

import pytest

from tests.sse_server import Stream
from tests.ui.conftest import ask_then_stop, keep_picture, tokens, wait_signal, wait_until
from tinyrag_desktop.ui.toolcard import ToolCard

PROGRAM = "package main\n\nimport \"fmt\"\n\nfunc main() {\n" + "".join(
    f"\tfmt.Println(\"step {i}:\", {i} * {i})\n" for i in range(30)) + "}\n"
CALL = f'<tool name="nanogo"><source>{PROGRAM}</source></tool>'


def writing_card(answer) -> ToolCard | None:
    found = [c for c in answer.findChildren(ToolCard) if c.phase == "writing" and c.isVisible()]
    return found[0] if found else None


def shoot(widget, name: str) -> None:
    keep_picture(widget, f"{name}.png")


def test_the_card_shows_while_the_call_is_written_and_becomes_the_running_card(make_window, server, qloop):
    server.queue(Stream(tokens("I will write a program to check this. " + CALL + " That is the result.", 8),
                        delay=0.02), Stream(["Done."]))
    win = make_window(server.base_url, allow_nanogo=True)
    seen: dict = {}

    async def ask():
        answered = wait_signal(win.answerFinished, timeout=30)
        win.composer.setPlainText("slowprog please")
        assert win.send()
        await wait_until(lambda: win.view.answers() and writing_card(win.view.answers()[-1]) is not None)
        answer = win.view.answers()[-1]
        card = seen["card"] = writing_card(answer)
        seen["cards"] = answer.cards()  # no running card yet: its </tool> has not come
        # DESIGN's `status` is one of running, done, error, skipped: a call being written is running, and the
        # card's finer state ("writing", read by its look) is its `phase`. `status` was "writing".
        seen["states"] = (card.property("status"), card.property("phase"), card.status)
        seen["first"] = (card.tool_name, card.title, card.meta, card.accessibleName(), card.accessibleDescription())
        seen["text_above"] = [p for p in answer.parts() if p is not card]
        await wait_until(lambda: "lines so far" in card.meta and card.meta != seen["first"][2])
        seen["later"] = card.meta
        seen["later_description"] = card.accessibleDescription()
        shoot(win, "writing_card")
        return await answered

    assert qloop.run(ask()) == "done"
    card = seen["card"]
    assert seen["cards"] == []
    tool, title, meta, name, description = seen["first"]
    # in a person's words: it said "Writing a nanogo call… 34 characters so far" (the tags counted) before a
    # line of the program had come
    assert (tool, title) == ("nanogo", "Go program") and (meta == "" or meta.endswith(" so far"))
    assert seen["states"] == ("running", "writing", "running")
    assert name == "Tool: Go program, being written"  # read as the other cards are, in words
    assert description.startswith("being written. Writing Go code…") and "nanogo" not in description
    assert seen["later_description"].startswith("being written. Writing Go code… ")
    assert seen["later_description"].split("Writing Go code… ")[1].startswith(seen["later"])
    assert [p.markdown() for p in seen["text_above"]] == ["I will write a program to check this. "]
    assert int(seen["later"].split()[0]) > 1
    # the same card, now the call's: it ran, and its result is in
    answer = win.view.answers()[-1]
    assert answer.cards() == [card] and card.status == "done" and card.query == PROGRAM.strip()
    assert card.property("phase") == card.property("status") == "done"
    assert card.accessibleName() == "Tool: Go program, done" and card.meta != seen["later"]
    assert writing_card(answer) is None and "step 29: 841" in card.result
    parts = answer.parts()
    assert parts.index(card) == 1 and "That is the result." in parts[2].markdown()
    shoot(win, "written_card_done")


def test_a_call_that_turns_out_invalid_goes_and_its_text_shows(make_window, server, qloop):
    bad = '<tool name="calculate"><expr>' + "1 + " * 60 + "1</expr></tool>"
    server.queue(Stream(tokens("Let me add. " + bad + " Hm.", 6), delay=0.02))
    win = make_window(server.base_url)
    seen = []

    async def ask():
        answered = wait_signal(win.answerFinished, timeout=30)
        win.composer.setPlainText("add these")
        assert win.send()
        await wait_until(lambda: win.view.answers() and writing_card(win.view.answers()[-1]) is not None)
        seen.append(writing_card(win.view.answers()[-1]).title)
        return await answered

    assert qloop.run(ask()) == "done"
    answer = win.view.answers()[-1]
    assert seen == ["Calculator"]
    assert writing_card(answer) is None and answer.cards() == [] and not answer.findChildren(ToolCard)
    assert bad in answer.content()  # shown as text, as an invalid block is


def stopped_card(answer) -> ToolCard | None:
    """The card of the call the model was writing when the answer was stopped (no call of the engine's)."""
    found = [c for c in answer.findChildren(ToolCard) if c.meta == "stopped" and c not in answer.cards()]
    return found[0] if found else None


def test_a_stopped_answer_keeps_the_card_of_the_call_being_written_saying_it_was_stopped(make_window, server, qloop):
    server.queue(Stream(tokens("Here. " + CALL, 4), delay=0.05))
    win = make_window(server.base_url, allow_nanogo=True)
    outcome = qloop.run(ask_then_stop(win, "slowprog", lambda a: writing_card(a) is not None))
    assert outcome == "stopped"
    answer = win.view.answers()[-1]
    qloop.run(wait_until(lambda: writing_card(answer) is None))
    card = stopped_card(answer)
    assert answer.cards() == [] and answer.state == "stopped" and card is not None
    assert (card.title, card.status, card.note) == ("Go program", "skipped",
                                                    "Stopped while the model was writing it; not run.")


def test_a_call_stopped_while_written_reads_in_plain_words_and_keeps_its_code(make_window, server, qloop):
    # Stop showed the raw "<tool name="nanogo"><source>package main" and "(a tool call not run: the block was
    # not closed with </tool> before the end)": the parser's words for a stream that ended by itself.
    from tinyrag_desktop.chat_export import export_html, export_markdown
    from tinyrag_desktop.chats import ChatStore

    server.queue(Stream(tokens("Here. " + CALL, 4), delay=0.05))
    win = make_window(server.base_url, allow_nanogo=True)
    said = {}

    def far_enough(answer) -> bool:
        card = writing_card(answer)
        said["meta"] = card.meta if card is not None else ""
        return said["meta"].endswith("lines so far") and int(said["meta"].split()[0]) >= 5

    assert qloop.run(ask_then_stop(win, "slowprog", far_enough)) == "stopped"
    answer = win.view.answers()[-1]
    kept = answer.content()[len("Here. "):]
    # the block as far as the card had counted it, its lines and all, in the answer's text
    assert answer.content().startswith("Here. ") and CALL.startswith(kept) and "</tool>" not in kept
    assert kept.split("<source>", 1)[1].count("\n") + 1 >= int(said["meta"].split()[0])  # the lines it began
    assert answer.cards() == [] and writing_card(answer) is None and answer.state == "stopped"

    def shown_as(answer) -> tuple[str, str, str]:
        card = stopped_card(answer)
        assert card is not None and answer.parts()[-1] is card
        text = "\n".join(p.toPlainText() for p in answer.parts() if p is not card)
        return text, card.details_text(), card.accessibleName()

    text, details, name = shown_as(answer)
    assert text.strip() == "Here." and "not closed" not in text and "<tool" not in text
    code = kept.split("<source>", 1)[1]
    assert details.startswith("Code:\npackage main\n") and code.rstrip("\n<>/sourc").rstrip() in details
    assert details.endswith("Reason: Stopped while the model was writing it; not run.")
    assert name == "Tool: Go program, skipped"
    card = stopped_card(answer)
    card.set_expanded(True)  # its code, opened
    qloop.run(wait_until(lambda: card.height() > 100))
    shoot(win, "stopped_while_written")
    copied = answer.copy_markdown()
    assert "> – **Go program** (stopped)\n> ```go\n> package main\n" in copied
    assert "> Stopped while the model was writing it; not run." in copied and "not closed" not in copied
    stored = ChatStore(win.data_dir).messages(win.chat_id)[-1]
    assert stored.content == answer.content() and stored.transcript.endswith(kept)  # the raw text is kept
    info = ChatStore(win.data_dir).get_chat(win.chat_id)
    for exported in (export_markdown(info, [stored]), export_html(info, [stored])):
        assert "package main" in exported and "stopped while the model was writing it" in exported.lower()
        assert "not closed" not in exported
    win.open_chat(win.chat_id, rebuild=True)  # opened again, it shows the same
    win.finish_loading()
    again = win.view.answers()[-1]
    assert again.content() == answer.content() and shown_as(again) == (text, details, name)
    assert again.copy_markdown() == copied
    qloop.run(wait_until(again.isVisible))
    shoot(win, "stopped_while_written_reopened")


def test_a_card_being_written_says_what_is_written_in_words_and_counts_only_the_input(qtbot):
    # It said "Writing a rag_knowledge call… 34 characters so far" as soon as the tags had come: the model's
    # name for the tool, and the tags counted as if the search had begun
    from tinyrag_desktop.engine.events import ToolWriting
    from tinyrag_desktop.ui.answer import AnswerWidget

    answer = AnswerWidget()
    qtbot.addWidget(answer)
    answer.begin()
    answer.tool_writing(ToolWriting("call_1", "rag_knowledge", "query", 0, 0))
    card = writing_card(answer) or answer.findChildren(ToolCard)[0]
    assert card.meta == "" and card.details_text() == "Writing a knowledge base search…"
    answer.tool_writing(ToolWriting("call_1", "rag_knowledge", "query", 1234, 1))
    assert card.meta == "1,234 characters so far"
    assert card.accessibleDescription().startswith("being written. Writing a knowledge base search… 1,234 characters")
    other = AnswerWidget()
    qtbot.addWidget(other)
    other.begin()
    other.tool_writing(ToolWriting("call_1", "frobnicate", "query", 80, 3))  # a tool this version does not know
    card = other.findChildren(ToolCard)[0]
    assert card.details_text() == "Writing a frobnicate call… 3 lines so far"


@pytest.mark.parametrize("before, raw, query", [
    ("x\n\n", '<tool name="nanogo"><source>a\n</source></tool', "a"),  # stopped in its end tag: still the call
    ("x\n\n", '<tool name="nanogo"><source>a\n</source>\n</to', "a"),
    ("```\n", '<tool name="calculate"><query>1 + 1', None),  # in a code block: text, not a call
])
def test_a_call_stopped_while_written_shows_the_same_then_and_reopened(qtbot, before, raw, query):
    # Stopped, any block being written became a card; reopened, Copy and Export decided by stopped_call, which
    # found none in a text ending inside the end tag: the raw block showed there, with a stray "</tool"
    from tinyrag_desktop.engine.events import ToolWriting
    from tinyrag_desktop.ui.answer import AnswerWidget

    def shown(answer) -> tuple:
        card = stopped_card(answer)
        text = "\n".join(p.toPlainText() for p in answer.parts() if p is not card)
        return (card.query if card is not None else None), text, answer.to_markdown()

    live = AnswerWidget()
    qtbot.addWidget(live)
    live.begin()
    live.append_text(before)
    live.tool_writing(ToolWriting("call_1", "nanogo", "source", 2, 1, raw=raw))
    live.stop()
    reopened = AnswerWidget.from_stored(live.as_stored())
    qtbot.addWidget(reopened)
    assert reopened.content() == live.content() == before + raw
    assert shown(live) == shown(reopened)
    card_query, text, _copied = shown(live)
    assert card_query == query and "</t" not in text
