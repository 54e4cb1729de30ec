"""The ``kb`` verb: ``kb add PATH|URL…``, ``kb search TEXT``, ``kb list`` and ``kb remove SOURCE_ID``.

``register(subparsers)`` stays light (argparse only); the knowledge base is imported when a verb runs.
Progress and failures go to stderr, results to stdout, so ``kb search --jsonl`` pipes cleanly. Bad numbers
and empty paths are refused by the argument parser, before anything is read or written; output cut short by
its reader (``| head -1``) ends the verb quietly, and other output failures are said (``cli.main``).
"""

from __future__ import annotations

import argparse
import logging
import os
import re
import shlex
import sys
import time
import unicodedata
from pathlib import Path
from typing import Callable, TextIO

from ..cliterm import BIDI_CONTROLS, json_line
from .import_report import LISTING, WAITING
from .models import hide_password

log = logging.getLogger(__name__)

_SQLITE_MAX_INT = 2**63 - 1  # source ids are SQLite INTEGERs: larger numbers cannot name a source


_EXIT_STATUS = ("Exit status: 0 done (a search that finds nothing included; for add, every source was imported "
                "or found unchanged, and the files a folder holds that are not imported by design, as hidden ones, "
                "are said as skipped), 1 failed (said on standard error; for add, any file, folder or page that "
                "failed, even when the others were imported), 2 wrong command line (or, for add, web pages not "
                "downloaded as the network is off, when nothing else failed), 130 stopped with Ctrl+C.")


def register(subparsers: argparse._SubParsersAction) -> None:
    from ..cliargs import add_shared_flags

    # Short usage lines: the whole list of flags (11 lines) buried an error's one line under it; --help lists them.
    kb = subparsers.add_parser("kb", help="build and search the local knowledge base",
                               usage="%(prog)s [options] COMMAND ...",
                               description="Build and search the local knowledge base.", epilog=_EXIT_STATUS)
    add_shared_flags(kb)
    verbs = kb.add_subparsers(dest="kb_command", metavar="COMMAND", required=True, parser_class=_VerbParser,
                              prog=kb.prog)  # else argparse makes it of kb's usage ("kb [options] COMMAND ...")

    add = verbs.add_parser("add", help="import files, folders, URLs or Wikipedia articles", epilog=_EXIT_STATUS,
                           usage="%(prog)s [options] PATH|URL ...")
    add.add_argument("items", nargs="*", type=_not_empty("path"), metavar="PATH|URL",
                     help="files, folders (read recursively), http(s) URLs, or wikipedia:TITLE")
    add.add_argument("--wikipedia", action="append", default=[], type=_not_empty("title"), metavar="TITLE",
                     help="import the Wikipedia article with this title (in the settings' language)")
    add.add_argument("--force", action="store_true", help="re-import sources even when unchanged")
    add.add_argument("--progress", action="store_true",
                     help="a progress line per source even when standard error is not a terminal "
                          "(otherwise, in a log or a pipe, one every 10 seconds)")
    chunk = _SettingRange("chunk_size")
    add.add_argument("--chunk-size", type=chunk, metavar="CHARS",
                     help=f"largest chunk, {chunk.allowed} characters (default: settings)")
    _leaf_flags(add)
    add.set_defaults(func=_add)

    find = verbs.add_parser("search", help="search the knowledge base", epilog=_EXIT_STATUS,
                            usage="%(prog)s [options] [--] TEXT")
    find.add_argument("text", metavar="TEXT", help="what to look for, in everyday words (after -- if it "
                                                    "starts with a dash)")
    k = _SettingRange("k")
    find.add_argument("--k", type=k, default=None, metavar="N",
                      help=f"how many passages, {k.allowed} (default: settings)")
    find.add_argument("--jsonl", action="store_true", help="one JSON object per hit")
    _leaf_flags(find)
    find.set_defaults(func=_search)

    lst = verbs.add_parser("list", help="list the imported sources", epilog=_EXIT_STATUS, usage="%(prog)s [options]")
    lst.add_argument("--jsonl", action="store_true",
                     help="one JSON object per source (type as stored, \"url\" for a web page; imported_at in "
                          "UTC, as 2026-11-30T08:52:44Z; without --jsonl, the type and the local time are "
                          "shown as the window shows them)")
    _leaf_flags(lst)
    lst.set_defaults(func=_list)

    rm = verbs.add_parser("remove", help="remove sources by id (see kb list)", epilog=_EXIT_STATUS,
                         usage="%(prog)s [options] SOURCE_ID ...")
    rm.add_argument("source_ids", nargs="+", type=_source_id, metavar="SOURCE_ID",
                    help="the id kb list shows in its first column")
    _leaf_flags(rm)
    rm.set_defaults(func=_remove)


class _VerbParser(argparse.ArgumentParser):
    """A verb's parser that, when it refuses a word starting with a dash it does not know as an option
    (``kb search "-f flag"`` is fine, ``kb search -force`` is taken for an option), says how to give that
    word as text: after ``--``."""

    _words: tuple[str, ...] = ()  # the words it was last given

    def parse_known_args(self, args=None, namespace=None):  # noqa: ANN001, ANN201 (argparse's signature)
        self._words = tuple(sys.argv[1:] if args is None else args)
        return super().parse_known_args(args, namespace)

    def error(self, message: str):  # noqa: ANN201 (argparse's signature: never returns)
        dashed = [word for word in self._words if self._unknown_option(word)]
        if dashed and "--" not in self._words:
            verb = self.prog.rsplit(" ", 1)[-1]
            message += (f" (to give {dashed[0]} as text, not as an option, put -- before it, after "
                        f"every option: kb {verb} [OPTIONS] -- {shlex.quote(dashed[0])})")
        super().error(message)

    def _unknown_option(self, word: str) -> bool:
        """Whether argparse takes ``word``, written with one dash, for an option this parser does not have
        (a word with two is a mistyped option, and "-jsonl" for --jsonl is said by the command line)."""
        if not word.startswith("-") or word.startswith("--") or word == "-" or " " in word \
                or _NEGATIVE_NUMBER.match(word):
            return False
        name = word.split("=", 1)[0]
        return not any(option.startswith(name) or option == "-" + name for option in self._option_string_actions)


_NEGATIVE_NUMBER = re.compile(r"^-\d+$|^-\d*\.\d+$")  # argparse reads these as values, not options


def _leaf_flags(parser: argparse.ArgumentParser) -> None:
    """The shared flags on a sub-command too, so they work before or after it (``kb --data-dir D add``
    and ``kb add --data-dir D``). Unset, they are left out of the namespace: argparse copies a
    sub-command's values over its parent's, and an unset flag must not undo the one given before it."""
    from ..cliargs import add_shared_flags

    before = len(parser._actions)
    add_shared_flags(parser)
    for action in parser._actions[before:]:
        action.default = argparse.SUPPRESS


class _SettingRange:
    """An argparse type: a whole number in the range the settings schema allows for ``key``."""

    def __init__(self, key: str) -> None:
        from ..settings import OPTIONS

        option = OPTIONS[key]
        assert option.minimum is not None and option.maximum is not None, key
        self.low, self.high = int(option.minimum), int(option.maximum)
        self.allowed = f"{self.low} to {self.high}"

    def __call__(self, text: str) -> int:
        value = _whole_number(text)
        if value is None or not self.low <= value <= self.high:
            raise argparse.ArgumentTypeError(f"must be a whole number from {self.allowed}, not {text!r}")
        return value


def _source_id(text: str) -> int:
    value = _whole_number(text)
    if value is None or not 1 <= value <= _SQLITE_MAX_INT:
        raise argparse.ArgumentTypeError(f"{text!r} is not a source id (a whole number from 1, see kb list)")
    return value


def _whole_number(text: str) -> int | None:
    try:
        return int(text.strip())
    except ValueError:  # also refuses digit strings too long for int() to read
        return None


def _not_empty(what: str) -> Callable[[str], str]:
    """An argparse type refusing blank text: an unset shell variable ("$DIR") must not mean "this folder"."""

    def check(text: str) -> str:
        name, kind = text.strip(), what
        if name.lower().startswith("wikipedia:"):  # wikipedia:TITLE with the title left out
            name, kind = name[len("wikipedia:"):].strip(), "Wikipedia title"
        if not name:
            raise argparse.ArgumentTypeError(f"an empty {kind} was given (is a shell variable unset?); "
                                             "nothing was imported")
        return text

    return check


def _printable(text: str) -> str:
    """``text`` on one line: control characters shown escaped (\\n, \\x1b), so a file name cannot break
    the layout or drive the terminal; so are the bytes of a file name that is not UTF-8 (\\udcff), which
    no UTF-8 stream or log file can write as they are; and the bidi controls that would show it reversed."""
    if text.isprintable():
        return text
    return "".join(repr(ch)[1:-1] if unicodedata.category(ch) in ("Cc", "Zl", "Zp", "Cs") or ch in BIDI_CONTROLS
                   else ch for ch in text)


def _context(args: argparse.Namespace, *, create: bool = True):  # -> cliargs.Context
    from ..cliargs import context_from_args

    ctx = context_from_args(args, create=create)
    for warning in ctx.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    return ctx


class _ProgressLine:
    """Progress on stderr: one overwritten line on a terminal. Elsewhere (a log file, a pipe) a line for
    the first source and then one every ``every`` seconds, so that importing 10,000 files does not write
    10,000 lines of log, and a long one still shows it is moving; with ``every_source`` (``--progress``,
    as git's), a line per source."""

    every = 10.0

    def __init__(self, stream: TextIO, clock: Callable[[], float] = time.monotonic, every_source: bool = False) -> None:
        from ..cliterm import isatty

        self.stream = stream
        self.tty = isatty(stream)
        self.shown = 0  # the columns the line on the terminal takes: what the next one covers with spaces
        self.clock = clock
        self.every_source = every_source  # kb add --progress: a line per source in a log too
        self.printed_at: float | None = None
        self.last = None  # the latest kb.Progress: where an interrupted import was

    def listing(self) -> None:
        """Said before the first source while the folders named are listed, as the Knowledge panel says it: /usr
        took 9 s, with nothing on the screen."""
        if self.tty:
            self._overwrite(LISTING)
        elif self.every_source:
            self.stream.write(LISTING + "\n")
        else:
            return
        self.stream.flush()

    def __call__(self, progress) -> None:  # kb.Progress
        self.last = progress
        if not progress.current:
            self.blank()
            return
        count = f"[{progress.number}/{progress.total}] "
        if self.tty:
            # One row, or "\r" rewinds only the last of those it wrapped onto: one column short of the
            # terminal's width (a full row wraps on some terminals), the path shortened in its middle so
            # the file's name shows.
            self._overwrite(count + _shortened(_printable(hide_password(progress.current)),
                                               self._columns() - 1 - _width(count)))
        else:
            now = self.clock()
            if not self.every_source and self.printed_at is not None and now - self.printed_at < self.every \
                    and progress.current != WAITING:  # a wait is said at once, in a log too
                return
            self.printed_at = now
            self.stream.write(count + _printable(hide_password(progress.current)) + "\n")
        self.stream.flush()

    def blank(self) -> None:
        """On a terminal, the line blanked, the cursor at its start (where the summary goes)."""
        if self.tty:
            self._overwrite("")
            self.stream.write("\r")
            self.stream.flush()

    def _overwrite(self, line: str) -> None:
        """``line`` over the one before, whose end it covers with spaces. Not the ANSI erase ("\\033[K"):
        TERM=dumb (Emacs's shell) showed it as "^[[K", and Windows' console, which acts on it only when a
        program asks, as "←[K"; "\\r" and spaces work on every terminal."""
        width = _width(line)
        # no further than the terminal's width now: made narrower since, the spaces wrapped onto a second row
        self.stream.write("\r" + line + " " * (min(self.shown, self._columns() - 1) - width))
        self.shown = width

    def _columns(self) -> int:
        """The terminal's width now (it may have been resized), as ``ask`` reads it (cliterm.columns: a
        terminal that says 0 columns has 80), and at least 20."""
        from ..cliterm import columns

        return max(columns(self.stream), 20)


def _char_width(ch: str) -> int:
    """The columns a character takes on a terminal: two for wide ones (漢), none for combining accents."""
    if unicodedata.combining(ch):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def _width(text: str) -> int:
    return sum(_char_width(ch) for ch in text)


def _head(text: str, columns: int) -> str:
    """The start of ``text`` that fits in ``columns``."""
    used = 0
    for at, ch in enumerate(text):
        used += _char_width(ch)
        if used > columns:
            return text[:at]
    return text


def _tail(text: str, columns: int) -> str:
    """The end of ``text`` that fits in ``columns``."""
    return _head(text[::-1], columns)[::-1]


def _shortened(path: str, columns: int) -> str:
    """``path`` in ``columns`` at most, cut in its middle ("/home/me/…/notes/plan.md"): its name is what
    tells which file is being read, so it is kept whole while it fits, then its end (with its suffix)."""
    if _width(path) <= columns:
        return path
    columns = max(columns, 2)
    folder, sep, name = path.rpartition("/")
    if not sep or _width(name) + 2 > columns:  # "…" and as much of the name's end as fits
        return "…" + _tail(name or path, columns - 1)
    return _head(folder, columns - 2 - _width(name)) + "…/" + name


def _add(args: argparse.Namespace) -> int:
    from ..paths import expand_home
    from . import Error, ImportItem, Importer, open_store
    from .embed import Embedder
    from .unfinished import cut_short

    items = [_item(i) for i in args.items] + [ImportItem("wikipedia", t) for t in args.wikipedia]
    if not items:
        print("kb add: name at least one file, folder, URL or --wikipedia TITLE.", file=sys.stderr)
        return 2
    ctx = _context(args)
    try:
        kb = open_store(ctx.data_dir)
    except Error as exc:
        print(f"error: {exc}", file=sys.stderr)
        log.warning("kb add: %s", exc, exc_info=True)  # the data folder's log: SQLite's own error included
        return 1
    assert kb is not None
    _say_removed_own(kb)
    for note in cut_short(ctx.data_dir):  # killed mid-import: said once, with what to do
        print(f"note: {note}", file=sys.stderr)
    embedder = Embedder.from_settings(ctx.settings)
    chunk_size = args.chunk_size if args.chunk_size is not None else int(ctx.settings["chunk_size"])
    progress = _ProgressLine(sys.stderr, every_source=args.progress)
    importer = Importer(kb, chunk_size=chunk_size, settings=ctx.settings,
                        on_progress=progress, embedder=embedder, force=args.force)
    if any(i.kind == "path" and i.value.strip() and os.path.isdir(expand_home(i.value, keep_unknown=True))
           for i in items):  # a folder: listing it may take seconds (a file or a web address is listed at once)
        progress.listing()
    try:
        report = importer.run(items)
        if progress.shown:  # it ended before any source was read ("Listing…" still there)
            progress.blank()
    except KeyboardInterrupt:
        # Ctrl+C lands anywhere: reading a file, or storing the ones read in the last moments (which it
        # leaves out). Each source is stored whole or not at all; the report counts those committed (it said
        # "after 0 of 4 sources", the progress line's count, when the one being read had been stored whole).
        stored = len(importer.report.added) + len(importer.report.updated)
        total = f" of {progress.last.total}" if progress.last else ""
        where = f" after {stored}{total} source{'' if stored == 1 and not total else 's'} stored"
        print(f"\ninterrupted{where}: each source is stored whole or not at all. Run the same kb add again to "
              "import the rest (sources already stored and unchanged are skipped).", file=sys.stderr)
        log.info("kb add interrupted%s", where)
        return 130
    finally:
        kb.close()
        if embedder is not None:
            embedder.close()
    for failure in report.failed:
        # a URL's password is not repeated on screen, nor kept in the log where anyone reading it sees it
        location = _printable(hide_password(failure.location))
        print(f"failed: {location}: {_printable(failure.reason)}", file=sys.stderr)
        log.warning("kb add: %s failed: %s", location, failure.reason)
    for skip in report.skipped:
        print(f"skipped: {_printable(hide_password(skip.location))}: {_printable(skip.reason)}", file=sys.stderr)
    for location in report.removed:
        print(f"removed: {_printable(location)}: deleted from its folder", file=sys.stderr)
    for note in report.notes:
        print(f"note: {_printable(hide_password(note.location))}: {_printable(note.reason)}", file=sys.stderr)
    if report.offline:  # the command line asked for what its own settings forbid: say how to allow it
        print(_how_to_go_online(args, ctx.data_dir), file=sys.stderr)
    print(report.summary())
    if args.chunk_size is not None and report.unchanged and not args.force:  # said: it seemed ignored
        print(f"note: --chunk-size applies to what is read now; {len(report.unchanged):,} unchanged "
              f"source{'s keep their' if len(report.unchanged) != 1 else ' keeps its'} passages (add --force to "
              "cut them again).", file=sys.stderr)
    return _add_status(report)


def _add_status(report) -> int:  # report: kb.ImportReport
    """``kb add``'s exit status: 1 when any source failed, even beside others imported (a script reading
    only the status took a folder with one unreadable PDF for imported whole); when the import stopped (the
    disk is full: what was not tried is not imported); or when what was named was all skipped (a scanned
    PDF with no text), so that a script does not take it for imported. Files a folder holds that are not
    imported by design (hidden, unsupported, too large) are skips, not failures. 2 when the network being
    off was all that failed."""
    stored = report.added or report.updated or report.unchanged
    failed = [f for f in report.failed if f.location not in report.offline]
    if report.stopped or failed or (report.skipped and not stored):
        return 1
    return 2 if report.offline else 0


def _how_to_go_online(args: argparse.Namespace, data_dir: Path) -> str:
    """What to do to import the web pages and Wikipedia articles an offline ``kb add`` left out: drop
    --offline, turn on Network tools in Settings, or both."""
    from ..settings import load_settings

    turn_on = "turn on Network tools in Settings (\"network_tools\": true in settings.json)"
    if getattr(args, "offline", None) is not False:
        why, todo = "Network tools are off in Settings (offline mode)", turn_on
    elif not load_settings(data_dir)[0]["network_tools"]:
        why, todo = "--offline turns the network off", f"{turn_on}, then run the same kb add without --offline"
    else:
        why, todo = "--offline turns the network off", "run the same kb add without --offline"
    return f"note: {why}, so no web page or Wikipedia article was downloaded; {todo} to import them."


_OTHER_SCHEME = re.compile(r"^(?!file:)[a-z][a-z0-9+.-]+://", re.IGNORECASE)


def _item(text: str):  # -> kb.ImportItem
    """What ``kb add TEXT`` imports. An address of a scheme other than http(s) and file (``ftp://``, a
    typed ``htp://``) that names no file here is taken for the web address it looks like, so that the
    import says which addresses it can read, not "no such file or folder" of a path it mangled."""
    from . import ImportItem

    item = ImportItem.parse(text)
    if item.kind == "path" and _OTHER_SCHEME.match(text.strip()) and not os.path.lexists(text):
        return ImportItem("url", text.strip())
    return item


def _no_knowledge_base(data_dir: Path) -> str:
    """What to say when ``data_dir`` holds no knowledge base (the folder may not even exist)."""
    if data_dir.is_dir():
        return "the knowledge base is empty"
    return f"the knowledge base is empty: there is no data folder {_printable(str(data_dir))} yet (kb add creates it)"


def _search(args: argparse.Namespace) -> int:
    import asyncio

    from . import Error, db_path, has_documents, query_terms, search
    from .embed import query_vector
    from .excerpt import also_in, preview

    if not args.text.strip():  # as ``ask ""``: a wrong command line (an unset shell variable), not "no matches"
        print("The search text is empty: give the words to look for.", file=sys.stderr)
        return 2
    ctx = _context(args, create=False)
    if not db_path(ctx.data_dir).exists():
        print(_no_knowledge_base(ctx.data_dir), file=sys.stderr)
        return 0
    from .own_data import sweep

    for note in sweep(ctx.data_dir):  # settings.json imported by an older version: removed before searching
        print(f"note: {note}", file=sys.stderr)
    k = args.k if args.k is not None else int(ctx.settings["k"])
    model = str(ctx.settings["embed_model"] or "")
    vector, problem = asyncio.run(query_vector(ctx.settings, args.text))
    if problem:
        print(f"warning: keyword search only, the embedding failed: {problem}", file=sys.stderr)
    try:
        hits = search(ctx.data_dir, args.text, k, query_vector=vector, vector_model=model)
    except Error as exc:
        print(f"error: {_read_error(exc, db_path(ctx.data_dir))}", file=sys.stderr)
        return 1
    for old, new in hits.corrected.items():
        print(f"searched for {_printable(new)!r} instead of {_printable(old)!r}, which no passage uses",
              file=sys.stderr)
    for word in hits.missing:
        print(f"no passage mentions {_printable(word)!r}: these match the other words", file=sys.stderr)
    words = [hits.corrected.get(word, word) for word in query_terms(args.text)] if hits else []
    for n, hit in enumerate(hits, start=1):
        if args.jsonl:
            row = {"source_id": hit.source_id, "title": hit.title, "location": hit.location,
                   "score": round(hit.score, 4), "text": hit.text, "heading": hit.heading,
                   "anchor": hit.anchor,  # the id in its HTML page the passage is under; null without one
                   "also_in": list(hit.copies)}  # the other sources holding the same passage
            print(json_line(row, sys.stdout), flush=True)
        else:
            print(f"[{n}] {_printable(hit.heading or hit.title)}  (score {hit.score:.2f}, source {hit.source_id})")
            print(f"    {_printable(hit.location)}")
            if hit.copies:  # the same passage in other files: one result, not one each
                print(f"    also in: {_printable(also_in(hit.location, hit.copies))}")
            # a passage is the document's text: its escape sequences (a log file's colours, a hostile
            # page's "set the window title") are shown, not sent to the terminal
            # from where the words are, as the Search tab shows it: a log's matching line was cut off
            shown = preview(hit.text, limit=400, words=words, keep_lines=True)
            print("    " + "\n    ".join(_printable(line.expandtabs(4)) for line in shown.split("\n")))
            print()
    if not hits and not args.jsonl:
        if vector is None and not query_terms(args.text):
            print(f"no matches: {_printable(args.text)!r} has no words to search for (symbols, emoji and "
                  "punctuation are left out); search with words your documents use", file=sys.stderr)
        elif not has_documents(ctx.data_dir):  # all removed since: nothing was searched
            print(_no_knowledge_base(ctx.data_dir), file=sys.stderr)
        elif hits.common:  # "what is it": not searched, as every passage has such words
            print(f"no matches: {hits.note()}", file=sys.stderr)
        else:
            print("no matches", file=sys.stderr)
    return 0


def _read_error(exc: Exception, path: Path) -> str:
    """What to say when reading the knowledge base at ``path`` failed: SQLite's own words ("database disk
    image is malformed") told as what happened and what to do, as the store words its own failures."""
    import sqlite3

    from .errors import StoreError
    from .store_file import store_error

    if type(exc) is StoreError and isinstance(exc.__cause__, sqlite3.Error):
        return str(store_error(path, exc.__cause__, f"The knowledge base {path} cannot be read"))
    return str(exc)


_FAILED = object()


def _existing_store(args: argparse.Namespace, to_list: bool = False):
    """The knowledge base in the data folder; None when there is none (said on stderr), or _FAILED (likewise).
    Creates nothing: not the data folder, not the database. ``to_list``: on a full disk, opened to read only."""
    from . import Error, open_store

    data_dir = _context(args, create=False).data_dir
    try:
        kb = open_store(data_dir, create=False, to_list=to_list)
    except Error as exc:
        print(f"error: {exc}", file=sys.stderr)
        return _FAILED
    if kb is None:
        print(_no_knowledge_base(data_dir), file=sys.stderr)
    else:
        _say_removed_own(kb)
    return kb


def _say_removed_own(kb) -> None:  # kb: store.KnowledgeBase
    """Say the sources an older version imported from the data folder, which opening ``kb`` removed."""
    from .own_data import said

    if kb.removed_own:
        print(f"note: {said(kb.removed_own)}", file=sys.stderr)


def _list(args: argparse.Namespace) -> int:
    from .readers import type_name

    kb = _existing_store(args, to_list=True)
    if kb is _FAILED:
        return 1
    if kb is None:
        return 0
    from .store import local_time

    with kb:
        sources = kb.sources()
        if not sources:  # all removed since (kb remove): printing nothing looked like a command that did not run
            print("the knowledge base is empty", file=sys.stderr)
        for s in sources:
            if args.jsonl:
                print(json_line({"source_id": s.id, "title": s.title, "location": s.location, "type": s.type,
                                 "chunks": s.chunk_count, "size": s.size, "imported_at": s.imported_at}, sys.stdout))
            else:
                chunks = "chunk " if s.chunk_count == 1 else "chunks"
                print(f"{s.id:>5}  {type_name(s.type):<9} {s.chunk_count:>5} {chunks}  {local_time(s.imported_at)}  "
                      f"{_printable(s.title)}\n       {_printable(s.location)}")
    if kb.notice:  # a full disk: listed all the same
        print(f"note: {kb.notice}", file=sys.stderr)
    return 0


def _remove(args: argparse.Namespace) -> int:
    kb = _existing_store(args)
    if kb is _FAILED:
        return 1
    from . import Error

    missing, removed, failed, compacted = list(args.source_ids), 0, False, None
    if kb is not None:
        with kb:
            missing = []
            for sid in dict.fromkeys(args.source_ids):  # an id named twice is removed once, not "not found"
                try:
                    if kb.remove_source(sid):
                        removed += 1
                    else:
                        missing.append(sid)
                except Error as exc:  # read-only, full disk, locked: each source is removed whole or not at all
                    print(f"error: {exc}", file=sys.stderr)
                    failed = True
                    break
            if removed:  # the free pages of a large removal given back to the disk (compact.py)
                from .compact import compact_if_worth

                compacted = compact_if_worth(kb, lambda: print("compacting the knowledge base…", file=sys.stderr))
    for sid in missing:
        print(f"no source with id {sid}", file=sys.stderr)
    print(f"{removed} source removed" if removed == 1 else f"{removed} sources removed")
    if compacted is not None and compacted.done:
        print(compacted.done)
    if compacted is not None and compacted.not_done:  # no room on a disk: the removal stands all the same
        print(f"note: {compacted.not_done}.", file=sys.stderr)
    return 1 if missing or failed else 0
