"""HTML to structured blocks with lxml: the main content's headings, paragraphs, lists, definitions,
code and tables, without navigation, scripts or page furniture; plus the links in its running text.

trafilatura reads arbitrary web pages well but manages about 0.16 MB/s on local documentation; walking
the lxml tree ourselves keeps the section and definition structure that chunking needs, at several MB/s.
Which encoding a page is read in: html_encoding.py; how it is parsed whole, past libxml2's limits:
html_parsing.py.
"""

from __future__ import annotations

import functools
import re
from itertools import islice

import lxml.etree
import lxml.html

from .errors import NoText
from .html_encoding import page_encoding
from .html_parsing import _parse, _without_dtd
from .links import LINK_CONTEXT, MAX_LINKS, Link, context
from .models import Block, Document

_HEADINGS = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}
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
# Page furniture named by class or id: navigation bars, tables of contents, breadcrumbs, cookie banners.
_FURNITURE = re.compile(
    r"(^|[\s_-])(nav|navbar|navheader|navfooter|navigation|toc|sidebar|sphinxsidebar|breadcrumbs?|menu|"
    r"footer|cookie|related|skip|headerlink|toctree-wrapper)($|[\s_-])",
    re.I,
)
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


# The parsed page's elements: lxml.etree's own, not lxml.html's subclasses, whose class is looked up in
# Python for every element met (a tenth of the reading time).
Element = lxml.etree._Element
_tostring = lxml.etree.tostring


def _text(el: Element) -> str:
    """An element's text and all its descendants' text, joined as written (lxml.html's text_content()).

    libxml2's text serialisation, not XPath's string(): half the time, and this is called for every
    paragraph, link and cell (and an element without children is its own text)."""
    if len(el) == 0:
        return el.text or ""
    return _tostring(el, method="text", encoding=str, with_tail=False)


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


def _norm(text: str) -> str:
    return " ".join(text.split())


def _is_furniture(el: Element) -> bool:
    return _furniture(el, el.get("id"))


def _furniture(el: Element, ident: str | None) -> bool:
    """_is_furniture(el), ``ident`` being el's id, read already (the walker keeps it for the anchors)."""
    cls = el.get("class")
    if cls and _names_furniture(cls):
        return not _holds_a_document(el)
    return bool(ident and _names_furniture(ident)) and not _names_its_section(el, ident) and not (
        _holds_a_document(el))


@functools.lru_cache(maxsize=4096)
def _names_furniture(name: str) -> bool:
    # remembered: a page's classes are a few, given to many elements ("sect2", "literal")
    return _FURNITURE.search(name) is not None


# Paragraphs of running text that no menu, sidebar or banner holds, with a heading.
_DOCUMENT_PARAGRAPHS = 3


def _holds_a_document(el: Element) -> bool:
    """Whether ``el``, named as page furniture, holds a document: Sphinx's single-page build puts the
    whole book in its "toctree-wrapper", the box that elsewhere holds only the table of contents."""
    if next(el.iter(*_HEADINGS), None) is None:
        return False
    found = 0
    for p in el.iter("p"):
        found += _is_prose(p)
        if found >= _DOCUMENT_PARAGRAPHS:
            return True
    return False


_WORD = re.compile(r"[^\W_]+")


def _names_its_section(el: Element, ident: str) -> bool:
    """Whether ``ident`` is made from the element's own heading: Sphinx and other generators name a
    section after its title ("pin-user-pages-and-related-calls"), so the furniture word in it
    ("related") is a word of the title, not the role of a box. ``<div id="toc"><h2>Contents</h2>`` is
    still a table of contents."""
    heading = next(el.iter(*_HEADINGS), None)
    if heading is None:
        return False
    found = [word for word in re.split(r"[\s_-]+", ident.lower()) if _FURNITURE.fullmatch(word)]
    words = set(_WORD.findall(_text(heading).lower()))
    return bool(found) and all(word in words for word in found)


_LINK_LISTS = {"ul", "ol", "dl", "div", "table", "section", "menu", "p", "td", "th"}
_MIN_LINKS = 10


def _is_glossary(dl: Element) -> bool:
    # A definition list whose terms are plain text defines them, however many of its definitions are
    # links ("ANSI: American National Standards Institute", each linked to its article). A table of
    # contents or a book's index links the terms themselves.
    terms = [child for child in dl if isinstance(child.tag, str) and child.tag.rpartition("}")[2].lower() == "dt"]
    return bool(terms) and sum(1 for dt in terms if next(dt.iter("a"), None) is None) > len(terms) / 2


def _defines(a: Element, box: Element, glossaries: dict) -> bool:
    """Whether link ``a`` is (part of) a definition in a glossary inside ``box``."""
    for el in a.iterancestors():
        if el is box:
            return False
        if el.tag == "dd":
            dl = el.getparent()
            if dl is not None and dl.tag == "dl":
                if dl not in glossaries:
                    glossaries[dl] = _is_glossary(dl)
                return glossaries[dl]
    return False


def _first_anchors(el: Element) -> list[Element]:
    """The first _MIN_LINKS links (<a>) in ``el``, in the page's order: all of them when it holds fewer."""
    return list(islice(el.iter("a"), _MIN_LINKS))


def _is_link_list(el: Element, anchors: list[Element] | None = None) -> bool:
    """``anchors``: _first_anchors(el), when already found (the walker uses them again)."""
    # Link density, as boilerplate removers (jusText, trafilatura) use it: a list or box whose text is
    # mostly the text of its many links is a table of contents, an index or a menu, not content. Links
    # that are a glossary's definitions are content, not navigation.
    if len(el) == 0:  # text alone (most paragraphs and cells)
        return False
    if anchors is None:
        anchors = _first_anchors(el)
    if len(anchors) < _MIN_LINKS and not _is_contents(anchors):
        return False
    # A page section or box whose links are mostly a table of contents, but that also holds running
    # text (an introduction above the list of its subpages) is walked into: its lists are judged one
    # by one, and its paragraphs kept. That is asked first: a section of a page's content answers it at
    # its first paragraph, where its link density would take all of its text (a tenth of the reading).
    if el.tag in ("div", "section") and (
            any(child.tag in _HEADINGS for child in el) or any(_is_prose(p) for p in el.iter("p"))):
        return False
    return _dense(el) and not (el.tag == "table" and _is_layout(el))


# Words outside its links that make an item of a list of links a statement rather than a menu entry
# ("hashlib: all constructors take a usedforsecurity keyword-only argument …"): such items are kept.
_DESCRIBED_WORDS = 3


def _words_beside_links(li: Element) -> int:
    text = _text(li)
    for a in li.iter("a"):
        text = text.replace(_text(a), " ", 1)
    return len(_WORD.findall(text))


# A page's own table of contents, however short: links to places in the page ("#order"), each
# repeating a heading that follows ("Topics: Order of Processing, Examples"; a man page's "NAME
# SYNOPSIS DESCRIPTION …").
_MIN_CONTENTS_LINKS = 3


def _is_contents(anchors: list[Element]) -> bool:
    return len(anchors) >= _MIN_CONTENTS_LINKS and all((a.get("href") or "").startswith("#") for a in anchors)


def _dense(el: Element) -> bool:
    total = len(" ".join(_text(el).split()))
    if total == 0:
        return False
    linked = [(a, _text(a)) for a in el.iter("a")]
    # The links' text as written is the most it can be with its spaces folded: a box whose links are
    # well under half of its text (a page's whole content) is answered without folding them or looking
    # for glossaries (a tenth of the reading time).
    if sum(len(text) for _, text in linked) <= total / 2:
        return False
    glossaries: dict = {}
    return sum(len(" ".join(text.split())) for a, text in linked if not _defines(a, el, glossaries)) / total > 0.5


# The words outside links that make a paragraph running text rather than a menu entry or a caption.
_PROSE_CHARS = 80


def _is_prose(el: Element) -> bool:
    """Whether ``el`` (a paragraph, a table's cell) is running text: words of its own beyond its links."""
    text = len(" ".join(_text(el).split()))
    linked = sum(len(" ".join(_text(a).split())) for a in el.iter("a"))
    return text - linked >= _PROSE_CHARS and linked <= text / 2


# A pager or a trail: "Next: Types, Previous: Simple Example, Up: Using libffi [Contents][Index]" above
# every node of a Texinfo manual, "Apache > HTTP Server > Documentation" or "Available Languages: en | fr".
# Short, all links, and between them only these words or the signs that part a trail.
_PAGER_TAGS = frozenset({"p", "div"})
_PAGER_CHARS = 400
_PAGER_WORDS = frozenset({"next", "previous", "prev", "up", "top", "home", "contents", "index", "back",
                          "forward", "languages", "language", "available", "page", "chapter", "section"})
_PAGER_CUES = frozenset({"next", "previous", "prev", "up", "languages"})
_TRAIL_SIGNS = re.compile(r"[>»›|→]")
# Without one of these, a paragraph is no pager (a quick test before the exact one, on its text in lower
# case: half the time of re.I).
_PAGER_HINT = re.compile(r"next|prev|up|language|[>»›|→]")


def _hints_a_pager(lowered: str) -> bool:
    """Whether ``lowered`` holds what _PAGER_HINT matches, each word or sign looked for by itself: a third
    of the time of the pattern's one pass, which tries every alternative at every character."""
    return ("up" in lowered or "next" in lowered or "prev" in lowered or "language" in lowered or ">" in lowered
            or "|" in lowered or "»" in lowered or "›" in lowered or "→" in lowered)


def _is_pager(el: Element, text: str, norm: str | None = None) -> bool:
    """Whether ``el``, which holds a link, is a pager or a trail; ``text``: _text(el), read once for this
    and, for a paragraph, for its block, as ``norm`` (_norm(text)) is when given."""
    if len(text) > 2 * _PAGER_CHARS or (norm is not None and len(norm) > _PAGER_CHARS) or not _hints_a_pager(
            text.lower()) or len(_norm(text) if norm is None else norm) > _PAGER_CHARS:
        return False
    anchors = [a for a in el.iter("a") if a.get("href")]
    for a in anchors:
        text = text.replace(_text(a), " ", 1)
    words = _WORD.findall(text.lower())
    if words:
        return set(words) <= _PAGER_WORDS and not _PAGER_CUES.isdisjoint(words)
    return len(anchors) >= 2 and _TRAIL_SIGNS.search(text) is not None


def _term_context(dt: Element, text: str) -> str:
    # A link in a definition list's term ("git-add(1)") is described by the definition that follows
    # ("Add file contents to the index"): that is the link's sentence.
    following = dt.getnext()
    if following is not None and isinstance(following.tag, str) and following.tag.rpartition("}")[2].lower() == "dd":
        return f"{text} {_norm(_text(following))[: 2 * LINK_CONTEXT]}"
    return text


# The sign a permalink shows beside a heading or a term (Sphinx and MkDocs "¶", Apache "¶", Node.js "#"):
# it is no part of the title, and left in, every heading path reads "Examples ¶".
_PERMALINK_SIGNS = frozenset({"", "¶", "#", "§", "🔗", "⚓", "†"})
_PERMALINKS = lxml.etree.XPath(
    "//a[starts-with(@href, '#') and (contains(concat(' ', normalize-space(@class), ' '), ' headerlink ')"
    " or string-length(normalize-space(.)) <= 1)]"
)


# A link to a place in its page, in the lower-cased bytes of a page read as they are (see _literal): an href
# whose value starts with "#", or with a character or entity reference that may be one ("&#35;").
_HREF_HERE = re.compile(rb"""href\s*=\s*["']?[#&]""")


def _drop_permalinks(root: Element, lowered: bytes | None = None) -> None:
    """Remove the links to a heading or term's own anchor that show only a sign (see _PERMALINK_SIGNS).
    ``lowered``: the page's bytes in lower case, when they are read as they are (see _literal): a page
    without a link to a place in itself (most pages of many manuals) is then not searched for them."""
    if lowered is not None and not _HREF_HERE.search(lowered):
        return
    for a in _PERMALINKS(root):
        if "headerlink" in (a.get("class") or "").split() or _norm(_text(a)) in _PERMALINK_SIGNS:
            _drop_tree(a)  # keeps the text after it


def separate_lines(root: Element) -> None:
    """Put a line break around every element that starts a new line (see _LINE_BREAKING), so that
    text_content(), which joins text without spaces, keeps the words on either side apart.

    Where one already follows, none is added: before a first child or a next sibling that starts with
    its own (a new text costs lxml an allocation, and most elements are such a sibling or child).
    An element's own text and tail are all that its turn reads and changes, so the order the elements
    are taken in does not matter: <br> and <hr>, which have no text of their own to begin with a line
    break, are taken apart from the others, rather than each element's tag being asked for."""
    for el in root.iter(*_OPENS_A_LINE):
        # written out, not a function called twice per element: this runs for most elements of a page
        text = el.text
        if text or not len(el) or el[0].tag not in _OPENS_A_LINE:
            text = "\n" + (text or "")
            try:
                el.text = text
            except ValueError:
                el.text = _CONTROLS.sub("", text)
        tail = el.tail
        if tail or (following := el.getnext()) is None or following.tag not in _OPENS_A_LINE:
            tail = "\n" + (tail or "")
            try:
                el.tail = tail
            except ValueError:
                el.tail = _CONTROLS.sub("", tail)
    for el in root.iter("br", "hr"):
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


def _rows(table: Element) -> list[Element]:
    """The table's own rows, not those of a table nested in one of its cells."""
    if next(table.iterdescendants("table"), None) is None:  # most tables: every row is its own
        return list(table.iter("tr"))
    return [tr for tr in table.iter("tr") if next(tr.iterancestors("table"), None) is table]


def _is_layout(table: Element, rows: list[Element] | None = None) -> bool:
    """A table holding headings or other tables lays out a page (old sites, e-mails): it is read as the
    sections and paragraphs it holds, not as rows of data. So is a table of a menu column beside a
    column of text (groff's web pages): the menu's cell is left out as the links it is. ``rows``:
    _rows(table), when found already (as for _table_text and _has_header)."""
    if any(True for _ in table.iterdescendants("table", *_HEADINGS)):
        return True
    # one more than a layout has is enough to tell: a table of data is not gone through to its end
    cells = list(islice((cell for row in (_rows(table) if rows is None else rows) for cell in row
                         if cell.tag in ("td", "th")), _LAYOUT_CELLS + 1))
    return len(cells) <= _LAYOUT_CELLS and any(_is_link_list(cell) for cell in cells) and any(
        _is_prose(cell) for cell in cells)


# A layout of a menu beside the text has a few cells; a table of data, more.
_LAYOUT_CELLS = 4


def _table_text(table: Element, rows: list[Element] | None = None) -> str:
    lines = []
    for row in _rows(table) if rows is None else rows:
        cells = [_norm(_text(cell)) for cell in row if cell.tag in ("td", "th")]
        if any(cells):
            lines.append(" | ".join(cells))
    return "\n".join(lines)


def _has_header(table: Element, rows: list[Element] | None = None) -> bool:
    """Whether the table's first row names its columns: a <thead>, or a <th> in its first row. A table
    whose first row is data ("Monday | 9:00 | 17:00") has none to repeat."""
    for row in _rows(table) if rows is None else rows:
        cells = [cell for cell in row if cell.tag in ("td", "th")]
        if any(_text(cell).strip() for cell in cells):  # the first row _table_text keeps
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
            text = _norm("".join(self._loose))
            if text and _is_contents(self._loose_links) and sum(
                    len(_norm(_text(a))) for a in self._loose_links) > 0.8 * len(text.replace(" ", "")):
                pass  # links to the page's own headings, standing loose (see _is_contents)
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
            link = context(text, _norm(_text(a)), a.get("href") or "", self._heading)
            if link is not None:
                self.links.append(link)

    def _described_items(self, links: Element) -> None:
        """The items of a list of links that say more than their links (see _DESCRIBED_WORDS)."""
        for li in links:
            if li.tag == "li" and _words_beside_links(li) >= _DESCRIBED_WORDS:
                text = _norm(_text(li))
                self.blocks.append(Block("text", text, 0, True, self._anchor))
                self._add_links(list(li.iter("a")), text)

    def _loose_text(self, text: str | None) -> None:
        if text:  # a space between two inline elements is kept: "<b>x</b> <i>y</i>" is two words
            self._loose.append(text)

    def walk(self, el: Element) -> None:
        self._loose_text(el.text)
        for child in el:
            tag = child.tag
            if not isinstance(tag, str):  # comments and processing instructions: skip, keep their tail
                self._loose_text(child.tail)
                continue
            tag = _TAG_NAMES.get(tag) or _tag_name(tag)
            # The element's text, its _norm() and its first links (_first_anchors), once read: a paragraph's
            # are asked for whether it is a list of links or a pager, then make its block.
            raw = norm = anchors = None
            if tag in _DROP_TAGS or _furniture(child, ident := child.get("id")):
                skip = True
            elif tag in _LINK_LISTS and len(child):
                anchors = _first_anchors(child)
                skip = _is_link_list(child, anchors) or (tag in _PAGER_TAGS and bool(anchors) and (
                    _is_pager(child, raw := _text(child), norm := _norm(raw)) if tag == "p" else
                    _is_pager(child, raw := _text(child))))
            else:
                skip = False
            if skip:
                if tag in ("ul", "ol") and not _is_furniture(child):
                    self._flush_loose()
                    self._described_items(child)
                self._loose_text(child.tail)
                continue
            if tag in _HEADINGS:
                self._flush_loose()
                self._anchor = ((ident and _usable(ident)) or (_inner_anchor(child) if len(child) else None)
                                or self._anchor)
                text = _norm(_text(child))
                if text.casefold() in _ADMONITIONS:
                    # "Note" or "Warning" titles a box inside a section, not a section of its own.
                    self.blocks.append(Block("text", text + ":", 0, True, self._anchor))
                elif text:
                    self.blocks.append(Block("heading", text, _HEADINGS[tag], True, self._anchor))
                    self._heading = text[:200]
            elif tag in _LEAVES:
                self._flush_loose()
                # a term's anchor may be inside it (<dt><a name="x">); a paragraph's or a table's inner ids
                # stand somewhere in its text
                self._anchor = ((ident and _usable(ident)) or (_inner_anchor(child) if tag == "dt" and len(child)
                                                               else None) or self._anchor)
                if tag == "pre":
                    text = _text(child).strip("\n")
                    if text.strip():
                        self.blocks.append(Block("code", text, 0, True, self._anchor))
                elif tag == "table":
                    rows = _rows(child)  # found once for the questions below
                    if _is_layout(child, rows):
                        self.walk(child)
                        self._flush_loose()
                    elif text := _table_text(child, rows):
                        self.blocks.append(Block("table", text, 0, _has_header(child, rows), self._anchor))
                        for row in rows:  # a row is a link's sentence
                            links = list(row.iter("a"))
                            if links and len(self.links) < MAX_LINKS:  # else its sentence is not needed
                                self._add_links(links, _norm(_text(row)))
                else:
                    text = norm if norm is not None else _norm(_text(child) if raw is None else raw)
                    if text:
                        self.blocks.append(Block("term" if tag == "dt" else "text", text, 0, True, self._anchor))
                        if len(child):  # else no link in it
                            links = anchors if anchors is not None and len(anchors) < _MIN_LINKS else list(
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
                self._loose_text(_text(child))
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
        if (tag == "header" or named) and not _is_furniture(sibling):
            found.append(sibling)
    return found[::-1]


def parse_html(data: bytes | str, fallback_title: str) -> HtmlDocument:
    """Read an HTML page into blocks and links; raises ReadError when it holds no readable text."""
    data, encoding = page_encoding(data)
    parsed = _without_dtd(data)
    root, whole = _parse(parsed, encoding)
    lowered = data.lower() if whole and _literal(data, parsed, encoding) else None
    _drop_permalinks(root, lowered)
    separate_lines(root)
    title_el = next(root.iter("title"), None)
    title = _norm(_text(title_el)) if title_el is not None else ""
    main = _main_element(root, data, lowered)
    walker = _Walker()
    if main is not None:
        for header in _page_headers(main):
            walker.walk(header)
            walker._flush_loose()
    walker.walk(main if main is not None else root)
    walker._flush_loose()
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
