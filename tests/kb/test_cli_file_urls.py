"""``kb add file://…``: a link to a file on this computer is imported as its path; one naming another
computer is refused in words that say to give the path instead."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.kb.cli_run import run_main
from tinyrag_desktop.kb import open_store


@pytest.fixture
def note(tmp_path: Path) -> Path:
    folder = tmp_path / "my notes"
    folder.mkdir()
    path = folder / "otter facts.md"
    path.write_text("# Otters\n\nOtters hold hands while they sleep.\n", encoding="utf-8")
    return path


def _failures(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.startswith("failed: ")]


@pytest.mark.skipif(sys.platform == "win32", reason="file://HOST/… is a Windows share's path there")
def test_a_file_url_from_another_computer_says_to_give_the_path(tmp_path, capsys):
    code, out, err = run_main(capsys, "add", "file://otherhost/x", "--data-dir", str(tmp_path / "data"))
    assert code == 1 and "Traceback" not in err
    # was "failed: file:/otherhost/x: no such file or folder", of a path made of the address
    assert _failures(err) == ["failed: file://otherhost/x: a file:// address from another computer (otherhost) "
                              "cannot be read; give the file's path instead (where that computer's shared "
                              "folder is mounted here, for one)"]


@pytest.mark.parametrize("host", ["", "localhost", "LOCALHOST"])
def test_a_file_url_of_this_computer_is_imported_as_its_path(note, tmp_path, capsys, host):
    url = f"file://{host}{note.as_uri()[len('file://'):]}"  # spaces written %20, as a browser does
    assert "%20" in url
    code, out, err = run_main(capsys, "add", url, "--data-dir", str(tmp_path / "data"))
    assert code == 0 and out.startswith("1 added"), err
    with open_store(tmp_path / "data") as kb:
        assert [s.location for s in kb.sources()] == [str(note)]


def test_a_file_url_of_a_missing_file_names_the_path_it_looked_for(tmp_path, capsys):
    missing = tmp_path / "gone.md"
    code, out, err = run_main(capsys, "add", missing.as_uri(), "--data-dir", str(tmp_path / "data"))
    assert code == 1
    assert _failures(err) == [f"failed: {missing}: no such file or folder"]
