"""A folder's import follows the links that stay inside it, and passes by, with a reason, those that lead out
of it (a folder from elsewhere held ``passwd.txt -> /etc/passwd`` and ``root -> /``); a file or folder named by
itself is taken wherever it leads. A link that cannot even be looked at is one file passed by, not a whole
import ended with a traceback."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tinyrag_desktop.kb import Importer, open_store, search
from tinyrag_desktop.kb.import_items import OUTSIDE

from .cli_run import run_main

pytestmark = pytest.mark.skipif(os.name != "posix", reason="symbolic links")

# A link whose target has a name longer than any file system takes: stat() fails with ENAMETOOLONG, for root too.
TOO_LONG = "n" * 300 + ".md"


def _import(data_dir: Path, items: list[str]):
    with open_store(data_dir) as kb:
        return Importer(kb).run(items)


def _folder(tmp_path: Path) -> tuple[Path, Path]:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("the vault code is wombat-4471\n")
    (outside / "more").mkdir()
    (outside / "more" / "plans.md").write_text("# Plans\n\nthe quokka project\n")
    notes = tmp_path / "notes"
    (notes / "sub").mkdir(parents=True)
    (notes / "a.md").write_text("# A\n\nnote about the okapi\n")
    (notes / "sub" / "b.md").write_text("# B\n\nnote about the numbat\n")
    (notes / "passwd.txt").symlink_to(outside / "secret.txt")  # a file out of the folder
    (notes / "more").symlink_to(outside / "more")  # a folder out of it
    (notes / "root").symlink_to("/")  # the whole disk
    (notes / "up").symlink_to("..")  # the folder around it
    (notes / "b-again.md").symlink_to(notes / "sub" / "b.md")  # inside: followed (once)
    (notes / "zshelf").symlink_to("sub")  # inside: a folder already imported (walked after sub)
    return notes, outside


def test_links_out_of_the_folder_are_passed_by_with_the_reason(tmp_path, data_dir):
    notes, outside = _folder(tmp_path)
    report = _import(data_dir, [str(notes)])
    assert sorted(Path(p).name for p in report.added) == ["a.md", "b.md"]
    skipped = {Path(f.location).name: f.reason for f in report.skipped}
    assert skipped == {"passwd.txt": OUTSIDE, "more": OUTSIDE, "root": OUTSIDE, "up": OUTSIDE,
                       "b.md": "already in this import, through the link b-again.md",
                       "zshelf": "a link to a folder already imported"}
    assert search(data_dir, "wombat", 3) == [] and search(data_dir, "quokka", 3) == []
    assert OUTSIDE.startswith("a link to a place outside the folder")


def test_a_file_or_folder_named_by_itself_is_taken_wherever_it_leads(tmp_path, data_dir):
    notes, outside = _folder(tmp_path)
    report = _import(data_dir, [str(notes / "passwd.txt"), str(notes / "more")])
    assert report.added == [str(outside / "secret.txt"), str(outside / "more" / "plans.md")]
    assert not report.failed and not report.skipped


def test_a_folder_named_through_a_link_follows_links_inside_its_real_folder(tmp_path, data_dir):
    notes, _ = _folder(tmp_path)
    (tmp_path / "via").symlink_to(notes)
    report = _import(data_dir, [str(tmp_path / "via")])
    assert sorted(Path(p).name for p in report.added) == ["a.md", "b.md"]
    assert sorted(Path(f.location).name for f in report.skipped if f.reason == OUTSIDE) == [
        "more", "passwd.txt", "root", "up"]


def test_a_link_that_cannot_be_looked_at_is_passed_by_and_the_import_goes_on(tmp_path, data_dir):
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "a.md").write_text("# A\n\nnote about the okapi\n")
    (notes / "long.md").symlink_to(TOO_LONG)
    (notes / "z.md").write_text("# Z\n\nnote about the zorilla\n")
    report = _import(data_dir, [str(notes), str(notes / "long.md"), str(tmp_path / "elsewhere.md")])
    assert sorted(Path(p).name for p in report.added) == ["a.md", "z.md"]
    why = "a link to a place that cannot be read (File name too long)"
    assert [(f.location, f.reason) for f in report.skipped] == [(str(notes / "long.md"), why)]
    assert [(f.location, f.reason) for f in report.failed] == [
        (str(notes / "long.md"), why), (str(tmp_path / "elsewhere.md"), "no such file or folder")]


def test_kb_add_says_it_without_a_traceback(tmp_path, capsys):
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "a.md").write_text("# A\n\nnote about the okapi\n")
    (notes / "long.md").symlink_to(TOO_LONG)
    code, out, err = run_main(capsys, "--data-dir", str(tmp_path / "data"), "add", str(notes))
    assert code == 0 and out.startswith("1 added")
    assert f"{notes / 'long.md'}: a link to a place that cannot be read (File name too long)" in err
    assert "Traceback" not in err


def test_a_link_into_a_place_not_allowed_is_passed_by(tmp_path, data_dir):
    target = "/proc/1/cwd/x.md"  # for a container's root too, often: reading another process's folder
    try:
        os.stat(target)
    except PermissionError:
        pass
    except OSError:
        pytest.skip("/proc/1/cwd can be looked into here")
    else:
        pytest.skip("/proc/1/cwd can be looked into here")
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "a.md").write_text("# A\n\nnote about the okapi\n")
    (notes / "denied.md").symlink_to(target)
    report = _import(data_dir, [str(notes)])
    assert [Path(p).name for p in report.added] == ["a.md"]
    assert [(Path(f.location).name, f.reason) for f in report.skipped] == [
        ("denied.md", "a link to a place that cannot be read (Permission denied)")]
