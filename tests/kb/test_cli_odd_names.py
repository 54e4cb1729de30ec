"""``kb add`` of a file whose name is not valid UTF-8: said on the console and written to the log."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

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
    assert "bad\\udcffname.md failed: its name is not valid text" in log
