"""A running Go program's opened card shows what it has printed so far, updated as more comes (at most every
PROGRESS_MS, cut as a finished command's output is), and the conversation stays where the user scrolled in it."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest

from tests.sse_server import Stream
from tests.ui.conftest import ask_then_stop, keep_picture, tokens, wait_signal, wait_until
from tinyrag_desktop.engine.events import ToolOutput
from tinyrag_desktop.ui.toolcard import ToolCard


def _program(lines: int) -> str:
    """A Go program that prints ``lines`` lines, then runs on until it is stopped."""
    return ('package main\n\nimport "fmt"\n\nfunc main() {\n\tfor i := 0; i < %d; i++ {\n'
            '\t\tfmt.Println("tick", i)\n\t}\n\tfor {\n\t}\n}\n' % lines)


def _shown(card: ToolCard) -> str:
    return card._details.toPlainText() if card._details is not None else ""


def test_an_opened_running_programs_card_shows_its_output_as_it_comes(make_window, server, qloop):
    # Opened while the program ran, the card said "Running…" however much it had printed; the output came
    # only once it was stopped or timed out.
    server.queue(Stream(tokens(f'Go:\n<tool name="nanogo"><source>{_program(20)}</source></tool>', 8)))
    win = make_window(server.base_url, allow_nanogo=True)
    seen = {}

    def opened_and_shown(answer) -> bool:
        cards = answer.cards()
        if not cards or cards[0].status != "running":
            return False
        card = seen["card"] = cards[0]
        if not card.expanded:  # opened by the keyboard as soon as it runs, before or after its first lines
            card.setFocus()
            QTest.keyClick(card, Qt.Key.Key_Space)
        if "tick 19" not in _shown(card):
            return False
        seen["shown"] = _shown(card)
        keep_picture(win, "opened_running_card.png")
        return True

    assert qloop.run(ask_then_stop(win, "run it", opened_and_shown, timeout=30), timeout=40) == "stopped"
    shown = seen["shown"]
    assert "Output so far" in shown and "Running…" not in shown
    assert shown.split("Output so far", 1)[1].split() == [w for i in range(20) for w in ("tick", str(i))]
    card = seen["card"]
    assert "Output before it was stopped" in _shown(card) and "tick 19" in _shown(card)  # as before, once stopped


def test_more_output_keeps_the_place_the_user_scrolled_to_in_the_open_card(make_window, server, qloop):
    text = "".join(f"Paragraph {i} before the program.\n\n" for i in range(20))
    server.queue(Stream(tokens(f'{text}<tool name="nanogo"><source>{_program(60)}</source></tool>', 40)))
    win = make_window(server.base_url, allow_nanogo=True)
    view, bar = win.view, win.view.verticalScrollBar()
    seen = {}

    async def scroll_in_then_more_output() -> str:
        finished = wait_signal(win.answerFinished, timeout=30)
        win.composer.setPlainText("run it")
        win.send()
        await wait_until(lambda: bool(view.answers() and view.answers()[-1].cards()
                                      and "tick 59" in view.answers()[-1].cards()[0].printed_so_far()), timeout=30)
        card = view.answers()[-1].cards()[0]
        card.set_expanded(True)
        details = card._details

        def top() -> int:
            return details.mapTo(view.widget(), QPoint(0, 0)).y()

        await wait_until(lambda: "tick 59" in _shown(card) and top() > 0 and bar.maximum() > top() + 300)  # laid out
        bar.setValue(top() + 100)  # the user scrolled to a place inside the card's output, well above the bottom
        assert not view.following()
        seen["at"] = (bar.value(), details.mapTo(view.viewport(), QPoint(0, 0)).y())
        updates = []
        replace = details.replace_html
        details.replace_html = lambda html: (updates.append(1), replace(html))
        for i in range(3000):  # more output, as the engine's bridge hands it on: one line at a time
            win.bridge.toolOutput.emit(ToolOutput(card.call_id, "nanogo", f"more {i}\n"))
        await wait_until(lambda: card.meta == "3,060 lines so far")
        seen["after"] = (bar.value(), details.mapTo(view.viewport(), QPoint(0, 0)).y())
        seen["shown"], seen["updates"] = _shown(card), len(updates)
        keep_picture(win, "opened_running_card_scrolled.png")
        win.stop()
        return await finished

    assert qloop.run(scroll_in_then_more_output(), timeout=60) == "stopped"
    assert seen["after"] == seen["at"]  # the scroll bar and the output under it stayed where they were
    shown = seen["shown"]
    assert seen["updates"] == 1  # 3,000 lines, one showing
    output = shown.split("Output so far", 1)[1]
    assert "tick 0" in output and "more 2999" in output and "more characters" in output  # its start and latest
    assert len(output.splitlines()) <= 125  # cut as a finished command's output is, not 3,060 lines tall


def test_a_selection_in_the_open_card_stays_as_output_comes(qtbot):
    card = ToolCard("call_1", "shell", "make", "query")
    qtbot.addWidget(card)
    card.resize(500, 40)
    card.show()
    card.add_output("building a\nbuilding b\n")
    card.set_expanded(True)
    qtbot.waitUntil(lambda: "building b" in _shown(card))
    start = _shown(card).index("building a")
    cursor = card._details.textCursor()
    cursor.setPosition(start)
    cursor.setPosition(start + len("building a"), cursor.MoveMode.KeepAnchor)
    card._details.setTextCursor(cursor)
    card.add_output("building c\n")
    qtbot.waitUntil(lambda: "building c" in _shown(card))
    assert card._details.textCursor().selectedText() == "building a"
    card.set_expanded(False)
    card.add_output("building d\n")  # closed: shown on its note; open again, in its details at once
    qtbot.waitUntil(lambda: card.note == "building d")
    card.set_expanded(True)
    assert "building d" in _shown(card)
