"""Copy answer, Copy last answer and Export write each tool call as the window shows it: a Go program whole,
in a go block, with its lines; an error of several lines inside its quote; a block the engine did not run in
code, with why; a call still running as running."""

from __future__ import annotations

import html
import re

import markdown
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from tests.sse_server import Stream
from tinyrag_desktop.chat_export import answer_markdown, export_html, export_markdown
from tinyrag_desktop.chats import ChatInfo, StoredMessage, StoredTool
from tinyrag_desktop.protocol import InvalidBlock, XMLParseState
from tinyrag_desktop.tools.nanogo_tool import OUTPUT_BEFORE
from tinyrag_desktop.ui.answer import AnswerWidget

from .conftest import tokens, wait_signal, wait_until

CHAT = ChatInfo("c1", "Go", "", 0.0, 0.0)
QUESTION = StoredMessage(1, "user", "Check it with a program")
# Longer than any one-line preview, a comment that would comment out the rest of a joined line, backticks
# (a raw string) that would end a code span or a short fence, and tabs.
PROGRAM = ("package main\n\nimport (\n\t\"fmt\"\n\t\"strings\"\n)\n\n"
           + "".join(f"// helper{n} adds up xs times {n}\nfunc helper{n}(xs []int) int {{\n\ts := 0\n"
                     f"\tfor _, x := range xs {{\n\t\ts += x * {n}\n\t}}\n\treturn s\n}}\n\n" for n in range(8))
           + "func main() {\n\tfence := `````\n"
           + "\tfmt.Println(strings.Repeat(\"=\", 3), fence, helper3([]int{1, 3, 5}))\n}")
RAN = StoredTool("call_1", "nanogo", PROGRAM, "ok", "source", source="nanoGo", result="=== ````` 27\n",
                 elapsed_ms=245, position=11)
FAILED = StoredTool("call_2", "nanogo", "x := 1\nfmt.Println(y)", "error", "source",
                    error="compile error:\nprog.go:2:13: undefined: y\nprog.go:2:1: x declared and not used",
                    elapsed_ms=248, position=17)
PANIC = StoredTool("call_3", "nanogo", "fmt.Println(\"start\")\nvar a []int\nfmt.Println(a[5])", "error", "source",
                   error=f"panic: runtime error: index out of range [5] with length 0{OUTPUT_BEFORE}start\n",
                   elapsed_ms=251, position=23)
GO_ANSWER = StoredMessage(2, "assistant", "I will run: then: and: All ran.", tools=(RAN, FAILED, PANIC))


def _quotes(md: str) -> list[str]:
    """Each block quote of ``md`` (its lines, the "> " taken off): a call as Copy writes it is one quote."""
    out, lines = [], None
    for line in md.split("\n"):
        if line.startswith(">"):
            lines = lines if lines is not None else []
            lines.append(line[2:] if line.startswith("> ") else line[1:])
        elif lines is not None:
            out.append("\n".join(lines))
            lines = None
    return out + (["\n".join(lines)] if lines is not None else [])


def _code(md: str, lang: str) -> list[str]:
    """The code of each ``lang`` block of ``md`` as a Markdown renderer shows it (Python-Markdown puts 4
    spaces for a tab)."""
    page = markdown.markdown(md, extensions=["fenced_code"])
    return [html.unescape(code) for code in re.findall(
        rf'<code class="language-{lang}">(.*?)</code>', page, re.S)]


def _page_text(page: str) -> str:
    """What a browser shows of an exported page's body: the tags taken out."""
    return html.unescape(re.sub(r"<[^>]*>", "", page.split("<body>", 1)[1]))


def test_a_go_program_is_copied_whole_in_a_go_block_in_its_quote() -> None:
    # It was one line cut at 120 characters ("package main import ( "fmt" … s +=…"): its line breaks gone, the
    # first // comment commented out the rest.
    for md in (answer_markdown(GO_ANSWER), export_markdown(CHAT, [QUESTION, GO_ANSWER])):
        ran, failed, panic = [q for q in _quotes(md) if "**Go program**" in q]
        assert ran.startswith("✓ **Go program**") and ran.split("\n", 1)[0].endswith("(done)")
        assert _code(ran, "go") == [PROGRAM.expandtabs(4) + "\n"]  # the whole program, its lines as written
        assert "\n".join(f"> {line}" for line in PROGRAM.split("\n")) in md  # and its tabs
        assert _code(failed, "go") == [FAILED.query + "\n"] and _code(panic, "go") == [PANIC.query + "\n"]
        assert "=== ````` 27" in _code(ran, "text")[0]  # its output still under it


def test_an_error_of_several_lines_stays_in_its_quote() -> None:
    # "> Compile error:" and then "prog.go:2:13: undefined: y" on a line of its own, out of the quote
    md = answer_markdown(GO_ANSWER)
    call = md.split("then:\n\n", 1)[1].split("\n\nand:", 1)[0]
    assert call.startswith("> ✗ **Go program**") and all(line.startswith(">") for line in call.split("\n"))
    failed = [q for q in _quotes(md) if q.startswith("✗ **Go program**")][0]
    assert "Compile error:" in failed
    assert _code(failed, "text") == ["prog.go:2:13: undefined: y\nprog.go:2:1: x declared and not used\n"]
    panic = [q for q in _quotes(md) if "index out of range" in q][0]
    assert "Panic: runtime error: index out of range [5] with length 0" in panic
    assert "Output before the error:" in panic and _code(panic, "text") == ["start\n"]  # as the card says it


def test_an_exported_page_keeps_a_programs_lines_and_an_errors() -> None:
    page = export_html(CHAT, [QUESTION, GO_ANSWER])
    pres = [_page_text(f"<body>{pre}") for pre in re.findall(r"<pre\b.*?</pre>", page, re.S)]
    assert PROGRAM in pres  # whole, with its lines (a <span> joined them into one)
    assert "prog.go:2:13: undefined: y\nprog.go:2:1: x declared and not used" in pres
    assert "start" in pres
    shown = _page_text(page)
    assert "Compile error:" in shown and "Output before the error:" in shown


# A model's broken calls, which the engine did not run: the spec's rule 3 shows them as text.
BROKEN = ('Bad ones: <tool name=""><query>1+1</query></tool> and <tool name="calculate"><query></query></tool>'
          ' and <tool name="calculate"><command>ls</command></tool> and nested <tool name="calculate"><query>'
          '<tool name="calculate"><query>1</query></tool></query></tool> end.')
UNCLOSED = 'Then:\n\n<tool name="nanogo"><source>x := 1\n# not a heading\nfmt.Println(x)\n'


def _not_run(text: str) -> list[tuple[str, str]]:
    """The blocks of ``text`` the parser found invalid, with its reason for each."""
    state = XMLParseState()
    return [(e.raw.strip(), e.reason) for e in [*state.feed(text), *state.finish()] if isinstance(e, InvalidBlock)]


def _shown(md: str) -> str:
    """What a Markdown renderer shows of ``md``, on one line: tags it takes for HTML show nothing."""
    page = markdown.markdown(md, extensions=["fenced_code"])
    return " ".join(html.unescape(re.sub(r"<[^>]*>", "", page)).split())


def test_blocks_not_run_are_copied_in_code_with_why_as_the_window_shows_them() -> None:
    # They were written raw: a viewer took the tags for HTML and the line read "Bad ones: 1+1 and and ls"
    blocks = _not_run(BROKEN)
    assert len(blocks) == 4
    message = StoredMessage(2, "assistant", BROKEN)
    for md in (answer_markdown(message), export_markdown(CHAT, [QUESTION, message])):
        shown = _shown(md)
        for raw, reason in blocks:
            assert f"{raw} (a tool call not run: {reason})" in shown
        assert 'Bad ones: <tool name=""><query>1+1</query></tool> (a tool call not run: ' in shown
        assert shown.endswith("</tool></query></tool> (a tool call not run: "
                              "nested <tool> blocks are not supported) end.")
    page = " ".join(_page_text(export_html(CHAT, [QUESTION, message])).split())
    for raw, reason in blocks:
        assert f"{raw} (a tool call not run: {reason})" in page


def test_a_block_never_closed_is_copied_as_a_code_block_with_why() -> None:
    [(raw, reason)] = _not_run(UNCLOSED)
    assert "\n" in raw
    message = StoredMessage(2, "assistant", UNCLOSED)
    md = answer_markdown(message)
    assert _code(md, "text") == [raw + "\n"]  # its lines kept: "# not a heading" is no heading
    assert "<h1>" not in markdown.markdown(md, extensions=["fenced_code"])
    assert f"(a tool call not run: {reason})" in _shown(md)
    page = export_html(CHAT, [QUESTION, message])
    assert raw in _page_text(page) and f"(a tool call not run: {reason})" in _page_text(page)


def test_a_call_still_running_is_copied_as_running() -> None:
    loop = StoredTool("call_1", "nanogo", "for {}", "running", "source", position=8)
    live = StoredMessage(0, "assistant", "Long go ", status="answering", tools=(loop,))
    md = answer_markdown(live)
    assert "**Go program**" in md and "(running)" in md and "stopped" not in md.lower()
    assert md.rstrip().endswith("*[The answer is still being written]*")
    # stored mid-run, it was stopped: the app saves an answer once it has ended
    stopped = StoredMessage(2, "assistant", "Long go ", status="stopped", stats={"outcome": "stopped"},
                            tools=(StoredTool("call_1", "nanogo", "for {}", "running", "source", position=8,
                                              error="Stopped before the tool finished."),))
    md = answer_markdown(stopped)
    assert "(stopped)" in md and "running" not in md and md.rstrip().endswith("*[Answer stopped]*")


def test_copy_last_answer_while_a_program_runs_says_it_runs(make_window, server, qloop, qtbot):
    # Ctrl+Shift+C while `for {}` ran wrote "■ **Go program** `for {}` (stopped)"
    server.queue(Stream(tokens('Long go <tool name="nanogo"><source>for {}\n</source></tool> more')),
                 Stream(tokens("It did not end.")))
    win = make_window(server.base_url, allow_nanogo=True, tool_timeout=60)
    finished = wait_signal(win.answerFinished, timeout=30)
    win.composer.setPlainText("Loop for ever")
    assert win.send()
    qloop.run(wait_until(lambda: bool(win.view.answers()) and bool(win.view.answers()[-1].cards())
                         and win.view.answers()[-1].cards()[0].status == "running", timeout=15))
    # and the words around the card rendered (a frame after the card shows): Ctrl+A below selects them all
    qloop.run(wait_until(lambda: [s.toPlainText().strip() for s in win.view.answers()[-1].segments()]
                         == ["Long go", "more"], timeout=15))
    copied = win.copy_last_answer()
    assert QGuiApplication.clipboard().text() == copied
    assert "**Go program**" in copied and "(running)" in copied and "stopped" not in copied.lower()
    assert _code(_quotes(copied)[0], "go") == ["for {}\n"]
    assert copied.rstrip().endswith("*[The answer is still being written]*")
    # Ctrl+A, Ctrl+C in its text writes the card as Copy does
    with qtbot.waitActive(win):
        win.activateWindow()
    answer = win.view.answers()[-1]
    answer.segments()[0].enter_caret("start")
    QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    assert "> ⟳ **Go program** (running)" in QGuiApplication.clipboard().text()
    win.stop()
    assert qloop.run(finished, timeout=30) == "stopped"
    copied = win.copy_last_answer()
    assert "(stopped)" in copied and "(running)" not in copied and copied.rstrip().endswith("*[Answer stopped]*")


def test_ctrl_a_and_ctrl_c_copy_blocks_not_run_as_the_copy_button_does(qtbot):
    answer = AnswerWidget()
    qtbot.add_widget(answer)
    answer.resize(700, 400)
    answer.append_text(BROKEN)
    answer.flush()
    answer.show()
    with qtbot.waitActive(answer):
        answer.activateWindow()
    answer.segments()[0].enter_caret("start")
    QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    QApplication.clipboard().clear()
    QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    copied = QApplication.clipboard().text()
    assert copied == answer.to_markdown()
    assert "(a tool call not run: nested `<tool>` blocks are not supported)" in copied


def test_go_programs_skipped_for_one_reason_are_each_copied_whole() -> None:
    again = "duplicate call: this exact call was already made in this answer"
    skipped = tuple(StoredTool(f"call_{n}", "nanogo", f"x := {n}\nfmt.Println(x)", "skipped", "source", error=again,
                               position=5) for n in (1, 2))
    message = StoredMessage(2, "assistant", "Runs: done.", tools=skipped)
    md = answer_markdown(message)
    [run] = [q for q in _quotes(md) if "**Go program**" in q]
    assert run.startswith("– **Go program** (2 skipped)")
    assert _code(run, "go") == ["x := 1\nfmt.Println(x)\n", "x := 2\nfmt.Println(x)\n"]
    page = export_html(CHAT, [QUESTION, message])
    pres = [_page_text(f"<body>{pre}") for pre in re.findall(r"<pre\b.*?</pre>", page, re.S)]
    assert pres == ["x := 1\nfmt.Println(x)", "x := 2\nfmt.Println(x)"] and "(2 skipped)" in page


def test_the_models_own_mark_like_words_are_written_as_they_are():
    # "TINYRAGINVALIDBLOCK7X" in an answer (our mark's shape) raised IndexError in the HTML export, and in
    # Copy when the answer also held a block not run: nothing was copied, a traceback on the console.
    from tinyrag_desktop.chat_export import _text_html, text_markdown
    from tinyrag_desktop.ui.markdown_render import LIGHT, render

    text = ('Say TINYRAGINVALIDBLOCK7X and TINYRAGFENCE9X please. <tool name="calculate"></tool> then\n\n'
            '```\ncode\n```\n')
    copied = text_markdown(text)
    assert "TINYRAGINVALIDBLOCK7X" in copied and "TINYRAGFENCE9X" in copied and "not run" in copied
    page = _text_html(text)
    assert "TINYRAGINVALIDBLOCK7X" in page and "not run" in page
    shown = render(text, LIGHT).html
    assert "TINYRAGINVALIDBLOCK7X" in shown and "TINYRAGFENCE9X" in shown and "code" in shown
