"""``kb add``'s progress on standard error: a line per source would fill a log; one every few seconds does not."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.kb.cli_run import run_main
from tests.terminal import read_to_end
from tinyrag_desktop.kb import Progress
from tinyrag_desktop.kb.cli import _ProgressLine
from tinyrag_desktop.kb.import_report import WAITING


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _feed(line: _ProgressLine, times: list[float], total: int = 0) -> None:
    total = total or len(times)
    for done, _ in enumerate(times):
        line(Progress(done, total, f"file{done}.txt", 0))


def test_in_a_log_the_first_source_is_shown_then_one_line_every_ten_seconds() -> None:
    stream = io.StringIO()
    clock = iter([0.0, 3.0, 9.9, 10.0, 12.0, 25.0])
    line = _ProgressLine(stream, clock=lambda: next(clock))
    _feed(line, [0.0] * 6)
    assert stream.getvalue().splitlines() == ["[1/6] file0.txt", "[4/6] file3.txt", "[6/6] file5.txt"]
    assert line.last == Progress(5, 6, "file5.txt", 0)  # where an interrupted import was, printed or not


def test_a_wait_for_another_program_as_the_last_sources_are_stored_counts_no_source_past_the_total() -> None:
    # kb add beside the window's Delete: all 1,500 read, the last ones waited to be stored, "[1501/1500] waiting…"
    stream = io.StringIO()
    line = _ProgressLine(stream, clock=lambda: 0.0)
    line(Progress(1500, 1500, WAITING, 0))
    assert stream.getvalue() == f"[1500/1500] {WAITING}\n"


def _screen(written: str) -> list[str]:
    """The rows a terminal shows for ``written``: "\\r" goes back to the row's start, and what follows
    is written over what was there."""
    rows, row, at = [], [], 0
    for ch in written:
        if ch == "\r":
            at = 0
        elif ch == "\n":
            rows.append("".join(row))
            row, at = [], 0
        else:
            row[at:at + 1] = [ch]
            at += 1
    return rows + ["".join(row)]


@pytest.mark.parametrize("term", ["xterm-256color", "dumb", None])  # None: Windows' console sets no TERM
def test_on_a_terminal_each_source_overwrites_the_line_without_cursor_codes(
        monkeypatch: pytest.MonkeyPatch, term: str | None) -> None:
    # "\033[K" showed as "^[[K" in Emacs's shell (TERM=dumb), and as "←[K" before each path in Windows'
    # console, which acts on cursor codes only when a program asks: the line before is covered with spaces
    if term is None:
        monkeypatch.delenv("TERM", raising=False)
    else:
        monkeypatch.setenv("TERM", term)
    stream = _Terminal()
    line = _ProgressLine(stream, clock=lambda: 0.0)
    for done, name in enumerate(["a-long-name.txt", "b.txt", "c.txt"]):
        line(Progress(done, 3, name, 0))
        assert _screen(stream.getvalue())[-1].rstrip(" ") == f"[{done + 1}/3] {name}"
    line(Progress(3, 3, "", 0))
    assert "\x1b" not in stream.getvalue()
    assert [row.rstrip(" ") for row in _screen(stream.getvalue() + "added 3 sources")] == ["added 3 sources"]
    assert stream.getvalue() == ("\r[1/3] a-long-name.txt\r[2/3] b.txt" + " " * 10 + "\r[3/3] c.txt"
                                 "\r" + " " * 11 + "\r")


def test_after_the_terminal_is_made_narrower_the_covering_spaces_stay_on_one_row(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The spaces covering a long path went on past the new width: they wrapped onto a second row, and "\r"
    # went back to the start of that one only, leaving the long line above.
    monkeypatch.setenv("COLUMNS", "80")
    stream = _Terminal()
    line = _ProgressLine(stream, clock=lambda: 0.0)
    line(Progress(0, 3, "documents/" * 6 + "plan.md", 0))  # 73 columns
    assert len(stream.getvalue()) == 74
    monkeypatch.setenv("COLUMNS", "30")
    for done, name in ((1, "b.txt"), (3, "")):
        written = len(stream.getvalue())
        line(Progress(done, 3, name, 0))
        assert len(stream.getvalue()[written:].rstrip("\r")) <= 30  # "\r" and at most 29 columns
    assert stream.getvalue().endswith("\r[2/3] b.txt" + " " * 18 + "\r" + " " * 11 + "\r")  # then blanked


@pytest.mark.skipif(sys.platform == "win32", reason="no pseudo-terminals")
def test_a_terminal_that_says_it_has_no_columns_is_taken_as_80_wide(monkeypatch: pytest.MonkeyPatch) -> None:
    # A pseudo-terminal nobody sized (`script`, `docker exec -t`, CI) says 0 columns: the paths were cut to
    # 20 ("[1/9] /t…/backup.md"); `ask` takes it as 80 wide.
    monkeypatch.delenv("COLUMNS", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    master, slave = os.openpty()
    assert os.get_terminal_size(slave).columns == 0
    path = "/home/someone/documents/notes/2026/plan.md"  # 42 columns
    with open(slave, "w", encoding="utf-8", closefd=True) as terminal:
        _ProgressLine(terminal, clock=lambda: 0.0)(Progress(0, 9, path, 0))
    assert read_to_end(master).decode("utf-8") == f"\r[1/9] {path}"


def test_kb_add_of_a_folder_writes_no_line_per_file_to_a_log(tmp_path: Path, capsys) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    for n in range(40):
        (docs / f"note{n:02}.txt").write_text(f"note number {n} about gardening\n", encoding="utf-8")
    code, out, err = run_main(capsys, "add", "--data-dir", str(tmp_path / "data"), str(docs))
    assert code == 0, err
    progress = [line for line in err.splitlines() if line.startswith("[")]
    assert progress[0].startswith("[1/40] ") and progress[0].endswith("note00.txt")
    assert len(progress) < 40  # one every 10 seconds: 40 small notes take far less than 390 seconds
    assert "40 added" in out


def test_kb_add_progress_writes_a_line_per_source_to_a_log(tmp_path: Path, capsys) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    for n in range(5):
        (docs / f"note{n}.txt").write_text(f"note number {n}\n", encoding="utf-8")
    code, _, err = run_main(capsys, "add", "--progress", "--data-dir", str(tmp_path / "data"), str(docs))
    assert code == 0, err
    assert [line for line in err.splitlines() if line.startswith("[")] == [
        f"[{n + 1}/5] {docs / f'note{n}.txt'}" for n in range(5)]


def test_kb_add_progress_says_it_lists_a_folder_before_its_first_source(tmp_path: Path, capsys) -> None:
    # /usr took 9 s to list with nothing said; the Knowledge panel said "Listing what to import…" meanwhile
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "note.txt").write_text("a note about gardening\n", encoding="utf-8")
    code, _, err = run_main(capsys, "add", "--progress", "--data-dir", str(tmp_path / "data"), str(docs))
    assert code == 0, err
    assert err.splitlines()[:2] == ["Listing what to import…", f"[1/1] {docs / 'note.txt'}"]
    code, _, err = run_main(capsys, "add", "--progress", "--data-dir", str(tmp_path / "data"), str(docs / "note.txt"))
    assert err.splitlines() == [f"[1/1] {docs / 'note.txt'}"]  # a file named by itself is listed at once
    code, _, err = run_main(capsys, "add", "--data-dir", str(tmp_path / "data"), str(docs))
    assert "Listing" not in err  # in a log without --progress: as the progress lines, not said


@pytest.mark.skipif(sys.platform == "win32", reason="no pseudo-terminals")
@pytest.mark.parametrize("files", [["note.txt"], [".hidden.txt"]])  # the second: nothing to read after listing
def test_kb_add_on_a_terminal_says_it_lists_a_folder_then_overwrites_that(tmp_path: Path, files: list[str]) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    for name in files:
        (docs / name).write_text("a note about gardening\n", encoding="utf-8")
    master, slave = os.openpty()
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2]), "TERM": "xterm", "COLUMNS": "100"}
    subprocess.run([sys.executable, "-m", "tinyrag_desktop", "kb", "add", "--data-dir", str(tmp_path / "data"),
                    str(docs)], stderr=slave, stdout=subprocess.DEVNULL, env=env, timeout=120, check=False)
    os.close(slave)
    written = read_to_end(master).decode("utf-8").replace("\r\n", "\n")
    assert written.startswith("\rListing what to import…\r")
    assert not any("Listing" in row for row in _screen(written))  # overwritten by what came next
