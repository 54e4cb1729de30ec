"""A search result whose file is gone says so on the Search tab, where it was opened from."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QLabel

from tests.kb.test_panel import _import, _searched_on_screen


def _shown_words(tab) -> list[str]:
    return [label.text() for label in tab.findChildren(QLabel) if label.isVisible() and label.text()]


def test_a_result_whose_file_is_gone_says_so_on_the_search_tab(qtbot, panel, tmp_path):
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "a.md").write_text("# Owls\nOwls hunt at night.\n", encoding="utf-8")
    (folder / "b.md").write_text("# Ferrets\nCubic droppings are a wombat's mark.\n", encoding="utf-8")
    _import(qtbot, panel, [str(folder)])
    assert _searched_on_screen(qtbot, panel, "cubic droppings", (480, 600)) >= 1
    (folder / "b.md").unlink()
    item = next(panel.results.item(i) for i in range(panel.results.count())
                if str(panel.results.item(i).data(Qt.ItemDataRole.UserRole) or "").endswith("b.md"))
    panel.results.setFocus()
    panel.results.setCurrentItem(item)
    sources_before = panel.status_label.text()
    QTest.keyClick(panel.results, Qt.Key.Key_Return)
    said = [text for text in _shown_words(panel.tabs.currentWidget()) if "b.md" in text]
    assert said and "is not there any more" in said[0]
    assert panel.status_label.text() == sources_before  # not left on the hidden tab for later
    # the next search puts it away
    with qtbot.waitSignal(panel.searchFinished):
        panel.run_search("owls")
    assert not [text for text in _shown_words(panel.tabs.currentWidget()) if "b.md" in text]


def test_a_source_whose_file_is_gone_still_says_so_on_the_sources_tab(qtbot, panel, tmp_path):
    doc = tmp_path / "c.md"
    doc.write_text("# Moles\nMoles dig.\n", encoding="utf-8")
    _import(qtbot, panel, [str(doc)])
    panel.show()
    qtbot.waitExposed(panel)
    doc.unlink()
    view = panel.sources_view
    view.setFocus()
    view.setCurrentIndex(view.model().index(0, 0))
    QTest.keyClick(view, Qt.Key.Key_Return)
    assert "“c.md” is not there any more" in panel.status_label.text()
    assert panel.status_label.isVisible()
