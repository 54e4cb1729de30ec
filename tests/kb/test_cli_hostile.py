"""The ``kb`` command line against hostile input: cut pipes, huge or empty values, odd data folders, odd names.

Every failure a user can cause ends in one line in words and a non-zero exit code, never a traceback.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.kb.cli_run import run_main
from tinyrag_desktop.kb import Importer, open_store
from tinyrag_desktop.settings import OPTIONS

REPO = Path(__file__).resolve().parents[2]
SQLITE_MAX = 2**63 - 1


@pytest.fixture(scope="module")
def kb_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A knowledge base of 30 small documents, all about a "document part"."""
    root = tmp_path_factory.mktemp("kb")
    docs = root / "docs"
    docs.mkdir()
    for n in range(1, 31):
        (docs / f"d{n:02}.md").write_text(f"# Document part {n}\n\nThis document part {n} talks about things.\n",
                                          encoding="utf-8")
    data = root / "data"
    kb = open_store(data)
    report = Importer(kb, chunk_size=300).run([str(docs)])
    kb.close()
    assert len(report.added) == 30
    return data


def kb(*args: str, cwd: Path = REPO, stdout: int | None = subprocess.PIPE) -> subprocess.CompletedProcess[str]:
    """``python -m tinyrag_desktop kb ARGS`` as a user runs it."""
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-m", "tinyrag_desktop", "kb", *args], stdout=stdout,
                          stderr=subprocess.PIPE, text=True, cwd=cwd, env=env, timeout=120)




def assert_clean_failure(code: int, err: str, *words: str) -> None:
    assert code != 0
    assert "Traceback" not in err and "Error:" not in err.replace("error:", "")
    last = err.strip().splitlines()[-1]
    for word in words:
        assert word in last, err


# 1. Output cut short by the reader (``| head -1``): stop quietly.

@pytest.mark.parametrize("args", [
    ("list",), ("list", "--jsonl"),
    ("search", "--k", "50", "document part"), ("search", "--k", "50", "--jsonl", "document part"),
], ids=["list", "list-jsonl", "search", "search-jsonl"])
def test_a_closed_pipe_stops_quietly(kb_dir: Path, args: tuple[str, ...]) -> None:
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is gone before the first line: every write fails with EPIPE
    try:
        proc = kb(*args, "--data-dir", str(kb_dir), stdout=write_end)
    finally:
        os.close(write_end)
    assert proc.returncode == 1, proc.stderr  # what Python's docs recommend for EPIPE
    assert "BrokenPipeError" not in proc.stderr and "Traceback" not in proc.stderr
    assert "Exception ignored" not in proc.stderr


def test_head_reads_the_first_line_quietly(kb_dir: Path) -> None:
    """The case as a user meets it; whether ``head`` is gone before the last write is a race, so the test
    above is the one that always failed before the fix."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.run(
        f'"{sys.executable}" -m tinyrag_desktop kb search --data-dir "{kb_dir}" --k 50 "document part" | head -1',
        shell=True, capture_output=True, text=True, cwd=REPO, env=env, timeout=120)
    assert proc.stdout.startswith("[1] Document part")
    assert "Traceback" not in proc.stderr and "BrokenPipeError" not in proc.stderr


# 2 and 3. Numbers out of range are refused by the argument parser, with the allowed range.

@pytest.mark.parametrize("k", ["99999999999999999999", "0", "-1", str(int(OPTIONS["k"].maximum) + 1), "many"])
def test_search_refuses_k_out_of_range(kb_dir: Path, capsys: pytest.CaptureFixture[str], k: str) -> None:
    code, out, err = run_main(capsys, "search", "--data-dir", str(kb_dir), "--k", k, "document")
    low, high = int(OPTIONS["k"].minimum), int(OPTIONS["k"].maximum)
    assert code == 2 and out == ""
    assert_clean_failure(code, err, "--k", f"{low} to {high}")


def test_search_takes_k_at_both_ends_of_the_range(kb_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    low, high = int(OPTIONS["k"].minimum), int(OPTIONS["k"].maximum)
    code, out, _ = run_main(capsys, "search", "--data-dir", str(kb_dir), "--k", str(low), "--jsonl", "document part")
    assert code == 0 and len(out.splitlines()) == low
    code, out, _ = run_main(capsys, "search", "--data-dir", str(kb_dir), "--k", str(high), "--jsonl", "document part")
    assert code == 0 and len(out.splitlines()) == 30


@pytest.mark.parametrize("sid", ["99999999999999999999", str(SQLITE_MAX + 1), "0", "-1", "abc"])
def test_remove_refuses_ids_sqlite_cannot_hold(kb_dir: Path, capsys: pytest.CaptureFixture[str], sid: str) -> None:
    code, out, err = run_main(capsys, "remove", "--data-dir", str(kb_dir), "--", sid)
    assert code == 2 and out == ""
    assert_clean_failure(code, err, "SOURCE_ID", "source id")


def test_remove_of_the_largest_id_is_just_not_found(kb_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_main(capsys, "remove", "--data-dir", str(kb_dir), str(SQLITE_MAX))
    assert code == 1 and f"no source with id {SQLITE_MAX}" in err and "0 sources removed" in out


def test_an_id_named_twice_is_removed_once(kb_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_main(capsys, "remove", "--data-dir", str(kb_dir), "5", "5")
    assert (code, err) == (0, "") and "1 source removed" in out


def test_add_of_only_a_file_with_no_text_exits_with_failure(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # a scanned PDF, or a page that is only navigation: skipped with its reason, and nothing stored
    page = tmp_path / "menu.html"
    page.write_text("<html><body><nav><a href='a.html'>A</a> <a href='b.html'>B</a></nav></body></html>")
    code, out, err = run_main(capsys, "add", "--data-dir", str(tmp_path / "data"), str(page))
    assert code == 1 and "1 skipped" in out and "skipped:" in err
    note = tmp_path / "note.txt"
    note.write_text("The heron nests by the lake.\n")
    code, out, _ = run_main(capsys, "add", "--data-dir", str(tmp_path / "data"), str(page), str(note))
    assert code == 0 and "1 added" in out  # one stored beside it: the import did something


@pytest.mark.parametrize("size", ["1", "199", "8001", "100000000", "99999999999999999999", "big"])
def test_add_refuses_chunk_size_out_of_range(tmp_path: Path, capsys: pytest.CaptureFixture[str], size: str) -> None:
    doc = tmp_path / "a.txt"
    doc.write_text("some words " * 100, encoding="utf-8")
    data = tmp_path / "data"
    code, out, err = run_main(capsys, "add", "--data-dir", str(data), "--chunk-size", size, str(doc))
    opt = OPTIONS["chunk_size"]
    assert_clean_failure(code, err, "--chunk-size", f"{int(opt.minimum)} to {int(opt.maximum)}")
    assert code == 2 and out == "" and not data.exists()


def test_add_takes_chunk_size_at_the_lower_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = tmp_path / "a.txt"
    doc.write_text("Some words here. " * 100, encoding="utf-8")
    data = tmp_path / "data"
    low = str(int(OPTIONS["chunk_size"].minimum))
    code, out, err = run_main(capsys, "add", "--data-dir", str(data), "--chunk-size", low, str(doc))
    assert code == 0 and "1 added" in out, err


# 4. A data folder that is really a file.

@pytest.mark.parametrize("verb", [("add", "x.txt"), ("list",), ("search", "word"), ("remove", "1")],
                         ids=lambda v: v[0])
def test_a_file_as_data_folder_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                          verb: tuple[str, ...]) -> None:
    pdf = tmp_path / "some.pdf"
    pdf.write_bytes(b"%PDF-1.4\n")
    (tmp_path / "x.txt").write_text("hello", encoding="utf-8")
    for data in (pdf, pdf / "inside"):
        code, out, err = run_main(capsys, verb[0], "--data-dir", str(data), *verb[1:])
        assert_clean_failure(code, err, str(pdf), "not a folder")
        assert out == ""
    assert pdf.read_bytes() == b"%PDF-1.4\n"


def test_a_file_as_data_folder_in_a_real_run(tmp_path: Path) -> None:
    pdf = tmp_path / "some.pdf"
    pdf.write_bytes(b"%PDF-1.4\n")
    proc = kb("add", "--data-dir", str(pdf), str(tmp_path / "x.txt"))
    assert proc.returncode == 2 and proc.stderr.startswith("error: ") and len(proc.stderr.splitlines()) == 1
    assert "Traceback" not in proc.stderr


def test_an_empty_data_folder_name_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for name in ("", "  "):
        code, out, err = run_main(capsys, "list", "--data-dir", name)
        assert_clean_failure(code, err, "--data-dir", "empty")


# 5. Reading verbs on a data folder that does not exist create nothing.

def test_reading_verbs_do_not_create_a_missing_data_folder(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "nowhere" / "data"
    code, out, err = run_main(capsys, "list", "--data-dir", str(data))
    assert code == 0 and out == ""
    assert err.startswith("the knowledge base is empty") and str(data) in err and "kb add" in err
    code, out, err = run_main(capsys, "search", "--data-dir", str(data), "anything")
    assert code == 0 and out == "" and "the knowledge base is empty" in err and str(data) in err
    code, out, err = run_main(capsys, "remove", "--data-dir", str(data), "3")
    assert code == 1 and "no source with id 3" in err and str(data) in err
    assert not (tmp_path / "nowhere").exists()


def test_list_of_an_empty_data_folder_keeps_its_words(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_main(capsys, "list", "--data-dir", str(tmp_path))
    assert (code, out, err) == (0, "", "the knowledge base is empty\n")
    code, out, err = run_main(capsys, "search", "--data-dir", str(tmp_path), "anything")
    assert (code, out) == (0, "") and "the knowledge base is empty" in err
    assert list(tmp_path.iterdir()) == []


# 6. An empty path would import the current folder.

@pytest.mark.parametrize("empty", ["", "   ", "\t"], ids=["empty", "spaces", "tab"])
def test_add_refuses_an_empty_path_before_importing(tmp_path: Path, empty: str) -> None:
    (tmp_path / "secret.md").write_text("# Private\n\nnot for the knowledge base\n", encoding="utf-8")
    data = tmp_path / "data"
    proc = kb("add", "--data-dir", str(data), str(tmp_path / "secret.md"), empty, cwd=tmp_path)
    assert_clean_failure(proc.returncode, proc.stderr, "empty")
    assert proc.returncode == 2 and proc.stdout == "" and not data.exists()


def test_add_refuses_an_empty_wikipedia_title(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_main(capsys, "add", "--data-dir", str(tmp_path / "data"), "--wikipedia", " ")
    assert_clean_failure(code, err, "--wikipedia", "empty")
    code, out, err = run_main(capsys, "add", "--data-dir", str(tmp_path / "data"), "--offline", "wikipedia: ")
    assert_clean_failure(code, err, "empty Wikipedia title")
    assert not (tmp_path / "data").exists()


# 7. Names with control characters do not break the layout.

def test_list_shows_control_characters_escaped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    odd = docs / "bad\nname\x1b[31m.txt"
    odd.write_text("a line of words\n", encoding="utf-8")
    data = tmp_path / "data"
    code, out, err = run_main(capsys, "add", "--data-dir", str(data), str(docs))
    assert code == 0, err
    assert "\x1b" not in err and "bad\\nname\\x1b[31m.txt" in err  # the progress line too
    code, out, _ = run_main(capsys, "list", "--data-dir", str(data))
    lines = out.splitlines()
    assert code == 0 and len(lines) == 2
    assert lines[0].endswith("bad\\nname\\x1b[31m.txt")
    assert lines[1].strip() == str(docs) + os.sep + "bad\\nname\\x1b[31m.txt"
    code, out, _ = run_main(capsys, "list", "--data-dir", str(data), "--jsonl")
    (row,) = [json.loads(line) for line in out.splitlines()]
    assert row["location"] == str(odd) and row["title"] == odd.name  # JSON stays exact
    code, out, _ = run_main(capsys, "search", "--data-dir", str(data), "line of words")
    assert code == 0 and "\x1b" not in out and "bad\\nname" in out


def test_a_name_with_a_bidi_override_is_shown_escaped_not_reversed(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    # "report\u202etxt.exe" printed raw showed as "reportexe.txt" on a terminal that follows the override.
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "report\u202etxt.md").write_text("quarterly figures\n", encoding="utf-8")
    data = tmp_path / "data"
    code, out, err = run_main(capsys, "add", "--data-dir", str(data), str(docs))
    assert code == 0 and "\u202e" not in err, err
    code, out, _ = run_main(capsys, "list", "--data-dir", str(data))
    assert code == 0 and "\u202e" not in out and "report\\u202etxt.md" in out
    code, out, _ = run_main(capsys, "search", "--data-dir", str(data), "quarterly figures")
    assert code == 0 and "\u202e" not in out and "report\\u202etxt.md" in out


# An empty folder imports nothing: say why.

def test_add_of_a_folder_without_supported_files_says_so(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    odd = tmp_path / "odd"
    (odd / ".hidden").mkdir(parents=True)
    (odd / ".hidden" / "note.md").write_text("hidden", encoding="utf-8")
    (odd / "photo.xyz").write_bytes(b"\0")
    full = tmp_path / "full"
    full.mkdir()
    (full / "a.md").write_text("# A\n\nwords\n", encoding="utf-8")
    data = tmp_path / "data"
    code, out, err = run_main(capsys, "add", "--data-dir", str(data), str(empty), str(odd), str(full))
    assert code == 0 and out.startswith("1 added")
    assert f"skipped: {empty}: no supported files found in this folder" in err
    assert f"skipped: {odd}: no supported files found in this folder" in err
    assert f"{full}: no supported files" not in err
