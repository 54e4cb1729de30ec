"""Import QA on chunks as `kb search` shows them: code keeps its shape, from its first line on."""

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
