"""PDF text through PDFium (pypdfium2), the engine Chrome uses to show PDFs.

pypdf, used before, glued the words of some PDFs together: for Unicode (Identity-H) fonts it can take
the wrong glyph's width for a space's (XeTeX output, for one), miss the gaps between words, and read
"file exists and is a directory" as "existsandisadirectory", which no search finds. PDFium reads the same pages with their spaces, and about 15
times faster. It also gives the outline (the bookmarks pane of a PDF viewer), which names the sections
that the pages belong to.

PDFium must not be called from two threads at once, even for two different documents, so every call
here holds one lock (imports and the url_fetch tool may read PDFs at the same time).
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass

from .errors import ReadError

_LOCK = threading.RLock()
# A bookmark tree that deep or that large is not a book's table of contents (and reading it costs).
_MAX_DEPTH = 8
_MAX_SECTIONS = 10_000


@dataclass(frozen=True, slots=True)
class Section:
    """A bookmark: the section ``title`` starts on page ``page`` (from 0), at depth ``level`` (from 0)."""

    page: int
    level: int
    title: str


class PdfFile:
    """An open PDF; ``with PdfFile(data) as pdf:`` closes it. Raises ReadError for a damaged or
    password-protected file."""

    def __init__(self, data: bytes) -> None:
        import pypdfium2 as pdfium

        self._error = pdfium.PdfiumError
        with _LOCK:
            try:
                self._pdf = pdfium.PdfDocument(data)
                self.pages = len(self._pdf)
            except pdfium.PdfiumError as exc:
                if "password" in str(exc).lower():
                    raise ReadError("the PDF is password-protected") from None
                raise ReadError(f"a damaged or unreadable PDF ({_reason(exc)})") from None

    def __enter__(self) -> "PdfFile":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        with _LOCK:
            self._pdf.close()

    @property
    def title(self) -> str:
        """The title in the document's properties ("" when it has none)."""
        with _LOCK:
            try:
                return " ".join(str(self._pdf.get_metadata_dict().get("Title") or "").split())
            except self._error:
                return ""

    def sections(self) -> list[Section]:
        """The outline's entries that point to a page of this document, in order ([] when it has none)."""
        found: list[Section] = []
        with _LOCK:
            try:
                for bookmark in self._pdf.get_toc(max_depth=_MAX_DEPTH):
                    dest = bookmark.get_dest()
                    page = dest.get_index() if dest is not None else None
                    title = " ".join((bookmark.get_title() or "").split())
                    if page is not None and 0 <= page < self.pages and title:
                        found.append(Section(page, bookmark.level, title[:200]))
                        if len(found) >= _MAX_SECTIONS:
                            break
            except self._error:
                return []  # a broken outline: the pages are still worth reading
        return found

    def page_text(self, index: int) -> str:
        """Page ``index``'s text (from 0), lines ending in "\\n"; raises ReadError for a damaged page."""
        with _LOCK:
            try:
                page = self._pdf[index]
                try:
                    textpage = page.get_textpage()
                    try:
                        text = textpage.get_text_range()
                    finally:
                        textpage.close()
                finally:
                    page.close()
            except self._error as exc:
                raise ReadError(f"a damaged or unreadable PDF (page {index + 1}: {_reason(exc)})") from None
        text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\x00", "")
        return _join_hyphenated(text) if _LINE_END_HYPHEN in text else text


# PDFium marks a hyphen that ends a line and breaks a word there ("con-" / "nection") with U+FFFE, and
# drops the line break after it; left in, "con\ufffenection" is two words no search finds "connection" by.
_LINE_END_HYPHEN = "\ufffe"
_HYPHENATED = re.compile(r"(\w+)\ufffe(\w+)")


def _join_hyphenated(text: str) -> str:
    """The words PDFium found hyphenated at a line's end, joined again, unless the page writes the same
    pair with a hyphen elsewhere ("command-line"); any other mark becomes a plain hyphen."""

    def join(match: re.Match[str]) -> str:
        left, right = match.groups()
        kept = f"{left}-{right}"
        return kept if kept in text or not (left[-1].isalpha() and right[0].isalpha()) else left + right

    return _HYPHENATED.sub(join, text).replace(_LINE_END_HYPHEN, "-")


def _reason(exc: Exception) -> str:
    # "Failed to load document (PDFium: Data format error)." → "data format error"
    text = str(exc)
    if "PDFium: " in text:
        text = text.split("PDFium: ", 1)[1]
    return text.strip(" .)").lower() or exc.__class__.__name__
