"""Files read just before a large one are stored before it is read, not kept waiting for it (an import
killed meanwhile lost them); a cancelled import's summary names what it left out."""

from __future__ import annotations

import sqlite3
import threading
from contextlib import closing
from pathlib import Path

from tinyrag_desktop.kb import Importer, open_store
from tinyrag_desktop.kb.store_file import DB_NAME


def _committed(data_dir: Path) -> list[str]:
    with closing(sqlite3.connect(f"{(data_dir / DB_NAME).as_uri()}?mode=ro", uri=True)) as conn:
        return [Path(row[0]).name for row in conn.execute("SELECT location FROM sources ORDER BY location")]


def _folder(tmp_path: Path) -> Path:
    folder = tmp_path / "notes"
    folder.mkdir()
    for n in range(3):
        (folder / f"a{n}.md").write_text(f"# Note {n}\n\nThe puffin{n} colony nests on the cliff.\n")
    lines = (f"2024-01-01 12:00:{n % 60:02d} worker{n % 17} handled request {n}\n" for n in range(40_000))
    (folder / "b_server.log").write_text("".join(lines))  # 2.2 MB: longer to read than STORE_EVERY
    return folder


def test_small_files_are_committed_before_a_large_file_is_read(tmp_path, data_dir):
    folder = _folder(tmp_path)
    seen: dict[str, list[str]] = {}

    def on_progress(progress) -> None:
        if progress.current.endswith("b_server.log"):
            seen["before the log"] = _committed(data_dir)

    with open_store(data_dir) as kb:
        report = Importer(kb, on_progress=on_progress).run([str(folder)])
    assert len(report.added) == 4
    assert seen["before the log"] == ["a0.md", "a1.md", "a2.md"]


def test_a_cancelled_import_names_what_it_left_out(tmp_path, data_dir):
    folder = _folder(tmp_path)
    (folder / "c_last.md").write_text("# Last\n\nThe gannet colony nests on the stack.\n")
    cancel = threading.Event()

    def on_progress(progress) -> None:
        if progress.current.endswith("a2.md"):
            cancel.set()  # Cancel while the last note is read: it is kept, the log and the note after it not

    with open_store(data_dir) as kb:
        report = Importer(kb, cancel=cancel, on_progress=on_progress).run([str(folder)])
    assert report.cancelled and len(report.added) == 3
    assert [Path(p).name for p in report.left_out] == ["b_server.log", "c_last.md"]
    assert report.in_words() == "3 added (3 passages) — cancelled: b_server.log and 1 more not imported"
    assert _committed(data_dir) == ["a0.md", "a1.md", "a2.md"]
