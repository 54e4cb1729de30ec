"""``kb search --jsonl`` names each passage's anchor: the id in its HTML page the passage sits under."""

from __future__ import annotations

import json

from tests.kb.cli_run import run_main


def test_kb_search_jsonl_carries_the_anchor_beside_the_fixed_keys(tmp_path, capsys):
    docs, data = tmp_path / "docs", tmp_path / "data"
    docs.mkdir()
    (docs / "config.html").write_text(
        "<html><head><title>Server Configuration</title></head><body>"
        '<div class="sect1" id="RUNTIME-CONFIG"><h2>Server Configuration</h2><p>How the server is set up. '
        + "Each setting below is read when the server starts, from its configuration file. " * 12 + "</p>"
        '<dl><dt id="GUC-WORK-MEM">work_mem (integer)</dt><dd><p>Sets the base maximum amount of memory to be '
        "used by a query operation such as a sort or a hash table before writing to temporary disk files. "
        + "Several running sessions could be doing such operations at once. " * 6 + "</p>"
        "</dd></dl></div></body></html>", encoding="utf-8")
    (docs / "notes.md").write_text("# Notes\n\nThe sort of memory a person has for faces.\n", encoding="utf-8")
    assert run_main(capsys, "add", str(docs), "--data-dir", str(data))[0] == 0
    code, out, _ = run_main(capsys, "search", "--data-dir", str(data), "--jsonl", "--k", "5",
                            "memory of a hash table sort")
    assert code == 0
    rows = [json.loads(line) for line in out.splitlines()]
    assert {"source_id", "title", "location", "score", "text", "anchor"} <= set(rows[0])
    by_file = {row["location"].rsplit("/", 1)[-1]: row for row in rows}
    assert by_file["config.html"]["anchor"] == "GUC-WORK-MEM"
    assert by_file["config.html"]["text"].startswith("work_mem (integer)")
    assert by_file["config.html"]["title"] == "Server Configuration"
    assert by_file["notes.md"]["anchor"] is None  # printed as null
    assert '"anchor": null' in out
