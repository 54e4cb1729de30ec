"""A Go program's or a command's output in its card as a terminal shows it: no colour codes, a progress line's
last state, other control characters as symbols and a bidi override as a mark, in the card, in its Copy and in
what the model is given."""

from __future__ import annotations

import re
import sys

import pytest
from PySide6.QtGui import QGuiApplication

from tests.sse_server import Stream
from tinyrag_desktop.ui.toolcard import ToolCard

from .conftest import ask_and_wait, keep_picture, tokens
from .test_denied_command import _ask_and_answer, _shell

GO = ('package main\n\nimport "fmt"\n\nfunc main() {\n\tfmt.Println("\\x1b[31mred\\x1b[0m plain")\n'
      '\tfor i := 0; i <= 100; i += 25 {\n\t\tfmt.Printf("\\rprogress %d%%", i)\n\t}\n\tfmt.Println()\n'
      '\tfmt.Println("tab\\there\\u202eevil")\n}\n')
SHOWN = "red plain\nprogress 100%\ntab\there‹U+202E›evil"


def _told(server) -> str:
    """The tool's result as the model was given it, in the last request."""
    said = server.requests[-1]["messages"][-1]["content"]
    return said.split("<result ", 1)[1].split("</result>", 1)[0]


def _opened_text(card: ToolCard) -> str:
    card.set_expanded(True)
    return card._details.toPlainText()


def test_a_go_programs_card_shows_its_output_as_a_terminal_does(make_window, server, qloop, qtbot):
    # The card showed "▯[31mred▯[0m plain", each "\r" as a new line, and "\u202eevil" as "live".
    server.queue(Stream(tokens(f'Go:\n<tool name="nanogo"><source>{GO}</source></tool>', 8)),
                 Stream(tokens("Done.")))
    win = make_window(server.base_url, allow_nanogo=True)
    assert qloop.run(ask_and_wait(win, "run it"), timeout=60) == "done"
    [card] = win.view.answers()[-1].cards()
    shown = _opened_text(card).split("\nResult\n", 1)[1]  # the code above it holds the escapes as written
    assert SHOWN in shown
    assert "\x1b" not in shown and "\u202e" not in shown and "[31m" not in shown
    assert shown.count("progress") == 1
    win.resize(700, 600)
    qtbot.waitUntil(lambda: card.height() > card._details.height() > 40)
    keep_picture(win, "go_card_terminal_output.png")
    # Copy gives the same readable text, and the model was given it too
    assert SHOWN in card.details_text()
    card.grab()
    QGuiApplication.clipboard().setText("")
    from tinyrag_desktop.ui.toolcard_menu import card_menu
    [copy_result] = [a for a in card_menu(card).actions() if a.text() == "Copy result"]
    copy_result.trigger()
    assert QGuiApplication.clipboard().text().rstrip("\n") == SHOWN
    told = _told(server)
    assert "red plain\nprogress 100%\ntab\there‹U+202E›evil" in told
    assert "\x1b" not in told and "\u202e" not in told and "\r" not in told


@pytest.mark.skipif(sys.platform == "win32", reason="printf in /bin/sh")
def test_a_commands_card_shows_its_output_as_a_terminal_does(make_window, server, qloop):
    command = r"printf '\033[31mred\033[0m plain\nA\rB\n\342\200\256evil\n\007'"
    server.queue(Stream(tokens("Let me run it. " + _shell(command))), Stream(tokens("It ran.")))
    win = make_window(server.base_url, allow_shell_exec=True)
    assert qloop.run(_ask_and_answer(win, "run it", ["run"]), timeout=60) == "done"
    [card] = win.view.answers()[-1].cards()
    shown = _opened_text(card)
    assert "red plain\nB\n‹U+202E›evil\n␇" in shown
    assert "\x1b" not in shown and "\u202e" not in shown and "A" not in shown.split("stdout", 1)[1]
    assert "red plain\nB\n‹U+202E›evil\n␇" in _told(server)


def test_a_saved_result_with_raw_codes_is_shown_clean(qtbot):
    # A chat saved before the tools cleaned their output holds the codes: the card cleans them as it shows them.
    card = ToolCard("t1", "nanogo", "package main")
    qtbot.addWidget(card)
    card.finish("ok", source="nanoGo", result="\x1b[1;32mok\x1b[0m\r\n\rdone 1\rdone 2\n\u2066x\u2069", elapsed_ms=5)
    shown = _opened_text(card)
    assert "ok\ndone 2\n\u2066x\u2069" in shown and "\x1b" not in card.details_text()  # an isolate is the text's own


def test_a_go_run_whose_output_was_cut_shows_how_long_it_took(make_window, server, qloop):
    # "output cut ✓" had no time, while every other finished card shows one ("0.4 s").
    source = 'package main\n\nimport (\n\t"fmt"\n\t"strings"\n)\n\nfunc main() {\n\tfmt.Print(strings.Repeat("y", 200000))\n}\n'
    server.queue(Stream(tokens(f'Go:\n<tool name="nanogo"><source>{source}</source></tool>', 8)),
                 Stream(tokens("Done.")))
    win = make_window(server.base_url, allow_nanogo=True)
    assert qloop.run(ask_and_wait(win, "run it"), timeout=60) == "done"
    [card] = win.view.answers()[-1].cards()
    assert card.output_cut
    assert re.fullmatch(r"output cut · (\d+\.\d s|\d+ ms)", card.meta), card.meta
    assert card.accessibleName().endswith("done, output cut")
    keep_picture(win, "go_card_output_cut.png")
