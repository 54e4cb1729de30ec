"""A knowledge base search that found nothing says so in plain words beside its ✓ (the search worked: spec, the badge
is ✓ or ✗), so the tick does not read as if the knowledge base had answered."""

from __future__ import annotations

from tests.sse_server import Stream
from tests.ui.conftest import ask_and_wait, keep_picture, tokens, wait_until
from tinyrag_desktop.engine.events import ToolFinished, ToolStarted
from tinyrag_desktop.tools.rag import EMPTY_MESSAGE, format_hits
from tinyrag_desktop.ui.answer import AnswerWidget

EMPTY_WORDS = "The knowledge base is empty: add documents in the Knowledge base panel (View → Knowledge base)."


def test_an_empty_knowledge_base_is_said_in_plain_words_beside_its_tick(make_window, server, qloop):
    # The card had a green ✓, and opened its Result was the model's text: "…or on the command line with
    # `python -m tinyrag_desktop kb add PATH|URL`."
    server.queue(Stream(tokens('Let me look. <tool name="rag_knowledge"><query>return policy</query></tool>')),
                 Stream(["Nothing there."]))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, "what is the return policy?")) == "done"
    answer = win.view.answers()[-1]
    [card] = answer.cards()
    assert card.result.startswith(EMPTY_MESSAGE)  # the model was told its own words
    assert (card.status, card.badge) == ("done", "done") and card.meta.startswith("nothing found · ")
    assert card.note == EMPTY_WORDS and card.accessibleName() == "Tool: Knowledge base, done, nothing found"
    assert card.accessibleDescription().startswith(f"done, nothing found. Query: return policy. Result: {EMPTY_WORDS}")
    assert card.details_text().endswith(f"Result:\n{EMPTY_WORDS}")
    qloop.run(wait_until(lambda: card.isVisible() and card.height() > 40))
    keep_picture(win, "empty_kb_card.png")
    closed = card.height()
    card.set_expanded(True)
    qloop.run(wait_until(lambda: card.height() > closed))
    shown = card._details.toPlainText()
    assert EMPTY_WORDS in shown and "`" not in shown and "python -m" not in shown
    copied = answer.copy_markdown()
    assert "> ✓ **Knowledge base** `return policy` (nothing found)" in copied and "python -m" not in copied
    keep_picture(win, "empty_kb_card_open.png")


def test_a_search_that_matched_nothing_has_the_same_badge(qtbot):
    answer = AnswerWidget()
    qtbot.addWidget(answer)
    results = [format_hits("return policy", []), "[1] Returns\nSource: Shop (/shop.md)\n30 days."]
    cards = []
    for n, result in enumerate(results):
        answer.tool_started(ToolStarted(f"c{n}", "rag_knowledge", "return policy"))
        cards.append(answer.tool_finished(ToolFinished(f"c{n}", "rag_knowledge", "return policy", "", None,
                                                       len(result), "ok", 6, result)))
    unmatched, found = cards
    assert (unmatched.badge, unmatched.meta, unmatched.status) == ("done", "nothing found · 6 ms", "done")
    assert (found.badge, found.meta) == ("done", "6 ms")  # passages found: the tick


def test_a_search_of_only_common_words_is_not_searched_and_says_so_with_the_same_badge(qtbot):
    # It had a green ✓ "done", as if the knowledge base had answered "what is it".
    from tinyrag_desktop.chat_export import export_html, export_markdown
    from tinyrag_desktop.chats import ChatInfo, StoredMessage, StoredTool
    from tinyrag_desktop.kb.search import Hits

    result = format_hits("what is it", Hits([], common=("what", "is", "it")))
    assert result.startswith("Not searched: “what is it” holds only common words")
    answer = AnswerWidget()
    qtbot.addWidget(answer)
    answer.tool_started(ToolStarted("c0", "rag_knowledge", "what is it"))
    card = answer.tool_finished(ToolFinished("c0", "rag_knowledge", "what is it", "", None, len(result), "ok", 6,
                                             result))
    assert (card.badge, card.meta, card.status) == ("done", "nothing found · 6 ms", "done")
    assert card.note == ("Not searched: these are all common words, which nearly every passage holds. The model "
                         "was asked to search with more specific ones.")
    assert "> ✓ **Knowledge base** `what is it` (nothing found)" in answer.copy_markdown()
    stored = StoredTool("c0", "rag_knowledge", "what is it", "ok", result=result)
    message = StoredMessage(2, "assistant", "Ask me more precisely.", tools=(stored,))
    chat = ChatInfo(1, "Common", "", 0.0, 0.0)
    assert "> ✓ **Knowledge base** `what is it` (nothing found)" in export_markdown(chat, [message])
    assert "✓ <b title=\"rag_knowledge\">Knowledge base</b>" in export_html(chat, [message])
