"""The PDF reader process (pdf_apart.py) ending, or being waited for: a helper that was ready and then ended
on a PDF refuses that PDF, and never has it read in this process with no memory cap; a caller that waits
for another's PDF stops waiting on its Cancel. The helpers here are the real one with pdf.py's reading
changed (to end, crash or never finish), run as ``python -c``."""

from __future__ import annotations

import signal
import sys
import threading
from pathlib import Path

import pytest

from tinyrag_desktop.kb import pdf_apart
from tinyrag_desktop.kb.errors import Cancelled, ReadError
from tinyrag_desktop.kb.readers import read_bytes

from .conftest import make_pdf

pytestmark = pytest.mark.skipif(not Path("/proc/self/statm").exists(), reason="the memory cap is Linux's")
KEEPER = make_pdf(["The lighthouse keeper lights the lamp at dusk."])


def _helper(monkeypatch: pytest.MonkeyPatch, reading: str) -> None:
    """Helpers from now on run ``reading``, a function ``read_pdf(data, name, cancelled=None)`` in Python
    that may call ``read`` (pdf.read_pdf as it is); their pdf_pages never ends (a long read of url_fetch's)."""
    script = ("import os, signal, sys, threading\n"
              "from tinyrag_desktop.kb import pdf, pdf_apart\n"
              "read = pdf.read_pdf\n"
              f"{reading}\n"
              "pdf.read_pdf = read_pdf\n"
              "pdf.pdf_pages = lambda data, most: threading.Event().wait()\n"
              "sys.exit(pdf_apart.main())\n")
    monkeypatch.setattr(pdf_apart, "_command", lambda: [sys.executable, "-c", script])


@pytest.fixture(autouse=True)
def fresh_helpers(monkeypatch: pytest.MonkeyPatch):
    pdf_apart._stop()
    monkeypatch.setattr(pdf_apart, "_CANNOT", [])
    monkeypatch.setattr(pdf_apart, "_WORKED", [], raising=False)
    yield
    pdf_apart._stop()


def test_a_helper_that_exits_on_a_pdf_refuses_it_and_the_next_pdf_gets_a_new_helper(
        monkeypatch: pytest.MonkeyPatch) -> None:
    _helper(monkeypatch, "def read_pdf(data, name, cancelled=None):\n"
                         "    return os._exit(3) if name == 'exits.pdf' else read(data, name, cancelled)")
    with pytest.raises(ReadError) as info:
        read_bytes(KEEPER, "pdf", "exits.pdf")
    assert str(info.value) == "the PDF reader stopped while reading the PDF (exit status 3), and it was not read"
    assert pdf_apart._CANNOT == []  # not read here, now or later
    first = pdf_apart._HELPER
    doc = read_bytes(KEEPER, "pdf", "keeper.pdf")
    assert "lights the lamp at dusk" in doc.blocks[1].text
    assert pdf_apart._HELPER is not None and pdf_apart._HELPER is not first and pdf_apart._HELPER.alive()
    assert pdf_apart._CANNOT == []


def test_after_a_helper_was_ready_one_that_cannot_start_refuses_the_pdf(monkeypatch: pytest.MonkeyPatch) -> None:
    assert "lights the lamp" in read_bytes(KEEPER, "pdf", "keeper.pdf").blocks[1].text
    pdf_apart._stop()
    monkeypatch.setattr(pdf_apart, "_command", lambda: [sys.executable, "-c", "import sys; sys.exit(3)"])
    with pytest.raises(ReadError, match=r"^the PDF reader could not be started \(it exited with status 3"):
        read_bytes(KEEPER, "pdf", "keeper.pdf")
    assert pdf_apart._CANNOT == []


@pytest.mark.parametrize(("name", "reason"), [
    ("SIGSEGV", pdf_apart.CRASHED), ("SIGILL", pdf_apart.CRASHED), ("SIGTRAP", pdf_apart.CRASHED),
    ("SIGABRT", pdf_apart.TOO_LARGE.format(mb=pdf_apart.MOST_MB)),  # PDFium's end when memory runs out
    ("SIGKILL", pdf_apart.TOO_LARGE.format(mb=pdf_apart.MOST_MB)),  # the system's (the OOM killer)
])
def test_a_helper_killed_by_a_signal_on_a_pdf_refuses_it(monkeypatch: pytest.MonkeyPatch, name: str,
                                                          reason: str) -> None:
    _helper(monkeypatch, "def read_pdf(data, name, cancelled=None):\n"
                         f"    os.kill(os.getpid(), signal.{name})\n"
                         "    threading.Event().wait()")
    with pytest.raises(ReadError) as info:
        read_bytes(KEEPER, "pdf", "crash.pdf")
    assert str(info.value) == reason
    assert pdf_apart._HELPER is None and pdf_apart._CANNOT == []


def _reading(call, outcomes: list[BaseException]) -> threading.Thread:
    def run() -> None:
        try:
            call()
        except BaseException as exc:  # the outcome is what the test looks at
            outcomes.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    return thread


def test_a_read_waiting_for_another_callers_pdf_stops_on_its_cancel(monkeypatch: pytest.MonkeyPatch) -> None:
    """A PDF that never ends (with no Cancel of its own) holds the one helper; an import's PDF waits for
    it, and its Cancel ends that wait."""
    _helper(monkeypatch, "read_pdf = read")
    stop = threading.Event()
    fetched: list[BaseException] = []
    imported: list[BaseException] = []
    fetching = _reading(lambda: pdf_apart.pdf_pages(KEEPER, 100), fetched)
    try:
        assert _waited(pdf_apart._LOCK.locked)
        importing = _reading(lambda: pdf_apart.read_pdf(KEEPER, "keeper.pdf", stop.is_set), imported)
        stop.set()
        importing.join(60)
        assert not importing.is_alive() and [type(e) for e in imported] == [Cancelled]
        assert fetching.is_alive()  # the other read still holds the helper: the import did not wait for it
    finally:
        pdf_apart._stop()  # the other read ends: its helper is gone
        fetching.join(60)
    assert [type(e) for e in fetched] == [ReadError]
    assert "lights the lamp" in read_bytes(KEEPER, "pdf", "keeper.pdf").blocks[1].text


def test_a_pdf_read_with_a_cancel_kills_its_helper_when_cancelled(monkeypatch: pytest.MonkeyPatch) -> None:
    """url_fetch's reading (pdf_pages) stops on its Cancel: the helper reading on is killed."""
    _helper(monkeypatch, "read_pdf = read")
    stop = threading.Event()
    fetched: list[BaseException] = []
    fetching = _reading(lambda: pdf_apart.pdf_pages(KEEPER, 100, stop.is_set), fetched)
    try:
        assert _waited(lambda: pdf_apart._LOCK.locked() and pdf_apart._HELPER is not None)
        helper = pdf_apart._HELPER
        stop.set()
        fetching.join(60)
        assert not fetching.is_alive() and [type(e) for e in fetched] == [Cancelled]
        assert helper.process.returncode == -signal.SIGKILL
    finally:
        pdf_apart._stop()
        fetching.join(60)


def _waited(condition) -> bool:
    """Whether ``condition()`` came true within a minute (the helper starts in well under a second)."""
    done = threading.Event()
    for _ in range(1200):
        if condition():
            return True
        done.wait(0.05)
    return False
