"""A folder imported again under other letters ("~/docs" after "~/Docs") on a case-insensitive disk is the
same folder: its files stay one source each, and what was deleted from it is removed (path_case.py)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tinyrag_desktop.kb import Importer, open_store
from tinyrag_desktop.kb.path_case import ignores_case
from tinyrag_desktop.kb.store import KnowledgeBase

NOTES = {
    "kettle.md": "# Kettles\n\nDescale the kettle with citric acid every month.\n",
    "bikes.md": "# Bikes\n\nOil the chain of the bicycle after riding in the rain.\n",
    "ferns.md": "# Ferns\n\nFerns like shade and damp soil; never let the pot dry out.\n",
}


@pytest.fixture
def docs(tmp_path, monkeypatch) -> tuple[Path, Path]:
    """The folder "Docs", which is also "docs" as on macOS's disks. Linux's disks tell case apart, so here
    "docs" is a link to "Docs", and realpath keeps the letters it is given, as Python's does on macOS (where
    the disk, not a link, makes the two names one folder): both name the same files, as the disk says. So
    are the names path_case.ignores_case asks the disk about, "dOCS" and "DOCS": links to "Docs" too."""
    base = Path(os.path.realpath(tmp_path))
    real, other = base / "Docs", base / "docs"
    real.mkdir()
    for name, text in NOTES.items():
        (real / name).write_text(text, encoding="utf-8")
    for spelling in (other, base / "dOCS", base / "DOCS"):
        spelling.symlink_to("Docs")
    realpath = os.path.realpath

    def as_typed(path, *args, **kwargs):
        resolved = realpath(path, *args, **kwargs)
        given = os.path.abspath(os.fspath(path))
        if os.path.join(given, "").startswith(os.path.join(other, "")) and \
                os.path.join(resolved, "").startswith(os.path.join(real, "")):
            return str(other) + resolved[len(str(real)):]
        return resolved

    monkeypatch.setattr(os.path, "realpath", as_typed)
    return real, other


def _import(data_dir: Path, items: list[str]):
    with open_store(data_dir) as kb:
        return Importer(kb).run(items)


def _locations(data_dir: Path) -> set[str]:
    with open_store(data_dir) as kb:
        return {source.location for source in kb.sources()}


def test_a_folder_imported_again_in_other_letters_is_not_stored_twice(data_dir, docs):
    real, other = docs
    assert len(_import(data_dir, [str(real)]).added) == 3
    report = _import(data_dir, [str(other)])
    assert (report.added, len(report.unchanged)) == ([], 3)
    assert _locations(data_dir) == {str(real / name) for name in NOTES}  # as first stored


def test_a_file_deleted_is_removed_when_the_folder_is_imported_in_other_letters(data_dir, docs):
    real, other = docs
    _import(data_dir, [str(real)])
    (real / "kettle.md").unlink()
    report = _import(data_dir, [str(other)])
    assert report.removed == [str(real / "kettle.md")]
    assert _locations(data_dir) == {str(real / "bikes.md"), str(real / "ferns.md")}


def test_one_import_naming_both_spellings_stores_each_file_once(data_dir, docs, tmp_path):
    real, other = docs
    # two folders whose names differ only in case, on a disk that tells them apart: two folders
    upper, lower = tmp_path / "Notes", tmp_path / "notes"
    for folder in (upper, lower):
        folder.mkdir()
        (folder / "tea.md").write_text(f"# Tea\n\nSteep green tea in {folder.name}.\n", encoding="utf-8")
    report = _import(data_dir, [str(real), str(other), str(upper), str(lower)])
    assert len(report.added) == 5
    again = [f.location for f in report.skipped if f.reason.startswith("already in this import")]
    assert sorted(again) == sorted(str(real / name) for name in NOTES)  # said, as a file named twice is
    assert _locations(data_dir) == {*(str(real / name) for name in NOTES),
                                    os.path.realpath(upper / "tea.md"), os.path.realpath(lower / "tea.md")}


def test_on_a_disk_that_tells_case_apart_an_import_does_not_read_every_source(data_dir, tmp_path, monkeypatch):
    # Every import read all the sources stored for their spellings (34 ms per 10,000), for one file dropped
    # on the panel too, on disks where "Docs" and "docs" are two folders anyway.
    notes = Path(os.path.realpath(tmp_path)) / "Notes"
    notes.mkdir()
    for name, text in NOTES.items():
        (notes / name).write_text(text, encoding="utf-8")
    _import(data_dir, [str(notes)])
    assert not ignores_case(str(notes)) and not ignores_case(str(notes / "kettle.md"))
    (notes / "kettle.md").write_text("# Kettles\n\nDescale it every week.\n", encoding="utf-8")
    read = []
    sources = KnowledgeBase.sources
    monkeypatch.setattr(KnowledgeBase, "sources", lambda kb, *a, **k: read.append(1) or sources(kb, *a, **k))
    report = _import(data_dir, [str(notes / "kettle.md")])
    assert report.updated == [str(notes / "kettle.md")] and read == []


def test_the_disk_is_asked_about_the_last_name_with_letters(docs):
    real, other = docs
    assert ignores_case(str(real)) and ignores_case(str(other))
    (real / "2024").mkdir()
    assert ignores_case(str(other / "2024"))  # as "DOCS/2024"
