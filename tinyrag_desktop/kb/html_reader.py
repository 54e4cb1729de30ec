"""HTML to structured blocks with lxml: the main content's headings, paragraphs, lists, definitions,
code and tables, without navigation, scripts or page furniture; plus the links in its running text.

trafilatura reads arbitrary web pages well but manages about 0.16 MB/s on local documentation; walking
the lxml tree ourselves keeps the section and definition structure that chunking needs, at several MB/s.
"""

from __future__ import annotations

import codecs
import functools
import re
from itertools import islice

import lxml.etree
import lxml.html

from .errors import NoText, ReadError
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


# Byte order marks, longest first: UTF-32-LE's mark begins with UTF-16-LE's. Python's "utf-16" and
# "utf-32" codecs read the mark to learn the byte order, and drop it. (The readers use them too.)
_BOMS = ((b"\xff\xfe\x00\x00", "utf-32"), (b"\x00\x00\xfe\xff", "utf-32"), (b"\xef\xbb\xbf", "utf-8-sig"),
         (b"\xff\xfe", "utf-16"), (b"\xfe\xff", "utf-16"))


def bom_codec(data: bytes) -> str | None:
    """The codec a byte order mark at the start of ``data`` names, or None without one."""
    for bom, codec in _BOMS:
        if data.startswith(bom):
            return codec
    return None


# The nesting the walker reads, below <html>: what libxml2 allows by default (256 with <html>). A page
# nested deeper (sloppy HTML that never closes its <div>s or <font>s: a forum page, one post inside the
# last) is flattened to _FLAT_DEPTH: every level of a nest tests the link density of all it holds, so
# 32 levels cost about as much as reading the page once more (200 levels: 30 s for a 22 MB page).
_MAX_DEPTH = 255
_FLAT_DEPTH = 32
_BELOW_MAX_DEPTH = "/".join(["*"] * (_MAX_DEPTH + 1))  # XPath: the elements nested deeper than allowed
# An internal DTD subset: ``<!DOCTYPE html [ <!ENTITY lol "lol"> … ]>``. HTML has none, and the HTML
# parser, which does not know them, shows the declarations as text; its entities are never expanded.
_DOCTYPE = re.compile(rb"<!DOCTYPE[^>\[]*\[", re.I)
_SUBSET_END = re.compile(rb"\]\s*>")


def page_encoding(data: bytes | str) -> tuple[bytes, str | None]:
    """A page's bytes as libxml2 is to read them, and the encoding to read them in (None: left to libxml2:
    a byte order mark, a <meta charset>, else a guess)."""
    encoding = None
    if isinstance(data, bytes) and bom_codec(data) in ("utf-16", "utf-32"):
        # decoded here, so that what is done to its bytes below (a DTD dropped, a nest flattened) works
        # on ASCII-based bytes
        data = data.decode(bom_codec(data), errors="replace")
    if isinstance(data, str):
        # Text already decoded: its <meta charset> no longer applies.
        data, encoding = data.replace("\x00", "").encode("utf-8"), "utf-8"
    elif (declared := _declared_encoding(data)) == "utf-8" and b"\x00" not in data and _is_utf8(data):
        encoding = "utf-8"  # as it is: decoded and encoded again, it would be the same bytes
    elif declared is not None:
        # decoded here, by Python's codecs: libxml2 (through iconv) does not know every name Python does
        data, encoding = _decoded(data, declared).replace("\x00", "").encode("utf-8"), "utf-8"
    elif _undeclared_utf8(data):
        encoding = "utf-8"
    elif _undeclared_legacy(data):
        data, encoding = utf8_page(data)
    return data, encoding


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


# Where a page names its encoding: <meta charset="…">, <meta http-equiv="Content-Type" content="…;
# charset=…">, or an XML declaration's encoding="…" (XHTML).
_CHARSET_REACH = 65536
_CHARSET_NAME = re.compile(rb"""<meta[^>]*?charset\s*=\s*["']?\s*([\w.:-]+)|<\?xml[^>]*?encoding\s*=\s*["']([\w.:-]+)""",
                           re.I)
# What browsers read a page in when it names one of these (the WHATWG Encoding Standard): Windows-1252,
# which gives the bytes 0x80–0x9F their letters ("€", curly quotes) where Latin-1 has control codes.
_AS_WINDOWS_1252 = frozenset({"iso-8859-1", "iso8859-1", "latin1", "latin-1", "l1", "us-ascii", "ascii",
                              "cp819", "ibm819", "iso_8859-1", "windows-1252", "cp1252", "x-cp1252"})


def _declared_encoding(data: bytes) -> str | None:
    """The encoding a page without a byte order mark names in a <meta> or an XML declaration, when
    Python knows it; None otherwise.

    libxml2 finds a <meta charset> itself, but not always: after an XML declaration naming ISO-8859-1 it
    read libxslt's news page's "Pokorný" as "Pokorn�". Named here, the encoding is always used, unless the
    page's bytes are UTF-8 and it names another."""
    if bom_codec(data) is not None or data.isascii():
        return None
    declared = _named_encoding(data)
    if declared is None:
        return None
    if declared != "utf-8" and _is_utf8(data):
        # The page names another encoding, but its bytes are UTF-8 beyond ASCII, which text in a legacy
        # encoding almost never is by chance ("Ã©" for every "é"): a page converted to UTF-8 by an editor
        # that left its <meta> as it was. Read as declared, "café" would be stored as "cafÃ©".
        return "utf-8"
    return declared


# Codecs Python finds by a name that are no encoding a page can be in: they turn its text into something else
# (escapes, IDNA), or refuse everything; UTF-7 is an old trick to hide a script from filters (browsers
# dropped it). Bytes-to-bytes codecs ("base64", "hex") are told apart by Python itself.
_NOT_PAGE_ENCODINGS = frozenset({"undefined", "idna", "punycode", "unicode-escape", "raw-unicode-escape", "utf-7",
                                 "mbcs", "oem"})


def _codec_named(name: str) -> str | None:
    """Python's codec for the encoding a page or its server names ("windows-1251", "Shift_JIS"; ISO-8859-1
    as Windows-1252, as browsers read it); None for a name Python does not know, or for an encoding whose
    page would not read its own ASCII markup as ASCII (UTF-16 without its byte order mark, EBCDIC)."""
    name = name.strip().strip("\"'").lower()
    if name in _AS_WINDOWS_1252:
        return "cp1252"
    try:
        info = codecs.lookup(name)
    except (LookupError, ValueError):  # not a codec's name ("x-bogus"), or one with a NUL in it
        return None
    if not getattr(info, "_is_text_encoding", True) or info.name in _NOT_PAGE_ENCODINGS:
        return None
    try:
        ascii_based = b"<meta charset=a>".decode(info.name) == "<meta charset=a>"
    except UnicodeDecodeError:
        return None
    return info.name if ascii_based else None


def served_as_utf8(data: bytes, charset: str | None) -> bytes | None:
    """``data``, a page or a text its server says is in ``charset`` (its Content-Type's), in UTF-8; None when
    that does not decide how it reads: no charset, one Python does not know (see _codec_named), a byte
    order mark (which outranks it), bytes all ASCII.

    The server's charset outranks a <meta charset> in the page, as in browsers. A page whose bytes are
    UTF-8 beyond ASCII is read as UTF-8 though its server names another encoding: a server's default
    (Apache's ISO-8859-1) sent with a page saved as UTF-8, which read so would store "cafÃ©" for "café"."""
    codec = _codec_named(charset) if charset else None
    if codec is None or bom_codec(data) is not None or data.isascii():
        return None
    if _is_utf8(data):
        return data
    return _decoded(data, codec).encode("utf-8")


def _named_encoding(data: bytes) -> str | None:
    """The codec for the encoding ``data`` names in a <meta> or an XML declaration; None when it names none
    a page can be in (see _codec_named): such a page ("x-bogus", "utf-16" without its byte order mark) is
    read as one that names none."""
    found = _CHARSET_NAME.search(data, 0, _CHARSET_REACH)
    return None if found is None else _codec_named((found.group(1) or found.group(2)).decode("ascii"))


def _decoded(data: bytes, codec: str) -> str:
    """``data`` decoded as ``codec``. A page that says it is UTF-8 but is not throughout (saved from an
    older editor in Windows-1252, or pasted together) is read as plain text files are, line by line
    (decoding.decode_text): "Café", not "Caf�", which no search finds."""
    try:
        return data.decode(codec)
    except UnicodeDecodeError:
        if codec != "utf-8":
            return data.decode(codec, errors="replace")
    from .decoding import decode_text  # decoding imports this module

    return decode_text(data)


def _is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _undeclared_utf8(data: bytes) -> bool:
    """Whether ``data`` is UTF-8 beyond ASCII without a byte order mark or a declared encoding.

    libxml2 reads a page that names no encoding as Latin-1, so "café — menu" saved by any editor of
    today shows "cafÃ© â€” menu"; browsers look at the bytes, and so does this. A page that declares its
    encoding is read by _declared_encoding."""
    if bom_codec(data) is not None or data.isascii() or _named_encoding(data) is not None:
        return False
    return _is_utf8(data)


def _undeclared_legacy(data: bytes) -> bool:
    """Whether ``data`` is in a legacy encoding it does not name: not ASCII, no byte order mark, no declared
    encoding (see _named_encoding), not UTF-8."""
    return not data.isascii() and bom_codec(data) is None and _named_encoding(data) is None and not _is_utf8(data)


def utf8_page(data: bytes) -> tuple[bytes, str | None]:
    """A page's bytes, and the encoding to parse them in (None: the page's own, which libxml2 finds by its
    byte order mark or <meta charset>): a page in a legacy encoding that it does not name is given in
    UTF-8 (see decoding.decode_legacy), one in UTF-8 that does not say so is parsed as UTF-8.

    Neither declared nor UTF-8, a page is read in the encoding its bytes look like, as browsers guess it;
    in Windows-1252 when they read as well in it as in any (libxml2 would read Latin-1, where a curly quote
    or a dash of Windows-1252 is an invisible control code, and a Russian or Japanese page as Latin-1
    garble)."""
    if _undeclared_legacy(data):
        from .decoding import decode_legacy  # decoding imports this module

        return decode_legacy(data).replace("\x00", "").encode("utf-8"), "utf-8"
    return data, "utf-8" if _undeclared_utf8(data) else None


def _literal(data: bytes, parsed: bytes, encoding: str | None) -> bool:
    """Whether the page's attributes are written in its bytes as they are read: ``parsed``, the bytes libxml2
    read, are ``data`` (no DTD was taken out), UTF-8 read as UTF-8, without NULs. An ASCII character
    of a value is then that byte, or a character or entity reference (which begins with "&"), and a
    value can be looked for in the bytes before the tree is asked for it."""
    return parsed is data and encoding == "utf-8" and b"\x00" not in data


def _parse(data: bytes, encoding: str | None) -> tuple[Element, bool]:
    """The page's tree with all of its text, nested no deeper than _MAX_DEPTH below <html>; and whether it
    was read from ``data`` as it is (not flattened, see below).

    libxml2 stops reading, without failing, at a text over 10 MB or an element nested 256 deep, and keeps
    only what came before. Such a page is read again with huge_tree, which lifts the first limit and
    raises the second to 2,048; nested deeper than _MAX_DEPTH, it is flattened (_flatten) first, and if
    the flattening's guesses still leave it too deep, read once more with no nesting tags at all.
    """
    root = parse_within_limits(data, encoding, huge_tree=False, parser=lxml.etree.HTMLParser)
    if root is not None:  # within libxml2's default limits: the nesting is under _MAX_DEPTH
        return root, True
    for depth in (None, _FLAT_DEPTH, 0):
        root = parse_within_limits(data if depth is None else _flatten(data, depth), encoding, huge_tree=True,
                                   parser=lxml.etree.HTMLParser)
        if root is not None and not root.xpath(_BELOW_MAX_DEPTH):
            return root, depth is None
    raise ReadError("not readable as HTML (its elements are nested too deeply)")


def parse_within_limits(data: bytes, encoding: str | None = None, huge_tree: bool = False,
                        parser: type[lxml.etree.HTMLParser] = lxml.html.HTMLParser) -> Element | None:
    """The page's tree, or None when libxml2 stopped early at one of its limits (then only parse_html
    reads it whole). Its elements are lxml.html's (``text_content()``, ``drop_tree()``), or with
    ``parser=lxml.etree.HTMLParser`` lxml.etree's, as parse_html reads them."""
    # With huge_tree the page is still at most the file size limit (ingest.MAX_FILE_BYTES) or the
    # download limit: memory stays bounded by what was let in. The ids are not gathered into a table of
    # their own (getElementById's), which lxml.etree's trees are never asked for here: 2 % of the parsing.
    reader = parser(huge_tree=huge_tree, encoding=encoding, collect_ids=parser is not lxml.etree.HTMLParser)
    try:
        root = lxml.etree.fromstring(data, reader)
    except (lxml.etree.ParserError, ValueError) as exc:
        raise ReadError(f"not readable as HTML ({exc})") from exc
    if root is None:  # only comments, blanks or an XML declaration (lxml.html's message)
        raise ReadError("not readable as HTML (Document is empty)")
    return None if reader.error_log.filter_types([lxml.etree.ErrorTypes.ERR_RESOURCE_LIMIT]) else root


def _without_dtd(data: bytes) -> bytes:
    """``data`` without an internal DTD subset at its start (see _DOCTYPE)."""
    start = _DOCTYPE.search(data, 0, 4096)
    if start is None:
        return data
    end = _SUBSET_END.search(data, start.end())
    return data if end is None else data[: start.start()] + data[end.end():]


# ---- flattening a page nested too deep ----------------------------------------------------------------

# A start tag, an end tag or a comment; a tag's attributes run to the first ">" (good enough to count).
_TAG = re.compile(rb"<!--.*?(?:-->|\Z)|<(/?)([A-Za-z][A-Za-z0-9:_-]*)[^>]*(>|\Z)", re.S)
_VOID = frozenset(b"area base basefont br col embed frame hr img input isindex keygen link meta param source "
                  b"track wbr".split())
# Elements whose content is text up to their end tag, not markup.
_RAW = frozenset({b"script", b"style"})
# Start tags that end an open element as the parser does: a list item ends the item before it, …
_ENDS = {b"li": {b"li"}, b"dt": {b"dt", b"dd"}, b"dd": {b"dt", b"dd"}, b"tr": {b"tr", b"td", b"th"},
         b"td": {b"td", b"th"}, b"th": {b"td", b"th"}, b"option": {b"option"}}
# … and a block ends a paragraph.
_ENDS_P = frozenset(b"p div ul ol dl table pre blockquote section article aside nav header footer form "
                    b"h1 h2 h3 h4 h5 h6 address fieldset figure details main".split())
# How far up the open elements an end tag looks for its start tag (further is taken as a stray end tag).
_END_TAG_REACH = 64
# Blocks kept a few levels past the depth: they hold no blocks, so a paragraph stays a paragraph.
_KEPT_DEEPER = frozenset(b"p pre h1 h2 h3 h4 h5 h6 dt caption figcaption address summary".split())
_DEEPER = 8
# Inline elements: a dropped tag of one of these joins the text around it; any other parts it with a space.
_INLINE = frozenset(b"a abbr b bdi bdo big cite code data dfn em font i kbd mark q s samp small span strike "
                    b"strong sub sup time tt u var".split())


def _flatten(data: bytes, depth: int) -> bytes:
    """``data`` without the start and end tags of the elements nested deeper than ``depth``: their text
    stays where it is, inside the element at that depth.

    The nesting is counted from the tags as libxml2 would build it, roughly: void elements, elements
    ended by their next sibling's start tag (list items, paragraphs) and stray end tags are allowed for;
    a wrong guess errs towards dropping more tags. Paragraphs, headings and the like (_KEPT_DEEPER) keep
    their tags a few levels further. The content of a dropped script or style is dropped with it. With
    ``depth`` 0 the page is its text, in paragraphs where it had them.
    """
    out: list[bytes] = []
    opened: list[tuple[bytes, bool]] = []  # the open elements, innermost last: name, whether kept
    kept = 0  # how many of them are kept: the depth in the output
    at = 0  # the end of what was copied to ``out``
    pos = 0
    while (tag := _TAG.search(data, pos)) is not None:
        pos = tag.end()
        closing, name = tag.group(1), tag.group(2)
        if name is None:  # a comment
            continue
        name = name.lower()
        drop = False
        if closing:
            for i in range(len(opened) - 1, max(len(opened) - 1 - _END_TAG_REACH, -1), -1):
                if opened[i][0] == name:
                    drop = not opened[i][1]
                    kept -= sum(1 for _, keep in opened[i:] if keep)
                    del opened[i:]
                    break
        elif name not in _VOID and not tag.group(0).endswith(b"/>"):
            ends = _ENDS.get(name, frozenset())
            while opened and (opened[-1][0] in ends or (opened[-1][0] == b"p" and name in _ENDS_P)):
                kept -= opened.pop()[1]
            drop = kept >= depth and not (name in _KEPT_DEEPER and kept < depth + _DEEPER)
            opened.append((name, not drop))
            kept += not drop
            if name in _RAW:  # its content is text up to its end tag: skip it, dropping it too if dropped
                end = re.compile(rb"</" + name + rb"\s*>", re.I).search(data, pos)
                pos = len(data) if end is None else end.start()
                if drop:
                    out.append(data[at: tag.start()])
                    at = pos
                continue
        if drop:
            out += (data[at: tag.start()], b"" if name in _INLINE else b" ")
            at = tag.end()
    out.append(data[at:])
    return b"".join(out)
