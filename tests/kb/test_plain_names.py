"""Files people keep beside their documents without a format's extension (README, COPYING, NEWS.Debian) and
gzip-compressed documents (guide.html.gz, as /usr/share/doc keeps them): read, or skipped with a reason."""

from __future__ import annotations

import gzip
import os
from pathlib import Path

import pytest

from tinyrag_desktop.kb import Importer, open_store, search
from tinyrag_desktop.kb.errors import ReadError, UnsupportedFile
from tinyrag_desktop.kb.readers import file_type, gunzip


def _import(data_dir: Path, *paths: str, **options):
    with open_store(data_dir) as kb:
        return Importer(kb, **options).run(paths)


@pytest.mark.parametrize("name, kind", [
    ("README", "text"), ("COPYING", "text"), ("NEWS.Debian", "text"), ("changelog.Debian.gz", "text"),
    ("guide.html.gz", "html"), ("notes.MD.GZ", "markdown"), ("Makefile", "code"), ("manual.pdf.gz", "pdf"),
])
def test_file_type_reads_plain_names_and_the_file_inside_a_gzip(name, kind):
    assert file_type(Path(name)) == kind


@pytest.mark.parametrize("name, shown", [
    ("photo.jpeg", ".jpeg"), ("backup.tar.gz", ".tar.gz"), ("setup.msi", ".msi"), ("release.2024", ".2024"),
])
def test_other_extensions_stay_unsupported_and_say_which(name, shown):
    with pytest.raises(UnsupportedFile, match=rf"^{shown} is not a supported type"):
        file_type(Path(name))


@pytest.mark.parametrize("name", ["Apache-2.0", "MPL-1.1", "LGPL-2.1", "GFDL-1.3", "CC0-1.0", "GPL-3"])
def test_a_name_ending_in_a_version_number_is_a_plain_name(name):
    # /usr/share/common-licenses: "Apache-2.0" was refused as ".0 is not a supported type".
    assert file_type(Path(name)) == "text"


def test_a_folder_of_licences_is_read_and_a_versioned_program_skipped_as_no_text(tmp_path, data_dir):
    folder = tmp_path / "licenses"
    folder.mkdir()
    (folder / "Apache-2.0").write_text("Apache License\nVersion 2.0, January 2004\n\nTERMS AND CONDITIONS",
                                       encoding="utf-8")
    (folder / "MPL-2.0").write_text("Mozilla Public License Version 2.0\n\n1. Definitions", encoding="utf-8")
    (folder / "python3.11").write_bytes(b"\x7fELF\x02\x01\x01" + bytes(range(256)) * 8)
    report = _import(data_dir, str(folder))
    assert sorted(Path(p).name for p in report.added) == ["Apache-2.0", "MPL-2.0"]
    [skipped] = report.skipped
    assert Path(skipped.location).name == "python3.11" and skipped.reason.endswith("(program)")
    assert [hit.location for hit in search(data_dir, "Mozilla Public License", 1)] == [str(folder / "MPL-2.0")]


def test_a_folder_gives_its_readme_and_compressed_pages_and_skips_programs(tmp_path, data_dir):
    folder = tmp_path / "project"
    folder.mkdir()
    (folder / "README").write_text("Platypuses lay eggs and hunt by electroreception.", encoding="utf-8")
    (folder / "NEWS.Debian").write_text("The quokka package now builds reproducibly.", encoding="utf-8")
    (folder / "guide.html.gz").write_bytes(gzip.compress(
        b"<html><head><title>Echidna guide</title></head><body><main><h1>Spines</h1>"
        b"<p>Echidnas roll into a ball of spines when threatened.</p></main></body></html>"))
    (folder / "tool").write_bytes(b"\x7fELF\x02\x01\x01" + os.urandom(4000))  # a program, no extension
    (folder / "blob").write_bytes(os.urandom(3000))
    (folder / "backup.tar.gz").write_bytes(gzip.compress(b"not read"))
    report = _import(data_dir, str(folder))

    assert sorted(Path(p).name for p in report.added) == ["NEWS.Debian", "README", "guide.html.gz"]
    skipped = {Path(f.location).name: f.reason for f in report.skipped}
    assert skipped == {"tool": "no extension, and not text (program)", "blob": "no extension, and not text (binary)",
                       "backup.tar.gz": ".tar.gz is not a supported type"}
    assert Path(search(data_dir, "platypus eggs", 1)[0].location).name == "README"
    hit = search(data_dir, "echidna spines threatened", 1)[0]
    assert (Path(hit.location).name, hit.title) == ("guide.html.gz", "Echidna guide")
    assert "Spines" in hit.heading


def test_a_changed_compressed_file_is_read_again_and_an_unchanged_one_skipped(tmp_path, data_dir):
    page = tmp_path / "notes.md.gz"
    page.write_bytes(gzip.compress(b"# Wombats\n\nWombats leave cube-shaped droppings.", mtime=0))
    assert len(_import(data_dir, str(page)).added) == 1
    page.write_bytes(gzip.compress(b"# Wombats\n\nWombats leave cube-shaped droppings.", mtime=1))
    assert len(_import(data_dir, str(page)).unchanged) == 1  # the same text: only the wrapper changed
    page.write_bytes(gzip.compress(b"# Wombats\n\nWombats dig burrows with strong claws.", mtime=2))
    assert len(_import(data_dir, str(page)).updated) == 1
    assert search(data_dir, "wombats burrows claws", 1)[0].text.endswith("strong claws.")
    assert not search(data_dir, "droppings", 1)


def test_a_damaged_or_bomb_like_gzip_is_refused_with_a_reason(tmp_path, data_dir):
    (tmp_path / "cut.txt.gz").write_bytes(gzip.compress(b"a sentence that is cut " * 200)[:60])
    (tmp_path / "bomb.txt.gz").write_bytes(gzip.compress(b"a" * 3 * 2**20))
    (tmp_path / "fine.txt.gz").write_bytes(gzip.compress(b"Koalas sleep most of the day."))
    report = _import(data_dir, str(tmp_path), max_file_bytes=2 * 2**20)
    # in a folder, the damaged one fails; the one too large once unpacked is skipped, as a too-large file is
    assert {Path(f.location).name: f.reason for f in report.failed} == {
        "cut.txt.gz": "a damaged or incomplete gzip file"}
    assert {Path(f.location).name: f.reason for f in report.skipped}["bomb.txt.gz"] == \
        "too large once uncompressed (over 2 MB, the limit)"
    assert [Path(p).name for p in report.added] == ["fine.txt.gz"]


def test_gunzip_stops_at_the_limit_without_unpacking_the_rest():
    import tracemalloc

    packed = gzip.compress(b"z" * 5_000_000)
    with pytest.raises(ReadError, match="too large once uncompressed"):
        gunzip(packed, 1000)
    assert gunzip(packed, 5_000_000) == b"z" * 5_000_000
    # "without unpacking the rest": 200 MB of zeros (200 KB packed) never held whole
    bomb = gzip.compress(bytes(200 * 2**20))
    tracemalloc.start()
    try:
        with pytest.raises(ReadError, match="too large once uncompressed"):
            gunzip(bomb, 2**20)
        assert tracemalloc.get_traced_memory()[1] < 20 * 2**20
    finally:
        tracemalloc.stop()


def test_a_binary_file_named_readme_is_refused_as_data(tmp_path, data_dir):
    (tmp_path / "README").write_bytes(b"\x00\x01\x02\x03" * 1000)
    report = _import(data_dir, str(tmp_path / "README"))  # named by the user: read, and refused with why
    assert [f.reason for f in report.failed] == ["looks like binary data, not text"]


def test_a_link_is_read_by_its_own_name_and_its_source_imports_again(tmp_path, data_dir):
    # /usr/share/doc/…/LICENSE links to /usr/share/common-licenses/Apache-2.0, a name no reader takes
    licences, project = tmp_path / "licences", tmp_path / "project"
    licences.mkdir()
    project.mkdir()
    (licences / "Apache-2.0").write_text("Licensed under the Apache License, Version 2.0.", encoding="utf-8")
    (project / "LICENSE").symlink_to(licences / "Apache-2.0")
    report = _import(data_dir, str(project / "LICENSE"))  # named by itself (in the folder's walk: OUTSIDE)
    assert report.added == [str(licences / "Apache-2.0")] and not report.failed
    assert search(data_dir, "apache license", 1)[0].location == str(licences / "Apache-2.0")
    # importing the source again by its location (the panel's Re-import) reads it as it was read
    (licences / "Apache-2.0").write_text("Licensed under the Apache License, Version 2.0, January 2004.")
    again = _import(data_dir, str(licences / "Apache-2.0"))
    assert again.updated == [str(licences / "Apache-2.0")] and not again.failed
    # a file of such a name never imported is read as plain text too: its name ends in a version, not a format
    (licences / "MIT-1.1").write_text("Permission is hereby granted.")
    assert _import(data_dir, str(licences / "MIT-1.1")).added == [str(licences / "MIT-1.1")]


def test_gzip_content_is_unpacked_whatever_the_file_is_called(tmp_path, data_dir):
    (tmp_path / "notes.txt").write_bytes(gzip.compress(b"Numbats eat termites."))
    report = _import(data_dir, str(tmp_path / "notes.txt"))
    assert len(report.added) == 1 and "termites" in search(data_dir, "numbats", 1)[0].text


def test_a_compressed_pdf_or_word_document_is_read(tmp_path, data_dir):
    # file_type names manual.pdf.gz a PDF, and /usr/share/doc keeps PDFs so; the gzip must still be unpacked
    from .conftest import make_docx, make_pdf

    (tmp_path / "manual.pdf.gz").write_bytes(gzip.compress(make_pdf(["Quarterly revenue grew by eleven percent."])))
    make_docx(tmp_path / "garden.docx")
    (tmp_path / "garden.docx.gz").write_bytes(gzip.compress((tmp_path / "garden.docx").read_bytes()))
    report = _import(data_dir, str(tmp_path / "manual.pdf.gz"), str(tmp_path / "garden.docx.gz"))
    assert not report.failed and len(report.added) == 2
    assert Path(search(data_dir, "quarterly revenue", 1)[0].location).name == "manual.pdf.gz"
    assert Path(search(data_dir, "tomatoes watering", 1)[0].location).name == "garden.docx.gz"


def test_a_plain_named_link_to_a_typed_file_is_read_by_the_file_s_type(tmp_path, data_dir):
    # many projects keep README as a link to README.md: the Markdown must still be read as Markdown (headings,
    # title), as it was before plain names were imported, not as plain text titled "README"
    project = tmp_path / "project"
    project.mkdir()
    (project / "README.md").write_text("# Project Kiwi\n\n## Building\n\nRun **make** to build the kiwi binary.\n")
    (project / "README").symlink_to("README.md")
    report = _import(data_dir, str(project))
    assert report.added == [str(project / "README.md")] and not report.failed
    hit = search(data_dir, "build kiwi binary", 1)[0]
    assert (hit.title, hit.heading, hit.text) == ("Project Kiwi", "Project Kiwi > Building",
                                                  "Run make to build the kiwi binary.")
    with open_store(data_dir) as kb:
        assert [s.type for s in kb.sources()] == ["markdown"]


def test_links_in_a_folder_do_not_bring_in_hidden_files_read_only_as_plain_text(tmp_path, data_dir):
    # Extension-less files are read now, and a link by its own name: a folder from elsewhere (an unpacked
    # archive, a clone) with links into ~/.ssh or ~/.aws would put private keys and credentials into the
    # knowledge base, and from there into prompts. Hidden folders are skipped in a folder; through a link too.
    # Imported as the home folder: a link out of the folder imported is not followed at all (OUTSIDE).
    home, project = tmp_path / "home", tmp_path / "home" / "project"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_rsa").write_text("-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk\n")
    (home / ".aws").mkdir()
    (home / ".aws" / "credentials").write_text("[default]\naws_secret_access_key = wJalrXUtnFEMI\n")
    (home / ".notes").mkdir()
    (home / ".notes" / "diary.md").write_text("# Diary\n\nThe quince tree flowered today.\n")
    project.mkdir()
    (project / "README").write_text("Platypuses lay eggs.")
    (project / "keys").symlink_to(home / ".ssh")
    (project / "NOTES").symlink_to(home / ".aws" / "credentials")
    (project / "key.txt").symlink_to(home / ".ssh" / "id_rsa")
    (project / "diary.md").symlink_to(home / ".notes" / "diary.md")  # named as a document: read, as before
    report = _import(data_dir, str(home))
    assert sorted(Path(p).name for p in report.added) == ["README", "diary.md"]
    skipped = {Path(f.location).name: f.reason for f in report.skipped}
    assert skipped == {**{name: "a link into a hidden file or folder" for name in ("NOTES", "id_rsa", "key.txt")},
                       **{name: "hidden folder" for name in (".aws", ".notes", ".ssh")}}
    assert not search(data_dir, "private key", 3) and not search(data_dir, "aws secret", 3)
    # the user may still import a hidden folder itself, or a file by its name
    assert len(_import(data_dir, str(home / ".aws")).added) == 1


def test_a_plain_named_file_with_an_extension_that_is_not_text_is_not_said_to_have_none(tmp_path, data_dir):
    import zipfile

    with zipfile.ZipFile(tmp_path / "notes.odt", "w") as odt:  # "notes" is a plain name; .odt a format
        odt.writestr("content.xml", "<office:document-content/>")
    (tmp_path / "blob").write_bytes(os.urandom(3000))
    report = _import(data_dir, str(tmp_path))
    skipped = {Path(f.location).name: f.reason for f in report.skipped}
    assert skipped["notes.odt"] == ".odt is not a supported type (zip)"
    assert skipped["blob"] == "no extension, and not text (binary)"


def test_a_plain_name_with_another_format_s_extension_is_that_format(tmp_path, data_dir):
    # NEWS.Debian and README.source are plain names with a qualifier; notes.py and install.sh are a program
    # and a script (read as code, as main.py beside them is), notes.rtf is RTF, whose markup would be read as
    # its text
    folder = tmp_path / "project"
    folder.mkdir()
    (folder / "main.py").write_text("print('main')\n")
    (folder / "notes.py").write_text("print('notes')\n")
    (folder / "install.sh").write_text("#!/bin/sh\nmake install\n")
    (folder / "notes.rtf").write_text(r"{\rtf1\ansi\deff0 {\fonttbl {\f0 Times;}} \f0\fs24 Kiwis cannot fly.}")
    report = _import(data_dir, str(folder))
    assert sorted(Path(p).name for p in report.added) == ["install.sh", "main.py", "notes.py"]
    assert {Path(f.location).name: f.reason for f in report.skipped} == {
        "notes.rtf": ".rtf is not a supported type"}
