"""The Search tab's results while the sources list cannot be read for a moment (the knowledge base locked by
another program, its index being rebuilt): a list that could not be read is no list in which every source is
gone, and results that say the search failed are searched again once the knowledge base changes."""

from __future__ import annotations

from PySide6.QtCore import Qt

from tinyrag_desktop.kb import Error
from tinyrag_desktop.settings import defaults
from tinyrag_desktop.ui import kb_panel, kb_search_tab

from .test_kb_side_by_side import _imported, _kb, _notes

LOCKED = "The knowledge base is locked by another program."


def _shown(panel) -> list[str]:
    return [panel.results.item(row).text() for row in range(panel.results.count())]


def _passages(panel) -> int:
    return sum(1 for row in range(panel.results.count()) if panel.results.item(row).data(Qt.ItemDataRole.UserRole))


def _searched(qtbot, panel, tmp_path) -> list[str]:
    panel.settings_provider = lambda: defaults().replace(k=8)
    _imported(qtbot, panel, _notes(tmp_path / "docs", [f"note{n}" for n in range(4)]))
    panel.show()
    qtbot.waitExposed(panel)
    panel.tabs.setCurrentIndex(1)
    with qtbot.waitSignal(panel.searchFinished, timeout=20_000):
        panel.run_search("heron fishes")
    assert _passages(panel) == 4
    return _shown(panel)


def test_a_list_that_cannot_be_read_for_a_moment_leaves_the_results_as_they_were(qtbot, panel, tmp_path,
                                                                                  monkeypatch):
    # Every source looked gone: the tab searched again, and showed that search's failure.
    good = _searched(qtbot, panel, tmp_path)
    monkeypatch.setattr(kb_panel, "read_list", lambda data_dir, model: LOCKED)
    _kb(panel.data_dir, "add", str(_notes(tmp_path / "more", ["extra"])[0]))
    searches = panel._searches
    assert panel.catch_up()
    assert panel._searches == searches and _shown(panel) == good


def test_results_that_say_the_search_failed_are_searched_again_when_the_knowledge_base_changes(qtbot, panel,
                                                                                               tmp_path,
                                                                                               monkeypatch):
    # Once the list read again, no source was gone: the failure stayed shown while the tab was in sight.
    _searched(qtbot, panel, tmp_path)
    real_search = kb_search_tab.search

    def locked(*args, **kwargs):
        raise Error(LOCKED)

    monkeypatch.setattr(kb_search_tab, "search", locked)
    with qtbot.waitSignal(panel.searchFinished, timeout=20_000):
        panel.run_search("heron fishes")
    assert LOCKED in _shown(panel)[0] and _passages(panel) == 0
    monkeypatch.setattr(kb_search_tab, "search", real_search)
    _kb(panel.data_dir, "add", str(_notes(tmp_path / "more", ["extra"])[0]))
    with qtbot.waitSignal(panel.searchFinished, timeout=20_000):
        searches = panel._searches
        assert panel.catch_up()
        assert panel._searches > searches
    assert _passages(panel) == 5 and not any(LOCKED in line for line in _shown(panel))
