"""``kb search`` shows each passage from where the question's words are, as the Search tab does: it printed
a passage's first 400 characters, and the log line or CSV row that matched was cut off below them."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tinyrag_desktop.kb.excerpt import preview

from .cli_run import run_main


def test_kb_search_shows_the_matching_log_line(tmp_path, data_dir, capsys):
    log = tmp_path / "app.log"
    lines = [f"2026-12-01 10:{n % 60:02}:00 INFO worker-{n} processed job {n} ok" for n in range(2000)]
    log.write_text("\n".join(lines + ["2026-12-01 11:00:00 ERROR kerberos ticket expired for user wombat"]) + "\n")
    assert run_main(capsys, "--data-dir", str(data_dir), "add", str(log))[0] == 0
    code, out, _err = run_main(capsys, "--data-dir", str(data_dir), "search", "--k", "1", "kerberos wombat")
    assert code == 0
    assert "ERROR kerberos ticket expired for user wombat" in out, out
    assert "worker-0 " not in out  # from the words, not from the passage's start


def test_kb_search_shows_the_matching_csv_row(tmp_path, data_dir, capsys):
    rows = ["invoice,customer,amount"] + [f"{90000 + n},customer {n},{n * 3}.50" for n in range(3000)]
    (tmp_path / "invoices.csv").write_text("\n".join(rows) + "\n")
    assert run_main(capsys, "--data-dir", str(data_dir), "add", str(tmp_path / "invoices.csv"))[0] == 0
    code, out, _err = run_main(capsys, "--data-dir", str(data_dir), "search", "--k", "1", "invoice 92817")
    assert code == 0
    assert "customer 2817" in out, out


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=600),
       st.lists(st.text(min_size=1, max_size=12), max_size=4), st.booleans())
def test_any_passage_and_words_give_an_excerpt_of_its_own_text(text, words, keep_lines):
    shown = preview(text, limit=400, words=words, keep_lines=keep_lines)
    assert len(shown) <= 400 + 8 * 3 + 4  # the limit, and a "…" or " …" on a few of its lines
    for line in shown.split("\n"):
        core = line.removeprefix("… ").removeprefix("…").removesuffix(" …").removesuffix("…").strip()
        assert not core or core in " ".join(text.split()) or core in text
