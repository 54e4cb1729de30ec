"""What a tool card says in its header and note: a person's words, not the advice the model is sent."""

from __future__ import annotations

from tinyrag_desktop.engine.events import ToolFinished, ToolStarted
from tinyrag_desktop.ui.answer import AnswerWidget
from tinyrag_desktop.ui.toolcard import ToolCard

from tests.sse_server import Stream

from .conftest import ask_and_wait, tokens

UNKNOWN = ('There is no tool called “frobnicate”. Available tools: rag_knowledge (<query>); calculate (<query>). '
           'Write for example: <tool name="rag_knowledge"><query>product return policy</query></tool>')


def test_an_unknown_tool_card_says_so_in_one_sentence_and_shows_no_time(make_window, server, qloop):
    # Its note ran on into "Available tools: rag_knowledge (<query>); calculate (<q…", and "<1 ms" stood
    # beside a tool that does not exist and never ran.
    server.queue(Stream(tokens('<tool name="frobnicate"><query>x</query></tool>')), Stream(tokens("Sorry.")))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, "Frobnicate x")) == "done"
    [card] = win.view.answers()[-1].cards()
    assert card.status == "error" and card.note == "There is no tool called “frobnicate”."
    assert card.meta == ""
    assert "Available tools: " in card.details_text()  # open, the card shows all the model was told
    assert "<query>" not in card.toolTip()


def test_refused_calls_read_as_sentences(qtbot):
    answer = AnswerWidget()
    qtbot.addWidget(answer)
    answer.tool_started(ToolStarted("c1", "calculate", "2+2"))
    answer.tool_finished(ToolFinished("c1", "calculate", "2+2", "calculator", None, 7, "ok", 0, "2+2 = 4"))
    dup = answer.tool_finished(ToolFinished(
        "c2", "calculate", "2+2", "", "duplicate call: the same tool with the same input already ran in this "
        "answer", 0, "skipped", 0))
    limit = answer.tool_finished(ToolFinished(
        "c3", "calculate", "3+3", "", "limit reached: at most 3 tool calls per round", 0, "skipped", 0))
    wrong = answer.tool_finished(ToolFinished(
        "c4", "calculate", "x", "", 'calculate takes <query>, not <url>. Write: <tool name="calculate"><query>'
        '3 * (17 + 5) / 2</query></tool>', 0, "error", 0, param="url"))
    assert answer.cards()[0].meta == "<1 ms"  # it ran, quickly
    assert dup.note == "Duplicate call: the same tool with the same input already ran in this answer"
    # with the setting that raises the limit (the card said only the limit)
    said = ("Limit reached: at most 3 tool calls per round. To allow more, raise “Tool calls per round” in "
            "Settings → Limits.")
    assert limit.note == said
    assert f"Reason: {said}" in limit.details_text()  # open, too
    assert wrong.note == "calculate takes <query>, not <url>." and wrong.meta == ""


def test_the_input_is_headed_by_what_it_is_for_each_tool(qtbot):
    for tool, param, heading in (("shell", "query", "Command"), ("calculate", "query", "Expression"),
                                 ("nanogo", "source", "Code"), ("url_fetch", "url", "URL"),
                                 ("websearch", "query", "Query")):
        card = ToolCard("t", tool, "x", param)
        qtbot.addWidget(card)
        assert card.details_text().startswith(f"{heading}:\n"), tool
        assert f"{heading}: x" in card.accessibleDescription()


def test_a_reason_that_starts_with_a_name_keeps_it_and_the_description_has_one_full_stop(qtbot):
    card = ToolCard("t", "nanogo", "fmt.Println(1)", "source")
    qtbot.addWidget(card)
    card.finish("skipped", error="nanoGo is off in Settings.")
    assert card.note == "nanoGo is off in Settings."
    assert "Reason: nanoGo is off in Settings. Press Space" in card.accessibleDescription()  # not "Settings.."


def test_a_knowledge_search_that_found_nothing_says_so_under_its_tick(qtbot, tmp_path):
    # A green tick and nothing else read as if the knowledge base had answered.
    from tinyrag_desktop.tools.rag import EMPTY_MESSAGE, format_hits

    answer = AnswerWidget()
    qtbot.addWidget(answer)
    results = [EMPTY_MESSAGE, format_hits("return policy", []), "[1] Returns\nSource: Shop (/shop.md)\n30 days."]
    cards = []
    for n, result in enumerate(results):
        answer.tool_started(ToolStarted(f"c{n}", "rag_knowledge", "return policy"))
        cards.append(answer.tool_finished(ToolFinished(f"c{n}", "rag_knowledge", "return policy", "", None,
                                                       len(result), "ok", 6, result)))
    empty, unmatched, found = cards
    assert empty.status == "done" and empty.note.startswith("The knowledge base is empty")
    assert unmatched.note == "No passage in the knowledge base matched these words."
    assert found.note == ""  # passages found: the tick says enough
    answer.show()
    qtbot.waitExposed(answer)
    assert empty.height() > found.height()  # the note has its line


def test_open_the_card_sets_the_advice_to_the_model_apart_and_lists_sources_one_a_line(qtbot):
    # Open, an unknown tool's card read "Error: There is no tool called … Available tools: … Write for
    # example: <tool …>" as one reason; a search's two sources ran together ("a.md b.txt"); and a result
    # was headed by its size in bytes.
    card = ToolCard("t", "frobnicate", "x")
    qtbot.addWidget(card)
    card.finish("error", error=UNKNOWN)
    card.set_expanded(True)
    html = card._details.toHtml()
    text = card._details.toPlainText()
    assert "Error\nThere is no tool called “frobnicate”.\nThe model was told\nAvailable tools: " in text
    assert html.index("There is no tool called") < html.index("The model was told") < html.index("Available tools")
    rag = ToolCard("r", "rag_knowledge", "pancakes")
    qtbot.addWidget(rag)
    rag.finish("ok", source="/notes/pancakes.md\n/notes/meeting.txt", result="[1] Pancake recipe …",
               result_bytes=22)
    rag.set_expanded(True)
    text = rag._details.toPlainText()
    assert "Sources\n/notes/pancakes.md\n/notes/meeting.txt\nResult\n[1] Pancake recipe" in text
    assert "bytes" not in text


def test_a_limit_of_zero_says_no_calls_may_run_not_at_most_zero() -> None:
    # "Limit reached: at most 0 tool calls per answer. To allow more, raise …" (found by review)
    from tinyrag_desktop.tool_words import for_a_person
    from tinyrag_desktop.ui.toolcard import _group_note

    reason = "limit reached: no tool calls per answer"
    said = for_a_person(reason, "calculate")
    assert said == "Limit reached: no tool calls per answer. To allow them, raise “Tool calls per answer” in Settings → Limits."
    assert _group_note(4, reason, "calculate").startswith("4 calls skipped: no tool calls per answer. To allow them")
    assert _group_note(4, "limit reached: at most 3 tool calls per round", "calculate").startswith(
        "4 more calls skipped: at most 3 tool calls per round. To allow more")


def test_a_page_on_a_private_address_names_the_setting_as_other_cards_do(make_window, server, qloop):
    # The card read "url_fetch does not reach such addresses unless 'Let URL fetch reach private addresses'
    # (url_fetch_allow_private) is on", the settings file's key and the tool's code name among its words.
    server.queue(Stream(tokens(f'<tool name="url_fetch"><url>{server.base_url}/models</url></tool>')),
                 Stream(tokens("It is on this computer.")))
    win = make_window(server.base_url, network_tools=True, url_fetch_allow_private=False)
    assert qloop.run(ask_and_wait(win, "Read the page")) == "done"
    [card] = win.view.answers()[-1].cards()
    said = ("127.0.0.1 is a loopback address (this computer). Turn on “Let URL fetch reach private addresses” "
            "in Settings → Tools to read pages there.")
    assert card.status == "error" and card.note == said
    assert f"Error: {said}" in card.details_text()  # open, too
    # the model is told the setting's name and its key, to tell the user (its words are the tool's result)
    sent = server.requests[-1]["messages"][-1]["content"]
    assert "unless 'Let URL fetch reach private addresses' (url_fetch_allow_private) is on in Settings" in sent
