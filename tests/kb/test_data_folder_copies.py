"""A copy of a tinyRAG data folder (a backup made as the README advises, by copying the whole folder) inside
a folder that is imported is left out: its settings hold the API key. Sources an older version imported
from such a copy are removed once, as those from the data folder itself are (own_data.py)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tinyrag_desktop.kb import Importer, import_items, open_store, search
from tinyrag_desktop.kb.import_items import DATA_COPY, DATA_COPY_FILE
from tinyrag_desktop.kb.own_data import sweep

from .cli_run import run_main

KEY = "SUPERSECRETKEY123"


def _documents(tmp_path: Path) -> tuple[Path, Path, Path]:
    """The data folder, a Documents folder with a note, and in it a backup copy of the data folder (its
    settings, databases and log), made by copying the whole folder."""
    data = tmp_path / "data"
    with open_store(data) as kb:  # the app's knowledge.db
        assert kb is not None
    (data / "settings.json").write_text(json.dumps({"api_key": f"sk-{KEY}"}))
    (data / "logs").mkdir()
    (data / "logs" / "tinyrag.log").write_text(f"INFO key sk-{KEY}\n")
    (data / "chats.sqlite3").write_bytes(b"SQLite format 3\0")
    docs = tmp_path / "Documents"
    docs.mkdir()
    (docs / "plan.md").write_text("# Plan\n\nPlant the tulips in October.\n")
    backup = docs / "tinyrag backup 2026-11"
    (backup / "logs").mkdir(parents=True)
    for name in ("settings.json", "logs/tinyrag.log", "knowledge.db", "chats.sqlite3"):
        (backup / name).write_bytes((data / name).read_bytes())
    return data, docs, backup


def _locations(data: Path) -> list[str]:
    with open_store(data) as kb:
        return sorted(s.location for s in kb.sources())


def test_a_copy_of_the_data_folder_in_an_imported_folder_is_skipped_with_its_reason(tmp_path, capsys):
    data, docs, backup = _documents(tmp_path)
    code, out, err = run_main(capsys, "--data-dir", str(data), "add", str(docs))
    assert code == 0 and out.startswith("1 added")
    assert f"{backup}: {DATA_COPY}" in err
    assert "a tinyRAG data folder (a copy or backup): its settings (which may hold the API key)" in DATA_COPY
    assert _locations(data) == [str(docs / "plan.md")]
    code, out, err = run_main(capsys, "--data-dir", str(data), "search", KEY)
    assert KEY not in out


def test_a_copys_files_named_by_themselves_or_the_copy_named_are_refused(tmp_path):
    data, docs, backup = _documents(tmp_path)
    os.symlink(backup / "settings.json", docs / "app.json")  # a link into a copy, in a folder
    with open_store(data) as kb:
        report = Importer(kb).run([str(backup / "settings.json"), str(backup / "logs" / "tinyrag.log"),
                                   str(backup), str(backup / "logs"), str(docs)])
    assert [Path(p).name for p in report.added] == ["plan.md"]
    assert sorted((Path(f.location).name, f.reason) for f in report.skipped) == sorted([
        ("settings.json", DATA_COPY_FILE), ("tinyrag.log", DATA_COPY_FILE), (backup.name, DATA_COPY),
        ("logs", DATA_COPY), ("settings.json", DATA_COPY_FILE),  # the link: by the file it leads to
        (backup.name, DATA_COPY)])  # met in the folder's walk
    assert search(data, KEY, 5) == []


def test_a_projects_own_settings_and_logs_are_still_imported(tmp_path):
    data, docs, backup = _documents(tmp_path)
    project = docs / "project"
    (project / "logs").mkdir(parents=True)
    (project / "settings.json").write_text(json.dumps({"theme": "okapi-green"}))
    (project / "logs" / "build.log").write_text("built the okapi\n")
    (project / "knowledge.md").write_text("# Knowledge\n\nokapi facts\n")
    with open_store(data) as kb:
        report = Importer(kb).run([str(project), str(project / "settings.json")])
    assert sorted(Path(p).name for p in report.added) == ["build.log", "knowledge.md", "settings.json"]


@pytest.fixture
def imported_by_an_older_version(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path, Path]:
    data, docs, backup = _documents(tmp_path)
    with monkeypatch.context() as older:  # an older version's walk, which took the copy in
        older.setattr(import_items, "is_data_folder", lambda folder: False)
        older.setattr(import_items, "data_folder_around", lambda path: "")
        with open_store(data) as kb:
            report = Importer(kb).run([str(docs)])
    assert sorted(Path(p).name for p in report.added) == ["plan.md", "settings.json", "tinyrag.log"]
    assert search(data, KEY, 5)
    return data, docs, backup


def test_sources_an_older_version_imported_from_a_copy_are_removed_once(imported_by_an_older_version):
    data, docs, backup = imported_by_an_older_version
    notes = sweep(data)
    assert len(notes) == 1 and notes[0].startswith("Removed 2 sources that an earlier version imported from "
                                                   "tinyRAG's own data folder or a copy of it")
    assert "settings.json holds your API key" in notes[0]
    assert _locations(data) == [str(docs / "plan.md")]
    assert search(data, KEY, 5) == []
    assert sweep(data) == []


def test_a_copy_deleted_since_is_not_looked_for(imported_by_an_older_version):
    # whether a folder was a copy is known only from the disk: a project's settings.json must stay
    data, docs, backup = imported_by_an_older_version
    for name in ("knowledge.db", "chats.sqlite3"):
        (backup / name).unlink()
    assert sweep(data) == []
    assert len(_locations(data)) == 3


def test_a_copy_of_a_data_folder_without_settings_is_skipped_too(tmp_path, capsys):
    # A data folder only `kb add` has used has no settings.json: its copy gave its log to the knowledge base.
    import shutil

    made = tmp_path / "made"
    (tmp_path / "note.md").write_text("# Note\n\nThe otter sleeps.\n")
    code, _out, _err = run_main(capsys, "--data-dir", str(made), "add", str(tmp_path / "note.md"))
    assert code == 0 and not (made / "settings.json").exists() and (made / "logs" / "tinyrag.log").is_file()
    docs = tmp_path / "bk"
    docs.mkdir()
    (docs / "plan.md").write_text("# Plan\n\nPlant the tulips in October.\n")
    backup = docs / "backup"
    shutil.copytree(made, backup)
    data = tmp_path / "data"
    code, out, err = run_main(capsys, "--data-dir", str(data), "add", str(docs))
    assert code == 0 and out.startswith("1 added"), (out, err)
    assert f"{backup}: {DATA_COPY}" in err
    assert _locations(data) == [str(docs / "plan.md")]
    code, _out, err = run_main(capsys, "--data-dir", str(data), "add", str(backup / "logs" / "tinyrag.log"))
    assert f"{backup / 'logs' / 'tinyrag.log'}: {DATA_COPY_FILE}" in err
    assert _locations(data) == [str(docs / "plan.md")]


def test_a_folder_with_a_database_of_that_name_but_no_mark_of_tinyrag_is_imported(tmp_path):
    data = tmp_path / "data"
    project = tmp_path / "project"
    (project / "logs").mkdir(parents=True)
    (project / "knowledge.db").write_bytes(b"SQLite format 3\0")
    (project / "logs" / "build.log").write_text("built the okapi\n")
    with open_store(data) as kb:
        report = Importer(kb).run([str(project)])
    assert [Path(p).name for p in report.added] == ["build.log"]
