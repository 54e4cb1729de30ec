"""A page made of links (a browser's bookmarks export, a reading list, a manual's index): read as its links.

The HTML reader leaves a page's navigation out, and a page that holds nothing else is refused ("no
readable text found (only navigation or markup)"): right for the table-of-contents pages of a manual
imported as a folder, wrong for the one page a user names (a file, a web address), whose links are what it
holds. Such a page is read here instead: its headings, and each link's text as a line, with its address
when that is a web address (what a bookmark is kept for; a manual's relative links say nothing).
"""

from __future__ import annotations

import os
from typing import Sequence
from urllib.parse import unquote, urlsplit

import lxml.etree
import lxml.html

from .errors import NoText
from .html_encoding import page_encoding
from .models import Block, Document

# Elements whose text is no part of what the page shows, and its navigation by HTML's own mark (<nav>: a
# site's menu, "Home | About", is no list of links a user keeps).
_UNSHOWN = ("script", "style", "head", "template", "noscript", "nav")
_HEADINGS = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}
# Control characters, which no page shows: in ASCII-based bytes (page_encoding's), never part of a character.
_CONTROLS = bytes(b for b in range(32) if b not in b"\t\n\r")
# Elements that make a line of a list of links: a list item, a term, a paragraph, a cell.
_LINES = ("li", "dt", "dd", "p", "td", "th", "div", "tr", "blockquote", "section", "article", "body")


def link_page(data: bytes | str, fallback_title: str, kind: str = "html") -> Document:
    """``data``, an HTML page with no text but its links, as its headings and links (a text block each);
    NoText when it has no link with words either. ``kind``: the document's type ("url" for a web page)."""
    data, encoding = page_encoding(data)
    data = data.translate(None, _CONTROLS)  # lxml refuses them in the text it is given back (drop_tree)
    try:
        root = lxml.html.document_fromstring(data, parser=lxml.html.HTMLParser(encoding=encoding))
    except (lxml.etree.ParserError, ValueError) as exc:  # nothing to parse: no document at all
        raise NoText("no readable text found") from exc
    title_el = next(root.iter("title"), None)
    title = _words(title_el) if title_el is not None else ""
    for el in [el for el in root.iter(*_UNSHOWN)]:
        el.drop_tree()
    blocks: list[Block] = []
    targets = tuple(href for a in root.iter("a") if (href := (a.get("href") or "").strip()))
    said: set[lxml.etree._Element] = set()
    for el in root.iter("a", *_HEADINGS):
        if el.tag in _HEADINGS:
            if text := _words(el):
                blocks.append(Block("heading", text, _HEADINGS[el.tag]))
            continue
        if next(el.iterancestors(*_HEADINGS), None) is not None:  # a heading's link: said with the heading
            continue
        # The line the link is on, all of it: an index's term stands before its links ("statistics,
        # Statistics Information Functions"), a reading list's note after its link.
        line = next(el.iterancestors(*_LINES), None)
        if line is None:
            line = el
        if line in said:
            continue
        said.add(line)
        text = " ".join(_own_text(line).split())
        if not text:
            continue
        links = [a for a in line.iter("a") if next(a.iterancestors(*_LINES), None) is line] if line is not el else [el]
        href = (links[0].get("href") or "").strip() if len(links) == 1 else ""
        web = href.lower().startswith(("http://", "https://")) and href not in text
        blocks.append(Block("text", f"{text} ({href})" if web else text))
    if not any(b.kind == "text" for b in blocks):
        raise NoText("no readable text found (only navigation or markup)")
    if not title:
        title = next((b.text for b in blocks if b.kind == "heading"), "") or fallback_title
    return Document(title[:300], kind, tuple(blocks), link_targets=targets)


def is_navigation(targets: Sequence[str], location: str, paths: frozenset[str]) -> bool:
    """Whether a page of links at ``location`` (a file) is navigation among the files ``paths`` imported
    with it: half its links or more lead to them. A manual's table of contents, each of its 1,167 pages
    named, is left out as in its folder; its index named by itself, or a bookmarks file (links to other
    sites), is read as its links."""
    folder, inside, local = os.path.dirname(location), 0, 0
    for href in targets:
        try:
            parts = urlsplit(href)
        except ValueError:
            continue
        if parts.scheme or parts.netloc or not parts.path:  # another site's, or a place in the page
            continue
        local += 1
        inside += os.path.normpath(os.path.join(folder, unquote(parts.path))) in paths
    return local > 0 and 2 * inside >= local


def _words(el: lxml.etree._Element) -> str:
    return " ".join(el.text_content().split())


def _own_text(line: lxml.etree._Element) -> str:
    """The text of ``line`` without that of the lines within it (a nested list's items, said apart)."""
    parts = [line.text or ""]
    for child in line:
        if not isinstance(child.tag, str):  # a comment
            parts.append(child.tail or "")
        elif child.tag in _LINES or child.tag in ("ul", "ol", "dl", "table") or child.tag in _HEADINGS:
            parts.append(" " + (child.tail or ""))
        else:
            parts.append(_own_text(child) + (child.tail or ""))
    return "".join(parts)
