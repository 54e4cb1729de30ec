"""A password written in the server's address is never shown or logged ("http://alice:***@…"), while
requests still go to the address as written."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.sse_server import ScriptedLLMServer, Status
from tinyrag_desktop.engine.errors import ServerUnreachable
from tinyrag_desktop.engine.events import EngineError
from tinyrag_desktop.hidden_passwords import hide_passwords
from tinyrag_desktop.settings import SettingsError

REPO = Path(__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONPATH": str(REPO), "PYTHONIOENCODING": "utf-8"}


@pytest.mark.parametrize(("said", "shown"), [
    ("Server: http://alice:s3cretpw@127.0.0.1:18737/v1", "Server: http://alice:***@127.0.0.1:18737/v1"),
    ("“https://alice:s3cretpw@example.org”.", "“https://alice:***@example.org”."),
    ("at http://alice:p@ss:w@rd@host:1/v1 and http://bob:x@h/v1", "at http://alice:***@host:1/v1 and http://bob:***@h/v1"),
    ("http://alice:@host/v1", "http://alice:***@host/v1"),
    # a user name alone, an address without user info, an e-mail address, a query's "a:b@c": as they are
    ("http://alice@host/v1", "http://alice@host/v1"),
    ("http://127.0.0.1:11434/v1", "http://127.0.0.1:11434/v1"),
    ("write to alice:s3cret@example.org", "write to alice:s3cret@example.org"),
    ("http://host/v1?x=a:b@c", "http://host/v1?x=a:b@c"),
])
def test_hide_passwords(said: str, shown: str) -> None:
    assert hide_passwords(said) == shown


def test_the_errors_that_name_the_server_hide_its_password() -> None:
    address = "http://alice:s3cretpw@127.0.0.1:1/v1"
    assert "s3cretpw" not in str(ServerUnreachable(f"The model server at {address} cannot be reached."))
    assert "s3cretpw" not in EngineError(f"Could not talk to {address}: refused.").message
    assert str(SettingsError(f"--base-url {address}: no.")) == "--base-url http://alice:***@127.0.0.1:1/v1: no."


def test_ask_says_and_logs_the_address_without_its_password(tmp_path: Path) -> None:
    with ScriptedLLMServer() as llm:
        llm.queue(Status(404, {"error": {"message": "not found"}}))
        address = llm.base_url.replace("http://", "http://alice:s3cretpw@")
        proc = subprocess.run([sys.executable, "-m", "tinyrag_desktop", "ask", "hello", "--base-url", address,
                               "--model", "scripted", "--data-dir", str(tmp_path)],
                              capture_output=True, text=True, env=ENV, cwd=REPO, timeout=120)
        reached = len(llm.requests)
    assert reached == 1  # the request went to the address as written
    assert proc.returncode == 1
    assert "http://alice:***@127.0.0.1:" in proc.stderr, proc.stderr
    log = (tmp_path / "logs" / "tinyrag.log").read_text(encoding="utf-8")
    assert "alice:***@" in log
    assert "s3cretpw" not in proc.stdout + proc.stderr + log
