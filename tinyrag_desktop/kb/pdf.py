"""PDF text through PDFium (pypdfium2), the engine Chrome uses to show PDFs.

pypdf, used before, glued the words of some PDFs together: for Unicode (Identity-H) fonts it can take
the wrong glyph's width for a space's (XeTeX output, for one), miss the gaps between words, and read
"file exists and is a directory" as "existsandisadirectory", which no search finds. PDFium reads the same pages with their spaces, and about 15
times faster. It also gives the outline (the bookmarks pane of a PDF viewer), which names the sections
that the pages belong to.

PDFium must not be called from two threads at once, even for two different documents, so every call
here holds one lock (imports and the url_fetch tool may read PDFs at the same time).

:func:`read_pdf` makes a PDF's pages a document of blocks as a reader reads them: under the sections of
its outline, without the running heads, page numbers and printed table of contents of a book.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from typing import Callable

from .errors import Cancelled, NoText, ReadError
from .models import Block, Document

_LOCK = threading.RLock()
# A title page's title stands out: its type is at least this many times the size of the page's usual type.
_HEADLINE_RATIO = 1.3
# How many characters of the first page are looked at for it.
_HEADLINE_CHARS_READ = 20_000
# A bookmark tree that deep or that large is not a book's table of contents (and reading it costs).
_MAX_DEPTH = 8
_MAX_SECTIONS = 10_000
# A page whose text PDFium had to guess (a font with no ToUnicode map: which letter a glyph shows is
# unknown, and its number stands in, "$HGH$HGH"): so many of its characters, spread over the page, are asked
# about, and more than this share of them guessed makes its text unreadable. Words in any script a font
# maps (Cyrillic, Greek, Chinese) are not guessed.
_MAP_SAMPLE = 100
_MOST_GUESSED = 0.5


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
                if _without_pages(data):
                    raise NoText("no readable text found (the PDF has no pages)") from None
                raise ReadError(f"a damaged or unreadable PDF ({_reason(exc)})") from None
        self.unmapped: list[int] = []  # the pages (from 0) whose text page_text left out as unreadable

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

    def headline(self) -> str:
        """The text in the largest type on the first page, when it stands out (a title page's title,
        in type at least _HEADLINE_RATIO times the page's usual size); "" otherwise."""
        if not self.pages:
            return ""
        import pypdfium2.raw as pdfium_c

        with _LOCK:
            try:
                page = self._pdf[0]
                try:
                    textpage = page.get_textpage()
                    try:
                        count = min(textpage.count_chars(), _HEADLINE_CHARS_READ)
                        sizes = [pdfium_c.FPDFText_GetFontSize(textpage.raw, i) for i in range(count)]
                        text = textpage.get_text_range(0, count) if count else ""
                    finally:
                        textpage.close()
                finally:
                    page.close()
            except self._error:
                return ""
        usual = sorted(s for s in sizes if s > 0)
        if not usual or len(text) != len(sizes):
            return ""
        largest, median = usual[-1], usual[len(usual) // 2]
        if largest < _HEADLINE_RATIO * median:
            return ""
        # the runs of characters in the largest type, a space between runs (a title on two lines)
        shown = "".join(ch if size >= 0.98 * largest else "\n" for ch, size in zip(text, sizes))
        headline = " ".join(shown.split())
        return headline if 3 <= len(headline) <= 150 and any(c.isalpha() for c in headline) else ""

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
        """Page ``index``'s text (from 0), lines ending in "\\n"; raises ReadError for a damaged page. A page
        whose fonts do not say which letters they show has none (see _guessed; listed in ``unmapped``)."""
        with _LOCK:
            try:
                page = self._pdf[index]
                try:
                    textpage = page.get_textpage()
                    try:
                        text = textpage.get_text_range()
                        if _guessed(textpage):
                            self.unmapped.append(index)
                            text = ""
                    finally:
                        textpage.close()
                finally:
                    page.close()
            except self._error as exc:
                raise ReadError(f"a damaged or unreadable PDF (page {index + 1}: {_reason(exc)})") from None
        text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\x00", "")
        return _join_hyphenated(text) if _LINE_END_HYPHEN in text else text


def _guessed(textpage) -> bool:
    """Whether most of the page's characters are ones PDFium could not map to Unicode (see _MAP_SAMPLE)."""
    import pypdfium2.raw as pdfium_c

    count = textpage.count_chars()
    picked = range(0, count, max(1, count // _MAP_SAMPLE))
    guessed = sum(pdfium_c.FPDFText_HasUnicodeMapError(textpage.raw, i) == 1 for i in picked)
    return guessed > _MOST_GUESSED * len(picked)


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
    text = text.strip(" .)").lower()
    # PDFium's last error, not this document's, when it failed without setting one ("Success")
    return "PDFium could not open it" if text in ("", "success") else text


_PAGE_COUNT = re.compile(rb"/Count\s+(\d+)")
_PAGE_OBJECT = re.compile(rb"/Type\s*/Page(?![a-zA-Z])")


def _without_pages(data: bytes) -> bool:
    """Whether a PDF that PDFium refused is whole but empty: a page tree counting no pages (PDFium opens
    no such file, and then names a stale error of an earlier one)."""
    counts = _PAGE_COUNT.findall(data)
    return bool(counts) and all(c == b"0" for c in counts) and _PAGE_OBJECT.search(data) is None


@dataclass(frozen=True, slots=True)
class PageTexts:
    """What url_fetch reads of a PDF (pdf_pages): its title, the texts of its pages read ("[page N]" and the
    text), the numbers (from 1) of those whose text was left out as unreadable (see _guessed), how many
    pages it has, and how many of them were read (fewer when the text wanted was in hand before the end)."""

    title: str
    pages: tuple[str, ...]
    unreadable: tuple[int, ...]
    count: int
    read: int


def pdf_pages(data: bytes, max_chars: int) -> PageTexts:
    """A PDF's pages' texts (pages without text left out), page by page until ``max_chars`` characters are in
    hand (url_fetch's reading). Raises ReadError."""
    pages: list[str] = []
    total = read = 0
    with PdfFile(data) as pdf:
        while read < pdf.pages and total < max_chars:
            text = pdf.page_text(read).strip()
            read += 1
            if text:
                pages.append(f"[page {read}]\n{text}")
                total += len(text)
        return PageTexts(pdf.title, tuple(pages), tuple(i + 1 for i in pdf.unmapped), pdf.pages, read)


# ---- a PDF's text as blocks -----------------------------------------------------------------------------

# Fewer bookmarks than one for every this many pages (chapters only): each page's passages also say which
# page they are on, beneath their section, so that a passage from deep in a long chapter can be found.
_PAGES_PER_BOOKMARK = 3


def read_pdf(data: bytes, name: str, cancelled: Callable[[], bool] | None = None) -> Document:
    """A PDF's text under the sections of its outline (bookmarks), or a heading per page when it has none.
    ``cancelled`` is asked between pages: a long book takes a while, and cancelling must not wait for it."""
    blocks: list[Block] = []
    with PdfFile(data) as pdf:
        sections = pdf.sections()
        starting: dict[int, list[Section]] = {}
        for section in sections:
            starting.setdefault(section.page, []).append(section)
        sparse = len(sections) * _PAGES_PER_BOOKMARK < pdf.pages
        texts = []
        for index in range(pdf.pages):
            if cancelled is not None and cancelled():
                raise Cancelled("the import was cancelled")
            texts.append(pdf.page_text(index))
        texts = _without_running_lines(texts)
        level = 0  # the heading level of the section being read (0: before the first)
        for index, text in enumerate(texts):
            page = f"Page {index + 1}" if sparse else None
            if starting:
                blocks.extend(_page_blocks(text, starting.get(index, []), page, level))
                level = next((_level(s) for s in reversed(starting.get(index, []))), level)
            elif text.strip():
                blocks.append(Block("heading", f"Page {index + 1}", 1))
                blocks.extend(_paragraphs(text))
        title = pdf.title or pdf.headline() or name
        unmapped, pages = pdf.unmapped, pdf.pages
    if not any(b.kind != "heading" for b in blocks):
        if unmapped:
            raise NoText(f"no readable text found ({UNREADABLE_FONTS}: run it through text recognition (OCR), "
                         "or save it as PDF again from the program that made it)")
        raise NoText("no readable text found (a scanned PDF holds pictures of its pages, not text: "
                     "run it through text recognition (OCR) first)")
    notes = ()
    if unmapped:
        which = f"page {unmapped[0] + 1}" if len(unmapped) == 1 else f"{len(unmapped)} of its {pages} pages"
        notes = (f"the text of {which} was left out ({UNREADABLE_FONTS})",)
    return Document(title, "pdf", tuple(blocks), notes=notes)


# Why a page's text is left out, when its fonts do not map their glyphs to letters (see _guessed): said by
# imports and by url_fetch, of a page, of pages and of a whole PDF.
UNREADABLE_FONTS = ("the fonts there do not say which letters they show, so the text read from them would be "
                    "gibberish like \"$HGH$HGH\"")


# Running heads and feet: the lines at the top and bottom of a page that repeat from page to page with
# only a number changed ("Chapter 6: Bash Features 93", "GNU Bash 5.2 2022 September 19 52", "Debian
# Reference 103 / 233"), and bare page numbers. A reader's eye skips them; left in, they sit in the middle
# of a sentence that runs on to the next page, and a section's title in a running head is taken for the
# place where the section starts.
_EDGE_LINES = 2  # how many lines at the top and at the bottom of a page may be a running head or foot
_RUNNING_PAGES = 3  # on how many pages at least the same line must stand at an edge
_RUNNING_SHARE = 0.25  # … and, when it holds no number, on what share of the pages
_PAGE_NUMBER = re.compile(r"^[\s\-–—]*(Page\s+)?(\d+|[ivxlc]+)(\s*(/|of)\s*\d+)?[\s\-–—]*$")
_ROMAN_AT_END = re.compile(r"(?<=\s)[ivxlc]+$")


def _running_key(line: str) -> str:
    """A line as it repeats from page to page: its numbers (arabic, or roman at its end) made alike."""
    return _ROMAN_AT_END.sub("#", re.sub(r"\d+", "#", " ".join(line.split()).casefold()))


def _edges(lines: list[str]) -> list[int]:
    filled = [n for n, line in enumerate(lines) if line.strip()]
    return sorted(set(filled[:_EDGE_LINES] + filled[-_EDGE_LINES:]))


def _without_running_lines(texts: list[str]) -> list[str]:
    """The pages' texts without their running heads and feet and page numbers (see _EDGE_LINES), and
    without the lines of a printed table of contents (see _CONTENTS_LINE)."""
    pages = [text.split("\n") for text in texts]
    seen: dict[str, int] = {}
    for lines in pages:
        for key in {_running_key(lines[n]) for n in _edges(lines)}:
            seen[key] = seen.get(key, 0) + 1
    running = {key for key, count in seen.items()
               if count >= _RUNNING_PAGES <= len(texts) and ("#" in key or count >= _RUNNING_SHARE * len(texts))}
    numbers = [{n for n in _edges(lines) if _PAGE_NUMBER.match(lines[n].strip())} for lines in pages]
    drops = [page_numbers | {n for n in _edges(lines) if _running_key(lines[n]) in running}
             for lines, page_numbers in zip(pages, numbers)]
    if all(n in drop or not line.strip() for lines, drop in zip(pages, drops) for n, line in enumerate(lines)):
        # pages of a line or two that repeats with another number on every page ("Receipt 1041: paid 25.00")
        # are the text itself, not its heading: left out, the PDF would seem a scan. Decided for the whole
        # PDF: a report's blank page ("Confidential — Acme Corp", "Page 3 of 6") has no text of its own.
        drops = numbers
    return ["\n".join(line for n, line in enumerate(lines) if n not in drop and not _CONTENTS_LINE.search(line))
            for lines, drop in zip(pages, drops)]


# A line of a printed table of contents: a title, dot leaders, a page number ("6.6 Aliases. . . . . 100").
_CONTENTS_LINE = re.compile(r"(\.\s?){5,}\s*([\divxlc]+)\s*$")


def _level(section: Section) -> int:
    return min(section.level + 1, 5)


def _page_blocks(text: str, sections: list[Section], page: str | None, level: int) -> list[Block]:
    """A page's text with the headings of the sections that start on it, each placed at the line that
    shows its title: the lines above it still belong to the section before (at heading ``level``). The
    title's own line ("1.2 What is a shell?" for the bookmark "What is a shell?") is the heading now; a line
    that only mentions the title ("Pears ripen off the tree" for "Pears") stays text, with the heading above
    it. A title not on the page starts where the search stands. No line is lost: before, the first line that
    held the title was taken for it, and a sentence, or a page of one line, was gone from the knowledge
    base. With a ``page`` name, each part of the page's text is headed by it too."""
    lines = text.split("\n")
    blocks: list[Block] = []

    def part(text: str, level: int) -> None:
        paragraphs = _paragraphs(text)
        if paragraphs and page:
            blocks.append(Block("heading", page, level + 1))
        blocks.extend(paragraphs)

    start = 0
    for section in sections:
        at, own = _title_line(lines, start, section.title)
        end = start if at is None else at
        part("\n".join(lines[start:end]), level)
        level = _level(section)
        blocks.append(Block("heading", section.title, level))
        start = end + 1 if own else end
    part("\n".join(lines[start:]), level)
    return blocks


# What may stand before a title on its own line: a section's number or letter ("1.2", "A.", "IV"), perhaps
# after a word that says what it numbers ("Chapter 6:"), and after it only a stop or a colon.
_LABEL = re.compile(r"((chapter|section|part|appendix)\s+)?([0-9]+|[ivxlcdm]+|[a-z])([.\-][0-9]+)*[.:)]?\s*[-–—:]?")


def _title_line(lines: list[str], start: int, title: str) -> tuple[int | None, bool]:
    """Where ``title`` starts its section, from line ``start`` on: (the first line that is the title, True);
    else (the first line that mentions it, False); else (None, False)."""
    wanted = title.casefold()
    mentioned = None
    for n in range(start, len(lines)):
        line = " ".join(lines[n].split()).casefold()
        at = line.find(wanted)
        if at < 0:
            continue
        before, after = line[:at].strip(), line[at + len(wanted):].strip()
        if after in ("", ".", ":") and (not before or _LABEL.fullmatch(before)):
            return n, True
        if mentioned is None:
            mentioned = n
    return mentioned, False


def _paragraphs(text: str) -> list[Block]:
    return [Block("text", p.strip()) for p in re.split(r"\n\s*\n", text) if p.strip()]
