"""A folder that goes away while it is imported (deleted, a USB stick pulled, a network share dropped) fails
once, for the folder, saying how many of its files were not read: each file not yet read failed with "the
folder … is no longer there", hundreds of identical lines in `kb add`'s output and beneath the panel's summary.
The sources imported before it went stay, whole: the import's clean-up removed every source of a folder it
found gone, those it had just imported too, as if each file had been deleted from it.

The folder is deleted by a hook as the import comes to its sixth file, before that file is read (with reader
processes too: the files before it were read first), so the test does not race the import."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tinyrag_desktop.kb import Importer, open_store, search
from tinyrag_desktop.kb.import_reading import ImportReadingMixin

from .cli_run import run_main

_FILES = 40


def _folder(tmp_path: Path, files: int = _FILES) -> tuple[Path, Path]:
    """``usb/notes`` with ``files`` notes: the folder imported, and the drive it is on."""
    drive = tmp_path / "usb"
    folder = drive / "notes"
    folder.mkdir(parents=True)
    for n in range(files):
        (folder / f"n{n:03d}.md").write_text(f"# Note {n}\n\nThe heron number {n} waits at the shore.\n")
    return folder, drive


@pytest.fixture
def pulled_at_the_sixth(monkeypatch):
    """Remove the drive (given to the returned function) as the import comes to n005.md."""
    drives: list[Path] = []
    real = ImportReadingMixin._import_one

    def import_one(self, item, report, readers=None):
        if item.value.endswith("n005.md") and drives and drives[0].exists():
            shutil.rmtree(drives[0])
        return real(self, item, report, readers)

    monkeypatch.setattr(ImportReadingMixin, "_import_one", import_one)
    return drives.append


def _stored(data_dir: Path) -> dict[str, int]:
    with open_store(data_dir) as kb:
        return {Path(s.location).name: s.chunk_count for s in kb.sources()}


@pytest.mark.parametrize("reading", ["here", "in reader processes"])
def test_the_folder_fails_once_and_the_files_imported_before_stay(data_dir, tmp_path, pulled_at_the_sixth,
                                                                  monkeypatch, reading):
    from tinyrag_desktop.kb import ingest

    if reading == "here":
        monkeypatch.setattr(ingest, "_READERS_FROM", 10**6)
    else:
        monkeypatch.setattr(ingest.os, "cpu_count", lambda: 2)
    folder, drive = _folder(tmp_path)
    pulled_at_the_sixth(drive)
    with open_store(data_dir) as kb:
        report = Importer(kb).run([str(folder)])
    assert [(f.location, f.reason) for f in report.failed] == [
        (str(drive), f"the folder is gone (deleted, or its drive removed?); {_FILES - 5} files in it not read")]
    assert not report.skipped and not report.removed
    assert sorted(Path(p).name for p in report.added) == [f"n{n:03d}.md" for n in range(5)]
    assert _stored(data_dir) == {f"n{n:03d}.md": 1 for n in range(5)}  # each whole
    assert {Path(hit.location).name for hit in search(data_dir, "heron shore", 10)} == {
        f"n{n:03d}.md" for n in range(5)}
    assert report.in_words().startswith("5 added (5 passages), 1 failed")


def test_sources_imported_from_it_before_stay_when_it_goes_during_the_next_import(data_dir, tmp_path,
                                                                                   pulled_at_the_sixth):
    folder, drive = _folder(tmp_path)
    with open_store(data_dir) as kb:
        assert len(Importer(kb).run([str(folder)]).added) == _FILES
    (folder / "n999.md").write_text("# Note 999\n\nA new heron.\n")
    pulled_at_the_sixth(drive)
    with open_store(data_dir) as kb:
        report = Importer(kb).run([str(folder)])
    assert not report.removed  # "40 removed (deleted from their folder)": the knowledge base lost them all
    assert len(_stored(data_dir)) == _FILES
    assert [f.location for f in report.failed] == [str(drive)]  # the highest folder gone: the drive


def test_kb_add_says_it_once(tmp_path, capsys, pulled_at_the_sixth):
    folder, drive = _folder(tmp_path)
    pulled_at_the_sixth(drive)
    code, out, err = run_main(capsys, "add", str(folder), "--data-dir", str(tmp_path / "data"))
    assert code == 1
    assert out.startswith("5 added, 0 updated, 0 unchanged, 1 failed")
    failed = [line for line in err.splitlines() if line.startswith("failed:")]
    assert failed == [f"failed: {drive}: the folder is gone (deleted, or its drive removed?); "
                      f"{_FILES - 5} files in it not read"]


def test_the_panel_says_it_once(qtbot, panel, tmp_path, pulled_at_the_sixth):
    folder, drive = _folder(tmp_path)
    pulled_at_the_sixth(drive)
    with qtbot.waitSignal(panel.importFinished, timeout=60_000) as finished:
        assert panel.import_items([str(folder)])
    assert len(finished.args[0].failed) == 1
    lines = panel.status_label.text().split("\n")
    assert [line for line in lines if line.startswith("✗")] == [
        f"✗ usb: the folder is gone (deleted, or its drive removed?); {_FILES - 5} files in it not read"]
    assert panel.source_count() == 5
