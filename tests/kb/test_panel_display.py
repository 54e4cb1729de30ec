"""The knowledge panel as a person reads it: whole columns, every reason an import gives, opening sources."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices

from tests.kb.test_panel import _count, _import, _text
from tests.url_handler import OpenedUrls


@pytest.mark.parametrize("width", [380, 700])
def test_the_imported_column_is_whole_and_the_title_takes_the_room_left(qtbot, panel, sample_dir, width):
    _import(qtbot, panel, [str(sample_dir)])
    panel.resize(width, 500)
    panel.show()
    qtbot.waitExposed(panel)
    view, header = panel.sources_view, panel.sources_view.header()
    assert view.isColumnHidden(4)  # no embedding model: no Vectors column
    # With Vectors hidden, Imported was the last visible column and stretched like Title: half the spare
    # room at 700 pixels, and its date cut ("2026-11-30 15…") at 380.
    assert header.sectionSize(3) >= view.sizeHintForColumn(3)
    used = sum(header.sectionSize(column) for column in range(4))
    assert used == view.viewport().width()
    # Times shown as "20:23" / "30 Nov" leave the title more room than Imported even at 380 pixels, where
    # "2026-11-30 20:23" took 114 of them and left Title 98.
    assert header.sectionSize(0) > header.sectionSize(3)


def test_only_the_column_sorted_by_keeps_room_for_the_sort_arrow(qtbot, panel, sample_dir):
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QHeaderView

    _import(qtbot, panel, [str(sample_dir)])
    panel.resize(384, 500)
    panel.show()
    qtbot.waitExposed(panel)
    header = panel.sources_view.header()
    plain = QHeaderView(Qt.Orientation.Horizontal)  # Qt's own: room for the arrow in every column
    plain.setModel(panel.sources_view.model())
    plain.setSortIndicatorShown(True)
    plain.setSortIndicator(header.sortIndicatorSection(), header.sortIndicatorOrder())
    assert header.sortIndicatorSection() == 3  # newest first
    assert header.sectionSizeHint(3) == plain.sectionSizeHint(3)
    for column in (1, 2):  # Type and Chunks: "Chunks ▲"'s room was kept, and the titles got 131 px of 384
        assert header.sectionSizeHint(column) < plain.sectionSizeHint(column)
    titles = panel.sources_view.widest_title()  # every title whole, or 145 px of them
    assert header.sectionSize(0) >= min(145, titles), titles
    panel.sources_view.sortByColumn(2, Qt.SortOrder.AscendingOrder)  # sorted by Chunks: the arrow moves
    plain.setSortIndicator(2, Qt.SortOrder.AscendingOrder)
    assert header.sectionSizeHint(2) == plain.sectionSizeHint(2)
    qtbot.waitUntil(lambda: header.sectionSize(2) >= plain.sectionSizeHint(2))
    assert header.sectionSizeHint(3) < plain.sectionSizeHint(3)


def test_a_file_skipped_for_having_no_text_is_shown_with_its_reason(qtbot, panel, tmp_path):
    from tests.kb.conftest import make_pdf

    scan = tmp_path / "scan.pdf"
    scan.write_bytes(make_pdf([]))  # a page without text, as a scanned PDF's
    _import(qtbot, panel, [str(scan)])
    # It said "0 added, 0 updated, 0 unchanged, 1 skipped (0 chunks stored)" and nothing about why.
    assert "1 skipped" in panel.status_label.text()
    assert "scan.pdf: no readable text found" in panel.status_label.text()
    assert "text recognition (OCR)" in panel.status_label.text()
    assert f"{scan}: no readable text found" in panel.status_label.toolTip()


def test_failures_come_before_skipped_files_and_every_reason_is_in_the_tooltip(qtbot, panel, tmp_path):
    folder = tmp_path / "mixed"
    folder.mkdir()
    for n in range(10):
        (folder / f"picture{n}.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    (folder / "fake.docx").write_text("this is not a word file", encoding="utf-8")
    (folder / "note.txt").write_text("Herons stand still in shallow water.", encoding="utf-8")
    _import(qtbot, panel, [str(folder)])
    lines = panel.status_label.text().split("\n")
    assert lines[0].startswith("1 added") and "1 failed, 10 skipped" in lines[0]
    assert lines[1].startswith("✗ fake.docx: ")
    assert lines[2].startswith("– picture0.png: .png is not a supported type")
    assert len(lines) == 10 and lines[-1] == "… and 3 more (Show all lists them)"
    tip = panel.status_label.toolTip()
    assert f"{folder / 'fake.docx'}: " in tip
    assert all(f"{folder / f'picture{n}.png'}: .png is not a supported type" in tip for n in range(10))



@pytest.fixture
def opened():
    handler = OpenedUrls()
    for scheme in ("file", "http", "https"):
        QDesktopServices.setUrlHandler(scheme, handler, "open")
    yield handler
    for scheme in ("file", "http", "https"):
        QDesktopServices.unsetUrlHandler(scheme)


def _row(panel, title):
    """The index of the row titled ``title``, as activating it (a double click, Enter) hands it over."""
    view = panel.sources_view
    [row] = [row for row in range(_count(view)) if _text(view, row) == title]
    return view.model().index(row, 0)


def test_opening_a_source_deleted_since_its_import_says_so_instead_of_opening_nothing(
        qtbot, panel, sample_dir, opened):
    _import(qtbot, panel, [str(sample_dir / "notes.txt"), str(sample_dir / "guide.md")])
    guide = _row(panel, "Bread Guide")
    panel.sources_view.activated.emit(guide)
    assert opened.addresses() == [QUrl.fromLocalFile(str(sample_dir / "guide.md")).toString()]
    (sample_dir / "guide.md").unlink()
    panel.sources_view.activated.emit(guide)  # it was handed to the desktop, which showed nothing
    assert len(opened.urls) == 1
    assert panel.status_label.text() == "“guide.md” is not there any more: it was moved or deleted since it was imported."


def test_an_article_stored_by_its_title_opens_on_wikipedia_not_as_a_file(qtbot, panel, data_dir, opened):
    from tinyrag_desktop.kb import open_store
    from tinyrag_desktop.kb.models import Chunk
    from tinyrag_desktop.kb.store import new_load_id

    with open_store(data_dir) as kb:  # as ingest stores an article whose page address did not come back
        kb.replace_source(title="Alan Turing", location="wikipedia:en:Alan Turing", type="wikipedia", size=40,
                          content_hash="x", chunks=[Chunk("Alan Turing", "Alan Turing was a mathematician.")],
                          load_id=new_load_id())
    panel.refresh()
    panel.sources_view.activated.emit(_row(panel, "Alan Turing"))
    assert opened.addresses() == ["https://en.wikipedia.org/wiki/Alan_Turing"]  # was file:///…/wikipedia:en:Alan Turing


def test_import_times_are_listed_as_a_file_manager_lists_them():
    # The full "2026-11-30 20:23" took a third of a narrow dock's row from the titles.
    from datetime import date, datetime, timezone

    from tinyrag_desktop.ui.kb_sources_view import short_time

    def stamp(moment: datetime) -> str:  # as the store writes it: UTC, ISO
        return moment.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")

    today = date(2026, 11, 30)
    assert short_time(stamp(datetime(2026, 11, 30, 20, 23)), today) == "20:23"
    assert short_time(stamp(datetime(2026, 11, 29, 23, 59)), today) == "29 Nov"
    assert short_time(stamp(datetime(2026, 1, 2, 8, 0)), today) == "2 Jan"
    assert short_time(stamp(datetime(2025, 12, 31, 9, 5)), today) == "31 Dec 2025"
    assert short_time("not a time", today) == "not a time"


def test_a_passage_s_table_rows_are_listed_a_row_a_line_and_its_prose_as_one_paragraph():
    from tinyrag_desktop.ui.kb_results import preview

    text = ("The server reads its options\nfrom server.toml at start-up.\n\n"
            "Option | Default\n`port` | 8080\n`workers` | 4\n\n"
            "\tIndented in its file,\n\tas git's manuals are.\n\nSee the guide.")
    # Joined, "Option | Default `port` | 8080 `workers` | 4" ran on as one line in the Search tab.
    assert preview(text) == ("The server reads its options from server.toml at start-up.\nOption | Default\n"
                             "`port` | 8080\n`workers` | 4\nIndented in its file, as git's manuals are.\n"
                             "See the guide.")
    assert preview(text, limit=40) == "The server reads its options from server…"
    assert preview(text, most_lines=2) == ("The server reads its options from server.toml at start-up.\n"
                                           "Option | Default …")
    assert preview("") == ""


def test_a_result_s_lines_are_drawn_as_lines_and_its_height_holds_them(qtbot, panel, tmp_path):
    from PySide6.QtWidgets import QStyleOptionViewItem

    notes = tmp_path / "options.md"
    rows = "\n".join(f"| `opt{n}` | {n} |" for n in range(6))
    prose = "Here are some guidelines for people who want to change the defaults of the server it reads. " * 2
    notes.write_text(f"# Server options\n\n{prose}\n\n| Option | Default |\n|---|---|\n{rows}\n", encoding="utf-8")
    _import(qtbot, panel, [str(notes)])
    panel.resize(420, 600)
    panel.show()
    panel.tabs.setCurrentIndex(1)
    panel.query_edit.setText("server options default")
    with qtbot.waitSignal(panel.searchFinished):
        panel.run_search()
    view = panel.results
    qtbot.waitUntil(lambda: view.visualItemRect(view.item(0)).height() > 0)
    option = QStyleOptionViewItem()
    option.initFrom(view)
    option.widget = view
    option.rect = view.visualItemRect(view.item(0))
    document = view.itemDelegate()._document(option, view.model().index(0, 0))
    # Each row on a line of its own (the passage's line breaks were dropped as HTML drops them)
    lines = document.toPlainText().splitlines()
    assert "Option | Default" in lines and "`opt3` | 3" in lines, lines
    assert document.size().height() <= option.rect.height()  # the lines it gained fit the item's height


def test_the_window_says_only_what_an_import_did(tmp_path):
    # "0 added, 0 updated, 2 unchanged (0 chunks stored)" for files already imported; the command line
    # keeps every count (scripts read it).
    from tinyrag_desktop.kb.ingest import Failure, ImportReport

    assert ImportReport(unchanged=["a", "b"]).in_words() == "2 already up to date"
    assert ImportReport(failed=[Failure("x", "no such file")]).in_words() == "1 failed"
    assert ImportReport(added=["a"], updated=["b", "c"], reread=["c"], chunks=1_200).in_words() == (
        "1 added (1,200 passages), 2 updated (read again: an older version of tinyRAG imported them)")
    assert ImportReport(updated=["b"], chunks=1, updated_chunks=1).in_words() == "1 updated (1 passage)"
    assert ImportReport(cancelled=True).in_words() == "Nothing was imported — cancelled"
    assert ImportReport(unchanged=["a", "b"]).summary() == "0 added, 0 updated, 2 unchanged (0 chunks stored)"


def test_a_summary_of_many_reasons_keeps_its_tooltip_to_the_first_thirty():
    # 134 reasons made a tooltip 5,606 px tall on an 800 px screen
    from tinyrag_desktop.kb.import_report import Failure, ImportReport
    from tinyrag_desktop.ui.kb_summary import TIP_MOST, summary

    report = ImportReport()
    report.skipped = [Failure(f"/docs/picture{n}.png", ".png is not a supported type") for n in range(134)]
    shown, tip = summary(report)
    assert shown.split("\n")[-1] == f"… and {134 - 8} more (Show all lists them)"
    assert len(tip.split("\n")) == TIP_MOST + 1 and tip.split("\n")[-1] == f"… and {134 - TIP_MOST} more"
