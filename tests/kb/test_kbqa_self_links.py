"""A link (a symbolic link) to itself, or in a loop of links, is said to be one, not a link to nothing."""

from __future__ import annotations

import os

import pytest

from tests.kb.cli_run import run_main
from tinyrag_desktop.kb import Importer, open_store

pytestmark = pytest.mark.skipif(os.name == "nt", reason="symbolic links need privileges on Windows")


def _folder(tmp_path):
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "herons.md").write_text("# Herons\n\nHerons stand still in shallow water.\n", encoding="utf-8")
    os.symlink("self.md", folder / "self.md")  # points at itself
    os.symlink("b.md", folder / "a.md")  # a.md -> b.md -> a.md
    os.symlink("a.md", folder / "b.md")
    os.symlink("gone.md", folder / "broken.md")  # points at a file that is not there
    return folder


def test_a_link_to_itself_is_not_said_to_point_to_nothing(tmp_path, data_dir):
    folder = _folder(tmp_path)
    with open_store(data_dir) as kb:
        report = Importer(kb).run([str(folder), str(folder / "self.md")])
    skipped = {os.path.basename(s.location): s.reason for s in report.skipped}
    # All three were "a link to something that does not exist".
    assert skipped == {
        "self.md": "a link to itself, not to a file",
        "a.md": "a link in a loop of links that leads back to itself, never to a file",
        "b.md": "a link in a loop of links that leads back to itself, never to a file",
        "broken.md": "a link to something that does not exist",
    }
    # named on its own it fails, as a broken link named on its own does, with the same reason
    assert [(os.path.basename(f.location), f.reason) for f in report.failed] == [
        ("self.md", "a link to itself, not to a file")]
    assert len(report.added) == 1


def test_kb_add_says_a_link_to_itself_is_one(tmp_path, data_dir, capsys):
    folder = _folder(tmp_path)
    code, _, err = run_main(capsys, "add", str(folder / "self.md"), "--data-dir", str(data_dir))
    assert code == 1 and f"failed: {folder / 'self.md'}: a link to itself, not to a file\n" in err
