"""``kb add`` of a file whose name is not valid UTF-8: said on the console and written to the log."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.kb.cli_run import run_main


def test_a_file_name_that_is_not_utf8_is_logged_without_losing_the_log(tmp_path: Path, capsys) -> None:
    name = os.fsdecode(b"bad\xffname.md")
    try:
        (tmp_path / name).write_text("# Lamps\n\nOil lamps need a clean wick.\n", encoding="utf-8")
    except (OSError, UnicodeEncodeError):
        pytest.skip("this file system refuses such names")
    data = tmp_path / "data"
    code, out, err = run_main(capsys, "add", "--data-dir", str(data), str(tmp_path / name))
    assert code == 1 and "its name is not valid text (UTF-8)" in err
    # The failure's log line could not be encoded: "tinyrag: cannot write the log file … ('utf-8' codec
    # can't encode character '\udcff' …); going on without it." on the console, and the line was lost.
    assert "cannot write the log file" not in err
    log = (data / "logs" / "tinyrag.log").read_text(encoding="utf-8")
    assert "bad\ufffdname.md failed: its name is not valid text" in log


def test_a_name_that_is_not_utf8_is_said_with_its_bad_bytes_as_replacement_characters(tmp_path: Path, capsys) -> None:
    from tinyrag_desktop.kb import Importer, open_store

    folder = tmp_path / "notes"
    folder.mkdir()
    try:
        (folder / os.fsdecode(b"bad\xff\xfename.txt")).write_text("a note about the okapi\n")
    except (OSError, UnicodeEncodeError):
        pytest.skip("this file system refuses such names")
    (folder / "good.txt").write_text("a note about the saiga\n")
    with open_store(tmp_path / "data") as kb:
        report = Importer(kb).run([str(folder)])
    assert [Path(p).name for p in report.added] == ["good.txt"]
    assert [(f.location, f.reason) for f in report.failed] == [
        (str(folder / "bad\ufffd\ufffdname.txt"), "its name is not valid text (UTF-8); rename the file to import it")]
    code, out, err = run_main(capsys, "add", "--data-dir", str(tmp_path / "data"), str(folder))
    assert f"failed: {folder}/bad\ufffd\ufffdname.txt: its name is not valid text" in err and "\\udc" not in err


@settings(max_examples=200, deadline=None)
@given(st.binary(min_size=1, max_size=40).filter(lambda b: b"/" not in b and b"\x00" not in b))
def test_any_file_name_is_shown_as_valid_text(raw: bytes) -> None:
    from tinyrag_desktop.kb.import_items import _shown

    name = os.fsdecode(raw)
    shown = _shown(name)
    shown.encode("utf-8")  # writable to any UTF-8 console or log
    assert shown == raw.decode("utf-8", "replace")
