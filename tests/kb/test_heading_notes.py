"""A note that is only a heading ("# Call the dentist on Tuesday about the crown", a page of one <h1>) is
imported, the heading as its text; a page whose only other words are links is still navigation."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tinyrag_desktop.kb import Importer, open_store, search
from tinyrag_desktop.kb.errors import NoText
from tinyrag_desktop.kb.readers import read_bytes

NOTES = {
    "todo.md": ("# Call the dentist on Tuesday about the crown\n", "dentist crown"),
    "setext.md": ("Call the plumber on Wednesday\n===\n", "plumber Wednesday"),
    "only.html": ("<html><body><h1>Gutter cleaning on Friday</h1></body></html>", "gutter cleaning"),
    "title.txt": ("Renew the passport in March\n===========================\n", "passport March"),
}


def test_notes_that_are_only_a_heading_are_imported_and_found(tmp_path, data_dir):
    folder = tmp_path / "notes"
    folder.mkdir()
    for name, (text, _) in NOTES.items():
        (folder / name).write_text(text)
    with open_store(data_dir) as kb:
        report = Importer(kb).run([str(folder)])
    assert len(report.added) == len(NOTES) and not report.skipped, report.skipped
    for name, (_, words) in NOTES.items():
        hit = search(data_dir, words, 1)[0]
        assert Path(hit.location).name == name
        assert hit.text.lower().startswith(words.split()[0].lower()) or words.split()[0] in hit.text


def test_a_page_of_a_heading_and_links_is_still_navigation():
    links = "".join(f"<li><a href='p{i}.html'>Topic number {i}</a></li>" for i in range(12))
    with pytest.raises(NoText, match="only navigation"):
        read_bytes(f"<html><body><h1>Index</h1><ul>{links}</ul></body></html>".encode(), "html", "index.html")


def test_an_empty_heading_is_still_no_text():
    with pytest.raises(NoText):
        read_bytes(b"#   \n\n##  \n", "markdown", "empty.md")


_WORDS = st.text(st.characters(categories=("L", "N")), min_size=1, max_size=12)


@settings(max_examples=80, deadline=None)
@given(words=st.lists(_WORDS, min_size=1, max_size=10), level=st.integers(1, 6))
def test_any_heading_alone_is_the_notes_text(words, level):
    heading = " ".join(words)
    doc = read_bytes(f"{'#' * level} {heading}\n".encode(), "markdown", "note.md")
    assert [b.kind for b in doc.blocks] == ["text"]
    assert doc.blocks[0].text.split() == heading.split()
