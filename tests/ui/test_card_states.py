"""What a tool card says of a run that failed, was cut, ended badly or waits for the user, closed and open."""

from __future__ import annotations

from tinyrag_desktop.tools.nanogo_tool import OUTPUT_BEFORE, OUTPUT_CUT
from tinyrag_desktop.ui.toolcard import ToolCard


def _card(qtbot, tool: str, query: str, param: str = "query", width: int = 600) -> ToolCard:
    card = ToolCard("c1", tool, query, param)
    qtbot.addWidget(card)
    card.resize(width, card.sizeHint().height())
    card.show()
    return card


def _opened_text(card: ToolCard) -> str:
    card.set_expanded(True)
    assert card._details is not None
    return card._details.toPlainText()


def test_a_failed_go_run_shows_its_output_as_lines_under_its_own_heading(qtbot):
    # "Error / Panic: boom output before the error: before table: a 1 b 2": one paragraph, tabs lost
    card = _card(qtbot, "nanogo", 'fmt.Println("before")\npanic("boom")', "source")
    card.finish("error", error=f"panic: boom{OUTPUT_BEFORE}before\ntable:\na\t1\nb\t2\n", elapsed_ms=600)
    assert card.note == "Panic: boom"
    shown = _opened_text(card)
    assert "Error\nPanic: boom\nOutput before the error\nbefore\ntable:\na\t1\nb\t2" in shown
    assert "Output before the error:\nbefore\ntable:\na\t1\nb\t2" in card.details_text()


def test_a_failed_go_run_with_a_lot_of_output_is_cut_like_a_result(qtbot):
    # 64 KB of output sat under "Error" as one block, and the card was 7,940 pixels tall
    output = "".join(f"line {n} of a lot of output\n" for n in range(2500))
    card = _card(qtbot, "nanogo", "for {}", "source")
    card.finish("error", error=f"panic: boom{OUTPUT_BEFORE}{output}", elapsed_ms=900)
    assert card.note == "Panic: boom"
    shown = _opened_text(card)
    assert "line 0 of a lot of output\nline 1 of" in shown
    kept = "".join(f"line {n} of a lot of output\n" for n in range(120)).rstrip("\n")
    assert "line 119 of" in shown and "line 120 of" not in shown  # 120 lines at most, as for a result
    assert f"… {len(output) - len(kept):,} more characters" in shown
    assert card._details.height() < 2200  # it was 7,940 pixels for the whole card


def test_a_go_run_cut_at_the_output_limit_is_done_with_a_note_in_sight(qtbot):
    output = "".join(f"line {n}\n" for n in range(8000))
    card = _card(qtbot, "nanogo", "for {}", "source")
    card.finish("ok", source="nanoGo", result=f"{output}\n{OUTPUT_CUT}", elapsed_ms=900)
    assert card.status == "done"
    assert card.note == "The output was cut at 64 KB: the program printed more, and was stopped there."
    shown = _opened_text(card)
    assert shown.rstrip().endswith(f"more characters {OUTPUT_CUT}")  # past the 6,000 shown, still said


def test_a_command_that_failed_says_so_on_the_closed_card(qtbot):
    # "shell … 9 ms ✓" and nothing else, for "exit 3"
    command = "printf 'bad exit\\n' >&2; exit 3"
    card = _card(qtbot, "shell", command)
    card.finish("ok", source="/data/work", result=f"$ {command}\nexit status: 3\n--- stderr ---\nbad exit",
                elapsed_ms=9)
    assert card.status == "done" and card.note == "The command ended with exit status 3."
    assert "The command ended with exit status 3." in card.toolTip()
    stopped = _card(qtbot, "shell", "seq 1 700000")
    stopped.finish("ok", result="$ seq 1 700000\nthe command printed more than 2 MB and was stopped\n--- stdout "
                                "---\n1", elapsed_ms=300)
    assert stopped.note == "The command printed more than 2 MB and was stopped."
    fine = _card(qtbot, "shell", "ls")
    fine.finish("ok", result="$ ls\nexit status: 0\n(no output)", elapsed_ms=3)
    assert fine.note == ""


def test_a_failed_fetch_says_the_reason_and_not_the_address_again(qtbot):
    url = "http://127.0.0.1:18731/docs/guide/installation/linux/advanced-configuration-options.html?ref=sidebar"
    card = _card(qtbot, "url_fetch", url, "url", width=1000)
    card.finish("error", error=f"Page not found (404 Not Found): {url}", elapsed_ms=20)
    assert card.note == "Page not found (404 Not Found)."
    assert _opened_text(card).count(url) == 1  # under "URL", not again under "Error"
    moved = _card(qtbot, "url_fetch", "http://a.example/old", "url")
    moved.finish("error", error="Page not found (404 Not Found): http://a.example/new", elapsed_ms=20)
    assert moved.note == "Page not found (404 Not Found): http://a.example/new"  # another address: said


def test_a_card_waiting_for_the_users_answer_says_so(qtbot):
    card = _card(qtbot, "shell", "rm -rf build")
    card.set_waiting(True)
    assert card.waiting and card.meta == "waiting for you"
    assert card.note == "Waiting for you to allow or deny this command."
    assert card.height() >= card.minimumHeight()
    card.set_waiting(False)
    assert card.note == "" and card.meta == "running"  # allowed: it runs, its seconds from now
    card.set_waiting(True)
    card.finish("ok", result="$ rm -rf build\nexit status: 0\n(no output)", elapsed_ms=5)
    assert not card.waiting and card.meta == "5 ms" and card.note == ""
    card.set_waiting(True)  # too late: it has run
    assert not card.waiting


def test_a_calculation_shows_its_value_on_the_closed_card(qtbot):
    card = _card(qtbot, "calculate", "3 * (17 + 5) / 2")
    card.finish("ok", source="calculator", result="3 * (17 + 5) / 2 = 33", elapsed_ms=0)
    assert "Result: 33" in card.accessibleDescription()  # it read "Result: = 33" (a11y33)
    big = _card(qtbot, "calculate", "1000!")
    big.finish("ok", source="calculator", result="1000! ≈ 4.02387260077094e+2567 (a whole number of 2,568 digits)")
    # its size in digits is left to the opened card
    assert "Result: ≈ 4.02387260077094e+2567." in big.accessibleDescription()
    fraction = _card(qtbot, "calculate", "10^50 / 7")
    fraction.finish("ok", result=f"10^50 / 7 = {10**50}/7 ≈ 1.42857142857143e+49")
    # too long for the header (open the card), and said in short in the description
    assert f"Result: {10**50}/7 ≈ 1.42857142857143e+49." in fraction.accessibleDescription()


def test_a_long_command_output_shows_its_start_and_its_end_when_opened(qtbot):
    # the card showed the first lines only; a command's end (its error, its summary) matters most
    body = "\n".join(str(n) for n in range(1, 3001))
    card = _card(qtbot, "shell", "seq 1 3000")
    card.finish("ok", result=f"$ seq 1 3000\nexit status: 0\n--- stdout ---\n{body}", elapsed_ms=40)
    shown = _opened_text(card)
    assert "$ seq 1 3000\nexit status: 0\n--- stdout ---\n1\n2\n" in shown
    assert shown.rstrip().endswith("2999\n3000")
    assert "more characters" in shown and "\n1500\n" not in shown
    assert shown.count("\n") < 130


def test_a_programs_output_is_shown_in_the_code_type(qtbot) -> None:
    card = ToolCard("c1", "shell", "ls -l")
    qtbot.add_widget(card)
    card.finish("ok", source="shell", result="$ ls -l\nexit status: 0\n--- stdout ---\na   1\nbb  22\n")
    assert "<code style='white-space:pre-wrap'>$ ls -l" in card._details_html()
    calc = ToolCard("c2", "calculate", "2+2")
    qtbot.add_widget(calc)
    calc.finish("ok", source="calculator", result="2+2 = 4")
    assert "<code style='white-space:pre-wrap'>2+2 = 4" not in calc._details_html()


def test_a_running_card_says_running_with_its_seconds_until_it_ends(qtbot):
    # A running card showed only its spinner: nothing said the tool was at work, nor for how long
    from tinyrag_desktop.ui.toolcard_header import running_words

    card = _card(qtbot, "shell", "sleep 5", "command")
    assert card.meta == "running" and "running" in card.accessibleName()
    qtbot.waitUntil(lambda: card.meta == "running · 1 s", timeout=3000)
    # its accessible name stays: a screen reader said a focused card's name again at each of its seconds
    assert card.accessibleName() == "Tool: Shell command, running"
    card.finish("ok", result="done", elapsed_ms=1300)
    assert card.meta == "1.3 s" and not card._clock.isActive()  # no timer left ticking for a finished card
    assert (running_words(0.4), running_words(59.9), running_words(125)) == (
        "running", "running · 59 s", "running · 2 min 05 s")


def test_a_card_waiting_for_the_user_counts_its_seconds_from_the_answer(qtbot):
    card = _card(qtbot, "shell", "ls", "command")
    card.set_waiting(True)
    assert card.meta == "waiting for you"
    qtbot.wait(1200)  # the clock ticks: "waiting for you" stays
    assert card.meta == "waiting for you"
    card.set_waiting(False)
    assert card.meta == "running"


def test_a_run_cut_at_its_output_limit_says_output_cut_beside_its_tick(qtbot):
    # It was a plain green ✓ with its time, as a run that printed all it had to; only the note under it told.
    from tinyrag_desktop.tool_copy import _status
    from tinyrag_desktop.chats import StoredTool

    go = _card(qtbot, "nanogo", "for {}", "source")
    go.finish("ok", source="nanoGo", result=f"line\n\n{OUTPUT_CUT}", elapsed_ms=900)
    shell = _card(qtbot, "shell", "seq 1 700000")
    shell.finish("ok", result="$ seq 1 700000\nthe command printed more than 2 MB and was stopped\n--- stdout "
                              "---\n1", elapsed_ms=300)
    for card in (go, shell):
        assert (card.status, card.badge) == ("done", "done") and card.meta in ("output cut · 0.9 s", "output cut · 0.3 s")
        assert card.accessibleName().endswith("done, output cut")
    whole = _card(qtbot, "nanogo", "fmt.Println(1)", "source")
    whole.finish("ok", source="nanoGo", result="1", elapsed_ms=900)
    assert whole.meta == "0.9 s" and whole.accessibleName().endswith("done")
    stored = StoredTool("c1", "nanogo", "for {}", "ok", "source", "nanoGo", result=f"line\n\n{OUTPUT_CUT}")
    assert _status(stored) == ("✓", "output cut")  # a copy or an export says it as the card does
