"""The URI the app opens its databases by for reading: one SQLite takes on a Windows share (a data folder on a
mapped network drive resolves to \\\\server\\share), where pathlib's file://server/… was refused."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path, PureWindowsPath

import pytest

from tinyrag_desktop.kb.store_file import readonly_uri
from tinyrag_desktop.sqlitefiles import file_uri


def test_a_share_gets_no_host_sqlite_would_refuse() -> None:
    share = PureWindowsPath(r"\\server\share\tinyrag\knowledge.db")
    assert share.as_uri() == "file://server/share/tinyrag/knowledge.db"  # what the app passed before
    with pytest.raises(sqlite3.OperationalError, match="invalid uri authority"):
        sqlite3.connect(f"{share.as_uri()}?mode=ro", uri=True)
    uri = file_uri(share)
    assert uri == "file:////server/share/tinyrag/knowledge.db"
    with pytest.raises(sqlite3.OperationalError) as failed:  # no such share here: the file, not the URI, fails
        sqlite3.connect(f"{uri}?mode=ro", uri=True)
    assert "authority" not in str(failed.value)


def test_a_drive_or_a_posix_path_is_written_as_pathlib_writes_it(tmp_path: Path) -> None:
    drive = PureWindowsPath(r"C:\Users\Иван\AppData\Local\tinyrag-desktop\knowledge.db")
    assert file_uri(drive) == drive.as_uri()
    db = tmp_path / "a #1 ?%" / "knowledge.db"
    db.parent.mkdir()
    with closing(sqlite3.connect(db)) as conn:
        conn.execute("CREATE TABLE t(x)")
    assert readonly_uri(db).startswith(file_uri(db.resolve()))
    with closing(sqlite3.connect(readonly_uri(db), uri=True)) as conn:
        assert conn.execute("SELECT name FROM sqlite_master").fetchone() == ("t",)
