"""A source of many alike passages does not hide the others: a log of 100,000 identical lines (3,000 identical
passages) took every candidate's place, and ``kb search narwhal`` showed the log alone, not the five notes
naming the narwhal service; the panel's Search tab and the model's rag_knowledge (find_passages) the same."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest

from tinyrag_desktop.kb import Importer, open_store, search
from tinyrag_desktop.kb.search import _candidates, open_readonly
from tinyrag_desktop.tools.rag import find_passages

from .cli_run import run_main

NOTES = [f"note{i}.txt" for i in range(5)]


def _folder(root: Path, line: str) -> Path:
    folder = root / "c4"
    folder.mkdir()
    (folder / "app.log").write_text("".join(line.format(n=n) for n in range(100_000)), encoding="utf-8")
    for i, name in enumerate(NOTES):
        (folder / name).write_text(f"Note {i}: the narwhal service owner is team {i}.\n", encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def identical_lines(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _folder(tmp_path_factory.mktemp("identical"), "ERROR connection to narwhal refused\n")


def test_kb_search_shows_the_log_once_and_every_note(identical_lines, tmp_path, capsys):
    code, out, err = run_main(capsys, "--data-dir", str(tmp_path / "D"), "add", str(identical_lines))
    assert code == 0, err
    assert out.startswith("6 added")
    code, out, err = run_main(capsys, "--data-dir", str(tmp_path / "D"), "search", "narwhal", "--k", "10")
    assert code == 0, err
    shown = re.findall(r"^\[\d+\] (\S+)", out, re.M)
    assert shown[0] == "app.log" and sorted(shown[1:]) == NOTES


def test_find_passages_gives_the_model_the_notes_too(identical_lines, tmp_path):
    with open_store(tmp_path / "D") as kb:
        Importer(kb).run([str(identical_lines)])
    hits = asyncio.run(find_passages({}, tmp_path / "D", "narwhal", 5))
    names = [Path(h.location).name for h in hits]
    assert names[0] == "app.log" and len(set(names[1:]) & set(NOTES)) == 4


def test_log_lines_that_differ_only_in_their_times_do_not_hide_the_notes(tmp_path, capsys):
    folder = _folder(tmp_path, "2026-12-05 03:{n:05d} ERROR connection to narwhal refused\n")
    data_dir = tmp_path / "D"
    assert run_main(capsys, "--data-dir", str(data_dir), "add", str(folder))[0] == 0
    hits = search(data_dir, "narwhal refused", 10)
    names = [Path(h.location).name for h in hits]
    assert names[0] == "app.log"
    assert set(NOTES) <= set(names)  # the other places: more of the log's passages, each different


def test_a_chunk_is_a_candidate_once_when_more_than_a_hundred_sources_are_one_document(tmp_path):
    # 350 days' app.log count as one document (a title and a file name): the second query, for other sources,
    # left out the first 100 sources' chunks only, and 200 chunks came back twice.
    for day in range(350):
        (tmp_path / "c4" / f"day{day:03d}").mkdir(parents=True)
        (tmp_path / "c4" / f"day{day:03d}" / "app.log").write_text(f"ERROR narwhal refused {day}\n", encoding="utf-8")
    for i, name in enumerate(NOTES):
        (tmp_path / "c4" / name).write_text(f"Note {i}: the narwhal service owner is team {i}.\n", encoding="utf-8")
    with open_store(tmp_path / "D") as kb:
        Importer(kb).run([str(tmp_path / "c4")])
    conn = open_readonly(tmp_path / "D")
    try:
        ids = [h.chunk_id for h in _candidates(conn, ["narwhal"], 300, 5, {})]
    finally:
        conn.close()
    assert len(ids) == len(set(ids)) == 355  # every log's and every note's chunk, once
