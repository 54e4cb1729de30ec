"""An import summary's reasons past the first eight are reachable from the keyboard: they were only in a
tooltip, which only the mouse opens."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from tests.kb.test_panel import _import
from tinyrag_desktop.kb.import_report import Failure, ImportReport
from tinyrag_desktop.ui.kb_summary import REASONS_SHOWN


def _folder(tmp_path, pictures: int):
    folder = tmp_path / "mixed"
    folder.mkdir()
    for n in range(pictures):
        (folder / f"picture{n:02d}.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    (folder / "note.txt").write_text("Herons stand still in shallow water.", encoding="utf-8")
    return folder


def _tab_to(qtbot, panel, target, most: int = 30) -> bool:
    """Tab from the panel's Add button until ``target`` has the focus (or ``most`` presses)."""
    panel.add_button.setFocus()
    for _ in range(most):
        if QApplication.focusWidget() is target:
            return True
        QTest.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
    return QApplication.focusWidget() is target


def test_show_all_is_a_tab_stop_and_lists_every_reason(qtbot, panel, tmp_path):
    folder = _folder(tmp_path, 12)
    panel.resize(420, 700)
    panel.show()
    qtbot.waitExposed(panel)
    with qtbot.waitActive(panel):
        panel.activateWindow()
    _import(qtbot, panel, [str(folder)])
    shown = panel.status_label.text()
    assert sum(f"picture{n:02d}.png" in shown for n in range(12)) == REASONS_SHOWN
    more = getattr(panel.summary, "more_button", None)  # the old panel had no way there but the tooltip
    assert more is not None and more.isVisible() and _tab_to(qtbot, panel, more)
    QTest.keyClick(more, Qt.Key.Key_Space)
    every = panel.status_label.text()
    assert all(f"picture{n:02d}.png: .png is not a supported type" in every for n in range(12))
    assert every.split("\n")[0] == shown.split("\n")[0]  # the same summary, whole
    assert not more.isVisible()
    # the focus stays with the summary (its scrolling box, or its ×), not out of the panel
    assert panel.isAncestorOf(QApplication.focusWidget())


def test_no_show_all_when_every_reason_is_shown_and_none_after_the_summary_is_replaced(qtbot, panel, tmp_path,
                                                                                      sample_dir):
    panel.show()
    qtbot.waitExposed(panel)
    _import(qtbot, panel, [str(_folder(tmp_path, 3))])
    assert not panel.summary.more_button.isVisible()
    folder = tmp_path / "more"
    folder.mkdir()
    for n in range(10):
        (folder / f"scan{n}.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    _import(qtbot, panel, [str(folder)])
    assert panel.summary.more_button.isVisible()
    panel.summary.dismiss()  # put away with ×: nothing to show all of
    assert not panel.summary.more_button.isVisible()


def test_show_all_lists_at_most_so_many_reasons():
    from tinyrag_desktop.ui.kb_summary import ALL_MOST, whole_summary

    report = ImportReport()
    report.skipped = [Failure(f"/docs/picture{n}.png", ".png is not a supported type") for n in range(ALL_MOST + 7)]
    lines = whole_summary(report).split("\n")
    assert len(lines) == 1 + ALL_MOST + 1 and lines[-1] == "… and 7 more"
    assert whole_summary(ImportReport(skipped=report.skipped[:REASONS_SHOWN])) == ""
