"""A large log or data file found in a folder is skipped with its reason (a 60 MB log beside a manual made
70% of the passages and took places in searches about the manual); named by itself, it is imported."""

from __future__ import annotations

from tinyrag_desktop.kb import Importer, open_store
from tinyrag_desktop.kb import import_items


def test_a_large_log_in_a_folder_is_left_out_with_its_reason_and_imported_by_itself(tmp_path, monkeypatch):
    monkeypatch.setattr(import_items, "FOLDER_DATA_BYTES", 20_000)
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "guide.md").write_text("# Guide\n\nHow to rotate the server's logs.\n", encoding="utf-8")
    (folder / "server.log").write_text("2026-12-01 12:00:00 INFO request served in 3 ms\n" * 1000, encoding="utf-8")
    (folder / "small.log").write_text("2026-12-01 12:00:00 ERROR disk full\n", encoding="utf-8")
    (folder / "big.md").write_text("# Big\n\n" + "A long manual page about logs. " * 1000, encoding="utf-8")
    with open_store(tmp_path / "data") as kb:
        report = Importer(kb).run([str(folder)])
        stored = sorted(s.title for s in kb.sources())
        reasons = {f.location.rsplit("/", 1)[-1]: f.reason for f in report.skipped}
        assert reasons.keys() == {"server.log"}
        assert reasons["server.log"].startswith("a 0 MB log: logs and data files over 0 MB are left out")
        assert reasons["server.log"].endswith("add the file by itself to import it")
        assert len(stored) == 3  # the guide, the small log and the long Markdown page (not a data file)
        alone = Importer(kb).run([str(folder / "server.log")])
        assert len(alone.added) == 1 and not alone.skipped
