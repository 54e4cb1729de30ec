"""An import killed halfway is said the next time, once, with what to do; one that ends in any other way
leaves no mark."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.kb.cli_run import run_main
from tests.kb.test_crash_and_tool import _IMPORT_SCRIPT, _committed
from tinyrag_desktop.kb import Importer, open_store
from tinyrag_desktop.kb.unfinished import SUFFIX, cut_short

REPO = Path(__file__).resolve().parents[2]


def _folder(tmp_path: Path, files: int) -> Path:
    folder = tmp_path / "many notes"
    folder.mkdir()
    paragraph = "Sea otters float on their backs and crack shells on their chests. " * 40
    for n in range(files):
        (folder / f"doc{n:03}.md").write_text(f"# Doc {n}\n\n" + "\n\n".join([paragraph] * 12), encoding="utf-8")
    return folder


def test_an_import_killed_halfway_is_said_once_at_the_next_start(tmp_path, data_dir, capsys):
    folder = _folder(tmp_path, 300)
    proc = subprocess.Popen([sys.executable, "-c", _IMPORT_SCRIPT, str(data_dir), str(folder)],
                            stdout=subprocess.PIPE, text=True, cwd=REPO)
    assert proc.stdout is not None
    for line in proc.stdout:  # well under way, its mark written with a count past its first
        if int(line) >= 40 and any(data_dir.glob(f"*{SUFFIX}")) and _committed(data_dir):
            break
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    proc.stdout.close()
    stored = _committed(data_dir)
    code, _out, err = run_main(capsys, "add", str(tmp_path / "missing.md"), "--data-dir", str(data_dir))
    assert "note: An import into the knowledge base was cut short" in err
    # the sources it stored, counted in the knowledge base: its mark's count, written at most once a
    # second, said "about 1 of 1,703" of 172 stored
    assert stored >= 1 and f": {stored} of 300 sources {'was' if stored == 1 else 'were'} stored" in err, err
    assert str(folder) in err and "add the same files again" in err
    assert not list(data_dir.glob(f"*{SUFFIX}")) and cut_short(data_dir) == []  # said once


def test_a_finished_a_stopped_and_a_failed_import_leave_no_mark(tmp_path, data_dir):
    folder = _folder(tmp_path, 5)
    kb = open_store(data_dir)
    try:
        Importer(kb).run([str(folder)])
        importer = Importer(kb, force=True)
        importer.cancel.set()  # stopped by the user: they know
        importer.run([str(folder)])
        Importer(kb).run([str(folder), str(tmp_path / "no such file.md")])
    finally:
        kb.close()
    assert not list(data_dir.glob(f"*{SUFFIX}")) and cut_short(data_dir) == []


def test_a_mark_of_a_running_import_is_not_said(tmp_path, data_dir):
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        (data_dir / f"import-{sleeper.pid}{SUFFIX}").write_text(
            f'{{"pid": {sleeper.pid}, "started": 0, "asked": ["/notes"], "total": 9, "done": 3}}')
        assert cut_short(data_dir) == []  # the command line importing beside the window
    finally:
        sleeper.kill()
        sleeper.wait(10)
    said = cut_short(data_dir)
    assert len(said) == 1 and "about 3 of 9 sources" in said[0] and "/notes" in said[0]


def test_a_url_with_a_password_is_not_written_in_the_mark(tmp_path, data_dir):
    from tinyrag_desktop.kb.unfinished import Marker

    mark = Marker(data_dir / "knowledge.db", ["https://ann:secret@example.org/page", "/notes"], 2)
    text = mark.path.read_text()
    mark.ended()
    assert "secret" not in text and "ann:***@example.org" in text


def test_a_mark_nested_past_reading_is_passed_over(tmp_path):
    # 100,000 "[" in a mark ended the window's start in a RecursionError, as in thinking-models.json
    (tmp_path / f"import-1{SUFFIX}").write_text("[" * 100_000)
    assert cut_short(tmp_path) == []


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX modes")
def test_the_mark_of_an_import_is_for_the_user_alone_as_the_knowledge_base_is(tmp_path, data_dir):
    # it names what is being imported (folders, web addresses); it was 0644 beside a 0600 knowledge.db
    note = tmp_path / "note.md"
    note.write_text("# Otters\n\nOtters hold hands as they sleep.\n", encoding="utf-8")
    modes: list[int] = []
    with open_store(data_dir) as kb:
        def progressed(progress) -> None:
            modes.extend(path.stat().st_mode & 0o777 for path in data_dir.glob(f"*{SUFFIX}"))

        Importer(kb, on_progress=progressed).run([str(note)])
        db_mode = kb.path.stat().st_mode & 0o777
    assert modes and set(modes) == {0o600} and db_mode == 0o600


def cut_again_after_a_cancel(tmp_path: Path, data_dir: Path) -> tuple[Path, int]:
    """A folder of 40 notes imported, cancelled 13 in; imported again, and killed 23 in (its mark left as a
    killed process leaves it). The folder, and how many of its notes are in the knowledge base."""
    folder = _folder(tmp_path, 40)
    with open_store(data_dir) as kb:
        first = Importer(kb, on_progress=lambda p: p.done >= 13 and first.cancel.set())
        assert first.run([str(folder)]).cancelled
        before = len(kb.sources())
        second = Importer(kb, on_progress=lambda p: p.done >= 23 and _killed_here(data_dir, second))
        assert second.run([str(folder)]).cancelled
        stored = len(kb.sources())
    assert 0 < before < stored < 40
    return folder, stored


def _killed_here(data_dir: Path, importer: Importer) -> None:
    """Leave ``importer``'s mark as if its process had been killed now (under a process number gone), then stop
    it (its own mark goes as it ends)."""
    if importer.cancel.is_set():
        return
    [mark] = data_dir.glob(f"*{SUFFIX}")
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait(30)
    values = json.loads(mark.read_text())
    (data_dir / f"import-{dead.pid}{SUFFIX}").write_text(json.dumps({**values, "pid": dead.pid}))
    importer.cancel.set()


def test_sources_an_earlier_import_of_the_same_folder_stored_are_counted_as_stored(tmp_path, data_dir):
    folder, stored = cut_again_after_a_cancel(tmp_path, data_dir)
    [said] = cut_short(data_dir)
    # it counted only those the killed import stored itself: "10 of 40" of 23 in
    assert f": {stored} of 40 sources were stored, from {folder}." in said, said
    assert said.asked == (str(folder),)
