"""HTML to structured blocks with lxml: the main content's headings, paragraphs, lists, definitions,
code and tables, without navigation, scripts or page furniture; plus the links in its running text.

trafilatura reads arbitrary web pages well but manages about 0.16 MB/s on local documentation; walking
the lxml tree ourselves keeps the section and definition structure that chunking needs, at several MB/s.
Which encoding a page is read in: html_encoding.py; how it is parsed whole, past libxml2's limits:
html_parsing.py; what of it is navigation, not text: html_furniture.py.
"""

from __future__ import annotations

import itertools
import re
from typing import Callable

import lxml.etree

from .errors import NoText
from .html_encoding import page_encoding
from .html_furniture import (
    _PAGER_CHARS, DESCRIBED_WORDS, HEADINGS, LINK_LISTS, MIN_LINKS, PAGER_TAGS, Element, _is_prose, _names_furniture,
    element_text, first_anchors, is_contents, is_furniture, is_furniture_with_id, is_layout, is_link_list, is_pager,
    norm_text, table_rows, words_beside_links,
)
from .html_parsing import _parse, _without_dtd
from .links import LINK_CONTEXT, MAX_LINKS, Link, context
from .models import Block, Document

# Leaf blocks: their whole text becomes one block (inline markup inside them is flattened).
_LEAVES = {"p", "pre", "table", "dt", "caption", "figcaption", "address", "summary"}
# Containers whose children are walked; their loose text becomes text blocks of its own.
_CONTAINERS = {
    "html", "body", "div", "section", "article", "main", "ul", "ol", "dl", "dd", "li", "blockquote",
    "details", "figure", "center", "span", "font", "form", "fieldset", "tbody", "thead", "tfoot", "td", "th",
    "tr", "header", "hgroup",
}
# Elements that start a new line when shown: the text on either side of one is never the same word, so
# "line one<br>line two" or two paragraphs in a table cell must not read "line oneline two".
_LINE_BREAKING = (
    "br", "hr", "p", "div", "li", "dt", "dd", "tr", "td", "th", "table", "caption", "ul", "ol", "dl",
    "blockquote", "pre", "section", "article", "main", "header", "address", "figure", "figcaption",
    "details", "summary", "center", "form", "fieldset", "tbody", "thead", "tfoot",
    "h1", "h2", "h3", "h4", "h5", "h6", "nav", "aside", "footer", "menu",
)
_DROP_TAGS = {
    "script", "style", "noscript", "nav", "footer", "aside", "template", "svg", "button", "select",
    "iframe", "object", "canvas", "head", "input", "textarea", "menu",
}
_ADMONITIONS = frozenset({"note", "tip", "warning", "caution", "important", "hint", "danger", "attention"})


def _main_element(root: Element, data: bytes, lowered: bytes | None = None) -> Element | None:
    """The page's main content, the first of these found, in this order: <main>, role="main", <article>,
    id="content", id="main-content", <div class="… body …">, <body>.

    Elements of one name are found by lxml in C; an attribute's value is looked for only in a page whose
    bytes (``data``, those parsed) hold it: asking every element for its attributes in Python took a
    twelfth of the reading time, and XPath's way through them more than half of that. ``lowered``:
    ``data`` in lower case, when made already."""
    for el in root.iter("main"):
        return el
    # searched without re.I, which costs a twentieth of the reading time
    data = data.lower() if lowered is None else lowered
    if _ROLE_MAIN.search(data):
        for el in _WITH_ROLE_MAIN(root):
            return el
    for el in root.iter("article"):
        return el
    if _ID_CONTENT.search(data):
        for find in (_WITH_ID_CONTENT, _WITH_ID_MAIN_CONTENT):
            for el in find(root):
                return el
    for el in root.iter("div"):
        if " body " in f" {el.get('class')} ":
            return el
    for el in root.iter("body"):
        return el
    return None


# What an attribute looked for by _main_element must be written as, in bytes, to hold its value: more
# pages than hold it match (role="main-menu", an id in running text), never fewer. A value written with
# character references (role="&#109;ain") is not looked for.
_ROLE_MAIN = re.compile(rb"role\s*=\s*[\"']?\s*main")
_ID_CONTENT = re.compile(rb"id\s*=\s*[\"']?\s*(?:main-)?content")
_WITH_ROLE_MAIN = lxml.etree.XPath("//@role[. = 'main']/..")
_WITH_ID_CONTENT = lxml.etree.XPath("//@id[. = 'content']/..")
_WITH_ID_MAIN_CONTENT = lxml.etree.XPath("//@id[. = 'main-content']/..")


# A page's document now carries its links itself (see models.Document); the name stays for readers of it.
HtmlDocument = Document



def _drop_tree(el: Element) -> None:
    """Remove ``el`` and what it holds, keeping the text after it (lxml.html's drop_tree())."""
    parent = el.getparent()
    if el.tail:
        previous = el.getprevious()
        if previous is None:
            parent.text = (parent.text or "") + el.tail
        else:
            previous.tail = (previous.tail or "") + el.tail
    parent.remove(el)


def _term_context(dt: Element, text: str) -> str:
    # A link in a definition list's term ("git-add(1)") is described by the definition that follows
    # ("Add file contents to the index"): that is the link's sentence.
    following = dt.getnext()
    if following is not None and isinstance(following.tag, str) and following.tag.rpartition("}")[2].lower() == "dd":
        return f"{text} {norm_text(element_text(following))[: 2 * LINK_CONTEXT]}"
    return text


# The sign a permalink shows beside a heading or a term (Sphinx and MkDocs "¶", Apache "¶", Node.js "#"):
# it is no part of the title, and left in, every heading path reads "Examples ¶".
_PERMALINK_SIGNS = frozenset({"", "¶", "#", "§", "🔗", "⚓", "†"})
_PERMALINK = ("a[starts-with(@href, '#') and (contains(concat(' ', normalize-space(@class), ' '), ' headerlink ')"
              " or string-length(normalize-space(.)) <= 1)]")
_PERMALINKS = lxml.etree.XPath("//" + _PERMALINK)
_PERMALINKS_IN = lxml.etree.XPath("descendant-or-self::" + _PERMALINK)


# A link to a place in its page, in the lower-cased bytes of a page read as they are (see _literal): an href
# whose value starts with "#", or with a character or entity reference that may be one ("&#35;").
_HREF_HERE = re.compile(rb"""href\s*=\s*["']?[#&]""")


def _drop_permalinks(root: Element, lowered: bytes | None = None) -> None:
    """Remove the links to a heading or term's own anchor that show only a sign (see _PERMALINK_SIGNS).
    ``lowered``: the page's bytes in lower case, when they are read as they are (see _literal): a page
    without a link to a place in itself (most pages of many manuals) is then not searched for them."""
    if lowered is not None and not _HREF_HERE.search(lowered):
        return
    _drop_permalinks_in(root, _PERMALINKS)


def _drop_permalinks_in(el: Element, find: lxml.etree.XPath | None = None) -> None:
    """_drop_permalinks within ``el`` (itself too); ``find``: how they are found, in the whole tree."""
    for a in (find or _PERMALINKS_IN)(el):
        if "headerlink" in (a.get("class") or "").split() or norm_text(element_text(a)) in _PERMALINK_SIGNS:
            _drop_tree(a)  # keeps the text after it


def separate_lines(root: Element) -> None:
    """Put a line break around every element that starts a new line (see _LINE_BREAKING), so that
    text_content(), which joins text without spaces, keeps the words on either side apart.

    Where one already follows, none is added: before a first child or a next sibling that starts with
    its own (a new text costs lxml an allocation, and most elements are such a sibling or child).
    An element's own text and tail are all that its turn reads and changes, so the order the elements
    are taken in does not matter, nor whether a tree is taken whole or a part at a time: <br> and <hr>,
    which have no text of their own to begin with a line break, are taken apart from the others, rather
    than each element's tag being asked for."""
    for el in root.iter(*_OPENS_A_LINE):
        _line_before(el)
        _line_after(el)
    for el in root.iter("br", "hr"):
        _line_after(el)


def _line_before(el: Element) -> None:
    """separate_lines' line break at the start of ``el``'s text, where its first child brings none."""
    text = el.text
    if text or not len(el) or el[0].tag not in _OPENS_A_LINE:
        text = "\n" + (text or "")
        try:
            el.text = text
        except ValueError:
            el.text = _CONTROLS.sub("", text)


def _line_after(el: Element) -> None:
    """separate_lines' line break at the start of ``el``'s tail, where the element after it brings none."""
    tail = el.tail
    if tail or (following := el.getnext()) is None or following.tag not in _OPENS_A_LINE:
        tail = "\n" + (tail or "")
        try:
            el.tail = tail
        except ValueError:
            el.tail = _CONTROLS.sub("", tail)


# The elements whose text separate_lines always starts with a line break (its own, or its first child's).
_OPENS_A_LINE = frozenset(_LINE_BREAKING) - {"br", "hr"}


# Control characters lxml will not take in a new text (a stray backspace in a page); they show nothing.
_CONTROLS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f]")



def _table_text(table: Element, rows: list[Element] | None = None) -> str:
    lines = []
    for row in table_rows(table) if rows is None else rows:
        cells = [norm_text(element_text(cell)) for cell in row if cell.tag in ("td", "th")]
        if any(cells):
            lines.append(" | ".join(cells))
    return "\n".join(lines)


def _has_header(table: Element, rows: list[Element] | None = None) -> bool:
    """Whether the table's first row names its columns: a <thead>, or a <th> in its first row. A table
    whose first row is data ("Monday | 9:00 | 17:00") has none to repeat."""
    for row in table_rows(table) if rows is None else rows:
        cells = [cell for cell in row if cell.tag in ("td", "th")]
        if any(element_text(cell).strip() for cell in cells):  # the first row _table_text keeps
            return any(cell.tag == "th" for cell in cells) or row.getparent().tag == "thead"
    return False


# Element names as the walker compares them: without a namespace, in lower case (lxml.etree keeps
# "{http://www.w3.org/1999/xhtml}P" as written). Remembered: a page uses a few dozen names, many times.
_TAG_NAMES: dict[str, str] = {}


def _tag_name(tag: str) -> str:
    name = tag.rpartition("}")[2].lower()
    if len(_TAG_NAMES) < 4096:  # a page of made-up names, each once, does not fill the memory
        _TAG_NAMES[tag] = name
    return name


# An id longer than this is no place a person links to (generated noise); the anchor before it stays.
_MOST_ANCHOR_CHARS = 200


def _usable(ident: str | None) -> str | None:
    return ident if ident and len(ident) <= _MOST_ANCHOR_CHARS and ident.strip() else None


def _inner_anchor(el: Element) -> str | None:
    """The id of ``el``, or else of the first element inside it with one (an <a name> too): a heading's
    ``<a id>`` (DocBook), ``<span id>`` (MediaWiki), a definition term's ``<a name>``."""
    for inner in el.iter(lxml.etree.Element):
        ident = _usable(inner.get("id") or (inner.get("name") if inner.tag == "a" else None))
        if ident is not None:
            return ident
    return None


class _Walker:
    """Blocks and links of the elements walked, in order. Each block carries the anchor in effect where it
    starts (Block.anchor): the last id met before it, on a section, a heading (or inside it), a
    definition term (or inside it), a paragraph, or an <a id>/<a name> standing in the text."""

    def __init__(self) -> None:
        self.blocks: list[Block] = []
        self.links: list[Link] = []
        self._loose: list[str] = []
        self._loose_links: list[Element] = []
        self._heading = ""
        self._anchor: str | None = None
        self._after: str | None = None  # an anchor met inside loose text: in effect once it is a block

    def _flush_loose(self) -> None:
        if self._loose:
            # The pieces are consecutive in the page (text, inline elements, tails): joined as written,
            # "<code>MyHeader</code>, to" reads "MyHeader, to", not "MyHeader , to".
            text = norm_text("".join(self._loose))
            if text and is_contents(self._loose_links) and sum(
                    len(norm_text(element_text(a))) for a in self._loose_links) > 0.8 * len(text.replace(" ", "")):
                pass  # links to the page's own headings, standing loose (see is_contents)
            elif text:
                self.blocks.append(Block("text", text, 0, True, self._anchor))
                self._add_links(self._loose_links, text)
            self._loose = []
        if self._loose_links:
            self._loose_links = []
        if self._after is not None:
            self._anchor, self._after = self._after, None

    def _add_links(self, anchors: list[Element], text: str) -> None:
        # Only links inside running text: a bare link ("Next", a list of commands) says nothing more
        # than the target's own title.
        for a in anchors:
            if len(self.links) >= MAX_LINKS:
                return
            link = context(text, norm_text(element_text(a)), a.get("href") or "", self._heading)
            if link is not None:
                self.links.append(link)

    def _described_items(self, links: Element) -> None:
        """The items of a list of links that say more than their links (see DESCRIBED_WORDS)."""
        for li in links:
            if li.tag == "li" and words_beside_links(li) >= DESCRIBED_WORDS:
                text = norm_text(element_text(li))
                self.blocks.append(Block("text", text, 0, True, self._anchor))
                self._add_links(list(li.iter("a")), text)

    def _loose_text(self, text: str | None) -> None:
        if text:  # a space between two inline elements is kept: "<b>x</b> <i>y</i>" is two words
            self._loose.append(text)

    def walk(self, el: Element) -> None:
        self._loose_text(el.text)
        for child in el:
            self.walk_child(child)

    def walk_child(self, child: Element) -> None:
        """One child of the element walked, and its tail."""
        tag = child.tag
        if not isinstance(tag, str):  # comments and processing instructions: skip, keep their tail
            self._loose_text(child.tail)
            return
        tag = _TAG_NAMES.get(tag) or _tag_name(tag)
        # The element's text, its norm_text() and its first links (first_anchors), once read: a paragraph's
        # are asked for whether it is a list of links or a pager, then make its block.
        raw = norm = anchors = None
        if tag in _DROP_TAGS or is_furniture_with_id(child, ident := child.get("id")):
            skip = True
        elif tag in LINK_LISTS and len(child):
            anchors = first_anchors(child)
            skip = is_link_list(child, anchors) or (tag in PAGER_TAGS and bool(anchors) and (
                is_pager(child, raw := element_text(child), norm := norm_text(raw)) if tag == "p" else
                is_pager(child, raw := element_text(child))))
        else:
            skip = False
        if skip:
            if tag in ("ul", "ol") and not is_furniture(child):
                self._flush_loose()
                self._described_items(child)
            self._loose_text(child.tail)
            return
        if tag in HEADINGS:
            self._flush_loose()
            self._anchor = ((ident and _usable(ident)) or (_inner_anchor(child) if len(child) else None)
                            or self._anchor)
            text = norm_text(element_text(child))
            if text.casefold() in _ADMONITIONS:
                # "Note" or "Warning" titles a box inside a section, not a section of its own.
                self.blocks.append(Block("text", text + ":", 0, True, self._anchor))
            elif text:
                self.blocks.append(Block("heading", text, HEADINGS[tag], True, self._anchor))
                self._heading = text[:200]
        elif tag in _LEAVES:
            self._flush_loose()
            # a term's anchor may be inside it (<dt><a name="x">); a paragraph's or a table's inner ids
            # stand somewhere in its text
            self._anchor = ((ident and _usable(ident)) or (_inner_anchor(child) if tag == "dt" and len(child)
                                                           else None) or self._anchor)
            if tag == "pre":
                text = element_text(child).strip("\n")
                if text.strip():
                    self.blocks.append(Block("code", text, 0, True, self._anchor))
            elif tag == "table":
                rows = table_rows(child)  # found once for the questions below
                if is_layout(child, rows):
                    self.walk(child)
                    self._flush_loose()
                elif text := _table_text(child, rows):
                    self.blocks.append(Block("table", text, 0, _has_header(child, rows), self._anchor))
                    for row in rows:  # a row is a link's sentence
                        links = list(row.iter("a"))
                        if links and len(self.links) < MAX_LINKS:  # else its sentence is not needed
                            self._add_links(links, norm_text(element_text(row)))
            else:
                text = norm if norm is not None else norm_text(element_text(child) if raw is None else raw)
                if text:
                    self.blocks.append(Block("term" if tag == "dt" else "text", text, 0, True, self._anchor))
                    if len(child):  # else no link in it
                        links = anchors if anchors is not None and len(anchors) < MIN_LINKS else list(
                            child.iter("a"))
                        if links and len(self.links) < MAX_LINKS:  # else a term's sentence is not needed
                            self._add_links(links, _term_context(child, text) if tag == "dt" else text)
        elif tag in _CONTAINERS and (tag not in ("span", "font", "td", "th") or len(child)):
            if tag in ("span", "font"):
                self.walk(child)  # an inline wrapper holding blocks: treat its content as ours
            else:
                self._flush_loose()
                if ident:  # DocBook's <div class="sect2" id>
                    self._anchor = _usable(ident) or self._anchor
                self.walk(child)
                self._flush_loose()
        else:  # inline markup (a, code, em, …): part of the surrounding loose text
            if tag == "a" and (ident or (ident := child.get("name"))) and (ident := _usable(ident)):
                # an anchor standing before a heading or a paragraph, or inside the text
                if any(piece.strip() for piece in self._loose):
                    self._after = ident
                else:
                    self._anchor = ident
            self._loose_text(element_text(child))
            self._loose_links.extend(child.iter("a"))
        self._loose_text(child.tail)


_HEADER = re.compile(r"(^|[\s_-])(header|masthead)($|[\s_-])", re.I)


def _page_headers(main: Element) -> list[Element]:
    """The page headers just before the main content: outside it, yet they hold what the page is about.

    Man pages rendered by AsciiDoc put their one-line purpose ("git-commit - Record changes to the
    repository") in ``<div id="header">``, a sibling of ``<div id="content">``; leaving it out loses the
    page's best summary. Only headers that are not page furniture (navigation bars) count.
    """
    found = []
    for sibling in main.itersiblings(preceding=True):
        tag = sibling.tag.rpartition("}")[2].lower() if isinstance(sibling.tag, str) else ""
        named = _HEADER.search(f"{sibling.get('id', '')} {sibling.get('class', '')}")
        if (tag == "header" or named) and not is_furniture(sibling):
            found.append(sibling)
    return found[::-1]


def parse_html(data: bytes | str, fallback_title: str) -> HtmlDocument:
    """Read an HTML page into blocks and links; raises ReadError when it holds no readable text."""
    data, encoding = page_encoding(data)
    parsed = _without_dtd(data)
    walked = _walked_as_parsed(data, parsed, encoding) if len(parsed) >= STREAMED_BYTES else None
    if isinstance(walked, tuple):
        title, walker = walked
    else:
        title, walker = _walked_whole(data, parsed, encoding, walked)
    blocks = walker.blocks
    if not title:
        title = next((b.text for b in blocks if b.kind == "heading"), "") or fallback_title
    if not blocks:
        raise NoText("no readable text found (only navigation or markup)")
    if not any(b.kind != "heading" for b in blocks):
        if not _only_headings(parsed, encoding, blocks):  # the rest was navigation (a page of links)
            raise NoText("no readable text found (only navigation or markup)")
        blocks = [Block("text", b.text, anchor=b.anchor) for b in blocks]  # a note that is only its heading
    return HtmlDocument(title=title[:300], type="html", blocks=tuple(blocks), links=tuple(walker.links))


def _walked_whole(data: bytes, parsed: bytes, encoding: str | None,
                  root: Element | None = None) -> tuple[str, _Walker]:
    """The page's title, and its main content walked, from its whole tree: ``root``, when parsed already
    within libxml2's limits (see _walked_as_parsed), or else parsed here."""
    root, whole = _parse(parsed, encoding) if root is None else (root, True)
    lowered = data.lower() if whole and _literal(data, parsed, encoding) else None
    _drop_permalinks(root, lowered)
    separate_lines(root)
    title_el = next(root.iter("title"), None)
    title = norm_text(element_text(title_el)) if title_el is not None else ""
    main = _main_element(root, data, lowered)
    walker = _Walker()
    if main is not None:
        for header in _page_headers(main):
            walker.walk(header)
            walker._flush_loose()
    walker.walk(main if main is not None else root)
    walker._flush_loose()
    return title, walker


# A page this large (61 MB of short paragraphs took 1.4 GB as one tree) is walked as it is parsed: each
# child of its main content (and of the sections inside it) read, then taken out of the tree
# (_walked_as_parsed). Smaller pages, most of them, are parsed whole: a parser that reports each element
# costs a little more time.
STREAMED_BYTES = 4 * 1024 * 1024
_FED_BYTES = 1024 * 1024  # how much of the page the parser is given at a time


def _walked_as_parsed(data: bytes, parsed: bytes,
                      encoding: str | None) -> tuple[str, _Walker] | Element | None:
    """What _walked_whole makes of the page, read while the page is parsed, so that its tree is never
    whole: after each _FED_BYTES given to the parser, the children of its main content are walked, and
    taken out of the tree, up to the last one started that is no link (a permalink after a child changes
    its tail, see _drop_permalinks; the line break after it depends on the element that follows); then
    those of that last one, where it is walked into whatever follows in it (_walked_into), and so on. None
    where that cannot be done the same way: a page in an encoding whose tags are not ASCII bytes, one over
    libxml2's limits, or one whose main content turned out not to be the one its bytes promised
    (_main_test): _walked_whole reads those, the last from the whole tree made here, which is returned."""
    if encoding not in (None, "utf-8") or b"\x00" in data:  # its tags may not be ASCII bytes (UTF-16)
        return None
    lowered = data.lower()
    main_tag, is_main = _main_test(lowered)
    permalinks = not _literal(data, parsed, encoding) or _HREF_HERE.search(lowered) is not None
    del lowered
    # Told of the elements that may be the main content (and the title) only, where their tag says so: each
    # element reported costs time. Where it does not, of every element.
    parser = lxml.etree.HTMLPullParser(events=("start",), tag=(main_tag, "title") if main_tag else None,
                                       encoding=encoding, collect_ids=False)
    walker = _Walker()
    main: Element | None = None
    title_el: Element | None = None
    started = False  # whether main's own text was walked
    # The open elements inside main walked into so far, outermost first: each the last started child of the
    # one before it (of main, the first), its children walked and taken out as main's are (see _walked_into).
    entered: list[Element] = []

    def walk_until(parent: Element, stop: Element | None, depth: int) -> None:
        """Walk ``parent``'s children before ``stop`` (all of them when None), taking each out of the tree;
        ``parent``: main (``depth`` 0), or the element walked into at ``depth`` - 1."""
        nonlocal started
        done = []
        child = next(iter(parent), None)  # not len(parent): it counts the children parsed ahead of the walk
        while child is not None and child is not stop:
            done.append(child)
            child = child.getnext()
        inside = entered[depth] if len(entered) > depth else None  # walked into: finished below, if done
        for child in done:
            if permalinks and child is not inside and _holds_a_link(child):
                _drop_permalinks_in(child)
        if not started:
            started = True
            if main.tag in _OPENS_A_LINE:
                _line_before(main)
            walker._loose_text(main.text)
        for child in done:
            if child is inside:  # whole now: the rest of it, as walk_child ends a container
                walk_until(child, None, depth + 1)
                del entered[depth:]
                walker._flush_loose()
                if child.tag in _OPENS_A_LINE:
                    _line_after(child)
                walker._loose_text(child.tail)
                parent.remove(child)
            elif child.getparent() is not None:  # not a permalink taken out above
                if isinstance(tag := child.tag, str) and len(child):
                    separate_lines(child)
                elif tag in _OPENS_A_LINE:  # the most of a long page: a paragraph of text alone
                    _line_before(child)
                    _line_after(child)
                elif tag in ("br", "hr"):
                    _line_after(child)
                walker.walk_child(child)
                parent.remove(child)

    def walk_down(parent: Element, depth: int) -> None:
        """walk_until the last started child of ``parent``, then walk into that child where it can be."""
        stop = _last_started(parent)
        if stop is None:
            return
        walk_until(parent, stop, depth)
        if len(entered) == depth:
            inner = _last_started(stop)
            if inner is None or not _walked_into(stop, inner):
                return
            walker._flush_loose()  # as walk_child starts a container
            if ident := _usable(stop.get("id")):
                walker._anchor = ident
            if permalinks:  # its text and first child as the whole tree has them
                for before in stop:
                    if before is inner:
                        break
                    if _holds_a_link(before):
                        _drop_permalinks_in(before)
            if stop.tag in _OPENS_A_LINE:
                _line_before(stop)
            walker._loose_text(stop.text)
            entered.append(stop)
        walk_down(stop, depth + 1)

    try:
        for at in range(0, len(parsed), _FED_BYTES):
            parser.feed(parsed[at: at + _FED_BYTES])
            for _, el in parser.read_events():
                if title_el is None and el.tag == "title":
                    title_el = el
                if main is None:
                    if (main_tag is None or el.tag == main_tag) and is_main(el):
                        main = el
                        for before in list(main.itersiblings(lxml.etree.Element, preceding=True)):  # whole
                            if permalinks:
                                _drop_permalinks_in(before)
                            separate_lines(before)
                        for header in _page_headers(main):
                            walker.walk(header)
                            walker._flush_loose()
            if main is not None:
                walk_down(main, 0)
        root = parser.close()
    except (lxml.etree.LxmlError, ValueError):
        return None  # said as _walked_whole says it
    if parser.feed_error_log.filter_types([lxml.etree.ErrorTypes.ERR_RESOURCE_LIMIT]):  # a part was not read
        return None
    if main is None:  # nothing was taken out of the tree
        return root
    walk_until(main, None, 0)
    walker._flush_loose()
    if title_el is not None and len(title_el):
        return None  # a title holding elements: its text as separate_lines leaves it, from the whole tree
    return (norm_text(title_el.text or "") if title_el is not None else ""), walker


# A class attribute that may hold "body", written as it is, or with a character reference in it.
_CLASS_BODY = re.compile(rb"class\s*=\s*(?:\"[^\"]*body|'[^']*body|[^\s>]*body)")
_CLASS_REFERENCE = re.compile(rb"class\s*=\s*(?:\"[^\"]*&|'[^']*&|[^\s>]*&)")


def _last_started(main: Element) -> Element | None:
    """The last child of ``main`` parsed so far that is an element and no link (see _walked_as_parsed); or
    the term just before it, when it is a definition: a term's links are described by its definition
    (see _term_context), which must be whole when the term is walked."""
    child = main[-1] if len(main) else None
    while child is not None and (not isinstance(child.tag, str) or child.tag == "a"):
        child = child.getprevious()
    if child is not None and child.tag == "dd" and (term := child.getprevious()) is not None and term.tag == "dt":
        return term
    return child


def _holds_a_link(el: Element) -> bool:
    """Whether ``el`` is a link or holds one: a permalink _drop_permalinks_in may take out."""
    return isinstance(el.tag, str) and (el.tag == "a" or (len(el) > 0 and next(el.iter("a"), None) is not None))


_FIRST_CHILDREN = 64


def _walked_into(el: Element, inner: Element) -> bool:
    """Whether ``el``, an element still being parsed, will be walked as a container (see _Walker.walk_child),
    its children one by one, whatever follows in it: a container no name or content can make a list of links,
    a pager or furniture. A <div> or <section> is no list of links once it holds a heading or a paragraph
    of running text, nor a pager once its text is that long, among its first children (a look at each one of
    many, at every piece of the page, would take longer than reading them); ``inner``: its last child
    started, before which its children are whole."""
    tag = el.tag
    if tag not in _CONTAINERS or tag in ("span", "font", "td", "th") or any(
            name and _names_furniture(name) for name in (el.get("class"), el.get("id"))):
        return False
    if tag not in LINK_LISTS:
        return True
    if tag not in ("div", "section"):
        return False
    paragraphs = []  # paragraphs of text alone: what separate_lines and permalinks leave of them is this
    heading = False
    for child in itertools.islice(el, _FIRST_CHILDREN):
        if child is inner:
            break
        heading = heading or child.tag in HEADINGS
        if child.tag == "p" and not len(child):
            paragraphs.append(child)
    return (heading or any(_is_prose(p) for p in paragraphs)) and (
        tag == "section" or sum(len(norm_text(p.text or "")) for p in paragraphs) > _PAGER_CHARS + 2)


def _main_test(lowered: bytes) -> tuple[str | None, Callable[[Element], bool]]:
    """Whether an element is the page's main content, as _main_element finds it, asked of each element in
    the page's order: the first that passes is it; and the tag of the elements worth asking (None: any).
    ``lowered``: the page's bytes in lower case. The kind of element looked for is the first kind
    _main_element looks for that the page's bytes may hold; a page that holds none of that kind is read
    again whole (see _walked_as_parsed)."""
    if b"<main" in lowered:
        return "main", lambda el: True
    if _ROLE_MAIN.search(lowered):
        return None, lambda el: el.get("role") == "main"
    if b"<article" in lowered:
        return "article", lambda el: True
    if _ID_CONTENT.search(lowered):
        return None, lambda el: el.get("id") == "content"
    if _CLASS_BODY.search(lowered) or _CLASS_REFERENCE.search(lowered):
        return "div", lambda el: " body " in f" {el.get('class')} "
    return "body", lambda el: True



def _only_headings(data: bytes, encoding: str | None, headings: list[Block]) -> bool:
    """Whether the page ``data`` says nothing but ``headings`` (``<h1>Gutter cleaning on Friday</h1>``, a
    note), not navigation left out around them: its body holds no other words. Parsed again, as the walk
    changed the tree; only for pages whose blocks are all headings, which are small."""
    root, _ = _parse(data, encoding)
    for el in list(root.iter("script", "style", "head", "template", "noscript")):
        _drop_tree(el)
    words = len(" ".join(root.itertext()).split())
    return words <= sum(len(b.text.split()) for b in headings) + _FEW_OTHER_WORDS


_FEW_OTHER_WORDS = 3


def _literal(data: bytes, parsed: bytes, encoding: str | None) -> bool:
    """Whether the page's attributes are written in its bytes as they are read: ``parsed``, the bytes libxml2
    read, are ``data`` (no DTD was taken out), UTF-8 read as UTF-8, without NULs. An ASCII character
    of a value is then that byte, or a character or entity reference (which begins with "&"), and a
    value can be looked for in the bytes before the tree is asked for it."""
    return parsed is data and encoding == "utf-8" and b"\x00" not in data
