"""What `nanogo FILE` prints around the program's own output, as a person reads it in a terminal or a log."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BOM = b"\xef\xbb\xbf"


def _nanogo(args: list[str], tmp_path: Path, **kwargs) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TINYRAG_DATA_DIR": str(tmp_path / "data")}
    return subprocess.run([sys.executable, "-m", "tinyrag_desktop", "nanogo", *args], env=env, timeout=60,
                          capture_output=True, **kwargs)


def test_a_byte_order_mark_from_standard_input_is_skipped(tmp_path):
    # Notepad's UTF-8 starts with one; it was "prog.go:1:1: invalid character U+FEFF" (an invisible one)
    proc = _nanogo(["-"], tmp_path, input=BOM + b'fmt.Println("bom")')
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, b"bom\n", b"")


def test_a_byte_order_mark_in_a_file_is_skipped(tmp_path):
    program = tmp_path / "notepad.go"
    program.write_bytes(BOM + b'x := "bom"\r\nfmt.Println(x)\r\n')
    proc = _nanogo([str(program)], tmp_path)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, b"bom\n", b"")
