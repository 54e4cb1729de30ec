"""Chunks read like the document: heading paths read like a breadcrumb (a page's first headings that repeat
its title are not said twice), and a table or code line too long for one chunk is cut between words."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from tinyrag_desktop.kb.chunking import chunk_blocks, split_long
from tinyrag_desktop.kb.models import Block


def _paths(title: str, headings: list[tuple[int, str]]) -> list[str]:
    blocks = []
    for level, text in headings:
        blocks += [Block("heading", text, level), Block("text", f"About {text}.")]
    return [c.heading for c in chunk_blocks(title, blocks)]


def test_headings_that_repeat_the_title_are_said_once():
    # Sphinx: "sunau — Read and write Sun AU files — Python 3.11.2 documentation" > "sunau — Read and …";
    # Node.js: "Process | Node.js v18 Documentation" > "Node.js v18 documentation" > "Process"
    assert _paths("sunau — Sun AU files — Python 3.11 documentation",
                  [(1, "sunau — Sun AU files"), (2, "AU_read Objects")]) == [
        "sunau — Sun AU files — Python 3.11 documentation",
        "sunau — Sun AU files — Python 3.11 documentation > AU_read Objects"]
    assert _paths("Process | Node.js v18 Documentation",
                  [(1, "Node.js v18 documentation"), (2, "Process"), (3, "process.stderr")])[-1] == \
        "Process | Node.js v18 Documentation > process.stderr"


def test_a_heading_that_only_shares_letters_with_the_title_stays():
    assert _paths("Processing pipelines", [(1, "Process"), (2, "Stages")])[-1] == "Processing pipelines > Process > Stages"
    # deeper down, a heading repeating the title is a section of its own
    assert _paths("Examples", [(1, "Setup"), (2, "Examples")])[-1] == "Examples > Setup > Examples"


def test_a_table_cell_longer_than_a_chunk_is_cut_between_words():
    # Linux's RCU design pages put a quiz's answer in one table cell: the cut fell inside "simplifies"
    cell = ("Lazily recording CPU-hotplug events at the beginning of the next grace period greatly "
            "simplifies maintenance of the CPU-tracking bitmasks. ") * 12
    pieces = split_long(f"Quick Quiz: | {cell.strip()}", 300, "table")
    assert all(len(piece) <= 300 for piece in pieces)
    assert " ".join(pieces).split() == f"Quick Quiz: | {cell.strip()}".split()
    assert all(not piece.startswith(("fies", "| ")) for piece in pieces)


_WORD_TOKEN = st.text(alphabet="abcdefgh", min_size=1, max_size=12)
# Mostly words, so that lines run longer than a chunk; now and then a cell's end or a line's.
_TOKEN = st.one_of(*[_WORD_TOKEN] * 8, st.sampled_from([" | ", "  ", "\n", "\n\n"]))


@settings(max_examples=200, deadline=None)
@given(st.lists(_TOKEN, min_size=1, max_size=200), st.sampled_from(["text", "code", "table"]),
       st.integers(min_value=30, max_value=200))
def test_no_word_is_ever_cut_when_words_are_shorter_than_half_a_chunk(tokens, kind, size):
    text = " ".join(tokens)
    pieces = split_long(text, size, kind)
    assert all(len(piece) <= size for piece in pieces)
    words = re.findall(r"[a-h]+", text)
    assert [w for piece in pieces for w in re.findall(r"[a-h]+", piece)] == words
