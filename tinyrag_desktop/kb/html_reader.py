"""HTML to structured blocks with lxml: the main content's headings, paragraphs, lists, definitions,
code and tables, without navigation, scripts or page furniture; plus the links in its running text.

trafilatura reads arbitrary web pages well but manages about 0.16 MB/s on local documentation; walking
the lxml tree ourselves keeps the section and definition structure that chunking needs, at several MB/s.
"""

from __future__ import annotations

import re
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
    "details", "figure", "center", "span", "font", "form", "fieldset", "tbody", "td", "th", "tr",
}
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
_MAIN_XPATHS = (
    "//main", "//*[@role='main']", "//article", "//*[@id='content']", "//*[@id='main-content']",
    "//div[contains(concat(' ', @class, ' '), ' body ')]", "//body",
)


# A page's document now carries its links itself (see models.Document); the name stays for readers of it.
HtmlDocument = Document


def _norm(text: str) -> str:
    return " ".join(text.split())


def _is_furniture(el: lxml.html.HtmlElement) -> bool:
    cls = el.get("class")
    if cls and _FURNITURE.search(cls):
        return True
    ident = el.get("id")
    return bool(ident and _FURNITURE.search(ident))


_LINK_LISTS = {"ul", "ol", "dl", "div", "table", "section", "menu", "p"}
_MIN_LINKS = 10


def _is_glossary(dl: lxml.html.HtmlElement) -> bool:
    # A definition list whose terms are plain text defines them, however many of its definitions are
    # links ("ANSI: American National Standards Institute", each linked to its article). A table of
    # contents or a book's index links the terms themselves.
    terms = [child for child in dl if isinstance(child.tag, str) and child.tag.rpartition("}")[2].lower() == "dt"]
    return bool(terms) and sum(1 for dt in terms if next(dt.iter("a"), None) is None) > len(terms) / 2


def _defines(a: lxml.html.HtmlElement, box: lxml.html.HtmlElement, glossaries: dict) -> bool:
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


def _is_link_list(el: lxml.html.HtmlElement) -> bool:
    # Link density, as boilerplate removers (jusText, trafilatura) use it: a list or box whose text is
    # mostly the text of its many links is a table of contents, an index or a menu, not content. Links
    # that are a glossary's definitions are content, not navigation.
    for count, _ in enumerate(el.iter("a"), start=1):
        if count >= _MIN_LINKS:
            break
    else:
        return False
    total = len(" ".join(el.text_content().split()))
    glossaries: dict = {}
    linked = sum(len(" ".join(a.text_content().split())) for a in el.iter("a") if not _defines(a, el, glossaries))
    return total > 0 and linked / total > 0.5


def _term_context(dt: lxml.html.HtmlElement, text: str) -> str:
    # A link in a definition list's term ("git-add(1)") is described by the definition that follows
    # ("Add file contents to the index"): that is the link's sentence.
    following = dt.getnext()
    if following is not None and isinstance(following.tag, str) and following.tag.rpartition("}")[2].lower() == "dd":
        return f"{text} {_norm(following.text_content())[: 2 * LINK_CONTEXT]}"
    return text


def _table_text(table: lxml.html.HtmlElement) -> str:
    lines = []
    for row in table.iter("tr"):
        cells = [_norm(cell.text_content()) for cell in row if cell.tag in ("td", "th")]
        if any(cells):
            lines.append(" | ".join(cells))
    return "\n".join(lines)


class _Walker:
    def __init__(self) -> None:
        self.blocks: list[Block] = []
        self.links: list[Link] = []
        self._loose: list[str] = []
        self._loose_links: list[lxml.html.HtmlElement] = []
        self._heading = ""

    def _flush_loose(self) -> None:
        if self._loose:
            text = _norm(" ".join(self._loose))
            if text:
                self.blocks.append(Block("text", text))
                self._add_links(self._loose_links, text)
            self._loose = []
        self._loose_links = []

    def _add_links(self, anchors: list[lxml.html.HtmlElement], text: str) -> None:
        # Only links inside running text: a bare link ("Next", a list of commands) says nothing more
        # than the target's own title.
        for a in anchors:
            if len(self.links) >= MAX_LINKS:
                return
            link = context(text, _norm(a.text_content()), a.get("href") or "", self._heading)
            if link is not None:
                self.links.append(link)

    def _loose_text(self, text: str | None) -> None:
        if text and not text.isspace():
            self._loose.append(text)

    def walk(self, el: lxml.html.HtmlElement) -> None:
        self._loose_text(el.text)
        for child in el:
            tag = child.tag
            if not isinstance(tag, str):  # comments and processing instructions: skip, keep their tail
                self._loose_text(child.tail)
                continue
            tag = tag.rpartition("}")[2].lower()
            if tag in _DROP_TAGS or _is_furniture(child) or (tag in _LINK_LISTS and _is_link_list(child)):
                self._loose_text(child.tail)
                continue
            if tag in _HEADINGS:
                self._flush_loose()
                text = _norm(child.text_content())
                if text.casefold() in _ADMONITIONS:
                    # "Note" or "Warning" titles a box inside a section, not a section of its own.
                    self.blocks.append(Block("text", text + ":"))
                elif text:
                    self.blocks.append(Block("heading", text, _HEADINGS[tag]))
                    self._heading = text[:200]
            elif tag in _LEAVES:
                self._flush_loose()
                if tag == "pre":
                    text = child.text_content().strip("\n")
                    if text.strip():
                        self.blocks.append(Block("code", text))
                elif tag == "table":
                    text = _table_text(child)
                    if text:
                        self.blocks.append(Block("table", text))
                        for row in child.iter("tr"):  # a row is a link's sentence
                            self._add_links(list(row.iter("a")), _norm(row.text_content()))
                else:
                    text = _norm(child.text_content())
                    if text:
                        self.blocks.append(Block("term" if tag == "dt" else "text", text))
                        self._add_links(list(child.iter("a")), _term_context(child, text) if tag == "dt" else text)
            elif tag in _CONTAINERS and (tag not in ("span", "font", "td", "th") or len(child)):
                if tag in ("span", "font"):
                    self.walk(child)  # an inline wrapper holding blocks: treat its content as ours
                else:
                    self._flush_loose()
                    self.walk(child)
                    self._flush_loose()
            else:  # inline markup (a, code, em, …): part of the surrounding loose text
                self._loose_text(child.text_content())
                self._loose_links.extend(child.iter("a"))
            self._loose_text(child.tail)


_HEADER = re.compile(r"(^|[\s_-])(header|masthead)($|[\s_-])", re.I)


def _page_headers(main: lxml.html.HtmlElement) -> list[lxml.html.HtmlElement]:
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
    try:
        if isinstance(data, str):
            data = data.encode("utf-8")
        root = lxml.html.document_fromstring(data)
    except (lxml.etree.ParserError, ValueError) as exc:
        raise ReadError(f"not readable as HTML ({exc})") from exc
    title_el = root.find(".//title")
    title = _norm(title_el.text_content()) if title_el is not None else ""
    main = None
    for xpath in _MAIN_XPATHS:
        found = root.xpath(xpath)
        if found:
            main = found[0]
            break
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
    if not any(b.kind != "heading" for b in blocks):
        raise NoText("no readable text found (only navigation or markup)")
    return HtmlDocument(title=title[:300], type="html", blocks=tuple(blocks), links=tuple(walker.links))
