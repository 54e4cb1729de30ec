"""A file whose name is not valid UTF-8, dropped on the Knowledge panel or chosen in Add ▸ Files…: the
import gives its real reason, as ``kb add`` does, not "no such file or folder"."""

from __future__ import annotations

import os

import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt
from PySide6.QtGui import QDropEvent
from PySide6.QtWidgets import QFileDialog

from tinyrag_desktop.ui.kb_drop import items_from_urls, local_path, on_disk

pytestmark = pytest.mark.skipif(os.name == "nt", reason="names on Windows are UTF-16: no such names")

NOT_UTF8 = "its name is not valid text (UTF-8); rename the file"


def _odd_file(tmp_path):
    folder = tmp_path / "odd"
    folder.mkdir()
    path = os.path.join(os.fsencode(folder), b"bad\xffname.txt")
    with open(path, "wb") as out:
        out.write(b"Herons stand in shallow water.\n")
    return os.fsdecode(path), f"file://{os.fsencode(folder).decode()}/bad%FFname.txt"


def _dropped(qtbot, panel, mime):
    with qtbot.waitSignal(panel.importFinished, timeout=60_000) as blocker:
        panel.dropEvent(QDropEvent(QPointF(5, 5), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                                   Qt.KeyboardModifier.NoModifier))
    return blocker.args[0]


def test_a_dropped_file_whose_name_is_not_utf8_is_refused_for_its_name(qtbot, panel, tmp_path):
    path, link = _odd_file(tmp_path)
    mime = QMimeData()
    mime.setData("text/uri-list", f"{link}\r\n".encode())
    assert [item.value for item in items_from_urls(mime.urls())] == [path]
    report = _dropped(qtbot, panel, mime)
    reasons = [failure.reason for failure in report.failed]
    assert len(reasons) == 1 and NOT_UTF8 in reasons[0], reasons
    shown = panel.status_label.text() + "\n" + panel.status_label.toolTip()
    assert NOT_UTF8 in shown and "no such file" not in shown
    if os.path.isdir("/tmp/kb44"):
        panel.resize(420, 300)
        panel.show()
        qtbot.waitExposed(panel)
        panel.grab().save("/tmp/kb44/drop_odd_name.png")


def test_a_dropped_file_link_as_text_is_found_too(tmp_path):
    path, link = _odd_file(tmp_path)
    assert [item.value for item in items_from_urls([], link)] == [path]


def test_a_link_from_another_computer_keeps_its_host_for_the_import_to_explain():
    from PySide6.QtCore import QUrl

    assert local_path(QUrl("file://server/share/notes.md")) == "//server/share/notes.md"
    assert local_path(QUrl("file:///tmp/a%20b%23c.md")) == "/tmp/a b#c.md"


def test_a_chosen_file_whose_name_qt_could_not_read_is_found_on_disk(qtbot, panel, tmp_path, monkeypatch):
    path, _ = _odd_file(tmp_path)
    as_qt_gives = os.fsencode(path).decode("utf-8", "replace")  # GTK's dialog hands Qt the name so
    assert on_disk(as_qt_gives) == path
    assert on_disk(str(tmp_path / "odd" / "gone\ufffd.txt")) == str(tmp_path / "odd" / "gone\ufffd.txt")
    monkeypatch.setattr(QFileDialog, "getOpenFileNames",
                        staticmethod(lambda parent, title, folder, filters: ([as_qt_gives], "")))
    with qtbot.waitSignal(panel.importFinished, timeout=60_000) as blocker:
        panel.choose_files()
    reasons = [failure.reason for failure in blocker.args[0].failed]
    assert len(reasons) == 1 and NOT_UTF8 in reasons[0], reasons


@pytest.mark.parametrize("as_text", [False, True])
def test_a_dropped_link_to_another_computers_file_says_why_as_kb_add_does(qtbot, panel, as_text):
    # the panel said "✗ notes.md: no such file or folder"; kb add explained
    mime = QMimeData()
    if as_text:
        mime.setText("file://server/share/notes.md")
    else:
        mime.setData("text/uri-list", b"file://server/share/notes.md\r\n")
    report = _dropped(qtbot, panel, mime)
    reasons = [failure.reason for failure in report.failed]
    assert len(reasons) == 1 and reasons[0].startswith(
        "a file:// address from another computer (server) cannot be read; give the file's path instead"), reasons
    shown = panel.status_label.text() + "\n" + panel.status_label.toolTip()
    assert "another computer (server)" in shown and "no such file" not in shown
