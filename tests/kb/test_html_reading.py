"""HTML documentation read as a person reads it, from defects found importing /usr/share/doc: sections
named after their title are not taken for navigation, a page section's introduction survives its list of
subpages, inline code keeps the punctuation beside it, and permalink signs stay out of headings."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tinyrag_desktop.kb import Importer, open_store, search
from tinyrag_desktop.kb.readers import read_bytes


def _read(body: str, title: str = "T"):
    page = f"<html><head><title>{title}</title></head><body>{body}</body></html>"
    return read_bytes(page.encode(), "html", "page.html")


def _texts(body: str) -> list[tuple[str, str]]:
    return [(b.kind, b.text) for b in _read(body).blocks]


def test_a_section_whose_title_holds_a_navigation_word_is_read():
    # Sphinx names a section after its title: "pin_user_pages() and related calls" became
    # id="pin-user-pages-and-related-calls", and "related" made the whole Linux page look like navigation.
    body = ('<div role="main"><section id="pin-user-pages-and-related-calls"><h1>pin_user_pages() and related '
            'calls</h1><p>This document describes pinning user pages for DMA.</p>'
            '<section id="skip-lists"><h2>Skip lists</h2><p>A skip list keeps ordered keys.</p></section>'
            '</section></div>')
    assert _texts(body) == [("heading", "pin_user_pages() and related calls"),
                            ("text", "This document describes pinning user pages for DMA."),
                            ("heading", "Skip lists"), ("text", "A skip list keeps ordered keys.")]


def test_boxes_named_as_navigation_are_still_left_out():
    body = ('<div id="toc"><h2>Contents</h2><ul><li><a href="#a">Alpha</a></li><li><a href="#b">Beta</a></li>'
            '</ul></div><div id="main-nav"><p>Home and more</p></div><h1>Guide</h1><p>The real text.</p>')
    assert _texts(body) == [("heading", "Guide"), ("text", "The real text.")]


def test_a_section_keeps_its_introduction_above_a_long_list_of_subpages():
    # Linux's "Cards List": three short paragraphs, then a table of contents of 40 subpages, the whole
    # section dense with links; the paragraphs were lost with the list and the page skipped as empty.
    items = "".join(f'<li><a href="cards{n}.html">5.{n}. Driver family number {n} cards list</a></li>'
                    for n in range(40))
    body = ('<div role="main"><section id="cards-list"><h1>5. Cards List</h1>'
            '<p>The media subsystem provides support for lots of PCI and USB drivers, plus platform-specific '
            'drivers.</p><div class="toctree"><ul>' + items + '</ul></div></section></div>')
    texts = _texts(body)
    assert ("text", "The media subsystem provides support for lots of PCI and USB drivers, plus "
                    "platform-specific drivers.") in texts
    assert not any("Driver family" in text for _, text in texts)


def test_a_link_menu_without_running_text_is_still_left_out():
    links = " ".join(f'<a href="p{n}.html">Page {n}</a>' for n in range(12))
    body = f'<div class="links"><p>{links}</p></div><h1>Guide</h1><p>The real text.</p>'
    assert _texts(body) == [("heading", "Guide"), ("text", "The real text.")]


def test_inline_code_in_a_list_item_keeps_the_punctuation_beside_it():
    body = ("<ol><li>\n  Add a header, <code>MyHeader</code>, to the response (see <a href='x.html'>"
            "<code>Header</code></a>).\n  <pre>Header set MyHeader 1</pre>\n</li>"
            "<li><b>bold</b> <i>italic</i><code>glued</code></li></ol>")
    assert _texts(body) == [("text", "Add a header, MyHeader, to the response (see Header)."),
                            ("code", "Header set MyHeader 1"), ("text", "bold italicglued")]


_WORDS = st.text(alphabet="abcdefghij,.;()", min_size=1, max_size=8)
_INLINE = st.sampled_from(["", "b", "code", "em", "a", "span", "kbd"])


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(_WORDS, _INLINE, st.sampled_from(["", " ", "\n  "])), min_size=1, max_size=12))
def test_inline_markup_in_loose_text_never_adds_or_removes_a_space(tokens):
    """Text directly in a list item reads as the same words with or without inline markup around them."""
    plain = "".join(word + space for word, _, space in tokens)
    marked = "".join((f"<{tag}>{word}</{tag}>" if tag else word) + space for word, tag, space in tokens)
    expected = " ".join(plain.split())
    assert _texts(f"<ul><li>{marked}</li></ul><p>x</p>") == [("text", expected), ("text", "x")]


def test_permalink_signs_stay_out_of_headings_and_terms(data_dir, tmp_path):
    page = ('<html><head><title>sunau</title></head><body><div role="main">'
            '<h1>sunau — Sun AU files<a class="headerlink" href="#module-sunau" title="Permalink">¶</a></h1>'
            '<h2 id="order">Order of Processing <a title="Permanent link" href="#order" class="permalink">'
            '&para;</a></h2><p>Directives are applied in order.</p>'
            '<h3><code>worker.threadId</code><span><a class="mark" href="#workerthreadid">#</a></span></h3>'
            '<p>An integer identifier for the thread.</p>'
            '<dl><dt id="sunau.open">sunau.open(file, mode)<a class="headerlink" href="#sunau.open">¶</a></dt>'
            '<dd>Open an AU file; see <a href="#order">#</a> too.</dd></dl></div></body></html>')
    doc = read_bytes(page.encode(), "html", "sunau.html")
    headings = [b.text for b in doc.blocks if b.kind in ("heading", "term")]
    assert headings == ["sunau — Sun AU files", "Order of Processing", "worker.threadId", "sunau.open(file, mode)"]
    (tmp_path / "sunau.html").write_text(page, encoding="utf-8")
    with open_store(data_dir) as kb:
        Importer(kb).run([str(tmp_path / "sunau.html")])
    hit = search(data_dir, "thread identifier integer", 1)[0]
    assert hit.heading == "sunau > sunau — Sun AU files > Order of Processing > worker.threadId"


def test_a_header_inside_the_content_is_read_as_headings_not_as_its_table_of_contents():
    # Node.js API pages: <header> holds the site's h1 and a table of contents; read as one inline
    # run, the whole contents list became a paragraph at the top of every page.
    toc = "".join(f'<li><a href="#f{n}"><code>worker.f{n}()</code></a></li>' for n in range(12))
    body = (f'<div id="content"><header class="header"><h1>Node.js documentation</h1><div id="gtoc"><ul>'
            f'<li class="picker-header"><a href="#">Table of contents</a><div class="picker"><ul>{toc}</ul>'
            f'</div></li></ul></div></header><section><h2>Worker threads</h2><p>Threads run JavaScript.</p>'
            f'</section></div>')
    assert _texts(body) == [("heading", "Node.js documentation"), ("heading", "Worker threads"),
                            ("text", "Threads run JavaScript.")]


def test_a_utf8_page_that_names_no_encoding_reads_without_mojibake():
    # libxml2 takes such a page for Latin-1: "Café — menu" became "CafÃ© â€” menu".
    page = "<html><head><title>Café — menu</title></head><body><p>Crème brûlée, 4 €.</p></body></html>"
    doc = read_bytes(page.encode("utf-8"), "html", "menu.html")
    assert (doc.title, doc.blocks[0].text) == ("Café — menu", "Crème brûlée, 4 €.")
    # A Latin-1 page without a declaration, and one that declares its encoding, read as before.
    assert read_bytes(page.replace(" —", "").replace(" €", "").encode("latin-1"), "html", "m.html").title == "Café menu"
    declared = page.replace("<head>", '<head><meta charset="windows-1252">').replace(" —", "")
    assert read_bytes(declared.encode("cp1252"), "html", "m.html").blocks[0].text == "Crème brûlée, 4 €."


def test_pagers_and_trails_are_navigation(data_dir, tmp_path):
    # Texinfo puts "Next: …, Previous: …, Up: … [Contents][Index]" above every node (105 times in the
    # Bash manual), each one glued to the end of the section before it; Apache pages open with a trail
    # and a list of languages.
    page = ('<html><head><title>Bash</title></head><body>'
            '<div id="path"><a href="/">Apache</a> &gt; <a href="/httpd">HTTP Server</a> &gt; <a href="/docs">'
            'Documentation</a></div><div class="toplang"><p><span>Available Languages: </span><a href="en">en</a>'
            ' | <a href="fr">fr</a></p></div>'
            '<div class="header"><p>Next: <a href="#Definitions" rel="next">Definitions</a>, Up: <a href="#Top" '
            'rel="up">Bash Features</a> &nbsp; [<a href="#SEC_Contents">Contents</a>][<a href="#Indexes">Index</a>]'
            '</p></div><h2>1 Introduction</h2><p>Bash is the shell of the GNU operating system.</p>'
            '<div class="header"><p>Previous: <a href="#Introduction" rel="prev">Introduction</a></p></div>'
            '<h2>2 Definitions</h2><p>A blank is a space or tab.</p>'
            '<h2>See also</h2><p><a href="git-repack.html">git-repack(1)</a> <a href="git-gc.html">git-gc(1)</a></p>'
            '<p><a href="download.html">Download the latest release</a></p></body></html>')
    doc = read_bytes(page.encode(), "html", "bash.html")
    assert [(b.kind, b.text) for b in doc.blocks] == [
        ("heading", "1 Introduction"), ("text", "Bash is the shell of the GNU operating system."),
        ("heading", "2 Definitions"), ("text", "A blank is a space or tab."), ("heading", "See also"),
        ("text", "git-repack(1) git-gc(1)"), ("text", "Download the latest release")]


def test_a_short_table_of_contents_of_the_page_itself_is_left_out():
    # groff's HTML man pages open with links to their own sections ("NAME SYNOPSIS DESCRIPTION …"),
    # Apache's with a "Topics" list of three; both only repeat the headings that follow.
    body = ('<a href="#NAME">NAME</a><br>\n<a href="#SYNOPSIS">SYNOPSIS</a><br>\n<a href="#DESCRIPTION">'
            'DESCRIPTION</a><br>\n<hr><h3>Topics</h3><ul><li><a href="#order">Order of Processing</a></li>'
            '<li><a href="#early">Early and Late Processing</a></li><li><a href="#ex">Examples</a></li></ul>'
            '<h2>NAME</h2><p>tar - an archiving utility</p>'
            '<ul><li><a href="a.html">Archives</a></li><li><a href="b.html">Tapes</a></li>'
            '<li><a href="c.html">Files</a></li></ul>'
            '<p>See <a href="#NAME">NAME</a>, <a href="#SYNOPSIS">SYNOPSIS</a> and <a href="#DESCRIPTION">'
            'DESCRIPTION</a> above for how the options combine.</p>')
    assert _texts(body) == [("heading", "Topics"), ("heading", "NAME"), ("text", "tar - an archiving utility"),
                            ("text", "Archives"), ("text", "Tapes"), ("text", "Files"),
                            ("text", "See NAME, SYNOPSIS and DESCRIPTION above for how the options combine.")]


def test_a_page_is_read_in_the_encoding_it_names():
    # libxslt's news page: an XML declaration and a <meta> naming ISO-8859-1; libxml2 read "Pokorný"
    # as "Pokorn\ufffd". Browsers read ISO-8859-1 as Windows-1252 ("€" at 0x80).
    page = ('<?xml version="1.0" encoding="ISO-8859-1"?>\n<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 '
            'Transitional//EN" "x.dtd">\n<html xmlns="http://www.w3.org/1999/xhtml"><head><meta http-equiv='
            '"Content-Type" content="text/html; charset=ISO-8859-1" /><title>News</title></head><body>'
            '<p>Fix typos (Jan Pokorný), 5 € fee.</p></body></html>')
    assert read_bytes(page.encode("cp1252"), "html", "news.html").blocks[0].text == "Fix typos (Jan Pokorný), 5 € fee."
    for codec in ("shift_jis", "euc_jp", "koi8_r", "gb2312"):
        text = {"koi8_r": "Привет, мир", "gb2312": "你好，世界"}.get(codec, "こんにちは世界")
        page = f'<html><head><meta charset="{codec.replace("_", "-")}"><title>t</title></head><body><p>{text}</p></body></html>'
        assert read_bytes(page.encode(codec), "html", "p.html").blocks[0].text == text, codec


def test_a_section_with_a_heading_keeps_its_short_introduction_and_statements_among_links():
    # Python's "Security Considerations": a heading, a one-line introduction, then a list dense with
    # links; the whole section went as navigation, with the items that say something of their own.
    items = "".join(f'<li><p><a href="m{n}.html">module{n}</a>: <a href="m{n}.html#s">Module {n} security '
                    f'considerations</a></p></li>' for n in range(12))
    items += ('<li><p><a href="random.html">random</a> shouldn’t be used for security purposes, use '
              '<a href="secrets.html">secrets</a> instead</p></li>')
    body = (f'<div role="main"><section id="security-considerations"><h1>Security Considerations</h1>'
            f'<p>The following modules have specific security considerations:</p><ul>{items}</ul></section></div>')
    assert _texts(body) == [
        ("heading", "Security Considerations"), ("text", "The following modules have specific security considerations:"),
        ("text", "random shouldn’t be used for security purposes, use secrets instead")]


def test_a_menu_column_beside_the_text_is_left_out_and_the_text_kept():
    # groff's web pages: a two-cell table, seventeen links in the first cell, the page's news in the
    # second; the whole table went as a list of links.
    menu = "".join(f'<a href="webpage-{n}.html#heading{n}">NEWS VERSION 1.{n}</a><br>' for n in range(17))
    body = (f'<h2>NEWS VERSION 1.22.2</h2><hr><table><tr><td valign="top" width="30%">{menu}</td>'
            f'<td valign="top" width="70%"><p>tbl</p><ul><p><li>The character ‘#’ can now be used as an eqn '
            f'delimiter within tables, as in any other place where equations are written.</li></p></ul></td>'
            f'</tr></table>')
    assert _texts(body) == [("heading", "NEWS VERSION 1.22.2"), ("text", "tbl"),
                            ("text", "The character ‘#’ can now be used as an eqn delimiter within tables, as "
                                     "in any other place where equations are written.")]
    # a table of nothing but links, without a column of text, is still a list of links
    rows = "".join(f'<tr><td><a href="f{n}.html">f{n}</a></td><td><a href="t{n}.html">type {n}</a></td></tr>'
                   for n in range(8))
    assert _texts(f"<h1>Functions</h1><p>Every function of the library, with its type.</p><table>{rows}</table>") == [
        ("heading", "Functions"), ("text", "Every function of the library, with its type.")]


def test_a_book_inside_a_box_named_as_furniture_is_read():
    # Sphinx's single-page build (Debian's Python policy) puts the whole book in "toctree-wrapper", the
    # class that elsewhere marks a table of contents; 78% of the policy was lost with it.
    sections = "".join(f'<section id="s{n}"><h2>{n}. Packaging rule {n}</h2><p>Packages must follow rule {n} '
                       f'so that the interpreter finds every module installed by the package manager.</p></section>'
                       for n in range(1, 4))
    body = (f'<div role="main"><h1>Debian Python Policy</h1><div class="toctree-wrapper compound">{sections}</div>'
            f'<div class="toctree-wrapper"><ul><li><a href="a.html">Alpha</a></li></ul></div></div>')
    texts = _texts(body)
    assert ("heading", "3. Packaging rule 3") in texts and len(texts) == 7 and not any("Alpha" in t for _, t in texts)
