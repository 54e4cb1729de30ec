"""Importing: files, folders, URLs and Wikipedia articles into the store, one source at a time.

An import first lists everything it will read (so progress can say "12 of 340"), then reads, chunks and
stores each source in its own transaction. A file that cannot be read is reported with its reason and the
import goes on; cancelling stops between sources, so what was stored is complete and what was not is absent.
A source whose content hash has not changed since the last import is skipped (unless ``force``), except
when an embedding model is set and the source has no vectors of it yet: it is read again to embed it.
Importing a folder again brings the knowledge base in line with it: files deleted from the folder since
are removed (once the import has finished, not when it was cancelled; a file that merely cannot be seen
now, behind a folder without read permission, stays).
When the embedding server fails, sources are stored without vectors (keyword search still finds them) and
the report says so; the next import embeds them.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import os
import re
import threading
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable, Mapping, Sequence
from urllib.parse import urlsplit
from urllib.request import url2pathname

from .chunking import chunk_document
from .errors import Cancelled, DiskFull, Error, FetchError, NoText, ReadError, Unreachable, UnsupportedFile
from .models import Block, Chunk, Document
from .readers import (
    GZIP_MAGIC, SAMPLE_BYTES, SUPPORTED, file_type, gunzip, is_compressed, read_bytes, sniff, with_utf16_bom,
)
from .store import KnowledgeBase, new_load_id

if TYPE_CHECKING:
    from .embed import Embedder

log = logging.getLogger(__name__)

MAX_FILE_BYTES = 64 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class ImportItem:
    """One thing to import: a path (file or folder), a URL, or a Wikipedia title."""

    kind: str  # "path", "url" or "wikipedia"
    value: str
    # The name a path was found under, when a link's own name differs from its target's: "LICENSE" linked to
    # "Apache-2.0" is read as the text its name says it is.
    name: str = ""

    @staticmethod
    def parse(text: str) -> "ImportItem":
        """``http(s)://…`` is a URL, ``wikipedia:Title`` an article, ``file://…`` and anything else a path."""
        low = text.strip().lower()
        if low.startswith(("http://", "https://")):
            return ImportItem("url", text.strip())
        if low.startswith("wikipedia:"):
            return ImportItem("wikipedia", text.strip()[len("wikipedia:"):].strip())
        if low.startswith("file:"):  # a link copied from a browser's address bar or a file manager
            parts = urlsplit(text.strip())
            if parts.netloc in ("", "localhost"):
                return ImportItem("path", url2pathname(parts.path))
        return ImportItem("path", text)


@dataclass(frozen=True, slots=True)
class Progress:
    """Where an import is: ``done`` of ``total`` sources, the one being read now, failures so far."""

    done: int
    total: int
    current: str
    failed: int


@dataclass(frozen=True, slots=True)
class Failure:
    location: str
    reason: str


@dataclass
class ImportReport:
    """What an import did; ``skipped`` are files a folder held that are not imported (with the reason)."""

    added: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    failed: list[Failure] = field(default_factory=list)
    skipped: list[Failure] = field(default_factory=list)
    chunks: int = 0
    cancelled: bool = False
    # Stored without vectors because the embedding server failed, and its first complaint.
    unembedded: list[str] = field(default_factory=list)
    embedding_problem: str = ""
    # Sources removed because the file is no longer in the folder imported again.
    removed: list[str] = field(default_factory=list)
    # Why the import stopped before the end (the disk is full), and how many items it did not try.
    stopped: str = ""
    not_tried: int = 0

    def summary(self) -> str:
        parts = [f"{len(self.added)} added", f"{len(self.updated)} updated", f"{len(self.unchanged)} unchanged"]
        if self.failed:
            parts.append(f"{len(self.failed)} failed")
        if self.skipped:
            parts.append(f"{len(self.skipped)} skipped")
        if self.removed:
            parts.append(f"{len(self.removed)} removed (deleted from their folder)")
        text = ", ".join(parts) + f" ({self.chunks} chunk{'' if self.chunks == 1 else 's'} stored)"
        if self.unembedded:
            text += (f"; {len(self.unembedded)} stored without embeddings, as {self.embedding_problem}: "
                     "keyword search finds them, and importing them again once the server works embeds them")
        if self.stopped:
            text += f" — stopped, {self.stopped}: {self.not_tried} more not tried"
        return text + (" — cancelled" if self.cancelled else "")


def _is_hidden(path: Path) -> bool:
    return path.name.startswith(".")


def expand(items: Sequence[ImportItem], report: ImportReport) -> list[ImportItem]:
    """Folders become the supported files they hold (recursively); hidden and unsupported ones are skipped.

    Linked folders are followed, each real folder once (a link back up the tree ends there). Whatever a
    folder holds that is not imported is listed in ``report.skipped`` with the reason.
    """
    out: list[ImportItem] = []
    taken: set[str] = set()  # each file once, however many links or folders lead to it

    def add(file: str, name: str) -> None:
        if file in taken:
            report.skipped.append(Failure(file, "already in this import (through a link or twice named)"))
        else:
            taken.add(file)
            out.append(ImportItem("path", file, name if name != Path(file).name else ""))

    for item in items:
        if item.kind != "path":
            out.append(item)
            continue
        if not item.value.strip():  # an empty shell variable must not mean "the current folder"
            report.failed.append(Failure("(empty)", "an empty path: name a file or a folder"))
            continue
        path = Path(item.value).expanduser()
        if not path.is_dir():
            add(str(path.resolve()) if path.exists() else str(path), path.name)
            continue
        seen: set[str] = set()
        before = len(out)

        def unreadable(exc: OSError) -> None:
            report.skipped.append(Failure(exc.filename or str(path), f"could not be read ({exc.strerror})"))

        for root, dirs, files in os.walk(path, onerror=unreadable, followlinks=True):
            real = os.path.realpath(root)
            if real in seen:
                report.skipped.append(Failure(root, "a link to a folder already imported"))
                dirs[:] = []
                continue
            seen.add(real)
            for name in sorted(d for d in dirs if d.startswith(".")):
                report.skipped.append(Failure(str(Path(root, name)), "hidden folder"))
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            for name in sorted(files):
                file = Path(root, name)
                reason = _not_importable(file) or _hidden_target(file, path)
                if reason:
                    report.skipped.append(Failure(str(file), reason))
                else:
                    add(str(file.resolve()), file.name)
        if len(out) == before:  # say why nothing happened, rather than a bare "0 added"
            report.skipped.append(Failure(str(path), "no supported files found in this folder"))
    return out


def _folders(items: Sequence[ImportItem]) -> list[str]:
    """The folders among ``items``, resolved as the files found in them are, each ending in a separator
    (so "notes" does not take in "notes-old")."""
    out = []
    for item in items:
        if item.kind == "path" and item.value.strip():
            path = Path(item.value).expanduser()
            if path.is_dir():
                out.append(os.path.join(str(path.resolve()), ""))
    return out


def _deleted(location: str) -> bool:
    """True only when ``location`` is certainly gone: a folder that cannot be read hides files, not
    deletes them, and those stay."""
    try:
        os.lstat(location)
    except (FileNotFoundError, NotADirectoryError):
        return True
    except (OSError, ValueError):
        return False
    return False


def _not_importable(file: Path) -> str:
    """Why a file found in a folder is not imported, or "" when it is."""
    if _is_hidden(file):
        return "hidden file"
    try:
        kind = file_type(file)
    except UnsupportedFile as exc:
        return str(exc)
    if file.is_symlink() and not file.exists():
        return "a link to something that does not exist"
    if not file.is_file():  # a named pipe would wait for a writer forever; devices and sockets are no text
        return "not a regular file (a pipe, device or socket)"
    if kind == "text" and file.suffix.lower() not in SUPPORTED and not is_compressed(file):
        # Without an extension a folder's programs and data files look like "README": only text is taken.
        try:
            with open(file, "rb") as handle:
                found = sniff(with_utf16_bom(handle.read(SAMPLE_BYTES)))
        except OSError as exc:
            return f"could not be read ({exc.strerror or exc.__class__.__name__})"
        if found not in (None, "pdf"):
            return f"{file.suffix} is not a supported type ({found})" if file.suffix else \
                f"no extension, and not text ({found})"
    return ""


def _hidden_target(file: Path, folder: Path) -> str:
    """Why a file found in ``folder`` through a link is not imported: it is hidden, or in a hidden folder, that
    the folder itself is not in, and only a name makes it text (a link's, or none: "id_rsa", ".aws/credentials").
    Hidden folders are skipped in a folder; a link must not bring in what they hold."""
    real = os.path.realpath(file)
    if _typed_by_name(Path(real)) or real == os.path.abspath(file):
        return ""
    try:
        inside = os.path.relpath(real, os.path.commonpath([real, os.path.realpath(folder)]))
    except ValueError:  # another drive
        inside = real
    return "a link into a hidden file or folder" if any(_is_hidden(Path(p)) for p in Path(inside).parts) else ""


def _typed_by_name(path: Path) -> bool:
    """Whether ``path``'s own extension names its reader ("guide.md", "guide.html.gz"), not just "text"."""
    inner = Path(path.name[:-3]) if is_compressed(path) else path
    return inner.suffix.lower() in SUPPORTED


class Importer:
    """Runs imports into one store. ``cancel`` (a threading.Event) stops it between sources."""

    def __init__(
        self,
        kb: KnowledgeBase,
        *,
        chunk_size: int = 1200,
        settings: Mapping[str, object] | None = None,
        on_progress: Callable[[Progress], None] | None = None,
        cancel: threading.Event | None = None,
        embedder: Embedder | None = None,
        force: bool = False,
        max_file_bytes: int = MAX_FILE_BYTES,
    ) -> None:
        self.kb = kb
        self.chunk_size = chunk_size
        self.settings = settings or {}
        self.on_progress = on_progress
        self.cancel = cancel or threading.Event()
        self.embedder = embedder
        self.force = force
        self._embedding_off = False
        self.max_file_bytes = max_file_bytes

    def run(self, items: Iterable[ImportItem | str]) -> ImportReport:
        report = ImportReport()
        self._embedding_off = False  # set when the embedding server cannot be reached at all
        if self.kb.readonly:  # nothing could be stored: say so once, not once per file
            report.failed.append(Failure(str(self.kb.path), "the knowledge base is in a folder you cannot "
                                                            "write to: it can be searched and listed, not changed"))
            return report
        parsed = [i if isinstance(i, ImportItem) else ImportItem.parse(i) for i in items]
        folders = _folders(parsed)
        todo = expand(parsed, report)
        load_id = new_load_id()
        for done, item in enumerate(todo):
            if self.cancel.is_set():
                report.cancelled = True
                break
            self._progress(done, len(todo), item.value, report)
            try:
                self._import_one(item, load_id, report)
            except Cancelled:  # in the middle of a long file: nothing of it was stored
                report.cancelled = True
                break
            except NoText as exc:
                report.skipped.append(Failure(item.value, str(exc) + self._kept(item)))
            except DiskFull as exc:  # every next file would fail the same way: stop, and say how many were left
                report.failed.append(Failure(item.value, str(exc) + self._kept(item)))
                report.stopped, report.not_tried = "the disk is full", len(todo) - done - 1
                break
            except Error as exc:
                report.failed.append(Failure(item.value, str(exc) + self._kept(item)))
            except (OSError, MemoryError, RecursionError) as exc:
                reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc.__class__.__name__
                report.failed.append(Failure(item.value, f"could not be read ({reason})"))
            except Exception as exc:  # a parser library's own bug must not end the whole import
                log.exception("importing %s failed", item.value)
                report.failed.append(Failure(item.value, f"unexpected error: {exc.__class__.__name__}: {exc}"))
        else:
            self._remove_deleted(folders, report)
            self._progress(len(todo), len(todo), "", report)
        return report

    def _remove_deleted(self, folders: Sequence[str], report: ImportReport) -> None:
        """Remove the sources filed under ``folders`` whose files are gone from the disk."""
        if not folders:
            return
        for source in self.kb.sources():
            if not any(source.location.startswith(folder) for folder in folders) or not _deleted(source.location):
                continue
            try:
                if self.kb.remove_source(source.id):
                    report.removed.append(source.location)
            except Error as exc:
                report.failed.append(Failure(source.location, f"deleted from its folder; removing it failed: {exc}"))

    def _kept(self, item: ImportItem) -> str:
        """For a source that could not be read again: its earlier import is still searchable, say so."""
        try:
            existing = self.kb.source_by_location(item.value) if _utf8(item.value) else None
        except Error:
            return ""
        if existing is None:
            return ""
        return f" (the version imported {existing.imported_at[:10]} stays in the knowledge base)"

    def _progress(self, done: int, total: int, current: str, report: ImportReport) -> None:
        if self.on_progress is not None:
            self.on_progress(Progress(done, total, current, len(report.failed)))

    def _import_one(self, item: ImportItem, load_id: str, report: ImportReport) -> None:
        if item.kind == "path":
            path = Path(item.value)
            if not path.exists():
                raise ReadError("a link to something that does not exist" if path.is_symlink()
                                else "no such file or folder")
            if not path.is_file():
                raise ReadError("not a regular file (a pipe, device or socket)")
            if not _utf8(item.value):  # SQLite stores text as UTF-8: such a name cannot be stored
                raise ReadError("its name is not valid text (UTF-8); rename the file to import it")
            # a link's name only when the file's own says no format: README → README.md stays Markdown
            named = Path(item.name) if item.name and not _typed_by_name(path) else path
            kind = self._file_type(named, str(path))
            size = path.stat().st_size
            if size > self.max_file_bytes:
                raise ReadError(f"too large ({size / 2**20:.0f} MB; the limit is {self.max_file_bytes / 2**20:.0f} MB)")
            data = path.read_bytes()
            if data.startswith(GZIP_MAGIC):  # whatever the name says (a PDF or Word file never starts so)
                data = gunzip(data, self.max_file_bytes)
            location, digest = str(path), hashlib.sha256(data).hexdigest()
            if self._unchanged(location, digest, report):
                return
            name = named.name[:-3] if is_compressed(named) else named.name  # "guide.md.gz" is titled as guide.md
            doc = read_bytes(data, kind, name, self.cancel.is_set)
        elif item.kind == "url":
            from .web import fetch_url, normalize_url

            location = normalize_url(item.value)
            if self.kb.source_by_location(location) is None and self.kb.source_by_location(item.value):
                location = item.value  # imported before URLs were normalised: update that source
            fetched = fetch_url(location, self.max_file_bytes, cancelled=self.cancel.is_set)
            size, digest = len(fetched.data), hashlib.sha256(fetched.data).hexdigest()
            if self._unchanged(location, digest, report):
                return
            doc = fetched.document()
        elif item.kind == "wikipedia":
            from .web import wikipedia_article

            article = asyncio.run(wikipedia_article(item.value, self.settings))
            location = article.url or f"wikipedia:{article.lang}:{article.title}"
            data = article.text.encode("utf-8")
            size, digest = len(data), hashlib.sha256(data).hexdigest()
            if self._unchanged(location, digest, report):
                return
            doc = article_document(article.title, article.text)
        else:
            raise UnsupportedFile(f"unknown import kind {item.kind!r}")
        self._store(doc, location, size, digest, load_id, report)

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

    def _unchanged(self, location: str, digest: str, report: ImportReport) -> bool:
        existing = self.kb.source_by_location(location)
        if existing is None or existing.content_hash != digest or self.force:
            return False
        if self._embeds() and not self.kb.is_embedded(existing.id, self.embedder.model):
            return False  # the same text, but without vectors of the model now set: read it to embed it
        report.unchanged.append(location)
        return True

    def _embeds(self) -> bool:
        return self.embedder is not None and not self._embedding_off

    def _store(self, doc: Document, location: str, size: int, digest: str, load_id: str,
               report: ImportReport) -> None:
        doc = _without_invisible(doc)
        chunks = chunk_document(doc, self.chunk_size)
        if not chunks:
            raise NoText("no readable text found")
        vectors, model = None, ""
        if self.embedder is not None:
            try:
                if self._embeds():
                    vectors = self.embedder.embed([_embedding_text(c) for c in chunks], self.cancel.is_set)
                    model = self.embedder.model
            except FetchError as exc:  # the text is still worth storing: keyword search finds it
                report.embedding_problem = report.embedding_problem or str(exc)
                # A server that does not answer at all is not asked again for every remaining file
                # (each would wait for its time-out); one that answered with an error may take the next.
                self._embedding_off = isinstance(exc, Unreachable)
            if vectors is None:
                report.unembedded.append(location)
        existed = self.kb.source_by_location(location) is not None
        self.kb.replace_source(title=doc.title, location=location, type=doc.type, size=size,
                               content_hash=digest, chunks=chunks, load_id=load_id,
                               vectors=vectors, vector_model=model, links=doc.links)
        (report.updated if existed else report.added).append(location)
        report.chunks += len(chunks)


# Invisible characters inside words: a soft hyphen (HTML's &shy;, a hyphenation hint in German or Dutch
# text: "Donau&shy;dampf&shy;schiff"), a word joiner, a zero-width no-break space (a byte order mark left
# inside text joined from files). The index splits words at them: "Donaudampfschiff" found nothing.
_INVISIBLE = re.compile("[\u00ad\u2060\ufeff]")


def _visible(text: str) -> str:
    return text if text.isascii() or not _INVISIBLE.search(text) else _INVISIBLE.sub("", text)


def _without_invisible(doc: Document) -> Document:
    """``doc`` with its title and blocks free of the invisible characters that split words in the index."""
    blocks = tuple(b if b.text.isascii() else replace(b, text=_visible(b.text)) for b in doc.blocks)
    return replace(doc, title=_visible(doc.title), blocks=blocks)


def _utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a file name's undecodable bytes, kept by Python as lone surrogates
        return False
    return True


def _embedding_text(chunk: Chunk) -> str:
    return f"{chunk.heading}\n\n{chunk.text}"


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
