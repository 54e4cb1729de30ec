"""The naive baseline for the retrieval benchmark: plain 800-character chunks searched with FTS5's BM25.

The knowledge-base issue quotes such a baseline (78% on its own question set) to say how hard a question
set is. This measures the same kind of baseline on ours (``bench_kb_quality.py``'s questions and
corpora), so the two sets' figures can be compared: each page's readable text (navigation removed, as
the app reads it) is cut every 800 characters at a word boundary, with no title or heading, and the
question's words are OR-ed in one FTS5 query with the app's tokenizer and stop words. A question counts
as found when a wanted page is the source of one of the top 5 chunks, or, in the second figure, of one of
the first 5 distinct pages.

    python benchmarks/bench_kb_baseline.py
"""

from __future__ import annotations

import sqlite3
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_kb_quality import CORPORA, DEV_SETS, load_questions  # noqa: E402
from tinyrag_desktop.kb.errors import ReadError  # noqa: E402
from tinyrag_desktop.kb.html_reader import parse_html  # noqa: E402
from tinyrag_desktop.kb.query_words import match_expression, query_terms  # noqa: E402
from tinyrag_desktop.kb.store_file import TOKENIZER  # noqa: E402
from tinyrag_desktop.kb.textform import index_form  # noqa: E402

SIZE = 800
K = 5


def plain_chunks(text: str) -> list[str]:
    chunks, start = [], 0
    while start < len(text):
        end = min(len(text), start + SIZE)
        if end < len(text) and (cut := text.rfind(" ", start, end)) > start:
            end = cut
        chunks.append(text[start:end].strip())
        start = end
    return [c for c in chunks if c]


def index(folder: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(":memory:")
    conn.execute(f"CREATE VIRTUAL TABLE plain USING fts5(page UNINDEXED, text, tokenize='{TOKENIZER}')")
    for path in sorted(folder.rglob("*.html")):
        try:
            doc = parse_html(path.read_bytes(), path.name)
        except ReadError:
            continue
        text = " ".join(" ".join(block.text.split()) for block in doc.blocks)
        conn.executemany("INSERT INTO plain(page, text) VALUES (?, ?)",
                         ((str(path), index_form(c)) for c in plain_chunks(text)))
    return conn


def found(conn: sqlite3.Connection, question: str, pages: set[str], page) -> tuple[bool, bool]:
    terms = query_terms(question)
    rows = conn.execute("SELECT page FROM plain WHERE plain MATCH ? ORDER BY bm25(plain) LIMIT 200",
                        (match_expression(terms),)).fetchall() if terms else []
    got = [page(location) for (location,) in rows]
    distinct = list(dict.fromkeys(got))
    return bool(pages & set(got[:K])), bool(pages & set(distinct[:K]))


def main() -> int:
    totals = {"dev": [0, 0, 0], "held-out": [0, 0, 0]}
    # The baseline is stated for English documentation; the Chinese and Japanese sets are not run here.
    for corpus in (c for c in CORPORA if c.language == "English"):
        if not corpus.folder.is_dir():
            print(f"SKIPPED {corpus.name}: {corpus.folder} is not installed.")
            continue
        conn = index(corpus.folder)
        name = corpus.name
        for set_name, path in corpus.sets:
            questions = load_questions(path)
            hits = [found(conn, q, pages, corpus.page) for q, pages in questions]
            chunks, distinct = sum(h[0] for h in hits), sum(h[1] for h in hits)
            print(f"{name}, {set_name} ({path.name}): top {K} chunks {chunks}/{len(hits)}, "
                  f"first {K} pages {distinct}/{len(hits)}")
            total = totals["dev" if path in DEV_SETS else "held-out"]
            total[0], total[1], total[2] = total[0] + chunks, total[1] + distinct, total[2] + len(hits)
    for label, (chunks, distinct, count) in totals.items():
        if count:
            print(f"{label}: plain {SIZE}-character chunks, BM25: recall@{K} {chunks / count:.1%} ({chunks}/{count}) "
                  f"by chunks, {distinct / count:.1%} ({distinct}/{count}) by distinct pages")
    return 0


if __name__ == "__main__":
    sys.exit(main())
