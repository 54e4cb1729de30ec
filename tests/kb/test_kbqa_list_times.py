"""``kb list`` shows when a source was imported in local time, as the window does; ``--jsonl`` in UTC."""

from __future__ import annotations

import json
import os
import sqlite3
import time

import pytest

from tests.kb.cli_run import run_main

@pytest.fixture
def in_tokyo():
    """The process's time zone set to Japan's (UTC+9, no daylight saving), then put back."""
    before = os.environ.get("TZ")
    os.environ["TZ"] = "JST-9"  # POSIX form: needs no time zone database
    time.tzset()
    yield
    if before is None:
        del os.environ["TZ"]
    else:
        os.environ["TZ"] = before
    time.tzset()


def _imported_in_the_evening_utc(tmp_path, capsys):
    """A note imported by kb add, its import time then set to a known moment: 2026-11-30 20:15 UTC."""
    note = tmp_path / "owls.md"
    note.write_text("# Owls\n\nOwls hunt at night over the meadow.\n", encoding="utf-8")
    data = tmp_path / "data"
    assert run_main(capsys, "add", str(note), "--data-dir", str(data))[0] == 0
    with sqlite3.connect(data / "knowledge.db") as db:
        db.execute("UPDATE sources SET imported_at = '2026-11-30T20:15:00Z'")
    db.close()
    return note, data


@pytest.mark.skipif(not hasattr(time, "tzset"), reason="the time zone cannot be set for one process here")
def test_kb_list_shows_local_time_and_jsonl_keeps_utc(tmp_path, capsys, in_tokyo):
    from tinyrag_desktop.ui.kb_sources_view import local_time

    note, data = _imported_in_the_evening_utc(tmp_path, capsys)
    code, out, _ = run_main(capsys, "list", "--data-dir", str(data))
    # It showed "2026-11-30T20:15:00Z" while the panel said the next morning, 05:15, in Tokyo.
    assert code == 0 and "  2026-12-01 05:15  Owls\n" in out and "T20:15" not in out
    assert local_time("2026-11-30T20:15:00Z") == "2026-12-01 05:15"  # the panel's tooltip says the same
    code, out, _ = run_main(capsys, "list", "--data-dir", str(data), "--jsonl")
    assert json.loads(out)["imported_at"] == "2026-11-30T20:15:00Z"  # machine-readable: unchanged, UTC


@pytest.mark.skipif(not hasattr(time, "tzset"), reason="the time zone cannot be set for one process here")
def test_a_source_that_cannot_be_read_again_names_the_local_day_it_was_imported(tmp_path, capsys, in_tokyo):
    note, data = _imported_in_the_evening_utc(tmp_path, capsys)
    note.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4)  # no longer text
    code, _, err = run_main(capsys, "add", str(note), "--data-dir", str(data))
    # "the version imported 2026-11-30 stays …": the day in UTC, the evening before the morning in Tokyo
    assert "; the version imported 2026-12-01 stays in the knowledge base" in err
