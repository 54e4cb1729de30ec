"""Run links on ```go blocks: the nanoGo sandbox runs the block and its output shows under it."""

from __future__ import annotations

import asyncio
import os
import re
from pathlib import Path

import pytest
from hypothesis import given, strategies as st
from PySide6.QtCore import QPoint, Qt, QUrl
from PySide6.QtGui import QTextCursor

from tests.sse_server import Stream
from tinyrag_desktop.settings import defaults
from tinyrag_desktop.ui.answer import AnswerWidget
from tinyrag_desktop.ui.gorun import describe
from tinyrag_desktop.ui.markdown_render import RunView, render
from tinyrag_desktop.tools.nanogo import RunResult

from .conftest import ask_and_wait, tokens, wait_until

HELLO = 'Here it is:\n\n```go\npackage main\n\nimport "fmt"\n\nfunc main() {\n\tfmt.Println("hi")\n}\n```\n\nEnjoy.'
UNUSED = "This one has a bug:\n\n```go\nx := 1\n```\n"
FOREVER = "A loop:\n\n```go\nfor {\n}\n```\n"


def _go_segment(answer):
    [seg] = [s for s in answer.segments() if s.code_blocks()]
    return seg


def _go_answer(qtbot, text: str, **settings):
    """An answer showing ``text`` with nanoGo allowed (and ``settings``), and its segment holding a Go block."""
    chosen = defaults().replace(allow_nanogo=True, **settings)
    answer = AnswerWidget(settings=lambda: chosen)
    qtbot.add_widget(answer)
    answer.append_text(text)
    answer.flush()
    return answer, _go_segment(answer)


def _link_point(seg, href: str) -> QPoint:
    """Where the link ``href`` is drawn in the segment's viewport (to click it like a person would)."""
    doc = seg.document()
    block = doc.begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            frag = it.fragment()
            if frag.charFormat().isAnchor() and frag.charFormat().anchorHref() == href:
                cursor = QTextCursor(doc)
                cursor.setPosition(frag.position() + 1)
                return seg.cursorRect(cursor).center()
            it += 1
        block = block.next()
    raise AssertionError(f"no link {href!r} in the segment")


def test_run_shows_the_output_under_the_block(make_window, server, qloop, qtbot):
    server.queue(Stream(tokens(HELLO)))
    win = make_window(server.base_url, allow_nanogo=True)
    assert qloop.run(ask_and_wait(win, "Hello world in Go, please")) == "done"
    seg = _go_segment(win.view.answers()[-1])
    assert "Run" in seg.toPlainText() and "run-go:0" in seg.toHtml()

    async def click_and_wait():
        qtbot.mouseClick(seg.viewport(), Qt.MouseButton.LeftButton, pos=_link_point(seg, "run-go:0"))
        assert "Running…" in seg.toPlainText()  # at once: the run goes on in the background
        await wait_until(lambda: "Output · exit 0" in seg.toPlainText(), timeout=20)

    qloop.run(click_and_wait(), timeout=30)
    text = seg.toPlainText()
    assert text.index("fmt.Println") < text.index("Output · exit 0") < text.index("\nhi") < text.index("Enjoy.")
    assert seg.run_views()[0].output == "hi\n"
    # a reopened chat offers Run again (outputs are not stored: a run is a moment, not part of the answer)
    chat_id = win.chat_id
    win.new_chat()
    win.open_chat(chat_id)
    again = _go_segment(win.view.answers()[-1])
    assert "run-go:0" in again.toHtml() and "Output" not in again.toPlainText()


def test_run_is_reachable_by_keyboard(make_window, server, qloop, qtbot):
    server.queue(Stream(tokens(HELLO)))
    win = make_window(server.base_url, allow_nanogo=True)
    assert qloop.run(ask_and_wait(win, "Hello world in Go")) == "done"
    seg = _go_segment(win.view.answers()[-1])
    assert seg.focusPolicy() & Qt.FocusPolicy.TabFocus  # a segment with code links is in the Tab chain

    async def keys():
        seg.setFocus()
        qtbot.keyClick(seg, Qt.Key.Key_Tab)      # "Copy code"
        qtbot.keyClick(seg, Qt.Key.Key_Tab)      # "Run"
        assert seg.textCursor().charFormat().anchorHref() == "run-go:0" or \
            seg.textCursor().selectedText() == "Run"
        qtbot.keyClick(seg, Qt.Key.Key_Return)
        await wait_until(lambda: "Output · exit 0" in seg.toPlainText(), timeout=20)

    qloop.run(keys(), timeout=30)


def test_no_run_link_while_nanogo_is_off_and_it_appears_when_turned_on(make_window, server, qloop):
    server.queue(Stream(tokens(HELLO)))
    win = make_window(server.base_url, allow_nanogo=False)
    assert qloop.run(ask_and_wait(win, "Hello world in Go")) == "done"
    seg = _go_segment(win.view.answers()[-1])
    assert "run-go:" not in seg.toHtml() and "Copy code" in seg.toPlainText()
    assert seg.run_go(0) is None  # even a forged link does nothing
    win.apply_settings(win.settings.replace(allow_nanogo=True))  # no restart
    assert "run-go:0" in seg.toHtml()
    win.apply_settings(win.settings.replace(allow_nanogo=False))
    assert "run-go:" not in seg.toHtml()


def test_a_compile_error_shows_its_message(make_window, server, qloop):
    server.queue(Stream(tokens(UNUSED)))
    win = make_window(server.base_url, allow_nanogo=True)
    assert qloop.run(ask_and_wait(win, "Go with a bug")) == "done"
    seg = _go_segment(win.view.answers()[-1])

    async def run():
        seg.anchorClicked.emit(QUrl("run-go:0"))
        await wait_until(lambda: "Output · compile error" in seg.toPlainText(), timeout=20)

    qloop.run(run(), timeout=30)
    assert "declared but not used" in seg.toPlainText()


def _workers() -> set[int]:
    """Our nanoGo worker processes still alive (Linux /proc)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmd = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        if ppid == os.getpid() and b"nanogo.worker" in cmd:
            found.add(int(entry.name))
    return found


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc to see child processes")
def test_leaving_the_chat_stops_a_run_and_kills_its_process(make_window, server, qloop):
    server.queue(Stream(tokens(FOREVER)))
    win = make_window(server.base_url, allow_nanogo=True, tool_timeout=60.0)
    assert qloop.run(ask_and_wait(win, "An endless Go loop")) == "done"
    seg = _go_segment(win.view.answers()[-1])

    async def scenario():
        task = seg.run_go(0)
        await wait_until(lambda: _workers(), timeout=10)
        win.new_chat()  # the answer goes away: its run must not go on in the background
        await asyncio.gather(task, return_exceptions=True)
        assert task.cancelled()
        await wait_until(lambda: not _workers(), timeout=5)

    qloop.run(scenario(), timeout=30)


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc to see child processes")
def test_closing_the_window_kills_a_running_program(make_window, server, qloop):
    server.queue(Stream(tokens(FOREVER)))
    win = make_window(server.base_url, allow_nanogo=True, tool_timeout=60.0)
    assert qloop.run(ask_and_wait(win, "An endless Go loop")) == "done"
    seg = _go_segment(win.view.answers()[-1])

    async def scenario():
        task = seg.run_go(0)
        await wait_until(lambda: _workers(), timeout=10)
        await win.aclose()  # the app awaits this when its window closes
        assert task.cancelled()
        await wait_until(lambda: not _workers(), timeout=5)  # SIGKILL was sent; the kernel finishes it

    qloop.run(scenario(), timeout=30)
    win.close()


def test_stop_link_ends_a_run_and_says_so(qloop, qtbot):
    answer, seg = _go_answer(qtbot, FOREVER, tool_timeout=60.0)

    async def scenario():
        task = seg.run_go(0)
        assert "stop-go:0" in seg.toHtml() and "Running…" in seg.toPlainText()
        seg.anchorClicked.emit(QUrl("stop-go:0"))
        await asyncio.gather(task, return_exceptions=True)

    qloop.run(scenario())
    assert "Output · stopped" in seg.toPlainText() and "run-go:0" in seg.toHtml()


def test_what_a_program_prints_shows_as_it_runs_and_stays_after_stop(qloop, qtbot):
    # the box was emptied: a long program's output until the Stop was lost
    answer, seg = _go_answer(qtbot, 'A loop:\n\n```go\nfmt.Println("started the loop")\nfor {\n}\n```\n', tool_timeout=60.0)

    async def scenario():
        task = seg.run_go(0)
        # shown while it runs (it was "Running…" alone until the end)
        await wait_until(lambda: "started the loop" in seg.toPlainText(), timeout=30)
        assert "Running…" in seg.toPlainText()
        seg.anchorClicked.emit(QUrl("stop-go:0"))
        await asyncio.gather(task, return_exceptions=True)

    qloop.run(scenario(), timeout=40)
    text = seg.toPlainText()
    assert "Output · stopped" in text and "started the loop" in text and "Stopped before it finished." in text


def test_a_run_survives_re_renders_of_the_streaming_segment(qloop, qtbot):
    answer, seg = _go_answer(qtbot, 'Try:\n\n```go\nfmt.Println("hi")\n```\n\n')

    async def scenario():
        task = seg.run_go(0)
        for word in ("More ", "text ", "streams ", "in."):  # the same segment renders again meanwhile
            answer.append_text(word)
            answer.flush()
            assert "Running…" in seg.toPlainText()
        await task
        answer.append_text(" And more.")
        answer.flush()

    qloop.run(scenario())
    assert answer.segments() == [seg]
    text = seg.toPlainText()
    assert "Output · exit 0" in text and "\nhi" in text and text.rstrip().endswith("in. And more.")


def test_a_block_split_across_segments_gets_no_run_link():
    html = render("```go\nfmt.Println(1)\n```\n", run_go=True, partial=(True, False)).html
    assert "run-go:" not in html  # a later piece whose earlier code is unknown
    html = render("```go\nfmt.Println(1)\n```\n", run_go=True, partial=(True, False), carried="x := 1\n").html
    assert "run-go:0" in html
    html = render("text\n\n```go\nfmt.Println(1)\n```\n\n```go\nx\n```\n", run_go=True, partial=(False, True)).html
    assert "run-go:0" in html and "run-go:1" not in html


def test_output_of_a_changed_block_is_not_shown_and_floods_are_cut():
    stale = render("```go\nfmt.Println(2)\n```\n", run_go=True,
                   runs={0: RunView("fmt.Println(1)\n", status="exit 0", output="1\n")}).html
    assert "Output" not in stale
    flood = render("```go\nx\n```\n", run_go=True, runs={0: RunView("x\n", status="exit 0", output="y\n" * 20000)})
    assert "more characters not shown" in flood.html and len(flood.html) < 30000


@pytest.mark.parametrize("result, words", [
    (RunResult("hi\n", "", 0, "ok"), "exit 0"),
    (RunResult("", "prog.go:1:1: x declared but not used\n", 2, "compile_error"), "compile error"),
    (RunResult("", "panic: boom\n\ngoroutine 1 [running]:\nmain.main()\n", 1, "panic"), "panic"),
    (RunResult("", "fatal error: all goroutines are asleep - deadlock!\n", 1, "panic"), "deadlock"),
    (RunResult("", "nanoGo: time limit exceeded: killed after 2s\n", 1, "limit"), "stopped: time limit"),
    (RunResult("", "nanoGo: memory limit exceeded (64 MB)\n", 1, "limit"), "stopped: memory limit"),
    (RunResult("", "nanoGo: CPU time limit exceeded\n", 1, "limit"), "stopped: CPU time limit"),
    (RunResult("x" * 65536, "nanoGo: output limit exceeded: output cut at 65536 bytes\n", 1, "limit"),
     "stopped: output limit"),
])
def test_outcomes_in_words(result, words):
    status, error = describe(result)
    assert status == words and "goroutine 1" not in error


def test_a_long_program_cut_by_the_streaming_view_runs_whole_from_its_last_piece(qloop, qtbot):
    settings = defaults().replace(allow_nanogo=True)
    answer = AnswerWidget(settings=lambda: settings)
    qtbot.add_widget(answer)
    body = "".join(f'    fmt.Println("line {i:03}")\n' for i in range(300))  # ~8,000 characters of code
    for piece in tokens(f"A long one:\n\n```go\npackage main\n\nimport \"fmt\"\n\nfunc main() {{\n{body}}}\n```\n",
                        64):
        answer.append_text(piece)
        answer.flush()
    pieces = [s for s in answer.segments() if s.code_blocks()]
    assert len(pieces) >= 2  # the block was cut so that streaming stays cheap
    assert all("run-go:" not in s.toHtml() for s in pieces[:-1]) and "run-go:0" in pieces[-1].toHtml()
    last = pieces[-1]
    assert last.run_source(0) == f"package main\n\nimport \"fmt\"\n\nfunc main() {{\n{body}}}\n"

    async def scenario():
        await last.run_go(0)

    qloop.run(scenario())
    assert last.run_views()[0].output == "".join(f"line {i:03}\n" for i in range(300))
    assert "Output · exit 0" in last.toPlainText()


_GO_TEXT = st.lists(st.sampled_from(["```go\n", "```golang\n", "```\n", "~~~go\n", "fmt.Println(1)\n", "text\n", "\n",
                                     "<b>", "`x`", "    indented\n", "```python\n"]), max_size=30).map("".join)


@given(_GO_TEXT, st.booleans(), st.booleans())
def test_run_links_always_point_at_a_go_block(text, first_partial, last_partial):
    r = render(text, run_go=True, partial=(first_partial, last_partial))
    for index in (int(n) for n in re.findall(r'href="run-go:(\d+)"', r.html)):
        assert 0 <= index < len(r.code_blocks)
    assert "run-go:" not in render(text, run_go=False).html
