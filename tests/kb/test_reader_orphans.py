"""An import's reader process ends soon after the app is killed (SIGKILL), also halfway through a file.

A reader saw the app had gone only when its input ended, between files: one busy with a long file read on
to its end first. The runner here is killed while its reader reads (SlowRead: as long as a long PDF)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.orphans import Runner, alive, wait_until

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="finds processes in /proc")


def _runner(started: Path) -> str:
    # read_apart from a thread of its own, as an import reads a large file
    return ("import threading\n"
            "from tinyrag_desktop.kb.reader_worker import read_apart\n"
            "from tests.kb.slow_read import SlowRead\n"
            f"job = SlowRead(300, {str(started)!r})\n"
            "t = threading.Thread(target=read_apart, args=(job, threading.Event()))\n"
            "t.start(); t.join()\n")


def test_a_busy_reader_ends_with_its_killed_parent(tmp_path):
    started = tmp_path / "reader.pid"
    with Runner(_runner(started)) as runner:
        wait_until(lambda: started.is_file() and started.read_text(), what="the reader to start the slow file")
        reader = int(started.read_text())
        assert reader in runner.descendants() and alive(reader)
        runner.kill()
        assert runner.survivors() == [], f"the reader {reader} outlived its parent"
