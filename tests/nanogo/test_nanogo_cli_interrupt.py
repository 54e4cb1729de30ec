"""`nanogo FILE` stopped with Ctrl+C prints what the program printed until then, then "Stopped."."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LOOP = 'package main\n\nimport "fmt"\n\nfunc main() {\n\tfmt.Println("start")\n\tfor {\n\t}\n}\n'


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT")
def test_ctrl_c_prints_the_output_so_far_then_stopped(tmp_path):
    program = tmp_path / "loop.go"
    program.write_text(LOOP)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TINYRAG_DATA_DIR": str(tmp_path / "data")}
    proc = subprocess.Popen([sys.executable, "-m", "tinyrag_desktop", "nanogo", str(program)], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        # another process: the worker's first line reaches its pipe within a few hundredths of a second of
        # starting; nothing can be waited on from here, so the start-up gets its time
        time.sleep(3)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=20)
    finally:
        proc.kill()
    assert (out, proc.returncode) == ("start\n", 130)
    assert "Stopped." in err and "Traceback" not in err
