"""An HTML page's bytes parsed into a tree whole: without an internal DTD, past libxml2's limits, and
flattened when nested too deeply for them."""

from __future__ import annotations

import re

import lxml.etree
import lxml.html

from .errors import ReadError

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


def _parse(data: bytes, encoding: str | None) -> tuple[lxml.etree._Element, bool]:
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
                        parser: type[lxml.etree.HTMLParser] = lxml.html.HTMLParser) -> lxml.etree._Element | None:
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
