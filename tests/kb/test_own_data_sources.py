"""Sources an older version imported from tinyRAG's own data folder (settings.json with its API key, the
log) are removed once, and said once: as the knowledge base is opened to write (``kb add``, ``kb list``,
the panel), at the window's start and before ``kb search`` (own_data.sweep). The user's own files stay:
files of the same name elsewhere, in a folder whose name merely starts the same, or their own notes kept
in the data folder."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tinyrag_desktop.kb import Importer, import_items, ingest, open_store, search
from tinyrag_desktop.kb.own_data import OWN_FILES, said, sweep

from .cli_run import run_main


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A home folder imported whole by an older version, which did not leave the data folder out: the
    data folder (settings, log), the user's project with a settings.json of its own, and a folder whose
    name starts as the data folder's does."""
    home = tmp_path / "home"
    data = home / "tinyrag"
    (data / "logs").mkdir(parents=True)
    (data / "settings.json").write_text(json.dumps({"api_key": "sk-zebrasecret123"}))
    (data / "logs" / "tinyrag.log").write_text("INFO started with key zebrasecret123\n")
    (data / "okapi.md").write_text("# Okapi\n\nA note of the user's own, kept in the data folder.\n")
    (home / "project").mkdir()
    (home / "project" / "settings.json").write_text(json.dumps({"theme": "okapi-green"}))
    (home / "tinyrag-old").mkdir()
    (home / "tinyrag-old" / "notes.md").write_text("# Old notes\n\nThe okapi lives in the Ituri forest.\n")
    real_expand = ingest.expand
    with monkeypatch.context() as older:  # an older version's walk: no data folder of any kind left out
        older.setattr(ingest, "expand", lambda items, report, walked=None, own="", spelled=None, stop=None:
                      real_expand(items, report, walked, "", spelled, stop))
        older.setattr(import_items, "is_data_folder", lambda folder: False)
        older.setattr(import_items, "data_folder_around", lambda path: "")
        with open_store(data) as kb:
            report = Importer(kb).run([str(home)])
    assert len(report.added) == 5  # as an older version stored them
    return home


def _locations(data: Path) -> list[str]:
    with open_store(data) as kb:
        return sorted(s.location for s in kb.sources())


def test_opening_to_write_removes_them_once_and_keeps_the_users_files(home):
    data = home / "tinyrag"
    with open_store(data) as kb:
        assert kb.removed_own == [str(data / "logs" / "tinyrag.log"), str(data / "settings.json")]
        assert sorted(s.location for s in kb.sources()) == sorted([
            str(home / "project" / "settings.json"), str(data / "okapi.md"), str(home / "tinyrag-old" / "notes.md")])
    assert search(data, "zebrasecret123", 5) == []
    assert search(data, "okapi", 5)  # the user's own files are still found
    with open_store(data) as kb:
        assert kb.removed_own == []  # said once


def test_the_data_folder_named_through_a_link_is_the_same_folder(home, tmp_path):
    link = tmp_path / "linked-data"
    os.symlink(home / "tinyrag", link)  # sources are stored under real paths
    with open_store(link) as kb:
        assert [Path(p).name for p in kb.removed_own] == ["tinyrag.log", "settings.json"]


def test_the_windows_start_sweeps_before_anything_searches(home):
    data = home / "tinyrag"
    notes = sweep(data)
    assert notes == [said([str(data / "logs" / "tinyrag.log"), str(data / "settings.json")])]
    assert notes[0].startswith("Removed 2 sources that an earlier version imported from tinyRAG's own data "
                               "folder or a copy of it (tinyrag.log, settings.json)")
    assert sweep(data) == []
    assert _locations(data) == sorted([str(home / "project" / "settings.json"), str(data / "okapi.md"),
                                       str(home / "tinyrag-old" / "notes.md")])


def test_a_normal_start_opens_nothing_to_write(tmp_path, monkeypatch):
    data = tmp_path / "data"
    assert sweep(data) == []  # no knowledge base yet: none is made
    assert not data.exists()
    (tmp_path / "notes.md").write_text("# Notes\n\nMeet at the quay.\n")
    with open_store(data) as kb:
        Importer(kb).run([str(tmp_path / "notes.md")])
    from tinyrag_desktop.kb import store

    monkeypatch.setattr(store, "KnowledgeBase", None)  # would fail if sweep opened it to write
    assert sweep(data) == []


def test_kb_search_says_it_and_finds_no_key(home, capsys):
    data = home / "tinyrag"
    code, out, err = run_main(capsys, "--data-dir", str(data), "search", "zebrasecret123")
    assert code == 0 and "zebrasecret123" not in out
    assert "note: Removed 2 sources that an earlier version imported from tinyRAG's own data folder" in err
    code, out, err = run_main(capsys, "--data-dir", str(data), "search", "okapi")
    assert "okapi" in out.lower() and "Removed" not in err


def test_kb_list_says_it_once(home, capsys):
    data = home / "tinyrag"
    code, out, err = run_main(capsys, "--data-dir", str(data), "list")
    assert code == 0 and "settings.json holds your API key" in err
    assert str(data / "settings.json") not in out and str(home / "project" / "settings.json") in out
    code, out, err = run_main(capsys, "--data-dir", str(data), "list")
    assert "Removed" not in err


def test_the_panel_says_it_as_it_lists_the_sources(qtbot, home):
    from tinyrag_desktop.settings import defaults
    from tinyrag_desktop.ui.kb_panel import KnowledgePanel

    panel = KnowledgePanel(home / "tinyrag", lambda: defaults())
    qtbot.add_widget(panel)
    try:
        assert panel.source_count() == 3
        assert panel.status_label.text().startswith("Removed 2 sources that an earlier version imported")
    finally:
        panel.shutdown()


def test_a_file_of_the_data_folder_named_by_itself_or_linked_is_not_imported(tmp_path, capsys):
    # kb add DATA/settings.json imported it, and the next open would have removed it as an older version's
    data = tmp_path / "data"
    data.mkdir()
    (data / "settings.json").write_text(json.dumps({"api_key": "sk-zebrasecret123"}))
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "plan.md").write_text("# Plan\n\nPlant the tulips.\n")
    os.symlink(data / "settings.json", folder / "app-settings.json")
    code, out, err = run_main(capsys, "--data-dir", str(data), "add", str(data / "settings.json"), str(folder))
    assert out.startswith("1 added")
    assert f"skipped: {data / 'settings.json'}: {import_items.OWN_FOLDER}" in err
    assert _locations(data) == [str(folder / "plan.md")]


def test_every_file_the_readme_lists_in_the_data_folder_is_the_apps(tmp_path):
    # the README's table of the data folder is the list of what the app writes there
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    table = readme.split("## Your data folder", 1)[1].split("\n\n**", 1)[0]
    names = [line.split("`")[1] for line in table.splitlines() if line.startswith("| `")]
    assert len(names) >= 10
    for name in names:
        path = f"{name}x.txt" if name.endswith("/") else name  # a file in a folder the app fills
        assert OWN_FILES.fullmatch(path), name
    for own in ["settings.json.bad-2", "chats.sqlite3-wal", "chats.sqlite3.damaged", "logs/tinyrag.log.1",
                "import-4242.unfinished", "work/out/result.csv"]:
        assert OWN_FILES.fullmatch(own), own
    for users in ["notes.md", "my settings.json", "settings.md", "logs.txt", "project/settings.json"]:
        assert not OWN_FILES.fullmatch(users), users
