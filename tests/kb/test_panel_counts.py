"""The numbers the knowledge panel shows: each count of an import's summary with its own passages, and the
Passages column grouped as the summary groups them."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt

from tests.kb.test_panel import _count, _import, _text
from tests.kb.test_panel_scale import _fill, _listed
from tinyrag_desktop.kb import open_store

SHOTS = Path("/tmp/kb44")


def _note(path: Path, parts: int) -> None:
    path.write_text("".join(f"# Part {n}\n\nWords about heron part {n}.\n\n" for n in range(parts)), encoding="utf-8")


def _passages(data_dir: Path) -> dict[str, int]:
    with open_store(data_dir) as kb:
        return {Path(s.location).name: s.chunk_count for s in kb.sources()}


def test_each_count_of_a_summary_has_its_own_passages(qtbot, panel, tmp_path, data_dir):
    folder = tmp_path / "notes"
    folder.mkdir()
    _note(folder / "kept.md", 2)
    _note(folder / "changed.md", 3)
    _import(qtbot, panel, [str(folder)])
    _note(folder / "changed.md", 9)
    _note(folder / "new.md", 4)
    report = _import(qtbot, panel, [str(folder)])
    stored = _passages(data_dir)
    added, updated = stored["new.md"], stored["changed.md"]
    assert added != updated
    # "1 added (13 passages), 1 updated": the updated file's passages were counted with the added one's
    assert report.in_words() == (f"1 added ({added} passages), 1 updated ({updated} passages), "
                                 "1 already up to date")
    assert panel.status_label.text().splitlines()[0] == report.in_words()


def test_the_passages_column_groups_digits_as_the_summary_does(qtbot, panel, data_dir):
    _fill(data_dir, ["a long manual"], chunks=29_957)
    _fill(data_dir, ["a note"], chunks=12)
    view = _listed(qtbot, panel, 420)
    view.sortByColumn(2, Qt.SortOrder.DescendingOrder)
    assert [_text(view, row, 2) for row in range(_count(view))] == ["29,957", "12"]  # it read "29957"
    header = view.header()
    qtbot.waitUntil(lambda: header.sectionSize(2) >= view.fontMetrics().horizontalAdvance("29,957"))
    if SHOTS.is_dir():
        panel.grab().save(str(SHOTS / "passages_grouped.png"))
