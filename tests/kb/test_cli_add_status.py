"""``kb add``'s exit status: 1 when any source failed, even beside others imported (it was 0, and a script
could not tell), 0 when all were imported or unchanged and a folder's files were skipped by design."""

from __future__ import annotations

from pathlib import Path

import pytest

from tinyrag_desktop.cli import main
from tinyrag_desktop.kb.import_items import FOLDER_DATA_BYTES

from .cli_run import run_main


def _folder(tmp_path: Path) -> Path:
    """A folder of two notes and the files a folder's import leaves out by design: hidden, binary, too large."""
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "tides.md").write_text("# Tides\n\nHigh tide at the harbour is at noon.\n", encoding="utf-8")
    (docs / "boats.txt").write_text("The ferry leaves at nine.\n", encoding="utf-8")
    (docs / ".secret.txt").write_text("hidden notes\n", encoding="utf-8")
    (docs / "tool").write_bytes(b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)) * 8)
    with open(docs / "huge.log", "wb") as log:  # sparse: its size is what leaves it out, not its bytes
        log.truncate(FOLDER_DATA_BYTES + 1)
    return docs


def test_a_folder_whose_left_out_files_are_skipped_by_design_exits_0(tmp_path, capsys):
    docs = _folder(tmp_path)
    code, out, err = run_main(capsys, "add", str(docs), "--data-dir", str(tmp_path / "data"))
    assert code == 0, err
    assert out.startswith("2 added, 0 updated, 0 unchanged, 3 skipped")
    assert "failed:" not in err
    code, out, err = run_main(capsys, "add", str(docs), "--data-dir", str(tmp_path / "data"))
    assert (code, out.split(",")[2]) == (0, " 2 unchanged"), err  # imported again: nothing to do is no failure


def test_one_file_of_a_folder_that_fails_makes_kb_add_exit_1_though_the_others_were_imported(tmp_path, capsys):
    docs = _folder(tmp_path)
    (docs / "broken.pdf").write_bytes(b"%PDF-1.4 not really")
    code, out, err = run_main(capsys, "add", str(docs), "--data-dir", str(tmp_path / "data"))
    assert code == 1  # was 0: only the summary said "1 failed"
    assert out.startswith("2 added, 0 updated, 0 unchanged, 1 failed, 3 skipped")
    assert f"failed: {docs / 'broken.pdf'}: " in err


def test_a_named_file_that_is_missing_makes_kb_add_exit_1_though_the_other_was_imported(tmp_path, capsys):
    docs = _folder(tmp_path)
    missing = tmp_path / "no-such-file.md"
    code, out, err = run_main(capsys, "add", str(docs / "tides.md"), str(missing), "--data-dir", str(tmp_path / "data"))
    assert code == 1, err
    assert out.startswith("1 added, 0 updated, 0 unchanged, 1 failed")
    assert [line for line in err.splitlines() if line.startswith("failed: ")] == [
        f"failed: {missing}: no such file or folder"]


def test_a_file_beside_a_page_left_out_offline_fails_with_1_not_2(tmp_path, capsys):
    # 2 says "the network is off" alone; a file that failed as well is a failure (1), as without the page
    docs = _folder(tmp_path)
    missing = tmp_path / "no-such-file.md"
    code, out, err = run_main(capsys, "add", "--offline", "https://example.org/guide.html", str(docs / "tides.md"),
                              str(missing), "--data-dir", str(tmp_path / "data"))
    assert code == 1, err  # was 2, as if the network alone were to blame
    assert out.startswith("1 added, 0 updated, 0 unchanged, 2 failed")
    assert "not downloaded: the network is off (offline mode)" in err


def test_kb_add_help_and_the_readme_say_a_failure_beside_imported_sources_is_1(capsys):
    with pytest.raises(SystemExit):
        main(["kb", "add", "--help"])
    helped = " ".join(capsys.readouterr().out.split()).split("Exit status: ", 1)[1]
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    said = " ".join(readme.split("\nExit status: `0` when the verb did its work", 1)[1].split("\n\n")[0].split())
    assert "even when the others were imported" in helped.split("1 failed", 1)[1], helped
    assert "even when the others were imported" in said.split("`1` when it failed", 1)[1], said
