"""The Search tab in sight while ``kb add`` or ``kb remove`` runs in a terminal: its results searched again only
when a source went, in their place, and said only to a reader in the panel."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLineEdit, QVBoxLayout, QWidget

from tinyrag_desktop.settings import defaults

from .test_kb_side_by_side import _found, _imported, _kb, _locations, _notes


@pytest.fixture
def message_box(qtbot, panel):
    """A message box in a window beside the panel (the panel in that window till the end)."""
    window = QWidget()
    box = QLineEdit()
    layout = QVBoxLayout(window)
    layout.addWidget(panel, 1)
    layout.addWidget(box)
    window.resize(360, 420)
    window.show()
    qtbot.waitExposed(window)
    yield box
    panel.setParent(None)  # shut down by its own fixture
    window.close()


def _searched(qtbot, panel, message_box, tmp_path, said: list[str], monkeypatch) -> None:
    """The Search tab showing the passages of 12 notes about herons (8 listed), scrolled to the middle of
    them, the focus in ``message_box``; ``said``: what it announces from then on."""
    panel.settings_provider = lambda: defaults().replace(k=8)
    _imported(qtbot, panel, _notes(tmp_path / "docs", [f"note{n}" for n in range(12)]))
    panel.tabs.setCurrentIndex(1)
    with qtbot.waitSignal(panel.searchFinished, timeout=20_000):
        panel.run_search("heron fishes")
    bar = panel.results.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.maximum() > 2)
    bar.setValue(bar.maximum() // 2)
    with qtbot.waitActive(message_box.window()):
        message_box.window().activateWindow()
    message_box.setFocus(Qt.FocusReason.OtherFocusReason)
    qtbot.waitUntil(message_box.hasFocus)
    monkeypatch.setattr("tinyrag_desktop.ui.kb_search_tab.announce", lambda widget, text: said.append(text))


def _shown(panel) -> list[str]:
    return [panel.results.item(n).text() for n in range(panel.results.count())]


def test_sources_kb_add_stores_leave_the_results_as_they_are(qtbot, panel, message_box, tmp_path, monkeypatch):
    # Each read of the list while kb add ran (every 10 s) emptied the results to say "Searching…" (the reader
    # lost their place), asked the embedding server again and said "8 passages found" over the message box.
    said: list[str] = []
    _searched(qtbot, panel, message_box, tmp_path, said, monkeypatch)
    results, scrolled = _shown(panel), panel.results.verticalScrollBar().value()
    finished: list[int] = []
    panel.searchFinished.connect(finished.append)
    _kb(panel.data_dir, "add", str(_notes(tmp_path / "more", ["extra"])[0]))
    qtbot.waitUntil(lambda: len(_locations(panel)) == 13, timeout=20_000)
    QApplication.processEvents()
    assert _shown(panel) == results and panel.results.verticalScrollBar().value() == scrolled
    assert finished == [] and said == []


def test_a_listed_source_kb_remove_takes_is_searched_away_in_place_unsaid(qtbot, panel, message_box, tmp_path,
                                                                           monkeypatch):
    said: list[str] = []
    _searched(qtbot, panel, message_box, tmp_path, said, monkeypatch)
    scrolled = panel.results.verticalScrollBar().value()
    gone_location = _found(panel)[0]
    gone = panel.sources_model.source(_locations(panel).index(gone_location)).id
    with qtbot.waitSignal(panel.searchFinished, timeout=20_000):
        _kb(panel.data_dir, "remove", str(gone))
    assert gone_location not in _found(panel) and len(_found(panel)) == 8
    assert panel.results.verticalScrollBar().value() == scrolled and scrolled > 0
    assert said == []  # the focus is in the message box
    # with the keyboard in the panel (its question box), the new count is said
    panel.query_edit.setFocus(Qt.FocusReason.OtherFocusReason)
    qtbot.waitUntil(panel.query_edit.hasFocus)
    gone = panel.sources_model.source(_locations(panel).index(_found(panel)[0])).id
    with qtbot.waitSignal(panel.searchFinished, timeout=20_000):
        _kb(panel.data_dir, "remove", str(gone))
    assert said == ["8 passages found"]
