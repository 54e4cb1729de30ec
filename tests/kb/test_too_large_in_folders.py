"""A file over the size an import reads, found in a folder, is skipped with its size, as the README says
("the files a folder holds that it leaves out by design, hidden, unsupported or too large, are listed as
skipped, which is no failure"): it was failed, and a 70 MB text file beside the notes made `kb add` of the
folder exit 1. Named by itself, it still fails: what the user asked for was not imported. So is a .gz file
that is too large once uncompressed (it was still failed in a folder: a log.gz made `kb add` exit 1)."""

from __future__ import annotations

import gzip

import pytest

from tinyrag_desktop.kb import Importer, open_store

_DUMP = b"the same line again\n" * 200_000  # 4 MB


@pytest.mark.parametrize("name, data, reason", [
    ("dump.txt", _DUMP, "too large (4 MB; the limit is 1 MB)"),
    ("dump.txt.gz", gzip.compress(_DUMP), "too large once uncompressed (over 1 MB, the limit)")])
def test_a_too_large_file_is_skipped_in_a_folder_and_fails_named_by_itself(data_dir, tmp_path, name, data, reason):
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "small.md").write_text("# Herons\n\nHerons wade in the shallows.\n")
    (folder / name).write_bytes(data)
    with open_store(data_dir) as kb:
        in_folder = Importer(kb, max_file_bytes=2**20).run([str(folder)])
        named = Importer(kb, max_file_bytes=2**20).run([str(folder / name)])
    assert [p.rsplit("/", 1)[-1] for p in in_folder.added] == ["small.md"]
    assert not in_folder.failed, in_folder.failed
    assert [(f.location.rsplit("/", 1)[-1], f.reason) for f in in_folder.skipped] == [(name, reason)]
    assert [f.reason for f in named.failed] == [reason]


def test_a_file_that_says_0_bytes_and_holds_more_than_the_limit_fails_named_by_itself(
        data_dir, tmp_path, monkeypatch):
    """A file of /proc says it holds 0 bytes, and may hold more than the limit: what is read is measured, and
    past the limit the file fails as too large, not imported cut short."""
    from pathlib import Path

    dump = tmp_path / "dump.txt"
    dump.write_bytes(_DUMP)
    stat = Path.stat

    class SaysEmpty:
        """``dump.txt``'s look, as /proc's files say theirs: 0 bytes."""

        def __init__(self, real):
            self._real = real

        def __getattr__(self, name):
            return 0 if name == "st_size" else getattr(self._real, name)

    monkeypatch.setattr(Path, "stat", lambda self, **kw: SaysEmpty(stat(self, **kw)) if self == dump
                        else stat(self, **kw))
    with open_store(data_dir) as kb:
        named = Importer(kb, max_file_bytes=2**20).run([str(dump)])
    assert [f.reason for f in named.failed] == ["too large (more than the limit of 1 MB)"]
    assert not named.added
