"""Retrieval quality: recall@5 on held-out everyday-language questions over the PostgreSQL 15 HTML manual.

Each question names the manual pages that answer it; a question counts as found when one of them is the
source of a top-5 passage. Two sets: ``data/pg15_questions.tsv`` (103 questions, the development set: the
search's stop words, everyday-word expansions and source ranking were tuned while looking at its misses)
and ``data/pg15_heldout.tsv`` (50 questions written before that tuning and never used for it). The
held-out figure is the honest one. The corpus is Debian's ``postgresql-doc-15``
(``apt-get install postgresql-doc-15``); without it the benchmark says so and exits 0.

    python benchmarks/bench_kb_quality.py [--verbose] [--k 5] [--corpus DIR] [--keep DIR]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tinyrag_desktop.kb import Importer, open_store, search  # noqa: E402

CORPUS = Path("/usr/share/doc/postgresql-doc-15/html")
QUESTIONS = Path(__file__).with_name("data") / "pg15_questions.tsv"
HELDOUT = Path(__file__).with_name("data") / "pg15_heldout.tsv"
TARGET = 0.92


def load_questions(path: Path) -> list[tuple[str, set[str]]]:
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            question, pages = line.split("\t")
            out.append((question, set(pages.split())))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--k", type=int, default=5)
    parser.add_argument("--keep", type=Path, help="build (or reuse) the knowledge base in this folder")
    parser.add_argument("--verbose", action="store_true", help="list the questions that were missed")
    parser.add_argument("--dev-only", action="store_true", help="only the development set (for tuning)")
    args = parser.parse_args()
    if not args.corpus.is_dir():
        print(f"SKIPPED: the corpus {args.corpus} is not installed "
              "(apt-get install postgresql-doc-15, or pass --corpus DIR).")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        data_dir = args.keep or Path(tmp)
        kb = open_store(data_dir)
        assert kb is not None
        started = time.perf_counter()
        report = Importer(kb).run([str(args.corpus)])
        kb.close()
        print(f"imported {args.corpus}: {report.summary()} in {time.perf_counter() - started:.1f} s")
        sets = [("development set", QUESTIONS)] + ([] if args.dev_only else [("held-out set", HELDOUT)])
        for name, path in sets:
            recall, found, total = evaluate(data_dir, load_questions(path), args.k, args.verbose)
            verdict = "meets" if recall >= TARGET else "BELOW"
            print(f"{name}: recall@{args.k} {recall:.1%} ({found}/{total} questions), "
                  f"{verdict} the {TARGET:.0%} target")
    return 0


def evaluate(data_dir: Path, questions: list[tuple[str, set[str]]], k: int, verbose: bool) -> tuple[float, int, int]:
    found = 0
    started = time.perf_counter()
    for question, pages in questions:
        hits = search(data_dir, question, k)
        got = [Path(h.location).name for h in hits]
        if pages & set(got):
            found += 1
        elif verbose:
            print(f"MISS  {question}\n      want {' '.join(sorted(pages))}\n      got  {' '.join(got)}")
    per_query = (time.perf_counter() - started) / len(questions) * 1000
    print(f"  ({per_query:.1f} ms per question)")
    return found / len(questions), found, len(questions)


if __name__ == "__main__":
    sys.exit(main())
