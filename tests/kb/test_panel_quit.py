"""Quitting during an import (Quit, the window closed, SIGTERM) leaves a note for the next start, as a kill does."""

from __future__ import annotations

import os

import pytest
from PySide6.QtCore import QCoreApplication

from tests.loopback import silent_server
from tinyrag_desktop.kb import ImportItem
from tinyrag_desktop.kb.unfinished import SUFFIX, cut_short, stopped_by_closing


@pytest.fixture
def silent():
    with silent_server() as served:
        yield served


def _notes(tmp_path, count):
    folder = tmp_path / "notes"
    folder.mkdir()
    for n in range(count):
        (folder / f"note{n}.md").write_text(f"# Note {n}\n\nHerons wade in shallow water, note {n}.", encoding="utf-8")
    return folder


def test_quitting_during_an_import_says_at_the_next_start_how_far_it_got(qtbot, panel, data_dir, tmp_path, silent):
    url, handler = silent
    folder = _notes(tmp_path, 2)
    later = tmp_path / "later.md"
    later.write_text("# Later\n\nAsked for while the first import ran.", encoding="utf-8")
    asked = [str(folder / "note0.md"), str(folder / "note1.md"), ImportItem("url", url + "/late.html"),
             str(tmp_path / "never.md")]
    with qtbot.waitSignal(panel._relay.progress, timeout=20_000,
                          check_params_cb=lambda progress: progress.current.endswith("/late.html")):
        assert panel.import_items(asked)
    qtbot.waitUntil(handler.asked.is_set, timeout=10_000)  # the two notes are stored, the page is on its way
    panel.import_items([str(later)])  # waits for the first: never started
    QCoreApplication.instance().aboutToQuit.emit()  # as the app's loop ends after Quit or SIGTERM
    # It was cancelled in silence: its mark went with it, and the next start said nothing.
    assert list(data_dir.glob(f"*{SUFFIX}"))
    [said] = cut_short(data_dir)
    assert said.startswith("An import into the knowledge base was stopped when the app closed, started on ")
    assert ": 2 of 4 sources were stored, from " in said and "late.html" in said and "about" not in said
    assert f"{later}, asked for after it, was not started" in said
    assert "add the same files again to finish" in said
    assert cut_short(data_dir) == []  # said once


def test_an_import_cancelled_before_quitting_or_finished_leaves_no_note(qtbot, panel, data_dir, tmp_path, silent):
    url, handler = silent
    with qtbot.waitSignal(panel.importFinished, timeout=20_000):
        panel.import_items([str(_notes(tmp_path, 2))])
    QCoreApplication.instance().aboutToQuit.emit()
    assert cut_short(data_dir) == []
    with qtbot.waitSignal(panel.importFinished, timeout=20_000):
        panel.import_items([ImportItem("url", url + "/late.html"), str(tmp_path / "notes")])
        qtbot.waitUntil(handler.asked.is_set, timeout=10_000)
        panel.cancel_import()  # the user stopped it: they know
    QCoreApplication.instance().aboutToQuit.emit()
    assert cut_short(data_dir) == []


@pytest.mark.parametrize(("done", "total", "closed", "words"), [
    (0, 6, False, "none of the 6 sources had been stored"),  # it said "about 0 of 6 sources were stored"
    (0, 1, True, "its source had not been stored"),
    (1, 6, False, "about 1 of 6 sources was stored"),
    (40, 300, False, "about 40 of 300 sources were stored"),
    (3, 9, True, "3 of 9 sources were stored"),
    (0, 0, True, "no source had been stored yet"),
])
def test_the_note_counts_in_words(data_dir, done, total, closed, words):
    mark = {"pid": 2**22 + 7, "started": 0, "asked": ["/notes"], "total": total, "done": done}
    if closed:
        mark["closed"] = True
    import json

    (data_dir / f"import-{mark['pid']}{SUFFIX}").write_text(json.dumps(mark))
    [said] = cut_short(data_dir)
    assert f": {words}, from /notes." in said
    assert ("stopped when the app closed" in said) == closed


def test_the_note_of_a_closed_import_hides_a_password(data_dir):
    stopped_by_closing(data_dir / "knowledge.db", ["https://ann:s3cret@example.org/p", "/notes"], 2, 1, 0.0,
                       ["https://bob:pw@example.org/q"])
    text = next(data_dir.glob(f"*{SUFFIX}")).read_text()
    assert "s3cret" not in text and ":pw@" not in text and "ann:***@example.org" in text
    assert str(os.getpid()) in text
