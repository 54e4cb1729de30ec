"""The import summary beneath the sources list: capped in height, closable, and no password in it."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QUrl

from tests.kb.test_panel import _import
from tinyrag_desktop.ui.kb_drop import items_from_urls, left_out
from tinyrag_desktop.ui.kb_summary import StatusLabel

SHOTS = Path("/tmp/kb32b")


def _failing_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "mixed"
    folder.mkdir()
    for n in range(12):  # twelve reasons, each a long line
        (folder / f"broken document number {n} with a long name.docx").write_text("not a word file", encoding="utf-8")
    (folder / "note.txt").write_text("Herons stand still in shallow water.", encoding="utf-8")
    return folder


def _shot(widget, name: str) -> None:
    if SHOTS.is_dir():
        widget.grab().save(str(SHOTS / name))


def test_a_long_summary_takes_a_third_of_the_panel_at_most_scrolls_and_can_be_closed(qtbot, panel, tmp_path):
    panel.resize(420, 400)
    panel.show()
    qtbot.waitExposed(panel)
    idle = panel.status_label.text()
    assert panel.summary.close_button.isHidden()  # nothing to close yet
    _import(qtbot, panel, [str(_failing_folder(tmp_path))])
    box = panel.summary
    qtbot.waitUntil(lambda: box.height() >= panel.height() // 3 - 2)
    _shot(panel, "test_summary_400.png")
    # It took two thirds of the panel at 400 pixels, and the list three rows.
    assert box.height() <= panel.height() // 3 + 2
    assert box.label.heightForWidth(box.area.viewport().width()) > box.area.height()  # the rest scrolls
    assert box.area.verticalScrollBar().maximum() > 0
    assert panel.sources_view.height() > box.height()
    assert box.close_button.isVisible() and box.close_button.accessibleName()
    assert "1 added" in panel.status_label.text() and panel.status_label.toolTip()
    box.close_button.click()
    # back to the line with nothing to report: with a source listed now, the drop hint (none when empty)
    assert idle == "" and panel.status_label.text() == StatusLabel.IDLE and not panel.status_label.toolTip()
    assert box.close_button.isHidden()
    qtbot.waitUntil(lambda: box.height() < 2 * box.label.fontMetrics().lineSpacing() + 8)


def test_at_300_pixels_tall_a_message_of_two_lines_is_whole(qtbot, panel, tmp_path):
    panel.resize(420, 300)
    panel.show()
    qtbot.waitExposed(panel)
    panel._open(str(tmp_path / "a file that was moved or deleted since it was imported.txt"))
    box = panel.summary
    qtbot.waitUntil(lambda: box.height() >= box.label.heightForWidth(box.area.viewport().width()) > 0)
    _shot(panel, "test_status_300.png")
    assert box.area.verticalScrollBar().maximum() == 0  # whole, not cut at its second line
    assert box.mapTo(panel, box.rect().bottomLeft()).y() < panel.height()


def test_the_close_button_is_hidden_while_an_import_runs(qtbot, panel, tmp_path):
    (tmp_path / "a.md").write_text("# A\n\nText.", encoding="utf-8")
    panel.show()
    with qtbot.waitSignal(panel.importFinished, timeout=20_000):
        panel.import_items([str(tmp_path / "a.md")])
        assert panel.summary.close_button.isHidden()  # the line shows the progress
    assert panel.summary.close_button.isVisible()


def test_a_password_in_a_dropped_link_is_shown_as_stars(qtbot, panel):
    urls = [QUrl("https://ann:s3cret@intranet.example/wiki/page")]
    report = _import(qtbot, panel, items_from_urls(urls))
    assert report.failed
    shown = panel.status_label.text() + "\n" + panel.status_label.toolTip()
    assert "s3cret" not in shown
    assert "https://ann:***@intranet.example/wiki/page: the URL holds a password" in panel.status_label.toolTip()
    # links of other kinds are named beneath, without their password too
    assert left_out([QUrl("ftp://bob:pw2@files.example/x")]) == ["ftp://bob:***@files.example/x"]
