"""The HTML reader's shortcuts read a page as the long way did.

Each shortcut (a paragraph's links found once for all the questions asked of it, line breaks put in with
the <br>s and <hr>s taken apart, a page's own-place links looked for only when its bytes hold one) is
checked against what the long way gives, on the pages that could tell them apart.
"""

from __future__ import annotations

import lxml.etree
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.kb.html_markup import markup, tree
from tinyrag_desktop.kb import html_furniture, html_reader
from tinyrag_desktop.kb.html_reader import parse_html, separate_lines
from tinyrag_desktop.kb.links import MAX_LINKS


def _page(body: str, title: str = "Guide – café") -> bytes:
    """A page in UTF-8 beyond ASCII (the title's dash and "é"): read as it is (see html_reader._literal)."""
    return (f'<html><head><meta charset="utf-8"><title>{title}</title></head>'
            f"<body><main>{body}</main></body></html>").encode()


def _links(body: str) -> list[tuple[str, str]]:
    return [tuple(link) for link in parse_html(_page(body), "guide.html").links]


# ---- a paragraph's links -------------------------------------------------------------------------------


@pytest.mark.parametrize("count", [1, 2, 3, 9, 10, 11, 25])
def test_every_link_in_a_paragraph_gives_its_sentence(count: int) -> None:
    # The first ten links are found to judge the paragraph (a list of links? a pager?); a paragraph
    # holding more must still give each of its links, not only those ten.
    words = " ".join(f"and the <a href='page{n}.html'>topic {n}</a> explained at some length" for n in range(count))
    body = f"<p>This paragraph tells about many things in running text: {words}, all of them.</p>"
    found = _links(body)
    assert [href for href, _ in found] == [f"page{n}.html" for n in range(count)]
    assert all("running text" in text or "topic" in text for _, text in found)


def test_a_paragraph_that_is_mostly_links_is_still_left_out() -> None:
    links = ", ".join(f"<a href='p{n}.html'>Chapter {n}</a>" for n in range(12))
    doc = parse_html(_page(f"<p>Some plain words at the top of the page.</p><p>{links}</p>"), "toc.html")
    assert [b.text for b in doc.blocks] == ["Some plain words at the top of the page."]


def test_a_paragraph_of_links_to_its_own_headings_is_left_out() -> None:
    contents = "<p><a href='#a'>Order</a> <a href='#b'>Examples</a> <a href='#c'>Notes</a></p>"
    doc = parse_html(_page(f"{contents}<h2 id='a'>Order</h2><p>Rows come in the order given.</p>"), "x.html")
    assert [b.text for b in doc.blocks] == ["Order", "Rows come in the order given."]


@pytest.mark.parametrize("pager, kept", [
    ("<p><a href='a.html'>Next</a> | <a href='b.html'>Prev</a> | <a href='c.html'>Up</a></p>", False),
    ("<p>Next: <a href='types.html'>Types</a>, Previous: <a href='intro.html'>Intro</a></p>", False),
    ("<p>Set up the <a href='group.html'>group</a> next to the others, then go on.</p>", True),
    ("<p>Next, " + "read this long paragraph about backups and restores " * 12
     + "<a href='b.html'>here</a>.</p>", True),
    ("<div><a href='a.html'>Next</a> &gt; <a href='b.html'>Up</a></div>", False),
])
def test_pagers_are_left_out_and_paragraphs_that_look_like_them_kept(pager: str, kept: bool) -> None:
    body = f"<p>The page's own words, long enough to be worth reading here.</p>{pager}"
    texts = [b.text for b in parse_html(_page(body), "x.html").blocks]
    assert (len(texts) == 2) == kept, texts


def test_a_term_s_link_is_described_by_its_definition_and_a_term_without_one_gives_none() -> None:
    definition = "Adds file contents to the index, " + "word " * 100
    body = (f"<dl><dt><a href='git-add.html'>git-add(1)</a></dt><dd><p>{definition}</p></dd>"
            "<dt><code>--all</code></dt><dd><p>Every file.</p></dd></dl>"
            "<p>Plain words after the list, long enough to be read.</p>")
    found = _links(body)
    assert len(found) == 1
    href, text = found[0]
    assert href == "git-add.html"
    assert text.startswith("git-add(1) Adds file contents to the index,")
    assert len(text) <= len("git-add(1) ") + 300 + 20


def test_a_table_row_s_links_are_described_by_the_row_and_a_row_without_links_gives_none() -> None:
    rows = "".join(f"<tr><td>name{n}</td><td>plain value number {n} in words</td></tr>" for n in range(5))
    body = ("<table><tr><th>Option</th><th>Meaning</th></tr>" + rows
            + "<tr><td><a href='vacuum.html'>VACUUM</a></td><td>reclaims space left behind by deleted rows</td>"
              "</tr></table>")
    assert _links(body) == [("vacuum.html", "VACUUM reclaims space left behind by deleted rows")]


def test_links_stop_at_the_most_a_page_keeps() -> None:
    paragraph = "<p>Words before the link <a href='t{n}.html'>target {n}</a> and words after it here.</p>"
    rows = "".join(f"<tr><td><a href='r{n}.html'>row {n}</a></td><td>what row {n} says in words</td></tr>"
                   for n in range(20))
    terms = "".join(f"<dt><a href='d{n}.html'>term {n}</a></dt><dd>what term {n} means</dd>" for n in range(20))
    body = "".join(paragraph.format(n=n) for n in range(MAX_LINKS - 10)) + f"<table>{rows}</table><dl>{terms}</dl>"
    found = _links(body)
    assert len(found) == MAX_LINKS
    assert found[-1][0] == "r9.html"


# ---- line breaks ---------------------------------------------------------------------------------------


def _separate_lines_in_one_pass(root: lxml.etree._Element) -> None:
    """separate_lines as it was: one pass over every line-breaking element, <br> and <hr> told apart by tag."""
    for el in root.iter(*html_reader._LINE_BREAKING):
        if el.tag != "br" and el.tag != "hr":
            text = el.text
            if text or not len(el) or el[0].tag not in html_reader._OPENS_A_LINE:
                text = "\n" + (text or "")
                try:
                    el.text = text
                except ValueError:
                    el.text = html_reader._CONTROLS.sub("", text)
        tail = el.tail
        if tail or (following := el.getnext()) is None or following.tag not in html_reader._OPENS_A_LINE:
            tail = "\n" + (tail or "")
            try:
                el.tail = tail
            except ValueError:
                el.tail = html_reader._CONTROLS.sub("", tail)


_MARKUP = markup(["alpha", " ", "\n", "gamma ", " delta", "é", "x\u00a0y", "", "&amp;", "bell\x07s"],
                 ["<br>", "<hr>", "<!-- note -->", "<br/>text"])


@settings(max_examples=400, deadline=None)
@given(_MARKUP)
def test_line_breaks_go_exactly_where_one_pass_put_them(body: str) -> None:
    one_pass, now = tree(body), tree(body)
    _separate_lines_in_one_pass(one_pass)
    separate_lines(now)
    assert lxml.etree.tostring(now, encoding=str) == lxml.etree.tostring(one_pass, encoding=str)


# ---- links to places in the page -----------------------------------------------------------------------


_HREFS = st.sampled_from([
    'href="#top"', "href='#top'", "href=#top", 'HREF = "#top"', 'href\n=\n"#top"', 'href="&#35;top"',
    'href="&#x23;top"', 'href=" #top"', 'href="top.html"', 'href="top.html#x"', "", 'class="headerlink" href="#h"',
])
_SIGNS = st.sampled_from(["¶", "#", "", " ", "§", "Top", "x"])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(_HREFS, _SIGNS), max_size=4))
def test_a_page_reads_the_same_whether_its_bytes_are_searched_first_or_not(anchors) -> None:
    heads = "".join(f"<h2>Part {n}<a {href}>{sign}</a></h2><p>Words of part {n}, said plainly here.</p>"
                    for n, (href, sign) in enumerate(anchors))
    data = _page(f"<p>Opening words of the page, some of them.</p>{heads}")
    searched = parse_html(data, "x.html")
    original = html_reader._literal
    html_reader._literal = lambda *args: False  # every page asked of its links, as before
    try:
        asked = parse_html(data, "x.html")
    finally:
        html_reader._literal = original
    assert searched == asked


def test_a_page_without_a_link_to_itself_is_not_searched_for_permalinks(monkeypatch) -> None:
    calls = []
    page = _page("")
    assert html_reader._literal(page, page, "utf-8")
    search = html_reader._PERMALINKS
    monkeypatch.setattr(html_reader, "_PERMALINKS", lambda root: calls.append(root) or search(root))
    parse_html(_page("<h2>Part</h2><p>See <a href='other.html'>the other page</a> for more words.</p>"), "x.html")
    assert calls == []
    doc = parse_html(_page("<h2>Part<a href='#part'>¶</a></h2><p>Words of this part, plainly said.</p>"), "x.html")
    assert len(calls) == 1
    assert doc.blocks[0].text == "Part"


def test_a_permalink_written_with_a_character_reference_is_still_dropped() -> None:
    doc = parse_html(_page("<h2>Part<a href='&#35;part'>¶</a></h2><p>Words of this part, plainly said.</p>"), "x.html")
    assert doc.blocks[0].text == "Part"


@pytest.mark.parametrize("data", [
    # not UTF-8 read as UTF-8: the page's bytes are not what the parser read, so the tree is asked
    '<html><head><meta charset="iso-8859-1"><title>T</title></head><body><h2>Caf\xe9<a href="#c">\xb6</a></h2>'
    "<p>Words of the page, plainly said here.</p></body></html>".encode("latin-1"),
    # an internal DTD subset taken out before parsing
    b'<!DOCTYPE html [ <!ENTITY x "y"> ]><html><body><h2>Part<a href="#p">#</a></h2>'
    b"<p>Words of the page, plainly said here.</p></body></html>",
])
def test_pages_whose_bytes_are_not_read_as_they_are_are_asked_as_before(data: bytes) -> None:
    doc = parse_html(data, "x.html")
    assert doc.blocks[0].text in ("Café", "Part")


# ---- tables --------------------------------------------------------------------------------------------


def test_a_menu_beside_the_text_is_a_layout_and_a_table_of_data_is_rows() -> None:
    menu = "".join(f"<a href='m{n}.html'>Menu entry {n}</a><br>" for n in range(12))
    prose = "The page's own words: " + "plain sentences about valves and pipes " * 4
    layout = f"<table><tr><td>{menu}</td><td><p>{prose}</p></td></tr></table>"
    data = ("<table><thead><tr><th>Day</th><th>Opens</th><th>Closes</th></tr></thead>"
            "<tr><td>Monday</td><td>9:00</td><td>17:00</td></tr>"
            "<tr><td><a href='tue.html'>Tuesday</a></td><td>10:00</td><td>16:00, late after a holiday</td></tr>"
            "</table>")
    doc = parse_html(_page(layout + data), "x.html")
    assert [b.kind for b in doc.blocks] == ["text", "table"]
    assert doc.blocks[0].text == prose.strip()
    assert doc.blocks[1].text == ("Day | Opens | Closes\nMonday | 9:00 | 17:00\n"
                                  "Tuesday | 10:00 | 16:00, late after a holiday")
    assert doc.blocks[1].header
    assert [tuple(link) for link in doc.links] == [("tue.html", "Tuesday 10:00 16:00, late after a holiday")]


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("upnextrvlaguage >|»›→ xyz")), max_size=30))
def test_a_pager_is_hinted_at_as_the_pattern_says(text: str) -> None:
    assert html_furniture._hints_a_pager(text) == bool(html_furniture._PAGER_HINT.search(text))
