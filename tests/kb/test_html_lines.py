"""HTML read as a person sees it: a line break or a new block never glues two words into one, and a
table nested in another, or a table that lays out a page, is read once, as what it holds."""

from __future__ import annotations

import html as html_lib

from hypothesis import given, settings
from hypothesis import strategies as st

from tinyrag_desktop.kb import Importer, open_store, search
from tinyrag_desktop.kb.readers import read_bytes


def _blocks(body: str) -> list[tuple[str, str]]:
    doc = read_bytes(f"<html><head><title>T</title></head><body>{body}</body></html>".encode(), "html", "t.html")
    return [(b.kind, b.text) for b in doc.blocks]


def test_a_line_break_separates_words_in_paragraphs_terms_cells_and_code():
    assert _blocks("<p>line one<br>line two</p>") == [("text", "line one line two")]
    assert ("term", "git-add git-rm") in _blocks("<dl><dt>git-add<br/>git-rm</dt><dd>Add or remove.</dd></dl>")
    assert _blocks("<table><tr><td>first<br>second</td><td>third</td></tr></table>") == \
        [("table", "first second | third")]
    assert _blocks("<pre>make<br>make install</pre>") == [("code", "make\nmake install")]


def test_paragraphs_and_lists_inside_a_table_cell_stay_apart():
    body = "<table><tr><td><p>Shade</p><p>Damp soil</p></td><td><ul><li>fern</li><li>moss</li></ul></td></tr></table>"
    assert _blocks(body) == [("table", "Shade Damp soil | fern moss")]


def test_a_table_inside_a_table_is_read_once():
    body = ("<table><tr><td>Opening hours</td><td><table><tr><td>Monday</td><td>9 to 5</td></tr>"
            "<tr><td>Sunday</td><td>closed</td></tr></table></td></tr></table>")
    text = "\n".join(t for _, t in _blocks(body))
    for phrase in ("Opening hours", "Monday", "9 to 5", "Sunday", "closed"):
        assert text.count(phrase) == 1, (phrase, text)
    assert "Monday | 9 to 5" in text  # the inner table's rows are still rows


def test_a_layout_table_keeps_the_page_sections(data_dir, tmp_path):
    page = ("<html><head><title>Club news</title></head><body><table><tr><td width='150'>"
            "<p>Members only</p></td><td><h1>Club news</h1><h2>Spring outing</h2><p>We walk to the old mill "
            "on Saturday.</p><h2>Treasurer</h2><p>The annual fee is due in March.</p></td></tr></table>"
            "</body></html>")
    doc = read_bytes(page.encode(), "html", "news.html")
    assert [b.text for b in doc.blocks if b.kind == "heading"] == ["Club news", "Spring outing", "Treasurer"]
    (tmp_path / "news.html").write_text(page)
    with open_store(data_dir) as kb:
        Importer(kb).run([str(tmp_path / "news.html")])
    hit = search(data_dir, "when is the annual fee due", 1)[0]
    assert hit.heading.endswith("Treasurer") and "March" in hit.text


def test_words_split_by_a_break_are_found_by_search(data_dir, tmp_path):
    (tmp_path / "card.html").write_text("<html><body><h1>Contact</h1><p>Ring the porter<br>Extension 4471"
                                        "</p></body></html>")
    with open_store(data_dir) as kb:
        Importer(kb).run([str(tmp_path / "card.html")])
    assert search(data_dir, "porter extension", 1)  # "porterExtension" was one word before


_WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=2, max_size=8)
_BREAKS = ["<br>", "<br/>", "</p><p>", "</li><li>", "</td><td>", "</div><div>", "<hr>"]


@settings(max_examples=150, deadline=None)
@given(words=st.lists(_WORD, min_size=2, max_size=12), breaks=st.data())
def test_every_word_comes_through_as_a_word_whatever_separates_it(words, breaks):
    joined = words[0]
    for word in words[1:]:
        joined += breaks.draw(st.sampled_from(_BREAKS)) + html_lib.escape(word)
    body = f"<table><tr><td><div><ul><li><p>{joined}</p></li></ul></div></td></tr></table>"
    text_words = " ".join(t for _, t in _blocks(body)).replace("|", " ").split()
    assert text_words == words
