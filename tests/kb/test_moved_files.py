"""A folder moved since its import is not stored twice: each file found under its new path with the same
bytes, its old path gone, has its source moved (passages and vectors kept), and the summary says "N moved".
Passages of one text from two sources (as older versions stored a moved folder) take one place in a search,
the one whose file is there."""

from __future__ import annotations

import shutil
from pathlib import Path

from tinyrag_desktop.kb import Importer, ingest, open_store, search

from .cli_run import run_main


def _docs(folder: Path, count: int = 6) -> Path:
    folder.mkdir(parents=True)
    for n in range(count):
        (folder / f"n{n}.md").write_text(f"# Note {n}\n\nThe kumquat note {n} is about fruit number {n}; "
                                         f"see [the next note](n{(n + 1) % count}.md) for more on pears.\n")
    return folder


def _sources(data: Path) -> list[tuple[int, str]]:
    with open_store(data) as kb:
        return sorted((s.id, s.location) for s in kb.sources())


def test_kb_add_of_a_moved_folder_moves_its_sources(tmp_path, capsys):
    data, docs_a = tmp_path / "data", _docs(tmp_path / "docsA")
    code, out, _ = run_main(capsys, "--data-dir", str(data), "add", str(docs_a))
    assert out.startswith("6 added")
    with open_store(data) as kb:
        chunks = sorted(kb.conn.execute("SELECT id, source_id FROM chunks"))
    docs_b = tmp_path / "docsB"
    docs_a.rename(docs_b)
    code, out, err = run_main(capsys, "--data-dir", str(data), "add", str(docs_b))
    assert code == 0 and out == "0 added, 0 updated, 0 unchanged, 6 moved (0 chunks stored)\n"
    assert [location for _, location in _sources(data)] == [str(docs_b / f"n{n}.md") for n in range(6)]
    with open_store(data) as kb:
        assert sorted(kb.conn.execute("SELECT id, source_id FROM chunks")) == chunks  # kept, not read again
        targets = {t for (t,) in kb.conn.execute("SELECT target FROM links")}
    assert targets == {str(docs_b / f"n{n}.md") for n in range(6)}  # the links follow the files
    assert {hit.location for hit in search(data, "pears", 10)} <= {str(docs_b / f"n{n}.md") for n in range(6)}
    hits = search(data, "kumquat", 10)
    assert sorted(hit.location for hit in hits) == [str(docs_b / f"n{n}.md") for n in range(6)]
    code, out, err = run_main(capsys, "--data-dir", str(data), "add", str(docs_b))
    assert out.startswith("0 added, 0 updated, 6 unchanged")


def test_the_window_says_it_in_words(tmp_path):
    data, docs_a = tmp_path / "data", _docs(tmp_path / "docsA", 2)
    with open_store(data) as kb:
        Importer(kb).run([str(docs_a)])
        docs_a.rename(tmp_path / "docsB")
        report = Importer(kb).run([str(tmp_path / "docsB")])
    assert report.in_words() == "2 moved (found under a new path)"


def test_a_copy_beside_the_original_is_a_source_of_its_own(tmp_path):
    data, docs_a = tmp_path / "data", _docs(tmp_path / "docsA", 2)
    shutil.copytree(docs_a, tmp_path / "copy")
    with open_store(data) as kb:
        Importer(kb).run([str(docs_a)])
        report = Importer(kb).run([str(tmp_path / "copy")])
    assert len(report.added) == 2 and report.moved == []
    assert len(_sources(data)) == 4
    hits = search(data, "kumquat", 5)  # both files are there: one place for each text all the same
    assert len(hits) == 2 and len({hit.text for hit in hits}) == 2


def test_a_search_gives_one_place_to_one_text_the_copy_whose_file_is_there(tmp_path, monkeypatch):
    # as an older version stored a moved folder: every file twice, the old copies' files gone
    data, docs_a = tmp_path / "data", _docs(tmp_path / "docsA", 3)
    monkeypatch.setattr(ingest, "moved_source", lambda kb, location, digest: None)
    monkeypatch.setattr(ingest, "left_behind", lambda kb, location, digest, folder_gone=False: [])
    with open_store(data) as kb:
        Importer(kb).run([str(docs_a)])
        docs_b = tmp_path / "docsB"
        docs_a.rename(docs_b)
        Importer(kb).run([str(docs_b)])
        assert len(kb.sources()) == 6
    hits = search(data, "kumquat", 5)
    assert len(hits) == 3 and len({hit.text for hit in hits}) == 3
    assert sorted(hit.location for hit in hits) == [str(docs_b / f"n{n}.md") for n in range(3)]
    [hit] = search(data, "kumquat note 1", 1)
    assert hit.location == str(docs_b / "n1.md")


def test_the_copies_an_older_version_left_behind_are_removed_at_the_next_import(tmp_path, monkeypatch):
    data, docs_a = tmp_path / "data", _docs(tmp_path / "docsA", 3)
    docs_b = tmp_path / "docsB"
    with open_store(data) as kb:
        with monkeypatch.context() as older:
            older.setattr(ingest, "moved_source", lambda kb, location, digest: None)
            older.setattr(ingest, "left_behind", lambda kb, location, digest, folder_gone=False: [])
            Importer(kb).run([str(docs_a)])
            docs_a.rename(docs_b)
            Importer(kb).run([str(docs_b)])
        assert len(kb.sources()) == 6
        report = Importer(kb).run([str(docs_b)])
    assert len(report.unchanged) == 3 and sorted(report.removed) == [str(docs_a / f"n{n}.md") for n in range(3)]
    assert [location for _, location in _sources(data)] == [str(docs_b / f"n{n}.md") for n in range(3)]
