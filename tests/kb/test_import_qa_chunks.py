"""Import QA on chunks as `kb search` shows them: code keeps its shape, words stay whole."""

from __future__ import annotations

from tinyrag_desktop.kb.chunking import chunk_document
from tinyrag_desktop.kb.readers import read_bytes


def test_an_indented_code_blocks_first_line_keeps_its_indent_in_every_chunk():
    code = "\n".join(f"    total_{n} = measure(burrow={n})  # wombat burrow {n}" for n in range(60))
    data = f"# Burrows\n\n```python\n{code}\n```\n".encode()
    chunks = chunk_document(read_bytes(data, "markdown", "burrows.md"), 600)
    assert len(chunks) > 2
    for chunk in chunks:
        assert all(line.startswith("    total_") for line in chunk.text.splitlines()), chunk.text


def test_soft_hyphens_and_stray_byte_order_marks_leave_words_whole(tmp_path):
    from tinyrag_desktop.kb import Importer, open_store, search

    page = ("<html><head><title>Fl\u00fcsse</title></head><body><h1>Donau&shy;dampf&shy;schiff</h1>"
            "<p>Das Donau&shy;dampf&shy;schiff f\u00e4hrt nach Wien.</p></body></html>")
    files = tmp_path / "files"
    files.mkdir()
    (files / "schiff.html").write_text(page, encoding="utf-8")
    (files / "joined.txt").write_bytes("\ufeffFirst file.\n\ufeffZebrafish second file.\n".encode())
    kb = open_store(tmp_path / "data")
    try:
        Importer(kb).run([str(files)])
        texts = [c.text for s in kb.sources() for c in kb.chunks(s.id)]
    finally:
        kb.close()
    assert len(texts) == 2 and not any(ch in t for t in texts for ch in "\u00ad\ufeff"), texts
    hits = search(tmp_path / "data", "Donaudampfschiff")
    assert hits and hits[0].heading.endswith("Donaudampfschiff")
