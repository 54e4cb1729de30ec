"""Importing a folder again brings the knowledge base in line with it: files deleted since are removed."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from tinyrag_desktop.cli import main
from tinyrag_desktop.kb import Importer, open_store, search

NOTES = {
    "kettle.md": "# Kettles\n\nDescale the kettle with citric acid every month.\n",
    "bikes.md": "# Bikes\n\nOil the chain of the bicycle after riding in the rain.\n",
    "ferns.md": "# Ferns\n\nFerns like shade and damp soil; never let the pot dry out.\n",
}


def _folder(root: Path, name: str = "notes") -> Path:
    folder = root / name
    folder.mkdir()
    for file, text in NOTES.items():
        (folder / file).write_text(text, encoding="utf-8")
    return folder


def _import(data_dir: Path, items: list[str], cancel: threading.Event | None = None):
    with open_store(data_dir) as kb:
        return Importer(kb, cancel=cancel).run(items)


def _locations(data_dir: Path) -> set[str]:
    with open_store(data_dir) as kb:
        return {s.location for s in kb.sources()}


def test_a_file_deleted_from_the_folder_is_removed_when_the_folder_is_imported_again(data_dir, tmp_path):
    folder = _folder(tmp_path)
    assert len(_import(data_dir, [str(folder)]).added) == 3
    assert search(data_dir, "citric acid kettle", 5)
    (folder / "kettle.md").unlink()

    report = _import(data_dir, [str(folder)])

    gone = str(folder.resolve() / "kettle.md")
    assert report.removed == [gone]
    assert "1 removed (deleted from its folder)" in report.summary()
    assert len(report.unchanged) == 2
    assert gone not in _locations(data_dir)
    assert not [h for h in search(data_dir, "citric acid kettle", 5) if h.location == gone]
    with open_store(data_dir) as kb:
        assert kb.check_integrity() == []


def test_only_sources_inside_the_imported_folder_are_touched(data_dir, tmp_path):
    folder = _folder(tmp_path, "notes")
    elsewhere = _folder(tmp_path, "notes-old")  # shares the name's first letters, not the folder
    _import(data_dir, [str(folder), str(elsewhere)])
    (elsewhere / "ferns.md").unlink()
    (folder / "bikes.md").unlink()

    report = _import(data_dir, [str(folder)])

    assert report.removed == [str(folder.resolve() / "bikes.md")]
    assert str(elsewhere.resolve() / "ferns.md") in _locations(data_dir)  # its folder was not imported now


def test_a_single_file_imported_again_is_not_a_folder_sync(data_dir, tmp_path):
    folder = _folder(tmp_path)
    _import(data_dir, [str(folder)])
    (folder / "ferns.md").unlink()

    report = _import(data_dir, [str(folder / "bikes.md")])

    assert report.removed == []
    assert str(folder.resolve() / "ferns.md") in _locations(data_dir)


def test_a_cancelled_import_removes_nothing(data_dir, tmp_path):
    folder = _folder(tmp_path)
    _import(data_dir, [str(folder)])
    (folder / "kettle.md").unlink()
    cancel = threading.Event()
    cancel.set()

    report = _import(data_dir, [str(folder)], cancel)

    assert report.cancelled and report.removed == []
    assert str(folder.resolve() / "kettle.md") in _locations(data_dir)


def test_files_that_cannot_be_seen_now_are_kept(data_dir, tmp_path, monkeypatch):
    folder = _folder(tmp_path)
    locked = folder / "locked"
    locked.mkdir()
    (locked / "secret.md").write_text("# Secret\n\nThe spare key is under the blue flowerpot.\n")
    _import(data_dir, [str(folder)])
    real_lstat, real_scandir = os.lstat, os.scandir

    # chmod 000 does not stop root, who runs CI: refuse as the kernel would for a folder without permission.
    def lstat(path, *args, **kwargs):
        if Path(path).parent.name == "locked":
            raise PermissionError(13, "Permission denied", str(path))
        return real_lstat(path, *args, **kwargs)

    def scandir(path="."):
        if Path(path).name == "locked":
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "lstat", lstat)
    monkeypatch.setattr(os, "scandir", scandir)
    report = _import(data_dir, [str(folder)])

    assert report.removed == []
    assert str(locked.resolve() / "secret.md") in _locations(data_dir)


def test_kb_add_says_what_it_removed(data_dir, tmp_path, capsys: pytest.CaptureFixture[str]):
    folder = _folder(tmp_path)
    assert main(["kb", "add", "--data-dir", str(data_dir), str(folder)]) == 0
    (folder / "bikes.md").unlink()
    capsys.readouterr()

    assert main(["kb", "add", "--data-dir", str(data_dir), str(folder)]) == 0

    out, err = capsys.readouterr()
    assert f"removed: {folder.resolve() / 'bikes.md'}: deleted from its folder" in err
    assert "1 removed" in out
