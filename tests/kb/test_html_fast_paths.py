"""The HTML reader's faster ways of doing things give what the plain ways gave.

Each fast path (libxml2's text serialisation for an element's text, a line break left out where one already
follows, the main content found by name in C, a table's rows without looking up each row's table) is checked
against the plain way it replaced, on generated pages and on the pages that tell them apart.
"""

from __future__ import annotations

import lxml.etree
from hypothesis import given, settings

from tests.kb.html_markup import markup, tree
from tinyrag_desktop.kb import html_reader
from tinyrag_desktop.kb.html_furniture import element_text as _text, table_rows as _rows
from tinyrag_desktop.kb.html_reader import _main_element, parse_html, separate_lines

_XPATH_TEXT = lxml.etree.XPath("string()", smart_strings=False)

# Block and inline elements, void ones, a comment: what decides where text is split and joined.
_MARKUP = markup(["alpha", "beta", " ", "\n", "gamma ", " delta", "é", "x\u00a0y", "", "&amp;"],
                 ["<br>", "<hr>", "<!-- note -->"])


def _separate_every_line(root: lxml.etree._Element) -> None:
    """The plain way: a line break before and after every line-breaking element, whatever follows."""
    for el in root.iter(*html_reader._LINE_BREAKING):
        if el.tag not in ("br", "hr"):
            el.text = "\n" + (el.text or "")
        el.tail = "\n" + (el.tail or "")


def _words(text: str) -> list[str]:
    return text.split()


@settings(max_examples=300, deadline=None)
@given(_MARKUP)
def test_text_is_what_xpath_string_gives(body: str) -> None:
    root = tree(body)
    for el in root.iter():
        if isinstance(el.tag, str):
            assert _text(el) == _XPATH_TEXT(el)


@settings(max_examples=300, deadline=None)
@given(_MARKUP)
def test_every_element_keeps_the_words_a_line_break_everywhere_gives(body: str) -> None:
    plain, fast = tree(body), tree(body)
    _separate_every_line(plain)
    separate_lines(fast)
    plain_elements = [el for el in plain.iter() if isinstance(el.tag, str)]
    fast_elements = [el for el in fast.iter() if isinstance(el.tag, str)]
    assert len(plain_elements) == len(fast_elements)
    for a, b in zip(plain_elements, fast_elements):
        assert _words(_text(b)) == _words(_text(a)), lxml.etree.tostring(a)


def test_no_line_break_is_added_where_the_next_block_starts_one() -> None:
    root = tree("<div><p>one</p><p>two</p></div><span><p>three</p></span>four")
    separate_lines(root)
    first, second = root.iter("p").__next__(), list(root.iter("p"))[1]
    assert first.tail is None  # the next paragraph's own line break parts them
    assert second.tail == "\n"  # last in its <div>
    third = list(root.iter("p"))[2]
    assert third.tail == "\n"  # last in an inline element: "three" and "four" stay apart
    assert _words(_text(root)) == ["one", "two", "three", "four"]


def _main_the_plain_way(root: lxml.etree._Element) -> lxml.etree._Element | None:
    found = {}
    for el in root.iter():
        if not isinstance(el.tag, str):
            continue
        for rank, test in enumerate((
                el.tag == "main", el.get("role") == "main", el.tag == "article", el.get("id") == "content",
                el.get("id") == "main-content", el.tag == "div" and " body " in f" {el.get('class')} ",
                el.tag == "body")):
            if test:
                found.setdefault(rank, el)
    return found[min(found)] if found else None


_MAIN_PAGES = [
    '<div id="nav">Menu</div><div ROLE = "main"><p>Body text.</p></div>',
    "<div id='main-content'><p>Second.</p></div><div id='content'><p>First.</p></div>",
    '<div id="main-content"><p>Only this.</p></div>',
    '<p>The id="content" attribute is written in this paragraph, not on an element.</p>',
    '<div class="document body"><p>Sphinx.</p></div><article><p>Article.</p></article>',
    '<div class="bodywrapper"><p>No whole word "body".</p></div>',
    '<div role="main-menu"><p>Not main.</p></div><div role="main"><p>Main.</p></div>',
    '<div ID="CONTENT"><p>Upper-case value: not "content".</p></div>',
    "<main><p>Main.</p></main><div role='main'><p>Later.</p></div>",
]


def test_the_main_content_is_the_element_the_plain_search_finds() -> None:
    for body in _MAIN_PAGES:
        data = f"<html><body>{body}</body></html>".encode()
        root = lxml.etree.fromstring(data, lxml.etree.HTMLParser())
        assert _main_element(root, data) is _main_the_plain_way(root), body


def test_a_page_s_main_content_is_read_and_the_rest_left_out() -> None:
    page = ('<html><head><title>T</title></head><body><div class="sidebar">Links here</div>'
            '<DIV ROLE="main"><h1>Otters</h1><p>Sea otters hold hands asleep.</p></DIV></body></html>')
    doc = parse_html(page.encode(), "x")
    assert [b.text for b in doc.blocks] == ["Otters", "Sea otters hold hands asleep."]


def test_a_table_s_rows_are_its_own_with_or_without_a_table_inside() -> None:
    plain = tree("<table><tr><td>a</td></tr><tr><td>b</td></tr></table>")
    table = next(plain.iter("table"))
    assert [_text(tr) for tr in _rows(table)] == ["a", "b"]
    nested = tree("<table><tr><td><table><tr><td>inner</td></tr></table></td></tr><tr><td>outer</td></tr></table>")
    outer = next(nested.iter("table"))
    assert [_words(_text(tr)) for tr in _rows(outer)] == [["inner"], ["outer"]]
    assert len(list(outer.iter("tr"))) == 3  # the inner table's row is not one of the outer's
