"""The knowledge panel keeps its width whatever its status line says: long file names and dropped links."""

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
    (folder / "kept.md").write_text("# Herons\n\nHerons stand still in shallow water.\n", encoding="utf-8")
    _shown(qtbot, panel)
    _import(qtbot, panel, [str(folder)])
    # The name was one word the label could not break: the panel (and the window it is docked in) grew
    # from 340 to 1,252 pixels wide.
    assert panel.minimumSizeHint().width() <= 340
    assert panel.width() == 340
    line = panel.status_label.text().split("\n")[1]
    assert line.startswith("✗ a_very_long_file") and line.endswith("spaces_.md: the file is empty")
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
