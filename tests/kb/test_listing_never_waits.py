"""Listing a folder never waits on what it looks into: ``kb add /proc`` hung for good, reading /proc/kmsg (a
regular file by its look, 0 bytes, whose read waits for the kernel's next message) to tell whether it was text,
and a named pipe called CACHEDIR.TAG waited for a writer when opened to see whether its folder was a cache."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from tinyrag_desktop.kb import Importer, open_store
from tinyrag_desktop.kb.import_items import ImportItem, expand
from tinyrag_desktop.kb.import_report import ImportReport

NOTE = "# Kettles\n\nDescale the kettle with citric acid every month in hard-water areas.\n"


def _listed(folder: Path, release: Path | None = None) -> tuple[list[ImportItem], ImportReport]:
    """expand() of ``folder`` on a thread, failing the test if it does not end in 10 s (after opening the pipe
    ``release`` for writing, which lets a listing stuck on it go on)."""
    report = ImportReport()
    out: list[list[ImportItem]] = []
    thread = threading.Thread(target=lambda: out.append(expand([ImportItem("path", str(folder))], report)),
                              daemon=True)
    thread.start()
    thread.join(10)
    if thread.is_alive() and release is not None:
        os.close(os.open(release, os.O_WRONLY | os.O_NONBLOCK))
        thread.join(10)
        pytest.fail("the listing waited on a named pipe")
    assert not thread.is_alive(), "the listing hung"
    return out[0], report


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are a POSIX thing")
def test_a_named_pipe_where_a_cache_tag_would_be_is_not_waited_on(tmp_path):
    folder = tmp_path / "docs"
    (folder / "cache").mkdir(parents=True)
    (folder / "cache" / "notes.md").write_text(NOTE)
    os.mkfifo(folder / "cache" / "CACHEDIR.TAG")
    todo, report = _listed(folder, release=folder / "cache" / "CACHEDIR.TAG")
    assert [i.value for i in todo] == [str(folder / "cache" / "notes.md")]  # not a cache folder: read


def test_a_file_that_says_0_bytes_is_not_read_to_tell_its_kind(tmp_path):
    """A link to /proc/kmsg stands for the files of /proc: no extension, 0 bytes by their size, made as they are
    read; kmsg's read waits while the kernel has nothing new to say."""
    if not os.access("/proc/kmsg", os.R_OK):
        pytest.skip("needs /proc/kmsg readable (Linux, as root)")
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "notes.md").write_text(NOTE)
    (folder / "kmsg").symlink_to("/proc/kmsg")
    (folder / "EMPTY").write_bytes(b"")
    todo, report = _listed(folder)
    assert [i.value for i in todo] == [str(folder / "notes.md")]
    skipped = {Path(f.location).name: f.reason for f in report.skipped}
    assert skipped == {"EMPTY": "the file is empty", "kmsg": "the file is empty"}


def test_cancel_ends_the_listing_of_a_folder_too(tmp_path, data_dir):
    # Cancel in the panel while "Listing what to import…" waited for the whole folder to be listed (/usr: 9 s),
    # then left out each of its files by name
    folder = tmp_path / "docs"
    for n in range(30):
        (folder / f"part{n}").mkdir(parents=True)
        (folder / f"part{n}" / "note.md").write_text(NOTE)
        (folder / f"part{n}" / ".hidden").write_text("a hidden file, said skipped when its folder is listed\n")
    cancel = threading.Event()
    listed: list[str] = []

    def spelled(path: str) -> str:  # called for each file the listing takes: Cancel is clicked at the first
        listed.append(path)
        cancel.set()
        return path

    with open_store(data_dir) as kb:
        importer = Importer(kb, cancel=cancel)
        report = ImportReport()
        expand([ImportItem("path", str(folder))], report, spelled=spelled, stop=cancel.is_set)
        assert len(listed) == 1 and len(report.skipped) <= 1  # no further folder looked into
        cancel.set()
        report = importer.run([str(folder)])
    assert report.cancelled and report.left_out == [str(folder)] and not report.skipped
    assert "cancelled: docs not imported" in report.summary()
