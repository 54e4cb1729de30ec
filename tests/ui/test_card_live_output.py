"""A running Go program's closed card shows what it has printed so far: how many lines, and the last one."""

from __future__ import annotations

from tests.sse_server import Stream
from tests.ui.conftest import ask_then_stop, keep_picture, tokens, wait_until
from tinyrag_desktop.ui.toolcard import ToolCard

# twenty lines, then it runs on until it is stopped
PROGRAM = ('package main\n\nimport "fmt"\n\nfunc main() {\n\tfor i := 0; i < 20; i++ {\n'
           '\t\tfmt.Println("tick", i)\n\t}\n\tfor {\n\t}\n}\n')


def test_a_running_programs_card_shows_its_lines_so_far_and_the_last(make_window, server, qloop):
    # The folded card showed only its spinner while the program had printed 20 lines: they showed only
    # once it was opened, after the program ended.
    server.queue(Stream(tokens(f'Go:\n<tool name="nanogo"><source>{PROGRAM}</source></tool>', 8)))
    win = make_window(server.base_url, allow_nanogo=True)
    seen = {}

    def printed_all(answer) -> bool:
        cards = answer.cards()
        if not cards or cards[0].meta != "20 lines so far":
            return False
        card = seen["card"] = cards[0]
        seen["running"] = (card.status, card.meta, card.note, card.accessibleDescription(), card.height())
        keep_picture(win, "running_card_output.png")
        return True

    assert qloop.run(ask_then_stop(win, "run it", printed_all, timeout=30), timeout=40) == "stopped"
    status, meta, note, description, height = seen["running"]
    assert (status, meta, note) == ("running", "20 lines so far", "tick 19")
    assert "Printed 20 lines so far, the last line: tick 19" in description
    card = seen["card"]
    assert card.meta == "stopped" and card.note == "Stopped before the tool finished."  # as before, once stopped


def test_the_card_shows_printed_lines_at_a_bounded_rate(qtbot):
    # each line re-laid the card out: a program printing a thousand lines at once made a thousand layouts
    card = ToolCard("call_1", "nanogo", "package main", "source")
    qtbot.addWidget(card)
    card.resize(500, 40)
    card.show()
    layouts = []
    relayout = card._relayout
    card._relayout = lambda: (layouts.append(1), relayout())
    for i in range(1000):
        card.add_output(f"tick {i}\n")
    assert card.meta == "running" and card.note == ""  # no lines yet: shown once they have come
    qtbot.waitUntil(lambda: card.meta == "1,000 lines so far")
    assert card.note == "tick 999" and 1 <= len(layouts) <= 2  # the note's line came once (and its resize)
    before = len(layouts)
    card.add_output("a line much longer than the card is wide, " * 20 + "\n")
    qtbot.waitUntil(lambda: card.meta == "1,001 lines so far")
    assert len(layouts) == before and len(card._note_lines()) == 1  # cut at its end, on one line: no new height
    card.finish("ok", result="done\n", elapsed_ms=5000)
    assert card.meta == "5.0 s" and card.note == ""
