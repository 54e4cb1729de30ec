"""A file in a folder that this user may not read (another user's file in /etc, a shared folder) is skipped
with the reason, as a folder this user may not read is and a file without an extension was: it failed,
and `kb add /etc` or the panel counted it a failure of the import while its neighbours were skipped.
Named by itself, it still fails: what the user asked for was not imported."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from tests.permissions import REPO, as_a_user, owned_by_the_user
from tinyrag_desktop.kb import Importer, import_reading, open_store


def test_a_file_this_user_may_not_read_is_skipped_in_a_folder_and_fails_named_by_itself(data_dir, tmp_path,
                                                                                          monkeypatch):
    folder = tmp_path / "shared"
    folder.mkdir()
    (folder / "open.md").write_text("# Herons\n\nHerons wade in the shallows.\n")
    secret = folder / "secret.md"
    secret.write_text("# Salaries\n")
    secret.chmod(0)
    if os.geteuid() == 0:  # root reads it anyway: it is refused here as the system refuses anyone else
        read_now = import_reading.read_now

        def refused(path: Path, most: int) -> bytes:
            if path == secret:
                raise PermissionError(13, "Permission denied", str(path))
            return read_now(path, most)

        monkeypatch.setattr(import_reading, "read_now", refused)
    with open_store(data_dir) as kb:
        in_folder = Importer(kb).run([str(folder)])
        named = Importer(kb).run([str(secret)])
    assert [p.rsplit("/", 1)[-1] for p in in_folder.added] == ["open.md"]
    assert not in_folder.failed, in_folder.failed
    assert [(f.location.rsplit("/", 1)[-1], f.reason) for f in in_folder.skipped] == [
        ("secret.md", "could not be read (Permission denied)")]
    assert [f.reason for f in named.failed] == ["could not be read (Permission denied)"]


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX permissions")
def test_a_folder_named_that_this_user_may_not_read_fails_once():
    # it was "skipped: could not be read (Permission denied)" and "skipped: no supported files found in this
    # folder", 2 skipped, exit 0: two lines at odds, and what was asked for was not imported
    top = Path(tempfile.mkdtemp(prefix="tinyrag-kb-unreadable-"))  # outside pytest's root-only folder
    try:
        folder = top / "c14"
        folder.mkdir()
        (folder / "note.md").write_text("# Herons\n\nHerons wade in the shallows.\n", encoding="utf-8")
        owned_by_the_user(top)
        folder.chmod(0)
        env = {**os.environ, "HOME": str(top), "PYTHONPATH": str(REPO), "PYTHONIOENCODING": "utf-8"}
        done = subprocess.run(as_a_user([sys.executable, "-m", "tinyrag_desktop", "kb", "add", str(folder),
                                         "--data-dir", str(top / "data")]),
                              env=env, cwd="/", capture_output=True, text=True, timeout=120)
    finally:
        (top / "c14").chmod(0o700)
        shutil.rmtree(top)
    assert done.stderr.splitlines() == [f"failed: {folder}: could not be read (Permission denied)"], done.stderr
    assert done.stdout.startswith("0 added, 0 updated, 0 unchanged, 1 failed") and done.returncode == 1
