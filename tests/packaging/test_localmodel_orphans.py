"""The built-in model server ends soon after the app is killed (SIGKILL): atexit does not run then, and the
server, in a session of its own, ran on with its model in memory until stopped by hand."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.orphans import Runner, command_of

from .test_localmodel import FAKE_SERVER

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="finds processes in /proc")


def _runner(script: Path, gguf: Path) -> str:
    return ("import sys, time\n"
            "from pathlib import Path\n"
            "from tinyrag_desktop.localmodel import Launcher, LocalModelServer\n"
            f"launcher = Launcher((sys.executable, {str(script)!r}), 'native', 'fake llama-server')\n"
            f"server = LocalModelServer(Path({str(gguf)!r}), launcher=launcher, log_path=Path({str(gguf)!r} + '.log'))\n"
            "server.start_sync()\n"
            "time.sleep(600)\n")


def test_the_server_ends_with_its_killed_app(tmp_path: Path) -> None:
    script = tmp_path / "fake_llama_server.py"
    script.write_text(FAKE_SERVER, encoding="utf-8")
    gguf = tmp_path / "m.gguf"
    gguf.write_text("weights", encoding="utf-8")
    with Runner(_runner(script, gguf)) as runner:
        def serving(pids: list[int]) -> bool:  # the server itself (not the guard that starts it)
            return any(command_of(pid)[1:2] == [str(script)] for pid in pids)
        servers = runner.wait_for_children(serving, "the server to start")
        runner.kill()
        assert runner.survivors() == [], f"of {servers}, these outlived the app"

