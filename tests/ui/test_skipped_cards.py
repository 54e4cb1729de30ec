"""A run of calls skipped for one reason is one card ("5 more calls skipped: …"), live and after reopening."""

from __future__ import annotations

from PySide6.QtCore import Qt

from tests.sse_server import Stream
from tinyrag_desktop.engine.events import ToolFinished
from tinyrag_desktop.ui.answer import AnswerWidget
from tinyrag_desktop.ui.toolcard import ToolCard

from .conftest import ask_and_wait, tokens

SUMS = [f"{n}+{n}" for n in range(1, 9)]
SAID = ("5 more calls skipped: at most 3 tool calls per round. To allow more, raise “Tool calls per round” in "
        "Settings → Limits.")


def _shown_cards(answer) -> list[ToolCard]:
    return [w for w in answer.parts() if isinstance(w, ToolCard)]


def _check(answer) -> None:
    assert len(answer.cards()) == 8  # every call is still there (and stored) one by one
    cards = _shown_cards(answer)
    assert [c.status for c in cards] == ["done", "done", "done", "skipped"]
    group = cards[-1]
    assert [c.query for c in group.folded()] == SUMS[4:]
    assert all(c.isHidden() and c.folded_into is group for c in group.folded())
    assert group.note == SAID and group.meta == "5 skipped"
    # opened, it shows each call's input, as the single cards did, and the whole reason
    group.set_expanded(True)
    assert group.details_text() == "Expressions:\n" + "\n".join(SUMS[3:]) + f"\n\nReason: {SAID}"
    assert group.accessibleName() == "Tools: Calculator, skipped, 5 calls"
    group.set_expanded(False)


def test_eight_calls_with_a_limit_of_three_show_one_card_for_the_five_skipped(make_window, server, qloop, qtbot):
    calls = "".join(f'<tool name="calculate"><query>{s}</query></tool>\n' for s in SUMS)
    server.queue(Stream(tokens("Let me add them.\n" + calls)), Stream(tokens("The first three are 2, 4 and 6.")))
    win = make_window(server.base_url)
    assert qloop.run(ask_and_wait(win, "Add each number from 1 to 8 to itself.")) == "done"
    answer = win.view.answers()[-1]
    _check(answer)
    group = _shown_cards(answer)[-1]
    answer.setFocus()
    # Tab goes from card to card: the hidden ones are passed over
    chain, widget = [], _shown_cards(answer)[0]
    for _ in range(4):
        chain.append(widget)
        widget = widget.nextInFocusChain()
        while not widget.isVisible() or not (widget.focusPolicy() & Qt.FocusPolicy.TabFocus):
            widget = widget.nextInFocusChain()
    assert chain == _shown_cards(answer)
    assert group.grab().height() > 0

    chat_id = win.chat_id
    qloop.run(win.aclose())
    win.close()
    again = make_window(server.base_url)
    again.open_chat(chat_id)
    _check(again.view.answers()[-1])  # grouped as it was shown


def _skipped(n: int, reason: str, query: str = "1+1", tool: str = "calculate") -> ToolFinished:
    return ToolFinished(f"c{n}", tool, query, "", reason, 0, "skipped", 0)


def test_only_neighbours_skipped_for_the_same_reason_go_together(qtbot):
    limit = "limit reached: at most 3 tool calls per round"
    answer = AnswerWidget()
    qtbot.addWidget(answer)
    answer.tool_finished(_skipped(1, limit, "1+1"))
    answer.tool_finished(_skipped(2, "duplicate call: the same tool with the same input already ran in this answer"))
    answer.tool_finished(_skipped(3, "duplicate call: the same tool with the same input already ran in this answer"))
    answer.append_text("And then ")
    answer.tool_finished(_skipped(4, limit, "2+2"))
    answer.append_text("\n")  # only a line break between two blocks: still neighbours
    answer.tool_finished(_skipped(5, limit, "https://example.org", tool="url_fetch"))
    answer.flush()
    cards = _shown_cards(answer)
    assert [c.call_id for c in cards] == ["c1", "c2", "c4"]
    assert cards[1].note == "2 calls skipped: the same tool with the same input already ran in this answer."
    assert cards[2].note.startswith("2 more calls skipped: at most 3 tool calls per round. To allow more")
    assert cards[2].details_text().startswith("Calls:\nCalculator: 2+2\nWeb page: https://example.org\n\n")
    assert cards[0].note.startswith("Limit reached: at most 3")  # alone, it reads as it did


AGAIN = "duplicate call: the same tool with the same input already ran in this answer"


def _icon(qtbot, calls: list[tuple[str, str]]):
    """The header's icon of a card standing for ``calls`` (tool, input), all skipped as repeats."""
    cards = []
    for n, (tool, query) in enumerate(calls):
        card = ToolCard(f"c{n}", tool, query)
        card.finish("skipped", error=AGAIN)
        qtbot.addWidget(card)
        cards.append(card)
    for card in cards[1:]:
        cards[0].fold(card)
    group = cards[0]
    group.resize(520, group.sizeHint().height())
    group.show()
    qtbot.waitExposed(group)
    return group.grab().toImage().copy(10, 4, 20, 26)  # left of the title: the icon alone


def test_a_card_for_calls_of_two_tools_shows_no_one_tools_icon(qtbot):
    # "Calculator, Web page · 2 skipped" showed the calculator alone, as if both had been calculations.
    mixed = _icon(qtbot, [("calculate", "2+2"), ("url_fetch", "http://127.0.0.1:18770/page.html")])
    assert mixed != _icon(qtbot, [("calculate", "2+2"), ("calculate", "3+3")])
    assert mixed != _icon(qtbot, [("url_fetch", "http://a.example"), ("url_fetch", "http://b.example")])
    assert mixed == _icon(qtbot, [("some_new_tool", "x"), ("some_new_tool", "y")])  # the generic one
