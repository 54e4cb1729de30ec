"""The window's event loop lets go of a cancelled timed callback at once: qasync kept its Qt timer, and the
task and closures it held, until its time came, one for every network read of a streamed answer."""

from __future__ import annotations

import asyncio

from tests.sse_server import Stream
from tests.ui.conftest import ask_and_wait, tokens


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
