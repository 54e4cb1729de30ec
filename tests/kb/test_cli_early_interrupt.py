"""Ctrl+C while ``kb add`` is still starting (importing its modules, building its parser): no traceback,
exit status 130 and one line, as Ctrl+C later on gives.

The child is held inside the import of one module (an import hook that waits there) and says so on its
standard output; only then is it sent SIGINT, so the signal lands exactly where the test means it to."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

# Runs ``python -m tinyrag_desktop ARGS…`` as the command line does, with an import hook that, when the
# module named first is imported, prints "importing" and waits there until Ctrl+C arrives.
_HELD_AT_IMPORT = """
import runpy, sys, time

class HoldAt:
    def find_spec(self, name, path=None, target=None):
        if name == held:
            print("importing", flush=True)
            while True:
                time.sleep(60)
        return None

held = sys.argv.pop(1)
sys.meta_path.insert(0, HoldAt())
sys.argv[0] = "tinyrag_desktop"
runpy.run_module("tinyrag_desktop", run_name="__main__", alter_sys=True)
"""


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child process")
@pytest.mark.parametrize("module", [
    "tinyrag_desktop.cliargs",  # __main__ moving the verb first
    "tinyrag_desktop.cli",  # __main__ handing over to the command line
    "tinyrag_desktop.kb.cli",  # cli.build_parser registering the kb verb
    "tinyrag_desktop.kb.ingest",  # the verb itself (handled before: the case to match)
])
def test_ctrl_c_while_kb_add_starts_exits_130_with_one_line(tmp_path, module):
    note = tmp_path / "note.md"
    note.write_text("# Note\n\nThe otter sleeps.\n", encoding="utf-8")
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "PYTHONPATH": str(REPO)}
    child = subprocess.Popen(
        [sys.executable, "-c", _HELD_AT_IMPORT, module, "kb", "add", str(note), "--data-dir", str(tmp_path / "data")],
        env=env, text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        # SIGINT as a terminal's Ctrl+C delivers it, even where this test runs with it ignored
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        assert child.stdout.readline() == "importing\n"
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=60)
    finally:
        child.kill()
    assert "Traceback" not in err, err
    assert child.returncode == 130, err
    assert err.strip().splitlines() == ["Stopped."], err
