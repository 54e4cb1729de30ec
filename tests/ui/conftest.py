"""Fixtures for the window tests: offscreen Qt, a qasync loop per test, the loopback scripted server."""

from __future__ import annotations

import asyncio
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402


@pytest.fixture
def qloop(qapp):
    """A qasync loop on the test's QApplication; ``qloop.run(coro)`` runs the Qt loop until coro is done."""
    from tinyrag_desktop.ui.collector import gui_thread_gc
    from tinyrag_desktop.ui.qtloop import TidyEventLoop, asyncgen_hooks

    loop = TidyEventLoop(qapp)
    asyncio.set_event_loop(loop)

    def run(coro, timeout: float = 20.0):
        return loop.run_until_complete(asyncio.wait_for(coro, timeout))

    loop.run = run  # type: ignore[attr-defined]
    with gui_thread_gc(qapp):  # as the app runs: cycles are collected in this thread only
        with asyncgen_hooks(loop):  # and unfinished async generators closed by tasks on the loop
            yield loop
            loop.run_until_complete(asyncio.sleep(0))
        loop.close()
        asyncio.set_event_loop(None)


def wait_signal(signal, timeout: float = 10.0):
    """Await one emission of a Qt signal; returns its arguments (one value, or a tuple).

    Connected at the call, not at the first await: ``found = wait_signal(s); start(); qloop.run(found)``
    missed an emission that a worker thread's queued signal delivered before the coroutine first ran (the
    knowledge panel's search, about one run in two).
    """
    caught: list = []
    woken: list[asyncio.Future] = []

    def fire(*args):
        if caught:
            return
        caught.append(args[0] if len(args) == 1 else args)
        for fut in woken:
            if not fut.done():
                fut.set_result(None)

    signal.connect(fire)

    async def emitted():
        try:
            if not caught:
                woken.append(asyncio.get_running_loop().create_future())
                await asyncio.wait_for(woken[-1], timeout)
            return caught[0]
        finally:
            signal.disconnect(fire)

    return emitted()


async def wait_until(predicate, timeout: float = 10.0, step: float = 0.01):
    """Poll ``predicate`` while the Qt and asyncio loops keep running (for state with no signal)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not predicate():
        if loop.time() > end:
            raise AssertionError(f"condition not met within {timeout} s")
        await asyncio.sleep(step)


def tokens(text: str, size: int = 4) -> list[str]:
    """``text`` in pieces of ``size`` characters, as a model streams it."""
    return [text[i:i + size] for i in range(0, len(text), size)]


@pytest.fixture
def server():
    from tests.sse_server import ScriptedLLMServer

    with ScriptedLLMServer(models=("scripted", "other-model")) as srv:
        yield srv


@pytest.fixture
def make_window(qloop, qtbot, tmp_path):
    """Build a MainWindow on the real engine; every window made is closed at the end of the test."""
    from tinyrag_desktop.settings import defaults
    from tinyrag_desktop.ui.main_window import MainWindow

    made = []

    def make(base_url: str, data_dir=None, probe=None, reopen_last=False, warnings=None, **changes):
        settings = defaults().replace(**{"base_url": base_url, "chat_model": "scripted", "network_tools": False,
                                         **changes})
        win = MainWindow(data_dir or tmp_path / "data", settings, probe=probe, reopen_last=reopen_last,
                         warnings=tuple(warnings or ()))
        win.resize(1000, 700)
        win.show()
        made.append(win)
        # The server check the window starts is let end first. A connection made while the test stops the
        # loop between two steps leaves anyio a cancellation to deliver (the connect attempts it raced),
        # which Qt's event processing then runs outside the loop: "no running event loop", and an open
        # socket (the app's loop never stops).
        qloop.run(wait_until(lambda: win.status._check is not None and win.status._check.done(), timeout=15.0))
        return win

    yield make
    for win in made:
        qloop.run(win.aclose())
        win.close()
        win.deleteLater()
    qloop.run(asyncio.sleep(0.01))
    if any(win.settings.theme != "light" for win in made):  # the palette is the application's: a dark
        from PySide6.QtWidgets import QApplication  # window's would be the next test's (a dialog drawn dark)

        from tinyrag_desktop.ui.theme import apply_theme

        apply_theme(QApplication.instance(), "light")


async def ask_and_wait(win, question: str, timeout: float = 15.0) -> str:
    """Send ``question`` through the composer and wait for the answer's outcome."""
    fut = asyncio.get_running_loop().create_future()

    def fire(outcome):
        if not fut.done():
            fut.set_result(outcome)

    win.answerFinished.connect(fire)
    try:
        win.composer.setPlainText(question)
        assert win.send()
        return await asyncio.wait_for(fut, timeout)
    finally:
        win.answerFinished.disconnect(fire)


async def stop_once_sent(win, server, question: str) -> str:
    """Send ``question``, stop the answer once its request has reached ``server`` (before the model's first
    words, when the server holds its reply back), and return the outcome the window reports."""
    outcomes = []
    win.answerFinished.connect(outcomes.append)
    win.ask(question)
    await wait_until(lambda: bool(server.requests))  # the request is on its way
    win.stop()
    await wait_until(lambda: bool(outcomes))
    return outcomes[0]


async def ask_then_stop(win, question: str, ready, stop=None, timeout: float = 15.0) -> str:
    """Send ``question``, stop the answer once ``ready(answer)`` holds (with ``stop``, else win.stop),
    and return the outcome the window reports."""
    finished = wait_signal(win.answerFinished, timeout=timeout)
    win.composer.setPlainText(question)
    win.send()
    await wait_until(lambda: bool(win.view.answers()) and ready(win.view.answers()[-1]))
    (stop or win.stop)()
    return await finished


def block_directions(document) -> dict[str, object]:
    """Each paragraph of a QTextDocument by its text: the direction Qt lays it out in."""
    directions = {}
    block = document.begin()
    while block.isValid():
        directions[block.text()] = block.textDirection()
        block = block.next()
    return directions


async def drag_dock_edge(win, dock, dx: int) -> None:
    """Drag the edge of ``dock`` (docked on the right) by ``dx`` px with the mouse, as a user does: the
    window's separator moves on a timer, so the loop runs between the moves."""
    from PySide6.QtCore import QEvent, QPointF, Qt
    from PySide6.QtGui import QMouseEvent
    from PySide6.QtWidgets import QApplication

    left, none = Qt.MouseButton.LeftButton, Qt.MouseButton.NoButton
    at = QPointF(dock.x() - 3, dock.y() + dock.height() / 2)  # on the separator, left of the panel

    def send(kind, pos, button, buttons):
        QApplication.sendEvent(win, QMouseEvent(kind, pos, win.mapToGlobal(pos), button, buttons,
                                                Qt.KeyboardModifier.NoModifier))

    send(QEvent.Type.MouseButtonPress, at, left, left)
    for step in range(1, 4):
        send(QEvent.Type.MouseMove, at + QPointF(dx * step / 3, 0), none, left)
        await asyncio.sleep(0.01)
    send(QEvent.Type.MouseButtonRelease, at + QPointF(dx, 0), left, none)
    await asyncio.sleep(0.01)


def held_answer(win, server, question: str = "Tell me a story"):
    """Send ``question`` with its answer held open after its first words (a Gate); returns the Gate to open
    and the awaitable of the answer's end."""
    from tests.sse_server import Gate, Stream

    gate = Gate()
    server.queue(Stream(tokens("Hello there, this is a long answer."), gate=gate))
    finished = wait_signal(win.answerFinished)
    win.composer.setPlainText(question)
    assert win.send()
    return gate, finished


def keep_picture(widget, name: str) -> None:
    """Grab ``widget`` as a person would see it, and keep the picture under the folder TEST_PICTURES names
    (unset, as in CI: nothing is written). The grab itself stays, so a test draws the same with or without it."""
    picture = widget.grab()
    folder = os.environ.get("TEST_PICTURES")
    if folder:
        os.makedirs(folder, exist_ok=True)
        picture.save(os.path.join(folder, name))
