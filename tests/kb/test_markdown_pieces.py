"""A large Markdown file is read a piece at a time (markdown._read_in_pieces), never as one text and a list of all
its lines: a 64 MB file's million lines took more memory than what was read from them. What it reads, and so the
passages stored, is the same as from the whole file, wherever the pieces are cut."""

from __future__ import annotations

import random
import tracemalloc

import pytest
from hypothesis import given, settings, strategies as st

from tinyrag_desktop.kb import markdown
from tinyrag_desktop.kb.chunking import chunk_document
from tinyrag_desktop.kb.reader_worker import ReadJob

# Lines whose reading depends on the lines around them: fences and comments that run on (or never close), an
# underline that makes the paragraph above it a heading, indented code after a blank line (not in a list),
# tables found by the rule under their header, reference definitions used above them, front matter.
_LINES = [
    "# Title one", "## Section *two* ##", "###### deep", "#not a heading", "  # indented heading", "##\tTab heading",
    "Setext heading", "===", "---", "-", "Para with [a reference][r1], [another] and [inline](http://x.org/a).",
    "continued line with `code [r1]` and **bold**", "", "", "```python", "```", "~~~", "````", "    indented code",
    "\tTabbed code", "| a | b |", "|---|---|", "a | b", "--- | ---", "<!-- a comment", "still comment -->",
    "<!-- one line -->", "> quoted [r1]", "- item [R2]", "1. first", "[r1]: http://example.org/one",
    '[R2]: <http://example.org/two> "Two"', "[another]: /another.md", "<table><tr><td>cell [r1]</td></tr></table>",
    "Text with a footnote[^1].", "[^1]: the note", "(target)=", "* * *", "café au lait\u2028next", "a  ", "<br>",
    "[[Wiki note|shown]]", "- item\n\n    its second paragraph", "text\n\n\n    code after blank lines",
    "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7\n-----END PRIVATE KEY-----",
]
_FRONT = ["", "---\ntitle: Front title\ndescription: What it is\ntags: [a, b]\n---\n",
          '+++\ntitle = "Hugo"\ntags = ["x"]\n+++\n', "---\nnot closed\n"]


def _read(data: bytes, monkeypatch, piece: int | None) -> tuple:
    """The document and passages read from ``data``: whole (``piece`` None), or in pieces of ``piece`` bytes."""
    monkeypatch.setattr(markdown, "PIECES_FROM_BYTES", 1 << 40 if piece is None else 0)
    monkeypatch.setattr(markdown, "_PIECE_BYTES", piece or 1)
    doc = markdown.read_markdown(data, "notes.md")
    return doc, doc.blocks, doc.links, chunk_document(doc, 100)


def _document(rng: random.Random, lines: int) -> str:
    return rng.choice(_FRONT) + "\n".join(rng.choice(_LINES) for _ in range(lines)) + rng.choice(["", "\n"])


_DOCUMENTS = [
    # a fence, a comment and indented code running past where the pieces are cut; headings inside them
    "# One\npara\n```\n# not a heading\n\n## nor this\n```\n## Two\n<!--\n# hidden\n-->\nafter\n\n    code\n\n"
    "    # still code\n## Three\ntext",
    # an underlined heading, its text over two lines, then an ATX heading
    "intro\n\nFirst line of it\nsecond line\n=====\nbody\n\nSub\n---\n## Next\nmore [x][later]\n\n[later]: /l.md",
    # a fence never closed: the rest of the file is its code
    "# A\ntext\n```\n# B\ntext\n## C\nend",
    # a comment never closed
    "# A\ntext\n<!-- open\n# B\ntext",
    # no heading at all: one section, read in one go
    "\n".join(f"paragraph {n} [r{n % 3}]\n" for n in range(40)) + "\n[r0]: /zero\n[r1]: /one",
    # indented lines after blank ones: code, or a list item's next paragraph, by the line above the blanks
    "# A\n- item\n\n\n    its second paragraph\n## B\ntext\n\n    code\n\n    more code\n# C\n1. one\n\n\tnot code",
    # a table whose rule is on the next piece's first line
    "# T\nname | value\n--- | ---\nx | 1\n# U\n| a |\n|---|\n| 1 |",
    # front matter, CR LF line ends, a byte order mark
    "\ufeff---\r\ntitle: Win\r\ntags:\r\n  - one\r\n---\r\n# H\r\ntext\r\n```\r\n# c\r\n```\r\n## I\r\nmore\r\n",
]


@pytest.mark.parametrize("text", _DOCUMENTS)
def test_a_file_read_in_pieces_reads_as_the_whole_file_wherever_it_is_cut(text, monkeypatch):
    data = text.encode("utf-8")
    whole = _read(data, monkeypatch, None)
    for piece in range(1, len(data) + 1):
        assert _read(data, monkeypatch, piece) == whole, piece


@given(seed=st.integers(0, 2**32), lines=st.integers(0, 120), piece=st.integers(1, 400), crlf=st.booleans())
@settings(max_examples=300, deadline=None)
def test_random_files_read_in_pieces_read_as_whole(seed, lines, piece, crlf):
    with pytest.MonkeyPatch.context() as monkeypatch:
        text = _document(random.Random(seed), lines)
        data = (text.replace("\n", "\r\n") if crlf else text).encode("utf-8")
        assert _read(data, monkeypatch, piece) == _read(data, monkeypatch, None)


@pytest.mark.parametrize("data", [
    "# Caf\xe9\n\nna\xefve text [r]\n\n[r]: /r".encode("cp1252"),  # not UTF-8: its encoding guessed from all of it
    "# NUL\n\nbetween\x00words\n".encode("utf-8"),
    "# Sixteen\n\ntext [r]\n\n[r]: /r".encode("utf-16"),
])
def test_a_file_not_in_plain_utf8_is_read_whole(data, monkeypatch):
    assert _read(data, monkeypatch, 3) == _read(data, monkeypatch, None)


def test_the_passages_stored_are_the_same(monkeypatch):
    # As an import reads a file: secrets hidden, invisible characters taken out, cut into passages.
    data = _document(random.Random(7), 3000).encode("utf-8")
    job = ReadJob(data, "markdown", "notes.md", 300)
    monkeypatch.setattr(markdown, "PIECES_FROM_BYTES", 1 << 40)
    doc, chunks = job.run()
    monkeypatch.setattr(markdown, "PIECES_FROM_BYTES", 0)
    monkeypatch.setattr(markdown, "_PIECE_BYTES", 997)
    assert job.run() == (doc, chunks)
    assert doc.hidden and len(chunks) > 100


@pytest.mark.parametrize("body", [
    "A paragraph with no heading above it, on two lines\nof text.\n\n",
    "```sh\n# a comment, not a heading\n\necho hi\n",  # a fence never closed: nowhere to stop in it
    "## A section\n\nIts text.\n\n",
])
def test_a_large_file_is_read_about_once(body, monkeypatch):
    # What follows the last heading or paragraph of the lines read is read again with the next piece: a file, or
    # a long part of it, with nowhere to stop is not read again with each piece (its time would grow as its square).
    data = (body * 20_000).encode("utf-8")
    lines_read = []
    read_lines = markdown._read_lines

    def counted(lines, *args, **kwargs):
        lines_read.append(len(lines))
        return read_lines(lines, *args, **kwargs)

    whole = _read(data, monkeypatch, None)
    monkeypatch.setattr(markdown, "_read_lines", counted)
    assert _read(data, monkeypatch, 4096) == whole
    assert sum(lines_read) < 4 * data.count(b"\n")


def _handbook(size: int) -> bytes:
    """Sections of paragraphs in lines of 80 characters, lists, code and tables, as a long manual has."""
    rng = random.Random(3)
    words = ["".join(rng.choices("etaoinshrdlu", k=rng.randint(2, 9))) for _ in range(500)]
    parts: list[str] = []
    n = 0
    while n * 1900 < size:  # a section is about 1,900 characters
        parts.append(f"## Section {n}\n\n")
        for _ in range(3):
            parts += [" ".join(rng.choices(words, k=13))[:80] + "\n" for _ in range(6)] + ["\n"]
        parts.append("- " + "\n- ".join(" ".join(rng.choices(words, k=4)) for _ in range(5)) + "\n\n")
        parts.append("```\n" + "\n".join(" ".join(rng.choices(words, k=5)) for _ in range(6)) + "\n```\n\n")
        parts.append("| a | b |\n|---|---|\n" + "".join(f"| {w} | {n} |\n" for w in rng.choices(words, k=5)) + "\n")
        n += 1
    return "".join(parts).encode("utf-8")


def test_a_large_file_is_never_held_as_all_its_lines(monkeypatch):
    # Beyond what is read (the document kept), reading took nearly twice the file's size: its text and a
    # list of its lines. In pieces, a piece's lines and the reading of one section.
    data = _handbook(1_000_000)
    monkeypatch.setattr(markdown, "PIECES_FROM_BYTES", len(data), raising=False)
    monkeypatch.setattr(markdown, "_PIECE_BYTES", 64 * 1024, raising=False)
    tracemalloc.start()
    try:
        doc = markdown.read_markdown(data, "handbook.md")
        kept, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(doc.blocks) > 3000
    assert peak - kept < len(data) // 2, (peak - kept, len(data))
