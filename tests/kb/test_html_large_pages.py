"""A large HTML page is read as it is parsed, its main content's children taken out of the tree once walked: a
61 MB page of short paragraphs took 1.4 GB as one tree. What it reads is the same as from the whole tree."""

from __future__ import annotations

import pytest

from tinyrag_desktop.kb import html_reader
from tinyrag_desktop.kb.html_reader import parse_html
from tinyrag_desktop.kb.links import Link

# Pages whose reading depends on what stands around each child of the main content: permalinks (taken out,
# their tail joined to the text before them), comments, line breaks decided by the next element, headers
# before the main content, a title inside the body, anchors, and each way the main content is found.
_CONTENT = ('Loose <b>text</b> first<a href="#top">¶</a><p>Para <a href="/x">one link</a> here.</p>'
            '<a href="#p1" class="headerlink">link</a> after the link<!-- a comment --> and on<br>next line'
            '<h2 id="s1">Section one<a href="#s1">#</a></h2><p>Tide tables.</p><hr>text after rule'
            '<dl><dt><a name="t1"></a>term</dt><dd>what it means, <a href="/q">q</a></dd></dl>'
            '<pre>code\n  indented</pre><ul><li>one</li><li>two</li></ul><a name="a2"></a>'
            '<table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table>'
            '<svg><title>Inner title</title></svg><span>inline <p>block in span</p></span>'
            '<p>Next Previous Up</p><section id="s2"><h3>Deeper</h3><p>in a section</p></section>tail words')
_PAGES = [
    f'<html><head><title>Main page</title></head><body><nav><a href="/">Home</a></nav><main>{_CONTENT}</main>'
    '<footer>foot</footer></body></html>',
    f'<html><body><div id="header"><h1>git-commit</h1><p>Record changes</p></div><div id="content">{_CONTENT}</div>'
    '</body></html>',
    f'<html><body><div role="main">{_CONTENT}</div></body></html>',
    f'<html><body><article>{_CONTENT}</article><p>after it</p></body></html>',
    f'<html><body><div class="document body">{_CONTENT}</div></body></html>',
    f'<html><head><title>Plain</title></head><body>{_CONTENT}</body></html>',
    f'<html><body><div role="main-menu">menu</div><div id="main-content">{_CONTENT}</div></body></html>',
    f'<html><head><meta charset="windows-1252"></head><body><main>caf\xe9 {_CONTENT}</main></body></html>',
]


def _read(page: str) -> tuple:
    doc = parse_html(page.encode("utf-8" if "windows-1252" not in page else "cp1252"), "fallback")
    return doc.title, [(b.kind, b.text, b.level, b.header, b.anchor) for b in doc.blocks], doc.links


@pytest.mark.parametrize("page", _PAGES)
def test_a_page_read_as_it_is_parsed_reads_as_from_its_whole_tree(page, monkeypatch):
    whole = _read(page)
    monkeypatch.setattr(html_reader, "STREAMED_BYTES", 0)
    for fed in (7, 64, 1 << 20):  # where the parser is given more of the page: anywhere in it
        monkeypatch.setattr(html_reader, "_FED_BYTES", fed)
        assert _read(page) == whole


def test_a_terms_link_is_described_by_its_whole_definition_wherever_the_page_is_cut(monkeypatch):
    # A term's link reads the definition after it: walked while the definition was half parsed, the link's
    # sentence was cut short, or the link lost.
    page = ("<html><body><main><p>intro words here</p><dt><a href='/add'>git-add</a></dt>"
            "<dd>Add file contents to the index of the repository.</dd><p>more text</p></main></body></html>")
    whole = _read(page)
    assert [(link.href, link.text) for link in whole[2]] == [
        ("/add", "git-add Add file contents to the index of the repository.")]
    monkeypatch.setattr(html_reader, "STREAMED_BYTES", 0)
    for fed in range(1, len(page)):
        monkeypatch.setattr(html_reader, "_FED_BYTES", fed)
        assert _read(page) == whole, fed


def _tree_sizes(monkeypatch) -> list[int]:
    """How many elements the page's tree holds, at every 5,000th paragraph read from now on."""
    seen = []
    read = 0
    element_text = html_reader.element_text

    def counting(el):
        nonlocal read
        if read % 5_000 == 0:
            seen.append(sum(1 for _ in el.getroottree().iter()))
        read += 1
        return element_text(el)

    monkeypatch.setattr(html_reader, "element_text", counting)
    return seen


def test_a_large_page_is_never_one_whole_tree(monkeypatch):
    paragraphs = 200_000  # 5.6 MB
    page = "<html><body><main>" + "<p>wombat big page text</p>\n" * paragraphs + "</main></body></html>"
    seen = _tree_sizes(monkeypatch)
    doc = parse_html(page.encode(), "big.html")
    assert len(doc.blocks) == paragraphs
    assert seen and max(seen) < paragraphs / 2  # the whole tree: 200,000 paragraphs and more


def test_a_large_page_wrapped_in_one_element_is_let_go_as_read_and_reads_as_its_whole_tree(monkeypatch):
    # Sphinx and MkDocs put the whole page in one <section> or <div> inside the main content: only the main
    # content's own children were let go, so that page was held whole.
    prose = "<p>Tide tables for the harbour list the high and low waters of each day of the month.</p>\n"
    paragraphs = 30_000
    page = ('<html><body><div role="main"><div class="section" id="top"><h1>Tides<a class="headerlink" href="#top">'
            '¶</a></h1>' + prose * paragraphs + '<section id="two"><h2>Currents</h2>' + prose * paragraphs
            + '<dl><dt><a href="/ebb">ebb</a></dt><dd>the falling tide, when the water runs out of the harbour'
            ' towards the open sea</dd></dl></section>trailing words</div>'
            '<p>After it.</p></div></body></html>')
    whole = _read(page)
    seen = _tree_sizes(monkeypatch)
    assert _read(page) == whole
    assert [(text, anchor) for kind, text, _, _, anchor in whole[1] if kind == "heading"] == [
        ("Tides", "top"), ("Currents", "two")]
    assert whole[1][-2][1] == "trailing words" and whole[2] == (Link(
        "/ebb", "Currents: ebb the falling tide, when the water runs out of the harbour towards the open sea"),)
    assert seen and max(seen) < paragraphs / 2  # the whole tree: 60,000 paragraphs and more


@pytest.mark.parametrize("page", [
    "<html><body><main><p>" + "wombat " * 1_600_000 + "</p><p>The end marker.</p></main></body></html>",
    "<html><body><main>" + "<div>" * 300 + "deep words" + "</div>" * 300 + "<p>The end marker.</p>" + "<p>x</p>" * 200_000
    + "</main></body></html>",
])
def test_a_large_page_past_libxml2s_limits_is_read_whole(page):
    # The parser that reads a page as it goes stopped, saying nothing, at a text of 10 MB: the rest was lost.
    text = " ".join(b.text for b in parse_html(page.encode(), "big.html").blocks)
    assert "The end marker." in text and text.count("wombat") in (0, 1_600_000)
