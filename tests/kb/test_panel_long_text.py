"""The knowledge panel's status line: long names keep the panel's width, odd names show, left-out links stay said."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent

from tests.kb.test_panel import _import

_LONG = "a_very_long_file_name_without_spaces_" * 5  # 185 characters, no place to break a line


def _shown(qtbot, panel, width=340):
    panel.resize(width, 520)
    panel.show()
    qtbot.waitExposed(panel)


def test_a_failed_file_with_a_long_name_does_not_widen_the_panel(qtbot, panel, tmp_path):
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / f"{_LONG}.md").write_bytes(b"")
    for n in range(12):
        (folder / f"empty_{n}.md").write_bytes(b"")
    (folder / "kept.md").write_text("# Herons\n\nHerons stand still in shallow water.\n", encoding="utf-8")
    _shown(qtbot, panel)
    _import(qtbot, panel, [str(folder)])
    # The name was one word the label could not break: the panel (and the window it is docked in) grew
    # from 340 to 1,252 pixels wide.
    assert panel.minimumSizeHint().width() <= 340
    assert panel.width() == 340
    assert panel.sizeHint().width() == panel.fontMetrics().averageCharWidth() * 64  # as wide as it docks at first
    line = panel.status_label.text().split("\n")[1]
    assert line.startswith("– a_very_long_file") and line.endswith("spaces_.md: the file is empty")
    assert "…" in line and len(line) < 90
    assert f"{folder / _LONG}.md: the file is empty" in panel.status_label.toolTip()  # the whole path


def test_a_long_link_dropped_that_cannot_be_imported_does_not_widen_the_panel(qtbot, panel):
    _shown(qtbot, panel)
    data = QMimeData()
    data.setUrls([QUrl("ftp://example.org/" + "x" * 200)])
    panel.dropEvent(QDropEvent(QPointF(10, 10), Qt.DropAction.CopyAction, data, Qt.MouseButton.LeftButton,
                               Qt.KeyboardModifier.NoModifier))
    assert panel.status_label.text().startswith("Not imported: ftp://example.org/xxx")
    assert panel.minimumSizeHint().width() <= 340


def test_a_file_name_that_is_not_utf8_shows_where_its_odd_byte_is(qtbot, panel, tmp_path):
    import os

    name = os.fsdecode(b"bad\xffname.md")
    try:
        (tmp_path / name).write_text("# Lamps\n\nOil lamps need a clean wick.\n", encoding="utf-8")
    except (OSError, UnicodeEncodeError):
        pytest.skip("this file system refuses such names")
    _import(qtbot, panel, [str(tmp_path / name)])
    # Qt dropped the byte it could not show: "✗ badname.md", a name no file has.
    assert "✗ bad\ufffdname.md: its name is not valid text (UTF-8)" in panel.status_label.text()
    assert f"{tmp_path}/bad\ufffdname.md: its name" in panel.status_label.toolTip()


def _drop(panel, urls):
    data = QMimeData()
    data.setUrls(urls)
    panel.dropEvent(QDropEvent(QPointF(10, 10), Qt.DropAction.CopyAction, data, Qt.MouseButton.LeftButton,
                               Qt.KeyboardModifier.NoModifier))


def test_a_link_left_out_of_a_drop_is_still_said_when_the_import_ends(qtbot, panel, sample_dir):
    # Said as the import started, the note was replaced by its progress at once, and never said again.
    with qtbot.waitSignal(panel.importFinished, timeout=60_000):
        _drop(panel, [QUrl.fromLocalFile(str(sample_dir / "notes.txt")), QUrl("mailto:ann@example.org")])
    lines = panel.status_label.text().split("\n")
    assert lines[0].startswith("1 added")
    assert lines[-1] == ("Not imported: mailto:ann@example.org. Only files, folders and http:// or https:// links "
                         "can be dropped here.")
    with qtbot.waitSignal(panel.importFinished, timeout=60_000):  # said once, not after every import
        panel.import_items([str(sample_dir / "guide.md")])
    assert "Not imported" not in panel.status_label.text()


def test_a_link_left_out_of_a_drop_while_an_import_runs_is_said_when_it_ends(qtbot, panel, sample_dir):
    with qtbot.waitSignal(panel.importFinished, timeout=60_000):
        panel.import_items([str(sample_dir)])
        _drop(panel, [QUrl.fromLocalFile(str(sample_dir / "notes.txt")), QUrl("ftp://files.example/a.pdf")])
    assert panel.status_label.text().split("\n")[-1].startswith("Not imported: ftp://files.example/a.pdf.")


def test_a_drop_on_the_search_tab_shows_the_sources_tab_and_its_progress(qtbot, panel, sample_dir):
    _shown(qtbot, panel)
    panel.tabs.setCurrentIndex(1)
    # The import ran out of sight, its progress and summary on the tab that was not shown.
    with qtbot.waitSignal(panel.importFinished, timeout=60_000):
        _drop(panel, [QUrl.fromLocalFile(str(sample_dir / "notes.txt"))])
        assert panel.tabs.currentIndex() == 0
    panel.tabs.setCurrentIndex(1)
    _drop(panel, [QUrl("mailto:ann@example.org")])  # nothing to import: said on the Sources tab too
    assert panel.tabs.currentIndex() == 0 and panel.status_label.text().startswith("Not imported")
