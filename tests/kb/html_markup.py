"""Random HTML fragments for property tests of the HTML reader: block and inline elements, void ones,
comments and text, nested a few levels deep, some blocks left unclosed."""

from __future__ import annotations

import lxml.etree
from hypothesis import strategies as st

BLOCKS = ["p", "div", "li", "ul", "dt", "dd", "dl", "td", "tr", "table", "pre", "section", "h2", "blockquote"]
INLINE = ["b", "a", "span", "code", "em"]


def markup(words: list[str], voids: list[str]) -> st.SearchStrategy[str]:
    """Fragments whose text pieces are drawn from ``words`` and whose void pieces from ``voids``."""
    texts, empties = st.sampled_from(words), st.sampled_from(voids)

    @st.composite
    def fragment(draw, depth: int = 0) -> str:
        parts = []
        for _ in range(draw(st.integers(0, 4))):
            kind = draw(st.integers(0, 9 if depth < 4 else 3))
            if kind <= 2:
                parts.append(draw(texts))
            elif kind == 3:
                parts.append(draw(empties))
            else:
                tag = draw(st.sampled_from(BLOCKS + INLINE))
                closed = draw(st.booleans()) or tag in INLINE
                parts.append(f"<{tag}>{draw(fragment(depth + 1))}{f'</{tag}>' if closed else ''}")
        return "".join(parts)

    return fragment()


def tree(body: str) -> lxml.etree._Element:
    """``body`` parsed as a page's body, as the reader parses a page."""
    return lxml.etree.fromstring(f"<html><body>{body}</body></html>".encode(), lxml.etree.HTMLParser(encoding="utf-8"))
