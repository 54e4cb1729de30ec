"""A searched word that no passage holds is said, not dropped in silence: "invoice 99817" found invoices, all at
score 1.00, and nothing said that none of them is invoice 99817."""

from __future__ import annotations

import subprocess
import sys

from tinyrag_desktop.kb import Importer, open_store, search
from tinyrag_desktop.tools.rag import format_hits


def _notes(tmp_path, data_dir):
    (tmp_path / "inv.md").write_text("# Invoices\n\nInvoice numbers are printed on the top right.\n", encoding="utf-8")
    (tmp_path / "park.md").write_text("# Parking\n\nPark in garage B.\n", encoding="utf-8")
    with open_store(data_dir) as kb:
        Importer(kb).run([str(tmp_path / "inv.md"), str(tmp_path / "park.md")])


def test_the_words_no_passage_holds_are_listed_with_the_hits(tmp_path, data_dir):
    _notes(tmp_path, data_dir)
    hits = search(data_dir, "invoice number 99817 giraffe", 5)
    assert hits and hits[0].title == "Invoices"
    assert hits.missing == ("99817", "giraffe")
    assert hits.note() == "No passage mentions “99817” or “giraffe”: these match the other words."
    assert hits.note(missing=False) == ""
    assert search(data_dir, "invoice number", 5).missing == ()  # every word found: nothing to say
    assert search(data_dir, "zzqx", 5).missing == ()  # no hits: "no passages match" says it all


def test_the_model_is_told_too_but_not_of_a_questions_everyday_words_in_the_prompt(tmp_path, data_dir):
    _notes(tmp_path, data_dir)
    hits = search(data_dir, "invoice 99817", 5)
    told = format_hits("invoice 99817", hits)
    assert told.startswith("No passage mentions “99817”: these match the other words.\n\n[1] Invoices")
    # the rag route's passages, put into the prompt for a question: "quickly" missing is no news
    assert format_hits("invoice 99817", hits, missing=False).startswith("[1] Invoices")


def test_kb_search_says_it_on_stderr(tmp_path, data_dir):
    _notes(tmp_path, data_dir)
    done = subprocess.run([sys.executable, "-m", "tinyrag_desktop", "kb", "--data-dir", str(data_dir), "search",
                           "invoice 99817"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "no passage mentions '99817': these match the other words" in done.stderr
    assert "Invoices" in done.stdout
