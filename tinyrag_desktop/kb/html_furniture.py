"""Page furniture: what of a page is navigation, not its text (menus, lists of links, pagers, layout tables)."""

from __future__ import annotations

import functools
import re
from itertools import islice

import lxml.etree

# The parsed page's elements: lxml.etree's own, not lxml.html's subclasses, whose class is looked up in
# Python for every element met (a tenth of the reading time).
Element = lxml.etree._Element
_tostring = lxml.etree.tostring


def element_text(el: Element) -> str:
    """An element's text and all its descendants' text, joined as written (lxml.html's text_content()).

    libxml2's text serialisation, not XPath's string(): half the time, and this is called for every
    paragraph, link and cell (and an element without children is its own text)."""
    if len(el) == 0:
        return el.text or ""
    return _tostring(el, method="text", encoding=str, with_tail=False)


def norm_text(text: str) -> str:
    return " ".join(text.split())


HEADINGS = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}
# Page furniture named by class or id: navigation bars, tables of contents, breadcrumbs, cookie banners.
_FURNITURE = re.compile(
    r"(^|[\s_-])(nav|navbar|navheader|navfooter|navigation|toc|sidebar|sphinxsidebar|breadcrumbs?|menu|"
    r"footer|cookie|related|skip|headerlink|toctree-wrapper)($|[\s_-])",
    re.I,
)


def is_furniture(el: Element) -> bool:
    return is_furniture_with_id(el, el.get("id"))


def is_furniture_with_id(el: Element, ident: str | None) -> bool:
    """is_furniture(el), ``ident`` being el's id, read already (the walker keeps it for the anchors)."""
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
    if next(el.iter(*HEADINGS), None) is None:
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
    heading = next(el.iter(*HEADINGS), None)
    if heading is None:
        return False
    found = [word for word in re.split(r"[\s_-]+", ident.lower()) if _FURNITURE.fullmatch(word)]
    words = set(_WORD.findall(element_text(heading).lower()))
    return bool(found) and all(word in words for word in found)


LINK_LISTS = {"ul", "ol", "dl", "div", "table", "section", "menu", "p", "td", "th"}
MIN_LINKS = 10


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


def first_anchors(el: Element) -> list[Element]:
    """The first MIN_LINKS links (<a>) in ``el``, in the page's order: all of them when it holds fewer."""
    return list(islice(el.iter("a"), MIN_LINKS))


def is_link_list(el: Element, anchors: list[Element] | None = None) -> bool:
    """``anchors``: first_anchors(el), when already found (the walker uses them again)."""
    # Link density, as boilerplate removers (jusText, trafilatura) use it: a list or box whose text is
    # mostly the text of its many links is a table of contents, an index or a menu, not content. Links
    # that are a glossary's definitions are content, not navigation.
    if len(el) == 0:  # text alone (most paragraphs and cells)
        return False
    if anchors is None:
        anchors = first_anchors(el)
    if len(anchors) < MIN_LINKS and not is_contents(anchors):
        return False
    # A page section or box whose links are mostly a table of contents, but that also holds running
    # text (an introduction above the list of its subpages) is walked into: its lists are judged one
    # by one, and its paragraphs kept. That is asked first: a section of a page's content answers it at
    # its first paragraph, where its link density would take all of its text (a tenth of the reading).
    if el.tag in ("div", "section") and (
            any(child.tag in HEADINGS for child in el) or any(_is_prose(p) for p in el.iter("p"))):
        return False
    return _dense(el) and not (el.tag == "table" and is_layout(el))


# Words outside its links that make an item of a list of links a statement rather than a menu entry
# ("hashlib: all constructors take a usedforsecurity keyword-only argument …"): such items are kept.
DESCRIBED_WORDS = 3


def words_beside_links(li: Element) -> int:
    text = element_text(li)
    for a in li.iter("a"):
        text = text.replace(element_text(a), " ", 1)
    return len(_WORD.findall(text))


# A page's own table of contents, however short: links to places in the page ("#order"), each
# repeating a heading that follows ("Topics: Order of Processing, Examples"; a man page's "NAME
# SYNOPSIS DESCRIPTION …").
_MIN_CONTENTS_LINKS = 3


def is_contents(anchors: list[Element]) -> bool:
    return len(anchors) >= _MIN_CONTENTS_LINKS and all((a.get("href") or "").startswith("#") for a in anchors)


def _dense(el: Element) -> bool:
    total = len(" ".join(element_text(el).split()))
    if total == 0:
        return False
    linked = [(a, element_text(a)) for a in el.iter("a")]
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
    text = len(" ".join(element_text(el).split()))
    linked = sum(len(" ".join(element_text(a).split())) for a in el.iter("a"))
    return text - linked >= _PROSE_CHARS and linked <= text / 2


# A pager or a trail: "Next: Types, Previous: Simple Example, Up: Using libffi [Contents][Index]" above
# every node of a Texinfo manual, "Apache > HTTP Server > Documentation" or "Available Languages: en | fr".
# Short, all links, and between them only these words or the signs that part a trail.
PAGER_TAGS = frozenset({"p", "div"})
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


def is_pager(el: Element, text: str, norm: str | None = None) -> bool:
    """Whether ``el``, which holds a link, is a pager or a trail; ``text``: element_text(el), read once for this
    and, for a paragraph, for its block, as ``norm`` (norm_text(text)) is when given."""
    if len(text) > 2 * _PAGER_CHARS or (norm is not None and len(norm) > _PAGER_CHARS) or not _hints_a_pager(
            text.lower()) or len(norm_text(text) if norm is None else norm) > _PAGER_CHARS:
        return False
    anchors = [a for a in el.iter("a") if a.get("href")]
    for a in anchors:
        text = text.replace(element_text(a), " ", 1)
    words = _WORD.findall(text.lower())
    if words:
        return set(words) <= _PAGER_WORDS and not _PAGER_CUES.isdisjoint(words)
    return len(anchors) >= 2 and _TRAIL_SIGNS.search(text) is not None

def table_rows(table: Element) -> list[Element]:
    """The table's own rows, not those of a table nested in one of its cells."""
    if next(table.iterdescendants("table"), None) is None:  # most tables: every row is its own
        return list(table.iter("tr"))
    return [tr for tr in table.iter("tr") if next(tr.iterancestors("table"), None) is table]


def is_layout(table: Element, rows: list[Element] | None = None) -> bool:
    """A table holding headings or other tables lays out a page (old sites, e-mails): it is read as the
    sections and paragraphs it holds, not as rows of data. So is a table of a menu column beside a
    column of text (groff's web pages): the menu's cell is left out as the links it is. ``rows``:
    table_rows(table), when found already (as for _table_text and _has_header)."""
    if any(True for _ in table.iterdescendants("table", *HEADINGS)):
        return True
    # one more than a layout has is enough to tell: a table of data is not gone through to its end
    cells = list(islice((cell for row in (table_rows(table) if rows is None else rows) for cell in row
                         if cell.tag in ("td", "th")), _LAYOUT_CELLS + 1))
    return len(cells) <= _LAYOUT_CELLS and any(is_link_list(cell) for cell in cells) and any(
        _is_prose(cell) for cell in cells)


# A layout of a menu beside the text has a few cells; a table of data, more.
_LAYOUT_CELLS = 4
