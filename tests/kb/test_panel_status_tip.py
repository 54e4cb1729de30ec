"""The status line's tooltip belongs to what the line says: after an import with failures (its tooltip lists
them with their whole paths), "1 source removed." and the next import's progress kept that tooltip, so
hovering them showed failures of an import long done."""

from __future__ import annotations

from PySide6.QtCore import Qt

from tests.kb.test_panel import _import, _select


def test_a_delete_after_a_failed_import_does_not_keep_its_tooltip(qtbot, panel, tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "tides.md").write_text("# Tides\n\nHigh tide at the harbour is at noon.\n", encoding="utf-8")
    report = _import(qtbot, panel, [str(docs / "tides.md"), str(docs / "missing.md")])
    assert len(report.failed) == 1
    assert "missing.md: no such file or folder" in panel.status_label.toolTip()
    _select(panel.sources_view, 0)
    with qtbot.waitSignal(panel.deleteFinished, timeout=30_000):
        panel.delete_selected(confirm=False)
    assert panel.status_label.text() == "1 source removed."
    assert panel.status_label.toolTip() == ""


def test_show_all_keeps_the_summarys_tooltip(qtbot, panel, tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    names = [f"gone{n}.md" for n in range(12)]  # more than the eight reasons shown
    _import(qtbot, panel, [str(docs / name) for name in names])
    tip = panel.status_label.toolTip()
    assert "gone11.md" in tip
    qtbot.mouseClick(panel.summary.more_button, Qt.MouseButton.LeftButton)
    assert "gone11.md" in panel.status_label.text()
    assert panel.status_label.toolTip() == tip
