"""Cancel pressed from the keyboard keeps the focus in the panel when it hides: Qt passed it on to the next
widget in the window's Tab chain, the status bar's Model button."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QPushButton, QVBoxLayout, QWidget

from tests.kb.test_panel import _import
from tinyrag_desktop.settings import defaults
from tinyrag_desktop.ui.kb_panel import KnowledgePanel


@pytest.fixture
def window(qtbot, data_dir):
    """The panel with a button after it in the Tab chain, as the window's status bar is after the dock."""
    host = QWidget()
    qtbot.add_widget(host)
    layout = QVBoxLayout(host)
    panel = KnowledgePanel(data_dir, lambda: defaults())
    after = QPushButton("Model")
    layout.addWidget(panel)
    layout.addWidget(after)
    host.resize(500, 600)
    host.show()
    qtbot.waitExposed(host)
    with qtbot.waitActive(host):
        host.activateWindow()
    yield panel
    panel.shutdown()


def _many(tmp_path):
    folder = tmp_path / "many"
    folder.mkdir()
    for n in range(300):
        (folder / f"n{n}.txt").write_text(f"note {n} about herons " * 400, encoding="utf-8")
    return folder


@pytest.mark.parametrize("listed", [False, True])
def test_space_on_cancel_leaves_the_focus_in_the_panel(qtbot, window, tmp_path, sample_dir, listed):
    panel = window
    if listed:
        _import(qtbot, panel, [str(sample_dir / "guide.md")])
    with qtbot.waitSignal(panel.importFinished, timeout=120_000) as finished:
        assert panel.import_items([str(_many(tmp_path))])
        panel.cancel_button.setFocus()
        assert QApplication.focusWidget() is panel.cancel_button
        QTest.keyClick(panel.cancel_button, Qt.Key.Key_Space)
    assert finished.args[0].cancelled and not panel.cancel_button.isVisible()
    assert QApplication.focusWidget() is panel.add_button  # the panel's first button, where an import begins


def test_an_import_ending_with_the_focus_on_cancel_leaves_it_in_the_panel(qtbot, window, sample_dir):
    panel = window
    with qtbot.waitSignal(panel.importFinished, timeout=60_000):
        assert panel.import_items([str(sample_dir / "guide.md")])
        panel.cancel_button.setFocus()
    assert QApplication.focusWidget() is panel.add_button
