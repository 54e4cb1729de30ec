"""A file deleted from a folder while the folder is imported (an editor's swap file, a build's temporary
file) is skipped, saying so, not failed with "no such file or folder": the user never named it, and the
import of what the folder holds succeeded (`kb add` exited 1 for it)."""

from __future__ import annotations

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
