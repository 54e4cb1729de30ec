"""What `nanogo FILE` prints around the program's own output, as a person reads it in a terminal or a log."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BOM = b"\xef\xbb\xbf"


def _nanogo(args: list[str], tmp_path: Path, stderr: int = subprocess.PIPE,
            **kwargs) -> subprocess.CompletedProcess:
    """The verb run with its output on pipes (``stderr=subprocess.STDOUT``: both on one, as ``2>&1``)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TINYRAG_DATA_DIR": str(tmp_path / "data")}
    return subprocess.run([sys.executable, "-m", "tinyrag_desktop", "nanogo", *args], env=env, timeout=60,
                          stdout=subprocess.PIPE, stderr=stderr, **kwargs)


def test_a_byte_order_mark_from_standard_input_is_skipped(tmp_path):
    # Notepad's UTF-8 starts with one; it was "prog.go:1:1: invalid character U+FEFF" (an invisible one)
    proc = _nanogo(["-"], tmp_path, input=BOM + b'fmt.Println("bom")')
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, b"bom\n", b"")


def test_a_byte_order_mark_in_a_file_is_skipped(tmp_path):
    program = tmp_path / "notepad.go"
    program.write_bytes(BOM + b'x := "bom"\r\nfmt.Println(x)\r\n')
    proc = _nanogo([str(program)], tmp_path)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, b"bom\n", b"")


def test_a_limit_message_starts_a_line_of_its_own_after_output_cut_mid_line(tmp_path):
    # the output limit cuts a line in two: it read "line 6662\nlinnanoGo: output limit exceeded…" with 2>&1
    program = b'i := 0\nfor {\n\ti++\n\tfmt.Println("line", i)\n}\n'
    both = _nanogo(["-"], tmp_path, input=program, stderr=subprocess.STDOUT)
    assert both.returncode == 1
    last = both.stdout.decode().split("\n")[-2]
    assert last.startswith("nanoGo: output limit exceeded"), last
    # apart, stderr holds the message alone (what stdout holds is the program's, cut where it was cut)
    apart = _nanogo(["-"], tmp_path, input=program)
    assert apart.stderr.startswith(b"nanoGo: output limit exceeded") and not apart.stdout.endswith(b"\n")


def test_a_time_limit_message_starts_a_line_of_its_own(tmp_path):
    both = _nanogo(["-", "--tool-timeout", "1"], tmp_path, input=b'fmt.Print("started")\nfor {\n}\n',
                   stderr=subprocess.STDOUT)
    assert both.returncode == 1
    assert both.stdout.startswith(b"started\nnanoGo: time limit exceeded"), both.stdout
