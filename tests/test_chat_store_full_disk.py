"""A chat history on a full disk is said to be on a full disk, in words that say what to do, whether SQLite
says "database or disk is full" (a new file) or only "disk I/O error" (the -shm file of one that exists
cannot grow as it opens, a write that fails midway)."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tinyrag_desktop.app import dialog_words
from tinyrag_desktop.chat_file import ChatStoreError
from tinyrag_desktop.chats import ChatStore

ROOT = Path(__file__).resolve().parents[1]


def test_a_new_chat_history_on_a_full_disk_says_so_at_start(tmp_path, monkeypatch):
    real_connect = sqlite3.connect

    def full(*args, **kwargs):  # SQLITE_FULL for real, with the test disk's room untouched
        conn = real_connect(*args, **kwargs)
        conn.execute("PRAGMA max_page_count = 1")
        return conn

    monkeypatch.setattr(sqlite3, "connect", full)
    with pytest.raises(ChatStoreError) as failure:
        ChatStore(tmp_path / "data")
    message = str(failure.value)
    assert message == (f"Could not open the chat history {tmp_path / 'data' / 'chats.sqlite3'}: the disk it is on "
                       f"is full. Free some space there ({tmp_path / 'data'}), then try again, or use another data "
                       "folder (--data-dir).")  # it was SQLite's "database or disk is full"
    assert dialog_words(message).endswith("then try again.")


# A file-size limit makes every write that grows a file fail (EFBIG), as a full disk does, where SQLite
# says "disk I/O error"; the disk itself is made to look full, as it would be.
_FULL_DISK = """
import resource, signal, sys
from pathlib import Path
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
import tinyrag_desktop.sqlitefiles as files
files.free_bytes = lambda folder: 0
from tinyrag_desktop.chats import ChatStore, ChatStoreError
data = Path(sys.argv[1])
if sys.argv[2] == "writing":
    store = ChatStore(data)
resource.setrlimit(resource.RLIMIT_FSIZE, (0, resource.RLIM_INFINITY))
try:
    if sys.argv[2] == "writing":
        store.add_user_message(store.new_chat().id, "A question " * 2000)
    else:
        ChatStore(data)
except ChatStoreError as exc:
    print(exc)
"""


@pytest.mark.skipif(sys.platform == "win32", reason="file-size limits (RLIMIT_FSIZE) are POSIX")
@pytest.mark.parametrize("when", ["opening", "writing"])
def test_a_chat_history_whose_disk_fills_is_said_to_be_on_a_full_disk_not_an_io_error(tmp_path, when):
    data = tmp_path / "data"
    store = ChatStore(data)
    store.add_user_message(store.new_chat().id, "kept")
    store.close()  # the -wal and -shm files go: opening makes them again
    done = subprocess.run([sys.executable, "-c", _FULL_DISK, str(data), when], cwd=ROOT, capture_output=True,
                          text=True, timeout=60, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    said = done.stdout.strip()
    assert "disk I/O error" not in said, said
    assert said.startswith(f"Could not {'open' if when == 'opening' else 'write'} the chat history "), said
    assert "full. Free some space" in said, said
    with sqlite3.connect(data / "chats.sqlite3") as db:  # nothing lost
        assert [r[0] for r in db.execute("SELECT content FROM messages")] == ["kept"]
