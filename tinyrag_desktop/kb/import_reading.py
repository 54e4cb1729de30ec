"""An import's items read one at a time: a file (here, or handed to a reader process and stored in its turn),
a web page (under the address it redirects to), a Wikipedia article as blocks. The loop that calls them,
what is stored and what is found moved since the last import: ingest.py."""

from __future__ import annotations

import asyncio
import hashlib
from dataclasses import dataclass
from pathlib import Path

from .chunking import chunk_document
from .errors import Cancelled, FetchError, FolderGone, LeftOut, NetworkOff, NoText, ReadError, UnsupportedFile
from .import_items import (
    ImportItem, NotReadNow, _broken_link, _not_a_file, _other_host, _typed_by_name, _unreadable, _utf8, read_now,
    why_missing,
)
from .import_report import ImportReport
from .models import Block, Document
from .readers import GZIP_MAGIC, SUPPORTED, file_type, gunzip, is_compressed, without_invisible
from .reader_worker import Reading, Readers, ReadJob, read_apart


# A web page this large is read in a reader process of its own (see _import_one), which Cancel ends.
_READ_APART_BYTES = 512 * 1024
# … and so is a file this large, named by itself (a folder's are read in reader processes anyway), unless
# its reading stops midway by itself. The readers of text, HTML, CSV, JSON and XML do not: Cancel waited for
# them, 3 s into a 60 MB CSV file, 7 s into an XML file of that size.
_FILE_APART_BYTES = 4 * 1024 * 1024
# PDF and Word readers look at Cancel between pages and paragraphs; a log is one block, which the cutting
# into passages (that looks at it too) takes nearly all the time of.
_STOPS_MIDWAY = ("pdf", "docx", "log")


@dataclass(frozen=True, slots=True)
class _Reading:
    """A file given to the readers, waiting for its turn to be stored; ``read`` None: it is unchanged."""

    location: str
    size: int
    digest: str
    read: Reading | None


class ImportReadingMixin:
    """Importer's reading of one item (mixed into it, see ingest.py: it uses the importer's store, settings and
    cancel, and its checks whether a file is unchanged or moved, and _store)."""

    def _import_one(self, item: ImportItem, report: ImportReport,
                    readers: Readers | None = None) -> _Reading | None:
        """Import ``item``; or, for a file with ``readers`` given, read its bytes and hand them to a reader
        process, returning what is being read (stored later by _finish, in its turn)."""
        if item.kind == "path":
            host = _other_host(item.value)
            if host:
                raise ReadError(f"a file:// address from another computer ({host}) cannot be read; give the "
                                "file's path instead (where that computer's shared folder is mounted here, "
                                "for one)")
            path = Path(item.value)
            if not path.exists():
                raise _gone(item, path)
            if not path.is_file():
                raise ReadError(_not_a_file(path))
            if not _utf8(item.value):  # SQLite stores text as UTF-8: such a name cannot be stored
                raise ReadError("its name is not valid text (UTF-8); rename the file to import it")
            # a link's name only when the file's own says no format: README → README.md stays Markdown
            named = Path(item.name) if item.name and not _typed_by_name(path) else path
            kind = self._file_type(named, str(path))
            size = path.stat().st_size
            if size > self.max_file_bytes:
                raise LeftOut(f"too large ({size / 2**20:.0f} MB; the limit is {self.max_file_bytes / 2**20:.0f} MB)")
            try:  # without waiting: /proc/kmsg is a file by its look, whose read waits for the kernel (it hung)
                data = read_now(path, self.max_file_bytes + 1)
            except FileNotFoundError:
                raise _gone(item, path) from None
            except PermissionError as exc:  # as a folder this user may not read is: said, and passed by
                raise LeftOut(_unreadable(path, exc)) from None
            except NotReadNow as exc:
                raise ReadError(exc.strerror) from None
            if len(data) > self.max_file_bytes:  # more than its size said (a file of /proc says 0 bytes)
                raise LeftOut(f"too large (more than the limit of {self.max_file_bytes / 2**20:.0f} MB)")
            if data.startswith(GZIP_MAGIC):  # whatever the name says (a PDF or Word file never starts so)
                data = gunzip(data, self.max_file_bytes)
            location, digest = str(path), hashlib.sha256(data).hexdigest()
            if self._unchanged(location, digest):
                self._drop_left_behind(location, digest, report)
                if readers is not None:  # said in its turn
                    return _Reading(location, size, digest, None)
                report.unchanged.append(location)
                return None
            if self._moved(location, digest, report):
                self._drop_left_behind(location, digest, report)
                if self._unchanged(location, digest):
                    return None  # else read again under its new path: by older readers, or without vectors
            name = named.name[:-3] if is_compressed(named) else named.name  # "guide.md.gz" is titled as guide.md
            job = ReadJob(data, kind, name, self.chunk_size, link_pages=not item.in_folder)
            if readers is not None:
                return _Reading(location, size, digest, readers.read(job))
            apart = len(data) >= _FILE_APART_BYTES and kind not in _STOPS_MIDWAY
            doc, chunks = read_apart(job, self.cancel) if apart else job.run(self.cancel.is_set)
            self._store(doc, chunks, location, size, digest, report)
            return None
        elif item.kind == "url":
            from .web import fetch_url, normalize_url

            location = normalize_url(item.value)  # an address it could never read is said as such, offline too
            self._check_online()
            if self.kb.source_by_location(location) is None and self.kb.source_by_location(item.value):
                location = item.value  # imported before URLs were normalised: update that source
            fetched = fetch_url(location, self.max_file_bytes, cancelled=self.cancel.is_set)
            # A page that redirects is stored under the address it came from at last, as a browser shows
            # it: importing http://host/a (sent on to /b) and then /b stored the same page twice.
            asked, location = location, _final_address(location, fetched.url)
            size, digest = len(fetched.data), hashlib.sha256(fetched.data).hexdigest()
            if self._unchanged(location, digest):
                report.unchanged.append(location)
                self._drop_redirected(asked, location)
                return None
            job = ReadJob(fetched.data, "url", fetched.url, self.chunk_size, fetched.content_type)
            # A large page in a reader process, which Cancel ends at once: trafilatura does not stop midway
            # (a 10 MB page took 17 to 29 s, and was stored after Cancel). A small one here: it takes less
            # than starting that process.
            doc, chunks = read_apart(job, self.cancel) if size >= _READ_APART_BYTES else job.run(self.cancel.is_set)
            if self.cancel.is_set():  # while it was read: nothing of it is stored
                raise Cancelled("the import was cancelled")
            self._store(doc, chunks, location, size, digest, report, also=asked)
            return None
        elif item.kind == "wikipedia":
            from .web import wikipedia_article

            self._check_online()
            article = asyncio.run(wikipedia_article(item.value, self.settings, item.lang, self.cancel.is_set))
            location = article.url or f"wikipedia:{article.lang}:{article.title}"
            data = article.text.encode("utf-8")
            size, digest = len(data), hashlib.sha256(data).hexdigest()
            if self._unchanged(location, digest):
                report.unchanged.append(location)
                return None
            doc = article_document(article.title, article.text)
        else:
            raise UnsupportedFile(f"unknown import kind {item.kind!r}")
        doc = without_invisible(doc)
        self._store(doc, chunk_document(doc, self.chunk_size), location, size, digest, report)
        return None

    def _finish(self, reading: _Reading, report: ImportReport) -> None:
        """Store a file read in a reader process, once its turn comes (waiting for it, or for Cancel)."""
        if reading.read is None:
            report.unchanged.append(reading.location)
            return
        doc, chunks = reading.read.result(self.cancel)
        if self._unchanged(reading.location, reading.digest):
            # unchanged after all: an embedding server found unreachable since it was given to be read is
            # not waited for, and a source it embedded before is then left as it is, as a file read here is
            report.unchanged.append(reading.location)
            return
        self._store(doc, chunks, reading.location, reading.size, reading.digest, report)

    def _check_online(self) -> None:
        """Raise NetworkOff when the settings say the app is offline: "off means fully offline", and a page
        named by the user is no exception."""
        if not self.settings.get("network_tools", True):
            raise NetworkOff("not downloaded: the network is off (offline mode)")

    def _file_type(self, named: Path, location: str) -> str:
        """The reader for the file at ``location`` found as ``named``: by its name, or, for a source imported
        before under another name (a link's, in a folder), as it was read then."""
        try:
            return file_type(named)
        except UnsupportedFile:
            known = self.kb.source_by_location(location)
            if known is None or known.type not in SUPPORTED.values():
                raise
            return known.type

    def _drop_redirected(self, asked: str, location: str) -> None:
        """Remove the source stored under ``asked``, an address that now redirects to ``location``, where
        the page is stored: one page is one source."""
        if asked == location:
            return
        old = self.kb.source_by_location(asked)
        if old is not None:
            self.kb.remove_source(old.id)


def _gone(item: ImportItem, path: Path) -> ReadError:
    """Why ``item``'s file, which is not there, is not imported. One found in a folder was deleted since the
    folder was looked at (an editor's or a build's short-lived file): skipped, as it would be had it been
    gone before; the import "failed" it with "no such file or folder", a file the user never named. When its
    folder is gone too (a USB stick pulled, a network share dropped), the folder fails (the highest one gone),
    once for all its files: skipped, every file not yet read was, and the import of a folder that was not read
    seemed to succeed."""
    if item.in_folder and not path.parent.is_dir():
        gone = path.parent
        while not gone.parent.is_dir() and gone.parent != gone:
            gone = gone.parent
        return FolderGone(str(gone))
    if item.in_folder and not path.is_symlink():
        return NoText("deleted from the folder while it was being imported")
    return ReadError(_broken_link(path) if path.is_symlink() else why_missing(item.value))


def _final_address(asked: str, final: str) -> str:
    """Where a web page asked for at ``asked`` is stored: ``final``, the address it came from after its
    redirects, in its stored form; ``asked`` when that cannot be stored (it holds a password)."""
    from .web import normalize_url

    if not final or final == asked:
        return asked
    try:
        return normalize_url(final)
    except FetchError:
        return asked


def article_document(title: str, text: str) -> Document:
    """A Wikipedia article's plain text as blocks; its section headings are the short lines standing alone."""
    blocks: list[Block] = []
    for para in (p.strip() for p in text.split("\n\n")):
        if not para:
            continue
        lines = para.split("\n")
        # TextExtracts' headings arrive as a line of their own, short and without a full stop.
        while len(lines) > 1 and _looks_like_heading(lines[0]):
            blocks.append(Block("heading", lines.pop(0).strip(), 2))
        if len(lines) == 1 and _looks_like_heading(lines[0]):
            blocks.append(Block("heading", lines[0].strip(), 2))
        else:
            blocks.append(Block("text", "\n".join(lines)))
    return Document(title, "wikipedia", tuple(blocks))


def _looks_like_heading(line: str) -> bool:
    line = line.strip()
    return 0 < len(line) <= 80 and not line.endswith((".", ":", ";", ",", "!", "?")) and len(line.split()) <= 8
