"""``kb`` as a user runs it: the progress line on a narrow terminal, passwords kept out of the log, paths that
are pipes or web addresses without https://, two imports started together on a new data folder."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest

from tests.kb.cli_run import run_main
from tinyrag_desktop.kb import Progress
from tinyrag_desktop.kb.cli import _ProgressLine

REPO = Path(__file__).resolve().parents[2]


def _width(text: str) -> int:
    """Columns on a terminal: two for a wide character."""
    return sum(2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1 for ch in text)


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


# 3. The progress line fits the terminal and shows the file's name.

@pytest.mark.parametrize("columns", [40, 80])
def test_the_progress_line_fits_the_terminal_and_keeps_the_file_name(
        monkeypatch: pytest.MonkeyPatch, columns: int) -> None:
    monkeypatch.setenv("COLUMNS", str(columns))
    stream = _Terminal()
    line = _ProgressLine(stream, clock=lambda: 0.0)
    deep = "/home/someone/" + "/".join(f"folder number {n}" for n in range(12))
    names = ["plan.md", "notes about the garden.txt", "漢字のメモ.md"]
    for done, name in enumerate(names):
        line(Progress(done, 3, f"{deep}/{name}", 0))
    shown = [part.rstrip(" ") for part in stream.getvalue().split("\r") if part]
    assert len(shown) == 3
    for n, (text, name) in enumerate(zip(shown, names), start=1):
        assert _width(text) <= columns - 1, text  # a full row wraps on some terminals
        assert text.endswith("…/" + name), text
        assert text.startswith(f"[{n}/3] /home")


def test_a_file_name_wider_than_the_terminal_shows_its_end(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "30")
    stream = _Terminal()
    _ProgressLine(stream, clock=lambda: 0.0)(Progress(0, 1, "/d/" + "x" * 60 + "-final-version.md", 0))
    text = stream.getvalue().removeprefix("\r")
    assert text == "[1/1] …" + ("x" * 60 + "-final-version.md")[-22:]
    assert _width(text) == 29


def test_a_short_path_is_shown_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("TERM", "xterm")
    stream = _Terminal()
    _ProgressLine(stream, clock=lambda: 0.0)(Progress(0, 2, "/home/me/plan.md", 0))
    assert stream.getvalue() == "\r[1/2] /home/me/plan.md"


def test_in_a_log_the_path_is_written_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "20")
    stream = io.StringIO()
    path = "/home/someone/" + "deep/" * 40 + "plan.md"
    _ProgressLine(stream, clock=lambda: 0.0)(Progress(0, 1, path, 0))
    assert stream.getvalue() == f"[1/1] {path}\n"


# 5. A URL's password is neither logged nor repeated on screen.

def test_a_refused_url_with_a_password_is_logged_without_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = tmp_path / "data"
    code, out, err = run_main(capsys, "add", "--data-dir", str(data), "https://ann:s3cret-Pw@example.org/page",
                              "http://bob:a@b@example.org/x")
    assert code == 1
    assert "failed: https://ann:***@example.org/page: the URL holds a password" in err
    assert "failed: http://bob:***@example.org/x" in err
    log = (data / "logs" / "tinyrag.log").read_text(encoding="utf-8")
    assert "https://ann:***@example.org/page failed" in log
    assert "s3cret" not in log and "s3cret" not in err and "a@b" not in log


# 6. A pipe is said to be a pipe; a web address without https:// gets a hint.

@pytest.mark.skipif(not Path("/dev/stdin").exists(), reason="no /dev/stdin here")
def test_kb_add_dev_stdin_says_it_is_a_pipe(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "PYTHONPATH": str(REPO)}
    proc = subprocess.run([sys.executable, "-m", "tinyrag_desktop", "kb", "add", "/dev/stdin", "--data-dir",
                           str(tmp_path / "data")], input="some notes\n", capture_output=True, text=True,
                          env=env, cwd=REPO, timeout=120)
    assert proc.returncode == 1
    assert "failed: /dev/stdin: a pipe, not a file: save what it gives to a file (… > notes.txt) and import that" \
        in proc.stderr
    assert "/proc/" not in proc.stderr and "no such file" not in proc.stderr


@pytest.mark.parametrize("typed, hint", [
    ("example.org", "; to import a web page, write https://example.org"),
    ("www.example.org/docs/", "; to import a web page, write https://www.example.org/docs"),
    ("notes.txt", ""),
    ("127.0.0.1:18501/index.html", "; to import a web page, write http://127.0.0.1:18501/index.html"),
    ("localhost:8000/notes.html", "; to import a web page, write http://localhost:8000/notes.html"),
    ("192.168.1.5/wiki", "; to import a web page, write http://192.168.1.5/wiki"),
    # a name that is a file's and a web site's (see test_domain_like_names.py): it said no more than "no such…"
    ("foo.ml", "; if you meant the web site, write https://foo.ml"),
    ("rustup.rs", "; if you meant the web site, write https://rustup.rs"),
    ("example.pl/page", "; to import a web page, write https://example.pl/page"),
    ("report.docx", ""),  # .docx is no domain
    ("README.md", ""),  # a document named in the wrong folder, no web site (see test_domain_like_names.py)
])
def test_a_missing_path_that_looks_like_a_web_address_gets_a_hint(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        typed: str, hint: str) -> None:
    monkeypatch.chdir(tmp_path)
    code, _, err = run_main(capsys, "add", "--data-dir", str(tmp_path / "data"), typed)
    assert code == 1
    assert f": no such file or folder{hint}\n" in err


def test_kb_add_dash_says_standard_input_is_not_read_without_calling_it_missing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_main(capsys, "add", "--data-dir", str(tmp_path / "data"), "-")
    assert code == 1 and '"-" (standard input) is not read by kb add: save what a command prints' in err
    assert "no such file" not in err


# 7. Two imports started together on a new data folder: the second waits for the first, as other writes do.

def test_opening_a_new_knowledge_base_another_program_is_creating_waits_for_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import sqlite3

    from tinyrag_desktop.kb import store

    path = tmp_path / "knowledge.db"
    first = sqlite3.connect(path, isolation_level=None)
    first.execute("BEGIN IMMEDIATE")  # the other kb add, creating the database in this moment
    first.execute("CREATE TABLE being_made (a)")
    waited: list[float] = []

    def other_program_finishes(seconds: float) -> None:  # instead of a real pause: the other one commits
        waited.append(seconds)
        if first.in_transaction:
            first.execute("COMMIT")

    monkeypatch.setattr(store.time, "sleep", other_program_finishes)
    kb = store.KnowledgeBase(path)  # SQLite said "database is locked" at once, without waiting
    try:
        assert kb.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert waited
    finally:
        kb.close()
        first.close()


def test_a_chunk_size_for_unchanged_sources_says_it_needs_force(tmp_path, capsys):
    from tests.kb.cli_run import run_main

    doc = tmp_path / "doc.md"
    doc.write_text("# Doc\n\n" + "A sentence about otters and their shells. " * 200)
    data = tmp_path / "data"
    assert run_main(capsys, "add", str(doc), "--data-dir", str(data))[0] == 0
    code, _out, err = run_main(capsys, "add", str(doc), "--chunk-size", "300", "--data-dir", str(data))
    assert code == 0 and "1 unchanged source keeps its passages (add --force" in err
    code, _out, err = run_main(capsys, "add", str(doc), "--chunk-size", "300", "--force", "--data-dir", str(data))
    assert code == 0 and "--chunk-size applies" not in err
