"""First run: the server probe against loopback servers on free ports, and the user guide's import."""

from __future__ import annotations

import json
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
    KnownServer, apply_probe, chat_models, guide_files, import_user_guide, is_first_run, probe_servers,
)
from tinyrag_desktop.settings import load_settings


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


def test_apply_probe_saves_the_found_server_and_ends_first_run(tmp_path: Path) -> None:
    from tinyrag_desktop.firstrun import Found, ProbeResult

    assert is_first_run(tmp_path)
    apply_probe(tmp_path, ProbeResult(Found("http://127.0.0.1:1234/v1", "qwen", "LM Studio"), ()))
    assert not is_first_run(tmp_path)
    saved, warnings = load_settings(tmp_path)
    assert (saved["base_url"], saved["chat_model"], warnings) == ("http://127.0.0.1:1234/v1", "qwen", [])


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
