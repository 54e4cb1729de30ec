"""The window's event loop lets go of a cancelled timed callback at once: qasync kept its Qt timer, and the
task and closures it held, until its time came, one for every network read of a streamed answer. And a
callback Qt runs outside the loop's run finds the loop running."""

from __future__ import annotations

import asyncio

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QMessageBox

from tests.sse_server import Stream
from tests.ui.conftest import ask_and_wait, tokens, wait_signal, wait_until


def _held(loop) -> list[asyncio.Handle]:
    return list(loop._timer._handles.values())


def test_a_cancelled_callback_lets_go_of_its_timer_and_never_runs(qloop):
    ran = []
    later = qloop.call_later(30, ran.append, "later")
    soon = qloop.call_soon(ran.append, "soon")
    assert len(_held(qloop)) == 2
    later.cancel()
    later.cancel()  # twice is harmless
    assert _held(qloop) == [soon]
    qloop.run(asyncio.sleep(0.05))
    assert ran == ["soon"] and _held(qloop) == []


def test_callbacks_run_in_order_and_at_their_time(qloop):
    ran = []
    start = qloop.time()
    qloop.call_later(0.1, lambda: ran.append(("late", qloop.time() - start)))
    qloop.call_at(start + 0.05, lambda: ran.append(("at", qloop.time() - start)))
    for n in range(3):
        qloop.call_soon(ran.append, n)
    qloop.run(asyncio.sleep(0.2))
    assert ran[:3] == [0, 1, 2]
    assert [name for name, _ in ran[3:]] == ["at", "late"]
    assert ran[3][1] >= 0.04 and ran[4][1] >= 0.09


def test_streamed_answers_leave_no_cancelled_timers_behind(make_window, server, qloop):
    text = "An answer long enough to come in many small network pieces. " * 15
    for _ in range(3):
        server.queue(Stream(tokens(text, 4)))
    win = make_window(server.base_url)
    for n in range(3):
        assert qloop.run(ask_and_wait(win, f"Question {n}")) == "done"
    held = _held(qloop)
    assert not [h for h in held if h.cancelled()]
    assert len(held) < 20, f"{len(held)} timed callbacks still waiting after three answers"


def test_a_task_stepped_as_the_run_ends_can_still_start_a_task(qloop):
    # qasync's run_until_complete has Qt process its events once more after the loop has stopped: a step
    # that came due then ran with no running loop, and an answer starting its stream's task there failed
    # ("no running event loop") in a full test run.
    async def answer() -> str:
        await asyncio.create_task(asyncio.sleep(0))
        return "streamed"

    started: list[asyncio.Task] = []
    done = qloop.create_future()
    # called before the run's own stop: the task's first step comes due after the loop is told to stop
    done.add_done_callback(lambda _: started.append(qloop.create_task(answer())))
    qloop.call_soon(done.set_result, None)
    qloop.run_until_complete(done)
    assert qloop.run(started[0]) == "streamed"


def test_tasks_go_on_in_a_modal_box_opened_outside_the_run(qloop):
    # As the start-up error box is, or a test's dialog between two runs: its own Qt loop runs the tasks.
    box = QMessageBox(QMessageBox.Icon.Information, "tinyRAG Desktop", "Working")

    async def work() -> None:
        await asyncio.sleep(0.01)
        box.done(7)

    task = qloop.create_task(work())
    QTimer.singleShot(10_000, box.reject)  # only if the task failed: the box must not wait for ever
    assert box.exec() == 7
    qloop.run(task)


def test_an_answer_streams_on_while_a_modal_box_is_open(make_window, server, qloop):
    # In the app the loop runs for ever and a box's own Qt loop runs inside it: the answer's steps run there.
    server.queue(Stream(tokens("Words that keep on coming. " * 20, 4), delay=0.002))
    win = make_window(server.base_url)
    box = QMessageBox(QMessageBox.Icon.Warning, "Settings", "The settings could not be saved.", parent=win)
    seen: list[str] = []

    async def ask_with_a_box_open() -> tuple[str, bool]:
        finished = asyncio.ensure_future(wait_signal(win.answerFinished, timeout=15.0))
        win.composer.setPlainText("Talk")
        assert win.send()
        await wait_until(lambda: bool(win.view.answers()))
        QTimer.singleShot(0, lambda: seen.append(box.exec()))  # a slot opens it, as a menu action does
        await wait_until(box.isVisible)
        outcome = await finished
        still_open = box.isVisible()
        box.done(1)
        return outcome, still_open

    assert qloop.run(ask_with_a_box_open()) == ("done", True)
    assert seen == [1]
