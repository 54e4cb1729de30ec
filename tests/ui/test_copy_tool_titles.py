"""Copy and the exports name each tool call as its card does ("Calculator", "Go program", "Web page"), not by the
model's name for the tool; the HTML page keeps that name in the title's tooltip, as the card's tooltip does."""

from __future__ import annotations

import re

from PySide6.QtWidgets import QApplication, QWidget

from tests.sse_server import Stream
from tests.ui.conftest import ask_and_wait, tokens
from tinyrag_desktop.chat_export import answer_markdown
from tinyrag_desktop.chats import StoredMessage, StoredTool

GO = 'package main\n\nimport "fmt"\n\nfunc main() {\n\tfmt.Println("hello")\n}\n'
CALLS = ('Three tools:\n<tool name="calculate"><query>6*7</query></tool>\n'
         f'<tool name="nanogo"><source>{GO}</source></tool>\n'
         '<tool name="url_fetch"><url>https://example.org/</url></tool>\n')


def test_copy_and_exports_title_the_calls_as_their_cards_do(make_window, server, qloop, tmp_path):
    # They wrote "✓ **calculate** `6*7` (done)" and "source: calculator" under cards titled Calculator.
    server.queue(Stream(tokens(CALLS)), Stream(tokens("Done.")))
    win = make_window(server.base_url, allow_nanogo=True)  # network tools off: the page's call is "off"
    assert qloop.run(ask_and_wait(win, "Use them")) == "done"
    answer = win.view.answers()[-1]
    titles = [card.title for card in answer.cards()]
    assert titles == ["Calculator", "Go program", "Web page"]
    QApplication.clipboard().clear()
    answer.findChild(QWidget, "copyAnswer").click()
    copied = QApplication.clipboard().text()
    heads = [line for line in copied.splitlines() if re.match(r"> [✓✗–⟳■] \*\*", line)]
    assert [re.match(r"> . \*\*(.+?)\*\*", line).group(1) for line in heads] == titles
    assert heads[0] == "> ✓ **Calculator** `6*7` (done)" and heads[2].endswith("(off)")
    assert "source: calculator" not in copied and "source: nanoGo" not in copied  # the title says what ran
    assert "6*7 = 42" in copied and "hello" in copied  # the results stay
    md = qloop.run(win.export_chat(tmp_path / "chat.md", "md")).read_text(encoding="utf-8")
    page = qloop.run(win.export_chat(tmp_path / "chat.html", "html")).read_text(encoding="utf-8")
    assert all(head in md for head in heads) and "**calculate**" not in md
    assert '<b title="calculate">Calculator</b>' in page and '<b title="nanogo">Go program</b>' in page
    assert '<b title="url_fetch">Web page</b>' in page and "source: calculator" not in page


def test_a_tool_this_version_does_not_know_keeps_its_name_and_a_real_source_stays():
    tools = (StoredTool("c1", "my_tool", "x", "ok", source="somewhere", result="y", position=0),
             StoredTool("c2", "url_fetch", "https://example.org/", "ok", "url", source="https://example.org/",
                        result="Example", position=0))
    copied = answer_markdown(StoredMessage(2, "assistant", "", tools=tools))
    assert "> ✓ **my_tool** `x` (done)\n> source: somewhere" in copied
    assert "> ✓ **Web page** `https://example.org/` (done)\n> source: https://example.org/" in copied
