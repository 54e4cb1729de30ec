"""The ``kb`` verb: ``kb add PATH|URL…``, ``kb search TEXT``, ``kb list`` and ``kb remove SOURCE_ID``.

``register(subparsers)`` stays light (argparse only); the knowledge base is imported when a verb runs.
Progress and failures go to stderr, results to stdout, so ``kb search --jsonl`` pipes cleanly.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TextIO


def register(subparsers: argparse._SubParsersAction) -> None:
    from ..cliargs import add_shared_flags

    kb = subparsers.add_parser("kb", help="build and search the local knowledge base",
                               description="Build and search the local knowledge base.")
    add_shared_flags(kb)
    verbs = kb.add_subparsers(dest="kb_command", metavar="COMMAND", required=True)

    add = verbs.add_parser("add", help="import files, folders, URLs or Wikipedia articles")
    add.add_argument("items", nargs="*", metavar="PATH|URL",
                     help="files, folders (read recursively), http(s) URLs, or wikipedia:TITLE")
    add.add_argument("--wikipedia", action="append", default=[], metavar="TITLE",
                     help="import the Wikipedia article with this title (in the settings' language)")
    add.add_argument("--force", action="store_true", help="re-import sources even when unchanged")
    add.add_argument("--chunk-size", type=int, metavar="CHARS", help="largest chunk (default: settings)")
    _leaf_flags(add)
    add.set_defaults(func=_add)

    find = verbs.add_parser("search", help="search the knowledge base")
    find.add_argument("text", metavar="TEXT")
    find.add_argument("--k", type=int, default=None, metavar="N", help="how many passages (default: settings)")
    find.add_argument("--jsonl", action="store_true", help="one JSON object per hit")
    _leaf_flags(find)
    find.set_defaults(func=_search)

    lst = verbs.add_parser("list", help="list the imported sources")
    lst.add_argument("--jsonl", action="store_true", help="one JSON object per source")
    _leaf_flags(lst)
    lst.set_defaults(func=_list)

    rm = verbs.add_parser("remove", help="remove sources by id (see kb list)")
    rm.add_argument("source_ids", nargs="+", type=int, metavar="SOURCE_ID")
    _leaf_flags(rm)
    rm.set_defaults(func=_remove)


def _leaf_flags(parser: argparse.ArgumentParser) -> None:
    """The shared flags on a sub-command too, so they work before or after it (``kb --data-dir D add``
    and ``kb add --data-dir D``). Unset, they are left out of the namespace: argparse copies a
    sub-command's values over its parent's, and an unset flag must not undo the one given before it."""
    from ..cliargs import add_shared_flags

    before = len(parser._actions)
    add_shared_flags(parser)
    for action in parser._actions[before:]:
        action.default = argparse.SUPPRESS


def _context(args: argparse.Namespace):  # -> cliargs.Context
    from ..cliargs import context_from_args

    ctx = context_from_args(args)
    for warning in ctx.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    return ctx


class _ProgressLine:
    """Progress on stderr: one overwritten line on a terminal, a line per source otherwise."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.tty = stream.isatty()

    def __call__(self, progress) -> None:  # kb.Progress
        if not progress.current:
            if self.tty:
                self.stream.write("\r\033[K")
            return
        line = f"[{progress.done + 1}/{progress.total}] {progress.current}"
        if self.tty:
            self.stream.write("\r\033[K" + line[:160])
        else:
            self.stream.write(line + "\n")
        self.stream.flush()


def _add(args: argparse.Namespace) -> int:
    from . import Error, ImportItem, Importer, open_store
    from .embed import Embedder

    items = [ImportItem.parse(i) for i in args.items] + [ImportItem("wikipedia", t) for t in args.wikipedia]
    if not items:
        print("kb add: name at least one file, folder, URL or --wikipedia TITLE.", file=sys.stderr)
        return 2
    ctx = _context(args)
    try:
        kb = open_store(ctx.data_dir)
    except Error as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    assert kb is not None
    embedder = Embedder.from_settings(ctx.settings)
    importer = Importer(kb, chunk_size=args.chunk_size or int(ctx.settings["chunk_size"]), settings=ctx.settings,
                        on_progress=_ProgressLine(sys.stderr), embedder=embedder, force=args.force)
    try:
        report = importer.run(items)
    except KeyboardInterrupt:
        print("\ninterrupted: sources stored so far are complete; the one being read was not stored.",
              file=sys.stderr)
        return 130
    finally:
        kb.close()
        if embedder is not None:
            embedder.close()
    for failure in report.failed:
        print(f"failed: {failure.location}: {failure.reason}", file=sys.stderr)
    for skip in report.skipped:
        print(f"skipped: {skip.location}: {skip.reason}", file=sys.stderr)
    print(report.summary())
    stored = report.added or report.updated or report.unchanged
    return 1 if report.failed and not stored else 0


def _search(args: argparse.Namespace) -> int:
    import asyncio

    from . import Error, search
    from .embed import query_vector

    ctx = _context(args)
    k = args.k if args.k is not None else int(ctx.settings["k"])
    model = str(ctx.settings["embed_model"] or "")
    vector, problem = asyncio.run(query_vector(ctx.settings, args.text))
    if problem:
        print(f"warning: keyword search only, the embedding failed: {problem}", file=sys.stderr)
    try:
        hits = search(ctx.data_dir, args.text, k, query_vector=vector, vector_model=model)
    except Error as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    for n, hit in enumerate(hits, start=1):
        if args.jsonl:
            row = {"source_id": hit.source_id, "title": hit.title, "location": hit.location,
                   "score": round(hit.score, 4), "text": hit.text, "heading": hit.heading}
            print(json.dumps(row, ensure_ascii=False), flush=True)
        else:
            print(f"[{n}] {hit.heading or hit.title}  (score {hit.score:.2f}, source {hit.source_id})")
            print(f"    {hit.location}")
            print("    " + hit.text[:400].replace("\n", "\n    "))
            print()
    if not hits and not args.jsonl:
        print("no matches", file=sys.stderr)
    return 0


_FAILED = object()


def _existing_store(args: argparse.Namespace):
    """The knowledge base in the data folder, None when there is none, or _FAILED (message printed)."""
    from . import Error, open_store

    try:
        return open_store(_context(args).data_dir, create=False)
    except Error as exc:
        print(f"error: {exc}", file=sys.stderr)
        return _FAILED


def _list(args: argparse.Namespace) -> int:
    kb = _existing_store(args)
    if kb is _FAILED:
        return 1
    if kb is None:
        print("the knowledge base is empty", file=sys.stderr)
        return 0
    with kb:
        for s in kb.sources():
            if args.jsonl:
                print(json.dumps({"source_id": s.id, "title": s.title, "location": s.location, "type": s.type,
                                  "chunks": s.chunk_count, "size": s.size, "imported_at": s.imported_at},
                                 ensure_ascii=False))
            else:
                print(f"{s.id:>5}  {s.type:<9} {s.chunk_count:>5} chunks  {s.imported_at}  {s.title}\n"
                      f"       {s.location}")
    return 0


def _remove(args: argparse.Namespace) -> int:
    kb = _existing_store(args)
    if kb is _FAILED:
        return 1
    missing = list(args.source_ids)
    if kb is not None:
        with kb:
            missing = [sid for sid in args.source_ids if not kb.remove_source(sid)]
    for sid in missing:
        print(f"no source with id {sid}", file=sys.stderr)
    removed = len(args.source_ids) - len(missing)
    print(f"{removed} source(s) removed")
    return 1 if missing else 0
