"""A file over the size an import reads, found in a folder, is skipped with its size, as the README says
("the files a folder holds that it leaves out by design, hidden, unsupported or too large, are listed as
skipped, which is no failure"): it was failed, and a 70 MB text file beside the notes made `kb add` of the
folder exit 1. Named by itself, it still fails: what the user asked for was not imported."""

from __future__ import annotations

import gzip

from tinyrag_desktop.kb import Importer, open_store


def test_a_too_large_file_is_skipped_in_a_folder_and_fails_named_by_itself(data_dir, tmp_path):
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "small.md").write_text("# Herons\n\nHerons wade in the shallows.\n")
    (folder / "dump.txt").write_text("the same line again\n" * 200_000)  # 4 MB
    with open_store(data_dir) as kb:
        in_folder = Importer(kb, max_file_bytes=2**20).run([str(folder)])
        named = Importer(kb, max_file_bytes=2**20).run([str(folder / "dump.txt")])
    assert [p.rsplit("/", 1)[-1] for p in in_folder.added] == ["small.md"]
    assert not in_folder.failed, in_folder.failed
    assert [(f.location.rsplit("/", 1)[-1], f.reason) for f in in_folder.skipped] == [
        ("dump.txt", "too large (4 MB; the limit is 1 MB)")]
    assert [f.reason for f in named.failed] == ["too large (4 MB; the limit is 1 MB)"]


def test_a_gz_too_large_once_uncompressed_is_skipped_in_a_folder_and_fails_named_by_itself(data_dir, tmp_path):
    # a .gz was still failed in a folder: a log.gz of 4 MB once unpacked made `kb add` of the folder exit 1
    folder = tmp_path / "logs"
    folder.mkdir()
    (folder / "small.md").write_text("# Herons\n\nHerons wade in the shallows.\n")
    (folder / "dump.txt.gz").write_bytes(gzip.compress(b"the same line again\n" * 200_000))
    with open_store(data_dir) as kb:
        in_folder = Importer(kb, max_file_bytes=2**20).run([str(folder)])
        named = Importer(kb, max_file_bytes=2**20).run([str(folder / "dump.txt.gz")])
    assert [p.rsplit("/", 1)[-1] for p in in_folder.added] == ["small.md"]
    assert not in_folder.failed, in_folder.failed
    assert [(f.location.rsplit("/", 1)[-1], f.reason) for f in in_folder.skipped] == [
        ("dump.txt.gz", "too large once uncompressed (over 1 MB, the limit)")]
    assert [f.reason for f in named.failed] == ["too large once uncompressed (over 1 MB, the limit)"]
