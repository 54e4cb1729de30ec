"""A JSON Lines file with a damaged line (its last record cut off when the program writing it was killed)
gives its good lines, and the import says which line was skipped and why."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tinyrag_desktop.kb import Importer, open_store, search
from tinyrag_desktop.kb.decoding import collecting_notes
from tinyrag_desktop.kb.errors import ReadError
from tinyrag_desktop.kb.readers import read_bytes

from .cli_run import run_main


def _records(count: int) -> str:
    return "\n".join(json.dumps({"i": i, "t": f"record {i} about the gnu"}) for i in range(count))


def test_a_cut_off_last_record_is_skipped_and_named(tmp_path, data_dir, capsys):
    export = tmp_path / "export.jsonl"
    export.write_text(_records(10) + '\n{"i": 10, "t": "cut')
    code, out, err = run_main(capsys, "add", "--data-dir", str(data_dir), str(export))
    assert code == 0, err
    said = "line 11 skipped, not valid JSON (unterminated string starting at column 16): the other 10 lines were imported"
    assert f"note: {export}: {said}" in err
    assert out.startswith("1 added") and f"export.jsonl: {said}" in out
    assert "record 9 about the gnu" in search(data_dir, "record 9 gnu", 1)[0].text


def test_a_damaged_line_in_the_middle_is_skipped_in_the_window_summary_too(tmp_path, data_dir):
    export = tmp_path / "log.ndjson"
    lines = _records(6).split("\n")
    lines[2] = lines[2][:-1] + ",}"
    export.write_text("\n".join(lines) + "\n")
    kb = open_store(data_dir)
    try:
        report = Importer(kb).run([str(export)])
    finally:
        kb.close()
    assert report.added == [str(export)]
    assert [n.reason.split(",")[0] for n in report.notes] == ["line 3 skipped"]
    # the window lists it beneath the summary, as failures and skips are (all of them, not the first two)
    from tinyrag_desktop.ui.kb_summary import summary

    shown, tip = summary(report)
    assert shown.split("\n")[0] == report.in_words() and "line 3" not in report.in_words()
    assert "! log.ndjson: line 3 skipped, not valid JSON" in shown and "line 3 skipped" in tip


def test_a_file_mostly_damaged_is_refused_naming_its_first_bad_line(tmp_path):
    data = b'{"a": 1}\n{"b": 2\n{"c": 3\n'
    with pytest.raises(ReadError, match=r"not valid JSON: expecting ',' delimiter at line 2, column 8"):
        read_bytes(data, "json", "bad.jsonl")


@settings(max_examples=60, deadline=None)
@given(count=st.integers(3, 30), cut=st.integers(1, 200), at=st.data())
def test_any_one_cut_line_loses_only_that_line(count, cut, at):
    lines = _records(count).split("\n")
    which = at.draw(st.integers(0, count - 1))
    damaged = lines[which][: min(cut, len(lines[which]) - 1)]
    lines[which] = damaged
    with collecting_notes() as notes:
        doc = read_bytes("\n".join(lines).encode(), "json", "x.jsonl")
    kept = [b.text for b in doc.blocks]
    assert len(kept) == count - 1
    assert all(f"record {which} about" not in text for text in kept)
    assert notes and notes[0].startswith(f"line {which + 1} skipped, not valid JSON (")
