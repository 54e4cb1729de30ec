"""A file deleted from a folder while the folder is imported (an editor's swap file, a build's temporary
file) is skipped, saying so, not failed with "no such file or folder": the user never named it, and the
import of what the folder holds succeeded (`kb add` exited 1 for it)."""

from __future__ import annotations

import shutil

from tinyrag_desktop.kb import Importer, open_store


def test_a_file_deleted_from_the_folder_during_its_import_is_skipped_saying_so(data_dir, tmp_path):
    folder = tmp_path / "notes"
    folder.mkdir()
    for name in ("a.md", "b.md", "c.md"):
        (folder / name).write_text(f"# {name}\n\nAbout the heron {name}.\n")

    def progress(_):
        (folder / "c.md").unlink(missing_ok=True)  # once the folder is listed, before c.md is read

    with open_store(data_dir) as kb:
        report = Importer(kb, on_progress=progress).run([str(folder)])
    assert sorted(p.rsplit("/", 1)[-1] for p in report.added) == ["a.md", "b.md"]
    assert not report.failed, report.failed
    assert [(f.location.rsplit("/", 1)[-1], f.reason) for f in report.skipped] == [
        ("c.md", "deleted from the folder while it was being imported")]


def test_files_whose_folder_is_gone_during_the_import_fail_naming_the_folder(data_dir, tmp_path):
    # a USB stick pulled mid-import: every file not yet read was skipped as deleted, and `kb add` exited 0
    folder = tmp_path / "usb" / "notes"
    folder.mkdir(parents=True)
    for n in range(4):
        (folder / f"n{n}.md").write_text(f"# Note {n}\n\nAbout the heron {n}.\n")
    calls = []

    def progress(_):
        calls.append(1)
        if len(calls) == 2:
            shutil.rmtree(tmp_path / "usb")

    with open_store(data_dir) as kb:
        report = Importer(kb, on_progress=progress).run([str(folder)])
    assert report.added and report.failed
    assert not report.skipped, report.skipped
    # once for the folder, with the files not read (see test_folder_gone_while_importing.py)
    assert [(f.location, f.reason) for f in report.failed] == [
        (str(tmp_path / "usb"), f"the folder is gone (deleted, or its drive removed?); {4 - len(report.added)} "
                                "files in it not read")]
