"""When the rag route puts passages into the prompt: on-topic questions kept, off-topic ones left out.

The engine's rag route searches the knowledge base for every question that is not small talk or a tool
request, and puts the passages found into the prompt only when the best of them is about the question:
when it mentions at least ``tools.rag.RELEVANT_SHARE`` of the question's words, each word weighed by its IDF
(``kb.search._relevance``). This measures both sides over the manuals of ``bench_kb_quality.py``:

- on-topic: the benchmark's questions whose right page is in the top 5, and how many of them still get
  their passages into the prompt (a question left out loses them; the model can still search);
- off-topic: everyday questions about nothing in the manuals (``data/offtopic_everyday.txt``, and
  ``data/offtopic_near.txt``, questions near computing written after the threshold was chosen on the
  first set), and how many of them would get the manual's best guesses in their prompt anyway.

Measured when the gate was added (threshold 0.4; before it, every question got its passages):

- PostgreSQL: on-topic 85/85 dev, 43/43 held-out, 24/25 random-page; off-topic 10/40 everyday, 14/40
  near (39 and 36 without the gate)
- git: on-topic 43/43 held-out, 30/31 random-page; off-topic 10/40 everyday, 11/40 near (38 and 36)
- with a word's plural or singular counted as the word (``kb.coverage._singulars``: a question's "pancakes"
  found a note titled "Pancake recipe" a third relevant), added later: on-topic 85/42/24 and 43/31 kept (was
  30 of the git random-page set's 31), the typo sets 81, 85, 80, 85 (were 80, 84, 80, 85); off-topic 10/40 and
  14/40, 10/40 and 11/40, as before. Any "s" or "es" cut off (so "notes" was also "not"): off-topic 11/40
  everyday; any four letters after the stem instead: off-topic 12, 15, 13, 12.
- Debian Reference in Chinese and Japanese: not measured, so every question keeps its passages. Their
  terms are runs of characters and the pairs in them, which a passage seldom holds whole, so coverage was
  low for right and wrong passages alike (12 of 49 Chinese and 24 of 73 Japanese on-topic questions were
  at 0.4 or more). Weighed by their characters instead (a character counts when a pair holding it is in
  the passage; the reviewer's commit c2e1e6b, not kept): 36 of 49 and 62 of 73 on-topic kept, 5 of 40
  off-topic given passages; a quarter and a sixth of the right passages lost was judged too many.
- chosen on a first measurement (a script, the same formula counting words by full-text queries):
  PostgreSQL dev and held-out sets and the everyday set, thresholds 0.3 to 0.6, IDF with and without
  the 1,000-chunk prior and the one-chunk floor (the figures move by a question or two);
- plain word coverage (no IDF) above one half instead: on-topic 83, 42, 22, 41, 25; off-topic 2, 3 of 40
  everyday but 25 of 31 random-page git questions kept; at one half or more, 137 of 142 held-out kept and
  15 and 23 of 40 off-topic given passages. IDF-weighted coverage at 0.45 and 0.5: 84/43/23, 43/29 and
  84/41/21, 41/26 on-topic; 7-11 and 5-8 of 40 off-topic.

Typos (the development set with one seeded typing mistake a question, four seeds, as
``bench_kb_quality.py --typos`` makes them): the rag route first searched the question's words as typed,
so that a real word the manual lacks ("cats") would not be read as a typo of one it has ("cast"); a
mistyped key word then cost the passages: 68, 66, 62 and 62 questions got their right page into the
prompt (of 80, 79, 73 and 70 found). Since the English word list (``kb/words.py``) tells a typo from a
real word, only non-words are corrected: 80, 84, 80 and 85 (of 83, 86, 80 and 85 found), and every
off-topic figure above is unchanged (``--no-spelling`` gives the earlier figures).

    python benchmarks/bench_kb_relevance.py [--threshold 0.4] [--no-spelling]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_kb_quality import CORPORA, DATA, QUESTIONS, TYPO_SEED, load_questions, with_typos  # noqa: E402

from tinyrag_desktop.tools.rag import RELEVANT_SHARE as PROMPT_RELEVANCE  # noqa: E402
from tinyrag_desktop.kb import Importer, open_store, search, words  # noqa: E402

OFF_TOPIC = {"English": [DATA / "offtopic_everyday.txt", DATA / "offtopic_near.txt"],
             "Chinese": [DATA / "offtopic_zh.txt"], "Japanese": [DATA / "offtopic_ja.txt"]}


def _lines(path: Path) -> list[str]:
    return [line.strip() for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip() and not line.startswith("#")]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threshold", type=float, default=PROMPT_RELEVANCE,
                        help=f"the share of the question the best passage must mention (the app's: {PROMPT_RELEVANCE})")
    parser.add_argument("--no-spelling", action="store_true",
                        help="search the words as typed (as the rag route did before it could tell typos from words)")
    args = parser.parse_args()
    # as the rag route searches: typos corrected when the English word list tells them from real words
    spelling = words.available() and not args.no_spelling
    for corpus in CORPORA:
        if not corpus.folder.is_dir() or not corpus.pages(corpus.folder):
            print(f"SKIPPED {corpus.name}: {corpus.folder} is not installed (apt-get install the package named above).")
            continue
        with tempfile.TemporaryDirectory() as tmp:
            data = Path(tmp)
            with open_store(data) as kb:
                report = Importer(kb).run(corpus.pages(corpus.folder))
            print(f"{corpus.name}: {report.summary()}")
            sets = [(name, path, load_questions(path)) for name, path in corpus.sets]
            if QUESTIONS in {path for _, path, _ in sets}:
                dev = load_questions(QUESTIONS)
                sets += [(f"development set, one typo a question (seed {seed})", QUESTIONS, with_typos(dev, seed))
                         for seed in (TYPO_SEED, 1, 2, 3)]
            for set_name, path, questions in sets:
                found = kept = 0
                for question, pages in questions:
                    hits = search(data, question, 5, spelling=spelling)
                    if any(corpus.page(h.location) in {p.split("#")[0] for p in pages} for h in hits):
                        found += 1
                        kept += hits.relevance is None or hits.relevance >= args.threshold
                print(f"  on-topic, {set_name} ({path.name}): {kept} of the {found} found keep their passages")
            for path in OFF_TOPIC[corpus.language]:
                questions = _lines(path)
                given = sum(1 for q in questions if (hits := search(data, q, 5, spelling=spelling))
                            and (hits.relevance is None or hits.relevance >= args.threshold))
                print(f"  off-topic ({path.name}): {given} of {len(questions)} would get passages "
                      f"(without the gate: {sum(1 for q in questions if search(data, q, 5, spelling=spelling))})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
