"""A passage imported under many names (a log copied to six files, a README vendored in many folders) is one
result that names the other places it is in, and the places it would have taken go to the next passages: in
``kb search``, in what the model's rag_knowledge is given, in the panel's Search tab, and on the vector side.
Six copies of a log and four notes that name the same service filled ``kb search --k 5`` with the log's line
five times over, or (copies dropped) showed it once with nothing to say that five other files hold it."""

from __future__ import annotations

import asyncio
import importlib
import json
import re
from dataclasses import astuple, replace
from pathlib import Path

import pytest
from PySide6.QtWidgets import QStyleOptionViewItem

from tests.kb.test_panel import _import
from tests.kb.test_panel_results import _search
from tinyrag_desktop.kb import Chunk, Importer, open_store, search
from tinyrag_desktop.kb.coverage import _with_score
from tinyrag_desktop.kb.excerpt import also_in
from tinyrag_desktop.kb.models import Hit
from tinyrag_desktop.kb.nearest import nearest_ids
from tinyrag_desktop.settings import defaults
from tinyrag_desktop.tools.rag import code_pieces, run
from tinyrag_desktop.tools.registry import ToolContext
from tinyrag_desktop.ui.kb_results import ALSO_ROLE

from .cli_run import run_main

LINE = "ERROR connection to narwhal refused by the gateway at the north door"
NOTES = [f"note{i}.txt" for i in range(4)]


def _folder(root: Path, copies: int = 6) -> Path:
    """``copies`` files holding one log line (the last wrapped at another width, with Windows' line ends),
    and four notes that name the narwhal service once each, in longer passages."""
    folder = root / "c4"
    folder.mkdir()
    for n in range(copies - 1):
        (folder / f"copy{n:03d}.log").write_text(f"{LINE}\n", encoding="utf-8")
    (folder / "wrapped.log").write_bytes(LINE.replace(" by ", "\r\nby ").encode() + b"\r\n")
    for i, name in enumerate(NOTES):
        (folder / name).write_text(f"Note {i}: the narwhal service is run by team {i}; ask them on channel {i} "
                                   f"before restarting anything in rack {i}.\n", encoding="utf-8")
    return folder


@pytest.fixture
def copied(tmp_path: Path) -> Path:
    data_dir = tmp_path / "D"
    with open_store(data_dir) as kb:
        Importer(kb).run([str(_folder(tmp_path))])
    return data_dir


def test_kb_search_shows_the_copied_line_once_naming_its_copies_and_every_note(tmp_path, capsys):
    data_dir = tmp_path / "D"
    assert run_main(capsys, "--data-dir", str(data_dir), "add", str(_folder(tmp_path)))[0] == 0
    code, out, err = run_main(capsys, "--data-dir", str(data_dir), "search", "narwhal refused", "--k", "5")
    assert code == 0, err
    shown = re.findall(r"^\[\d+\] (\S+)", out, re.M)
    assert shown[0] == "copy000.log" and sorted(shown[1:]) == NOTES
    assert out.count("refused by the gateway") == 1
    assert "\n    also in: copy001.log, copy002.log, copy003.log + 2 other copies\n" in out
    code, out, err = run_main(capsys, "--data-dir", str(data_dir), "search", "narwhal refused", "--k", "5", "--jsonl")
    rows = [json.loads(line) for line in out.splitlines()]
    assert [Path(p).name for p in rows[0]["also_in"]] == [f"copy00{n}.log" for n in range(1, 5)] + ["wrapped.log"]
    assert [row["also_in"] for row in rows[1:]] == [[]] * 4


def test_the_model_is_given_the_line_once_with_its_copies_and_the_four_notes(copied):
    result = asyncio.run(run("narwhal refused", ToolContext(settings=defaults().replace(k=5), data_dir=copied)))
    assert result.text.count("refused by the gateway") == 1
    assert re.findall(r"^\[(\d)\]", result.text, re.M) == ["1", "2", "3", "4", "5"]
    assert "Also in: copy001.log, copy002.log, copy003.log + 2 other copies\n" in result.text
    assert sorted(Path(p).name for p in result.source.split("\n")[1:]) == NOTES  # the copies are no sources
    # in the window's card, the line is the passage's head, not its text (which a program's is shown as code)
    [head] = [piece for piece, code in code_pieces(result.text) if "Also in:" in piece]
    assert head.startswith("[1] copy000.log\nSource: ")


def test_a_line_copied_to_more_files_than_there_are_candidates_leaves_room_for_the_notes(tmp_path):
    # 150 copies rank above the notes: the best 100 candidates were all the one line, from 100 sources
    data_dir = tmp_path / "D"
    with open_store(data_dir) as kb:
        Importer(kb).run([str(_folder(tmp_path, copies=150))])
    hits = search(data_dir, "narwhal refused", 5)
    assert [Path(h.location).name for h in hits][0].endswith(".log")
    assert sorted(Path(h.location).name for h in hits[1:]) == NOTES
    assert len(hits[0].copies) == 149  # every other copy, not only those among the candidates


def test_copies_do_not_take_the_places_the_notes_get_beside_a_log_of_alike_lines(tmp_path):
    # a log filled the candidates, and the second look, for other sources, was filled by the 150 copies
    folder = _folder(tmp_path, copies=150)
    (folder / "app.log").write_text("".join(f"2026-12-05 03:{n:05d} ERROR narwhal refused\n" for n in range(20_000)),
                                    encoding="utf-8")
    with open_store(tmp_path / "D") as kb:
        Importer(kb).run([str(folder)])
    hits = search(tmp_path / "D", "narwhal refused", 6)
    names = [Path(h.location).name for h in hits]
    assert names[0] == "app.log" and set(names[2:]) == set(NOTES)
    assert len(hits[1].copies) == 149


def _mirrors(data_dir: Path) -> None:
    """150 mirrors of one page, nearest the question by meaning, and four notes a little further."""
    copy, near = [1.0, 0.0, 0.0], [0.8, 0.6, 0.0]
    with open_store(data_dir) as kb:
        for n in range(150):
            kb.replace_source(title=f"copy{n}", location=f"https://mirror{n:03d}.example/page", type="text",
                              size=1, content_hash=f"c{n}", chunks=[Chunk("", "the shared passage")], load_id="t",
                              vectors=[copy], vector_model="emb")
        for n in range(4):
            kb.replace_source(title=f"note{n}", location=f"https://notes.example/{n}", type="text", size=1,
                              content_hash=f"n{n}", chunks=[Chunk("", f"note {n} of its own")], load_id="t",
                              vectors=[near], vector_model="emb")


def test_copies_nearest_a_question_by_meaning_leave_room_for_the_next_passages(data_dir):
    # the vector side's 100 places were all copies
    _mirrors(data_dir)
    hits = search(data_dir, "zzzz", 5, query_vector=[1.0, 0.1, 0.0], vector_model="emb")
    assert [h.text for h in hits[:1]] == ["the shared passage"]
    assert sorted(h.text for h in hits[1:]) == [f"note {n} of its own" for n in range(4)]
    assert len(hits[0].copies) == 149


def test_reading_deeper_past_the_copies_scans_the_vectors_once(data_dir, monkeypatch):
    # each deeper look read every vector again (a 150,000-chunk index: 1.5 s streamed became 2.7 s)
    _mirrors(data_dir)
    asked = []

    def counted(conn, model, vector, limit):
        asked.append(limit)
        return nearest_ids(conn, model, vector, limit)

    # (the module, not the function kb exports under its name)
    monkeypatch.setattr(importlib.import_module("tinyrag_desktop.kb.search"), "nearest_ids", counted)
    hits = search(data_dir, "zzzz", 5, query_vector=[1.0, 0.1, 0.0], vector_model="emb")
    assert sorted(h.text for h in hits[1:]) == [f"note {n} of its own" for n in range(4)]
    assert len(asked) == 1


def test_the_search_tab_shows_the_line_once_and_where_else_it_is(qtbot, panel, tmp_path):
    _import(qtbot, panel, [str(_folder(tmp_path))])
    panel.resize(420, 600)
    panel.show()
    texts = _search(qtbot, panel, "narwhal refused")
    cards = [text for text in texts if text.startswith("[")]
    assert len(cards) == 5 and sum("refused by the gateway" in card for card in cards) == 1
    first = panel.results.item(texts.index(cards[0]))
    assert first.text().split("\n")[1:3] == [
        str(tmp_path / "c4" / "copy000.log"), "also in: copy001.log, copy002.log, copy003.log + 2 other copies"]
    assert first.data(ALSO_ROLE) and not panel.results.item(texts.index(cards[1])).data(ALSO_ROLE)
    # drawn under the file as it is (small type), as a line of its own, the passage under it
    option = QStyleOptionViewItem()
    option.initFrom(panel.results)
    option.rect.setWidth(380)
    document = panel.results.itemDelegate()._document(option, panel.results.indexFromItem(first))
    blocks = [document.findBlockByNumber(n) for n in range(document.blockCount())]
    assert [block.text() for block in blocks[2:4]] == [
        "also in: copy001.log, copy002.log, copy003.log + 2 other copies", LINE]
    size = [block.begin().fragment().charFormat().font().pixelSize() for block in blocks[1:4]]
    assert size[0] == size[1] and size[1] != size[2]


def test_the_same_words_under_other_headings_are_two_results(tmp_path):
    # open_file's and close_file's "Return value" sections say the same: one was hidden as the other's copy
    folder = tmp_path / "c"
    folder.mkdir()
    body = "Returns zero on success and minus one on error, setting errno."
    for name in ("open_file", "close_file"):
        (folder / f"{name}.md").write_text(f"# {name}\n\nAbout {name}.\n\n## Return value\n\n{body}\n",
                                          encoding="utf-8")
    with open_store(tmp_path / "D") as kb:
        Importer(kb).run([str(folder)])
    hits = search(tmp_path / "D", "close_file return value errno", 5)
    found = {h.heading: h.copies for h in hits if h.text == body}
    assert found == {"close_file > Return value": (), "open_file > Return value": ()}


def test_a_copy_whose_file_is_there_is_shown_not_the_gone_one(tmp_path):
    folder = tmp_path / "c"
    folder.mkdir()
    for name in ("narwhal.log", "other.log", "third.log"):  # narwhal.log ranks first: its name has the word
        (folder / name).write_text(f"{LINE}\n", encoding="utf-8")
    (folder / "note.txt").write_text("the narwhal service is run by team 1\n", encoding="utf-8")
    with open_store(tmp_path / "D") as kb:
        Importer(kb).run([str(folder)])
    (folder / "narwhal.log").unlink()
    [line] = [h for h in search(tmp_path / "D", "narwhal refused", 5) if h.text == LINE]
    assert line.location == str(folder / "other.log") and line.copies == (str(folder / "third.log"),)


def test_a_copy_in_another_folder_is_named_by_its_path_from_the_shown_files_folder():
    # "README.md" for the project's own beside vendor/lib/README.md read as the shown file itself
    assert also_in("/proj/vendor/lib/README.md", ["/proj/README.md", "/proj/vendor/other/README.md"]) == \
        "../../README.md, ../other/README.md"
    assert also_in("/proj/a.log", ["/proj/b.log", "/proj/old/a.log", "/other/a.log"]) == \
        "b.log, old/a.log, /other/a.log"


def test_a_hit_with_another_score_keeps_every_other_field():
    hit = Hit(1, 2, "title", "/l/a.md", "title > h", "text", 1.0, "anchor", "code", ("/l/b.md",))
    assert astuple(_with_score(hit, 2.5)) == astuple(replace(hit, score=2.5))


def test_every_copy_is_named_when_the_best_matches_hold_only_some(tmp_path):
    # five notes rank above 150 copies of a line: the copies among the best hundred candidates were all named
    folder = _folder(tmp_path, copies=150)
    for i in range(5):
        (folder / f"narwhal_refused_{i}.txt").write_text(f"narwhal refused {i}: narwhal refused again {i}\n",
                                                          encoding="utf-8")
    with open_store(tmp_path / "D") as kb:
        Importer(kb).run([str(folder)])
    hits = search(tmp_path / "D", "narwhal refused", 6)
    [line] = [h for h in hits if "gateway" in h.text]
    # every copy of the same bytes (the one wrapped at another width is named when it is among the best)
    assert sorted(line.copies) == sorted(str(folder / f"copy{n:03d}.log") for n in range(1, 149))
