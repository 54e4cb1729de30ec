"""Killing an import halfway leaves whole sources only; the rag_knowledge tool and the kb command line."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest

from tinyrag_desktop.kb import open_store, search
from tinyrag_desktop.settings import defaults
from tinyrag_desktop.tools.rag import EMPTY_MESSAGE, TOOLS
from tinyrag_desktop.tools.registry import ToolContext

REPO = Path(__file__).resolve().parents[2]
_IMPORT_SCRIPT = """
import sys
from tinyrag_desktop.kb import Importer, open_store
kb = open_store(sys.argv[1])
def progress(p):
    print(p.done, flush=True)
Importer(kb, chunk_size=300, on_progress=progress).run([sys.argv[2]])
"""


def _committed(data_dir: Path) -> int:
    """How many sources another process sees stored (the import commits what it read every moment)."""
    with closing(sqlite3.connect(f"{(data_dir / 'knowledge.db').as_uri()}?mode=ro", uri=True)) as conn:
        return conn.execute("SELECT count(*) FROM sources").fetchone()[0]


def test_killed_import_leaves_every_source_complete_or_absent(tmp_path, data_dir):
    folder = tmp_path / "many"
    folder.mkdir()
    paragraph = "Sea otters float on their backs and crack shells on their chests. " * 40
    for n in range(400):
        (folder / f"doc{n:03}.md").write_text(f"# Doc {n}\n\n" + "\n\n".join([paragraph] * 12), encoding="utf-8")
    proc = subprocess.Popen([sys.executable, "-c", _IMPORT_SCRIPT, str(data_dir), str(folder)],
                            stdout=subprocess.PIPE, text=True, cwd=REPO)
    assert proc.stdout is not None
    for line in proc.stdout:  # wait until the import is well under way (40 sources committed), then kill it hard
        if int(line) >= 40 and _committed(data_dir) >= 40:
            break
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    proc.stdout.close()
    assert proc.returncode == -signal.SIGKILL
    kb = open_store(data_dir)
    sources = kb.sources()
    assert 40 <= len(sources) < 400
    assert kb.check_integrity() == []
    for source in sources:
        assert source.chunk_count == len(kb.chunks(source.id)) > 0
    kb.close()
    assert search(data_dir, "otters crack shells", 3)


async def _run_tool(data_dir: Path, query: str, **settings):
    (spec,) = TOOLS
    ctx = ToolContext(settings=defaults().replace(**settings), data_dir=data_dir)
    return await spec.run(query, ctx)


async def test_tool_on_missing_or_empty_knowledge_base(data_dir):
    result = await _run_tool(data_dir, "anything")
    assert result.text == EMPTY_MESSAGE and result.source == ""
    open_store(data_dir).close()
    assert (await _run_tool(data_dir, "anything")).text == EMPTY_MESSAGE


async def test_tool_numbers_passages_with_sources(sample_dir, data_dir):
    from tinyrag_desktop.kb import Importer

    kb = open_store(data_dir)
    Importer(kb).run([str(sample_dir)])
    kb.close()
    result = await _run_tool(data_dir, "sourdough starter rye volcano", k=2)
    assert result.text.startswith("[1] Bread Guide > Sourdough\nSource: Bread Guide (")
    assert "rye flour" in result.text
    assert "[2] " in result.text and "[3] " not in result.text
    assert result.source.split("\n")[0] == str(sample_dir / "guide.md")
    none = await _run_tool(data_dir, "zzzqqq")
    assert "No passages" in none.text


async def test_tool_says_when_no_passage_is_clearly_about_the_query(sample_dir, data_dir):
    from tinyrag_desktop.kb import Importer

    with open_store(data_dir) as kb:
        Importer(kb).run([str(sample_dir)])
    near = await _run_tool(data_dir, "sourdough cathedral architecture gothic")  # one word of four
    assert near.text.startswith("None of these passages is clearly about “sourdough cathedral architecture gothic”")
    assert "[1] " in near.text  # the near misses are still there to judge
    about = await _run_tool(data_dir, "sourdough starter rye")
    assert about.text.startswith("[1] ")


def test_tool_spec():
    (spec,) = TOOLS
    assert (spec.name, spec.element, spec.icon) == ("rag_knowledge", "query", "🔍")


def _cli(data_dir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    script = ("import argparse, sys\nfrom tinyrag_desktop.kb.cli import register\n"
              "p = argparse.ArgumentParser(); register(p.add_subparsers(dest='verb'))\n"
              "a = p.parse_args(sys.argv[1:]); sys.exit(a.func(a))\n")
    return subprocess.run([sys.executable, "-c", script, "kb", *args, "--data-dir", str(data_dir)],
                          capture_output=True, text=True, cwd=REPO, timeout=120)


@pytest.mark.slow
def test_cli_add_search_list_remove(sample_dir, data_dir, tmp_path):
    (sample_dir / "empty.txt").write_bytes(b"")
    added = _cli(data_dir, "add", "--progress", str(sample_dir))
    assert added.returncode == 0, added.stderr
    assert "10 added" in added.stdout
    assert "[11/11]" in added.stderr  # a line per source: --progress
    assert "skipped: " in added.stderr and "empty.txt: the file is empty" in added.stderr
    found = _cli(data_dir, "search", "shield volcano", "--k", "2", "--jsonl")
    rows = [json.loads(line) for line in found.stdout.splitlines()]
    assert rows and set(rows[0]) >= {"source_id", "title", "location", "score", "text"}
    assert rows[0]["location"] == str(sample_dir / "page.html")
    listed = _cli(data_dir, "list", "--jsonl")
    sources = [json.loads(line) for line in listed.stdout.splitlines()]
    assert len(sources) == 10
    removed = _cli(data_dir, "remove", str(rows[0]["source_id"]))
    assert removed.returncode == 0 and "1 source removed" in removed.stdout
    assert _cli(data_dir, "remove", "99999").returncode == 1
    again = _cli(data_dir, "search", "shield volcano", "--jsonl")
    assert all(json.loads(line)["location"] != str(sample_dir / "page.html") for line in again.stdout.splitlines())
    assert os.path.exists(data_dir / "knowledge.db")


@pytest.mark.slow
def test_cli_with_the_embedding_server_down_imports_text_and_searches_by_keywords(sample_dir, data_dir):
    down = ("--base-url", "http://127.0.0.1:9/v1")  # nothing listens there
    (data_dir / "settings.json").write_text(json.dumps({"embed_model": "nomic-embed-text"}), encoding="utf-8")
    added = _cli(data_dir, "add", str(sample_dir / "page.html"), *down)
    assert added.returncode == 0, added.stderr
    assert "1 added" in added.stdout and "1 stored without embeddings" in added.stdout
    found = _cli(data_dir, "search", "shield volcano", "--jsonl", *down)
    assert found.returncode == 0 and "Traceback" not in found.stderr
    assert "warning: keyword search only, the embedding failed: the embedding server could not be reached" in found.stderr
    assert json.loads(found.stdout.splitlines()[0])["location"] == str(sample_dir / "page.html")


def test_long_passages_are_shortened_so_every_source_fits():
    from tinyrag_desktop.kb import Hit
    from tinyrag_desktop.tools.rag import format_hits

    hits = [Hit(n, n, f"Title {n}", f"/doc{n}.md", f"Title {n} > Part", "word " * 2000, 1.0) for n in range(1, 6)]
    text = format_hits("q", hits, max_chars=4000)
    assert len(text) <= 4000
    assert all(f"[{n}] Title {n} > Part\nSource: Title {n} (/doc{n}.md)" in text for n in range(1, 6))
    short = [Hit(1, 1, "T", "/a", "T > S", "brief text", 1.0)]
    assert format_hits("q", short, max_chars=4000).endswith("brief text")


def test_the_empty_knowledge_base_names_the_panel_as_the_window_does():
    # "add documents with the Knowledge panel": the window's panel and its menu item are "Knowledge base"
    assert "the Knowledge base panel (View → Knowledge base)" in EMPTY_MESSAGE
    assert "Knowledge panel" not in EMPTY_MESSAGE
