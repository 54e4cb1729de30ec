"""A Search tab result's file path is on one line, cut in the middle: in a narrow panel a long path wrapped to
four lines under each result's heading, and three results filled the tab."""

from __future__ import annotations

from PySide6.QtWidgets import QStyleOptionViewItem

from tests.kb.test_panel import _import

_NAME = "meeting-2026-07-minutes-of-the-planning-committee-and-subcommittees.md"


def test_a_long_path_takes_one_line_of_a_result(qtbot, panel, tmp_path):
    folder = tmp_path / "Quarterly planning documents of the northern distribution centre"
    folder.mkdir()
    (folder / _NAME).write_text("# Minutes\n\nThe committee spoke of warehouse staffing.\n", encoding="utf-8")
    _import(qtbot, panel, [str(folder)])
    panel.resize(280, 600)
    panel.show()
    qtbot.waitExposed(panel)
    panel.tabs.setCurrentIndex(1)
    with qtbot.waitSignal(panel.searchFinished, timeout=30_000):
        panel.run_search("warehouse staffing")
    results = panel.results
    item = results.item(0)
    assert item.text().split("\n")[1] == str(folder / _NAME)  # whole for screen readers and copying
    option = QStyleOptionViewItem()
    results.initViewItemOption(option)
    option.rect = results.visualItemRect(item)
    document = results.itemDelegate()._document(option, results.indexFromItem(item))
    document.size()  # laid out
    location = document.firstBlock().next()
    assert location.layout().lineCount() == 1
    shown = location.text()
    assert "…" in shown and shown.startswith(str(tmp_path)[:8]) and shown.endswith("subcommittees.md"), shown
