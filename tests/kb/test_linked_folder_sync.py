"""Importing a folder again removes the files deleted inside a linked subfolder too (they are stored under
the link's target, the real folder), and only those. A linked folder outside the folder imported is not
followed (import_items.OUTSIDE), so it brings in nothing to remove later."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tinyrag_desktop.kb import Importer, open_store, search
from tinyrag_desktop.kb.import_items import OUTSIDE

pytestmark = pytest.mark.skipif(os.name != "posix", reason="symbolic links")


def _import(data_dir: Path, items: list[str]):
    with open_store(data_dir) as kb:
        return Importer(kb).run(items)


def _names(data_dir: Path) -> set[str]:
    with open_store(data_dir) as kb:
        return {Path(s.location).name for s in kb.sources()}


def _tree(tmp_path: Path) -> tuple[Path, Path]:
    notes = tmp_path / "notes"
    elsewhere = notes / "Archive"  # walked first (sorted), the link to it is then a folder already imported
    (notes / "deep").mkdir(parents=True)
    (elsewhere / "sub").mkdir(parents=True)
    (notes / "own.txt").write_text("own note about the okapi\n")
    (elsewhere / "takin.txt").write_text("note about the takin\n")
    (elsewhere / "saiga.txt").write_text("note about the saiga\n")
    (elsewhere / "sub" / "dhole.txt").write_text("note about the dhole\n")
    os.symlink(elsewhere, notes / "deep" / "linked")
    return notes, elsewhere


def test_a_file_deleted_in_a_linked_subfolder_is_removed_on_the_next_import(tmp_path, data_dir):
    notes, elsewhere = _tree(tmp_path)
    assert len(_import(data_dir, [str(notes)]).added) == 4
    (elsewhere / "takin.txt").unlink()
    (elsewhere / "sub" / "dhole.txt").unlink()
    report = _import(data_dir, [str(notes)])
    assert sorted(Path(p).name for p in report.removed) == ["dhole.txt", "takin.txt"]
    assert _names(data_dir) == {"own.txt", "saiga.txt"}
    assert search(data_dir, "takin", 1) == []


def test_a_linked_folder_deleted_whole_takes_its_files_with_it(tmp_path, data_dir):
    notes, elsewhere = _tree(tmp_path)
    _import(data_dir, [str(notes)])
    shutil.rmtree(elsewhere)  # the link is left pointing at nothing
    report = _import(data_dir, [str(notes)])
    assert len(report.removed) == 3
    assert _names(data_dir) == {"own.txt"}


def test_other_sources_outside_the_folder_are_left_alone(tmp_path, data_dir):
    notes, elsewhere = _tree(tmp_path)
    other = tmp_path / "other"
    other.mkdir()
    (other / "gone.txt").write_text("a note imported by itself\n")
    _import(data_dir, [str(notes), str(other / "gone.txt")])
    (other / "gone.txt").unlink()  # deleted, but not from the folder imported again
    report = _import(data_dir, [str(notes)])
    assert report.removed == []
    assert "gone.txt" in _names(data_dir)


def test_a_linked_folder_outside_is_passed_by_with_its_reason(tmp_path, data_dir):
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "own.txt").write_text("own note about the okapi\n")
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "takin.txt").write_text("note about the takin\n")
    os.symlink(tmp_path / "elsewhere", notes / "linked")
    report = _import(data_dir, [str(notes)])
    assert [Path(p).name for p in report.added] == ["own.txt"]
    assert [(f.location, f.reason) for f in report.skipped] == [(str(notes / "linked"), OUTSIDE)]
    assert _names(data_dir) == {"own.txt"}
