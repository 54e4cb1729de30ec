"""Property tests: readers never fail on outside input except with ReadError; chunking keeps every word."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tinyrag_desktop.kb.chunking import chunk_blocks, split_long
from tinyrag_desktop.kb.errors import ReadError
from tinyrag_desktop.kb.models import Block
from tinyrag_desktop.kb.readers import read_bytes

_KINDS = ["text", "log", "markdown", "rst", "csv", "json", "xml", "html", "pdf", "docx"]
_MARKUP = st.sampled_from(["#", "##", "\n", "\n\n", "```", "~~~", "|", "---", "===", "::", "<p>", "</p>", "<h2>",
                           "<table><tr><td>", "<dl><dt>", "<a href=x>", "</a>", "<pre>", "{", "}", "[", "]", '"',
                           ",", ";", "<!--", "-->", "<?xml ?>", "<root>", "</root>", "\x00", "%PDF-", "PK\x03\x04"])
_DOCS = st.lists(st.one_of(st.text(max_size=30), _MARKUP), max_size=40).map("".join)


@settings(max_examples=150, deadline=None)
@given(kind=st.sampled_from(_KINDS), text=_DOCS)
def test_readers_fail_only_with_a_reason(kind, text):
    try:
        doc = read_bytes(text.encode("utf-8", "surrogatepass"), kind, "input")
    except ReadError as exc:
        assert str(exc)
    else:
        assert doc.title
        assert any(b.text.strip() for b in doc.blocks if b.kind != "heading")


@settings(max_examples=150, deadline=None)
@given(kind=st.sampled_from(_KINDS), data=st.binary(max_size=300))
def test_readers_on_arbitrary_bytes(kind, data):
    try:
        read_bytes(data, kind, "input")
    except ReadError:
        pass


# Few letters, many separators: long words, sentence ends and blank lines all turn up often.
_PROSE = st.text(alphabet=st.sampled_from("ab. \n\n?é"), min_size=1, max_size=3000)


def _chars(texts) -> str:
    """The non-blank characters in order: cutting may split a word but must lose or add nothing."""
    return "".join("".join(t.split()) for t in texts)


_BLOCKS = st.lists(
    st.one_of(
        st.builds(Block, st.just("heading"), st.text(min_size=1, max_size=40).filter(str.strip), st.integers(1, 6)),
        st.builds(Block, st.sampled_from(["text", "code", "table", "term"]),
                  st.one_of(_PROSE, st.text(min_size=1, max_size=3000)).filter(str.strip)),
    ),
    max_size=30,
)


@settings(max_examples=200, deadline=None)
@given(blocks=_BLOCKS, size=st.integers(100, 2000))
def test_chunks_keep_every_word_and_respect_the_size(blocks, size):
    chunks = chunk_blocks("Doc", blocks, size)
    assert _chars(c.text for c in chunks) == _chars(b.text for b in blocks if b.kind != "heading")
    assert all(len(c.text) <= size * 1.25 + 2 for c in chunks)
    assert all(c.heading.startswith("Doc") for c in chunks)


@given(st.one_of(_PROSE, st.text(max_size=5000)), st.integers(50, 1000))
def test_split_long_pieces_fit_and_keep_every_character(text, size):
    pieces = split_long(text, size)
    assert all(len(p) <= size for p in pieces)
    assert _chars(pieces) == _chars([text])
    assert all(p.strip() for p in pieces)


@pytest.mark.parametrize("kind", _KINDS)
def test_empty_input_says_empty(kind):
    with pytest.raises(ReadError, match="empty"):
        read_bytes(b"  \n ", kind, "x")
