"""Links between sources, as the link index keeps them: where a link points and the words around it.

How other pages describe a page ("TRUNCATE is a faster way to remove all rows", "see git-reset(1) to
undo a commit") is often closer to how people ask than the page's own text. Every reader that knows
links (HTML, Markdown, reStructuredText, web pages) reports them the same way, through :func:`context`.
"""

from __future__ import annotations

import os
from functools import lru_cache
from typing import NamedTuple
from urllib.parse import unquote, urljoin, urlsplit

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


def resolve_link(location: str, href: str) -> str:
    """Where ``href``, found in the source at ``location`` (a file path or URL), points: the location
    that source would have in the store ('' for links to nowhere we could import, such as mailto:)."""
    try:
        return _resolve(location, href.strip())
    except ValueError:  # a malformed URL ("//[", a bad port): a page's typo must not fail its import
        return ""


def _resolve(location: str, href: str) -> str:
    if ":" not in href and "[" not in href and "]" not in href and href.isascii() and (
            urlsplit(location).scheme.lower() not in ("http", "https")):
        # A page's link to a file beside it ("sql-select.html#x", most links of a manual): without a colon
        # it names no scheme, and urlsplit finds nothing it refuses (brackets, a host beyond ASCII), so
        # it is the file path below (asking urlsplit took half of the time a link's target takes)
        path = unquote(href.split("#", 1)[0].split("?", 1)[0])
        if not path:
            return ""
        return _real_path(os.path.normpath(os.path.join(os.path.dirname(location), path)))
    scheme = urlsplit(href).scheme.lower()
    if urlsplit(location).scheme.lower() in ("http", "https"):
        target = urljoin(location, href)
        return target.split("#", 1)[0] if urlsplit(target).scheme in ("http", "https") else ""
    if scheme in ("http", "https"):
        return href.split("#", 1)[0]
    if scheme == "file":
        path = unquote(urlsplit(href).path)
    elif scheme and len(scheme) > 1:  # mailto:, javascript:, ftp: … (one letter is a Windows drive)
        return ""
    else:
        path = unquote(href.split("#", 1)[0].split("?", 1)[0])
        if not path:
            return ""
        path = os.path.join(os.path.dirname(location), path)
    return _real_path(os.path.normpath(path))


@lru_cache(maxsize=16384)
def _real_path(path: str) -> str:
    # Imported files are stored under their real path (folders are walked with symlinks resolved), so a
    # link to a symlinked page must name the page's real path too, or its words are filed under nothing.
    if not os.path.isabs(path):
        return path
    folder, name = os.path.split(path)
    if not name or not folder:
        return os.path.realpath(path)
    # realpath looks at each folder of the path in turn, then at the name: the folder's real path is
    # remembered (a manual page's links all lead into a few folders; see store's replace_source), and
    # only the name looked at here, as realpath would look at it last. A name that is a link is left to
    # realpath.
    real = os.path.join(_real_folder(folder), name)
    return os.path.realpath(path) if os.path.islink(real) else real


_real_folder = lru_cache(maxsize=1024)(os.path.realpath)
