"""Importing: files, folders, URLs and Wikipedia articles into the store, one source at a time.

An import first lists everything it will read (so progress can say "12 of 340"; what a folder holds that is
left out, and why: import_items.py), then reads, chunks and stores each source, in that order: each whole or
not at all, the ones read in the last quarter of a second in one transaction (STORE_EVERY). With a dozen files
or more and two processors to spare, reader processes (reader_worker.py) read and chunk the next files while
one is stored; what is stored, and the report, are the same as when this process reads them all. A file that
cannot be read is reported with its reason and the import goes on; one that cannot be stored because no write
can succeed (a full disk, a read-only database, another program writing to it for longer than
store.BUSY_TIMEOUT) stops it, said once. Cancelling stops between sources, so what was stored is complete and
what was not is absent.
A source whose content hash has not changed since the last import is skipped (unless ``force``), except
when an embedding model is set and the source has no vectors of it yet (it is read again to embed it), and
when an older version of the readers read it (READER_VERSION): it is read again, and counted as updated.
Importing a folder again brings the knowledge base in line with it: files deleted from the folder since
are removed (once the import has finished, not when it was cancelled; a file that merely cannot be seen
now, behind a folder without read permission, stays).
Web pages and Wikipedia articles are not downloaded when the settings' ``network_tools`` is off (the app
is then fully offline): each is listed as failed, saying so, and the files beside them are imported.
When the embedding server fails, sources are stored without vectors (keyword search still finds them) and
the report says so; the next import embeds them.
How each item is read (a file, here or in a reader process, a web page, a Wikipedia article): import_reading.py.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from contextlib import nullcontext
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Callable, Iterable, Mapping, Sequence

from .compact import compact_if_worth
from .import_items import ImportItem, _deleted, _folders, _shown, _utf8, expand
from .import_reading import ImportReadingMixin, _Reading
from .import_report import WAITING, Failure, ImportReport, Progress
from .link_pages import is_navigation
from .errors import (  # noqa: F401  ReadError: read from here too
    Cancelled, CannotWrite, Error, FetchError, FolderGone, LeftOut, NetworkOff, NoText, ReadError, Unreachable,
)
from .models import Chunk, Document, SourceInfo
from .moves import left_behind, move_source, moved_source, retarget_links
from .path_case import Spellings, ignores_case
from .unfinished import Marker
from .reader_worker import Readers
from .store import KnowledgeBase, local_moment, new_load_id
from .store_schema import stored_hashes

if TYPE_CHECKING:
    from .embed import Embedder

log = logging.getLogger(__name__)

MAX_FILE_BYTES = 64 * 1024 * 1024
# The version of what the readers and the chunker make of a source. Bump it with any change to them that
# changes what is stored for the same bytes (a reader fix, text read that was missed, other chunks): a
# source stored by an older version is then read again on its next import, and counted as updated, instead
# of being skipped as unchanged and keeping its old chunks for good. Sources stored before the version was
# recorded count as 0. (1: the first recorded. 2: an HTML table whose first row is data no longer repeats
# that row above each passage; an HTML <table> inside Markdown reads as rows of cells; AsciiDoc description
# lists read as terms and their text, not as code. 3: an HTML page's passages keep the id they sit under,
# where the page opens. 4: text and HTML pages in a legacy encoding other than Windows-1252 (Windows-1251,
# Shift-JIS, GBK …) are read in it, not as Windows-1252 garble; a Word document's headers and footers are
# read. 5: a CSV file whose delimiter csv.Sniffer could not tell is read in its columns; a web page served
# without a Content-Type is a web page, not HTML. 6: passwords, tokens and keys in programs, configuration
# files and JSON, and private key blocks anywhere, are stored as "***"; small definitions share a passage.
# 7: code is cut at the definitions inside extern "C" and namespaces, and past JavaScript strings holding
# "//" and regular expressions. 8: secrets in more forms (XML configuration, typed assignments, --password=,
# well-known service keys); scripts without an extension read as code; a small piece alone before a large
# definition is its first lines, the small methods of a large class share passages. 9: secrets in more forms
# (auth=('ann', '…'), setPassword("…"), define('DB_PASSWORD', …), jdbc:…?password=…, ;Password=…;, hf_…),
# and a JDBC address's quote or its parameters after the password are no longer taken with it. 10: a file read
# as text for its plain name ("install.ps1", "notes.sql", "todo.conf") is read as code or configuration, its
# secrets hidden; and secrets in more forms everywhere: $password = '…', password <- "…", @"…". 11: secrets in
# more forms: ODBC's braced PWD={…}, a connection string's Password=… before its Server or Host, Azure's
# AccountKey=…, a Makefile's KEY ?= … and +=, a batch file's set "PW=…" & …. 12: a batch file's set PW=…&echo,
# its value ended by the "&" with no space before it.)
READER_VERSION = 12

# The sources read are stored together, in one transaction, once STORE_EVERY seconds have passed since the
# first of them was read, or _STORE_CHARS of their text wait; and before a web page, a Wikipedia article or
# an embedding, which wait on a server, and when the import ends or is cancelled. All of them are stored,
# or none; when one cannot be, they are stored again one at a time, so that each is still whole or absent
# and one that fails fails alone (Importer._store_read). A commit writes every page its sources changed to
# the write-ahead log, and some pages every source changes (the index's structure, each table's last
# pages); and the full-text index writes a segment of the words it was given at each commit. Storing a
# 20 MB folder of 1,332 Markdown files took 2.85 s with a transaction per source, 2.44 s with a savepoint
# per source in one transaction (still a segment each), and 1.52 s so; the PostgreSQL manual's 1,150
# pages 1.76 s and 0.65 s (medians of five and three alternating runs).
# The knowledge base is locked only while they are stored, not while files are read, so another import
# (the window's and ``kb add``'s) takes its turns as before. A process killed loses what it read in this
# time, at most: absent, as the sources it had not reached, and read by the next import.
STORE_EVERY = 0.25
# Seconds a store may go on after Cancel: the few files read just before it are kept, a 60 MB log's
# 53,000 passages (seconds of storing) are not waited for (see _store_read).
STOP_GRACE = 0.5
# Sources holding this much text get no grace: a 60 MB log, read before Cancel and storing for 0.7 s, was
# stored whole within the grace after a Cancel 0.2 s into its store (see _store_read).
_GRACE_CHARS = 1_000_000
_STORE_CHARS = 8_000_000
# A file this large (a PDF or Word file a quarter of it) takes more than STORE_EVERY to read: the sources
# read before it are stored first, not kept waiting for it (see Importer._store_now).
_SLOW_BYTES = 1024 * 1024
_SLOW_KINDS = (".pdf", ".docx", ".pdf.gz", ".docx.gz")


# Files an import must hold before it starts reader processes (reader_worker.py): starting one takes a
# moment (a new Python that imports the readers), which only a folder of many files makes up for.
_READERS_FROM = 12
_MAX_READERS = 4  # each a Python with the readers loaded: about 50 MB


def _readers_for(todo: Sequence[ImportItem]) -> Readers | None:
    """Reader processes for ``todo`` when they are worth it: enough files, and a processor to spare.

    This process reads too, whatever file no reader has started when its turn comes (Readers.share), so
    even one reader helps: on a two-processor machine the PostgreSQL manual's 1,171 pages imported in
    4.6-5.1 s against 5.9-7.3 s read here, in alternating runs."""
    spare = min((os.cpu_count() or 1) - 1, _MAX_READERS)
    files = sum(1 for item in todo if item.kind == "path")
    if spare < 1 or files < _READERS_FROM:
        return None
    try:
        return Readers(spare)
    except OSError as exc:  # no reader can be started, or it cannot read: read them all here
        log.warning("reading in this process: no reader process could be started (%s)", exc)
        return None


@dataclass(frozen=True, slots=True)
class _Read:
    """A source read and chunked, waiting to be stored with the next ones (Importer._store_read)."""

    doc: Document
    chunks: list[Chunk]
    location: str
    size: int
    digest: str
    vectors: list[list[float]] | None
    model: str
    also: str  # the address a web page was asked by, which redirected to ``location``


class _NotStored(Exception):
    """The sources read could not be stored, as no write can succeed (errors.CannotWrite). The first is
    listed as failed, saying why and what to do; ``more`` others were not stored either; ``stopped`` says
    why in a few words."""

    def __init__(self, stopped: str, more: int) -> None:
        super().__init__(stopped)
        self.stopped, self.more = stopped, more


class Importer(ImportReadingMixin):
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
        self.report = ImportReport()  # the import running or last run (see run)
        self._read: list[_Read] = []  # read, not yet stored (see STORE_EVERY)
        self._read_since = 0.0
        self._read_chars = 0
        self._marker: Marker | None = None
        self._said: Progress | None = None  # the last progress given to on_progress
        self._paths: frozenset[str] = frozenset()  # the files of the import running
        self._load_id = ""  # the import running's
        self._moves: dict[str, str] = {}  # the sources it moved (moves.py): old location → new
        self._seen: dict[str, str | None] = {}  # location → the content hash stored there when it first looked
        # Folders gone during the import (FolderGone) → their failure's place in the report, and how many of
        # their files were not read.
        self._gone: dict[str, tuple[int, int]] = {}

    def run(self, items: Iterable[ImportItem | str]) -> ImportReport:
        # also kept as self.report: a Ctrl+C that ends run() can still tell what was stored before it
        report = self.report = ImportReport()
        self._embedding_off = False  # set when the embedding server cannot be reached at all
        self._read, self._read_chars = [], 0
        if self.kb.readonly:  # nothing could be stored: say so once, not once per file
            report.failed.append(Failure(str(self.kb.path), "the knowledge base is in a folder you cannot "
                                                            "write to: it can be searched and listed, not changed"))
            return report
        parsed = [i if isinstance(i, ImportItem) else ImportItem.parse(i) for i in items]
        walked: set[str] = set()
        # "~/docs" imported after "~/Docs" on a case-insensitive disk: its files are the sources stored
        spellings = Spellings(source.location for source in self.kb.sources()) \
            if any(ignores_case(i.value) for i in parsed if i.kind == "path") else Spellings(())
        todo = expand(parsed, report, walked, os.path.realpath(self.kb.path.parent), spellings.spelled,
                      stop=self.cancel.is_set)
        if self.cancel.is_set():  # while the folders were listed: none of what was named is imported
            report.cancelled, report.left_out = True, [_shown(i.value) for i in parsed]
            return report
        self._paths = frozenset(item.value for item in todo if item.kind == "path")
        folders = _folders(parsed)  # and the linked folders outside them (each of their subfolders is in walked)
        folders += sorted(w for w in walked if not any(w.startswith(folder) for folder in folders))
        folders = spellings.folders(folders)
        load_id = self._load_id = new_load_id()
        self._moves, self._seen, self._gone = {}, {}, {}
        readers = _readers_for(todo)
        ahead: dict[int, _Reading | BaseException | None] = {}  # files being read, by their place in todo
        # a kill or a crash leaves this mark: the next start says the import was cut short (unfinished.py);
        # meanwhile it tells another import waiting for the lock that this one will let go (even of one file)
        self._marker = Marker(self.kb.path, [i.value for i in parsed], len(todo), load_id)
        self._said = Progress(0, len(todo), "", 0)
        self.kb.on_wait, self.kb.stop = self._waiting, self.cancel.is_set
        try:
            # many sources, in many commits: the full-text index merges once, at the end
            with self.kb.importing(self.cancel) if len(todo) > 1 else nullcontext():
                self._import_all(todo, folders, load_id, report, readers, ahead)
            self._retarget()
            if report.removed:  # files deleted from their folders: their pages given back to the disk
                compact_if_worth(self.kb)
        finally:
            self.kb.on_wait = self.kb.stop = None
            if readers is not None:
                readers.close()
            if self._marker is not None:
                self._marker.ended()
        return report

    def _import_all(self, todo: list[ImportItem], folders: list[str], load_id: str, report: ImportReport,
                    readers: Readers | None, ahead: dict[int, _Reading | BaseException | None]) -> None:
        after = 0  # the next file to hand to the readers
        for done, item in enumerate(todo):
            if self.cancel.is_set():
                report.cancelled = True
                break
            if self._read and self._store_now(item, ahead.get(done)):
                try:
                    self._store_read(load_id, report)
                except _NotStored as exc:
                    report.stopped, report.not_tried = exc.stopped, exc.more + len(todo) - done
                    break
                except Cancelled:  # while storing: what it was storing is not stored
                    report.cancelled = True
                    break
            self._progress(done, len(todo), _shown(item.value), report)
            if readers is not None:
                # files read ahead, in reader processes, while this one is stored: as many as keep them busy
                after = max(after, done)
                while after < len(todo) and after - done < readers.ahead and (after == done or readers.has_room()):
                    if todo[after].kind == "path":
                        try:
                            ahead[after] = self._import_one(todo[after], report, readers)
                        except Exception as exc:  # said in its turn, below, as if it had happened then
                            ahead[after] = exc
                    after += 1
            within = self._gone_folder(item)
            if within and (done not in ahead or isinstance(ahead[done], BaseException)):
                ahead.pop(done, None)  # not read before its folder went: said with the folder's failure
                self._not_read(within, report)
                continue
            try:
                if done not in ahead:
                    self._import_one(item, report)
                elif isinstance(outcome := ahead.pop(done), BaseException):
                    raise outcome
                elif outcome is not None:
                    self._finish(outcome, report)
            except Cancelled:  # in the middle of a long file: nothing of it was stored
                report.cancelled = True
                break
            except FolderGone as exc:  # each of its files still to read would fail so: said once, counted
                self._not_read(exc.folder, report)
            except NoText as exc:
                report.skipped.append(Failure(_shown(item.value), str(exc) + self._kept(item.value)))
            except LeftOut as exc:  # named by itself, a failure; in a folder, left out as by design
                (report.skipped if item.in_folder else report.failed).append(
                    Failure(_shown(item.value), str(exc) + self._kept(item.value)))
            except NetworkOff as exc:
                report.failed.append(Failure(_shown(item.value), str(exc) + self._kept(item.value)))
                report.offline.append(item.value)
            except CannotWrite as exc:  # a full disk, a read-only or locked database: every next file would
                # fail the same way, so the import stops, saying once what to do and how many were left
                report.failed.append(Failure(_shown(item.value), str(exc) + self._kept(item.value)))
                report.stopped, report.not_tried = exc.stopped, len(todo) - done - 1
                break
            except Error as exc:
                report.failed.append(Failure(_shown(item.value), str(exc) + self._kept(item.value)))
            except (OSError, MemoryError, RecursionError) as exc:
                reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc.__class__.__name__
                report.failed.append(Failure(_shown(item.value), f"could not be read ({reason})"))
            except Exception as exc:  # a parser library's own bug must not end the whole import
                log.exception("importing %s failed", item.value)
                report.failed.append(Failure(_shown(item.value), f"unexpected error: {exc.__class__.__name__}: {exc}"))
        else:
            done = len(todo)
        if report.stopped:  # by a write of its own (none is made while sources wait to be stored, but still)
            report.not_tried += len(self._read)
            self._read = []
            return
        try:
            self._store_read(load_id, report)
        except _NotStored as exc:
            report.stopped, report.not_tried = exc.stopped, exc.more
            return
        except Cancelled:
            report.cancelled = True
        if report.late:  # the cancel came after the last source was read: it is stored, and said so
            report.cancelled = True
        if report.cancelled:
            report.left_out += [_shown(i.value) for i in todo[done:]]
        else:
            self._remove_deleted(folders, report)
            self._progress(len(todo), len(todo), "", report)

    def _store_now(self, item: ImportItem, outcome: _Reading | BaseException | None = None) -> bool:
        """Whether the sources read are to be stored before ``item`` is: STORE_EVERY seconds have passed
        since the first was read, or ``item`` may take long to read (a web page, a large file not yet read
        by a reader process: ``outcome``): the files read before it must not wait for it, which a killed
        import would lose."""
        if (item.kind != "path" or self.embedder is not None or self._read_chars >= _STORE_CHARS
                or time.monotonic() - self._read_since >= STORE_EVERY):
            return True
        if isinstance(outcome, _Reading):  # read by a reader process: waited for only if not read yet
            size = outcome.size if outcome.read is not None and not outcome.read.ready() else 0
        elif outcome is not None:
            return False
        else:
            try:
                size = os.stat(item.value).st_size
            except (OSError, ValueError):
                return False
        return size >= (_SLOW_BYTES // 4 if item.value.lower().endswith(_SLOW_KINDS) else _SLOW_BYTES)

    def _store_read(self, load_id: str, report: ImportReport) -> None:
        """Store the sources read since the last time, in one transaction. When one of them cannot be
        stored, none was: they are then stored one at a time, so that it fails alone. When none can be (a
        full disk), the first not stored is listed as failed, saying why, and _NotStored is raised: the
        import stops there, as at a file it read itself, rather than say the same of every one.

        Those read before Cancel are still stored, but a store that goes on for more than STOP_GRACE seconds
        after it is stopped, or that holds _GRACE_CHARS of text or more, is stopped (KnowledgeBase.stoppable:
        storing a 60 MB log took seconds, and Cancel waited for them). None of these sources is then stored,
        and Cancelled is raised. Those stored with Cancel set are listed in ``report.late``."""
        read, chars, self._read, self._read_chars = self._read, self._read_chars, [], 0
        if not read:
            return
        grace = STOP_GRACE if chars < _GRACE_CHARS else 0.0  # a few notes are kept; a huge file is stopped
        stored: list[tuple[_Read, bool, bool]] = []
        try:
            try:
                with self.kb.stoppable(self.cancel.is_set, grace), self.kb.together():
                    together = [(source, *self._save(source, load_id)) for source in read]
                stored = together
            except (CannotWrite, Cancelled):  # Cancel while storing: none of them is stored
                raise
            except Exception:  # said below, of the source it belongs to
                for source in read:
                    try:
                        with self.kb.stoppable(self.cancel.is_set, grace):
                            stored.append((source, *self._save(source, load_id)))
                    except (CannotWrite, Cancelled):
                        raise
                    except Error as exc:
                        report.failed.append(Failure(source.location, str(exc) + self._kept(source.location)))
                    except Exception as exc:  # as when read: a bug of one source's must not lose the others
                        log.exception("storing %s failed", source.location)
                        report.failed.append(Failure(source.location,
                                                     f"unexpected error: {exc.__class__.__name__}: {exc}"))
        except Cancelled:
            said = {s.location for s, _, _ in stored}
            report.left_out += [r.location for r in read if r.location not in said]
            raise
        except CannotWrite as exc:
            said = {s.location for s, _, _ in stored} | {f.location for f in report.failed}
            unsaved = [r.location for r in read if r.location not in said]
            report.failed.append(Failure(unsaved[0], str(exc) + self._kept(unsaved[0])))
            raise _NotStored(exc.stopped, len(unsaved) - 1) from exc
        finally:
            report.unchanged += [source.location for source, updated, _ in stored if updated is None]
            stored = [(source, updated, reread) for source, updated, reread in stored if updated is not None]
            if self.cancel.is_set():  # stored within the grace: said, or a cancel seemed missed
                report.late += [source.location for source, _, _ in stored]
            for source, updated, reread in stored:
                (report.updated if updated else report.added).append(source.location)
                report.notes += [Failure(source.location, note) for note in source.doc.notes]
                report.hidden += source.doc.hidden
                if reread:
                    report.reread.append(source.location)
                report.chunks += len(source.chunks)
                report.updated_chunks += len(source.chunks) if updated else 0


    def _save(self, source: _Read, load_id: str) -> tuple[bool | None, bool]:
        """Write ``source`` (within KnowledgeBase.together); whether it updated one stored before (None: it
        was not written, as another import stored these bytes since they were read), and whether that one had
        the same bytes, read by older readers (see READER_VERSION)."""
        existing = self.kb.source_by_location(source.location)
        if self._seen.get(source.location, source.digest) != source.digest and self._same(existing, source.digest):
            # stored since this import looked, by another one (the window's and kb add of one folder at once):
            # each stored what both had read, and said "574 updated" of files that had not changed
            return None, False
        if existing is None and source.also and source.also != source.location:
            existing = self.kb.source_by_location(source.also)
        reread = existing is not None and existing.content_hash in stored_hashes(source.digest) \
            and self.kb.reader_version(existing.id) < READER_VERSION
        doc = source.doc
        self.kb.replace_source(title=doc.title, location=source.location, type=doc.type, size=source.size,
                               content_hash=source.digest, chunks=source.chunks, load_id=load_id,
                               vectors=source.vectors, vector_model=source.model, links=doc.links,
                               reader_version=READER_VERSION, replacing=source.also)
        return existing is not None, reread

    def _gone_folder(self, item: ImportItem) -> str:
        """The folder gone during the import that ``item``'s file is in, or ""."""
        if not self._gone or item.kind != "path":
            return ""
        return next((folder for folder in self._gone if item.value.startswith(os.path.join(folder, ""))), "")

    def _not_read(self, folder: str, report: ImportReport) -> None:
        """One more file not read as ``folder`` is gone: the folder's one failure says how many (hundreds of
        files said "the folder … is no longer there" each, one line apiece)."""
        place, files = self._gone.get(folder, (len(report.failed), 0))
        files += 1
        failure = Failure(_shown(folder), f"the folder is gone (deleted, or its drive removed?); {files:,} "
                                          f"file{'' if files == 1 else 's'} in it not read")
        if place == len(report.failed):
            report.failed.append(failure)
        else:
            report.failed[place] = failure
        self._gone[folder] = (place, files)

    def _remove_deleted(self, folders: Sequence[str], report: ImportReport) -> None:
        """Remove the sources filed under ``folders`` whose files are gone from the disk. Not those of a folder
        gone as a whole (a drive removed): every source imported from it, those just imported too, was removed."""
        folders = [folder for folder in folders if os.path.isdir(folder)]
        gone = [os.path.join(folder, "") for folder in self._gone]
        if not folders:
            return
        for source in self.kb.sources():
            if not any(source.location.startswith(folder) for folder in folders) or not _deleted(source.location) \
                    or any(source.location.startswith(folder) for folder in gone):
                continue
            try:
                if self.kb.remove_source(source.id):
                    report.removed.append(source.location)
            except Cancelled:  # while it waited for another import's lock: the rest stay until the next import
                report.cancelled = True
                return
            except Error as exc:
                report.failed.append(Failure(source.location, f"deleted from its folder; removing it failed: {exc}"))

    def _kept(self, location: str) -> str:
        """For a source that could not be read or stored again: its earlier import is still searchable, say so."""
        try:
            existing = self.kb.source_by_location(location) if _utf8(location) else None
        except Error:
            return ""
        if existing is None:
            return ""
        # after a semicolon: most reasons end in their own brackets ("(connection refused) (the version …)")
        return f"; the version imported {_local_day(existing.imported_at)} stays in the knowledge base"

    def _progress(self, done: int, total: int, current: str, report: ImportReport) -> None:
        if self._marker is not None:
            self._marker.progressed(done)
        self._said = Progress(done, total, current, len(report.failed))
        if self.on_progress is not None:
            self.on_progress(self._said)

    def _waiting(self, waiting: bool) -> None:
        """A store has waited store_schema.WAIT_SAID seconds for another program's lock (``waiting``), or that
        wait is over: the progress says so, then the file again (called on a timer's thread)."""
        said = self._said
        if self.on_progress is not None and said is not None:
            self.on_progress(replace(said, current=WAITING) if waiting else said)

    def _unchanged(self, location: str, digest: str) -> bool:
        """Whether the source at ``location`` is stored already from these bytes, and needs no reading. What
        was stored there the first time this import looked is kept, for _save."""
        existing = self.kb.source_by_location(location)
        self._seen.setdefault(location, existing.content_hash if existing is not None else None)
        return self._same(existing, digest)

    def _same(self, existing: SourceInfo | None, digest: str) -> bool:
        """Whether ``existing`` is stored from these bytes, as this import would store them."""
        if existing is None or existing.content_hash != digest or self.force:
            return False
        if self.kb.reader_version(existing.id) < READER_VERSION:
            return False  # the same bytes, but read by older readers: read them again
        if self._embeds() and not self.kb.is_embedded(existing.id, self.embedder.model):
            return False  # the same text, but without vectors of the model now set: read it to embed it
        return True

    def _moved(self, location: str, digest: str, report: ImportReport) -> bool:
        """Whether the file at ``location`` was stored under a path now gone, and that source was moved to
        ``location`` (moves.py) rather than the file stored twice."""
        if self.force or (source := moved_source(self.kb, location, digest)) is None:
            return False
        move_source(self.kb, source, location, self._load_id)
        self._moves[source.location] = location
        report.moved.append(location)
        return True

    def _drop_left_behind(self, location: str, digest: str, report: ImportReport) -> None:
        """Remove the sources the file at ``location`` left behind in folders now gone (moves.py)."""
        if self.force or not (stale := left_behind(self.kb, location, digest, folder_gone=True)):
            return
        try:
            self.kb.remove_sources([source.id for source in stale])
        except Error as exc:  # found as copies in searches (one place for one text) until the next import
            log.warning("%d stale copies of %s were not removed: %s", len(stale), location, exc)
            return
        report.removed += [source.location for source in stale]

    def _retarget(self) -> None:
        """File the links to the sources moved under their new paths (moves.py); never fails the import."""
        try:
            retarget_links(self.kb, self._moves)
        except Error as exc:  # links found by their old path until the next import moves them
            log.warning("links to %d moved files were not updated: %s", len(self._moves), exc)

    def _embeds(self) -> bool:
        return self.embedder is not None and not self._embedding_off

    def _store(self, doc: Document, chunks: list[Chunk], location: str, size: int, digest: str,
               report: ImportReport, also: str = "") -> None:
        """Embed ``doc`` (when an embedding model is set) and put it with the sources to store under
        ``location`` (see STORE_EVERY); ``also``: the address a web page was asked by, which redirected to
        ``location`` (a source stored under it before is this page, now updated under ``location``)."""
        if not chunks:
            raise NoText("no readable text found")
        if doc.link_targets and is_navigation(doc.link_targets, location, self._paths):
            raise NoText("no readable text found (only navigation or markup)")
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
        if not self._read:
            self._read_since = time.monotonic()
        self._read.append(_Read(doc, chunks, location, size, digest, vectors, model, also))
        self._read_chars += sum(len(c.text) for c in chunks)


def _local_day(stamp: str) -> str:
    """The day of a stored time in UTC ("2026-11-30T23:15:00Z") in local time ("2026-12-01" in Berlin), as
    kb list and the sources list show it; the stored text's first ten characters when it is no time."""
    moment = local_moment(stamp)
    return stamp[:10] if moment is None else moment.date().isoformat()


def _embedding_text(chunk: Chunk) -> str:
    return f"{chunk.heading}\n\n{chunk.text}"
