"""A folder's import leaves out tinyRAG's own data folder: its settings (an API key), log and databases are
not documents, and must never become searchable."""

from __future__ import annotations

import json
import os
from pathlib import Path

from tinyrag_desktop.kb import Importer, open_store, search
from tinyrag_desktop.kb.import_items import OUTSIDE, OWN_FOLDER

from .cli_run import run_main


def _home(tmp_path: Path) -> tuple[Path, Path]:
    """A home folder with a note, and the data folder inside it (settings, a log, a chat export)."""
    home = tmp_path / "home"
    data = home / "tinyrag"
    (data / "logs").mkdir(parents=True)
    (data / "settings.json").write_text(json.dumps({"api_key": "sk-zebrasecret123"}))
    (data / "logs" / "tinyrag.log").write_text("INFO started with key zebrasecret123\n")
    (data / "notes.md").write_text("# Stray\n\nzebrasecret123 again\n")
    (home / "plan.md").write_text("# Plan\n\nPlant the tulips in October.\n")
    return home, data


def test_a_folder_holding_the_data_folder_imports_around_it(tmp_path):
    home, data = _home(tmp_path)
    with open_store(data) as kb:
        report = Importer(kb).run([str(home)])
    assert [Path(p).name for p in report.added] == ["plan.md"]
    assert [(f.location, f.reason) for f in report.skipped] == [(str(data), OWN_FOLDER)]
    assert search(data, "zebrasecret123", 5) == []
    assert "tinyRAG's own data folder" in OWN_FOLDER


def test_the_data_folder_named_or_linked_is_skipped_too(tmp_path):
    home, data = _home(tmp_path)
    (home / "other").mkdir()
    os.symlink(data / "logs", home / "other" / "applogs")  # reached through a link, under another name
    (home / "other" / "a.txt").write_text("apples\n")
    with open_store(data) as kb:
        report = Importer(kb).run([str(data), str(data / "logs"), str(home)])
    assert sorted(Path(p).name for p in report.added) == ["a.txt", "plan.md"]
    assert sorted(f.location for f in report.skipped if f.reason == OWN_FOLDER) == sorted(
        [str(data), str(data / "logs"), str(data), str(home / "other" / "applogs")])
    with open_store(data) as kb:  # imported by itself, "other" has a link out of it: not followed at all
        report = Importer(kb).run([str(home / "other")])
    assert [(f.location, f.reason) for f in report.skipped] == [(str(home / "other" / "applogs"), OUTSIDE)]


def test_kb_add_says_why_on_the_command_line(tmp_path, capsys):
    home, data = _home(tmp_path)
    code, _, err = run_main(capsys, "--data-dir", str(data), "add", str(home))
    assert code == 0
    assert f"{data}: {OWN_FOLDER}" in err
    code, out, err = run_main(capsys, "--data-dir", str(data), "search", "zebrasecret123")
    assert "zebrasecret123" not in out
