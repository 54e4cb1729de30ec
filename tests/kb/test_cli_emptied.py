"""``kb list`` and ``kb search`` on a knowledge base whose sources were all removed, and kb remove's count."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.kb.cli_run import run_main


@pytest.fixture
def emptied(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """A data folder whose knowledge base held two notes, both removed since."""
    for name, text in (("herons.md", "# Herons\n\nHerons stand still in shallow water.\n"),
                       ("owls.md", "# Owls\n\nOwls hunt at night.\n")):
        (tmp_path / name).write_text(text, encoding="utf-8")
    data = tmp_path / "data"
    code, _, _ = run_main(capsys, "add", "--data-dir", str(data), str(tmp_path / "herons.md"), str(tmp_path / "owls.md"))
    assert code == 0
    assert run_main(capsys, "remove", "--data-dir", str(data), "1", "2") == (0, "2 sources removed\n", "")
    return data


def test_list_of_a_knowledge_base_emptied_by_remove_says_it_is_empty(emptied, capsys):
    # It printed nothing at all, as if the command had not run.
    assert run_main(capsys, "list", "--data-dir", str(emptied)) == (0, "", "the knowledge base is empty\n")
    assert run_main(capsys, "list", "--jsonl", "--data-dir", str(emptied)) == (0, "", "the knowledge base is empty\n")


def test_search_of_a_knowledge_base_emptied_by_remove_says_it_is_empty(emptied, capsys):
    # It said "no matches", as if the documents had been searched and did not cover the question.
    assert run_main(capsys, "search", "--data-dir", str(emptied), "herons") == (0, "", "the knowledge base is empty\n")


def test_remove_counts_its_sources_in_words(emptied, capsys):
    # "1 source(s) removed"
    assert run_main(capsys, "remove", "--data-dir", str(emptied), "1") == (1, "0 sources removed\n",
                                                                          "no source with id 1\n")
    assert run_main(capsys, "add", "--data-dir", str(emptied), str(emptied.parent / "owls.md"))[0] == 0
    [line] = run_main(capsys, "list", "--data-dir", str(emptied))[1].splitlines()[:1]
    source_id = line.split()[0]
    assert run_main(capsys, "remove", "--data-dir", str(emptied), source_id) == (0, "1 source removed\n", "")


def test_an_empty_database_file_is_an_empty_knowledge_base_for_search_as_for_list(tmp_path, capsys):
    # A 0-byte knowledge.db: list said "empty", search "cannot be read: no such table: chunks"
    data = tmp_path / "data"
    data.mkdir()
    (data / "knowledge.db").write_bytes(b"")
    assert run_main(capsys, "search", "--data-dir", str(data), "herons") == (0, "", "the knowledge base is empty\n")
    assert run_main(capsys, "list", "--data-dir", str(data)) == (0, "", "the knowledge base is empty\n")
