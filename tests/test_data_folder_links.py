"""A data folder named through a link that goes nowhere is said to be one, not "File exists"."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tinyrag_desktop.paths import DataDirError, resolve_data_dir

REPO = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.skipif(os.name == "nt", reason="symbolic links need privileges on Windows")


def test_a_link_to_a_missing_folder_is_said_to_be_one(tmp_path):
    link = tmp_path / "tinyrag"
    link.symlink_to(tmp_path / "gone")
    with pytest.raises(DataDirError) as raised:  # it said "cannot create the data folder …: File exists"
        resolve_data_dir(link)
    assert str(raised.value) == (f"cannot use {link} as the data folder: it is a link to {tmp_path / 'gone'}, "
                                 "which does not exist")
    with pytest.raises(DataDirError, match=f"{tmp_path / 'sub'} is a link to nowhere, which does not exist"):
        (tmp_path / "sub").symlink_to("nowhere")
        resolve_data_dir(tmp_path / "sub" / "data")


def test_a_link_to_a_folder_is_used(tmp_path):
    (tmp_path / "real").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "real")
    assert resolve_data_dir(tmp_path / "link" / "data").is_dir() and (tmp_path / "real" / "data").is_dir()


def test_ask_on_a_dangling_link_says_so_in_words(tmp_path):
    link = tmp_path / "data"
    link.symlink_to(tmp_path / "unplugged-drive" / "tinyrag")
    proc = subprocess.run([sys.executable, "-m", "tinyrag_desktop", "ask", "--data-dir", str(link), "hi"],
                          capture_output=True, text=True, cwd=REPO, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(REPO)})
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert f"it is a link to {tmp_path / 'unplugged-drive' / 'tinyrag'}, which does not exist" in proc.stderr


def test_a_data_folder_name_too_long_for_sqlite_is_said_to_be_so(tmp_path):
    # "Could not open the chat history …: unable to open database file", "check that you may read and write it"
    from tinyrag_desktop.chats import ChatStore
    from tinyrag_desktop.kb import open_store
    from tinyrag_desktop.paths import MAX_FOLDER_BYTES

    def named(size: int) -> Path:
        """A folder below tmp_path whose absolute name is ``size`` bytes long."""
        path, left = tmp_path, size - len(os.fsencode(tmp_path))
        while left > 101:
            path, left = path / ("d" * 100), left - 101
        return path / ("e" * (left - 1))

    longest = named(MAX_FOLDER_BYTES)
    assert len(os.fsencode(longest)) == MAX_FOLDER_BYTES
    ChatStore(resolve_data_dir(longest) / "chats.sqlite3").close()  # the longest name taken works
    open_store(longest / "knowledge.db").close()
    longer = named(MAX_FOLDER_BYTES + 1)
    with pytest.raises(DataDirError, match=f"its name is {MAX_FOLDER_BYTES + 1} bytes long, and the databases in it "
                                           f"can be opened only when it is at most {MAX_FOLDER_BYTES}"):
        resolve_data_dir(longer)
