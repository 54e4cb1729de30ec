"""Links between sources, as the link index keeps them: where a link points and the words around it.

How other pages describe a page ("TRUNCATE is a faster way to remove all rows", "see git-reset(1) to
undo a commit") is often closer to how people ask than the page's own text. Every reader that knows
links (HTML, Markdown, reStructuredText, web pages) reports them the same way, through :func:`context`.
"""

from __future__ import annotations

from typing import NamedTuple

# Characters either side of a link kept as its context: about a sentence.
LINK_CONTEXT = 150
# A page with more links than this is an index of some kind; its first links are plenty.
MAX_LINKS = 400
# Hrefs that point inside the page itself or to nothing importable.
_NOWHERE = ("#", "mailto:", "javascript:", "tel:", "data:")


class Link(NamedTuple):
    """A link to another source and the words around it, in the linking page's own words."""

    href: str
    text: str


def context(text: str, anchor: str, href: str, heading: str = "", at: int | None = None) -> Link | None:
    """The link to ``href`` whose anchor text ``anchor`` stands in ``text`` (at ``at`` when known), or
    None when it is no use: a link standing alone ("Next", a list of commands) says nothing more than
    its target's own title, and links within the page or to mail addresses point at nothing to import."""
    href = href.strip()
    if not href or href.lower().startswith(_NOWHERE) or len(text) < len(anchor) + 20:
        return None
    if at is None:
        at = max(text.find(anchor), 0) if anchor else 0
    words = text[max(0, at - LINK_CONTEXT) : at + len(anchor) + LINK_CONTEXT]
    return Link(href, f"{heading}: {words}" if heading else words)
