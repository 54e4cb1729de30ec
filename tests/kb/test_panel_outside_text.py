"""A document's text, title and file name are words in the knowledge panel's tooltips, lines and questions:
``<img src=…>`` at the start of a passage made Qt load that file as a picture when its hit was hovered."""

from __future__ import annotations

from PySide6.QtCore import QItemSelectionModel, Qt
from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import QMessageBox

from tests.ui.test_outside_text_literal import as_shown


def test_a_passage_a_title_and_a_file_name_are_words_in_the_panel(qtbot, panel, tmp_path, monkeypatch):
    picture = tmp_path / "p.png"
    image = QImage(900, 700, QImage.Format.Format_RGB32)
    image.fill(QColor("red"))
    assert image.save(str(picture))
    tag = f"<img src={picture}>"
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "<b>quagga<i>.txt").write_text(f"{tag} quagga notes: the quagga is an extinct zebra of South "
                                              "Africa.\n", encoding="utf-8")
    with qtbot.waitSignal(panel.importFinished, timeout=60_000):
        assert panel.import_items([str(folder)])
    assert panel.status_label.textFormat() == Qt.TextFormat.PlainText
    assert "\ufffc" not in as_shown(panel.status_label.toolTip())

    tip = panel.sources_view.model().index(0, 0).data(Qt.ItemDataRole.ToolTipRole)
    assert as_shown(tip).startswith("<b>quagga<i>.txt\n") and as_shown(tip).endswith("/docs/<b>quagga<i>.txt")

    with qtbot.waitSignal(panel.searchFinished) as searched:
        panel.run_search("quagga zebra")
    assert searched.args[0] >= 1
    assert as_shown(panel.results.item(0).toolTip()).startswith(tag)

    asked = []
    monkeypatch.setattr(QMessageBox, "question", lambda *args, **kwargs: (
        asked.append(args[2]), QMessageBox.StandardButton.No)[1])
    panel.sources_view.selectionModel().select(
        panel.sources_view.model().index(0, 0),
        QItemSelectionModel.SelectionFlag.Select | QItemSelectionModel.SelectionFlag.Rows)
    panel.delete_selected()
    assert len(asked) == 1 and "“<b>quagga<i>.txt”" in as_shown(asked[0])
