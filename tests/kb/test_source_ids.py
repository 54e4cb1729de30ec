"""A removed source's id is never given to another: a script holding ``kb list``'s ids from before a
``kb remove`` must not remove what was imported after it (SQLite gives the highest id again)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.kb.cli_run import run_main
from tinyrag_desktop.kb import open_store


def _ids(capsys: pytest.CaptureFixture[str], data: Path) -> dict[str, int]:
    code, out, _ = run_main(capsys, "list", "--jsonl", "--data-dir", str(data))
    assert code == 0
    return {Path(row["location"]).name: row["source_id"] for row in map(json.loads, out.splitlines())}


def _note(folder: Path, name: str) -> Path:
    path = folder / name
    path.write_text(f"# {name}\n\nThe {name[:-3]} note about puffins on the cliff.\n", encoding="utf-8")
    return path


def test_the_id_of_a_removed_source_is_not_given_to_the_next_import(tmp_path, capsys) -> None:
    data = tmp_path / "data"
    first, second = _note(tmp_path, "first.md"), _note(tmp_path, "second.md")
    assert run_main(capsys, "add", str(first), str(second), "--data-dir", str(data))[0] == 0
    before = _ids(capsys, data)
    assert run_main(capsys, "remove", str(before["second.md"]), "--data-dir", str(data))[0] == 0

    assert run_main(capsys, "add", str(_note(tmp_path, "third.md")), "--data-dir", str(data))[0] == 0
    after = _ids(capsys, data)
    assert after["third.md"] > before["second.md"]
    # The script's old id removes nothing now, and says so.
    code, _, err = run_main(capsys, "remove", str(before["second.md"]), "--data-dir", str(data))
    assert code != 0 and err
    assert set(_ids(capsys, data)) == {"first.md", "third.md"}


def _stored(kb, path: Path) -> int:
    return kb.replace_source(title=path.stem, location=str(path), type="md", size=1, content_hash=path.stem,
                             chunks=[], load_id="load")


def test_ids_stay_unused_after_the_store_is_opened_again_and_after_removing_all(tmp_path) -> None:
    data = tmp_path / "data"
    kb = open_store(data)
    assert kb is not None
    ids = [_stored(kb, tmp_path / f"n{n}.md") for n in range(3)]
    assert kb.remove_sources(ids) == 3
    kb.close()
    kb = open_store(data)
    assert kb is not None
    try:
        assert _stored(kb, tmp_path / "n0.md") == ids[-1] + 1
    finally:
        kb.close()
