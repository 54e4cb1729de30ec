"""One knowledge base used from two places at once: the window's panel and ``kb add`` or ``kb remove`` in a
terminal, or two ``kb add`` of overlapping folders."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from PySide6.QtCore import QItemSelectionModel, Qt

from tinyrag_desktop.kb import Importer, open_store

REPO = Path(__file__).resolve().parents[2]


def _kb(data_dir: Path, *args: str) -> str:
    """Run ``kb ARGS`` as a terminal does, in a process of its own; its standard output."""
    done = subprocess.run([sys.executable, "-m", "tinyrag_desktop", "kb", *args, "--data-dir", str(data_dir)],
                          capture_output=True, text=True, cwd=REPO, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(REPO), "PYTHONIOENCODING": "utf-8"})
    assert done.returncode == 0, done.stderr
    return done.stdout


def _notes(folder: Path, names: list[str]) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    for name in names:
        (folder / f"{name}.md").write_text(f"# {name}\n\nThe heron of {name} fishes at dawn.\n", encoding="utf-8")
    return [folder / f"{name}.md" for name in names]


def _locations(panel) -> list[str]:
    model = panel.sources_model
    return [model.source(row).location for row in range(model.rowCount())]


def _imported(qtbot, panel, paths: list[Path]) -> None:
    with qtbot.waitSignal(panel.importFinished, timeout=60_000):
        assert panel.import_items([str(p) for p in paths])


def test_sources_kb_add_stores_beside_the_shown_panel_are_listed_without_a_click(qtbot, panel, tmp_path):
    # The window beside the terminal is not the active one: the list was read again only once it was
    # clicked, and a panel whose own import ended first went on showing part of what both had stored.
    panel.show()
    _imported(qtbot, panel, _notes(tmp_path / "docs", ["alpha", "beta", "gamma"]))
    assert len(_locations(panel)) == 3
    more = _notes(tmp_path / "more", ["delta", "epsilon"])
    _kb(panel.data_dir, "add", str(tmp_path / "more"))
    qtbot.waitUntil(lambda: len(_locations(panel)) == 5, timeout=20_000)
    assert {str(p) for p in more} <= set(_locations(panel))


def test_delete_removes_a_source_kb_imported_again_under_a_new_id(qtbot, panel, tmp_path):
    # (the panel not shown: its list is not read again meanwhile, as when kb runs during the question)
    notes = _notes(tmp_path / "docs", ["alpha", "beta", "gamma"])
    _imported(qtbot, panel, notes)
    row = _locations(panel).index(str(notes[0]))
    old_id = panel.sources_model.source(row).id
    _kb(panel.data_dir, "remove", str(old_id))
    _kb(panel.data_dir, "add", str(notes[0]))  # stored again, under a new id, as the list still shows the old
    panel.sources_view.selectionModel().select(
        panel.sources_model.index(row, 0),
        QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows)
    with qtbot.waitSignal(panel.deleteFinished, timeout=60_000) as deleted:
        assert panel.delete_selected(confirm=False) == 1
    assert deleted.args == [1]  # "0 sources removed.", and alpha stayed
    assert panel.status_label.text() == "1 source removed."
    assert str(notes[0]) not in _locations(panel)
    with open_store(panel.data_dir) as kb:
        assert sorted(s.location for s in kb.sources()) == [str(notes[1]), str(notes[2])]


def test_files_another_import_stored_meanwhile_are_unchanged_not_stored_again(tmp_path, data_dir, monkeypatch):
    # The panel's import of a folder and kb add of its parent at once: each stored the files both had read,
    # and said "574 updated" (kb add "868 updated") of files that had not changed.
    notes = _notes(tmp_path / "docs", ["alpha", "beta"])
    store_read = Importer._store_read

    def kb_add_first(self, load_id, report):  # kb add stores them after this import read them, before it stores
        _kb(data_dir, "add", str(tmp_path / "docs"))
        monkeypatch.setattr(Importer, "_store_read", store_read)
        return store_read(self, load_id, report)

    monkeypatch.setattr(Importer, "_store_read", kb_add_first)
    with open_store(data_dir) as kb:
        report = Importer(kb).run([str(tmp_path / "docs")])
        stored = {s.location: s.load_id for s in kb.sources()}
    assert sorted(report.unchanged) == [str(p) for p in notes] and not report.updated and not report.added
    assert report.summary() == "0 added, 0 updated, 2 unchanged (0 chunks stored)"
    assert len(stored) == 2 and len(set(stored.values())) == 1  # as kb add stored them, not written twice


def test_a_source_that_fails_once_does_not_store_again_what_another_import_stored(tmp_path, data_dir, monkeypatch):
    # The check "stored meanwhile by another import" was used up at the first store: when another source
    # then failed, all were stored again one at a time, without it, and the first said "updated".
    notes = _notes(tmp_path / "docs", ["alpha", "beta"])
    store_read, save = Importer._store_read, Importer._save
    calls = []

    def kb_add_first(self, load_id, report):
        _kb(data_dir, "add", str(tmp_path / "docs"))
        monkeypatch.setattr(Importer, "_store_read", store_read)
        return store_read(self, load_id, report)

    def second_fails_once(self, source, load_id):  # the whole batch is rolled back, then stored one by one
        calls.append(source.location)
        if len(calls) == 2:
            raise RuntimeError("a hiccup")
        return save(self, source, load_id)

    monkeypatch.setattr(Importer, "_store_read", kb_add_first)
    monkeypatch.setattr(Importer, "_save", second_fails_once)
    with open_store(data_dir) as kb:
        report = Importer(kb).run([str(tmp_path / "docs")])
        stored = {s.location: s.load_id for s in kb.sources()}
    assert len(calls) == 4  # two in the batch, then each again
    assert sorted(report.unchanged) == [str(p) for p in notes] and not report.updated and not report.failed
    assert len(set(stored.values())) == 1  # as kb add stored them


def test_the_search_tab_in_sight_searches_again_when_kb_remove_takes_a_source_it_lists(qtbot, panel, tmp_path):
    # The results went on listing the removed source's passages (they opened as if it were still there) until
    # the tab was left and shown again.
    panel.show()
    notes = _notes(tmp_path / "docs", ["alpha", "beta"])
    _imported(qtbot, panel, notes)
    panel.tabs.setCurrentIndex(1)
    panel.query_edit.setText("heron alpha")
    with qtbot.waitSignal(panel.searchFinished, timeout=20_000):
        panel.run_search()
    assert str(notes[0]) in _found(panel)
    gone = panel.sources_model.source(_locations(panel).index(str(notes[0]))).id
    _kb(panel.data_dir, "remove", str(gone))
    qtbot.waitUntil(lambda: _found(panel) == [str(notes[1])], timeout=20_000)


def _found(panel) -> list[str]:
    """The locations of the passages the Search tab lists, once each."""
    items = (panel.results.item(n) for n in range(panel.results.count()))
    return list(dict.fromkeys(loc for item in items if (loc := item.data(Qt.ItemDataRole.UserRole))))
