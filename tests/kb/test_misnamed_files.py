"""A PDF or Word name on a file that is something else: the reason says what it is, in words."""

from __future__ import annotations

import pytest

from tinyrag_desktop.kb.errors import ReadError
from tinyrag_desktop.kb.readers import read_bytes


@pytest.mark.parametrize("data, kind, reason", [
    # "not a DOCX file (text content)", "not a PDF file (PNG image content)", "(binary content)"
    (b"Meeting notes: the wombat enclosure opens on Monday.\n", "docx",
     "plain text, not a DOCX file: rename it to .txt to import it"),
    (b"Meeting notes: the wombat enclosure opens on Monday.\n", "pdf",
     "plain text, not a PDF file: rename it to .txt to import it"),
    (b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4, "pdf", "looks like PNG image data, not a PDF file"),
    (bytes(range(256)) * 8, "docx", "looks like binary data, not a DOCX file"),
])
def test_a_file_named_as_a_document_it_is_not_says_what_it_is(data, kind, reason):
    with pytest.raises(ReadError) as info:
        read_bytes(data, kind, "notes")
    assert str(info.value) == reason
