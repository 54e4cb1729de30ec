"""First run: the server probe against loopback servers on free ports, and the user guide's import."""

from __future__ import annotations

import json
import os
import shutil
import threading
import time
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.loopback import QuietHTTPServer
from tests.sse_server import ScriptedLLMServer, free_port
from tinyrag_desktop import kb
from tinyrag_desktop.firstrun import (
    GUIDE_MARKER, KnownServer, chat_models, guide_files, import_user_guide, is_first_run, probe_servers,
    refresh_user_guide,
)


class _Raw:
    """A loopback server answering GET /v1/models with a fixed status and body, or hanging."""

    def __init__(self, status: int = 200, body: str = "{}", hang: float = 0.0) -> None:
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802
                if outer.hang:
                    time.sleep(outer.hang)
                data = body.encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: Any) -> None:
                pass

        self.hang = hang
        self.httpd = QuietHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.httpd.server_address[1]

    def __enter__(self) -> "_Raw":
        threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def _port(server: ScriptedLLMServer) -> int:
    return int(server.base_url.rsplit(":", 1)[1].split("/")[0])


async def test_first_server_in_order_with_a_chat_model_wins() -> None:
    down = free_port()
    with ScriptedLLMServer(models=("nomic-embed-text",)) as embed_only, \
            ScriptedLLMServer(models=("all-minilm", "qwen2.5:0.5b", "llama3.2")) as chat, \
            ScriptedLLMServer(models=("mistral",)) as later:
        servers = [KnownServer("Ollama", down), KnownServer("LM Studio", _port(embed_only)),
                   KnownServer("llama.cpp server", _port(chat)), KnownServer("vLLM", _port(later))]
        result = await probe_servers(servers, timeout=2.0)
    assert result.found is not None
    assert (result.found.server_name, result.found.model) == ("llama.cpp server", "qwen2.5:0.5b")
    assert result.found.base_url == f"http://127.0.0.1:{_port(chat)}/v1"
    reasons = {a.server_name: a.reason for a in result.tried}
    assert [a.server_name for a in result.tried] == ["Ollama", "LM Studio", "llama.cpp server", "vLLM"]
    assert reasons["Ollama"] == "nothing answers there"
    assert "only embedding models (nomic-embed-text)" in reasons["LM Studio"]
    assert "llama.cpp server came first" in reasons["vLLM"]
    assert "Found llama.cpp server" in result.summary()


async def test_nothing_found_says_why_for_each_server() -> None:
    with _Raw(404, '{"error": "not found"}') as not_openai, _Raw(200, "<html>hi</html>") as html, \
            _Raw(200, '{"object": "list", "data": []}') as empty, _Raw(hang=3.0) as slow:
        servers = [KnownServer("A", not_openai.port), KnownServer("B", html.port),
                   KnownServer("C", empty.port), KnownServer("D", slow.port), KnownServer("E", free_port())]
        started = time.monotonic()
        result = await probe_servers(servers, timeout=0.5)
        elapsed = time.monotonic() - started
    assert result.found is None
    assert [a.reason for a in result.tried] == [
        "answered HTTP 404, not a model list", "answered, but not with a model list",
        "runs, but has no model loaded", "no answer in time", "nothing answers there"]
    assert elapsed < 2.5, "servers are probed at once, not one after another"
    assert result.summary().startswith("No local server with a chat model answered.")


@settings(max_examples=200, deadline=None)
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=12),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
                        st.sampled_from(["data", "models", "id", "name", "model", "x"]), inner, max_size=4),
                    max_leaves=20))
def test_chat_models_never_raises_on_any_json(payload: Any) -> None:
    chat, other = chat_models(json.loads(json.dumps(payload)))
    assert all(isinstance(n, str) and n.strip() for n in chat + other)
    assert not set(chat) & set(other)


def test_chat_models_reads_llama_cpp_and_openai_shapes() -> None:
    payload = {"models": [{"name": "smol.gguf", "model": "smol.gguf"}],
               "data": [{"id": "smol.gguf"}, {"id": "bge-m3"}, {"id": "text-embedding-3-small"}]}
    assert chat_models(payload) == (["smol.gguf"], ["bge-m3", "text-embedding-3-small"])


def test_the_shipped_guide_is_imported_once_and_stays_removed(tmp_path: Path) -> None:
    files = guide_files()
    assert len(files) >= 3, "resources/guide holds the user guide"
    report = import_user_guide(tmp_path)
    assert report is not None and not report.failed and len(report.added) == len(files)
    hits = kb.search(tmp_path, "how do I start Ollama", k=3)
    assert hits and any("ollama" in h.text.lower() for h in hits)
    store = kb.open_store(tmp_path)
    try:
        for source in store.sources():
            assert store.remove_source(source.id)
    finally:
        store.close()
    assert import_user_guide(tmp_path) is None  # removed by the user: not imported again
    assert not kb.has_documents(tmp_path)


def test_no_guide_folder_imports_nothing(tmp_path: Path) -> None:
    assert import_user_guide(tmp_path / "data", guide_dir=tmp_path / "missing") is None
    assert not (tmp_path / "data" / ".guide-imported").exists()


def _old_install(tmp_path: Path) -> Path:
    """The guide an older version shipped, in its own install folder: three of its four pages said other things."""
    old = tmp_path / "old" / "resources" / "guide"
    shutil.copytree(guide_files()[0].parent, old)
    for page in sorted(old.glob("*.md"))[:3]:
        page.write_text(page.read_text(encoding="utf-8") + "\nThe old version said OLDWORDING here.\n",
                        encoding="utf-8")
    return old


def _imported_by_an_older_version(data: Path, old: Path) -> None:
    """The guide imported at the first start of a version before the marker recorded which guide it was."""
    files = guide_files(old)
    store = kb.open_store(data)
    try:
        assert not kb.Importer(store).run([str(f) for f in files]).failed
    finally:
        store.close()
    (data / GUIDE_MARKER).write_text("\n".join(str(f) for f in files) + "\n", encoding="utf-8")


def _guide_sources(data: Path) -> dict[str, tuple[str, str]]:
    """{title: (the folder its file is in, its text)} of the knowledge base's sources."""
    store = kb.open_store(data)
    try:
        return {s.title: (str(Path(s.location).parent), " ".join(c.text for c in store.chunks(s.id)))
                for s in store.sources()}
    finally:
        store.close()


def test_after_an_upgrade_the_guide_in_the_knowledge_base_is_the_new_versions(tmp_path: Path) -> None:
    # A data folder used since an older version kept that version's guide: its pages, from the old install's
    # folder, with the old text (`kb list` showed 4 sources in a folder the upgrade had removed).
    data, old = tmp_path / "data", _old_install(tmp_path)
    _imported_by_an_older_version(data, old)
    before = _guide_sources(data)
    assert {folder for folder, _ in before.values()} == {str(old.resolve())}
    assert sum("OLDWORDING" in text for _, text in before.values()) == 3
    report = refresh_user_guide(data)
    assert report is not None and not report.failed
    after = _guide_sources(data)
    assert after.keys() == before.keys()  # the same titles, no more sources
    shipped = guide_files()[0].parent
    assert {folder for folder, _ in after.values()} == {os.path.realpath(shipped)}
    assert not any("OLDWORDING" in text for _, text in after.values())
    marker = json.loads((data / GUIDE_MARKER).read_text(encoding="utf-8"))
    assert sorted(marker["pages"]) == [f.name for f in guide_files()]
    # the next start: the same guide, nothing is imported (the sources keep their time of import)
    times = {s.title: s.imported_at for s in kb.open_store(data).sources()}
    assert refresh_user_guide(data) is None
    assert {s.title: s.imported_at for s in kb.open_store(data).sources()} == times


def test_a_guide_changed_in_the_same_place_is_read_again(tmp_path: Path) -> None:
    # an upgrade in place (the same install folder, new files): a marker of this version records the pages'
    # SHA-256, and a changed page is read again where it is
    data, guide = tmp_path / "data", _old_install(tmp_path)
    assert import_user_guide(data, guide_dir=guide) is not None
    assert refresh_user_guide(data, guide_dir=guide) is None  # unchanged
    page = sorted(guide.glob("*.md"))[-1]
    page.write_text(page.read_text(encoding="utf-8") + "\nNEWWORDING in this version.\n", encoding="utf-8")
    report = refresh_user_guide(data, guide_dir=guide)
    assert report is not None and [Path(p).name for p in report.updated] == [page.name]
    sources = _guide_sources(data)
    assert len(sources) == 4 and sum("NEWWORDING" in text for _, text in sources.values()) == 1


def test_a_guide_that_moved_is_replaced_once_its_old_folder_is_gone(tmp_path: Path) -> None:
    # Two installs with the same guide, used in turn: nothing to replace while the old one is there (the
    # sources' files still say the same); once it is removed, the sources go with the install left.
    data, first, second = tmp_path / "data", tmp_path / "one" / "guide", tmp_path / "two" / "guide"
    shutil.copytree(guide_files()[0].parent, first)
    shutil.copytree(guide_files()[0].parent, second)
    assert import_user_guide(data, guide_dir=first) is not None
    times = {s.title: (s.location, s.imported_at) for s in kb.open_store(data).sources()}
    assert refresh_user_guide(data, guide_dir=second) is None
    assert {s.title: (s.location, s.imported_at) for s in kb.open_store(data).sources()} == times
    shutil.rmtree(first)
    report = refresh_user_guide(data, guide_dir=second)
    # the same bytes under a new path, the old one gone: the sources move with their passages (kb/moves.py)
    assert report is not None and len(report.moved) == 4 and report.added == []
    assert {str(Path(s.location).parent) for s in kb.open_store(data).sources()} == {str(second.resolve())}
    assert refresh_user_guide(data, guide_dir=second) is None


def test_a_page_the_new_version_no_longer_ships_is_removed_and_a_new_one_added(tmp_path: Path) -> None:
    data, guide = tmp_path / "data", _old_install(tmp_path)
    assert import_user_guide(data, guide_dir=guide) is not None
    (guide / "02-tools.md").unlink()
    (guide / "05-new.md").write_text("# tinyRAG Desktop user guide: new things\n\nNEWPAGE words.\n", encoding="utf-8")
    assert refresh_user_guide(data, guide_dir=guide) is not None
    titles = sorted(_guide_sources(data))
    assert len(titles) == 4 and titles[-2:] == ["tinyRAG Desktop user guide: settings and troubleshooting",
                                                "tinyRAG Desktop user guide: the knowledge base"]
    assert "tinyRAG Desktop user guide: new things" in titles and not any(t.endswith("tools") for t in titles)


def test_guide_pages_the_user_removed_are_not_added_back_at_an_upgrade(tmp_path: Path) -> None:
    data, old = tmp_path / "data", _old_install(tmp_path)
    _imported_by_an_older_version(data, old)
    store = kb.open_store(data)
    try:
        tools = next(s for s in store.sources() if s.location.endswith("02-tools.md"))
        assert store.remove_source(tools.id)  # one page removed
    finally:
        store.close()
    assert refresh_user_guide(data) is not None
    after = _guide_sources(data)
    assert len(after) == 3 and not any(title.endswith("tools") for title in after)
    assert {folder for folder, _ in after.values()} == {os.path.realpath(guide_files()[0].parent)}
    store = kb.open_store(data)
    try:
        for source in store.sources():  # and then the whole guide
            assert store.remove_source(source.id)
    finally:
        store.close()
    (data / GUIDE_MARKER).write_text("\n".join(str(f) for f in guide_files(old)) + "\n", encoding="utf-8")
    assert refresh_user_guide(data) is None  # the old guide's marker, and none of its pages kept
    assert not kb.has_documents(data)


def test_a_guide_marker_nested_past_reading_leaves_the_guide_as_it_is(tmp_path: Path) -> None:
    # 100,000 "[" after its "{" ended the check after an upgrade in a RecursionError, as in thinking-models.json
    (tmp_path / GUIDE_MARKER).write_text('{"pages": ' + "[" * 100_000, encoding="utf-8")
    assert refresh_user_guide(tmp_path) is None


@pytest.mark.parametrize("first", [True, False])
def test_is_first_run_follows_the_settings_file(tmp_path: Path, first: bool) -> None:
    if not first:
        (tmp_path / "settings.json").write_text("{}", encoding="utf-8")
    assert is_first_run(tmp_path) is first


def test_help_says_what_it_does_without_probing(monkeypatch, capsys) -> None:
    import tinyrag_desktop.firstrun as firstrun

    monkeypatch.setattr(firstrun, "probe_servers_sync", lambda: pytest.fail("--help probed the servers"))
    with pytest.raises(SystemExit) as done:
        firstrun.main(["--help"])
    assert done.value.code == 0 and "Look for an OpenAI-compatible server" in capsys.readouterr().out
