"""A tool card is titled with the tool in a person's words ("Calculator"), not the name the model calls it by."""

from __future__ import annotations

import pytest

from tinyrag_desktop.tools.rag import EMPTY_MESSAGE
from tinyrag_desktop.ui.toolcard import ToolCard
from tinyrag_desktop.ui.toolcard_header import tool_title

TITLES = [("rag_knowledge", "query", "Knowledge base"), ("websearch", "query", "Web search"),
          ("wikipedia", "query", "Wikipedia"), ("url_fetch", "url", "Web page"), ("calculate", "query", "Calculator"),
          ("nanogo", "source", "Go program"), ("shell", "query", "Shell command")]


@pytest.mark.parametrize(("tool", "param", "title"), TITLES)
def test_a_card_is_titled_in_plain_words_and_keeps_the_models_name(qtbot, tool, param, title):
    card = ToolCard("c1", tool, "x", param)
    qtbot.addWidget(card)
    with qtbot.waitSignal(card.statusChanged):
        card.finish("ok", result="x")
    assert card.title == title == tool_title(tool)
    assert card.property("tool_name") == tool  # DESIGN's property: the model's name, unchanged
    assert card.accessibleName() == f"Tool: {title}, done"
    assert card.toolTip().startswith(f"{title}: done\nTool name: {tool}")  # the model's name stays in reach


def test_an_unknown_tool_keeps_its_own_name_once(qtbot):
    card = ToolCard("c1", "frobnicate", "x")
    qtbot.addWidget(card)
    with qtbot.waitSignal(card.statusChanged):
        card.finish("error", error="There is no tool called “frobnicate”.", ran=False)
    assert card.title == "frobnicate" and card.accessibleName() == "Tool: frobnicate, failed"
    assert "Tool name:" not in card.toolTip()


def test_a_group_of_several_tools_lists_their_titles(qtbot):
    first, second = ToolCard("c1", "calculate", "2+2"), ToolCard("c2", "url_fetch", "https://example.org", "url")
    for card in (first, second):
        qtbot.addWidget(card)
        card.finish("skipped", error="limit reached: at most 3 tool calls per round")
    first.fold(second)
    assert first.title == "Calculator, Web page"
    assert first.accessibleName() == "Tools: Calculator, Web page, skipped, 2 calls"
    assert "Tool name: calculate, url_fetch" in first.toolTip()
    assert first.details_text().startswith("Calls:\nCalculator: 2+2\nWeb page: https://example.org")


def test_an_empty_knowledge_base_names_the_panel_as_the_menu_does(qtbot):
    card = ToolCard("c1", "rag_knowledge", "themes")
    qtbot.addWidget(card)
    with qtbot.waitSignal(card.statusChanged):
        card.finish("ok", result=EMPTY_MESSAGE)
    assert card.note == ("The knowledge base is empty: add documents in the Knowledge base panel "
                         "(View → Knowledge base).")
